"""What the incidents app wires into the extension points: the acknowledgement of an incident's
notice records it on the incident."""

from ledgers.notifications.models import NoticeKind
from ledgers.notifications.services import on_acknowledged

from .services import incident_notice_acknowledged

on_acknowledged(NoticeKind.INCIDENT, incident_notice_acknowledged)
