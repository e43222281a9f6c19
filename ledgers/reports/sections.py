"""Sections of the daily séance report, from providers any app can register.

A provider takes the séance and the document's ``Formatter`` and yields ``Section``s: a title,
columns, rows (streamed: an iterator of cell texts) and what to print when there is no row. The
report prints the sections of every provider in registration order. This module provides what
every establishment has: the entries of each register during the séance and the visas pending;
open incidents are printed when the incidents app is installed. An app adds its own section with
``@daily_section`` in a module imported from its ``AppConfig.ready()``.
"""

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.db.models import Count, Max, Min
from django.utils import timezone
from django.utils.translation import gettext as _

from ledgers.core.models import Seance
from ledgers.registers.kinds import RegisterKind, column_readers
from ledgers.registers.models import EntryKind, Register
from ledgers.registers.printing.formats import Formatter, author_width, lookup
from ledgers.registers.selectors import PrintedEntry, entries_for_print

Column = tuple[str, float | None, float]  # label, fixed width in points or None, relative weight


@dataclass(frozen=True)
class Section:
    title: str
    columns: Sequence[Column]
    rows: Iterable[Sequence[str]]
    empty: str = ""  # printed when there is no row; no row and no text: the section is left out


Provider = Callable[[Seance, Formatter], Iterable[Section]]
_PROVIDERS: list[Provider] = []


def daily_section(provider: Provider) -> Provider:
    if provider not in _PROVIDERS:
        _PROVIDERS.append(provider)
    return provider


def daily_sections() -> list[Provider]:
    return list(_PROVIDERS)


@daily_section
def register_entries(seance: Seance, fmt: Formatter) -> Iterator[Section]:
    """What each register recorded during the séance, entry by entry."""
    start, end = seance.opened_at, seance.closed_at or timezone.now()
    recorded = False
    for register in Register.objects.filter(establishment=seance.establishment).order_by("number"):
        window = register.entries.filter(recorded_at__gte=start, recorded_at__lt=end).aggregate(
            count=Count("pk"), first=Min("seq"), last=Max("seq")
        )
        count = window["count"]
        if not count:
            continue
        recorded = True
        kind = register.kind_info
        entries = entries_for_print(register, first=window["first"], upto=window["last"], since=start, until=end)
        read = column_readers(kind.columns, register.establishment)
        yield Section(
            title=_("Registre n° %(number)s — %(title)s : %(count)s inscription(s)")
            % {"number": register.number, "title": register.title, "count": count},
            columns=(
                (_("N°"), 40.0, 0),
                (_("Inscrit le"), 84.0, 0),
                (_("Nature"), 90.0, 0),
                *((str(col.label), None, col.width) for col in kind.columns),
                (_("Inscrit par"), author_width(kind.columns), 0),
            ),
            rows=(_entry_cells(entry, kind, fmt, read) for entry in entries),
        )
    if not recorded:
        nothing = _("Aucune inscription dans les registres pendant la séance.")
        yield Section(_("Inscriptions de la séance"), (), (), nothing)


def _entry_cells(
    entry: PrintedEntry, kind: RegisterKind, fmt: Formatter, read: dict[str, Callable[[Any], Any]]
) -> list[str]:
    p = entry.payload
    values: list[str] = [fmt.value(read[col.key](lookup(p, col.key))) for col in kind.columns]
    if entry.kind == EntryKind.CORRECTION:
        nature = _("Correction de l'entrée n° %(seq)s") % {"seq": entry.corrects}
        values = [fmt.value(read[col.key](lookup(p.get("corrected") or {}, col.key))) for col in kind.columns]
    elif entry.kind == EntryKind.VISA:
        nature = _("Visa des entrées n° %(start)s à %(end)s") % {
            "start": p.get("covers_from"),
            "end": p.get("covers_seq"),
        }
        values = [p.get("statement", ""), *[""] * (len(values) - 1)]
    elif entry.kind in (EntryKind.OPENING, EntryKind.CLOSING):
        nature = str(EntryKind(entry.kind).label)
        values = [p.get("statement", ""), *[""] * (len(values) - 1)]
    else:
        nature = str(EntryKind(entry.kind).label)
    return [str(entry.seq), fmt.datetime(entry.recorded_at), nature, *values, f"{entry.actor} — {fmt.role(entry.role)}"]


@daily_section
def visas_pending(seance: Seance, fmt: Formatter) -> Iterator[Section]:
    """Open registers with entries no visa covers yet, as the report is drawn."""
    yield Section(
        title=_("Visas en attente"),
        columns=(
            (_("Registre"), 170.0, 0),
            (_("Intitulé"), None, 1.0),
            (_("Dernière entrée"), 80.0, 0),
            (_("Visé jusqu'au n°"), 80.0, 0),
            (_("Entrées à viser"), 80.0, 0),
        ),
        rows=_visa_backlog(seance.establishment),
        empty=_("Toutes les entrées des registres ouverts sont visées."),
    )


def _visa_backlog(establishment) -> Iterator[tuple[str, ...]]:
    for register in establishment.registers.filter(status=Register.Status.OPEN).order_by("number"):
        if register.unvisaed:
            covered = register.visaed_seq
            yield register.number, register.title, str(register.head_seq), str(covered or "—"), str(register.unvisaed)


def open_incidents(seance: Seance, fmt: Formatter) -> Iterator[Section]:
    """Incidents still open when the report is drawn."""
    from ledgers.incidents.categories import get_category
    from ledgers.incidents.selectors import open_incidents as incidents_of

    def label(code: str) -> str:
        try:
            return str(get_category(code).label)
        except KeyError:
            return code

    yield Section(
        title=_("Incidents ouverts"),
        columns=(
            (_("N°"), 40.0, 0),
            (_("Constaté le"), 84.0, 0),
            (_("Catégorie"), None, 1.2),
            (_("Exigence"), 60.0, 0),
            (_("Description"), None, 3.0),
        ),
        rows=(
            (str(i.pk), fmt.datetime(i.found_at), label(i.category), i.requirement, i.description)
            for i in incidents_of(seance.establishment).order_by("found_at", "pk").iterator()
        ),
        empty=_("Aucun incident ouvert."),
    )


if apps.is_installed("ledgers.incidents"):
    daily_section(open_incidents)
