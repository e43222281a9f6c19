"""A register as a spreadsheet (CSV, XLSX): one row per entry, the kind's columns in the active
language, every value written as the printed register writes it (dates, amounts, lists, labels of
codes and roles; times in the establishment's time zone), every cell neutralised
(ledgers.core.exports)."""

from collections.abc import Iterator

import tablib
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ledgers.core.exports import dataset

from .kinds import column_readers
from .models import Entry, EntryKind, Register
from .printing.formats import Formatter


def _rows(register: Register, after: int) -> Iterator[list]:
    columns = register.kind_info.columns
    read = column_readers(columns, register.establishment)
    fmt = Formatter(register.establishment, get_language())
    entries = register.entries.filter(seq__gt=after).select_related("actor_user").order_by("seq")
    for entry in entries.iterator(chunk_size=2000):
        entry: Entry
        if entry.kind in (EntryKind.RECORD, EntryKind.CORRECTION):
            values = entry.payload.get("corrected", {}) if entry.kind == EntryKind.CORRECTION else entry.payload
            cells = [read[column.key](column.value(values)) for column in columns]
            statement = entry.payload.get("reason", "")
        else:
            cells, statement = [None] * len(columns), entry.payload.get("statement", "")
        cells = [
            value if isinstance(value, int) and not isinstance(value, bool) else fmt.value(value) for value in cells
        ]
        who = entry.actor_user.get_full_name() if entry.actor_user else ""
        yield [
            entry.seq,
            fmt.datetime(entry.recorded_at),
            who or entry.actor,
            fmt.role(entry.role),
            entry.get_kind_display(),
            *cells,
            statement,
            entry.entry_hash,
        ]


def register_dataset(register: Register, *, after: int = 0) -> tablib.Dataset:
    """The register's entries after n° ``after`` (all of them by default)."""
    headers = [
        _("N°"),
        _("Inscrit le"),
        _("Par"),
        _("Rôle"),
        _("Nature"),
        *(column.label for column in register.kind_info.columns),
        _("Mention"),
        _("Empreinte"),
    ]
    return dataset(headers, _rows(register, after), title=register.number)
