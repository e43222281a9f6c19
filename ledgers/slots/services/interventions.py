"""Writes on interventions: staff approvals, opening and closing, the daily envelope and SFM visits."""

import datetime
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, role_named_by_text, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.registers.services import (
    display_name,
)
from ledgers.registers.written import note_written

from .. import selectors
from ..models import (
    DailyTransmittal,
    Intervention,
    Machine,
    Medium,
    SfmVisit,
    StaffApproval,
)
from ..registers import INVENTORY_KIND, TECHNICAL_KIND
from .common import INTERVENTION_ROLES, INVENTORY_ROLES, _append, _fiche_write


@transaction.atomic
def staff_approval_record(
    *,
    establishment: Establishment,
    user: AbstractBaseUser,
    kind: str,
    reference: str,
    issuer: str,
    valid_from: datetime.date,
    actor: AbstractBaseUser,
    valid_until: datetime.date | None = None,
) -> StaffApproval:
    """A ministerial approval of a slot staff member (SLOT-50) or of an SFM technician (SLOT-53)."""
    role = require_role(actor, establishment, INVENTORY_ROLES[establishment.jurisdiction])
    if kind not in StaffApproval.Kind.values:
        raise ValidationError({"kind": _("Nature d'agrément inconnue.")})
    if not reference.strip() or not issuer.strip():
        raise ValidationError(_("La référence et l'autorité de l'agrément sont obligatoires."))
    if valid_until is not None and valid_until < valid_from:
        raise ValidationError({"valid_until": _("La fin de validité précède son début.")})
    approval = save_audited(
        StaffApproval(
            establishment=establishment,
            user=user,
            kind=kind,
            reference=reference.strip(),
            issuer=issuer.strip(),
            valid_from=valid_from,
            valid_until=valid_until,
        ),
        actor=actor,
        reason="agrément",
    )
    _append(
        INVENTORY_KIND,
        None,
        establishment,
        actor=actor,
        role=role,
        event=_("Agrément"),
        at=timezone.now(),
        detail=f"{display_name(user)} — {approval} — {approval.issuer} — {valid_from:%d/%m/%Y}"
        + (f" → {valid_until:%d/%m/%Y}" if valid_until else ""),
    )
    return approval


def _approval(est: Establishment, user: AbstractBaseUser, role: str, on: datetime.date) -> StaffApproval | None:
    """FR: the valid ministerial approval the technician needs (SLOT-50 casino staff, SLOT-53 SFM)."""
    if est.jurisdiction != "FR":
        return None
    kind = StaffApproval.Kind.SFM if role == Role.TECHNICIEN_SFM else StaffApproval.Kind.SLOT_STAFF
    approval = selectors.valid_approval(est, user, kind, on)
    if approval is None:
        raise RuleViolation(
            "SLOT-53" if kind == StaffApproval.Kind.SFM else "SLOT-50",
            _("%(who)s n'a pas d'agrément en cours de validité.") % {"who": display_name(user)},
        )
    return approval


@transaction.atomic
def intervention_open(
    *, machine: Machine, actor: AbstractBaseUser, reason: str, stopped_at: datetime.datetime | None = None
) -> Intervention:
    """A machine door opened by an identified mechanic (the signed-in user: the monitoring system's
    identification, SLOT-14), FR also an approved SFM technician (SLOT-53); anyone else is refused."""
    est = machine.establishment
    roles = INTERVENTION_ROLES[est.jurisdiction]
    if est.jurisdiction == "FR" and selectors.installed_count(est) > (est.setting("SET-43") or 75):
        roles = tuple(r for r in roles if r != Role.EMPLOYE_JEUX)
    role = role_named_by_text(
        actor,
        est,
        roles,
        "SLOT-14" if est.jurisdiction == "MC" else "SLOT-53",
        _("Une machine n'est ouverte que par un mécanicien identifié (ou un technicien de la SFM)."),
    )
    if not reason.strip():
        raise RuleViolation("SLOT-14", _("Le motif de l'arrêt de la machine est obligatoire."))
    stopped_at = stopped_at or timezone.now()
    approval = _approval(est, actor, role, est.localtime(stopped_at).date())
    intervention = save_audited(
        Intervention(
            machine=machine,
            technician=actor,
            technician_role=role,
            approval=approval,
            stopped_at=stopped_at,
            reason=reason.strip(),
        ),
        actor=actor,
        reason="ouverture",
    )
    ref = f" — {_('agrément')} {approval.reference}" if approval else ""
    _append(
        TECHNICAL_KIND,
        machine,
        est,
        actor=actor,
        role=role,
        event=_("Ouverture de la machine"),
        at=stopped_at,
        detail=f"{_('Fiche')} n° {intervention.pk} — {intervention.reason}{ref}",
        intervention=intervention.pk,
    )
    return intervention


@transaction.atomic
def intervention_close(
    *, intervention: Intervention, actor: AbstractBaseUser, work_done: str, ended_at: datetime.datetime | None = None
) -> Intervention:
    """The technician closes the sheet with the work done (SLOT-14, SLOT-53); a sheet handed over in
    the day's envelope is never edited again (SLOT-15)."""
    intervention = Intervention.objects.select_for_update().get(pk=intervention.pk)
    machine = intervention.machine
    est = machine.establishment
    if intervention.transmittal_id is not None:
        raise RuleViolation(
            "SLOT-15", _("Cette fiche a été remise à la Direction de l'exploitation : elle ne peut plus être modifiée.")
        )
    if actor.pk != intervention.technician_id:
        raise RuleViolation("SLOT-14", _("La fiche est signée par le mécanicien qui a ouvert la machine."))
    role = intervention.technician_role
    if intervention.status != Intervention.Status.OPEN:
        raise ValidationError(_("Cette intervention est déjà close."))
    if not work_done.strip():
        raise RuleViolation("SLOT-53", _("Indiquez les travaux effectués."))
    intervention.ended_at = ended_at or timezone.now()
    if intervention.ended_at < intervention.stopped_at:
        raise ValidationError({"ended_at": _("La fin précède l'arrêt de la machine.")})
    intervention.work_done, intervention.status = work_done.strip(), Intervention.Status.CLOSED
    save_audited(intervention, actor=actor, reason="clôture")
    _append(
        TECHNICAL_KIND,
        machine,
        est,
        actor=actor,
        role=role,
        event=_("Fin d'intervention"),
        at=intervention.ended_at,
        detail=f"{_('Fiche')} n° {intervention.pk} — {intervention.work_done}",
        intervention=intervention.pk,
    )
    return intervention


@transaction.atomic
def transmittal_hand_over(
    *, establishment: Establishment, date: datetime.date, actor: AbstractBaseUser, received_by: AbstractBaseUser
) -> DailyTransmittal:
    """At the closing the superviseur hands the day's original sheets in an envelope to the Direction
    de l'exploitation (SLOT-15, MC): every sheet of the day, none still open."""
    est = establishment
    if est.jurisdiction != "MC":
        raise ValidationError(_("L'enveloppe quotidienne des fiches d'intervention est une règle monégasque."))
    role = role_named_by_text(
        actor,
        est,
        (Role.SUPERVISEUR,),
        "SLOT-15",
        _("Le superviseur remet les fiches du jour à la Direction de l'exploitation."),
    )
    role_named_by_text(
        received_by,
        est,
        (Role.DIRECTEUR_EXPLOITATION,),
        "SLOT-15",
        _("Les fiches sont remises à la Direction de l'exploitation."),
    )
    sheets = list(selectors.sheets_of_day(est, date).select_for_update())
    still_open = [s for s in sheets if s.status == Intervention.Status.OPEN]
    if still_open:
        raise RuleViolation("SLOT-15", _("La fiche n° %(n)s du jour n'est pas close.") % {"n": still_open[0].pk})
    if DailyTransmittal.objects.filter(establishment=est, date=date).exists():
        raise ValidationError(_("Les fiches de ce jour ont déjà été remises."))
    now = timezone.now()
    # The entry names the sheets it hands over: they take the transmittal, which keeps the entry.
    note_written(Intervention, [s.pk for s in sheets])
    entry = _append(
        TECHNICAL_KIND,
        None,
        est,
        actor=actor,
        role=role,
        event=_("Remise des fiches du jour"),
        at=now,
        detail=f"{date:%d/%m/%Y} — {len(sheets)} {_('fiches')} — {_('reçues par')} {display_name(received_by)}",
        sheets=[s.pk for s in sheets],
    )
    transmittal = DailyTransmittal.objects.create(
        establishment=est, date=date, handed_by=actor, handed_at=now, received_by=received_by, entry=entry
    )
    for sheet in sheets:
        sheet.transmittal = transmittal
        save_audited(sheet, actor=actor, reason="remise à la Direction")
    return transmittal


ACCEPTOR_MEDIA = frozenset({Medium.BANKNOTES, Medium.TITO, Medium.CARD})


@transaction.atomic
def sfm_visit_record(
    *,
    establishment: Establishment,
    machines: Sequence[Machine],
    actor: AbstractBaseUser,
    remarks: str,
    limits: dict[str, dict[str, Any]],
    visited_at: datetime.datetime | None = None,
) -> SfmVisit:
    """The SFM technician's revision visit: remarks and conclusions in modèle 26 (and each machine's
    fiche 34); every machine with a bill, ticket or card acceptor has its insertion and payment
    limits checked ({number: {"insertion_limit", "payment_limit"}}), compared with SLOT-25."""
    est = establishment
    if est.jurisdiction != "FR":
        raise ValidationError(_("Les visites de révision de la SFM sont une règle française."))
    role = role_named_by_text(
        actor, est, (Role.TECHNICIEN_SFM,), "SLOT-54", _("La visite de révision est faite par un technicien de la SFM.")
    )
    visited_at = visited_at or timezone.now()
    approval = _approval(est, actor, role, est.localtime(visited_at).date())
    if not machines or not remarks.strip():
        raise ValidationError(_("Indiquez les machines visitées et les remarques et conclusions."))
    checked = {}
    for machine in machines:
        if not ACCEPTOR_MEDIA & set(machine.media):
            continue
        seen = limits.get(machine.number)
        if not seen or seen.get("insertion_limit") in (None, "") or seen.get("payment_limit") in (None, ""):
            raise RuleViolation(
                "SLOT-54",
                _("Les limites d'insertion et de paiement de la machine %(m)s doivent être contrôlées.")
                % {"m": machine.number},
            )
        insertion, payment = Decimal(str(seen["insertion_limit"])), Decimal(str(seen["payment_limit"]))
        threshold = est.setting("SET-19")
        compliant = insertion <= payment and (threshold is None or payment <= Decimal(str(threshold)))
        checked[machine.number] = {
            "insertion_limit": str(insertion),
            "payment_limit": str(payment),
            "compliant": compliant,
        }
    entry = _append(
        TECHNICAL_KIND,
        None,
        est,
        actor=actor,
        role=role,
        event=_("Visite de révision de la SFM"),
        at=visited_at,
        detail=f"{', '.join(m.number for m in machines)} — {remarks.strip()}",
        limits=checked,
    )
    for machine in machines:
        _fiche_write(machine, entry.payload, actor=actor, role=role)
    visit = SfmVisit.objects.create(
        establishment=est,
        visited_at=visited_at,
        technician=actor,
        approval=approval,
        limits=checked,
        remarks=remarks.strip(),
        entry=entry,
    )
    visit.machines.set(machines)
    return visit
