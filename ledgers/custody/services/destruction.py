"""Destruction."""

import datetime
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import impossible
from ledgers.core.establishment_settings import SCJ_NOTICE_FLOOR_MINUTES
from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.incidents.categories import CUSTODY_CHECK
from ledgers.incidents.services import incident_open
from ledgers.notifications.models import Notice, NoticeKind
from ledgers.notifications.services import notice_send
from ledgers.registers.chain import format_timestamp
from ledgers.registers.models import Entry, Register
from ledgers.registers.services import display_name, visa_sign

from ..domains import CustodyDomain, get_domain
from ..models import (
    GONE_STATUSES,
    DestructionItem,
    DestructionSession,
    ItemStatus,
    TrackedItem,
)
from ..selectors import intake_registers
from .common import AUTHORITY, DIRECTION, _french, _refuse, _rule, _serials
from .intake import _intake_register, _intake_write, _record_out


def _registers_concerned(domain: CustodyDomain, est: Establishment) -> list[Register]:
    registers = intake_registers(domain, est)
    if domain.annex_kind and est.jurisdiction == "MC":
        registers |= Register.objects.filter(establishment=est, kind=domain.annex_kind, qualifier=domain.code)
    return list(registers.filter(status=Register.Status.OPEN).order_by("number"))


@transaction.atomic
def destruction_plan(
    *,
    domain: CustodyDomain,
    establishment: Establishment,
    method: str,
    planned_at: datetime.datetime,
    items: Sequence[TrackedItem],
    actor: AbstractBaseUser,
) -> DestructionSession:
    """Plan a destruction (FR: destruction only, no neutralisation) of withdrawn objects."""
    role = require_role(actor, establishment, DIRECTION[establishment.jurisdiction])
    if not items:
        raise ValidationError(_("Une séance de destruction porte au moins un objet."))
    if establishment.jurisdiction == "FR" and method != DestructionSession.Method.DESTRUCTION:
        _refuse(
            domain,
            "destruction_method",
            establishment,
            _("En France la neutralisation n'est pas admise : seule la destruction est possible."),
        )
    for item in items:
        if item.status in GONE_STATUSES or item.table_session_id:
            raise ValidationError(_("« %(item)s » n'est pas en dépôt.") % {"item": item.serial})
    session = save_audited(
        DestructionSession(
            establishment=establishment, domain=domain.code, method=method, planned_at=planned_at, officer=actor
        ),
        actor=actor,
        reason="programmation",
    )
    ct = ContentType.objects.get_for_model(type(items[0]))
    DestructionItem.objects.bulk_create(
        [DestructionItem(session=session, content_type=ct, object_id=item.pk, label=str(item)[:200]) for item in items]
    )
    register = _intake_register(domain, establishment, items[0].category)
    when = establishment.localtime(planned_at)
    _destruction_line(
        register,
        session,
        actor=actor,
        role=role,
        event=_("Programmation de la destruction"),
        minutes=" ; ".join(
            (
                _french(_("Prévue le %(at)s"), at=f"{when:%d/%m/%Y %H:%M}"),
                _french(_("Responsable : %(name)s"), name=display_name(actor)),
            )
        ),
        items=items,
    )
    # The authority is told of the destruction before it happens (MC: CARD-11, DICE-07; FR: the
    # police officer who attends, CARD-31, DICE-19); its acknowledgement records it as informed.
    notice_send(
        establishment=establishment,
        kind=NoticeKind.DESTRUCTION,
        register=register,
        subject=_french(
            _("Destruction prévue le %(date)s : %(count)s objet(s)"), date=f"{when:%d/%m/%Y %H:%M}", count=len(items)
        ),
        body="\n".join(str(item) for item in items),
        actor=actor,
        role=role,
        roles=AUTHORITY[establishment.jurisdiction],
        about=f"custody.destructionsession:{session.pk}",
    )
    return session


def _destruction_register(session: DestructionSession) -> Register:
    """The volume a destruction's lines go to: the intake register of its first object's category,
    where it was planned and its notice sent."""
    domain = get_domain(session.domain)
    first = session.items.order_by("pk").values_list("object_id", flat=True).first()
    return _intake_register(domain, session.establishment, domain.model.objects.get(pk=first).category)


def _destruction_line(
    register: Register,
    session: DestructionSession,
    *,
    actor: AbstractBaseUser,
    role: str,
    event: Promise,
    minutes: str,
    items: Sequence[TrackedItem] = (),
) -> Entry:
    """A line of the destruction in its intake register before its OUT entries (REG-24): what is
    planned, how the authority was told. It names the session, saved before it (``written``)."""
    payload = {
        "event": _french(event),
        "destruction": session.pk,
        "reason": _french(session.get_method_display()),
        "minutes": minutes,
    }
    if items:
        payload.update(
            category=", ".join(sorted({item.category for item in items})),
            quantity=len(items),
            serials=_serials(items),
        )
    return _intake_write(register, actor=actor, role=role, payload=payload)


def _notice_text(session: DestructionSession) -> str:
    """When and how the authority was told, as the minutes say it ("" before it is told)."""
    if session.notified_at is None:
        return ""
    how = " — ".join(filter(None, (session.notice_channel, session.notice_reference)))
    at = session.establishment.localtime(session.notified_at).strftime("%d/%m/%Y %H:%M")
    return _french(_("Autorité informée le %(at)s (%(how)s)"), at=at, how=how)


def destruction_notice_acknowledged(notice: Notice, actor: AbstractBaseUser, role: str) -> None:
    """The authority acknowledged the e-mail of a planned destruction: informed when the mail
    reached the mail server (in ``notice_acknowledge``'s transaction, before its line of the
    destruction's register, which names the session)."""
    session = DestructionSession.objects.select_for_update().get(pk=int(notice.about.rpartition(":")[2]))
    if session.status != DestructionSession.Status.PLANNED or session.notified_at is not None:
        return
    sent = notice.mails.filter(recipient=actor).exclude(sent_at=None).order_by("sent_at").first()
    session.notified_at = sent.sent_at if sent else notice.created_at
    session.notice_channel = _french(_("Courriel"))
    session.notice_reference = _french(_("Notification n° %(n)s"), n=notice.pk)
    save_audited(session, actor=actor, reason="information de l'autorité")


@transaction.atomic
def destruction_notify(
    *,
    session: DestructionSession,
    channel: str,
    reference: str,
    actor: AbstractBaseUser,
) -> DestructionSession:
    """Record the prior information of the authority (MC: the SCJ, CARD-11 / DICE-07) as it is
    given, a line of the destruction's register: its time is the system's, never typed in, so it
    cannot be back-dated; given once."""
    session = DestructionSession.objects.select_for_update().get(pk=session.pk)
    role = require_role(actor, session.establishment, DIRECTION[session.establishment.jurisdiction])
    if session.status != DestructionSession.Status.PLANNED:
        raise impossible(_("Cette séance de destruction est déjà effectuée."))
    if session.notified_at is not None:
        raise impossible(_("L'autorité est déjà informée de cette séance de destruction."))
    session.notified_at, session.notice_channel, session.notice_reference = timezone.now(), channel, reference
    save_audited(session, actor=actor, reason="information de l'autorité")
    _destruction_line(
        _destruction_register(session),
        session,
        actor=actor,
        role=role,
        event=_("Information de l'autorité"),
        minutes=_notice_text(session),
    )
    return session


def session_items(session: DestructionSession, domain: CustodyDomain) -> list[TrackedItem]:
    ids = list(session.items.values_list("object_id", flat=True))
    return list(domain.model.objects.select_for_update().filter(pk__in=ids).order_by("pk"))


def _minutes(session: DestructionSession, details: dict) -> str:
    """The minutes as the intake register prints them: who was responsible and present, when it
    was planned and when and how the authority was informed (CARD-10, CARD-11, DICE-07, REG-24)."""
    est, at = session.establishment, "%d/%m/%Y %H:%M"
    parts = [
        _french(_("Responsable : %(name)s"), name=details["officer"]),
        _french(_("Inspecteur présent : %(name)s"), name=details["inspector"]) if details["inspector"] else "",
        _french(_("Autorité présente : %(name)s"), name=details["witness"]) if details["witness"] else "",
        _french(_("Prévue le %(at)s"), at=est.localtime(session.planned_at).strftime(at)),
        _notice_text(session),
        details["observations"],
    ]
    return " ; ".join(part for part in parts if part)


def _hold_to_notice(session: DestructionSession, domain: CustodyDomain, now: datetime.datetime) -> None:
    """MC: the SCJ, informed beforehand, may attend what it was told of (CARD-11, DICE-07): the
    operation starts neither before the time it was told nor before the notice the operator sets
    (SET-05; the text sets none, AMB-37, and no setting goes below SCJ_NOTICE_FLOOR_MINUTES) has
    run from the notice the system recorded when it was given."""
    est = session.establishment
    if session.notified_at is None:
        _refuse(
            domain,
            "destruction_notice",
            est,
            _("Le Service de Contrôle des Jeux doit être informé avant la destruction ou la neutralisation."),
        )
    minutes = max(est.setting("SET-05")["scj_notice_minutes"], SCJ_NOTICE_FLOOR_MINUTES)
    start = max(session.planned_at, session.notified_at + datetime.timedelta(minutes=minutes))
    if now < start:
        _refuse(
            domain,
            "destruction_notice",
            est,
            _(
                "Le Service de Contrôle des Jeux a été informé d'une opération prévue le %(planned)s, avec un "
                "préavis de %(minutes)s min : la destruction ou la neutralisation est possible à partir du %(at)s."
            )
            % {
                "planned": est.localtime(session.planned_at).strftime("%d/%m/%Y %H:%M"),
                "minutes": minutes,
                "at": est.localtime(start).strftime("%d/%m/%Y %H:%M"),
            },
        )


@transaction.atomic
def destruction_complete(
    *,
    session: DestructionSession,
    domain: CustodyDomain,
    actor: AbstractBaseUser,
    witness: AbstractBaseUser | None = None,
    checks: dict | None = None,
    observations: str = "",
    inspector: AbstractBaseUser | None = None,
    withheld: Sequence[TrackedItem] = (),
    finding: str = "",
) -> DestructionSession:
    """Perform the destruction: the OUT entries of the intake registers, the objects gone.

    MC: the SCJ must have been informed before the operation starts, at least the SET-05 notice
    beforehand (CARD-11, DICE-07); an SCJ agent may attend as witness; where the domain has a
    ``destruction_inspector`` rule an inspecteur (authenticated by the caller) must be present and
    sign (DICE-07). FR: a police officer must attend (``witness``, authenticated by the caller) and
    visas the entries in the same transaction (CARD-31, DICE-19).

    ``withheld``: objects of the session that the check at the destruction found non-compliant
    (incomplete deck, marked card, loaded die…). An incident is opened on them in the same
    transaction (INC-14) and they are not destroyed: they stay in custody, quarantined.
    """
    session = DestructionSession.objects.select_for_update().get(pk=session.pk)
    est = session.establishment
    role = require_role(actor, est, DIRECTION[est.jurisdiction])
    if session.status != DestructionSession.Status.PLANNED:
        raise impossible(_("Cette séance de destruction est déjà effectuée."))
    now = timezone.now()
    if est.jurisdiction == "MC":
        _hold_to_notice(session, domain, now)
    witness_role = ""
    if witness is not None:
        witness_role = require_role(witness, est, AUTHORITY[est.jurisdiction])
    elif est.jurisdiction == "FR":
        _refuse(
            domain,
            "destruction_witness",
            est,
            _("La destruction s'effectue en présence d'un fonctionnaire de police qui vise le carnet."),
        )
    if _rule(domain, "destruction_inspector", est):
        if inspector is None:
            _refuse(
                domain,
                "destruction_inspector",
                est,
                _("La destruction ou la neutralisation s'effectue en présence d'un inspecteur, qui la signe."),
            )
        require_role(inspector, est, (Role.INSPECTEUR,))
    session.checks, session.observations = dict(checks or {}), observations
    items = session_items(session, domain)
    held = {item.pk for item in withheld}
    if held:
        if not held <= {item.pk for item in items}:
            raise ValidationError({"withheld": _("Un objet retenu n'appartient pas à cette séance de destruction.")})
        if not finding.strip():
            raise ValidationError({"finding": _("Décrivez la constatation qui fait retenir ces objets.")})
        kept = [item for item in items if item.pk in held]
        incident = incident_open(
            establishment=est,
            category=CUSTODY_CHECK.code,
            actor=actor,
            subjects=kept,
            description=finding.strip(),
            circumstances=str(session),
        )
        session.checks.update(withheld=_serials(kept), incident=incident.pk)
        items = [item for item in items if item.pk not in held]
    if domain.destruction_checks is not None:
        domain.destruction_checks(session, items)
    new_status = (
        ItemStatus.NEUTRALISED if session.method == DestructionSession.Method.NEUTRALISATION else ItemStatus.DESTROYED
    )
    details = {
        "officer": display_name(actor),
        "inspector": display_name(inspector) if inspector is not None else "",
        "witness": f"{display_name(witness)} — {Role(witness_role).label}" if witness is not None else "",
        "notified_at": format_timestamp(session.notified_at) if session.notified_at else "",
        "checks": session.checks,
        "observations": observations,
    }
    details["minutes"] = _minutes(session, details)
    session.status, session.performed_at, session.witness, session.witness_role = (
        DestructionSession.Status.COMPLETED,
        now,
        witness,
        witness_role,
    )
    session.inspector = inspector
    save_audited(session, actor=actor, reason="exécution")  # before the OUT entries, which name it
    entries = _record_out(
        domain=domain,
        establishment=est,
        items=items,
        actor=actor,
        role=role,
        reason=_french(session.get_method_display()),
        reference=f"{session} — {format_timestamp(now)}",
        new_status=new_status,
        details=details,
    )
    if witness is not None and est.jurisdiction == "FR":
        for entry in entries:
            visa_sign(
                register=entry.register,
                actor=witness,
                up_to_seq=entry.seq,
                statement=_french(_("Destruction effectuée en ma présence ; contrôle effectué.")),
            )
    return session
