"""RFC 3161 time-stamps of tree heads, by the authority at ``LEDGERS_TSA_URL`` (pyHanko's HTTP
client). A token is kept base64 (DER ContentInfo); it is valid when its TSTInfo's message imprint
is the SHA-256 given and its signature verifies under the certificate it carries, and, when
``LEDGERS_TSA_ROOTS`` names a PEM file of the authority's roots, chains to one of them.

pyHanko and aiohttp take a second or two to import, asn1crypto a tenth: they are imported when a
token is asked for or checked, not by every process that loads the apps (a daily verification's start)."""

import asyncio
import base64
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings

if TYPE_CHECKING:
    from asn1crypto import cms, x509


def stamp(digest: bytes) -> str:
    """The base64 token of the configured authority over ``digest`` (SHA-256), or "" without one."""
    if not settings.LEDGERS_TSA_URL:
        return ""
    import aiohttp
    from pyhanko.sign.timestamps import HTTPTimeStamper

    async def request() -> "cms.ContentInfo":
        async with aiohttp.ClientSession() as session:
            return await HTTPTimeStamper(settings.LEDGERS_TSA_URL, session=session).async_timestamp(digest, "sha256")

    return base64.b64encode(asyncio.run(request()).dump()).decode("ascii")


def any_authority() -> bool:
    """Whether a token of any authority is accepted: without ``LEDGERS_TSA_ROOTS`` a token is only
    held to the certificate it carries, which anyone can make."""
    return not settings.LEDGERS_TSA_ROOTS


def _roots() -> "list[x509.Certificate] | None":
    from asn1crypto import pem, x509

    if any_authority():
        return None
    data = Path(settings.LEDGERS_TSA_ROOTS).read_bytes()
    return [x509.Certificate.load(der) for _, _, der in pem.unarmor(data, multiple=True)]


def token_time(token: str) -> datetime:
    from asn1crypto import cms

    signed = cms.ContentInfo.load(base64.b64decode(token))["content"]
    return signed["encap_content_info"]["content"].parsed["gen_time"].native


def token_valid(token: str, digest: bytes) -> bool:
    from asn1crypto import cms
    from pyhanko.sign.validation.generic_cms import validate_tst_signed_data
    from pyhanko_certvalidator import ValidationContext

    try:
        signed = cms.ContentInfo.load(base64.b64decode(token))["content"]
        roots = _roots()
        context = ValidationContext(trust_roots=roots, allow_fetching=False) if roots else None
        status = asyncio.run(validate_tst_signed_data(signed, context, lambda algorithm: digest))
    except Exception:  # a token that does not even parse or validate is simply not valid
        return False
    return bool(status["intact"] and status["valid"] and (roots is None or status.get("trust_problem_indic") is None))
