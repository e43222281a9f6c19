"""What the slots app wires into the extension points of the apps below it: the séance opening
checks (SLOT-38 the JPM's 28 S line, SLOT-50 the room's staffing), the séance closing checks
(SLOT-36, 38 the progressives' readings, SLOT-44 expired tickets posted, SLOT-46 the general
counts, SLOT-48 and 49 the change points; MC REG-25, SLOT-15 the day's
intervention sheets handed over), the certified modèle 35 total the carnet des
prélèvements takes, and the fleet of machines that carry the art. 68-11 displays."""

import datetime
from collections.abc import Iterator

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.authority.displays import Fleet, declare_fleet
from ledgers.core.errors import RuleViolation
from ledgers.core.hooks import SLOT_STATEMENT_TOTAL, Missing, on_seance_closing, on_seance_opening, provides_month_total
from ledgers.core.models import Establishment, Seance
from ledgers.core.readable import euros
from ledgers.core.roles import Role
from ledgers.core.selectors import counted_together, last_open_of_day, others_open_that_day

from . import selectors
from .models import DailyTransmittal, Intervention, Machine
from .services.accounting import month_slot_total
from .services.counts import denominations_without_general_count
from .services.progressives import active_progressives
from .services.staffing import ARTICLE, fleet_threshold, staffing_of
from .services.unclaimed import expired_unposted

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
def progressives_recorded(seance: Seance) -> Iterator[Missing]:
    """SLOT-36: the last séance of the gaming day closes only when every active progressive's
    displayed amount is in the register; SLOT-38: and every JPM's 28 S line of the day."""
    est = seance.establishment
    if est.jurisdiction != "FR" or not last_open_of_day(seance):
        return
    # Only the jackpots in service on that day (created on or before it).
    started = {"created_at__date__lte": seance.date}
    for progressive in active_progressives(est, multisite=False).filter(**started).exclude(readings__day=seance.date):
        yield Missing(
            _("montant affiché du jackpot progressif %(code)s à la fermeture") % {"code": progressive.code},
            "SLOT-36",
            reverse("slots:progressive_reading"),
        )
    for jackpot in active_progressives(est, multisite=True).filter(**started).exclude(jpm_readings__day=seance.date):
        yield Missing(
            _("relevé du JPM %(code)s au modèle 28 S") % {"code": jackpot.code}, "SLOT-38", reverse("slots:jpm_reading")
        )


@on_seance_closing
def expired_tickets_posted(seance: Seance) -> Iterator[Missing]:
    """SLOT-44: the séance closes only once the expiry run has posted every expired ticket."""
    if seance.establishment.jurisdiction == "FR" and expired_unposted(seance.establishment).exists():
        yield Missing(_("tickets périmés à inscrire aux orphelins"), "SLOT-44", reverse("slots:tickets_expire"))


@on_seance_closing
def denominations_counted(seance: Seance) -> Iterator[Missing]:
    for denomination in denominations_without_general_count(seance):
        yield Missing(
            _("comptée générale des machines de %(d)s € en fin de séance") % {"d": euros(denomination)},
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


@on_seance_closing
def intervention_sheets_handed_over(seance: Seance) -> Iterator[Missing]:
    """MC REG-25: the establishment's closing (its last séance open that day) waits for the day's
    intervention sheets handed over in their envelope (SLOT-15). Flagged only, where the envelope
    cannot be made: a sheet opened after it was handed over (the day has one envelope), or an
    intervention still under way (its sheet is not closed)."""
    est = seance.establishment
    if est.jurisdiction != "MC":
        return
    sheets = selectors.sheets_of_day(est, seance.date)
    counted = counted_together(  # every fact of the day in one query
        other_seances=others_open_that_day(seance),
        loose=sheets.filter(transmittal__isnull=True),
        envelope=DailyTransmittal.objects.filter(establishment=est, date=seance.date),
        under_way=sheets.filter(status=Intervention.Status.OPEN),
    )
    if counted["other_seances"] or not counted["loose"]:  # not the day's closing, or nothing to hand over
        return
    if counted["envelope"]:
        what, flag = _("fiche d'intervention du jour hors de l'enveloppe remise"), True
    elif counted["under_way"]:
        what, flag = _("fiches d'intervention du jour non remises : une intervention est en cours"), True
    else:
        what, flag = _("fiches d'intervention du jour à remettre à la Direction de l'exploitation"), False
    yield Missing(what, "SLOT-15", reverse("slots:transmittal"), flag=flag)


@on_seance_opening
def jpm_read_before_opening(establishment: Establishment, date: datetime.date) -> None:
    """SLOT-38: a member casino's séance opens only once every JPM in service has the day's modèle
    28 S line (filled "before the opening", art. 68-20-2)."""
    if establishment.jurisdiction != "FR":
        return
    unread = (
        active_progressives(establishment, multisite=True)
        .filter(created_at__date__lte=date)
        .exclude(jpm_readings__day=date)
        .order_by("code")
    )
    if codes := [jackpot.code for jackpot in unread]:
        raise RuleViolation(
            "SLOT-38",
            _("Le registre modèle 28 S est renseigné avant l'ouverture : relevé du %(d)s manquant pour %(c)s.")
            % {"d": f"{date:%d/%m/%Y}", "c": ", ".join(codes)},
        )


@on_seance_opening
def room_staffed(establishment: Establishment, date: datetime.date) -> None:
    """SLOT-50: with machines in operation, the séance (the room's opening act) opens only with the
    day's staffing and, above SET-43 machines, its mechanic."""
    if establishment.jurisdiction != "FR" or not (machines := selectors.installed_count(establishment)):
        return
    staffing = staffing_of(establishment, date)
    threshold = fleet_threshold(establishment)
    if staffing is None:
        raise RuleViolation(
            "SLOT-50",
            _("Personnel de la salle des machines non inscrit pour le %(d)s. ") % {"d": f"{date:%d/%m/%Y}"}
            + str(ARTICLE % {"n": threshold}),
        )
    if machines > threshold and staffing.maintainer_role != Role.MECANICIEN:
        raise RuleViolation(
            "SLOT-50",
            _("%(m)s machines en exploitation : un mécanicien est présent (plus de %(n)s machines).")
            % {"m": machines, "n": threshold},
        )
