"""What a printed page is made of: titles, paragraphs, framed boxes (acts, visa stamps), table
headers, table rows and drawings (charts).

Each kind has a builder, which wraps the text and measures the block once (first pass), and a
``Painter`` method, which draws the already wrapped lines (second pass). Builders return plain
tuples so that a laid-out document can be spooled to disk between the passes.
"""

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property, partial
from typing import NamedTuple

from django.utils.translation import gettext as _
from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfgen.canvas import Canvas

from .fonts import BOLD, ITALIC, REGULAR, register_fonts

PAGE_WIDTH, PAGE_HEIGHT = landscape(A4)
MARGIN = 28.0
HEADER_HEIGHT = 44.0
FOOTER_HEIGHT = 46.0
BODY_LEFT = MARGIN
BODY_WIDTH = PAGE_WIDTH - 2 * MARGIN
BODY_TOP = PAGE_HEIGHT - MARGIN - HEADER_HEIGHT
BODY_BOTTOM = MARGIN + FOOTER_HEIGHT
BODY_HEIGHT = BODY_TOP - BODY_BOTTOM

SIZE = 8.0
LEADING = 9.6
ASCENT = 6.4  # from the top of a line to its baseline at SIZE
PAD_X = 3.0
PAD_Y = 2.6
BOX_SPACE = 5.0  # above and below a framed box
# A row taller than this is split into continued rows, so that no block overflows a page.
MAX_ROW_HEIGHT = BODY_HEIGHT * 0.55
ROW_LINES = int((MAX_ROW_HEIGHT - 3 * PAD_Y) // LEADING)  # lines of the tallest row
PAGES = "{pages}"  # in a box's text: replaced by the document's page count when drawn

RGB = tuple[float, float, float]
INK: RGB = (0.0, 0.0, 0.0)
MUTED: RGB = (0.33, 0.33, 0.33)
RED: RGB = (0.78, 0.0, 0.08)
BLUE: RGB = (0.10, 0.23, 0.55)
RULE: RGB = (0.55, 0.55, 0.55)
HEAD_FILL: RGB = (0.90, 0.91, 0.93)
STAMP_FILL: RGB = (0.94, 0.96, 1.0)
WATERMARK: RGB = (0.80, 0.80, 0.80)


class Block(NamedTuple):
    kind: str  # the Painter method that draws it
    height: float
    data: tuple
    mark: tuple[int, str] | None = None  # (seq, entry_hash) of the register entry it prints
    repeat: bool = False  # a table header: repeated at the top of every page its table runs on
    keep_with_next: bool = False


def wrap(text: str, width: float, font: str = REGULAR, size: float = SIZE) -> list[str]:
    """Lines of ``text`` that fit ``width``, broken greedily between words (as reportlab's
    ``simpleSplit``); a word longer than the width (a hash, a reference) is cut between characters.

    Wrapping is most of the first pass, so each line is found in a few width measurements (a
    guess from the average glyph width, then word by word) rather than one per word."""
    measure = measurer(font, size)
    if "\n" not in text:
        total = measure(text)
        return [text] if total <= width else _split(text, total, width, measure)
    lines = []
    for paragraph in text.split("\n"):
        lines.extend(wrap(paragraph, width, font, size))
    return lines


@cache
def measurer(font: str, size: float) -> Callable[[str], float]:
    register_fonts()
    return partial(getFont(font).stringWidth, size=size)


def _split(text: str, total: float, width: float, measure: Callable[[str], float]) -> list[str]:
    """``total``: the width of ``text``. Glyph advances add up (no kerning), so the width of
    what is left after a line is the total minus the line and the spaces dropped after it."""
    lines = []
    space = measure(" ")
    while total > width:
        guess = max(1, int(len(text) * width / total))
        end = text.rfind(" ", 1, guess + 1)
        head = measure(text[:end]) if end > 0 else 0.0
        if end > 0 and head <= width:
            while (nxt := text.find(" ", end + 1)) > 0 and (longer := measure(text[:nxt])) <= width:
                end, head = nxt, longer  # the next word fits too
        else:
            while end > 0 and head > width:
                end = text.rfind(" ", 1, end)  # drop the last word
                head = measure(text[:end]) if end > 0 else 0.0
        if end <= 0:  # the first word alone is too wide: cut it
            end = text.find(" ", 1)
            end = len(text) if end < 0 else end
            lines.extend(_cut(text[:end], width, measure))
            head = measure(text[:end])
        else:
            lines.append(text[:end])
        rest = text[end:].lstrip(" ")
        total -= head + (len(text) - end - len(rest)) * space
        text = rest
    if text:
        lines.append(text)
    return lines


def _cut(word: str, width: float, measure: Callable[[str], float]) -> Iterator[str]:
    start = 0
    while start < len(word):
        end = start + 1
        while end < len(word) and measure(word[start : end + 1]) <= width:
            end += 1
        yield word[start:end]
        start = end


def row_heights(depth: int, notes: int) -> tuple[float, float]:
    """Heights of a row's cells and of the whole row, its notes under the cells."""
    cells = depth * LEADING + 2 * PAD_Y if depth > 0 else 0.0
    if not notes:
        return cells, cells
    return cells, cells + notes * LEADING + (PAD_Y + 1 if cells else 2 * PAD_Y)


# --- builders (first pass) ---------------------------------------------------------------------


def title(text: str, *, size: float = 11.0, keep_with_next: bool = True) -> Block:
    lines = tuple(wrap(text, BODY_WIDTH, BOLD, size))
    return Block("title", 6 + len(lines) * size * 1.25 + 3, (lines, size), keep_with_next=keep_with_next)


def para(text: str, *, color: RGB = INK, font: str = REGULAR, size: float = SIZE) -> Block:
    lines = tuple(wrap(text, BODY_WIDTH - 2 * PAD_X, font, size))
    return Block("para", len(lines) * size * 1.2 + 2 * PAD_Y, (lines, color, font, size))


def box(
    heading: str,
    fields: Sequence[tuple[str, str]],
    *,
    color: RGB = INK,
    fill: RGB | None = None,
    label_width: float = 120.0,
    indent: float = 0.0,
    width: float = BODY_WIDTH,
    mark: tuple[int, str] | None = None,
) -> Block:
    """A framed box: a heading, then "label : value" lines (an empty label continues the text
    across the whole box). Opening and closing acts, visa stamps, the state of the register."""
    inner = width - 2 * (PAD_X + 4)
    lines: list[tuple[str, str]] = []
    for label, value in fields:
        if label:
            wrapped = wrap(value, inner - label_width)
            lines.append((label, wrapped[0]))
            lines.extend(("", line) for line in wrapped[1:])
        else:
            lines.extend(("\n", line) for line in wrap(value, inner))  # "\n": full-width line
    height = 2 * BOX_SPACE + 2 * (PAD_Y + 3) + 12.0 + len(lines) * LEADING
    data = (heading, tuple(lines), color, fill, label_width, indent, width)
    return Block("box", height, data, mark)


def drawing(shapes: Sequence[tuple], width: float, height: float) -> Block:
    """A vector picture given in its own units, origin top left (``ledgers.core.charts`` shapes:
    lines, filled rectangles, text), drawn at its size or narrowed to the body's width."""
    scale = min(1.0, BODY_WIDTH / width)
    return Block("drawing", height * scale + 2 * BOX_SPACE, (tuple(shapes), scale))


@dataclass(frozen=True)
class Table:
    """Column geometry: fixed widths in points, the others share the rest by their weights."""

    labels: tuple[str, ...]
    xs: tuple[float, ...]
    widths: tuple[float, ...]

    @classmethod
    def build(cls, columns: Sequence[tuple[str, float | None, float]]) -> "Table":
        """``columns``: (label, fixed width in points or None, relative weight)."""
        fixed = sum(w for _, w, _ in columns if w is not None)
        weight = sum(r for _, w, r in columns if w is None) or 1.0
        widths = [w if w is not None else (BODY_WIDTH - fixed) * r / weight for _, w, r in columns]
        xs, x = [], BODY_LEFT
        for w in widths:
            xs.append(x)
            x += w
        return cls(tuple(str(label) for label, _, _ in columns), tuple(xs), tuple(widths))

    def head(self) -> Block:
        pairs = zip(self.labels, self.widths, strict=True)
        lines = tuple(tuple(wrap(label, w - 2 * PAD_X, BOLD)) for label, w in pairs)
        height = max(len(c) for c in lines) * LEADING + 2 * PAD_Y + 1
        return Block("thead", height, (lines, self.xs, self.widths), repeat=True, keep_with_next=True)

    def rows(
        self,
        cells: Sequence[str],
        *,
        color: RGB = INK,
        notes: Sequence[str] = (),
        note_color: RGB = RED,
        mark: tuple[int, str] | None = None,
    ) -> list[Block]:
        """One row (several if it is taller than MAX_ROW_HEIGHT); ``notes`` print across the
        table under the cells."""
        measure = measurer(REGULAR, SIZE)
        wrapped = tuple(
            (text,) if "\n" not in text and measure(text) <= width else tuple(wrap(text, width))  # most cells fit
            for text, width in zip(cells, self.text_widths, strict=True)
        )
        note_lines = tuple(line for note in notes for line in wrap(note, self.widths_total - 2 * PAD_X, ITALIC))
        depth = max(map(len, wrapped))
        total = depth + len(note_lines)
        if total <= ROW_LINES:  # the usual case: one block
            _, height = row_heights(depth, len(note_lines))
            return [Block("row", height, (wrapped, color, note_lines, note_color), mark)]
        blocks = []
        for start in range(0, total, ROW_LINES):
            stop = min(total, start + ROW_LINES)
            part_cells = tuple(tuple(c[start:stop]) for c in wrapped) if start < depth else ()
            part_notes = tuple(note_lines[max(0, start - depth) : max(0, stop - depth)])
            _, height = row_heights(min(stop, depth) - start, len(part_notes))
            data = (part_cells, color, part_notes, note_color)
            blocks.append(Block("row", height, data, mark if stop == total else None))
        return blocks

    @property
    def widths_total(self) -> float:
        return sum(self.widths)

    @cached_property
    def text_widths(self) -> tuple[float, ...]:
        return tuple(w - 2 * PAD_X for w in self.widths)


def reuse_form(canvas: Canvas, name: str, draw: Callable[[Canvas], None]) -> None:
    """Place the form ``name``, drawn by ``draw`` the first time: what is the same on every page
    (header, footer, table header) is written once in the PDF and only referenced after."""
    if not canvas.hasForm(name):
        canvas.beginForm(name)
        draw(canvas)
        canvas.endForm()
    canvas.doForm(name)


def page_header(canvas: Canvas, page: int, total: int, *, title: str, subtitle: str, note: str) -> None:
    """The head of every page: ``title`` (the establishment) and "Page n / N" on the first line,
    ``subtitle`` and ``note`` on the second, a rule. The unchanging part is a form."""
    top, right = PAGE_HEIGHT - MARGIN, PAGE_WIDTH - MARGIN

    def unchanging(c: Canvas) -> None:
        c.setFillColorRGB(*INK)
        c.setFont(BOLD, 11)
        c.drawString(BODY_LEFT, top - 11, title)
        c.setFont(REGULAR, 9)
        c.drawString(BODY_LEFT, top - 25, subtitle)
        c.setFillColorRGB(*MUTED)
        c.drawRightString(right, top - 25, note)
        c.setStrokeColorRGB(*INK)
        c.setLineWidth(0.8)
        c.line(BODY_LEFT, top - 32, right, top - 32)

    reuse_form(canvas, "header", unchanging)
    canvas.setFillColorRGB(*INK)
    canvas.setFont(BOLD, 11)
    canvas.drawRightString(right, top - 11, _("Page %(page)s / %(total)s") % {"page": page, "total": total})


# --- painter (second pass) ---------------------------------------------------------------------


class Painter:
    """Draws laid-out blocks, one page at a time.

    Text goes into one text object per page and rules into one path, both emitted when the page
    ends; column rules are drawn once per run of rows rather than per row; a table header is
    drawn once as a form and reused on every page. Few PDF operators: rendering stays close to
    the cost of the text itself."""

    def __init__(self, canvas: Canvas, total: int) -> None:
        self.canvas = canvas
        self.total = total  # page count
        self.text = None
        self.font: tuple[str, float, float] | None = None
        self.color: RGB | None = None
        self.rules: list[tuple[float, float, float, float]] = []
        self.table: tuple[tuple[float, ...], tuple[float, ...]] | None = None
        self.run: tuple[float, float] | None = None  # top and bottom of the rows since the last break
        self.forms: dict[tuple, str] = {}

    def begin_page(self) -> None:
        self.text = self.canvas.beginText()
        self.font = self.color = None
        self.rules = []
        self.run = None

    def end_page(self) -> None:
        self._end_run()
        self.canvas.drawText(self.text)
        if self.rules:
            self.canvas.setStrokeColorRGB(*RULE)
            self.canvas.setLineWidth(0.4)
            self.canvas.lines(self.rules)

    def _lines(
        self,
        x: float,
        top: float,
        lines: Sequence[str],
        font: str = REGULAR,
        size: float = SIZE,
        leading: float = LEADING,
    ) -> None:
        t = self.text
        if self.font != (font, size, leading):
            t.setFont(font, size, leading)
            self.font = (font, size, leading)
        t.setTextOrigin(x, top - ASCENT * size / SIZE)
        for line in lines:
            t.textLine(line)

    def _ink(self, color: RGB) -> None:
        if self.color != color:
            self.text.setFillColorRGB(*color)
            self.color = color

    def _end_run(self) -> None:
        """Column rules of the rows drawn since the table header or the last interruption."""
        if self.run is not None:
            top, bottom = self.run
            xs, widths = self.table
            self.rules.extend((x, top, x, bottom) for x in (*xs, xs[-1] + widths[-1]))
            self.run = None

    def title(self, top: float, height: float, data: tuple) -> None:
        self._end_run()
        lines, size = data
        self._ink(INK)
        self._lines(BODY_LEFT, top - 6, lines, BOLD, size, size * 1.25)

    def para(self, top: float, height: float, data: tuple) -> None:
        self._end_run()
        lines, color, font, size = data
        self._ink(color)
        self._lines(BODY_LEFT + PAD_X, top - PAD_Y, lines, font, size, size * 1.2)

    def box(self, top: float, height: float, data: tuple) -> None:
        self._end_run()
        heading, lines, color, fill, label_width, indent, width = data
        c = self.canvas
        x, y, h = BODY_LEFT + indent, top - height + BOX_SPACE, height - 2 * BOX_SPACE
        c.setStrokeColorRGB(*color)
        c.setLineWidth(1.2)
        if fill is not None:
            c.setFillColorRGB(*fill)
        c.rect(x, y, width, h, stroke=1, fill=1 if fill is not None else 0)
        c.setLineWidth(0.4)
        c.rect(x + 2, y + 2, width - 4, h - 4, stroke=1, fill=0)
        self._ink(color)
        left = x + PAD_X + 4
        self._lines(left, top - BOX_SPACE - PAD_Y - 3, (heading,), BOLD, 9.5, 12.0)
        row_top = top - BOX_SPACE - PAD_Y - 3 - 12.0
        for label, line in lines:
            if PAGES in line:
                line = line.replace(PAGES, str(self.total))
            if label == "\n":
                self._lines(left, row_top, (line,))
            else:
                if label:
                    self._lines(left, row_top, (label,), BOLD)
                self._lines(left + label_width, row_top, (line,))
            row_top -= LEADING

    def drawing(self, top: float, height: float, data: tuple) -> None:
        self._end_run()
        shapes, scale = data
        c = self.canvas
        x = lambda u: BODY_LEFT + u * scale  # noqa: E731
        y = lambda v: top - BOX_SPACE - v * scale  # noqa: E731
        c.saveState()
        c.setLineWidth(0.6)
        for kind, *rest in shapes:
            if kind == "line":
                x1, y1, x2, y2 = rest
                c.setStrokeColorRGB(0.2, 0.2, 0.2)
                c.line(x(x1), y(y1), x(x2), y(y2))
            elif kind == "rect":
                left, upper, wide, tall, colour, _tip = rest
                c.setFillColor(HexColor(colour))
                c.rect(x(left), y(upper + tall), wide * scale, tall * scale, stroke=0, fill=1)
            else:
                left, base, text, anchor, size = rest
                c.setFillColorRGB(*INK)
                c.setFont(REGULAR, size * scale)
                draw = {"start": c.drawString, "middle": c.drawCentredString, "end": c.drawRightString}[anchor]
                draw(x(left), y(base), text)
        c.restoreState()

    def thead(self, top: float, height: float, data: tuple) -> None:
        self._end_run()
        self.table = data[1:]
        name = self.forms.setdefault(data, f"thead{len(self.forms)}")
        c = self.canvas
        c.saveState()
        c.translate(0, top - BODY_TOP)  # the form is drawn at the top of the body
        reuse_form(c, name, partial(self._thead, height=height, data=data))
        c.restoreState()
        self.run = (top - height, top - height)

    def _thead(self, c: Canvas, *, height: float, data: tuple) -> None:
        lines, xs, widths = data
        c.setFillColorRGB(*HEAD_FILL)
        c.rect(xs[0], BODY_TOP - height, sum(widths), height, stroke=0, fill=1)
        c.setFillColorRGB(*INK)
        for x, cell in zip(xs, lines, strict=True):
            t = c.beginText(x + PAD_X, BODY_TOP - PAD_Y - ASCENT)
            t.setFont(BOLD, SIZE, LEADING)
            t.textLines(cell)
            c.drawText(t)
        c.setStrokeColorRGB(*RULE)
        c.setLineWidth(0.4)
        right, bottom = xs[-1] + widths[-1], BODY_TOP - height
        c.lines(
            [
                (xs[0], BODY_TOP, right, BODY_TOP),
                (xs[0], bottom, right, bottom),
                *((x, BODY_TOP, x, bottom) for x in (*xs, right)),
            ]
        )

    def row(self, top: float, height: float, data: tuple) -> None:
        cells, color, notes, note_color = data
        xs, widths = self.table
        right, bottom = xs[-1] + widths[-1], top - height
        self._ink(color)
        for x, cell in zip(xs, cells, strict=False):  # () on a continued row's notes
            if cell:
                self._lines(x + PAD_X, top - PAD_Y, cell)
        self.rules.append((xs[0], bottom, right, bottom))
        if self.run is None:
            self.run = (top, top)
        if not notes:
            self.run = (self.run[0], bottom)
            return
        # Notes print across the columns: the column rules stop above them.
        cells_height, _ = row_heights(max((len(c) for c in cells), default=0), len(notes))
        self.run = (self.run[0], top - cells_height)
        self._end_run()
        self._ink(note_color)
        self._lines(xs[0] + PAD_X, top - cells_height - (1 if cells_height else PAD_Y), notes, ITALIC)
        self.rules.extend(((xs[0], top - cells_height, xs[0], bottom), (right, top - cells_height, right, bottom)))


def watermark(canvas: Canvas, text: str) -> None:
    """``text`` in large light letters across the page, under its content (a duplicate's
    "DUPLICATA"): written once as a form, placed on every page before the content."""

    def draw(c: Canvas) -> None:
        c.saveState()
        c.setFillColorRGB(*WATERMARK)
        c.translate(PAGE_WIDTH / 2, PAGE_HEIGHT / 2)
        c.rotate(28)
        c.setFont(BOLD, 96)
        c.drawCentredString(0, -34, text)
        c.restoreState()

    reuse_form(canvas, "watermark", draw)
