"""PAdES seal of printed documents with the establishment's certificate (pyHanko).

Where the certificate comes from (docs/printing.md):
1. ``LEDGERS_SEAL_PKCS12_<CODE>`` (+ ``LEDGERS_SEAL_PASSPHRASE_<CODE>``): a PKCS#12 file for the
   establishment whose code, upper-cased with non-alphanumerics as "_", is ``<CODE>``;
2. ``LEDGERS_SEAL_PKCS12`` (+ ``LEDGERS_SEAL_PASSPHRASE``): one PKCS#12 for every establishment;
3. when ``settings.LEDGERS_SEAL_DEMO`` allows it, the self-signed demo certificate that
   ``seed_demo`` creates under ``settings.LEDGERS_SEAL_DEMO_DIR``.
"""

import os
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import BinaryIO

from django.conf import settings
from django.utils.translation import gettext as _

from ledgers.core.models import Establishment

SIGNATURE_FIELD = "Sceau"


class SealUnavailable(Exception):
    """No usable certificate for this establishment."""


def _env_key(establishment: Establishment) -> str:
    return re.sub(r"[^A-Z0-9]", "_", establishment.code.upper())


def demo_certificate_path(establishment: Establishment) -> Path:
    return Path(settings.LEDGERS_SEAL_DEMO_DIR) / f"{establishment.code}.p12"


def certificate_source(establishment: Establishment) -> tuple[Path, bytes | None]:
    """The PKCS#12 file and passphrase that seal this establishment's documents."""
    key = _env_key(establishment)
    path = os.environ.get(f"LEDGERS_SEAL_PKCS12_{key}")
    passphrase = os.environ.get(f"LEDGERS_SEAL_PASSPHRASE_{key}")
    if not path:
        path, passphrase = os.environ.get("LEDGERS_SEAL_PKCS12"), os.environ.get("LEDGERS_SEAL_PASSPHRASE")
    if path:
        return Path(path), passphrase.encode() if passphrase else None
    demo = demo_certificate_path(establishment)
    if settings.LEDGERS_SEAL_DEMO and demo.exists():
        return demo, None
    raise SealUnavailable(
        _("Aucun certificat de scellement n'est configuré pour %(establishment)s (voir docs/printing.md).")
        % {"establishment": establishment.name}
    )


def seal_pdf(source: BinaryIO, output: BinaryIO, *, establishment: Establishment, reason: str) -> None:
    """Write ``source`` (a PDF) to ``output`` with a PAdES signature covering the whole file."""
    # pyHanko takes a second to import: imported by the sealing alone, not by every process that
    # loads the apps (a daily verification's start).
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import fields, signers

    path, passphrase = certificate_source(establishment)
    signer = signers.SimpleSigner.load_pkcs12(str(path), passphrase=passphrase)
    if signer is None:  # pyHanko logs why (missing file, wrong passphrase, no key) and returns None
        raise SealUnavailable(_("Certificat de scellement illisible : %(path)s.") % {"path": path})
    meta = signers.PdfSignatureMetadata(
        field_name=SIGNATURE_FIELD,
        reason=reason,
        location=establishment.name,
        name=establishment.name,
        md_algorithm="sha256",
        subfilter=fields.SigSeedSubFilter.PADES,
    )
    signers.sign_pdf(IncrementalPdfFileWriter(source), meta, signer=signer, output=output)


def demo_certificate_create(establishment: Establishment) -> tuple[Path, bool]:
    """The establishment's self-signed demo certificate (PKCS#12, no passphrase), created once.
    Returns its path and whether it was created now."""
    # Here only: the archives' services, which every process loads, import this module.
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.hazmat.primitives.serialization import NoEncryption, pkcs12
    from cryptography.x509.oid import NameOID

    path = demo_certificate_path(establishment)
    if path.exists():
        return path, False
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.COUNTRY_NAME, establishment.jurisdiction),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, establishment.name[:64]),  # X.509 caps names at 64
            x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, "Sceau de démonstration"),
            x509.NameAttribute(NameOID.COMMON_NAME, establishment.name[:64]),
        ]
    )
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=True,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .sign(key, hashes.SHA256())
    )
    data = pkcs12.serialize_key_and_certificates(establishment.code.encode(), key, certificate, None, NoEncryption())
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".tmp")
    partial.write_bytes(data)
    partial.replace(path)  # never a half-written certificate
    return path, True
