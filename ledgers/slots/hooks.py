"""The séance closes only once every denomination counted during it has its general count at the
séance's end (FR-2007 art. 68-24, SLOT-46), and every change point's encaisse is restored (68-26,
SLOT-49) with, in France, the slot desk's cashier named (SLOT-48)."""

from collections.abc import Iterator

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.authority.displays import Fleet, declare_fleet
from ledgers.core.hooks import SLOT_STATEMENT_TOTAL, Missing, on_seance_closing, provides_month_total
from ledgers.core.models import Seance

from .models import Machine
from .services.accounting import month_slot_total
from .services.counts import denominations_without_general_count

provides_month_total(SLOT_STATEMENT_TOTAL)(month_slot_total)

# The machines carry the art. 68-11 displays and count in the authorisation's figures.
declare_fleet(
    Fleet(
        machines=lambda est: Machine.objects.filter(establishment=est),
        active=lambda est: (
            Machine.objects.filter(establishment=est)
            .exclude(status=Machine.Status.RETIRED)
            .order_by("casino_number", "pk")
        ),
        in_service_at=lambda est, moment: (
            Machine.history.as_of(moment).filter(establishment=est, status=Machine.Status.IN_SERVICE).count()
        ),
    )
)


@on_seance_closing
def denominations_counted(seance: Seance) -> Iterator[Missing]:
    for denomination in denominations_without_general_count(seance):
        yield Missing(
            _("comptée générale des machines de %(d)s € en fin de séance") % {"d": denomination},
            "SLOT-46",
            reverse("slots:counts"),
        )


@on_seance_closing
def encaisses_restored(seance: Seance) -> Iterator[Missing]:
    """Every change point worked during the séance has its encaisse restored (SLOT-49); FR the slot
    desk had its named cashier (SLOT-48)."""
    from .services.cashdesk import open_assignments, unstaffed_desks

    for assignment in open_assignments(seance):
        yield Missing(
            _("encaisse de %(point)s à reconstituer") % {"point": assignment.point},
            "SLOT-49",
            reverse("slots:cashdesk"),
        )
    for point in unstaffed_desks(seance):
        yield Missing(_("caissier nommé pour %(point)s") % {"point": point}, "SLOT-48", reverse("slots:cashdesk"))
