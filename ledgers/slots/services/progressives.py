"""FR progressive jackpots: their creation, daily readings, stops and increments recovered."""

import datetime
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.cash import services as cash_services
from ledgers.cash.models import Orphan
from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.incidents.services import (
    AuthorityRecipient,
    authority_notice_record,
    notice_lead_require,
    notice_stale,
    notice_window_require,
)
from ledgers.registers.models import Entry
from ledgers.registers.services import (
    display_name,
    register_create,
    register_language,
    register_open,
)
from ledgers.registers.written import reserve_written

from ..models import (
    JackpotPayment,
    Machine,
    Progressive,
    ProgressiveReading,
    ProgressiveStop,
    ProgressiveStopNotice,
)
from ..registers import JPM_28S, PROGRESSIVES, TECHNICAL_CONTROL, TECHNICAL_KIND
from .accounting import CENT
from .common import _append, _line, _register_write, _signature

KEEPERS = (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)


READERS = (Role.CAISSIER, Role.COMITE, Role.DIRECTEUR_RESPONSABLE, Role.EMPLOYE_JEUX)


# SET-42 (AMB-50): a progressive's transfer or final stop and a JPM withdrawal are notified to the
# Minister of the Interior at least 15 days before; a JPM stop immediately, so before it is recorded.
NOTICE_DAYS = 15


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
        payload = _line(
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
            payload["signature"] = f"{payload['signature']} ; {_signature(comite, Role.COMITE)}"
    return _register_write(est, kind, payload, actor=actor, role=role)


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
    return _append(
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


def _notice_terms(progressive: Progressive, kind: str) -> tuple[str, datetime.timedelta | None, str]:
    """The requirement, the window (SET-42: the stop comes within it after the notice the system
    recorded, AMB-50; None: the notice precedes the stop, with no window) and the wording of the
    Minister's notice that a stop of ``kind`` needs."""
    days = (progressive.establishment.setting("SET-42") or {}).get("progressive_notice_days")
    window = datetime.timedelta(days=NOTICE_DAYS if days is None else int(days))
    if kind == ProgressiveStop.Kind.WITHDRAWAL:
        return (
            "SLOT-41",
            window,
            _("Le ministre de l'intérieur est informé dans les %(n)s jours qui précèdent le retrait.")
            % {"n": window.days},
        )
    if progressive.multisite:
        return (
            "SLOT-41",
            None,
            _("L'arrêt d'un JPM est définitif et le ministre de l'intérieur en est informé immédiatement."),
        )
    return (
        "SLOT-37",
        window,
        _("Le ministre de l'intérieur est informé dans les %(n)s jours qui précèdent l'arrêt ou le transfert.")
        % {"n": window.days},
    )


@transaction.atomic
def progressive_stop_notify(
    *, progressive: Progressive, kind: str, channel: str, reference: str, actor: AbstractBaseUser
) -> ProgressiveStopNotice:
    """Record that the Minister of the Interior is told now of a progressive's coming transfer or
    final stop (SLOT-37), of a JPM's stop or of this casino's withdrawal from it (SLOT-41), with its
    line in the AUTH-06 register: its time is the system's, never typed in, so the window the stop
    comes within cannot be stretched by back-dating; told again for a kind of stop only once the
    window of the last notice has passed."""
    progressive = Progressive.objects.select_for_update().select_related("establishment").get(pk=progressive.pk)
    est = progressive.establishment
    _fr(est)
    role = require_role(actor, est, KEEPERS)
    if progressive.status != Progressive.Status.ACTIVE:
        raise ValidationError(_("Ce jackpot progressif n'est pas en service."))
    allowed = (
        (ProgressiveStop.Kind.FINAL, ProgressiveStop.Kind.WITHDRAWAL)
        if progressive.multisite
        else (ProgressiveStop.Kind.TRANSFER, ProgressiveStop.Kind.FINAL)
    )
    if kind not in allowed:
        raise ValidationError(
            {"kind": _("Un JPM est arrêté ou le casino s'en retire ; un jackpot local est transféré ou arrêté.")}
        )
    if not reference.strip():
        raise ValidationError({"reference": _("Indiquez la référence de l'information du ministre.")})
    told, window = progressive.stop_notices.filter(kind=kind).first(), _notice_terms(progressive, kind)[1]
    if told is not None and (window is None or not notice_stale(told.notified_at, window)):
        raise impossible(_("Le ministre de l'intérieur est déjà informé de cet arrêt."))
    return authority_notice_record(
        ProgressiveStopNotice(progressive=progressive, kind=kind, channel=channel, reference=reference.strip()),
        establishment=est,
        recipient=AuthorityRecipient.MINISTER,
        subject=str(
            _("%(kind)s — jackpot progressif %(jackpot)s")
            % {"kind": ProgressiveStop.Kind(kind).label, "jackpot": progressive.code}
        ),
        requirement=_notice_terms(progressive, kind)[0],
        actor=actor,
        role=role,
    )


def minister_notice_require(progressive: Progressive, kind: str) -> ProgressiveStopNotice:
    """The Minister's notice a stop of ``kind`` needs, refused (SLOT-37, SLOT-41) while none is
    recorded or once it is older than its window (AMB-50)."""
    code, window, rule = _notice_terms(progressive, kind)
    notice = progressive.stop_notices.filter(kind=kind).first()
    notified_at = notice.notified_at if notice else None
    if window is None:
        notice_lead_require(
            establishment=progressive.establishment,
            notified_at=notified_at,
            lead=datetime.timedelta(0),
            requirement=code,
            rule=rule,
        )
    else:
        notice_window_require(
            establishment=progressive.establishment,
            notified_at=notified_at,
            window=window,
            requirement=code,
            rule=rule,
        )
    return notice


def minister_notice_text(notice: ProgressiveStopNotice) -> str:
    """The notice as the stop's register line cites it."""
    at = notice.progressive.establishment.localtime(notice.notified_at)
    return f"{_('ministre informé le')} {at:%d/%m/%Y %H:%M} ({notice.reference})"


@transaction.atomic
def progressive_stop(
    *,
    progressive: Progressive,
    kind: str,
    stop_date: datetime.date,
    displayed: Decimal,
    actor: AbstractBaseUser,
    target: Progressive | None = None,
) -> ProgressiveStop:
    """A voluntary stop (SLOT-37): the whole increment (displayed − starting amount) transferred to
    another progressive's starting amount, or a final stop with the increment to orphans; the
    Minister of the Interior's notice recorded at least SET-42 before. A JPM's global stop (SLOT-41):
    the Minister's notice recorded before it, this casino's share of the increment since the last
    win to orphans."""
    est = progressive.establishment
    _fr(est)
    role = require_role(actor, est, KEEPERS)
    code = "SLOT-41" if progressive.multisite else "SLOT-37"
    if progressive.status != Progressive.Status.ACTIVE:
        raise ValidationError(_("Ce jackpot progressif n'est pas en service."))
    if kind not in (ProgressiveStop.Kind.TRANSFER, ProgressiveStop.Kind.FINAL):
        raise ValidationError(_("La nature de l'arrêt est obligatoire."))
    if progressive.multisite and kind != ProgressiveStop.Kind.FINAL:
        raise RuleViolation(
            code, _("L'arrêt d'un JPM est définitif et le ministre de l'intérieur en est informé immédiatement.")
        )
    notice = minister_notice_require(progressive, kind)
    if progressive.multisite:
        last = progressive.jpm_readings.order_by("-day").first()
        if last is None:
            raise RuleViolation(code, _("Aucun relevé modèle 28 S : la part de l'incrémentation est inconnue."))
        increment = sum(increment_shares(progressive, last.meters).values(), Decimal("0"))
    else:
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
    detail = f"{ProgressiveStop.Kind(kind).label} {_('le')} {stop_date:%d/%m/%Y} — {minister_notice_text(notice)}" + (
        f" — {_('vers')} {target.code}"
        if target is not None and kind == ProgressiveStop.Kind.TRANSFER
        else f" — {_('orphelins')}"
    )
    key = reserve_written(ProgressiveStop)  # the stop keeps its entry, which names it
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
            pk=key,
            progressive=progressive,
            kind=kind,
            stop_date=stop_date,
            increment=increment,
            target=target if kind == ProgressiveStop.Kind.TRANSFER else None,
            minister_notified_on=est.localtime(notice.notified_at).date(),
            minister_reference=notice.reference,
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
