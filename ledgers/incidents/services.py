"""Incidents: opened by whoever finds the fact, reported to the persons and authorities the
texts name, decided by the Direction, closed once every required information is recorded.
Each step is an entry of the establishment's incident register."""

import datetime
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.catalogue import REQUIREMENTS
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, Location, TableSession
from ledgers.core.roles import Role
from ledgers.notifications.models import Notice, NoticeKind
from ledgers.notifications.services import notice_send
from ledgers.registers.chain import format_timestamp
from ledgers.registers.models import Entry
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, entry_write, register_language

from .categories import get_category
from .models import Incident, IncidentNotice, IncidentSubject
from .registers import AUTHORITY_NOTICES, INCIDENT_REGISTER
from .selectors import missing_notices

DECIDERS = {"MC": (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR), "FR": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)}


def _record(
    incident: Incident, *, actor: AbstractBaseUser, role: str, event: str, text: str, notice: str = "", **extra
) -> None:
    register = current_register(incident.establishment, INCIDENT_REGISTER.code)
    payload = {
        "incident": incident.pk,
        "event": event,
        "category": str(get_category(incident.category).label),
        "requirement": incident.requirement,
        "text": text,
        "notice": notice,
        **extra,
    }
    entry_append(register=register, actor=actor, role=role, payload=payload)


class AuthorityRecipient:
    """Whom a FR act notifies (AUTH-06): the labels its line in the register gives."""

    MINISTER = _("Ministre de l'intérieur")
    SCCJ = _("Service central des courses et jeux (SCCJ)")
    POLICE = _("Service de police")


def authority_notice_write(
    *,
    establishment: Establishment,
    recipient: str,
    subject: str,
    requirement: str,
    notified_at: datetime.datetime | datetime.date,
    reference: str,
    actor: AbstractBaseUser,
    role: str,
    detail: str = "",
) -> Entry:
    """The line of a notice to the Minister of the Interior or the police in the FR register of
    those notices (AUTH-06), written by the act that notifies, in its transaction; ``requirement``
    is the row that requires the notice, its article is printed beside it."""
    with register_language():
        when = (
            establishment.localtime(notified_at).strftime("%d/%m/%Y %H:%M")
            if isinstance(notified_at, datetime.datetime)
            else notified_at.strftime("%d/%m/%Y")
        )
        payload = {
            "notified_at": when,
            "recipient": f"{recipient} — {detail}" if detail else str(recipient),
            "subject": str(subject),
            "reference": reference,
            "requirement": requirement,
            "article": REQUIREMENTS[requirement].article,
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
        }
    return entry_write(
        establishment=establishment, kind=AUTHORITY_NOTICES.code, actor=actor, role=role, payload=payload
    )


def authority_notice_record(
    notice: Model,
    *,
    establishment: Establishment,
    recipient: str,
    subject: str,
    requirement: str,
    actor: AbstractBaseUser,
    role: str,
    detail: str = "",
) -> Model:
    """Save ``notice``, an unsaved notice row (its channel and reference set), timed by the system
    when it is given and signed by its recorder, and write its line in the AUTH-06 register in the
    caller's transaction: a notice to the authorities is never given a typed time. ``detail``
    defaults to the channel."""
    notice.notified_at, notice.recorded_by = timezone.now(), actor
    notice = save_audited(notice, actor=actor)
    authority_notice_write(
        establishment=establishment,
        recipient=recipient,
        subject=subject,
        requirement=requirement,
        notified_at=notice.notified_at,
        reference=notice.reference,
        actor=actor,
        role=role,
        detail=detail or str(notice.get_channel_display()),
    )
    return notice


def notice_lead_require(
    *,
    establishment: Establishment,
    notified_at: datetime.datetime | None,
    lead: datetime.timedelta,
    requirement: str,
    rule: str,
    at: datetime.datetime | None = None,
) -> None:
    """Refuse an act that needs a prior notice to an authority while the system has recorded none,
    or before ``lead`` has passed since the notice it recorded when it was given (a time typed in
    could be back-dated). ``rule`` states the notice the text requires. ``at``: the time the act
    states it took place, when typed in, which must not fall before the lead either (else a
    back-dated act would get round it)."""
    if notified_at is None:
        raise RuleViolation(requirement, _("%(rule)s Enregistrez d'abord l'information donnée.") % {"rule": rule})
    ready = notified_at + lead
    now = timezone.now()
    if min(now, at or now) < ready:
        raise RuleViolation(
            requirement,
            _("%(rule)s Information enregistrée le %(at)s : possible à partir du %(ready)s.")
            % {
                "rule": rule,
                "at": establishment.localtime(notified_at).strftime("%d/%m/%Y %H:%M"),
                "ready": establishment.localtime(ready).strftime("%d/%m/%Y %H:%M"),
            },
        )


def notice_window_require(
    *,
    establishment: Establishment,
    notified_at: datetime.datetime | None,
    window: datetime.timedelta,
    requirement: str,
    rule: str,
) -> None:
    """Refuse an act the text wants the authority told of "dans les N qui précèdent" it (AMB-50:
    within the N before the act, not at least N before) while the system has recorded no notice,
    or once the one it recorded is older than ``window``: the authority is then told again."""
    if notified_at is None:
        raise RuleViolation(requirement, _("%(rule)s Enregistrez d'abord l'information donnée.") % {"rule": rule})
    if notice_stale(notified_at, window):
        raise RuleViolation(
            requirement,
            _("%(rule)s Information enregistrée le %(at)s, valable jusqu'au %(until)s : informez à nouveau.")
            % {
                "rule": rule,
                "at": establishment.localtime(notified_at).strftime("%d/%m/%Y %H:%M"),
                "until": establishment.localtime(notified_at + window).strftime("%d/%m/%Y %H:%M"),
            },
        )


def notice_stale(notified_at: datetime.datetime, window: datetime.timedelta) -> bool:
    """A notice given "dans les N qui précèdent" an act no longer precedes it within N (AMB-50)."""
    return timezone.now() > notified_at + window


@transaction.atomic
def incident_open(
    *,
    establishment: Establishment,
    category: str,
    description: str,
    actor: AbstractBaseUser,
    subjects: Sequence[Model] = (),
    found_at: datetime.datetime | None = None,
    circumstances: str = "",
    table_session: TableSession | None = None,
    location: Location | None = None,
) -> Incident:
    """Open an incident; its subjects are quarantined by their domains until it is closed."""
    role = require_role(actor, establishment, INCIDENT_REGISTER.record_roles)
    info = get_category(category)
    if not description.strip():
        raise ValueError(_("La description de l'incident est obligatoire."))
    incident = save_audited(
        Incident(
            establishment=establishment,
            category=category,
            requirement=info.requirement[establishment.jurisdiction],
            found_at=found_at or timezone.now(),
            found_by=actor,
            description=description.strip(),
            circumstances=circumstances.strip(),
            table_session=table_session,
            location=location,
        ),
        actor=actor,
        reason="ouverture",
    )
    labels = []
    for obj in subjects:
        IncidentSubject.objects.create(
            incident=incident,
            content_type=ContentType.objects.get_for_model(obj),
            object_id=obj.pk,
            label=str(obj)[:200],
        )
        labels.append(str(obj))
    with register_language():
        _record(
            incident,
            actor=actor,
            role=role,
            event=str(_("Ouverture")),
            text=f"{incident.description}" + (f" — {incident.circumstances}" if incident.circumstances else ""),
            found_at=format_timestamp(incident.found_at),
            subjects=labels,
            table=str(table_session) if table_session else "",
            location=str(location) if location else "",
        )
        # The persons and authorities the texts name are told at once, by e-mail (INC-01, INC-02).
        notice_send(
            establishment=establishment,
            kind=NoticeKind.INCIDENT,
            register=current_register(establishment, INCIDENT_REGISTER.code),
            subject=str(_("Incident n° %(n)s — %(category)s") % {"n": incident.pk, "category": info.label}),
            body=incident.description + (f"\n\n{incident.circumstances}" if incident.circumstances else ""),
            actor=actor,
            role=role,
            roles=info.notices.get(establishment.jurisdiction, ()),
            about=f"incidents.incident:{incident.pk}",
        )
    return incident


def incident_notice_acknowledged(notice: Notice, actor: AbstractBaseUser, role: str) -> None:
    """A recipient acknowledged the e-mail of an incident: they are informed, by e-mail, since
    the mail reached the server (in the caller's transaction: ``notice_acknowledge``)."""
    incident = Incident.objects.filter(pk=int(notice.about.rpartition(":")[2])).first()
    if incident is None or incident.status == Incident.Status.CLOSED:
        return
    sent = notice.mails.filter(recipient=actor).exclude(sent_at=None).order_by("sent_at").first()
    told = IncidentNotice.objects.create(
        incident=incident,
        recipient_role=role,
        recipient_name=display_name(actor),
        notified_at=sent.sent_at if sent else notice.created_at,
        channel=IncidentNotice.Channel.EMAIL,
        recorded_by=actor,
    )
    _police_notice(told, actor=actor, role=role)


def _police_notice(notice: IncidentNotice, *, actor: AbstractBaseUser, role: str) -> None:
    """FR: the police informed of an incident (card anomalies, BBJ breakdown, SFM anomalies…) is
    also a line of the register of the notices to the authorities (AUTH-06)."""
    incident = notice.incident
    if incident.establishment.jurisdiction != "FR" or notice.recipient_role != Role.POLICE:
        return
    with register_language():
        subject = _("Incident n° %(n)s — %(category)s : %(text)s") % {
            "n": incident.pk,
            "category": get_category(incident.category).label,
            "text": incident.description,
        }
        authority_notice_write(
            establishment=incident.establishment,
            recipient=AuthorityRecipient.POLICE,
            detail=notice.recipient_name,
            subject=str(subject),
            requirement=incident.requirement,
            notified_at=notice.notified_at,
            reference=str(notice.get_channel_display()),
            actor=actor,
            role=role,
        )


@transaction.atomic
def incident_notify(
    *,
    incident: Incident,
    recipient_role: str,
    recipient_name: str,
    notified_at: datetime.datetime,
    channel: str,
    actor: AbstractBaseUser,
) -> IncidentNotice:
    """Record that a person or authority was informed (who, when, how)."""
    incident = Incident.objects.select_for_update().get(pk=incident.pk)
    role = require_role(actor, incident.establishment, INCIDENT_REGISTER.record_roles)
    if incident.status == Incident.Status.CLOSED:
        raise RuleViolation(incident.requirement, _("L'incident est clos : il ne peut plus être complété."))
    # forms give the time to the minute: a notice in the minute of the finding is not "before" it
    if notified_at < incident.found_at.replace(second=0, microsecond=0):
        raise ValueError(_("L'information ne peut précéder la constatation de l'incident."))
    if notified_at > timezone.now():
        raise ValueError(_("L'heure d'information ne peut être dans le futur."))
    info, jurisdiction = get_category(incident.category), incident.establishment.jurisdiction
    if jurisdiction == "MC" and recipient_role == Role.SCJ and role not in DECIDERS["MC"]:
        # INC-01: the direction des jeux informs the SCJ; INC-02: the directeur des jeux does.
        raise RuleViolation(
            incident.requirement,
            _("Le Service de Contrôle des Jeux est informé par la direction des jeux : %(roles)s.")
            % {"roles": ", ".join(str(Role(r).label) for r in DECIDERS["MC"])},
        )
    channels = info.notice_channels.get(jurisdiction)
    if channels and channel not in channels and recipient_role in info.notices.get(jurisdiction, ()):
        raise RuleViolation(
            incident.requirement,
            _("Cette information se fait par : %(channels)s.")
            % {"channels": ", ".join(str(IncidentNotice.Channel(c).label) for c in channels)},
        )
    notice = IncidentNotice.objects.create(
        incident=incident,
        recipient_role=recipient_role,
        recipient_name=recipient_name.strip(),
        notified_at=notified_at,
        channel=channel,
        recorded_by=actor,
    )
    _police_notice(notice, actor=actor, role=role)
    with register_language():
        _record(
            incident,
            actor=actor,
            role=role,
            event=str(_("Information")),
            text=f"{notice.get_channel_display()} — {notice.recipient_name}",
            notice=str(Role(recipient_role).label),
            notified_at=format_timestamp(notified_at),
        )
    return notice


@transaction.atomic
def incident_decide(*, incident: Incident, decision: str, actor: AbstractBaseUser) -> Incident:
    """The Direction's decision (MC: final, "sans appel", INC-01)."""
    incident = Incident.objects.select_for_update().get(pk=incident.pk)
    est = incident.establishment
    role = require_role(actor, est, DECIDERS[est.jurisdiction])
    if incident.status == Incident.Status.CLOSED:
        raise RuleViolation("INC-01", _("L'incident est clos : la décision est définitive."))
    if not decision.strip():
        raise ValueError(_("La décision doit être rédigée."))
    incident.decision, incident.decided_by, incident.decided_at = decision.strip(), actor, timezone.now()
    save_audited(incident, actor=actor, reason="décision")
    with register_language():
        _record(
            incident,
            actor=actor,
            role=role,
            event=str(_("Décision")),
            text=incident.decision,
            decided_by=display_name(actor),
        )
    return incident


@transaction.atomic
def incident_close(*, incident: Incident, actor: AbstractBaseUser) -> Incident:
    """Close once the decision (MC) and every information the texts require are recorded."""
    incident = Incident.objects.select_for_update().get(pk=incident.pk)
    est = incident.establishment
    role = require_role(actor, est, DECIDERS[est.jurisdiction])
    if incident.status == Incident.Status.CLOSED:
        return incident
    info = get_category(incident.category)
    if info.decision_required.get(est.jurisdiction) and not incident.decision:
        raise RuleViolation("INC-01", _("La direction des jeux doit rendre sa décision avant la clôture."))
    missing = missing_notices(incident)
    if missing:
        names = ", ".join(str(Role(r).label) for r in missing)
        raise RuleViolation(
            incident.requirement,
            _("Clôture impossible : l'heure d'information manque pour : %(names)s.") % {"names": names},
        )
    incident.status, incident.closed_at = Incident.Status.CLOSED, timezone.now()
    save_audited(incident, actor=actor, reason="clôture")
    with register_language():
        _record(incident, actor=actor, role=role, event=str(_("Clôture")), text=incident.decision or "")
    return incident
