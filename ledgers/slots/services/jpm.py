"""FR multisite jackpots (JPM): connection, technical lines, readings before opening, wins,
transmissions and withdrawals."""

import csv
import datetime
import hashlib
import io
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, roles_of, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.exports import neutralise
from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.incidents.services import AuthorityRecipient, authority_notice_write
from ledgers.registers.models import Entry
from ledgers.registers.services import (
    display_name,
)
from ledgers.registers.written import reserve_written

from ..models import (
    IncrementBon,
    JpmReading,
    JpmTransmission,
    JpmWin,
    Machine,
    MeterCode,
    MeterReading,
    Progressive,
    ProgressiveStop,
)
from ..registers import JPM_28S, TECHNICAL_CONTROL
from .accounting import Kind
from .accounting import _append as carnet_append
from .interventions import _approval
from .machines import countersignatures
from .payments import jackpot_pay
from .progressives import (
    COUNTERSIGNED,
    KEEPERS,
    READERS,
    TechnicalNature,
    _check_identical,
    _fr,
    _machines,
    _technical_line,
    _write,
    increment_shares,
    minister_notice_require,
    minister_notice_text,
)

# SLOT-39: a month end or a win with no transmission after this many days is flagged (the text
# fixes no figure: the project's default).
TRANSMISSION_DAYS = 3


@transaction.atomic
def jpm_connect(*, jackpot: Progressive, machine: Machine, actor: AbstractBaseUser) -> Progressive:
    """A machine connected to a JPM: identical to its machines or refused (SLOT-38)."""
    est = jackpot.establishment
    role = require_role(actor, est, KEEPERS)
    if not jackpot.multisite or jackpot.status != Progressive.Status.ACTIVE:
        raise ValidationError(_("Ce jackpot n'est pas un JPM en service."))
    _check_identical(jackpot, machine)
    jackpot.machines.add(machine)
    _write(
        JPM_28S,
        est,
        actor=actor,
        role=role,
        event=_("Machine reliée au JPM"),
        at=timezone.now(),
        jackpot=jackpot,
        amount=None,
        detail=f"{machine.number} — {machine.maker} {machine.game_name}",
        meters="",
    )
    _technical_line(jackpot, machine, actor=actor, role=role, event=_("Machine reliée au JPM"), detail="")
    return jackpot


@transaction.atomic
def jpm_technical_record(
    *,
    jackpot: Progressive,
    nature: str,
    description: str,
    actor: AbstractBaseUser,
    signers: Sequence[AbstractBaseUser] = (),
    occurred_at: datetime.datetime | None = None,
) -> Entry:
    """An incident, repair, maintenance or SFM intervention on the JPM system, in its modèle 26
    "JPM" (SLOT-38, SLOT-51). A repair or an SFM intervention is countersigned by a comité member
    and the mechanic or employee in charge (as SLOT-34); an SFM intervention is signed by an SFM
    technician with a valid approval (SLOT-53)."""
    est = jackpot.establishment
    _fr(est)
    role = require_role(actor, est, TECHNICAL_CONTROL.record_roles)
    if not jackpot.multisite:
        raise ValidationError(_("Ce jackpot n'est pas un JPM."))
    if nature not in TechnicalNature.values:
        raise ValidationError({"nature": _("Nature inconnue.")})
    if not description.strip():
        raise ValidationError({"description": _("Décrivez l'opération.")})
    occurred_at = occurred_at or timezone.now()
    countersigned: list[str] = []
    if nature in COUNTERSIGNED:
        countersigned = countersignatures(
            est,
            actor=actor,
            signers=signers,
            code="SLOT-38",
            message=_(
                "Cette opération sur le JPM est contresignée par le membre du comité et par le mécanicien "
                "(ou l'employé chargé de l'opération)."
            ),
        )
    detail = description.strip()
    if nature == TechnicalNature.SFM:
        technician = next((u for u in (actor, *signers) if Role.TECHNICIEN_SFM in roles_of(u, est)), None)
        if technician is None:
            raise RuleViolation("SLOT-53", _("Une intervention de la SFM est signée par son technicien agréé."))
        approval = _approval(est, technician, Role.TECHNICIEN_SFM, est.localtime(occurred_at).date())
        detail += f" — {display_name(technician)}, {_('agrément')} {approval.reference}"
    return _technical_line(
        jackpot,
        None,
        actor=actor,
        role=role,
        event=TechnicalNature(nature).label,
        detail=detail,
        at=occurred_at,
        countersigned=countersigned,
    )


def _meter_values(jackpot: Progressive, meters: Mapping[str, Any], code: str) -> dict[str, int]:
    """One non-negative integer per connected machine (casino number), none missing, none extra."""
    numbers = [m.number for m in _machines(jackpot)]
    missing = [n for n in numbers if n not in meters]
    if missing:
        raise RuleViolation(code, _("Compteur « entrées » manquant pour : %(m)s.") % {"m": ", ".join(missing)})
    if extra := set(meters) - set(numbers):
        raise ValidationError(_("Machines non reliées au JPM : %(m)s.") % {"m": ", ".join(sorted(extra))})
    values = {}
    for number in numbers:
        try:
            values[number] = int(meters[number])
        except (TypeError, ValueError) as exc:
            raise ValidationError(_("Compteur illisible pour %(m)s.") % {"m": number}) from exc
        if not 0 <= values[number] < 10**15:
            raise ValidationError(_("Compteur illisible pour %(m)s.") % {"m": number})
    return values


def _meters_text(values: Mapping[str, Any]) -> str:
    return " ; ".join(f"{number} : {value}" for number, value in values.items())


@transaction.atomic
def jpm_reading_record(
    *,
    jackpot: Progressive,
    displayed: Decimal,
    meters: Mapping[str, int],
    actor: AbstractBaseUser,
    day: datetime.date | None = None,
) -> JpmReading:
    """The day's line of modèle 28 S before the opening (SLOT-38): the displayed JPM amount and the
    electronic "entrées" meter of every connected machine."""
    est = jackpot.establishment
    _fr(est)
    role = require_role(actor, est, READERS)
    if not jackpot.multisite or jackpot.status != Progressive.Status.ACTIVE:
        raise ValidationError(_("Ce jackpot n'est pas un JPM en service."))
    if displayed < 0:
        raise ValidationError({"displayed": _("Montant positif ou nul attendu.")})
    values = _meter_values(jackpot, meters, "SLOT-38")
    now = timezone.now()
    day = day or est.localtime(now).date()
    if jackpot.jpm_readings.filter(day=day).exists():
        raise ValidationError(_("Le relevé du JPM est déjà inscrit pour cette journée."))
    entry = _write(
        JPM_28S,
        est,
        actor=actor,
        role=role,
        event=_("Relevé avant l'ouverture"),
        at=now,
        jackpot=jackpot,
        amount=displayed,
        detail=f"{_('journée du')} {day:%d/%m/%Y}",
        meters=_meters_text(values),
    )
    return JpmReading.objects.create(
        jackpot=jackpot, day=day, displayed=displayed, meters=values, read_at=now, recorded_by=actor, entry=entry
    )


def _check_pair(est: Establishment, actor: AbstractBaseUser, comite: AbstractBaseUser | None, code: str) -> None:
    if (
        Role.CAISSIER not in roles_of(actor, est)
        or comite is None
        or comite.pk == actor.pk
        or Role.COMITE not in roles_of(comite, est)
    ):
        raise RuleViolation(
            code, _("Les bons d'incrémentation sont signés par le caissier et par un membre du comité de direction.")
        )


def _increment_bons(
    jackpot: Progressive,
    shares: Mapping[Machine, Decimal],
    *,
    actor: AbstractBaseUser,
    comite: AbstractBaseUser,
    at: datetime.datetime,
    win: JpmWin | None = None,
    stop: ProgressiveStop | None = None,
) -> list[IncrementBon]:
    """One bon per connected machine, numbered without gaps (REG-42), with its modèle 29 line: the
    winning machine's increments plus the starting amount, and the jackpot paid for information
    (art. 73)."""
    est = jackpot.establishment
    Establishment.objects.select_for_update().get(pk=est.pk)
    number = IncrementBon.objects.filter(establishment=est).aggregate(n=Max("bon_number"))["n"] or 0
    bons = []
    for machine, share in shares.items():
        number += 1
        winning = win is not None and win.winning_machine_id == machine.pk
        start = jackpot.start_amount if winning else None
        detail = (
            f"{_('Bon d incrémentation')} n° {number} — {est.name} — JPM {jackpot.code} — "
            f"{_('emplacement')} {machine.location_number} — {_('part des incrémentations')} {share} €"
        )
        if winning:
            detail += f" — {_('montant de départ')} {start} € — {_('jackpot payé (pour information)')} {win.amount} €"
        line = carnet_append(
            machine, kind=Kind.INCREMENT, at=at, amount=share + (start or 0), detail=detail, actor=actor, comite=comite
        )
        bons.append(
            IncrementBon.objects.create(
                establishment=est,
                bon_number=number,
                jackpot=jackpot,
                win=win,
                stop=stop,
                machine=machine,
                share=share,
                start_amount=start,
                issued_at=at,
                cashier=actor,
                comite=comite,
                line=line,
            )
        )
    return bons


@transaction.atomic
def jpm_win_record(
    *,
    jackpot: Progressive,
    amount: Decimal,
    meters: Mapping[str, Mapping[str, int]],
    actor: AbstractBaseUser,
    comite: AbstractBaseUser | None,
    winning_machine: Machine | None = None,
    winning_casino: str = "",
    combination: str = "",
    method: str = "cash",
) -> JpmWin:
    """A JPM won (SLOT-40): its connected machines stop; where the winning machine is here, the
    cashier pays it on a bon de paiement controlled by the comité member (SLOT-35); the 28 S
    register is annotated with the amount won and both "entrées" meters of every connected
    machine; one bon d'incrémentation per connected machine, signed by both, goes in its modèle 29."""
    est = jackpot.establishment
    _fr(est)
    _check_pair(est, actor, comite, "SLOT-40")
    if not jackpot.multisite or jackpot.status != Progressive.Status.ACTIVE:
        raise ValidationError(_("Ce jackpot n'est pas un JPM en service."))
    if amount <= 0:
        raise ValidationError({"amount": _("Montant positif attendu.")})
    electronic = _meter_values(jackpot, {n: (m or {}).get("electronic") for n, m in meters.items()}, "SLOT-40")
    electromechanical = _meter_values(
        jackpot, {n: (m or {}).get("electromechanical") for n, m in meters.items()}, "SLOT-40"
    )
    payment = None
    if winning_machine is not None:
        if not jackpot.machines.filter(pk=winning_machine.pk).exists():
            raise ValidationError(_("La machine gagnante n'est pas reliée au JPM."))
        payment = jackpot_pay(
            machine=winning_machine,
            amount=amount,
            method=method,
            actor=actor,
            combination=combination or f"JPM {jackpot.code}",
            controller=comite,
        )
        winning_casino = est.name
    elif not winning_casino.strip():
        raise ValidationError(_("Indiquez la machine gagnante ou le casino membre qui paie le jackpot."))
    now = timezone.now()
    jackpot.status = Progressive.Status.WON
    save_audited(jackpot, actor=actor, reason="gain du JPM, machines arrêtées")
    values = {n: {"electronic": electronic[n], "electromechanical": electromechanical[n]} for n in electronic}
    shares = increment_shares(jackpot, electronic)
    detail = f"{_('gagné à')} {winning_casino.strip()}"
    if payment:
        detail += f" — {_('machine')} {winning_machine.number} — {_('bon de paiement')} n° {payment.bon_number}"
    entry = _write(
        JPM_28S,
        est,
        actor=actor,
        role=Role.CAISSIER,
        event=_("Gain du JPM"),
        at=now,
        jackpot=jackpot,
        amount=amount,
        detail=detail,
        comite=comite,
        meters=_meters_text({n: f"{v['electronic']} / {v['electromechanical']}" for n, v in values.items()}),
    )
    win = JpmWin.objects.create(
        jackpot=jackpot,
        won_at=now,
        amount=amount,
        winning_machine=winning_machine,
        winning_casino=winning_casino.strip(),
        meters=values,
        payment=payment,
        cashier=actor,
        comite=comite,
        entry=entry,
    )
    _increment_bons(jackpot, shares, actor=actor, comite=comite, at=now, win=win)
    return win


@transaction.atomic
def jpm_restart(*, jackpot: Progressive, actor: AbstractBaseUser) -> Progressive:
    """The connected machines back in play after a win: only once the win's 28 S annotation and
    its bons exist (SLOT-40), which ``jpm_win_record`` writes with the win."""
    est = jackpot.establishment
    role = require_role(actor, est, KEEPERS)
    win = jackpot.wins.order_by("-won_at").first()
    if jackpot.status != Progressive.Status.WON or win is None:
        raise ValidationError(_("Ce JPM n'est pas arrêté après un gain."))
    if win.bons.count() != jackpot.machines.count():
        raise RuleViolation(
            "SLOT-40", _("Un bon d'incrémentation par machine reliée est requis avant la remise en service.")
        )
    jackpot.status = Progressive.Status.ACTIVE
    save_audited(jackpot, actor=actor, reason="remise en service après gain")
    _write(
        JPM_28S,
        est,
        actor=actor,
        role=role,
        event=_("Remise en service après gain"),
        at=timezone.now(),
        jackpot=jackpot,
        amount=None,
        detail="",
        meters="",
    )
    return jackpot


def _last_in_meter(machine: Machine, nature: str, until: datetime.datetime) -> int | None:
    reading = (
        MeterReading.objects.filter(
            meter__machine=machine, meter__code=MeterCode.IN, meter__nature=nature, read_at__lt=until
        )
        .order_by("-read_at", "-id")
        .first()
    )
    return reading.value if reading else None


def transmission_rows(
    jackpot: Progressive, period_start: datetime.date, period_end: datetime.date
) -> tuple[Decimal, list[dict[str, Any]]]:
    """The figures of SLOT-39 from the 28 S relevés: per connected machine its electronic "entrées" at
    the period's start and end, its electromechanical "entrées" last read by the end, its increment
    over the period; and the displayed JPM amount at the end."""
    if period_end < period_start:
        raise ValidationError(_("La période se termine avant de commencer."))
    readings = jackpot.jpm_readings.filter(day__lte=period_end)
    first = readings.filter(day__gte=period_start).order_by("day").first()
    last = readings.order_by("-day").first()
    if first is None or last is None:
        raise RuleViolation("SLOT-39", _("Aucun relevé modèle 28 S sur la période."))
    before = readings.filter(day__lt=period_start).order_by("-day").first()
    start = (before or first).meters
    numbers = [m.number for m in _machines(jackpot)]
    shares = increment_shares(jackpot, {n: int(last.meters.get(n, start.get(n, 0))) for n in numbers}, start)
    end_of_period = timezone.make_aware(
        datetime.datetime.combine(period_end + datetime.timedelta(days=1), datetime.time())
    )
    rows = []
    for machine, share in shares.items():
        rows.append(
            {
                "casino": jackpot.establishment.name,
                "machine": machine.casino_number,
                "location": machine.location_number,
                "entrees_start": start.get(machine.number, ""),
                "entrees_end": last.meters[machine.number],
                "entrees_em": _last_in_meter(machine, "electromechanical", end_of_period) or "",
                "increment": str(share),
            }
        )
    return last.displayed, rows


def transmission_csv(jackpot: Progressive, period_start: datetime.date, period_end: datetime.date) -> str:
    displayed, rows = transmission_rows(jackpot, period_start, period_end)
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\n")
    writer.writerow(["jpm", "du", "au", "montant_affiche"])
    writer.writerow([neutralise(jackpot.code), period_start.isoformat(), period_end.isoformat(), str(displayed)])
    writer.writerow(
        [
            "casino",
            "machine",
            "emplacement",
            "entrees_electronique_debut",
            "entrees_electronique_fin",
            "entrees_electromecanique",
            "incrementation",
        ]
    )
    for row in rows:
        writer.writerow([neutralise(value) for value in row.values()])  # a casino number "=1+1" stays text
    return out.getvalue()


@transaction.atomic
def jpm_transmission_record(
    *,
    jackpot: Progressive,
    reason: str,
    period_start: datetime.date,
    period_end: datetime.date,
    recipient: str,
    actor: AbstractBaseUser,
) -> JpmTransmission:
    """The directeur responsable's e-mail to the SCCJ at a month end or a win (SLOT-39): the file
    generated from modèle 28 S and the meter readings, kept with its SHA-256 digest."""
    est = jackpot.establishment
    _fr(est)
    if Role.DIRECTEUR_RESPONSABLE not in roles_of(actor, est):
        raise RuleViolation("SLOT-39", _("Les relevés du JPM sont transmis au SCCJ par le directeur responsable."))
    if reason not in JpmTransmission.Reason.values or not recipient.strip():
        raise ValidationError(_("Motif et destinataire sont obligatoires."))
    if not jackpot.multisite:
        raise ValidationError(_("Ce jackpot n'est pas un JPM."))
    content = transmission_csv(jackpot, period_start, period_end)
    displayed, _rows = transmission_rows(jackpot, period_start, period_end)
    digest = hashlib.sha256(content.encode()).hexdigest()
    now = timezone.now()
    entry = _write(
        JPM_28S,
        est,
        actor=actor,
        role=Role.DIRECTEUR_RESPONSABLE,
        event=_("Transmission au SCCJ"),
        at=now,
        jackpot=jackpot,
        amount=displayed,
        meters="",
        detail=f"{JpmTransmission.Reason(reason).label} — {period_start:%d/%m/%Y} → {period_end:%d/%m/%Y} — "
        f"{recipient.strip()} — SHA-256 {digest}",
    )
    authority_notice_write(
        establishment=est,
        recipient=AuthorityRecipient.SCCJ,
        detail=recipient.strip(),
        subject=str(
            _("Compteurs et incrémentation du JPM %(jackpot)s du %(start)s au %(end)s (%(reason)s)")
            % {
                "jackpot": jackpot.code,
                "start": f"{period_start:%d/%m/%Y}",
                "end": f"{period_end:%d/%m/%Y}",
                "reason": JpmTransmission.Reason(reason).label,
            }
        ),
        requirement="SLOT-39",
        notified_at=now,
        reference=f"SHA-256 {digest}",
        actor=actor,
        role=Role.DIRECTEUR_RESPONSABLE,
    )
    return JpmTransmission.objects.create(
        jackpot=jackpot,
        reason=reason,
        period_start=period_start,
        period_end=period_end,
        displayed=displayed,
        csv=content,
        digest=digest,
        recipient=recipient.strip(),
        sent_at=now,
        sender=actor,
        entry=entry,
    )


def transmissions_due(est: Establishment, today: datetime.date | None = None) -> list[tuple[Progressive, str]]:
    """SLOT-39 flag: JPMs whose last month end or last win has no transmission TRANSMISSION_DAYS after."""
    today = today or est.localtime().date()
    month_end = today.replace(day=1) - datetime.timedelta(days=1)
    due = []
    jpms = Progressive.objects.filter(establishment=est, multisite=True)
    for jackpot in jpms.exclude(created_at__date__gt=month_end):
        if (today - month_end).days > TRANSMISSION_DAYS and not jackpot.transmissions.filter(
            period_end__gte=month_end
        ).exists():
            due.append((jackpot, str(_("fin de mois du %(d)s") % {"d": f"{month_end:%d/%m/%Y}"})))
        win = jackpot.wins.order_by("-won_at").first()
        if (
            win is not None
            and (today - est.localtime(win.won_at).date()).days > TRANSMISSION_DAYS
            and not jackpot.transmissions.filter(reason=JpmTransmission.Reason.WIN, sent_at__gte=win.won_at).exists()
        ):
            due.append((jackpot, str(_("gain du %(d)s") % {"d": f"{est.localtime(win.won_at):%d/%m/%Y}"})))
    return due


@transaction.atomic
def jpm_withdraw(
    *,
    jackpot: Progressive,
    leave_date: datetime.date,
    meters: Mapping[str, int],
    actor: AbstractBaseUser,
    comite: AbstractBaseUser | None,
) -> ProgressiveStop:
    """This casino leaves the JPM (SLOT-41): the Minister's notice recorded at least SET-42 before; on the
    day, one bon d'incrémentation per connected machine for the increments since the last win,
    signed by the cashier and a comité member, each in its modèle 29."""
    est = jackpot.establishment
    _fr(est)
    _check_pair(est, actor, comite, "SLOT-41")
    if not jackpot.multisite or jackpot.status != Progressive.Status.ACTIVE:
        raise ValidationError(_("Ce jackpot n'est pas un JPM en service."))
    notice = minister_notice_require(jackpot, ProgressiveStop.Kind.WITHDRAWAL)
    if est.localtime().date() != leave_date:
        raise ValidationError(_("Les bons d'incrémentation sont établis le jour du retrait."))
    shares = increment_shares(jackpot, _meter_values(jackpot, meters, "SLOT-41"))
    total = sum(shares.values(), Decimal("0"))
    now = timezone.now()
    jackpot.status = Progressive.Status.LEFT
    save_audited(jackpot, actor=actor, reason="retrait du JPM")
    key = reserve_written(ProgressiveStop)  # the stop keeps its entry, which names it
    entry = _write(
        JPM_28S,
        est,
        actor=actor,
        role=Role.CAISSIER,
        event=_("Retrait du casino du JPM"),
        at=now,
        jackpot=jackpot,
        amount=total,
        comite=comite,
        meters=_meters_text(meters),
        detail=minister_notice_text(notice),
    )
    stop = save_audited(
        ProgressiveStop(
            pk=key,
            progressive=jackpot,
            kind=ProgressiveStop.Kind.WITHDRAWAL,
            stop_date=leave_date,
            increment=total,
            minister_notified_on=est.localtime(notice.notified_at).date(),
            minister_reference=notice.reference,
            recorded_by=actor,
            recorded_at=now,
            entry=entry,
        ),
        actor=actor,
        reason="retrait du JPM",
    )
    _increment_bons(jackpot, shares, actor=actor, comite=comite, at=now, stop=stop)
    return stop
