"""The daily séance report (PDF): the sections of every provider (see ``sections``), drawn with
the register printer's page engine: same fonts, same two linear passes, "Page n / N"."""

from collections.abc import Iterator
from typing import BinaryIO

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from reportlab.pdfgen.canvas import Canvas

from ledgers.core.models import Establishment, Seance
from ledgers.registers.printing import document
from ledgers.registers.printing.blocks import (
    BODY_LEFT,
    INK,
    MARGIN,
    MUTED,
    PAGE_WIDTH,
    Block,
    Table,
    page_header,
    para,
    reuse_form,
    title,
)
from ledgers.registers.printing.fonts import ITALIC, REGULAR
from ledgers.registers.printing.formats import Formatter

from .sections import Section, daily_sections


def render_daily(
    seance: Seance, out: BinaryIO, *, lang: str | None = None, progress: document.Progress | None = None
) -> int:
    """Draw the report of ``seance`` into ``out``; return its page count."""
    lang = lang or settings.LANGUAGE_CODE
    with translation.override(lang):
        report = DailyPrint(seance, lang)
        return document.render(out, report.blocks(), frame=report, info=report.info(), progress=progress)


class ReportFrame:
    """What every report of an establishment prints around its sections: its name and the
    report's heading on top, "Page n / N", and the footer saying where the figures come from."""

    establishment: Establishment
    heading: str

    def section(self, section: Section) -> Iterator[Block]:
        """A section's title and table; its ``empty`` text when it has no row."""
        rows = iter(section.rows)
        first = next(rows, None)
        if first is None:
            if section.empty:
                yield title(section.title)
                yield para(section.empty, color=MUTED, font=ITALIC)
            return
        table = Table.build(section.columns)
        yield title(section.title)
        yield table.head()
        yield from table.rows(first)
        for cells in rows:
            yield from table.rows(cells)

    def header(self, c: Canvas, page: int, total: int) -> None:
        page_header(
            c,
            page,
            total,
            title=self.establishment.name,
            subtitle=self.heading,
            note=self.establishment.get_jurisdiction_display(),
        )

    def footer(self, c: Canvas, page: int, total: int, mark: tuple[int, str] | None) -> None:
        reuse_form(c, "footer", self._footer)

    def _footer(self, c: Canvas) -> None:
        right = PAGE_WIDTH - MARGIN
        c.setStrokeColorRGB(*INK)
        c.setLineWidth(0.8)
        c.line(BODY_LEFT, MARGIN + 24, right, MARGIN + 24)
        c.setFillColorRGB(*MUTED)
        c.setFont(REGULAR, 7)
        c.drawString(
            BODY_LEFT,
            MARGIN + 12,
            _("Établi à partir des registres électroniques ; chaque inscription y reste vérifiable par son empreinte."),
        )

    def close(self, c: Canvas, y: float) -> None:
        """Nothing to strike: a report is not a register."""


class DailyPrint(ReportFrame):
    def __init__(self, seance: Seance, lang: str) -> None:
        self.seance = seance
        self.establishment = seance.establishment
        self.fmt = Formatter(self.establishment, lang)
        self.heading = _("Rapport de la séance du %(date)s — %(period)s") % {
            "date": self.fmt.date(seance.date),
            "period": seance.get_period_display(),
        }

    def info(self) -> document.DocInfo:
        return document.DocInfo(
            title=self.heading,
            subject=str(_("Rapport de séance")),
            author=self.establishment.name,
            created=self.seance.closed_at or self.seance.opened_at,
            identifier=f"{self.establishment.code}:{self.seance.pk}:{translation.get_language()}",
            lang=translation.get_language(),
        )

    def blocks(self) -> Iterator[Block]:
        seance = self.seance
        closed = self.fmt.datetime(seance.closed_at) if seance.closed_at else _("séance en cours")
        yield para(
            _("Séance ouverte le %(opened)s, clôturée le %(closed)s.")
            % {"opened": self.fmt.datetime(seance.opened_at), "closed": closed}
        )
        for provider in daily_sections():
            for section in provider(seance, self.fmt):
                yield from self.section(section)
