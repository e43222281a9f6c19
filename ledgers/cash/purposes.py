"""The table count declared to the keys app as a purpose of kind "count": the bill-box content
keys leave comptabilité générale (MC, KEY-03) or the cashier (FR, KEY-14) only for a count. The
cash app depends on the keys app, never the other way."""

from operator import attrgetter

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import Establishment
from ledgers.keys.purposes import PurposeKind, PurposeType, purpose_type

from .models import TableCount


def _open_counts(est: Establishment) -> QuerySet[TableCount]:
    return (
        TableCount.objects.filter(table_session__seance__establishment=est)
        .exclude(status=TableCount.Status.CERTIFIED)
        .select_related("table_session")
    )


TABLE_COUNT = PurposeType(
    code="cash.table_count",
    kind=PurposeKind.COUNT,
    label=_("comptée de fin de séance"),
    model="cash.TableCount",
    is_open=lambda count: count.status != TableCount.Status.CERTIFIED,
    establishment=attrgetter("table_session.seance.establishment"),
    describe=str,
    open_objects=_open_counts,
)


purpose_type(TABLE_COUNT)
