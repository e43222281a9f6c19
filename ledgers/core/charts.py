"""Pictures for whom would rather look than read: each app declares the charts of its domain
(``chart``), core draws them on the server as SVG (no script, no network: they print and go into a
PDF as they are) beside the table of numbers they are drawn from, which exports like any list.

A chart is ``Chart(title, requirement, headers, rows)``: the first column names each group (a week,
a machine), the others are the series, numbers.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from html import escape
from typing import TYPE_CHECKING

from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe

from .dashboard import dashboard_panel

if TYPE_CHECKING:
    from .models import Establishment

# Colours told apart in grey print and by colour-blind readers (Okabe–Ito).
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")


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


Provider = Callable[["Establishment"], Chart | None]
_providers: list[Provider] = []


def chart(provider: Provider) -> Provider:
    """Declare a chart provider (usable as a decorator); declaring twice is harmless."""
    if provider not in _providers:
        _providers.append(provider)
    return provider


def charts_for(establishment: "Establishment") -> list[Chart]:
    return [c for provider in _providers if (c := provider(establishment)) is not None]


def _number(value) -> float:
    return float(value) if isinstance(value, int | float | Decimal) else 0.0


def bar_svg(chart: Chart, width: int = 640, height: int = 260) -> SafeString:
    """Grouped bars, one group per row and one bar per series, with a zero line for signed values,
    the axis's extremes, the groups' names and a legend; the title and the numbers are in the
    table beside it (the SVG's title names the chart for screen readers)."""
    series = [str(h) for h in chart.headers[1:]]
    values = [[_number(v) for v in row[1:]] for row in chart.rows]
    top = max([0.0, *(v for row in values for v in row)])
    bottom = min([0.0, *(v for row in values for v in row)])
    span = (top - bottom) or 1.0
    left, right, head, foot = 48, 8, 8, 56 + 16 * ((len(series) + 2) // 3)
    plot_w, plot_h = width - left - right, height - head - foot
    y = lambda v: head + plot_h * (top - v) / span  # noqa: E731
    group_w = plot_w / max(len(values), 1)
    bar_w = max(group_w * 0.8 / max(len(series), 1), 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="chart-{chart.code}-title">',
        f'<title id="chart-{chart.code}-title">{escape(str(chart.title))}</title>',
        f'<line x1="{left}" x2="{width - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#333"/>',
        f'<text x="{left - 4}" y="{y(top) + 4:.1f}" text-anchor="end" font-size="11">{top:g}</text>',
    ]
    if bottom < 0:
        parts.append(f'<text x="{left - 4}" y="{y(bottom):.1f}" text-anchor="end" font-size="11">{bottom:g}</text>')
    for i, (row, numbers) in enumerate(zip(chart.rows, values, strict=True)):
        x0 = left + i * group_w + group_w * 0.1
        for j, value in enumerate(numbers):
            y1, y2 = sorted((y(0), y(value)))
            colour = PALETTE[j % len(PALETTE)]
            parts.append(
                f'<rect x="{x0 + j * bar_w:.1f}" y="{y1:.1f}" width="{bar_w:.1f}" height="{max(y2 - y1, 0.5):.1f}" '
                f'fill="{colour}"><title>{escape(str(row[0]))} — {escape(series[j])} : {value:g}</title></rect>'
            )
        if len(values) <= 16 or i % max(len(values) // 12, 1) == 0:
            parts.append(
                f'<text x="{left + (i + 0.5) * group_w:.1f}" y="{head + plot_h + 14}" text-anchor="middle" '
                f'font-size="10">{escape(str(row[0]))}</text>'
            )
    for j, name in enumerate(series):
        lx, ly = left + (j % 3) * (plot_w / 3), head + plot_h + 32 + 16 * (j // 3)
        parts.append(f'<rect x="{lx:.1f}" y="{ly - 9}" width="10" height="10" fill="{PALETTE[j % len(PALETTE)]}"/>')
        short = name if len(name) <= 34 else name[:33] + "…"
        parts.append(f'<text x="{lx + 14:.1f}" y="{ly}" font-size="11">{escape(short)}</text>')
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
    return Panel(_("Graphiques"), "core/_panel_charts.html", {"charts": charts_for(establishment)}, order=80)
