"""The month's report (PDF) for the directorate and the regulator: every chart of the month (see
``ledgers.core.charts``) drawn with the same shapes as on its page, each followed by the table of
its numbers; a few pages, drawn on request."""

import datetime
from decimal import Decimal
from typing import BinaryIO

from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from ledgers.core.charts import HEIGHT, WIDTH, bar_shapes, charts_for
from ledgers.core.models import Establishment
from ledgers.core.readable import number
from ledgers.registers.printing import document
from ledgers.registers.printing.blocks import Block, drawing, para

from .daily import ReportFrame
from .sections import Section


def render_monthly(establishment: Establishment, month: datetime.date, out: BinaryIO, *, lang: str) -> int:
    """Draw the report of ``month`` (its first day) into ``out``; return its page count."""
    with translation.override(lang):
        report = MonthlyPrint(establishment, month)
        return document.render(out, report.blocks(), frame=report, info=report.info())


def _cell(value) -> str:
    return number(value) if isinstance(value, int | float | Decimal) else str(value)


class MonthlyPrint(ReportFrame):
    def __init__(self, establishment: Establishment, month: datetime.date) -> None:
        self.establishment = establishment
        self.month = month
        self.heading = _("Rapport du mois de %(month)s") % {"month": formats.date_format(month, "YEAR_MONTH_FORMAT")}

    def info(self) -> document.DocInfo:
        return document.DocInfo(
            title=self.heading,
            subject=str(_("Rapport du mois")),
            author=self.establishment.name,
            created=timezone.now(),
            identifier=f"{self.establishment.code}:{self.month:%Y-%m}:{translation.get_language()}",
            lang=translation.get_language(),
        )

    def blocks(self):
        yield para(_("Chaque graphique est dessiné à partir du tableau qui le suit."))
        for chart in charts_for(self.establishment, self.month):
            section = Section(
                title=f"{chart.title} — {chart.requirement}",
                columns=[(str(h), None, 2.0 if i == 0 else 1.0) for i, h in enumerate(chart.headers)],
                rows=[[_cell(v) for v in row] for row in chart.rows],
                empty=_("Rien sur la période."),
            )
            blocks: list[Block] = list(self.section(section))
            yield blocks[0]
            if chart.rows:  # the picture under its title, kept with it, above the numbers
                yield drawing(bar_shapes(chart), WIDTH, HEIGHT)._replace(keep_with_next=True)
            yield from blocks[1:]
