"""Paged PDF documents drawn on the reportlab canvas in two linear passes, bound in volumes.

Every page prints "Page n / N", so N must be known before page 1 is drawn. Pass 1 consumes the
stream of blocks (the caller builds it from the database, page of rows by page of rows), cuts it
into pages and spools the laid-out pages to a temporary file; pass 2 reads them back one by one
and draws. Each block is wrapped and measured once and both passes are linear in the number of
blocks: no platypus story, no whole-document table.

A reportlab canvas keeps every page it has drawn until it saves the file, so one canvas for a
whole register grows with the register. A long document is therefore bound in volumes (tomes) of
at most ``capacity`` pages of content, each its own PDF drawn on its own canvas: a cover page
first, then the content, then the page that ends the volume. Memory is bounded by one volume, whatever
the size of the register; the cut falls at the same place whatever comes after it, so a complete
volume prints the same pages in every later print.

Same blocks and same ``DocInfo`` give the same bytes: the canvas runs in invariant mode, with the
creation date and the document ID taken from the content.
"""

import hashlib
import marshal
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import BinaryIO, Protocol

from reportlab.pdfgen.canvas import Canvas

from .blocks import BODY_HEIGHT, BODY_TOP, PAGE_HEIGHT, PAGE_WIDTH, Block, Painter, watermark
from .fonts import register_fonts

Progress = Callable[[int], None]  # percent done, 0 to 100
LAYOUT_SHARE = 45  # share of the progress bar given to pass 1
Mark = tuple[int, str]  # (seq, entry_hash) of the last register entry printed so far
Page = list[tuple]  # laid-out blocks: [(kind, height, data, mark), ...]


class Frame(Protocol):
    """What every page carries around its body (header, footer), and the end of the document."""

    def header(self, canvas: Canvas, page: int, total: int) -> None: ...

    def footer(self, canvas: Canvas, page: int, total: int, mark: Mark | None) -> None: ...

    def close(self, canvas: Canvas, y: float) -> None:
        """After the last block, on the last page; ``y``: where the content ends."""


class VolumeFrame(Frame, Protocol):
    """The frame of a document bound in volumes: the cover of each volume and the page that
    ends it, if any (the closing statement of a volume a later one continues, the state of a
    register still in use). What ends the last volume is not part of the content, so that the
    content pages stay the same when more content comes."""

    def cover(self, volume: "Volume") -> Block: ...

    def volume_end(self, volume: "Volume") -> Block | None: ...

    def info(self, volume: "Volume") -> "DocInfo": ...


@dataclass(frozen=True)
class DocInfo:
    title: str
    subject: str
    author: str
    created: datetime  # a date of the content (e.g. its last entry), never "now"
    identifier: str  # seeds the PDF document ID (e.g. register number + head hash)
    lang: str = "fr"


@dataclass(frozen=True)
class Resume:
    """A layout that starts at the first page of volume ``number + 1``: the volumes before it
    ended at entry ``before``, inside a table whose head is ``head``."""

    number: int
    before: Mark
    head: Block | None


@dataclass(frozen=True)
class Volume:
    number: int  # 1, 2, 3…
    content_pages: int  # pages of content (``capacity`` unless it is the last volume)
    complete: bool  # a later volume continues it: its pages are final
    before: Mark | None  # the last entry printed in the volumes before it
    last: Mark | None  # the last entry printed in it (or before it)
    page_digests: tuple[str, ...]  # sha256 of each content page's laid-out text and geometry, if asked
    pages: int = 0  # its page count: the cover, the content, the page that ends it if any


def render(
    out: BinaryIO,
    blocks: Iterable[Block],
    *,
    frame: Frame,
    info: DocInfo,
    progress: Progress | None = None,
    expected_marks: int = 0,
) -> int:
    """Draw ``blocks`` into ``out`` as one PDF (no cover, no volumes); return the number of pages.

    ``expected_marks``: the highest entry seq the blocks will reach, to report pass-1 progress."""
    register_fonts()
    with tempfile.TemporaryFile() as spool:
        total = 0
        for page in _paginate(blocks, _layout_progress(progress, expected_marks)):
            _spool(spool, page)
            total += 1
        spool.seek(0)
        c = _canvas(out, info)
        _draw_pages(
            c,
            Painter(c, total),
            _replay(spool),
            frame,
            first=1,
            total=total,
            mark=None,
            progress=_draw_progress(progress, total),
        )
        c.save()
    return total


def render_volumes(
    blocks: Iterable[Block],
    *,
    frame: VolumeFrame,
    capacity: int,
    output: Callable[[Volume], BinaryIO | None],
    stamp: Callable[[Volume], str] | None = None,
    stop: Callable[[Volume], bool] = lambda volume: False,
    with_digests: bool = False,
    progress: Progress | None = None,
    expected_marks: int = 0,
    resume: Resume | None = None,
    completed: Callable[[Volume, int], None] | None = None,
) -> list[Volume]:
    """Cut ``blocks`` into volumes of ``capacity`` pages of content and draw those for which
    ``output(volume)`` gives a file, each on its own canvas; return every volume laid out.

    ``stamp(volume)`` runs before a volume is drawn: it may refuse by raising, and gives the
    watermark to print across its pages ("" for none); ``stop(volume)``: lay out no further;
    ``with_digests``: compute the digest of every page (to paraphe a volume or check it);
    ``resume``: ``blocks`` start at a volume's first page, after the volumes it names;
    ``completed(volume, carried)``: called for each complete volume, with the number of blocks
    after its last mark (those of the next entry that it already printed)."""
    if capacity < 1:
        raise ValueError("a volume holds at least one page")
    register_fonts()
    pages = _paginate(blocks, _layout_progress(progress, expected_marks), head=resume.head if resume else None)
    volumes: list[Volume] = []
    page = next(pages, None)
    mark: Mark | None = resume.before if resume else None
    skipped = resume.number if resume else 0
    while page is not None:
        with tempfile.TemporaryFile() as spool:
            before, count, digests, carried = mark, 0, [], 0
            while page is not None and count < capacity:
                _spool(spool, page)
                if with_digests:
                    digests.append(hashlib.sha256(repr(page).encode()).hexdigest())
                for kind, _height, _data, block_mark in page:
                    if block_mark is not None:
                        mark, carried = block_mark, 0
                    elif kind != "thead":  # the table head is repeated by the layout, not carried
                        carried += 1
                count += 1
                page = next(pages, None)
            volume = Volume(skipped + len(volumes) + 1, count, page is not None, before, mark, tuple(digests))
            end = frame.volume_end(volume)
            volume = replace(volume, pages=1 + volume.content_pages + (end is not None))
            volumes.append(volume)
            if volume.complete and completed is not None:
                completed(volume, carried)
            out = output(volume)
            if out is not None:
                text = stamp(volume) if stamp is not None else ""
                spool.seek(0)
                _draw_volume(out, volume, _replay(spool), end, frame, text, _draw_progress(progress, volume.pages))
        if stop(volume):
            break
    return volumes


def _draw_volume(
    out: BinaryIO,
    volume: Volume,
    pages: Iterator[Page],
    end: Block | None,
    frame: VolumeFrame,
    duplicate: str,
    progress: Progress | None,
) -> None:
    c = _canvas(out, frame.info(volume))
    total = volume.pages
    painter = Painter(c, total)
    _draw_single(c, painter, frame, frame.cover(volume), page=1, total=total, mark=volume.before, stamp=duplicate)
    _draw_pages(
        c,
        painter,
        pages,
        frame,
        first=2,
        total=1 + volume.content_pages,
        mark=volume.before,
        progress=progress,
        stamp=duplicate,
        page_total=total,
    )
    if end is not None:
        _draw_single(c, painter, frame, end, page=total, total=total, mark=volume.last, stamp=duplicate)
    c.save()


def _draw_single(
    c: Canvas, painter: Painter, frame: Frame, block: Block, *, page: int, total: int, mark: Mark | None, stamp: str
) -> None:
    """A page of its own (a volume's cover or closing page): one block under the header."""
    if stamp:
        watermark(c, stamp)
    painter.begin_page()
    frame.header(c, page, total)
    getattr(painter, block.kind)(BODY_TOP, block.height, block.data)
    painter.end_page()
    frame.footer(c, page, total, mark)
    c.showPage()


def _paginate(
    blocks: Iterable[Block], progress: Callable[[int], None] | None, *, head: Block | None = None
) -> Iterator[Page]:
    """Cut the blocks into pages, in order; ``progress(seq)`` after each page with the last seq.
    ``head``: the blocks continue a table after a page break, so the first page starts as every
    page after a break does (that head on top, then the first block whatever its height)."""
    used, last_mark, fresh = 0.0, 0, head is not None
    content: Page = []
    if head is not None:
        content.append((head.kind, head.height, head.data, None))
        used = head.height
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
        elif block.kind == "title":  # a report's next section: the table before it has ended
            head = None
        need = _kept_height(queue, source) if block.keep_with_next else block.height
        if used and used + need > BODY_HEIGHT and not fresh:
            yield content
            used, content = 0.0, []
            if progress is not None:
                progress(last_mark)
            if head is not None and not block.repeat:
                content.append((head.kind, head.height, head.data, None))
                used = head.height
        content.append((block.kind, block.height, block.data, block.mark))
        used += block.height
        fresh = False
        if block.mark is not None:
            last_mark = block.mark[0]
        queue.popleft()
    if content:
        yield content


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


def _spool(spool: BinaryIO, page: Page) -> None:
    """One page, length-prefixed: read back in one read (``marshal.load`` on a file reads it in
    many small pieces)."""
    data = marshal.dumps(page)
    spool.write(len(data).to_bytes(4, "little"))
    spool.write(data)


def _replay(spool: BinaryIO) -> Iterator[Page]:
    read, loads = spool.read, marshal.loads
    while size := read(4):
        yield loads(read(int.from_bytes(size, "little")))


def _layout_progress(progress: Progress | None, expected: int) -> Callable[[int], None] | None:
    if progress is None or not expected:
        return None
    return lambda seq: progress(min(LAYOUT_SHARE, LAYOUT_SHARE * seq // expected))


def _draw_progress(progress: Progress | None, total: int) -> Progress | None:
    if progress is None:
        return None
    return lambda page: progress(LAYOUT_SHARE + (100 - LAYOUT_SHARE) * page // total)


def _canvas(out: BinaryIO, info: DocInfo) -> Canvas:
    c = Canvas(out, pagesize=(PAGE_WIDTH, PAGE_HEIGHT), invariant=1, pageCompression=1, lang=info.lang)
    c.setTitle(info.title)
    c.setSubject(info.subject)
    c.setAuthor(info.author)
    c.setCreator(info.author)
    created = info.created.astimezone(UTC).strftime("D:%Y%m%d%H%M%S+00'00'")
    c.setDateFormatter(lambda *_: created)
    c._doc.updateSignature(info.identifier)  # the document ID derives from the content
    return c


def _draw_pages(
    c: Canvas,
    painter: Painter,
    pages: Iterator[Page],
    frame: Frame,
    *,
    first: int,
    total: int,
    mark: Mark | None,
    progress: Progress | None,
    stamp: str = "",
    page_total: int = 0,
) -> None:
    """Draw laid-out pages numbered ``first``.. ``total`` (the last one ends the content) of a
    document of ``page_total`` pages (``total`` when the content is the whole document)."""
    page_total = page_total or total
    y = BODY_TOP
    for page, content in enumerate(pages, start=first):
        if stamp:
            watermark(c, stamp)
        painter.begin_page()
        frame.header(c, page, page_total)
        y = BODY_TOP
        for kind, height, data, block_mark in content:
            getattr(painter, kind)(y, height, data)
            y -= height
            if block_mark is not None:
                mark = block_mark
        if page == total:
            frame.close(c, y)
        painter.end_page()
        frame.footer(c, page, page_total, mark)
        c.showPage()
        if progress is not None:
            progress(page)
