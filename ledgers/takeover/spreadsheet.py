"""The lines of an inventory read from a spreadsheet (CSV or XLSX) or from lines typed in the page
(CSV, ``;`` or ``,``), the first line naming the columns (their codes or their labels)."""

import csv

import tablib
from django.core.exceptions import ValidationError
from django.utils.encoding import force_str
from django.utils.translation import gettext_lazy as _

from .domains import TakeoverDomain


def _headers(domain: TakeoverDomain, headers: list) -> list[str]:
    known = {}
    for name, label, _help in domain.columns:
        known[name.lower()] = name
        known[force_str(label).lower()] = name
    names, unknown = [], []
    for header in headers:
        text = str(header or "").strip().lstrip("\ufeff")
        name = known.get(text.lower())
        if name is None and text:
            unknown.append(text)
        names.append(name or "")
    if unknown:
        raise ValidationError(
            _("Colonne(s) inconnue(s) : %(u)s. Colonnes attendues : %(a)s.")
            % {"u": ", ".join(unknown), "a": ", ".join(name for name, _label, _help in domain.columns)}
        )
    return names


def _rows(domain: TakeoverDomain, data: tablib.Dataset) -> list[dict]:
    names = _headers(domain, list(data.headers or []))
    rows = []
    for values in data:
        if not any(str(v or "").strip() for v in values):
            continue  # a blank line of the sheet
        row = {}
        for name, value in zip(names, values, strict=False):
            if name:
                row[name] = _cell(value)
        rows.append(row)
    return rows


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def rows_from_text(domain: TakeoverDomain, content: str) -> list[dict]:
    content = content.lstrip("\ufeff").strip()
    if not content:
        return []
    first = content.splitlines()[0]
    delimiter = ";" if first.count(";") >= first.count(",") else ","
    try:
        data = tablib.Dataset().load(content, format="csv", delimiter=delimiter)
    except (tablib.InvalidDimensions, csv.Error) as exc:
        raise ValidationError(
            _("Lignes illisibles (nombre de colonnes inégal ou guillemets) : %(e)s.") % {"e": exc}
        ) from exc
    return _rows(domain, data)


def rows_from_file(domain: TakeoverDomain, upload) -> list[dict]:
    name = (getattr(upload, "name", "") or "").lower()
    content = upload.read()
    if name.endswith(".xlsx"):
        try:
            data = tablib.Dataset().load(content, format="xlsx")
        except Exception as exc:  # openpyxl raises many types for a file that is no workbook
            raise ValidationError(_("Classeur XLSX illisible.")) from exc
        return _rows(domain, data)
    if name.endswith(".csv") or name.endswith(".txt"):
        try:
            text = content.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = content.decode("cp1252")
        return rows_from_text(domain, text)
    raise ValidationError(_("Fichier attendu : CSV ou XLSX."))


def rows_as_text(domain: TakeoverDomain, rows: list[dict]) -> str:
    """Lines as the page shows them to be corrected: the column codes, then one line per row."""
    names = [name for name, _label, _help in domain.columns]
    data = tablib.Dataset(headers=names)
    for row in rows:
        data.append([row.get(name, "") for name in names])
    return data.export("csv", delimiter=";").replace("\r\n", "\n").strip()


def blank_sheet(domain: TakeoverDomain, export_format: str) -> bytes | str:
    """The empty sheet to fill in: the column codes on the first line."""
    data = tablib.Dataset(headers=[name for name, _label, _help in domain.columns])
    return data.export(export_format, **({"delimiter": ";"} if export_format == "csv" else {}))
