"""The purpose a key already out at the take-over is recorded for: the inventory that took it over
from the paper register of keys. No ordinary hand-over names it (``issuable=False``); the copy is
late once its due time from paper has passed, like any other."""

from operator import attrgetter

from django.utils.translation import gettext_lazy as _

from ledgers.keys.purposes import PurposeKind, PurposeType, purpose_type

from .models import Inventory

TAKEOVER_PURPOSE = purpose_type(
    PurposeType(
        code="takeover.inventory",
        kind=PurposeKind.TAKEOVER,
        label=_("Reprise de l'existant"),
        model="takeover.Inventory",
        is_open=lambda inventory: inventory.status == Inventory.Status.POSTED,
        establishment=attrgetter("establishment"),
        describe=str,
        open_objects=lambda est: Inventory.objects.none(),
        issuable=False,
        still_open=lambda est: Inventory.objects.filter(establishment=est, status=Inventory.Status.POSTED),
    )
)
