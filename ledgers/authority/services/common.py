"""What the authority services share: the French-only and required-text checks, local dates."""

import datetime
import logging

from django.core.exceptions import ValidationError
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import Establishment

logger = logging.getLogger(__name__)


def _require_fr(establishment: Establishment, what: str | Promise) -> None:
    if establishment.jurisdiction != "FR":
        raise ValidationError(_("%(what)s n'est tenu que dans les casinos français.") % {"what": what})


def _required(**texts: str) -> dict[str, str]:
    cleaned = {name: (value or "").strip() for name, value in texts.items()}
    missing = {name: _("Ce champ est obligatoire.") for name, value in cleaned.items() if not value}
    if missing:
        raise ValidationError(missing)
    return cleaned


def _local(establishment: Establishment, moment: datetime.datetime) -> str:
    return establishment.localtime(moment).strftime("%Y-%m-%d %H:%M")
