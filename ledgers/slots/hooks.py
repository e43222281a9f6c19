"""The séance closes only once every denomination counted during it has its general count at the
séance's end (FR-2007 art. 68-24, SLOT-46)."""

from collections.abc import Iterator

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.core.hooks import Missing, on_seance_closing
from ledgers.core.models import Seance

from .counts import denominations_without_general_count


@on_seance_closing
def denominations_counted(seance: Seance) -> Iterator[Missing]:
    for denomination in denominations_without_general_count(seance):
        yield Missing(_("comptée générale des machines de %(d)s € en fin de séance") % {"d": denomination},
                      "SLOT-46", reverse("slots:counts"))
