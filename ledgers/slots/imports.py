"""The relève file: CSV, one row per station and meter (docs/slots-import.md)."""

import csv
import datetime
import io

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .services.monitoring import EventRow
from .services.releves import ReadingErrors, ReadingRow

COLUMNS = ("machine", "station", "meter", "value")


def parse_csv(text: str) -> list[ReadingRow]:
    """Rows of a relève file (comma or semicolon separated, header line first). Every malformed
    row is reported with its line number; nothing is returned unless all are well formed."""
    sample = text[:2048]
    dialect = csv.Sniffer().sniff(sample, delimiters=",;") if sample.strip() else csv.excel
    reader = csv.DictReader(io.StringIO(text), dialect=dialect)
    if reader.fieldnames is None or [f.strip().lower() for f in reader.fieldnames][:4] != list(COLUMNS):
        raise ValidationError(_("En-tête attendu : %(h)s.") % {"h": ",".join(COLUMNS)})
    rows, errors = [], []
    for record in reader:
        line = reader.line_num
        try:
            rows.append(
                ReadingRow(
                    machine=record["machine"].strip(),
                    station=int(record["station"]),
                    meter=record["meter"].strip(),
                    value=int(record["value"]),
                    line=line,
                )
            )
        except (TypeError, ValueError, AttributeError):
            errors.append(str(_("ligne %(n)s : numéro de poste ou valeur illisible.") % {"n": line}))
    if errors:
        raise ReadingErrors(errors)
    return rows


EVENT_COLUMNS = ("machine", "event", "at")


def parse_events_csv(text: str, tz: datetime.tzinfo) -> list[EventRow]:
    """The monitoring system's export: machine, event (door_open, bill_box_open, socle_open,
    ram_reset), at ("AAAA-MM-JJ HH:MM[:SS]", the establishment's clock)."""
    reader = csv.DictReader(io.StringIO(text), dialect=csv.Sniffer().sniff(text[:2048], delimiters=",;"))
    if reader.fieldnames is None or [f.strip().lower() for f in reader.fieldnames][:3] != list(EVENT_COLUMNS):
        raise ValidationError(_("En-tête attendu : %(h)s.") % {"h": ",".join(EVENT_COLUMNS)})
    rows, errors = [], []
    for record in reader:
        try:
            at = datetime.datetime.fromisoformat(record["at"].strip()).replace(tzinfo=tz)
            rows.append(EventRow(record["machine"].strip(), record["event"].strip(), at, reader.line_num))
        except (TypeError, ValueError, AttributeError):
            errors.append(str(_("ligne %(n)s : date et heure illisibles.") % {"n": reader.line_num}))
    if errors:
        raise ReadingErrors(errors)
    return rows


def decode(upload) -> str:
    data = upload.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")
