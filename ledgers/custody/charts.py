"""The directorate's and the regulator's picture of the custody domains: what each consumes (objects
put into service at a table for the first time) against what it destroys, month by month; the
stock grows where the first outruns the second."""

import datetime
from collections import Counter

from django.db.models import Count
from django.db.models.functions import TruncMonth
from django.utils import formats
from django.utils.translation import gettext_lazy as _

from ledgers.core.charts import chart, month_end
from ledgers.core.models import Establishment

from .domains import all_domains
from .models import DestructionItem, DestructionSession

MONTHS = 6


def months_until(month: datetime.date, count: int) -> list[datetime.date]:
    """The first days of the ``count`` months ending with ``month``, oldest first."""
    index = month.year * 12 + month.month - 1
    return [datetime.date((index - n) // 12, (index - n) % 12 + 1, 1) for n in reversed(range(count))]


@chart("consommation-et-destruction", _("Cartes et dés : mis en service et détruits, par mois"))
def consumption_against_destruction(establishment: Establishment, month: datetime.date) -> tuple[str, list, list]:
    months = months_until(month, MONTHS)
    end = month_end(establishment, month)
    zone = establishment.localtime().tzinfo
    domains = [domain for domain in all_domains() if domain.first_service is not None]
    headers: list = [_("Mois")]
    columns: list[Counter] = []
    for domain in domains:
        used = Counter(
            establishment.localtime(row["first"]).date().replace(day=1)
            for row in domain.first_service(establishment).filter(first__date__gte=months[0], first__date__lte=end)
        )
        destroyed = (
            DestructionItem.objects.filter(
                session__establishment=establishment,
                session__domain=domain.code,
                session__status=DestructionSession.Status.COMPLETED,
                session__performed_at__date__gte=months[0],
                session__performed_at__date__lte=end,
            )
            .annotate(month=TruncMonth("session__performed_at", tzinfo=zone))
            .values("month")
            .annotate(n=Count("pk"))
        )
        headers += [
            _("Mises en service : %(domain)s") % {"domain": domain.label},
            _("Destructions : %(domain)s") % {"domain": domain.label},
        ]
        columns += [used, Counter({row["month"].date(): row["n"] for row in destroyed})]
    return (
        "REG-24" if establishment.jurisdiction == "MC" else "CARD-31",
        headers,
        [[formats.date_format(m, "YEAR_MONTH_FORMAT"), *(column[m] for column in columns)] for m in months],
    )
