"""Writes from the monitoring system: orphan credits, file copies and event imports."""

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, role_named_by_text
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, Membership
from ledgers.core.roles import Role
from ledgers.keys.models import KeyIssue
from ledgers.keys.selectors import holdings
from ledgers.registers.selectors import current_register
from ledgers.registers.services import (
    display_name,
    register_language,
)

from .. import selectors
from ..models import (
    FileCopy,
    Intervention,
    Machine,
    MonitoringEvent,
    Orphan,
    RamClear,
    Releve,
)
from ..registers import INVENTORY_KIND, JACKPOTS, METER_READINGS, SLOT_FILES
from .common import _append, _line, _register_write
from .releves import ReadingErrors


@transaction.atomic
def orphan_record(
    *,
    establishment: Establishment,
    kind: str,
    amount: Decimal,
    disposal: str,
    actor: AbstractBaseUser,
    machine: Machine | None = None,
    place: str = "",
    witness: AbstractBaseUser | None = None,
    payee: AbstractBaseUser | None = None,
    taken_by: str = "",
    found_at: datetime.datetime | None = None,
) -> Orphan:
    """An orphan found (SLOT-19): never paid to a member of staff; a customer who took it is excluded
    from the room at once (INC-05), recorded with it."""
    est = establishment
    role = require_role(actor, est, (Role.SUPERVISEUR, Role.CAISSIER, Role.CHANGEUR, Role.MECANICIEN))
    if kind not in Orphan.Kind.values or amount <= 0 or not disposal.strip():
        raise ValidationError(_("Nature, montant positif et suite donnée sont obligatoires."))
    # "Un membre du personnel", of this casino or of any other the system keeps (the operator's).
    if payee is not None and Membership.objects.filter(user=payee).exists():
        raise RuleViolation("SLOT-19", _("Un orphelin n'est jamais remis à un membre du personnel."))
    if machine is None and not place.strip():
        raise ValidationError(_("Indiquez la machine ou le lieu."))
    found_at = found_at or timezone.now()
    # The customer who took it is excluded from the room at once, recorded with the orphan's line.
    excluded_at = timezone.now() if taken_by.strip() else None
    exclusion = f" — {_('pris par')} {taken_by.strip()}, {_('exclu de la salle')}" if excluded_at else ""
    with register_language():
        payload = _line(
            machine,
            event=_("Orphelin"),
            at=found_at,
            actor=actor,
            role=role,
            est=est,
            amount=str(amount),
            detail=f"{Orphan.Kind(kind).label} — {place.strip() or machine} — {disposal.strip()}{exclusion}",
        )
    entry = _register_write(est, JACKPOTS, payload, actor=actor, role=role)
    return Orphan.objects.create(
        establishment=est,
        kind=kind,
        machine=machine,
        place=place.strip(),
        amount=amount,
        found_at=found_at,
        found_by=actor,
        witness=witness,
        disposal=disposal.strip(),
        taken_by=taken_by.strip(),
        excluded_at=excluded_at,
        entry=entry,
    )


@transaction.atomic
def files_copy_deliver(
    *, establishment: Establishment, actor: AbstractBaseUser, received_by: AbstractBaseUser
) -> FileCopy:
    """The Directeur de l'exploitation hands a copy of the slot files, as they stand, to the
    Secrétariat Général (SLOT-08): the copy is the slot-files register up to its head, whose hash
    identifies the version (its export: ``manage.py export_register``)."""
    est = establishment
    if est.jurisdiction != "MC":
        raise ValidationError(_("La copie des fichiers au Secrétariat Général est une règle monégasque."))
    role = role_named_by_text(
        actor,
        est,
        (Role.DIRECTEUR_EXPLOITATION,),
        "SLOT-08",
        _("Les fichiers sont tenus par le Directeur de l'exploitation."),
    )
    role_named_by_text(
        received_by, est, (Role.SECRETARIAT_GENERAL,), "SLOT-08", _("La copie est déposée au Secrétariat Général.")
    )
    register = current_register(est, SLOT_FILES.code)
    covers_seq, covers_hash = register.head_seq, register.head_hash
    now = timezone.now()
    entry = _append(
        INVENTORY_KIND,
        None,
        est,
        actor=actor,
        role=role,
        event=_("Copie au Secrétariat Général"),
        at=now,
        detail=f"{_('entrées')} 1 → {covers_seq} — {covers_hash[:16]}… — {_('reçue par')} {display_name(received_by)}",
    )
    return FileCopy.objects.create(
        establishment=est,
        delivered_at=now,
        covers_seq=covers_seq,
        covers_hash=covers_hash,
        delivered_by=actor,
        received_by=received_by,
        entry=entry,
    )


@dataclass(frozen=True)
class EventRow:
    machine: str
    kind: str
    occurred_at: datetime.datetime
    line: int = 0


# An event is explained by a record whose time window contains it, give or take this margin (the
# monitoring clock and the sheet's written time differ by minutes).
EVENT_MARGIN = datetime.timedelta(minutes=10)


def _key_out(event: EventRow, machine: Machine) -> KeyIssue | None:
    """The hand-over of a key serving the machine (door, parts, bill box) or its socle that was out
    when the event occurred, give or take the margin: who held the key that opened it."""
    refs = [machine.number] + ([machine.socle.number] if machine.socle_id else [])
    start, end = event.occurred_at - EVENT_MARGIN, event.occurred_at + EVENT_MARGIN
    return next(
        (issue for ref in refs for issue in holdings(machine.establishment, start=start, end=end, asset_ref=ref)), None
    )


def _explained(event: EventRow, machine: Machine) -> dict[str, Any]:
    """The record that explains an event, as MonitoringEvent fields, or its flag; an opening also
    gets the key hand-over it matches. MC: the door is opened by the mechanic who identified
    himself, the one whose intervention it is; a door key then held by someone else is an opening
    with no matching identification (KEY-06)."""
    if event.kind == MonitoringEvent.Kind.RESET:
        return _record_of(event, machine)
    record, key_issue = _record_of(event, machine), _key_out(event, machine)
    sheet = record.get("intervention")
    if (
        machine.establishment.jurisdiction == "MC"
        and sheet is not None
        and key_issue is not None
        and key_issue.key.lock_type == "machine_door"
        and key_issue.holder_id != sheet.technician_id
    ):
        record["flag"] = "KEY-06"
    return {**record, "key_issue": key_issue}


def _record_of(event: EventRow, machine: Machine) -> dict[str, Any]:
    start, end = event.occurred_at + EVENT_MARGIN, event.occurred_at - EVENT_MARGIN
    if event.kind == MonitoringEvent.Kind.DOOR:
        sheet = (
            Intervention.objects.filter(machine=machine, stopped_at__lte=start)
            .filter(Q(ended_at__isnull=True) | Q(ended_at__gte=end))
            .first()
        )
        # A door opened with no intervention sheet (MC), no intervention record (FR, SLOT-29's signal).
        flag = "SLOT-14" if machine.establishment.jurisdiction == "MC" else "SLOT-53"
        return {"intervention": sheet} if sheet else {"flag": flag}
    if event.kind == MonitoringEvent.Kind.RESET:
        clear = RamClear.objects.filter(machine=machine, performed_at__range=(end, start)).first()
        return {"ram_clear": clear} if clear else {"flag": "INC-12"}
    releve = (
        Releve.objects.filter(establishment=machine.establishment, started_at__lte=start)
        .filter(Q(closed_at__isnull=True) | Q(closed_at__gte=end))
        .first()
    )
    return {"releve": releve} if releve else {"flag": "SLOT-24"}


@transaction.atomic
def monitoring_events_import(
    *, establishment: Establishment, rows: Sequence[EventRow], actor: AbstractBaseUser
) -> list[MonitoringEvent]:
    """Events exported by the monitoring system, each matched against the interventions (door),
    the relèves (bill box, socle) and the RAM clears (reset), and an opening against the key
    hand-overs (who held a key of the machine or its socle then); unexplained ones are flagged with
    the requirement they break, naming the key holder if any. All rows or none; an event already
    imported is skipped."""
    est = establishment
    role = require_role(
        actor, est, (Role.SUPERVISEUR, Role.DIRECTEUR_EXPLOITATION, Role.COMITE, Role.DIRECTEUR_RESPONSABLE)
    )
    machines = {m.number: m for m in selectors.machines_of(est)}
    errors = [
        str(_("ligne %(n)s : machine ou événement inconnu.") % {"n": row.line or i})
        for i, row in enumerate(rows, start=1)
        if row.machine not in machines or row.kind not in MonitoringEvent.Kind.values
    ]
    if errors:
        raise ReadingErrors(errors)
    created = []
    for row in rows:
        machine = machines[row.machine]
        if MonitoringEvent.objects.filter(machine=machine, kind=row.kind, occurred_at=row.occurred_at).exists():
            continue
        created.append(
            MonitoringEvent.objects.create(
                machine=machine,
                kind=row.kind,
                occurred_at=row.occurred_at,
                imported_by=actor,
                **_explained(row, machine),
            )
        )
    flagged = [e for e in created if e.flag]
    with register_language():
        detail = str(_("%(n)s événements importés, %(f)s non expliqués") % {"n": len(created), "f": len(flagged)})
        payload = _line(
            None,
            event=_("Import des événements de surveillance"),
            at=timezone.now(),
            detail=detail,
            actor=actor,
            role=role,
            est=est,
            flags=[
                f"{e.machine.number} {e.kind} {est.localtime(e.occurred_at):%Y-%m-%d %H:%M} {e.flag}"
                + (f" — {_('clé')} {e.key_issue.key.code} : {display_name(e.key_issue.holder)}" if e.key_issue else "")
                for e in flagged
            ],
        )
    _register_write(est, METER_READINGS, payload, actor=actor, role=role)
    return created
