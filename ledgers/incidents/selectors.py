from django.contrib.contenttypes.models import ContentType
from django.db.models import Model, QuerySet

from ledgers.core.models import Establishment

from .categories import get_category
from .models import Incident


def open_incidents_for(obj: Model) -> QuerySet[Incident]:
    ct = ContentType.objects.get_for_model(obj)
    return Incident.objects.filter(
        status=Incident.Status.OPEN, subjects__content_type=ct, subjects__object_id=obj.pk
    ).distinct()


def has_open_incident(obj: Model) -> bool:
    return open_incidents_for(obj).exists()


def open_incidents(establishment: Establishment) -> QuerySet[Incident]:
    return Incident.objects.filter(establishment=establishment, status=Incident.Status.OPEN)


def missing_notices(incident: Incident) -> list[str]:
    """The recipients (role codes) the texts require to be informed of ``incident`` whose
    information is not recorded yet (by the channel the category requires, if any): the incident
    cannot be closed before (reads the prefetched notices when there are)."""
    category, jurisdiction = get_category(incident.category), incident.establishment.jurisdiction
    required = category.notices.get(jurisdiction, ())
    channels = category.notice_channels.get(jurisdiction)
    informed = {notice.recipient_role for notice in incident.notices.all()
                if not channels or notice.channel in channels}
    return [role for role in required if role not in informed]
