import datetime

from django.contrib.contenttypes.models import ContentType
from django.db.models import F, Model, OuterRef, QuerySet
from django.db.models.functions import JSONObject
from django.utils import timezone

from ledgers.core.expressions import ArraySubquery
from ledgers.core.models import Establishment
from ledgers.core.prepared import Bound

from .categories import get_category
from .models import Incident, IncidentNotice


def open_incidents_for(obj: Model) -> QuerySet[Incident]:
    ct = ContentType.objects.get_for_model(obj)
    return Incident.objects.filter(
        status=Incident.Status.OPEN, subjects__content_type=ct, subjects__object_id=obj.pk
    ).distinct()


def has_open_incident(obj: Model) -> bool:
    return open_incidents_for(obj).exists()


def open_incidents(establishment: Establishment | Bound) -> QuerySet[Incident]:
    return Incident.objects.filter(establishment=establishment, status=Incident.Status.OPEN)


def with_notices_read(incidents: QuerySet[Incident]) -> QuerySet[Incident]:
    """``incidents`` each with its notices' recipients and channels (``notices_read``), read in the
    same query: a list of incidents with what each still lacks costs one query."""
    notices = IncidentNotice.objects.filter(incident=OuterRef("pk")).values(
        read=JSONObject(role=F("recipient_role"), channel=F("channel"))
    )
    return incidents.annotate(notices_read=ArraySubquery(notices))


def missing_notices(incident: Incident) -> list[str]:
    """The recipients (role codes) the texts require to be informed of ``incident`` whose
    information is not recorded yet (by the channel the category requires, if any): the incident
    cannot be closed before (reads the notices read with it, ``with_notices_read``, or the
    prefetched ones when there are)."""
    category, jurisdiction = get_category(incident.category), incident.establishment.jurisdiction
    required = category.notices.get(jurisdiction, ())
    channels = category.notice_channels.get(jurisdiction)
    if hasattr(incident, "notices_read"):
        notices = [(read["role"], read["channel"]) for read in incident.notices_read]
    else:
        notices = [(notice.recipient_role, notice.channel) for notice in incident.notices.all()]
    informed = {role for role, channel in notices if not channels or channel in channels}
    return [role for role in required if role not in informed]


def late_notices(incident: Incident, now: datetime.datetime | None = None) -> list[str]:
    """The required recipients (role codes) informed later than the category's delay after the
    incident was found, or not informed yet once it has passed: a FLAG (``notice_delay_setting``)."""
    category, est = get_category(incident.category), incident.establishment
    code = category.notice_delay_setting.get(est.jurisdiction)
    minutes = est.setting(code) if code else None
    if minutes is None:
        return []
    deadline = incident.found_at + datetime.timedelta(minutes=minutes)
    first: dict[str, datetime.datetime] = {}
    for notice in incident.notices.all():
        if notice.recipient_role not in first or notice.notified_at < first[notice.recipient_role]:
            first[notice.recipient_role] = notice.notified_at
    now = now or timezone.now()
    return [role for role in category.notices.get(est.jurisdiction, ()) if first.get(role, now) > deadline]
