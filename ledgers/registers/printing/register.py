"""The printed register, "coté et paraphé".

First page: the opening act (the authority's cote and paraphe). Every page: establishment,
register number and title, "Page n / N", the kind's columns, the paraphe block and the digest of
the last entry on the page, so that a paper copy can be checked against the chain. Visas print as
stamps where they fall in the sequence; corrections print in red, pointing to the entry they
correct, with who approved them and why (FR-2007 art. 69: no erasure, corrections in red ink
approved in words); corrected entries stay printed. Last: the closing act, or the state of a
register still in use.
"""

import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import BinaryIO
from urllib.parse import urlsplit

import zxingcpp
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.pdfgen.canvas import Canvas

from ..kinds import column_readers
from ..models import Entry, EntryKind, Register, TreeHead
from ..selectors import PrintedEntry, entries_for_print
from . import document
from .blocks import (
    BLUE,
    BODY_BOTTOM,
    BODY_LEFT,
    BODY_WIDTH,
    INK,
    LEADING,
    MARGIN,
    MUTED,
    PAGE_WIDTH,
    PAGES,
    RED,
    RULE,
    STAMP_FILL,
    Block,
    Table,
    box,
    page_header,
    reuse_form,
    wrap,
)
from .document import Volume
from .fonts import BOLD, REGULAR
from .formats import Formatter, author_width, lookup
from .models import VolumeBoundary

DIGEST_CHARS = 16  # hex characters of the last entry's hash printed in every page footer
FOOTER_BOX = 38.0


VOLUME_PAGES = 500  # pages of entries per volume, unless settings.REGISTER_VOLUME_PAGES says otherwise


def volume_capacity() -> int:
    return getattr(settings, "REGISTER_VOLUME_PAGES", VOLUME_PAGES)


class NoSuchVolume(ValueError):
    pass


@dataclass(frozen=True)
class Rendered:
    pages: int
    head_seq: int  # the register state printed: entries 1..head_seq
    head_hash: str
    volume: Volume  # the volume printed


def render_register(
    register: Register,
    out: BinaryIO,
    *,
    volume: int | None = None,
    lang: str | None = None,
    progress: document.Progress | None = None,
    stamp: Callable[[Volume], str] | None = None,
    with_digests: bool = False,
) -> Rendered:
    """Print volume ``volume`` of ``register`` as it stands now (entries up to its current
    head) into ``out``; by default its last volume, the one in use. ``stamp(volume)``, before
    anything is drawn, may refuse by raising and gives the watermark of every page (a
    duplicate's "DUPLICATA"); ``with_digests``: the digest of every page in ``Rendered.volume``."""

    def wanted(v: Volume) -> bool:
        return v.number == volume if volume is not None else not v.complete

    lang = lang or settings.LANGUAGE_CODE
    # Laid out from the end of the last stored volume before the one wanted: the volume in use
    # costs its own entries, not the register's history.
    bounds = VolumeBoundary.objects.filter(register=register, lang=lang)
    start = (bounds if volume is None else bounds.filter(volume__lt=volume)).order_by("-volume").first()
    volumes, head_seq, head_hash = _render(
        register,
        lambda v: out if wanted(v) else None,
        lang=lang,
        progress=progress,
        stamp=stamp,
        stop=wanted,
        with_digests=with_digests,
        start=start,
    )
    drawn = next((v for v in volumes if wanted(v)), None)
    if drawn is None:
        count = (start.volume if start else 0) + len(volumes)
        raise NoSuchVolume(
            ngettext(
                "Le registre n° %(number)s ne compte que %(count)s tome.",
                "Le registre n° %(number)s ne compte que %(count)s tomes.",
                count,
            )
            % {"number": register.number, "count": count}
        )
    return Rendered(drawn.pages, head_seq, head_hash, drawn)


def render_register_volumes(
    register: Register,
    output: Callable[[Volume], BinaryIO | None],
    *,
    lang: str | None = None,
    progress: document.Progress | None = None,
    stop: Callable[[Volume], bool] = lambda v: False,
    with_digests: bool = False,
) -> list[Volume]:
    """Lay out ``register`` volume by volume in one pass, and print those for which
    ``output(volume)`` gives a file (None: not this one); memory stays that of one volume."""
    return _render(register, output, lang=lang, progress=progress, stop=stop, with_digests=with_digests)[0]


def _render(
    register: Register,
    output: Callable[[Volume], BinaryIO | None],
    *,
    lang: str | None,
    progress: document.Progress | None,
    stamp: Callable[[Volume], str] | None = None,
    stop: Callable[[Volume], bool],
    with_digests: bool,
    start: VolumeBoundary | None = None,
) -> tuple[list[Volume], int, str]:
    """Lay out from the first entry, or from the end of volume ``start``; store the boundaries
    of every volume the layout completes (the first layout that completes one)."""
    head_seq, head_hash = Register.objects.filter(pk=register.pk).values_list("head_seq", "head_hash").get()
    lang = lang or settings.LANGUAGE_CODE

    def completed(volume: Volume, carried: int) -> None:
        first = volume.before[0] + 1 if volume.before else 1
        seq, digest = volume.last or (0, "")
        boundary = VolumeBoundary(
            register=register,
            lang=lang,
            volume=volume.number,
            first_seq=first,
            last_seq=seq,
            last_hash=digest,
            pages=volume.pages,
            carried=carried,
        )
        VolumeBoundary.objects.bulk_create([boundary], ignore_conflicts=True)

    with translation.override(lang):
        printed = RegisterPrint(register, head_seq=head_seq, head_hash=head_hash, lang=lang)
        resume = None
        if start is not None:
            resume = document.Resume(start.volume, (start.last_seq, start.last_hash), printed.table.head())
        volumes = document.render_volumes(
            printed.blocks(first=start.last_seq + 1 if start else 1, skip=start.carried if start else 0),
            frame=printed,
            capacity=volume_capacity(),
            output=output,
            stamp=stamp,
            stop=stop,
            with_digests=with_digests,
            progress=progress,
            expected_marks=head_seq - (start.last_seq if start else 0),
            resume=resume,
            completed=completed,
        )
    return volumes, head_seq, head_hash


class RegisterPrint:
    """Builds the blocks of one register and draws its page frame (a ``document.Frame``)."""

    def __init__(self, register: Register, *, head_seq: int, head_hash: str, lang: str) -> None:
        self.register = register
        self.establishment = register.establishment
        self.kind = register.kind_info
        self.head_seq, self.head_hash = head_seq, head_hash
        self.fmt = Formatter(self.establishment, lang)
        self.read = column_readers(self.kind.columns, self.establishment)
        self.jurisdiction = self.establishment.get_jurisdiction_display()
        opening = (
            Entry.objects.filter(register=register, seq=1, kind=EntryKind.OPENING)
            .values_list("payload", "role")
            .first()
        )
        self.opening_payload, self.opening_role = opening if opening else ({}, "")
        # The newest signed tree head when printed, and the register's size in it: the page's QR
        # code names them (ledger-format §13).
        newest = (
            TreeHead.objects.filter(establishment=self.establishment)
            .order_by("-number")
            .values_list("number", f"leaves__{register.number}__0")
            .first()
        )
        self.tree_head, self.tree_size = (newest[0], newest[1] or 0) if newest else (0, 0)
        last = Entry.objects.filter(register=register, seq=head_seq).values_list("recorded_at", flat=True).first()
        self.state_date = last or register.created_at
        self.table = Table.build(
            [
                (_("N°"), 40.0, 0),
                (_("Inscrit le"), 84.0, 0),
                *((str(col.label), None, col.width) for col in self.kind.columns),
                (_("Inscrit par"), author_width(self.kind.columns), 0),
            ]
        )

    # --- helpers ---------------------------------------------------------------------------------

    def _recorded_at(self, seq: int) -> datetime:
        at = Entry.objects.filter(register=self.register, seq=seq).values_list("recorded_at", flat=True).first()
        return at or self.register.created_at

    def info(self, volume: Volume) -> document.DocInfo:
        """A volume's bytes depend only on what it prints: its last entry, its number, the
        language (and, for the volume in use, the head, which is its last entry)."""
        seq, digest = volume.last or (0, "")
        return document.DocInfo(
            title=_("%(number)s — %(title)s — tome %(volume)s")
            % {"number": self.register.number, "title": self.register.heading, "volume": volume.number},
            subject=str(self.kind.title),
            author=self.establishment.name,
            created=self._recorded_at(seq) if seq else self.register.created_at,
            identifier=f"{self.register.number}:{volume.number}:{seq}:{digest}:{translation.get_language()}",
            lang=translation.get_language(),
        )

    def cover(self, volume: Volume) -> Block:
        """The volume's cover and opening statement (REG-21): register, establishment, category,
        volume number, page count, entries, and where it continues from."""
        first = volume.before[0] + 1 if volume.before else 1
        last = volume.last[0] if volume.last else 0
        fields = [
            (_("Établissement"), self.establishment.name),
            (_("Registre"), f"{self.kind.title} — n° {self.register.number}"),
        ]
        if self.register.heading != str(self.kind.title):
            fields.append((_("Intitulé"), self.register.heading))
        fields += [
            (_("Catégorie"), " — ".join(filter(None, [str(self.kind.title), self.kind.form, self.jurisdiction]))),
            (_("Tome"), _("n° %(volume)s") % {"volume": volume.number}),
            (_("Nombre de pages"), PAGES),
            (_("Entrées"), _("n° %(first)s à %(last)s") % {"first": first, "last": last} if last >= first else "—"),
            (_("Date"), self.fmt.datetime(self._recorded_at(first)) if last >= first else ""),
            (
                "",
                _(
                    "Le présent tome comporte %(pages)s pages, numérotées de 1 à %(pages)s, la présente couverture "
                    "comprise."
                )
                % {"pages": PAGES},
            ),
        ]
        if volume.before:
            fields.append(
                (
                    "",
                    _("Il fait suite au tome n° %(previous)s, clos à l'entrée n° %(seq)s, empreinte %(hash)s.")
                    % {"previous": volume.number - 1, "seq": volume.before[0], "hash": volume.before[1]},
                )
            )
        return box(
            _("Registre n° %(number)s — tome %(volume)s") % {"number": self.register.number, "volume": volume.number},
            fields,
        )

    def volume_end(self, volume: Volume) -> Block | None:
        """The closing statement of a volume a later one continues, for the authority to sign;
        the state of the register on the last volume of a register in use."""
        if not volume.complete:
            return None if self.closed else self._in_use()
        seq, digest = volume.last or (0, "")
        return box(
            _("Clôture du tome n° %(volume)s") % {"volume": volume.number},
            [
                (
                    "",
                    _(
                        "Le présent tome, de %(pages)s pages, est clos à l'entrée n° %(seq)s, empreinte %(hash)s. "
                        "Le registre se poursuit au tome n° %(next)s."
                    )
                    % {"pages": PAGES, "seq": seq, "hash": digest, "next": volume.number + 1},
                ),
                (_("Autorité"), ""),
                (_("Date"), ""),
                (_("Signature"), ""),
            ],
        )

    # --- blocks --------------------------------------------------------------------------------

    def blocks(self, *, first: int = 1, skip: int = 0) -> Iterator[Block]:
        """The blocks of entries ``first``..head, less the ``skip`` first ones (printed at the
        end of the volume before)."""
        if not self.head_seq:
            self.closed = True  # nothing to continue: no "in use" statement
            yield self._awaiting_opening()
            return
        self.closed = False
        yield from itertools.islice(self._entry_blocks(first), skip, None)

    def _entry_blocks(self, first: int) -> Iterator[Block]:
        for entry in entries_for_print(self.register, upto=self.head_seq, first=first):
            if entry.kind == EntryKind.OPENING:
                yield self._opening(entry)
                yield self.table.head()
            elif entry.kind == EntryKind.VISA:
                yield self._visa(entry)
            elif entry.kind == EntryKind.CLOSING:
                self.closed = True
                yield self._closing(entry)
            else:
                yield from self._row(entry)

    def _awaiting_opening(self) -> Block:
        return box(
            _("Registre en attente de cote et paraphe"),
            [
                (_("Établissement"), self.establishment.name),
                (_("Registre"), f"{self.kind.title} — n° {self.register.number}"),
                (_("Objet"), str(self.kind.purpose)),
                ("", _("Aucune inscription ne peut être portée avant la cote et le paraphe de l'autorité.")),
            ],
        )

    def _opening(self, entry: PrintedEntry) -> Block:
        p = entry.payload
        fields = [
            (_("Établissement"), p.get("establishment", self.establishment.name)),
            (_("Registre"), f"{self.kind.title} — n° {self.register.number}"),
        ]
        if self.register.heading != str(self.kind.title):
            fields.append((_("Intitulé"), self.register.heading))
        if self.kind.form:
            fields.append((_("Modèle officiel"), self.kind.form))
        fields += [
            (_("Objet"), p.get("purpose", str(self.kind.purpose))),
            (_("Autorité"), f"{p.get('authority', entry.actor)}, {self.fmt.role(entry.role)}"),
            (_("Paraphe"), p.get("paraphe", "")),
            (_("Date"), self.fmt.datetime(entry.recorded_at)),
            ("", p.get("statement", "")),
            ("", _("Le présent exemplaire comporte %(pages)s pages, numérotées de 1 à %(pages)s.") % {"pages": PAGES}),
            (_("Empreinte"), _("entrée n° 1 : %(hash)s") % {"hash": entry.entry_hash}),
        ]
        return box(_("Acte d'ouverture — cote et paraphe"), fields, mark=(entry.seq, entry.entry_hash))

    def _cells(self, entry: PrintedEntry, payload: dict, seq_text: str) -> list[str]:
        value = self.fmt.value
        return [
            seq_text,
            self.fmt.datetime(entry.recorded_at),
            *(value(self.read[col.key](lookup(payload, col.key))) for col in self.kind.columns),
            f"{entry.actor} — {self.fmt.role(entry.role)}",
        ]

    def _row(self, entry: PrintedEntry) -> list[Block]:
        notes = [_("Entrée corrigée par l'entrée n° %(seq)s.") % {"seq": seq} for seq in entry.corrected_by]
        mark = (entry.seq, entry.entry_hash)
        if entry.kind != EntryKind.CORRECTION:
            return self.table.rows(self._cells(entry, entry.payload, str(entry.seq)), notes=notes, mark=mark)
        p = entry.payload
        seq_text = _("%(seq)s\n→ n° %(corrected)s") % {"seq": entry.seq, "corrected": entry.corrects}
        notes.insert(
            0,
            _(
                "Correction de l'entrée n° %(corrected)s — motif : %(reason)s — approuvée en toutes lettres : "
                "« %(approval)s » par %(approver)s."
            )
            % {
                "corrected": entry.corrects,
                "reason": p.get("reason", ""),
                "approval": p.get("approval", ""),
                "approver": p.get("approved_by", entry.actor),
            },
        )
        return self.table.rows(
            self._cells(entry, p.get("corrected") or {}, seq_text), color=RED, notes=notes, mark=mark
        )

    def _visa(self, entry: PrintedEntry) -> Block:
        p = entry.payload
        fields = [
            (_("Visé par"), f"{p.get('signer', entry.actor)}, {self.fmt.role(entry.role)}"),
            (_("Le"), self.fmt.datetime(entry.recorded_at)),
            (
                _("Entrées visées"),
                _("n° %(start)s à %(end)s — empreinte de l'entrée n° %(end)s : %(hash)s")
                % {
                    "start": p.get("covers_from", 1),
                    "end": p.get("covers_seq"),
                    "hash": str(p.get("covers_hash", ""))[:DIGEST_CHARS],
                },
            ),
            ("", f"« {p.get('statement', '')} »"),
        ]
        first = self.table.widths[0]
        return box(
            _("Visa — entrée n° %(seq)s") % {"seq": entry.seq},
            fields,
            color=BLUE,
            fill=STAMP_FILL,
            label_width=80.0,
            indent=first,
            width=min(BODY_WIDTH - first, 430.0),
            mark=(entry.seq, entry.entry_hash),
        )

    def _closing(self, entry: PrintedEntry) -> Block:
        p = entry.payload
        fields = [
            (_("Clos par"), f"{p.get('signer', entry.actor)}, {self.fmt.role(entry.role)}"),
            (_("Date"), self.fmt.datetime(entry.recorded_at)),
            (_("Entrées"), _("%(count)s (n° 1 à %(seq)s)") % {"count": p.get("entries", entry.seq), "seq": entry.seq}),
            ("", p.get("statement", "")),
            (_("Empreinte"), _("entrée n° %(seq)s : %(hash)s") % {"seq": entry.seq, "hash": entry.entry_hash}),
        ]
        return box(
            _("Acte de clôture — entrée n° %(seq)s") % {"seq": entry.seq}, fields, mark=(entry.seq, entry.entry_hash)
        )

    def _in_use(self) -> Block:
        return box(
            _("Registre en cours"),
            [
                (
                    "",
                    _("Registre en cours — dernière entrée n° %(seq)s, empreinte %(hash)s.")
                    % {"seq": self.head_seq, "hash": self.head_hash},
                ),
                (
                    "",
                    _(
                        "Exemplaire imprimé en l'état du %(date)s ; les entrées suivantes figureront sur une "
                        "nouvelle impression."
                    )
                    % {"date": self.fmt.datetime(self.state_date)},
                ),
            ],
        )

    # --- page frame ----------------------------------------------------------------------------

    def header(self, c: Canvas, page: int, total: int) -> None:
        page_header(
            c,
            page,
            total,
            title=self.establishment.name,
            subtitle=_("Registre n° %(number)s — %(title)s")
            % {"number": self.register.number, "title": self.register.heading},
            note=" — ".join(filter(None, [self.kind.form, self.jurisdiction])),
        )

    def close(self, c: Canvas, y: float) -> None:
        """Strike the blank space left under the last entry, as on paper: nothing can be added
        to a printed copy."""
        if y - BODY_BOTTOM > 2 * LEADING:
            c.setStrokeColorRGB(*RULE)
            c.setLineWidth(0.6)
            c.line(BODY_LEFT + BODY_WIDTH, y - LEADING, BODY_LEFT, BODY_BOTTOM + LEADING)

    def footer(self, c: Canvas, page: int, total: int, mark: tuple[int, str] | None) -> None:
        reuse_form(c, "footer", self._footer)
        if mark is not None:  # the digest of the last entry printed on (or before) this page
            bottom, right = MARGIN + FOOTER_BOX, PAGE_WIDTH - MARGIN
            seq, digest = mark
            c.setFillColorRGB(*INK)
            c.setFont(REGULAR, 7.5)
            c.drawRightString(right, bottom - 9, _("Dernière entrée de la page : n° %(seq)s") % {"seq": seq})
            c.setFont(BOLD, 10)
            c.drawRightString(right, bottom - 22, _("Empreinte : %(digest)s") % {"digest": digest[:DIGEST_CHARS]})
            page = (self.register.number, seq, digest, self.establishment.code, self.tree_head, self.tree_size)
            self._qr(c, qr_payload(*page))

    @staticmethod
    def _qr(c: Canvas, text: str) -> None:
        """The page's QR code, in the footer between the paraphe block and the digest: one filled
        path of the dark runs of each row, scaled to the footer box."""
        size, ops = qr_path(text)
        scale = FOOTER_BOX / size
        c.saveState()
        c.setFillColorRGB(0, 0, 0)
        c.transform(scale, 0, 0, scale, BODY_LEFT + 310, MARGIN)
        c.addLiteral(ops)
        c.restoreState()

    def _footer(self, c: Canvas) -> None:
        bottom, height, right = MARGIN, FOOTER_BOX, PAGE_WIDTH - MARGIN
        c.setStrokeColorRGB(*INK)
        c.setLineWidth(0.8)
        c.line(BODY_LEFT, bottom + height + 4, right, bottom + height + 4)
        # Paraphe block: the authority who coted and paraphed the register, and its initials.
        c.setLineWidth(0.6)
        c.rect(BODY_LEFT, bottom, 300, height)
        c.line(BODY_LEFT + 220, bottom, BODY_LEFT + 220, bottom + height)
        c.setFillColorRGB(*MUTED)
        c.setFont(REGULAR, 6.5)
        c.drawString(BODY_LEFT + 4, bottom + height - 9, _("Coté et paraphé par"))
        c.drawString(BODY_LEFT + 224, bottom + height - 9, _("Paraphe"))
        c.drawRightString(
            right,
            bottom + 2,
            _("SHA-256 de l'entrée, 16 premiers caractères ; registre chaîné, vérifiable contre l'export électronique"),
        )
        c.setFillColorRGB(*INK)
        p = self.opening_payload
        if p:
            authority = f"{p.get('authority', '')}, {self.fmt.role(self.opening_role)}"
            c.setFont(REGULAR, 8)
            for i, line in enumerate(wrap(authority, 212)[:2]):
                c.drawString(BODY_LEFT + 4, bottom + height - 19 - i * 9.5, line)
            c.setFont(BOLD, 14)
            c.drawCentredString(BODY_LEFT + 260, bottom + 8, p.get("paraphe", ""))
        else:
            c.setFont(REGULAR, 8)
            c.drawString(BODY_LEFT + 4, bottom + height - 19, _("Registre non encore coté et paraphé"))


_DARK_RUN = re.compile(rb"\x00+")


def qr_path(text: str) -> tuple[int, str]:
    """The QR code of ``text`` (error correction M, no quiet zone) as its size in modules and the
    PDF operators that fill its dark modules, one rectangle per horizontal run, in module units."""
    image = zxingcpp.create_barcode(text, zxingcpp.BarcodeFormat.QRCode, ec_level="M").to_image(
        scale=1, add_quiet_zones=False
    )
    size = image.shape[0]
    modules = bytes(memoryview(image))
    rects = []
    for row in range(size):
        start, y = row * size, size - 1 - row
        rects.extend(
            f"{run.start() - start} {y} {run.end() - run.start()} 1 re"
            for run in _DARK_RUN.finditer(modules, start, start + size)
        )
    return size, " ".join(rects) + " f"


def qr_payload(register: str, seq: int, digest: str, establishment: str, tree_head: int, size: int) -> str:
    """The text of a page's QR code (docs/ledger-format.md §13): the entry, the newest tree head
    when printed and the register's size in it, and the host that serves the entry's proof
    against a tree head (/api/v1/registers/REGISTER/entries/SEQ/proof/?tree_head=N). In capitals
    (register numbers are) and spaces: the QR code's alphanumeric mode keeps it as small as the
    shorter text of format 1 in byte mode, so that a page prints as fast."""
    host = urlsplit(settings.NOTIFICATIONS_SITE_URL).netloc
    return " ".join(map(str, ("LEDGER2", register, seq, digest, establishment, tree_head, size, host))).upper()
