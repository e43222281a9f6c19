"""How values print: dates in the establishment's time zone and the reader's language, payload
values (lists, mappings, booleans, ISO dates written as strings) and role names, and the room the
author's name and role take. Without reportlab: the daily report's sections read it at start-up."""

from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.utils.translation import gettext as _

from ledgers.core.models import Establishment
from ledgers.core.readable import readable_text
from ledgers.core.roles import role_label

from ..kinds import key_label
from ..models import SYSTEM_ROLE

# Day first in both languages, the month in words in English (where "03/04" reads both ways).
DATETIME_FORMATS = {"fr": "%d/%m/%Y %H:%M:%S", "en": "%d %b %Y %H:%M:%S"}
DATE_FORMATS = {"fr": "%d/%m/%Y", "en": "%d %b %Y"}


def author_width(columns: tuple) -> float:
    """Room for "name — role" on one line, unless the kind's own columns need it."""
    return 140.0 if len(columns) <= 4 else 100.0


def lookup(payload: Any, key: str) -> Any:
    """The value at a dotted key (``"deck.serial"``) of a payload, or None."""
    if "." not in key:
        return payload.get(key) if isinstance(payload, dict) else None
    value = payload
    for part in key.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


class Formatter:
    """Formats for one document: build it inside ``translation.override``."""

    def __init__(self, establishment: Establishment, lang: str) -> None:
        self.establishment = establishment
        self.tz = ZoneInfo(establishment.timezone)
        self.datetime_format = DATETIME_FORMATS.get(lang, DATETIME_FORMATS["fr"])
        self.minute_format = self.datetime_format.removesuffix(":%S")
        self.date_format = DATE_FORMATS.get(lang, DATE_FORMATS["fr"])
        self.yes, self.no = _("oui"), _("non")
        self._roles: dict[str, str] = {}

    def datetime(self, value: datetime) -> str:
        return value.astimezone(self.tz).strftime(self.datetime_format)

    def date(self, value: date) -> str:
        return value.strftime(self.date_format)

    def role(self, code: str) -> str:
        """The role's name; for an authority, the name its jurisdiction gives it."""
        label = self._roles.get(code)
        if label is None:
            names = self.establishment.profile.authority_names
            if code in names:
                label = str(names[code])
            elif code == SYSTEM_ROLE:
                label = _("Système")
            else:
                label = role_label(code)
            self._roles[code] = label
        return label

    def value(self, value: Any) -> str:
        """A payload value as printed: lists joined, mappings as "key : value", booleans in words,
        ISO dates in the reader's format (datetimes with an offset in the establishment's zone)."""
        if isinstance(value, str):
            return readable_text(value, as_date=self.date, as_datetime=self._moment)
        if value is None:
            return ""
        if isinstance(value, bool):
            return self.yes if value else self.no
        if isinstance(value, list):
            return ", ".join(self.value(item) for item in value)
        if isinstance(value, dict):
            return "; ".join(f"{key_label(key)} : {self.value(item)}" for key, item in value.items())
        return str(value)

    def _moment(self, value: datetime, seconds: bool) -> str:
        if value.tzinfo is not None:
            value = value.astimezone(self.tz)
        return value.strftime(self.datetime_format if seconds else self.minute_format)
