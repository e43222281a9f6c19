"""What the custody app wires into core's extension points: a table-partie closes only once every
item issued to it is back; the authority's acknowledgement of a planned destruction's notice
records it as informed."""

from ledgers.core.hooks import on_table_closing
from ledgers.notifications.models import NoticeKind
from ledgers.notifications.services import on_acknowledged

from .services import check_all_returned
from .services.destruction import destruction_notice_acknowledged

on_table_closing(check_all_returned)
on_acknowledged(NoticeKind.DESTRUCTION, destruction_notice_acknowledged)
