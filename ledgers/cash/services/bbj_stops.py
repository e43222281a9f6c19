"""Bad beat jackpot stops: final or temporary voluntary stops, technical breakdowns and their restoring."""

import datetime
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import TableSession
from ledgers.core.roles import Role
from ledgers.incidents.models import Incident, IncidentNotice
from ledgers.incidents.services import (
    AuthorityRecipient,
    authority_notice_record,
    incident_close,
    incident_notify,
    incident_open,
    notice_stale,
    notice_window_require,
)
from ledgers.registers.services import display_name, register_language

from .. import rules
from ..models import BadBeatStop, BadBeatStopNotice, BadBeatTable, Orphan
from ..selectors import current_amount, current_config, final_stop, open_breakdown, open_suspension
from .bbj import BBJ_MANAGERS, _entry, _locked
from .orphans import orphan_record


def _final_stop_notice(est) -> datetime.timedelta:
    """SET-42 (AMB-50): the window before a BBJ final stop within which the Minister is told."""
    hours = (est.setting("SET-42") or {}).get("bbj_final_stop_hours")
    return rules.BBJ_FINAL_STOP_NOTICE if hours is None else datetime.timedelta(hours=int(hours))


def final_stop_notice_in_force(jackpot: BadBeatTable) -> BadBeatStopNotice | None:
    """The Minister's latest notice of the BBJ's final stop, while its SET-42 window lasts."""
    told = BadBeatStopNotice.objects.filter(jackpot=jackpot).first()
    est = jackpot.table.establishment
    return told if told is not None and not notice_stale(told.notified_at, _final_stop_notice(est)) else None


@transaction.atomic
def bad_beat_stop_notify(
    *, jackpot: BadBeatTable, channel: str, reference: str, actor: AbstractBaseUser
) -> BadBeatStopNotice:
    """Record that the Minister of the Interior is told now of the coming final stop (art. 56-3-2,
    COUNT-47), with its line in the AUTH-06 register: its time is the system's, never typed in, so
    the SET-42 window the final stop comes within cannot be stretched by back-dating; told again
    only once that window has passed."""
    jackpot = _locked(jackpot)
    est = jackpot.table.establishment
    role = require_role(actor, est, BBJ_MANAGERS)
    if final_stop(jackpot) is not None:
        raise ValidationError(_("Ce bad beat jackpot est déjà arrêté définitivement."))
    if final_stop_notice_in_force(jackpot) is not None:
        raise impossible(_("Le ministre de l'intérieur est déjà informé de l'arrêt définitif de ce bad beat jackpot."))
    if not reference.strip():
        raise ValidationError({"reference": _("Indiquez la référence de l'information du ministre.")})
    return authority_notice_record(
        BadBeatStopNotice(jackpot=jackpot, channel=channel, reference=reference.strip()),
        establishment=est,
        recipient=AuthorityRecipient.MINISTER,
        subject=str(_("Arrêt définitif du bad beat jackpot de la table %(table)s") % {"table": jackpot.table.number}),
        requirement="COUNT-47",
        actor=actor,
        role=role,
    )


@transaction.atomic
def bad_beat_stop_final(*, jackpot: BadBeatTable, actor: AbstractBaseUser) -> BadBeatStop:
    """Stop the BBJ for good (art. 56-3-2, COUNT-47): the Minister of the Interior's notice was
    recorded within the SET-42 window before (48 hours, AMB-50); the increment (the amount above the
    starting value) is written to the orphans (carnet 11 bis) in the same transaction."""
    jackpot = _locked(jackpot)
    est = jackpot.table.establishment
    role = require_role(actor, est, BBJ_MANAGERS)
    if final_stop(jackpot) is not None:
        raise ValidationError(_("Ce bad beat jackpot est déjà arrêté définitivement."))
    notice = BadBeatStopNotice.objects.filter(jackpot=jackpot).first()
    window = _final_stop_notice(est)
    notice_window_require(
        establishment=est,
        notified_at=notice.notified_at if notice else None,
        window=window,
        requirement="COUNT-47",
        rule=_("Le ministre de l'intérieur est informé dans les %(hours)s heures qui précèdent l'arrêt définitif.")
        % {"hours": int(window.total_seconds() // 3600)},
    )
    now = timezone.now()
    if open_breakdown(jackpot) is not None:
        raise ValidationError(_("Rétablissez d'abord le système en panne."))
    config = current_config(jackpot)
    increment = max(current_amount(jackpot) - (config.starting_value if config else Decimal("0.00")), Decimal("0.00"))
    orphan = orphan_record(
        establishment=est,
        category=Orphan.Category.JACKPOT_INCREMENT,
        amount=increment,
        place=str(_("table %(table)s") % {"table": jackpot.table.number}),
        found_by=display_name(actor),
        paid_into=str(_("caisse")),
        actor=actor,
    )
    stop = save_audited(
        BadBeatStop(
            jackpot=jackpot,
            kind=BadBeatStop.Kind.FINAL,
            stopped_at=now,
            increment=increment,
            minister_notified_at=notice.notified_at,
            minister_reference=notice.reference,
            orphan=orphan,
            recorded_by=actor,
        ),
        actor=actor,
        reason="arrêt définitif",
    )
    _entry(
        jackpot,
        actor=actor,
        role=role,
        event=_(
            "Arrêt définitif : incrément de %(amount)s € enregistré aux orphelins (inscription n° %(seq)s) ; ministre "
            "de l'intérieur informé le %(at)s (%(ref)s)"
        )
        % {
            "amount": increment,
            "seq": orphan.entry_seq,
            "ref": stop.minister_reference,
            "at": est.localtime(notice.notified_at).strftime("%d/%m/%Y %H:%M"),
        },
    )
    return stop


@transaction.atomic
def bad_beat_breakdown(
    *,
    jackpot: BadBeatTable,
    down_at: datetime.datetime,
    police_informed_at: datetime.datetime | None,
    police_service: str,
    actor: AbstractBaseUser,
    channel: str = IncidentNotice.Channel.PHONE,
) -> BadBeatStop:
    """The BBJ system stopped by a technical breakdown (art. 56-3-2, INC-15): play goes on without
    increments, players cannot claim the jackpot, and the chief of the territorial judicial police
    is told without delay — so the breakdown is recorded only with that information. It opens an
    INC-15 incident that stays open until the system is restored."""
    jackpot = _locked(jackpot)
    est = jackpot.table.establishment
    role = require_role(actor, est, BBJ_MANAGERS)
    if open_breakdown(jackpot) is not None:
        raise ValidationError(_("Une panne de ce bad beat jackpot est déjà en cours."))
    if down_at > timezone.now():
        raise ValidationError({"down_at": _("L'heure de la panne ne peut être dans le futur.")})
    if police_informed_at is None or not police_service.strip():
        raise RuleViolation(
            "INC-15",
            _(
                "Le chef du service de police judiciaire territorialement compétent est "
                "informé sans délai de la panne : indiquez l'heure et le service."
            ),
        )
    session = jackpot.table.sessions.filter(status=TableSession.Status.OPEN).first()
    with register_language():
        description = str(
            _(
                "Panne technique du bad beat jackpot de la table %(table)s : le jeu continue sans "
                "incrémentation ni gain du jackpot."
            )
            % {"table": jackpot.table.number}
        )
    incident = incident_open(
        establishment=est,
        category=rules.BBJ_BREAKDOWN.code,
        description=description,
        actor=actor,
        found_at=down_at,
        table_session=session,
        subjects=[jackpot],
    )
    incident_notify(
        incident=incident,
        recipient_role=Role.POLICE,
        recipient_name=police_service.strip(),
        notified_at=police_informed_at,
        channel=channel,
        actor=actor,
    )
    stop = save_audited(
        BadBeatStop(
            jackpot=jackpot,
            kind=BadBeatStop.Kind.BREAKDOWN,
            stopped_at=down_at,
            incident=incident,
            police_informed_at=police_informed_at,
            police_service=police_service.strip(),
            recorded_by=actor,
        ),
        actor=actor,
        reason="panne",
    )
    _entry(
        jackpot,
        actor=actor,
        role=role,
        session=session,
        event=_(
            "INC-15 : panne technique à %(down)s, police judiciaire (%(service)s) informée à %(informed)s ; jeu sans "
            "incrémentation"
        )
        % {
            "down": est.localtime(down_at).strftime("%d/%m/%Y %H:%M"),
            "service": stop.police_service,
            "informed": est.localtime(police_informed_at).strftime("%d/%m/%Y %H:%M"),
        },
    )
    return stop


@transaction.atomic
def bad_beat_restore(*, stop: BadBeatStop, restored_at: datetime.datetime, actor: AbstractBaseUser) -> BadBeatStop:
    """The BBJ system is working again: the INC-15 incident is closed, increments and payouts resume."""
    stop = BadBeatStop.objects.select_for_update().select_related("jackpot__table__establishment").get(pk=stop.pk)
    est = stop.jackpot.table.establishment
    role = require_role(actor, est, BBJ_MANAGERS)
    if stop.kind != BadBeatStop.Kind.BREAKDOWN or stop.restored_at is not None:
        raise ValidationError(_("Cette panne n'est pas en cours."))
    if not stop.stopped_at <= restored_at <= timezone.now():
        raise ValidationError({"restored_at": _("Le rétablissement suit la panne et n'est pas dans le futur.")})
    stop.restored_at = restored_at
    save_audited(stop, actor=actor, reason="rétablissement")
    if stop.incident is not None and stop.incident.status == Incident.Status.OPEN:
        incident_close(incident=stop.incident, actor=actor)
    _entry(
        stop.jackpot,
        actor=actor,
        role=role,
        event=_("INC-15 : système rétabli à %(at)s") % {"at": est.localtime(restored_at).strftime("%d/%m/%Y %H:%M")},
    )
    return stop


@transaction.atomic
def bad_beat_suspend(*, jackpot: BadBeatTable, actor: AbstractBaseUser) -> BadBeatStop:
    """A temporary voluntary stop of the BBJ, "possible at any time" (art. 56-3-2, COUNT-47): written
    with its time and who decided it; until it is resumed the table takes no BBJ retenue and pays
    no BBJ. The increment stays with the jackpot (only a final stop sends it to the orphans)."""
    jackpot = _locked(jackpot)
    est = jackpot.table.establishment
    role = require_role(actor, est, BBJ_MANAGERS)
    if final_stop(jackpot) is not None:
        raise ValidationError(_("Ce bad beat jackpot est déjà arrêté définitivement."))
    if open_suspension(jackpot) is not None or open_breakdown(jackpot) is not None:
        raise ValidationError(_("Ce bad beat jackpot est déjà arrêté."))
    stop = save_audited(
        BadBeatStop(jackpot=jackpot, kind=BadBeatStop.Kind.SUSPENSION, stopped_at=timezone.now(), recorded_by=actor),
        actor=actor,
        reason="arrêt volontaire temporaire",
    )
    _entry(
        jackpot,
        actor=actor,
        role=role,
        event=_("Arrêt volontaire temporaire à %(at)s : jeu sans incrémentation ni gain du jackpot")
        % {"at": est.localtime(stop.stopped_at).strftime("%d/%m/%Y %H:%M")},
    )
    return stop


@transaction.atomic
def bad_beat_resume(*, stop: BadBeatStop, actor: AbstractBaseUser) -> BadBeatStop:
    """The BBJ runs again after a temporary voluntary stop: the resumption's time and who decided it."""
    stop = BadBeatStop.objects.select_for_update().select_related("jackpot__table__establishment").get(pk=stop.pk)
    est = stop.jackpot.table.establishment
    role = require_role(actor, est, BBJ_MANAGERS)
    if open_suspension(stop.jackpot) != stop:
        raise ValidationError(_("Cet arrêt temporaire n'est pas en cours."))
    stop.restored_at, stop.restored_by = timezone.now(), actor
    save_audited(stop, actor=actor, reason="reprise")
    _entry(
        stop.jackpot,
        actor=actor,
        role=role,
        event=_("Reprise du bad beat jackpot à %(at)s")
        % {"at": est.localtime(stop.restored_at).strftime("%d/%m/%Y %H:%M")},
    )
    return stop
