from datetime import date, datetime, timedelta
from decimal import Decimal

from django import template
from django.db.models import Model
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

from ledgers.core import readable
from ledgers.core.exports import FORMATS
from ledgers.core.readable import readable_text
from ledgers.core.roles import Role

register = template.Library()


@register.inclusion_tag("includes/export_links.html", takes_context=True)
def export_links(context, name: str) -> dict:
    """The CSV and XLSX links under the page's list ``name`` (its tables marked
    ``data-export="<name>"``), answered by ``ShownListsExportMiddleware``."""
    return {"request": context.get("request"), "export_formats": FORMATS, "export_list": name}


@register.simple_tag
def history_url(obj: Model) -> str:
    """Link to the history page of a tracked object."""
    meta = obj._meta
    return reverse("object-history", args=[meta.app_label, meta.model_name, obj.pk])


@register.filter
def human(value) -> str:
    """A stored value as a reader writes it: lists as lists, numbers and dates in the active locale,
    yes/no in words, nothing as a dash (never a Python repr)."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return _("oui") if value else _("non")
    if isinstance(value, Decimal | float | int):
        return formats.number_format(value, use_l10n=True, force_grouping=True)
    if isinstance(value, datetime | date):
        return formats.localize(value, use_l10n=True)
    if isinstance(value, list | tuple | set):
        return ", ".join(human(v) for v in value) or "—"
    if isinstance(value, dict):
        return " ; ".join(f"{k} : {human(v)}" for k, v in value.items()) or "—"
    if isinstance(value, str):
        return readable_text(value, as_date=_short_date, as_datetime=_short_datetime)
    return str(value)


def _short_date(value: date) -> str:
    return formats.date_format(value, "SHORT_DATE_FORMAT")


def _short_datetime(value: datetime, _seconds: bool) -> str:
    return formats.date_format(
        timezone.localtime(value) if timezone.is_aware(value) else value, "SHORT_DATETIME_FORMAT"
    )


@register.filter
def person(user, role: str = "") -> str:
    """A person as colleagues name them: full name (else login), with the role they acted in."""
    if user is None:
        return "—"
    name = user.get_full_name() or user.get_username() if hasattr(user, "get_full_name") else str(user)
    if role in Role.values:
        return f"{name} ({Role(role).label})"
    return name


@register.filter
def money(value) -> str:
    """An amount in euros in the active locale (grouped, two decimals), whether stored as a number
    or as the text of a register entry's payload."""
    if value is None or value == "":
        return "—"
    try:
        return readable.money(value)
    except ArithmeticError:
        return str(value)


@register.filter
def since(value: datetime | None) -> str:
    """How long something has waited, in words: "depuis 12 jours" (the largest unit only)."""
    if value is None:
        return "—"
    now = timezone.now()
    if now - value < timedelta(minutes=1):  # timesince would say "0 minute"
        return _("depuis moins d'une minute")
    return _("depuis %(age)s") % {"age": timesince(value, now, depth=1)}


@register.filter
def duration(value: timedelta) -> str:
    """A length of time in words: "1 heure", "2 heures, 30 minutes"."""
    now = timezone.now()
    return timesince(now - value, now, depth=2)
