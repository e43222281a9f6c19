"""The files the reports app produces, written to a file object. Used by the report jobs and
by ``manage.py render_register``."""

import tempfile
from typing import BinaryIO

from django.contrib.auth.models import AbstractBaseUser
from django.utils import translation
from django.utils.translation import gettext as _

from ledgers.registers.models import Register
from ledgers.registers.printing import Rendered
from ledgers.registers.printing.document import Progress
from ledgers.registers.printing.services import volume_print

from .sealing import seal_pdf

SPOOL_IN_MEMORY = 32 * 2**20  # a larger unsealed copy waits on disk for its seal


def register_pdf(
    register: Register,
    out: BinaryIO,
    *,
    lang: str,
    sealed: bool,
    progress: Progress | None = None,
    actor: AbstractBaseUser | None = None,
    volume: int | None = None,
) -> Rendered:
    """A volume of the printed register (by default the one in use), recorded in its print
    history as the original or a duplicate (REG-21); ``sealed``: with the establishment's PAdES
    seal over the whole file (the unsealed bytes are deterministic, the seal adds its signing
    time)."""
    if not sealed:
        return volume_print(register=register, out=out, actor=actor, volume=volume, lang=lang, progress=progress)[0]
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY) as plain:
        rendered = volume_print(register=register, out=plain, actor=actor, volume=volume, lang=lang, progress=progress)[
            0
        ]
        plain.seek(0)
        with translation.override(lang):
            reason = _("Copie conforme du registre n° %(number)s, entrées 1 à %(seq)s") % {
                "number": register.number,
                "seq": rendered.head_seq,
            }
        seal_pdf(plain, out, establishment=register.establishment, reason=reason)
    return rendered
