"""The séance closes only once every denomination counted during it has its general count at the
séance's end (FR-2007 art. 68-24, SLOT-46), and every change point's encaisse is restored (68-26,
SLOT-49) with, in France, the slot desk's cashier named (SLOT-48); in Monaco the last séance of
the day only once the day's intervention sheets are handed over (REG-25, SLOT-15)."""

from collections.abc import Iterator

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.core.hooks import Missing, on_seance_closing
from ledgers.core.models import Seance
from ledgers.core.selectors import last_open_of_day

from .counts import denominations_without_general_count
from .models import DailyTransmittal, Intervention
from .selectors import sheets_of_day


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
    from .cashdesk import open_assignments, unstaffed_desks

    for assignment in open_assignments(seance):
        yield Missing(
            _("encaisse de %(point)s à reconstituer") % {"point": assignment.point},
            "SLOT-49",
            reverse("slots:cashdesk"),
        )
    for point in unstaffed_desks(seance):
        yield Missing(_("caissier nommé pour %(point)s") % {"point": point}, "SLOT-48", reverse("slots:cashdesk"))


@on_seance_closing
def intervention_sheets_handed_over(seance: Seance) -> Iterator[Missing]:
    """MC REG-25: the establishment's closing (its last séance open that day) waits for the day's
    intervention sheets handed over in their envelope (SLOT-15). Flagged only, where the envelope
    cannot be made: a sheet opened after it was handed over (the day has one envelope), or an
    intervention still under way (its sheet is not closed)."""
    est = seance.establishment
    if (
        est.jurisdiction != "MC"
        or not last_open_of_day(seance)
        or not sheets_of_day(est, seance.date).filter(transmittal__isnull=True).exists()
    ):
        return
    if DailyTransmittal.objects.filter(establishment=est, date=seance.date).exists():
        what, flag = _("fiche d'intervention du jour hors de l'enveloppe remise"), True
    elif sheets_of_day(est, seance.date).filter(status=Intervention.Status.OPEN).exists():
        what, flag = _("fiches d'intervention du jour non remises : une intervention est en cours"), True
    else:
        what, flag = _("fiches d'intervention du jour à remettre à la Direction de l'exploitation"), False
    yield Missing(what, "SLOT-15", reverse("slots:transmittal"), flag=flag)
