"""Paged PDF documents drawn on the reportlab canvas in two linear passes.

Every page prints "Page n / N", so N must be known before page 1 is drawn. Pass 1 consumes the
stream of blocks (the caller builds it from the database, page of rows by page of rows), cuts it
into pages and spools the laid-out pages to a temporary file; pass 2 reads them back one by one
and draws. Each block is wrapped and measured once, memory holds one page of blocks at a time,
and both passes are linear in the number of blocks: no platypus story, no whole-document table.

Same blocks and same ``DocInfo`` give the same bytes: the canvas runs in invariant mode, with the
creation date and the document ID taken from the content.
"""

import marshal
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import BinaryIO, Protocol

from reportlab.pdfgen.canvas import Canvas

from .blocks import BODY_HEIGHT, BODY_TOP, PAGE_HEIGHT, PAGE_WIDTH, Block, Painter
from .fonts import register_fonts

Progress = Callable[[int], None]  # percent done, 0 to 100
LAYOUT_SHARE = 45  # share of the progress bar given to pass 1


class Frame(Protocol):
    """What every page carries around its body (header, footer), and the end of the document."""

    def header(self, canvas: Canvas, page: int, total: int) -> None: ...

    def footer(self, canvas: Canvas, page: int, total: int, mark: tuple[int, str] | None) -> None: ...

    def close(self, canvas: Canvas, y: float) -> None:
        """After the last block, on the last page; ``y``: where the content ends."""


@dataclass(frozen=True)
class DocInfo:
    title: str
    subject: str
    author: str
    created: datetime  # a date of the content (e.g. its last entry), never "now"
    identifier: str  # seeds the PDF document ID (e.g. register number + head hash)
    lang: str = "fr"


def render(
    out: BinaryIO,
    blocks: Iterable[Block],
    *,
    frame: Frame,
    info: DocInfo,
    progress: Progress | None = None,
    expected_marks: int = 0,
) -> int:
    """Draw ``blocks`` into ``out`` as a PDF; return the number of pages.

    ``expected_marks``: the highest entry seq the blocks will reach, to report pass-1 progress."""
    register_fonts()
    with tempfile.TemporaryFile() as spool:
        total = _layout(blocks, spool, progress, expected_marks)
        spool.seek(0)
        _draw(out, _replay(spool), total, frame, info, progress)
    return total


def _layout(blocks: Iterable[Block], spool: BinaryIO, progress: Progress | None, expected: int) -> int:
    """Cut the blocks into pages; spool one record per page: [(kind, height, data, mark), ...]."""
    page, used, head, last_mark = 1, 0.0, None, 0
    content: list[tuple] = []
    queue: deque[Block] = deque()
    source = iter(blocks)
    while True:
        if not queue:
            block = next(source, None)
            if block is None:
                break
            queue.append(block)
        block = queue[0]
        if block.repeat:
            head = block
        need = _kept_height(queue, source) if block.keep_with_next else block.height
        if used and used + need > BODY_HEIGHT:
            marshal.dump(content, spool)
            page, used, content = page + 1, 0.0, []
            if progress is not None and expected:
                progress(min(LAYOUT_SHARE, LAYOUT_SHARE * last_mark // expected))
            if head is not None and not block.repeat:
                content.append((head.kind, head.height, head.data, None))
                used = head.height
        content.append((block.kind, block.height, block.data, block.mark))
        used += block.height
        if block.mark is not None:
            last_mark = block.mark[0]
        queue.popleft()
    if content:
        marshal.dump(content, spool)
    return page


def _kept_height(queue: deque[Block], source: Iterator[Block]) -> float:
    """Height of a chain of keep-with-next blocks and the block after it (a section title, its
    table header and the first row stay together)."""
    height, i = 0.0, 0
    while True:
        if i == len(queue):
            nxt = next(source, None)
            if nxt is None:
                return height
            queue.append(nxt)
        block = queue[i]
        height += block.height
        i += 1
        if not block.keep_with_next:
            return height


def _replay(spool: BinaryIO) -> Iterator[list[tuple]]:
    load = marshal.load
    while True:
        try:
            yield load(spool)
        except EOFError:
            return


def _draw(out: BinaryIO, pages: Iterator[list[tuple]], total: int, frame: Frame, info: DocInfo,
          progress: Progress | None) -> None:
    c = Canvas(out, pagesize=(PAGE_WIDTH, PAGE_HEIGHT), invariant=1, pageCompression=1, lang=info.lang)
    c.setTitle(info.title)
    c.setSubject(info.subject)
    c.setAuthor(info.author)
    c.setCreator(info.author)
    created = info.created.astimezone(UTC).strftime("D:%Y%m%d%H%M%S+00'00'")
    c.setDateFormatter(lambda *_: created)
    c._doc.updateSignature(info.identifier)  # the document ID derives from the content
    painter = Painter(c, total)
    mark, y = None, BODY_TOP
    for page, content in enumerate(pages, start=1):
        painter.begin_page()
        frame.header(c, page, total)
        y = BODY_TOP
        for kind, height, data, block_mark in content:
            getattr(painter, kind)(y, height, data)
            y -= height
            if block_mark is not None:
                mark = block_mark
        if page == total:
            frame.close(c, y)
        painter.end_page()
        frame.footer(c, page, total, mark)
        c.showPage()
        if progress is not None:
            progress(LAYOUT_SHARE + (100 - LAYOUT_SHARE) * page // total)
    c.save()
