"""Pictures for whom would rather look than read: each app declares the charts of its domain
(``chart``), core draws them on the server as SVG (no script, no network: they print as they are)
beside the table of numbers they are drawn from, which exports like any list; the monthly report
draws the same shapes into its PDF.

A chart is ``Chart(code, title, requirement, headers, rows)``: the first column names each group (a
week, a machine), the others are the series, numbers. An app declares a chart by its code and title
(``@chart(code, title)``) on the function that draws it for a month: it takes the establishment and
the month's first day and gives the requirement, the headers and the rows. A chart that only some
houses have says which (``shown``), so that the home lists the charts' titles without drawing them.
"""

import calendar
import datetime
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from html import escape
from typing import TYPE_CHECKING

from django.utils import formats
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe

from .dashboard import dashboard_panel, discover

if TYPE_CHECKING:
    from .models import Establishment

# Colours told apart in grey print and by colour-blind readers (Okabe–Ito).
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
WIDTH, HEIGHT = 640, 260
LETTER = 6.2  # the mean width of a letter of the legend (11 units high), to lay it out
NARROW = (360, 320)  # a phone's chart: fewer names under the bars, the legend a name a line

# What a chart is drawn with, in its own units (origin top left), for the SVG and the PDF alike:
# ("line", x1, y1, x2, y2) | ("rect", x, y, width, height, colour, tip) |
# ("text", x, y, text, anchor: "start" | "middle" | "end", size)
Shape = tuple


@dataclass
class Chart:
    code: str  # the name of its exported table
    title: str | Promise
    requirement: str
    headers: Sequence[str | Promise]
    rows: list[Sequence]

    @property
    def svg(self) -> SafeString:
        return bar_svg(self)

    @property
    def svg_narrow(self) -> SafeString:
        return bar_svg(self, *NARROW)


Draw = Callable[["Establishment", datetime.date], tuple[str, Sequence[str | Promise], list[Sequence]]]


@dataclass(frozen=True)
class ChartKind:
    """A declared chart: called with the establishment and the month's first day, it draws it."""

    do_not_call_in_templates = True  # a page lists its code and title without drawing it

    code: str
    title: str | Promise
    draw: Draw  # the month's requirement, headers and rows
    shown: Callable[["Establishment"], bool] | None = None  # None: every house has it

    def __call__(self, establishment: "Establishment", month: datetime.date) -> Chart:
        return Chart(self.code, self.title, *self.draw(establishment, month))


_kinds: list[ChartKind] = []


def chart(
    code: str, title: str | Promise, shown: Callable[["Establishment"], bool] | None = None
) -> Callable[[Draw], ChartKind]:
    """Declare a chart drawn by the decorated function; declaring a code twice is harmless."""

    def declare(draw: Draw) -> ChartKind:
        kind = ChartKind(code, title, draw, shown)
        if code not in {known.code for known in _kinds}:
            _kinds.append(kind)
        return kind

    return declare


def charts_of(establishment: "Establishment") -> list[ChartKind]:
    """The charts the establishment has, not drawn (their codes and titles)."""
    discover()
    return [kind for kind in _kinds if kind.shown is None or kind.shown(establishment)]


def charts_for(establishment: "Establishment", month: datetime.date | None = None) -> list[Chart]:
    """The charts of ``month`` (its first day; default: the establishment's current month)."""
    month = month or establishment.localtime().date().replace(day=1)
    return [kind(establishment, month) for kind in charts_of(establishment)]


def chart_month(asked: str | None, establishment: "Establishment") -> datetime.date:
    """The month asked as "YYYY-MM" (an ``<input type="month">``), else the current one."""
    try:
        return datetime.datetime.strptime(asked or "", "%Y-%m").date()
    except ValueError:
        return establishment.localtime().date().replace(day=1)


def month_end(establishment: "Establishment", month: datetime.date) -> datetime.date:
    """The month's last day, or today in the month under way: where a chart of the month stops."""
    last = month.replace(day=calendar.monthrange(month.year, month.month)[1])
    return min(last, establishment.localtime().date())


def weeks_until(day: datetime.date, count: int) -> list[datetime.date]:
    """The Mondays of the ``count`` weeks ending with the week of ``day``, oldest first."""
    start = day - datetime.timedelta(days=day.weekday() + 7 * (count - 1))
    return [start + datetime.timedelta(days=7 * n) for n in range(count)]


def week_label(monday: datetime.date) -> str:
    """A week as its readers name it: the day it starts, in their language ("2 novembre")."""
    return formats.date_format(monday, "MONTH_DAY_FORMAT")


def _number(value) -> float:
    return float(value) if isinstance(value, int | float | Decimal) else 0.0


def bar_shapes(chart: Chart, width: int = WIDTH, height: int = HEIGHT) -> list[Shape]:
    """Grouped bars, one group per row and one bar per series, with a zero line for signed values,
    the axis's extremes, the groups' names (every few when there are many) and a legend."""
    series = [str(h) for h in chart.headers[1:]]
    values = [[_number(v) for v in row[1:]] for row in chart.rows]
    top = max([0.0, *(v for row in values for v in row)])
    bottom = min([0.0, *(v for row in values for v in row)])
    span = (top - bottom) or 1.0
    left, right, head = 48, 8, 8
    # The legend: up to three names a line, fewer when they are long, each cut to its room.
    per_line = max(1, min(3, int((width - left - right) // (20 + LETTER * max(map(len, series), default=0)))))
    room = int(((width - left - right) / per_line - 20) // LETTER)
    foot = 40 + 16 * -(-len(series) // per_line)
    plot_w, plot_h = width - left - right, height - head - foot
    y = lambda v: head + plot_h * (top - v) / span  # noqa: E731
    group_w = plot_w / max(len(values), 1)
    bar_w = max(group_w * 0.8 / max(len(series), 1), 1)
    # A group's name under every group where they fit, else under every other one, or fewer.
    step = math.ceil(LETTER * 0.9 * max((len(str(row[0])) for row in chart.rows), default=1) / group_w)
    shapes: list[Shape] = [
        ("line", left, y(0), width - right, y(0)),
        ("text", left - 4, y(top) + 4, f"{top:g}", "end", 11),
    ]
    if bottom < 0:
        shapes.append(("text", left - 4, y(bottom), f"{bottom:g}", "end", 11))
    for i, (row, numbers) in enumerate(zip(chart.rows, values, strict=True)):
        x0 = left + i * group_w + group_w * 0.1
        for j, value in enumerate(numbers):
            y1, y2 = sorted((y(0), y(value)))
            tip = f"{row[0]} — {series[j]} : {value:g}"
            shapes.append(("rect", x0 + j * bar_w, y1, bar_w, max(y2 - y1, 0.5), PALETTE[j % len(PALETTE)], tip))
        if i % step == 0:
            shapes.append(("text", left + (i + 0.5) * group_w, head + plot_h + 14, str(row[0]), "middle", 10))
    for j, name in enumerate(series):
        lx, ly = left + (j % per_line) * (plot_w / per_line), head + plot_h + 32 + 16 * (j // per_line)
        shapes.append(("rect", lx, ly - 9, 10, 10, PALETTE[j % len(PALETTE)], ""))
        shapes.append(("text", lx + 14, ly, name if len(name) <= room else name[: room - 1] + "…", "start", 11))
    return shapes


def bar_svg(chart: Chart, width: int = WIDTH, height: int = HEIGHT) -> SafeString:
    """The chart's shapes as an SVG; its title and numbers are in the table beside it (the SVG's
    title names the chart for screen readers, each bar's title gives its value)."""
    kind = "narrow" if width < WIDTH else "wide"  # the page shows one of the two, by the screen's width
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart chart-{kind}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-labelledby="chart-{chart.code}-{kind}-title">',
        f'<title id="chart-{chart.code}-{kind}-title">{escape(str(chart.title))}</title>',
    ]
    for shape in bar_shapes(chart, width, height):
        if shape[0] == "line":
            _kind, x1, y1, x2, y2 = shape
            parts.append(f'<line x1="{x1}" x2="{x2}" y1="{y1:.1f}" y2="{y2:.1f}" stroke="#333"/>')
        elif shape[0] == "rect":
            _kind, x, y, w, h, colour, tip = shape
            tip = f"<title>{escape(tip)}</title>" if tip else ""
            parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{colour}">{tip}</rect>')
        else:
            _kind, x, y, text, anchor, size = shape
            parts.append(
                f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}">{escape(text)}</text>'
            )
    parts.append("</svg>")
    return mark_safe("".join(parts))


def reads_charts(roles) -> bool:
    from .roles import DIRECTORATE, REGULATOR_ROLES

    return bool(set(roles) & {str(r) for r in (*DIRECTORATE, *REGULATOR_ROLES)})


@dashboard_panel
def charts_panel(request, establishment):
    from django.utils.translation import gettext_lazy as _

    from .authz import roles_of
    from .dashboard import Panel

    if not reads_charts(roles_of(request.user, establishment)):
        return None
    return Panel(_("Graphiques"), "core/_panel_charts.html", {"charts": charts_of(establishment)}, order=80)
