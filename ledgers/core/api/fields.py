"""Dates and times of the API's inputs: within the years a register's facts can plausibly fall in,
so that a year 1 or 9999 is a 400 naming its field rather than a 500 or a page of the register."""

import datetime

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

# From the oldest paper register a house takes over to the latest date an approval or an arrêté
# may be given until.
EARLIEST = datetime.date(1950, 1, 1)
LATEST = datetime.date(2099, 12, 31)
OUT_OF_RANGE = _("Date hors des limites plausibles : du %(earliest)s au %(latest)s.")


def _out_of_range(field: serializers.Field) -> None:
    field.fail("out_of_range", earliest=EARLIEST.strftime("%d/%m/%Y"), latest=LATEST.strftime("%d/%m/%Y"))


class DateTimeField(serializers.DateTimeField):
    default_error_messages = {"out_of_range": OUT_OF_RANGE}

    def to_internal_value(self, value) -> datetime.datetime:
        try:  # a year 1 in a zone ahead of UTC is before year 1 in UTC
            parsed = super().to_internal_value(value)
        except OverflowError:
            _out_of_range(self)
        if not EARLIEST <= parsed.date() <= LATEST:
            _out_of_range(self)
        return parsed


class DateField(serializers.DateField):
    default_error_messages = {"out_of_range": OUT_OF_RANGE}

    def to_internal_value(self, value) -> datetime.date:
        parsed = super().to_internal_value(value)
        if not EARLIEST <= parsed <= LATEST:
            _out_of_range(self)
        return parsed
