"""Spreadsheet exports (CSV, XLSX) that accounting and the regulator's staff open.

Every cell goes through ``neutralise``: a text a spreadsheet would run as a formula (starting
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return, e.g. a casino number typed as
``=1+1``) is prefixed with a quote, so that it shows as the text it is. Plain numbers (``-12,50``)
stay numbers. Headers are in the active language; the French CSV uses ``;`` as Excel does there.
"""

import datetime
import re
from collections.abc import Iterable, Sequence
from html.parser import HTMLParser
from typing import Any

import tablib
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django_tables2.export import ExportMixin, TableExport

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?\d[\d \u00a0\u202f.,]*\Z")
FORMATS = (TableExport.CSV, TableExport.XLSX)
LIST_PARAM = "_list"  # which of a page's lists to export


def neutralise(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.match(value):
        return "'" + value
    return value


# What django-tables2 exports for a boolean column (``str(value)``), read back as the boolean.
_BOOLEAN_TEXT = {"True": True, "False": False}


def cell(value: Any) -> Any:
    """A value as a spreadsheet cell: neutralised, a moment on the local clock (XLSX knows no time
    zone), yes or no in the reader's words (never True/False)."""
    value = _BOOLEAN_TEXT.get(value, value) if isinstance(value, str) else value
    if isinstance(value, bool):
        return str(_("Oui") if value else _("Non"))
    if isinstance(value, datetime.datetime) and timezone.is_aware(value):
        return timezone.localtime(value).replace(tzinfo=None)
    return neutralise(value)


def dataset(headers: Sequence[Any], rows: Iterable[Sequence[Any]], *, title: str = "") -> tablib.Dataset:
    """A dataset whose every header and cell is neutralised (``str`` of lazy translations taken now)."""
    data = tablib.Dataset(title=str(title)[:31])
    data.headers = [neutralise(str(header)) for header in headers]
    for row in rows:
        data.append([cell(value) for value in row])
    return data


def csv_delimiter() -> str:
    return ";" if translation.get_language() == "fr" else ","


def export_bytes(data: tablib.Dataset, export_format: str) -> bytes:
    if export_format == TableExport.CSV:
        # With its byte-order mark, Excel reads the file as UTF-8 (accents, €).
        return ("\ufeff" + data.export("csv", delimiter=csv_delimiter())).encode()
    return data.export(export_format)


def export_response(data: tablib.Dataset, export_format: str, filename: str) -> HttpResponse:
    response = HttpResponse(export_bytes(data, export_format), content_type=TableExport.FORMATS[export_format])
    response["Content-Disposition"] = f'attachment; filename="{filename}.{export_format}"'
    return response


class SafeTableExport(TableExport):
    """django-tables2's export of a table, neutralised, in CSV or XLSX."""

    def __init__(self, export_format, table, exclude_columns=None, dataset_kwargs=None):
        super().__init__(export_format, table, exclude_columns, dataset_kwargs)
        self.dataset = dataset(self.dataset.headers or [], self.dataset, title=self.dataset.title or "")

    def export(self):
        return export_bytes(self.dataset, self.format)


class TableExportMixin(ExportMixin):
    """A django-tables2 list view that exports its filtered rows (all pages) with ``?_export=csv``
    or ``?_export=xlsx``; the table template offers the links."""

    export_class = SafeTableExport
    export_formats = FORMATS

    def get_table(self, **kwargs):
        table = super().get_table(**kwargs)
        table.export_formats = self.export_formats
        return table

    def get_export_filename(self, export_format):
        name = self.export_name
        model = getattr(self.table_class._meta, "model", None)
        if name == ExportMixin.export_name and model is not None:
            name = slugify(str(model._meta.verbose_name_plural))
        return f"{name}-{timezone.localdate():%Y-%m-%d}.{export_format}"


def listed(table, name: str):
    """``table`` (django-tables2) offering its links as the page's list ``name``; a page that does
    not build that list itself answers it as shown (``ShownListsExportMiddleware``)."""
    table.export_formats, table.export_list = FORMATS, name
    table.attrs["data-export"] = name
    return table


def table_list(table) -> tuple[Sequence[Any], Iterable[Sequence[Any]]]:
    """The headers and rows of a django-tables2 table as its own export writes them (all rows)."""
    data = TableExport(TableExport.CSV, table).dataset
    return data.headers, data


class ListExportMixin:
    """A page showing lists: ``?_export=csv`` or ``?_export=xlsx`` answers one list in full (all
    pages, filters kept). A page with one list defines ``export_headers()`` and
    ``export_rows(queryset)``; a page with several names them in ``export_lists()``, and the links
    under each list add ``_list=<name>``. On a page whose django-tables2 table exports
    (``TableExportMixin``), the links without a name stay that table's. A name the page does not
    build is left to ``ShownListsExportMiddleware`` (the list as shown)."""

    export_formats = FORMATS
    export_name = "liste"

    def export_headers(self) -> list:
        raise NotImplementedError

    def export_rows(self, queryset) -> Iterable[Sequence[Any]]:
        raise NotImplementedError

    def export_lists(self) -> dict[str, tuple[Sequence[Any], Iterable[Sequence[Any]]]]:
        """Each list of the page by name (the file's name): its headers and its rows, read lazily."""
        return {self.export_name: (self.export_headers(), self.export_rows(self.get_queryset()))}

    def get(self, request, *args, **kwargs):
        export_format, name = request.GET.get(ExportMixin.export_trigger_param), request.GET.get(LIST_PARAM)
        if export_format in self.export_formats and (name or not isinstance(self, ExportMixin)):
            lists = self.export_lists()
            name = name or next(iter(lists))
            if name in lists:
                headers, rows = lists[name]
                data = dataset(headers, rows, title=name)
                return export_response(data, export_format, f"{name}-{timezone.localdate():%Y-%m-%d}")
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        return super().get_context_data(**kwargs) | {"export_formats": self.export_formats}


class _ShownTables(HTMLParser):
    """The tables of a rendered page marked ``data-export="<name>"``: the first one's heading row,
    and every row holding a record (a data cell, more than one cell: not a heading or totals row,
    not the one cell saying the list is empty)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.headers: list[str] | None = None
        self.rows: list[list[str]] = []
        self._depth = 0  # nesting inside a table of that name
        self._row: list[str] | None = None
        self._record = False
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table" and (self._depth or dict(attrs).get("data-export") == self.name):
            self._depth += 1
        elif self._depth == 1 and tag == "tr":
            self._row, self._record = [], False
        elif self._depth == 1 and tag in ("th", "td") and self._row is not None:
            self._cell = []
            self._record |= tag == "td"

    def handle_endtag(self, tag):
        if tag == "table" and self._depth:
            self._depth -= 1
        elif self._depth == 1 and tag in ("th", "td") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif self._depth == 1 and tag == "tr" and self._row is not None:
            if self.headers is None:
                self.headers = self._row
            elif self._record and len(self._row) > 1:
                self.rows.append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def shown_list(html: str, name: str) -> tuple[list[str], list[list[str]]] | None:
    """The list ``name`` as a page shows it (in sections: one list): its headings and records,
    the columns without a heading (a row's acts) left out; ``None`` when the page has no such list."""
    parser = _ShownTables(name)
    parser.feed(html)
    if parser.headers is None:
        return None
    kept = [index for index, header in enumerate(parser.headers) if header]
    pick = lambda row: [row[index] for index in kept if index < len(row)]  # noqa: E731
    return pick(parser.headers), [pick(row) for row in parser.rows]


class ShownListsExportMiddleware:
    """On a working page (a day, a partie, one object's histories), ``?_export=csv|xlsx&_list=<name>``
    answers the list the page shows under that name, as shown: the page is rendered as usual and
    its tables marked ``data-export="<name>"`` are read back. The headings, the order and the
    reader's language are the page's own, so the file cannot drift from it. Pages that build their
    exports from their queries (``ListExportMixin``, ``TableExportMixin``) answer before this."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        export_format, name = request.GET.get(ExportMixin.export_trigger_param), request.GET.get(LIST_PARAM)
        if (
            request.method != "GET"
            or export_format not in FORMATS
            or not name
            or response.status_code != 200
            or response.streaming
            or not response.get("Content-Type", "").startswith("text/html")
        ):
            return response
        shown = shown_list(response.content.decode(), name)
        if shown is None:
            raise Http404
        headers, rows = shown
        return export_response(
            dataset(headers, rows, title=name), export_format, f"{name}-{timezone.localdate():%Y-%m-%d}"
        )
