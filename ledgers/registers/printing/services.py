"""Printing a register volume and paraphing it (REG-21).

A print of a volume is recorded with the digest of its file. The first print of a volume's state
(its last entry, in one language) is the original, and its bytes depend on that state only
("same state, same bytes"); every later print of the same state is a duplicate, watermarked
"DUPLICATA" on every page and recorded as such. Once the authority has paraphed a volume whose
pages are all written, its page count and the content of each page are frozen: a print of it
that differs is refused. A paraphe covers the language it was given in; a print in another
language is a reading copy, not checked against it.
"""

import hashlib
from typing import Any, BinaryIO

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from ledgers.core.authenticators import passkey_required
from ledgers.core.authz import require_role
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.registers.models import EntryKind, Register
from ledgers.registers.services import (
    authorisation_entry_write,
    authorisations_register,
    display_name,
    register_language,
)
from ledgers.signatures.passkeys import signed_payload

from .document import Progress, Volume
from .models import VolumeParaphe, VolumePrint
from .register import NoSuchVolume, Rendered, render_register, render_register_volumes

# A print is a read of the register: any role held in its establishment.
PRINTERS = tuple(Role.values)


class _Hashing:
    """Passes what is written on to ``out`` and hashes it."""

    def __init__(self, out: BinaryIO) -> None:
        self.out, self.sha = out, hashlib.sha256()

    def write(self, data: bytes) -> int:
        self.sha.update(data)
        return self.out.write(data)


def volume_print(
    *,
    register: Register,
    out: BinaryIO,
    actor: AbstractBaseUser | None,
    volume: int | None = None,
    lang: str | None = None,
    progress: Progress | None = None,
) -> tuple[Rendered, VolumePrint]:
    """Print volume ``volume`` of ``register`` (by default the one in use) into ``out`` and record
    the print: the original of its state, or a duplicate. ``actor`` None: a print by the system
    (command line, scheduled task). Not one transaction: the rendering reads the database page by
    page; the record is written once the file is complete."""
    if actor is not None:
        require_role(actor, register.establishment, PRINTERS)
    lang = lang or settings.LANGUAGE_CODE
    start, sink, seen = out.tell(), _Hashing(out), {}

    def stamp(v: Volume) -> str:
        _check_paraphe(register, v, lang)
        seen["duplicate"] = VolumePrint.objects.filter(
            register=register, volume=v.number, last_seq=_last_seq(v), lang=lang, duplicate=False
        ).exists()
        return str(_("DUPLICATA")) if seen["duplicate"] else ""

    paraphed = VolumeParaphe.objects.filter(register=register, lang=lang).exists()  # pages to compare
    try:
        rendered = render_register(
            register, sink, volume=volume, lang=lang, progress=progress, stamp=stamp, with_digests=paraphed
        )
    except NoSuchVolume as exc:
        raise ValidationError({"volume": str(exc)}) from exc
    printed = VolumePrint(
        register=register,
        volume=rendered.volume.number,
        last_seq=_last_seq(rendered.volume),
        lang=lang,
        pages=rendered.pages,
        duplicate=seen["duplicate"],
        digest=sink.sha.hexdigest(),
        printed_by=actor,
    )
    try:
        with transaction.atomic():
            printed.save()
    except IntegrityError:
        if seen["duplicate"]:
            raise
        # Another print of this state became the original meanwhile: this one is a duplicate.
        out.seek(start)
        out.truncate()
        return volume_print(register=register, out=out, actor=actor, volume=volume, lang=lang, progress=progress)
    return rendered, printed


@transaction.atomic
def volume_paraphe(
    *,
    register: Register,
    volume: int,
    actor: AbstractBaseUser,
    paraphe: str,
    lang: str | None = None,
    passkey: Any = None,
) -> VolumeParaphe:
    """The authority paraphs volume ``volume``, whose pages are all written (a later volume
    continues it, or the register is closed): its page count and the content of its pages, as
    printed in ``lang``, are frozen. The paraphe is the authority's signature, as the cote et
    paraphe is: a line in their name in the register of authorisations names the volume and the
    digest of each of its pages, signed with their passkey when they have one (``passkey``: the
    assertion over that line)."""
    est = register.establishment
    role = require_role(actor, est, register.kind_info.paraph_roles_for(est.jurisdiction))
    if not paraphe.strip():
        raise RuleViolation("REG-21", _("Le paraphe de l'autorité est obligatoire."))
    if VolumeParaphe.objects.filter(register=register, volume=volume).exists():
        raise RuleViolation("REG-21", _("Le tome n° %(volume)s a déjà été paraphé.") % {"volume": volume})
    lang = lang or settings.LANGUAGE_CODE
    volumes = render_register_volumes(
        register, lambda v: None, lang=lang, stop=lambda v: v.number >= volume, with_digests=True
    )
    if volume < 1 or len(volumes) < volume:
        raise ValidationError(
            {
                "volume": _("Le registre n° %(number)s ne compte que %(count)s tome(s).")
                % {"number": register.number, "count": len(volumes)}
            }
        )
    laid_out = volumes[volume - 1]
    closed = Register.objects.filter(pk=register.pk, status=Register.Status.CLOSED).exists()
    if not laid_out.complete and not closed:
        raise RuleViolation(
            "REG-21",
            _("Le tome n° %(volume)s est en cours : il se paraphe une fois toutes ses pages écrites.")
            % {"volume": volume},
        )
    record = VolumeParaphe(
        register=register,
        volume=volume,
        last_seq=_last_seq(laid_out),
        lang=lang,
        pages=laid_out.pages,
        page_digests=list(laid_out.page_digests),
        authority=actor,
        role=role,
        paraphe=paraphe.strip(),
    )
    try:
        with transaction.atomic():
            record.save()
    except IntegrityError as exc:  # paraphed meanwhile by a concurrent request
        raise RuleViolation("REG-21", _("Le tome n° %(volume)s a déjà été paraphé.") % {"volume": volume}) from exc
    _paraphe_line(record, passkey=passkey)
    return record


def _paraphe_line(record: VolumeParaphe, *, passkey: Any) -> None:
    """The paraphe's line in the authority's name, signed by their passkey. No time in its
    payload: the digest the passkey signs is computed when the act is tried and again when it is
    done, and the entry's own time is the server's."""
    register, actor = record.register, record.authority
    est = register.establishment
    with register_language():
        payload = {
            "subject": str(_("Paraphe d'un tome imprimé")),
            "text": str(
                _(
                    "%(name)s a paraphé le tome n° %(volume)s du registre %(number)s : %(pages)s pages, "
                    "entrées jusqu'au n° %(last)s, imprimé en « %(lang)s »."
                )
                % {
                    "name": display_name(actor),
                    "volume": record.volume,
                    "number": register.number,
                    "pages": record.pages,
                    "last": record.last_seq,
                    "lang": record.lang,
                }
            ),
            "person": actor.get_username(),
            "register": register.number,
            "volume": record.volume,
            "last_seq": record.last_seq,
            "lang": record.lang,
            "pages": record.pages,
            "page_digests": record.page_digests,
            "paraphe": record.paraphe,
        }
    payload = signed_payload(
        actor=actor,
        register=authorisations_register(est).number,
        kind=EntryKind.RECORD,
        payload=payload,
        passkey=passkey,
        required=passkey_required(est, record.role, actor),
    )
    authorisation_entry_write(establishment=est, actor=actor, role=record.role, payload=payload, own_act=True)


def _check_paraphe(register: Register, volume: Volume, lang: str) -> None:
    paraphed = VolumeParaphe.objects.filter(register=register, volume=volume.number, lang=lang).first()
    if paraphed is None:
        return
    if volume.pages != paraphed.pages or list(volume.page_digests) != paraphed.page_digests:
        raise RuleViolation(
            "REG-21",
            _(
                "Le tome n° %(volume)s a été paraphé avec %(pages)s pages : une impression dont les pages diffèrent "
                "(%(now)s pages ici) est refusée."
            )
            % {"volume": volume.number, "pages": paraphed.pages, "now": volume.pages},
        )


def _last_seq(volume: Volume) -> int:
    return volume.last[0] if volume.last else 0
