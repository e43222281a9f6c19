"""FR progressive jackpots (arrêté of 14 May 2007 arts. 68-20 to 68-20-3, 73).

- SLOT-36: the registre des jackpots progressifs, one line per progressive every gaming day at the
  close of play; the séance that ends the day does not close without it (``on_seance_closing``).
- SLOT-37: a voluntary stop, transferring the whole increment to another progressive or stopping
  for good with the increment posted to the orphans carnet modèle 11 bis (``ledgers.cash``), the
  Minister of the Interior informed at least SET-42 before; the increment recovered until 31
  October of the season.
- SLOT-38: the multisite jackpot (JPM) on identical machines only, and its registre modèle 28 S
  filled every day before the opening with the displayed amount and each connected machine's
  electronic "entrées" meter: the séance of a member casino does not open without the day's line
  (``on_seance_opening``). Its registre de contrôle technique modèle 26 "JPM" is a volume of
  modèle 26 (qualifier ``JPM-<code>``) opened with the JPM: its putting in service, each machine
  connected, and the incidents, repairs, maintenance and SFM interventions on the system.
- SLOT-39: the month-end and win figures the directeur responsable sends the SCCJ (CSV export and
  its transmission record with the file's digest).
- SLOT-40: a JPM won: the machines stop, the bon de paiement on the winning machine (SLOT-35),
  one bon d'incrémentation per connected machine signed by the cashier and a comité member, with
  its modèle 29 line, and the 28 S annotation, all in one transaction.
- SLOT-41: a JPM stopped (Minister informed immediately, this casino's share to orphans) or left
  (Minister informed SET-42 before, one bon d'incrémentation per machine).
"""

import csv
import datetime
import hashlib
import io
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Max
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.cash import services as cash_services
from ledgers.cash.models import Orphan
from ledgers.core.authz import require_role, roles_of, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.hooks import Missing, on_seance_closing, on_seance_opening
from ledgers.core.models import Establishment, Seance
from ledgers.core.roles import Role
from ledgers.core.selectors import last_open_of_day
from ledgers.registers.models import Entry
from ledgers.registers.selectors import current_register
from ledgers.registers.services import (
    display_name,
    entry_append,
    register_create,
    register_language,
    register_open,
)

from . import services
from .accounting import CENT, Kind
from .accounting import _append as carnet_append
from .models import (
    IncrementBon,
    JackpotPayment,
    JpmReading,
    JpmTransmission,
    JpmWin,
    Machine,
    MeterCode,
    MeterReading,
    Progressive,
    ProgressiveReading,
    ProgressiveStop,
)
from .registers import JPM_28S, PROGRESSIVES, TECHNICAL_CONTROL, TECHNICAL_KIND

KEEPERS = (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)
READERS = (Role.CAISSIER, Role.COMITE, Role.DIRECTEUR_RESPONSABLE, Role.EMPLOYE_JEUX)
# SET-42 (AMB-50): a progressive's transfer or final stop and a JPM withdrawal are notified to the
# Minister of the Interior at least 15 days before; a JPM stop immediately (on the day at the latest).
NOTICE_DAYS = 15
# SLOT-39: a month end or a win with no transmission after this many days is flagged (the text
# fixes no figure: the project's default).
TRANSMISSION_DAYS = 3
# The identity every machine connected to a JPM shares with it (SLOT-38).
IDENTITY = ("maker", "machine_type", "game_name", "payment_programme")


def _fr(est: Establishment) -> None:
    if est.jurisdiction != "FR":
        raise ValidationError(_("Les jackpots progressifs sont régis par l'arrêté français de 2007."))


def _write(
    kind: Any,
    est: Establishment,
    *,
    actor: AbstractBaseUser,
    role: str,
    event: Any,
    at: datetime.datetime,
    jackpot: Progressive,
    amount: Decimal | None,
    detail: str,
    comite: AbstractBaseUser | None = None,
    **extra: Any,
) -> Entry:
    with register_language():
        payload = services._line(
            None,
            event=event,
            at=at,
            detail=detail,
            actor=actor,
            role=role,
            est=est,
            jackpot=jackpot.code,
            amount="" if amount is None else str(amount),
            **extra,
        )
        payload.pop("machine")
        if comite is not None:
            payload["signature"] = f"{payload['signature']} ; {services._signature(comite, Role.COMITE)}"
    register = current_register(est, kind.code)
    return entry_append(register=register, actor=actor, role=services._writer(register, role), payload=payload)


def _machines(progressive: Progressive) -> list[Machine]:
    return list(progressive.machines.order_by("casino_number"))


def _differences(jackpot: Progressive, machine: Machine) -> list[str]:
    return [
        str(Machine._meta.get_field(name).verbose_name)
        for name in IDENTITY
        if getattr(machine, name).strip().casefold() != getattr(jackpot, name).strip().casefold()
    ]


def _check_identical(jackpot: Progressive, machine: Machine) -> None:
    """SLOT-38: only identical machines (same make, type, name and payment programme)."""
    if machine.establishment_id != jackpot.establishment_id:
        raise ValidationError(_("Machine d'un autre établissement."))
    if differences := _differences(jackpot, machine):
        raise RuleViolation(
            "SLOT-38",
            _("La machine %(m)s n'est pas identique aux machines du JPM : %(d)s.")
            % {"m": machine.number, "d": ", ".join(differences)},
        )


# --- progressives (SLOT-36, SLOT-38) ----------------------------------------------------------------


@transaction.atomic
def progressive_create(
    *,
    establishment: Establishment,
    code: str,
    name: str,
    start_amount: Decimal,
    machines: Sequence[Machine],
    actor: AbstractBaseUser,
    multisite: bool = False,
    increment_percent: Decimal = Decimal("0"),
    maker: str = "",
    machine_type: str = "",
    game_name: str = "",
    payment_programme: str = "",
    members: Sequence[str] = (),
) -> Progressive:
    """A progressive put in service on the casino's machines; a JPM names its identical-machine
    identity and its member casinos, and every machine connected must match it (SLOT-38)."""
    est = establishment
    _fr(est)
    role = require_role(actor, est, KEEPERS)
    if not code.strip() or not name.strip() or start_amount < 0 or not machines:
        raise ValidationError(_("Identifiant, nom, montant de départ et machines sont obligatoires."))
    if not Decimal("0") <= increment_percent <= Decimal("100"):
        raise ValidationError({"increment_percent": _("Taux entre 0 et 100 %.")})
    progressive = Progressive(
        establishment=est,
        code=code.strip(),
        name=name.strip(),
        multisite=multisite,
        start_amount=start_amount,
        increment_percent=increment_percent,
        maker=maker.strip(),
        machine_type=machine_type.strip(),
        game_name=game_name.strip(),
        payment_programme=payment_programme.strip(),
        members=[m.strip() for m in members if m.strip()],
        created_at=timezone.now(),
    )
    if multisite:
        if not all(getattr(progressive, name) for name in IDENTITY):
            raise RuleViolation(
                "SLOT-38",
                _(
                    "Un JPM précise le fabricant, le type, le nom et le programme de paiement "
                    "de ses machines, toutes identiques."
                ),
            )
        for machine in machines:
            _check_identical(progressive, machine)
    elif any(m.establishment_id != est.pk for m in machines):
        raise ValidationError(_("Machine d'un autre établissement."))
    save_audited(progressive, actor=actor, reason="mise en service")
    progressive.machines.set(machines)
    numbers = ", ".join(m.number for m in _machines(progressive))
    _write(
        JPM_28S if multisite else PROGRESSIVES,
        est,
        actor=actor,
        role=role,
        event=_("Mise en service du jackpot progressif"),
        at=progressive.created_at,
        jackpot=progressive,
        amount=start_amount,
        detail=progressive.name,
        **{"meters" if multisite else "machines": numbers},
    )
    if multisite:
        _technical_register_open(progressive, actor)
        _technical_line(progressive, None, actor=actor, role=role, event=_("Mise en service du JPM"), detail=numbers)
    return progressive


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


# --- registre de contrôle technique "JPM" modèle 26 (SLOT-38, art. 68-29-1) ----------------------


class TechnicalNature(models.TextChoices):
    """What modèle 26 "JPM" records day by day about the system, as modèle 26 (SLOT-51)."""

    INCIDENT = "incident", _("Incident technique")
    REPAIR = "repair", _("Réparation")
    MAINTENANCE = "maintenance", _("Entretien")
    SFM = "sfm", _("Intervention de la SFM")


# Countersigned as the modèle 26 repair moves (SLOT-34): comité member and mechanic (or employee).
COUNTERSIGNED = (TechnicalNature.REPAIR, TechnicalNature.SFM)


def technical_qualifier(jackpot: Progressive) -> str:
    return f"JPM-{jackpot.code}"


def _technical_register_open(jackpot: Progressive, actor: AbstractBaseUser) -> None:
    """Modèle 26 "JPM", opened with the JPM by its keeper (as each machine's fiche 34)."""
    with register_language():
        title = f"{TECHNICAL_CONTROL.title} — JPM {jackpot.code} ({_('modèle 26 « JPM »')})"
    register = register_create(
        establishment=jackpot.establishment,
        kind=TECHNICAL_CONTROL.code,
        actor=actor,
        qualifier=technical_qualifier(jackpot),
        title=title,
    )
    register_open(register=register, actor=actor, paraphe=display_name(actor))


def _technical_line(
    jackpot: Progressive,
    machine: Machine | None,
    *,
    actor: AbstractBaseUser,
    role: str,
    event: Any,
    detail: str,
    at: datetime.datetime | None = None,
    **extra: Any,
) -> Entry:
    """A line of the JPM's modèle 26 (and, for a machine, of its fiche 34)."""
    return services._append(
        TECHNICAL_KIND,
        machine,
        jackpot.establishment,
        actor=actor,
        role=role,
        event=event,
        at=at or timezone.now(),
        detail=f"JPM {jackpot.code}" + (f" — {detail}" if detail else ""),
        register_qualifier=technical_qualifier(jackpot),
        jackpot=jackpot.code,
        **extra,
    )


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
        countersigned = services.countersignatures(
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
        approval = services._approval(est, technician, Role.TECHNICIEN_SFM, est.localtime(occurred_at).date())
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


def _explained_fall(progressive: Progressive, since: datetime.datetime) -> bool:
    """A fall of the displayed amount is explained by a payment on one of its machines since."""
    return (
        JackpotPayment.objects.filter(machine__in=progressive.machines.all(), paid_at__gt=since).exists()
        or progressive.wins.filter(won_at__gt=since).exists()
    )


@transaction.atomic
def progressive_reading_record(
    *, progressive: Progressive, displayed: Decimal, actor: AbstractBaseUser, day: datetime.date | None = None
) -> ProgressiveReading:
    """The displayed amount at the close of play, in the registre des jackpots progressifs (SLOT-36):
    date, jackpot, machines, amount, time, writer. A fall from the previous day's amount that no
    payment on its machines explains is flagged (BP)."""
    est = progressive.establishment
    _fr(est)
    role = require_role(actor, est, READERS)
    if progressive.status != Progressive.Status.ACTIVE or progressive.multisite:
        raise ValidationError(_("Ce jackpot progressif local n'est pas en service."))
    if displayed < 0:
        raise ValidationError({"displayed": _("Montant positif ou nul attendu.")})
    now = timezone.now()
    day = day or est.localtime(now).date()
    if progressive.readings.filter(day=day).exists():
        raise ValidationError(_("Le montant de ce jackpot est déjà inscrit pour cette journée."))
    previous = progressive.readings.filter(day__lt=day).order_by("-day").first()
    flags = (
        ["SLOT-36"]
        if previous is not None
        and displayed < previous.displayed
        and not _explained_fall(progressive, previous.read_at)
        else []
    )
    flag = f" — {_('baisse sans paiement enregistré')}" if flags else ""
    entry = _write(
        PROGRESSIVES,
        est,
        actor=actor,
        role=role,
        event=_("Montant affiché à la fermeture"),
        at=now,
        jackpot=progressive,
        amount=displayed,
        detail=f"{_('journée du')} {day:%d/%m/%Y}{flag}",
        machines=", ".join(m.number for m in _machines(progressive)),
        flags=flags,
    )
    return ProgressiveReading.objects.create(
        progressive=progressive, day=day, displayed=displayed, read_at=now, recorded_by=actor, flags=flags, entry=entry
    )


def active_progressives(est: Establishment, *, multisite: bool):
    return Progressive.objects.filter(establishment=est, multisite=multisite, status=Progressive.Status.ACTIVE)


@on_seance_closing
def progressives_recorded(seance: Seance) -> Iterator[Missing]:
    """SLOT-36: the last séance of the gaming day closes only when every active progressive's
    displayed amount is in the register; SLOT-38: and every JPM's 28 S line of the day."""
    est = seance.establishment
    if est.jurisdiction != "FR" or not last_open_of_day(seance):
        return
    # Only the jackpots in service on that day (created on or before it).
    started = {"created_at__date__lte": seance.date}
    for progressive in active_progressives(est, multisite=False).filter(**started).exclude(readings__day=seance.date):
        yield Missing(
            _("montant affiché du jackpot progressif %(code)s à la fermeture") % {"code": progressive.code},
            "SLOT-36",
            reverse("slots:progressive_reading"),
        )
    for jackpot in active_progressives(est, multisite=True).filter(**started).exclude(jpm_readings__day=seance.date):
        yield Missing(
            _("relevé du JPM %(code)s au modèle 28 S") % {"code": jackpot.code}, "SLOT-38", reverse("slots:jpm_reading")
        )


@on_seance_opening
def jpm_read_before_opening(establishment: Establishment, date: datetime.date) -> None:
    """SLOT-38: a member casino's séance opens only once every JPM in service has the day's modèle
    28 S line (filled "before the opening", art. 68-20-2)."""
    if establishment.jurisdiction != "FR":
        return
    unread = (
        active_progressives(establishment, multisite=True)
        .filter(created_at__date__lte=date)
        .exclude(jpm_readings__day=date)
        .order_by("code")
    )
    if codes := [jackpot.code for jackpot in unread]:
        raise RuleViolation(
            "SLOT-38",
            _("Le registre modèle 28 S est renseigné avant l'ouverture : relevé du %(d)s manquant pour %(c)s.")
            % {"d": f"{date:%d/%m/%Y}", "c": ", ".join(codes)},
        )


# --- JPM daily relevé (SLOT-38) ---------------------------------------------------------------------


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


def _baseline(jackpot: Progressive, before: datetime.date | None = None) -> dict[str, int]:
    """Each machine's electronic "entrées" at the last win, else at the JPM's first relevé."""
    win = jackpot.wins.order_by("-won_at").first()
    if win is not None and (before is None or win.won_at.date() <= before):
        return {number: m["electronic"] for number, m in win.meters.items()}
    first = jackpot.jpm_readings.order_by("day").first()
    return dict(first.meters) if first else {}


def increment_shares(
    jackpot: Progressive, meters: Mapping[str, int], baseline: Mapping[str, int] | None = None
) -> dict[Machine, Decimal]:
    """Each connected machine's share of the increments since the baseline: its credits played
    (electronic "entrées") × credit value × the JPM's increment rate."""
    baseline = _baseline(jackpot) if baseline is None else baseline
    shares = {}
    for machine in _machines(jackpot):
        played = max(meters[machine.number] - baseline.get(machine.number, meters[machine.number]), 0)
        shares[machine] = (played * machine.credit_value * jackpot.increment_percent / 100).quantize(CENT)
    return shares


# --- bons d'incrémentation (SLOT-40, SLOT-41) -------------------------------------------------------


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
        payment = services.jackpot_pay(
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
    jackpot.status = Progressive.Status.WON
    save_audited(jackpot, actor=actor, reason="gain du JPM, machines arrêtées")
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


# --- SCCJ transmissions (SLOT-39) -------------------------------------------------------------------


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
    writer.writerow([jackpot.code, period_start.isoformat(), period_end.isoformat(), str(displayed)])
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
        writer.writerow(row.values())
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


# --- stops, transfers, recoveries, withdrawals (SLOT-37, SLOT-41) ------------------------------------


def season_deadline(day: datetime.date) -> datetime.date:
    """31 October of the season (1 November – 31 October) that contains ``day``."""
    return datetime.date(day.year + (1 if day.month >= 11 else 0), 10, 31)


def _orphan(jackpot: Progressive, amount: Decimal, actor: AbstractBaseUser) -> Orphan:
    """The increment posted to the orphans carnet modèle 11 bis (COUNT-30, COUNT-31)."""
    return cash_services.orphan_record(
        establishment=jackpot.establishment,
        category=Orphan.Category.JACKPOT_INCREMENT,
        amount=amount,
        place=f"{_('jackpot progressif')} {jackpot.code}"[:100],
        found_by=display_name(actor),
        paid_into=str(_("compte orphelins")),
        actor=actor,
    )


@transaction.atomic
def progressive_stop(
    *,
    progressive: Progressive,
    kind: str,
    stop_date: datetime.date,
    displayed: Decimal,
    minister_notified_on: datetime.date,
    minister_reference: str,
    actor: AbstractBaseUser,
    target: Progressive | None = None,
) -> ProgressiveStop:
    """A voluntary stop (SLOT-37): the whole increment (displayed − starting amount) transferred to
    another progressive's starting amount, or a final stop with the increment to orphans; the
    Minister of the Interior informed at least SET-42 before. A JPM's global stop (SLOT-41): the
    Minister informed at once, this casino's share of the increment since the last win to orphans."""
    est = progressive.establishment
    _fr(est)
    role = require_role(actor, est, KEEPERS)
    code = "SLOT-41" if progressive.multisite else "SLOT-37"
    if progressive.status != Progressive.Status.ACTIVE:
        raise ValidationError(_("Ce jackpot progressif n'est pas en service."))
    if kind not in (ProgressiveStop.Kind.TRANSFER, ProgressiveStop.Kind.FINAL) or not minister_reference.strip():
        raise ValidationError(_("Nature de l'arrêt et référence de l'information du ministre sont obligatoires."))
    if progressive.multisite:
        if kind != ProgressiveStop.Kind.FINAL or minister_notified_on > stop_date:
            raise RuleViolation(
                code, _("L'arrêt d'un JPM est définitif et le ministre de l'intérieur en est informé immédiatement.")
            )
        last = progressive.jpm_readings.order_by("-day").first()
        if last is None:
            raise RuleViolation(code, _("Aucun relevé modèle 28 S : la part de l'incrémentation est inconnue."))
        increment = sum(increment_shares(progressive, last.meters).values(), Decimal("0"))
    else:
        if (stop_date - minister_notified_on).days < NOTICE_DAYS:
            raise RuleViolation(
                code,
                _("Le ministre de l'intérieur est informé au moins %(n)s jours avant l'arrêt ou le transfert.")
                % {"n": NOTICE_DAYS},
            )
        increment = displayed - progressive.start_amount
    if increment < 0:
        raise ValidationError({"displayed": _("Le montant affiché est inférieur au montant de départ.")})
    orphan = None
    if kind == ProgressiveStop.Kind.TRANSFER:
        if (
            target is None
            or target.pk == progressive.pk
            or target.establishment_id != est.pk
            or target.status != Progressive.Status.ACTIVE
        ):
            raise RuleViolation(
                code, _("L'incrémentation est transférée en totalité à un autre jackpot progressif en service.")
            )
        target.start_amount += increment
        save_audited(target, actor=actor, reason=f"transfert de l'incrémentation de {progressive.code}")
    elif increment > 0:
        orphan = _orphan(progressive, increment, actor)
    progressive.status = Progressive.Status.STOPPED
    save_audited(progressive, actor=actor, reason="arrêt volontaire")
    detail = (
        f"{ProgressiveStop.Kind(kind).label} {_('le')} {stop_date:%d/%m/%Y} — {_('ministre informé le')} "
        f"{minister_notified_on:%d/%m/%Y} ({minister_reference.strip()})"
        + (
            f" — {_('vers')} {target.code}"
            if target is not None and kind == ProgressiveStop.Kind.TRANSFER
            else f" — {_('orphelins')}"
        )
    )
    entry = _write(
        JPM_28S if progressive.multisite else PROGRESSIVES,
        est,
        actor=actor,
        role=role,
        event=_("Arrêt du jackpot progressif"),
        at=timezone.now(),
        jackpot=progressive,
        amount=increment,
        detail=detail,
        **{"meters" if progressive.multisite else "machines": ""},
    )
    return save_audited(
        ProgressiveStop(
            progressive=progressive,
            kind=kind,
            stop_date=stop_date,
            increment=increment,
            target=target if kind == ProgressiveStop.Kind.TRANSFER else None,
            minister_notified_on=minister_notified_on,
            minister_reference=minister_reference.strip(),
            orphan=orphan,
            recorded_by=actor,
            recorded_at=timezone.now(),
            entry=entry,
        ),
        actor=actor,
        reason="arrêt volontaire",
    )


@transaction.atomic
def progressive_increment_recover(
    *, stop: ProgressiveStop, target: Progressive, actor: AbstractBaseUser
) -> ProgressiveStop:
    """The increment of a final stop recovered by an existing progressive or one created before 31
    October of the season, until that date (SLOT-37); a JPM's only by a new JPM (SLOT-41). The
    orphans carnet closes the line (column 7) with the recovering jackpot."""
    stop = ProgressiveStop.objects.select_for_update().get(pk=stop.pk)
    source = stop.progressive
    est = source.establishment
    role = require_role(actor, est, KEEPERS)
    code = "SLOT-41" if source.multisite else "SLOT-37"
    if stop.kind != ProgressiveStop.Kind.FINAL or stop.orphan is None or stop.recovered_to_id:
        raise ValidationError(_("Aucune incrémentation à reprendre pour cet arrêt."))
    deadline = season_deadline(stop.stop_date)
    today = est.localtime().date()
    if today > deadline or est.localtime(target.created_at).date() > deadline:
        raise RuleViolation(
            code,
            _("L'incrémentation ne peut être reprise que jusqu'au %(d)s, par un jackpot créé avant cette date.")
            % {"d": f"{deadline:%d/%m/%Y}"},
        )
    if (
        target.establishment_id != est.pk
        or target.pk == source.pk
        or target.status != Progressive.Status.ACTIVE
        or target.multisite != source.multisite
    ):
        raise RuleViolation(
            code, _("L'incrémentation est reprise par un jackpot progressif en service de même nature.")
        )
    cash_services.orphan_restitute(
        orphan=stop.orphan,
        amount=stop.increment,
        name=f"{_('jackpot progressif')} {target.code}",
        address=est.name,
        proof=f"{_('arrêt du')} {stop.stop_date:%d/%m/%Y} — {stop.minister_reference}",
        actor=actor,
    )
    target.start_amount += stop.increment
    save_audited(target, actor=actor, reason=f"reprise de l'incrémentation de {source.code}")
    stop.recovered_to, stop.recovered_on = target, today
    save_audited(stop, actor=actor, reason="reprise de l'incrémentation")
    _write(
        JPM_28S if source.multisite else PROGRESSIVES,
        est,
        actor=actor,
        role=role,
        event=_("Reprise de l'incrémentation"),
        at=timezone.now(),
        jackpot=target,
        amount=stop.increment,
        detail=f"{_('de')} {source.code}",
        **{"meters" if source.multisite else "machines": ""},
    )
    return stop


@transaction.atomic
def jpm_withdraw(
    *,
    jackpot: Progressive,
    leave_date: datetime.date,
    minister_notified_on: datetime.date,
    minister_reference: str,
    meters: Mapping[str, int],
    actor: AbstractBaseUser,
    comite: AbstractBaseUser | None,
) -> ProgressiveStop:
    """This casino leaves the JPM (SLOT-41): the Minister informed at least SET-42 before; on the
    day, one bon d'incrémentation per connected machine for the increments since the last win,
    signed by the cashier and a comité member, each in its modèle 29."""
    est = jackpot.establishment
    _fr(est)
    _check_pair(est, actor, comite, "SLOT-41")
    if not jackpot.multisite or jackpot.status != Progressive.Status.ACTIVE:
        raise ValidationError(_("Ce jackpot n'est pas un JPM en service."))
    if (leave_date - minister_notified_on).days < NOTICE_DAYS or not minister_reference.strip():
        raise RuleViolation(
            "SLOT-41",
            _("Le ministre de l'intérieur est informé au moins %(n)s jours avant le retrait.") % {"n": NOTICE_DAYS},
        )
    if est.localtime().date() != leave_date:
        raise ValidationError(_("Les bons d'incrémentation sont établis le jour du retrait."))
    shares = increment_shares(jackpot, _meter_values(jackpot, meters, "SLOT-41"))
    total = sum(shares.values(), Decimal("0"))
    now = timezone.now()
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
        detail=f"{_('ministre informé le')} {minister_notified_on:%d/%m/%Y} ({minister_reference.strip()})",
    )
    stop = save_audited(
        ProgressiveStop(
            progressive=jackpot,
            kind=ProgressiveStop.Kind.WITHDRAWAL,
            stop_date=leave_date,
            increment=total,
            minister_notified_on=minister_notified_on,
            minister_reference=minister_reference.strip(),
            recorded_by=actor,
            recorded_at=now,
            entry=entry,
        ),
        actor=actor,
        reason="retrait du JPM",
    )
    _increment_bons(jackpot, shares, actor=actor, comite=comite, at=now, stop=stop)
    jackpot.status = Progressive.Status.LEFT
    save_audited(jackpot, actor=actor, reason="retrait du JPM")
    return stop
