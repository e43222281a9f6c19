"""What waits for the slot superviseur and mechanic: open relèves, open interventions, meter
incidents, flagged counts, (MC) days whose sheets are not handed over yet, (FR) machines overdue
for their SFM revision visit (SLOT-54), (MC) an outdated Secrétariat Général copy (SLOT-08); (FR) for
the cashier and the comité too: SCCJ transmissions overdue (SLOT-39), relèves without their
état de rapprochement (SLOT-43), expired tickets not yet posted to orphans (SLOT-44), wins paid at the cash desk
awaiting their modèle 29 visa (the jackpots to control, SLOT-35, SLOT-55), the month-end count due
on the month's last day (SLOT-46); (FR) today's slot-room staffing not recorded (SLOT-50).

The main acts of the slot room: the superviseur reads the meters (a relève), the mechanic opens a
machine on an intervention sheet, the FR cashier pays a win at the cash desk, the MC cashier and
accounts count the machines' drop (a comptée); an act under way is offered to be continued."""

import datetime
import functools

from django.db.models import DateField, DateTimeField, Sum
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.charts import chart, month_end
from ledgers.core.dashboard import MainAct, Panel, dashboard_panel, main_acts
from ledgers.core.models import Establishment
from ledgers.core.prepared import Bound, Prepared, PreparedCounts
from ledgers.core.roles import Role

from . import selectors
from .models import DropCount, Intervention, JackpotPayment, Machine, ReconciliationLine, Releve, SlotCount
from .services import accounting, counts, jpm, staffing, unclaimed
from .services.payments import PAY_ROLES

CONCERNED = {
    Role.SUPERVISEUR,
    Role.MECANICIEN,
    Role.DIRECTEUR_EXPLOITATION,
    Role.TECHNICIEN_SFM,
    Role.CAISSIER,
    Role.COMITE,
    Role.DIRECTEUR_RESPONSABLE,
}


@functools.cache
def _counts(jurisdiction: str, month_end: bool) -> PreparedCounts:
    """What the panel counts in a house of ``jurisdiction``, on the month's last day or not, in one
    query compiled once (the house, its day and FR the start of the tickets still valid are
    ``Bound``): compiling the counts' subqueries cost more than running them."""
    house, today = Bound("house"), Bound("today", DateField())
    fr = {
        "unreconciled": unclaimed.awaiting_reconciliation(house),
        "expired": unclaimed.issued_before(house, Bound("tickets_valid_since", DateTimeField())),
        **staffing.staffing_counts(house, today),
    }
    return PreparedCounts(
        **({"month_end": counts.month_end_counts_on(house, today)} if month_end else {}),
        incidents=selectors.meter_incidents(house),
        flagged=selectors.flagged_counts(house),
        events=selectors.flagged_events(house),
        **(fr if jurisdiction == "FR" else {}),
    )


@functools.cache
def _listed() -> tuple[Prepared[Releve], Prepared[Intervention], Prepared[JackpotPayment]]:
    """The panel's lists in a house (``Bound`` "house"), each compiled once: the open relèves, the
    open interventions, FR the wins paid at the cash desk still to post (the first 20)."""
    house = Bound("house")
    return (
        Prepared(selectors.open_releves(house)),
        Prepared(selectors.open_interventions(house)),
        Prepared(accounting.payments_to_post(house)[:20]),
    )


@dashboard_panel
def slots_waiting(request: HttpRequest, establishment: Establishment) -> Panel | None:
    if not roles_of(request.user, establishment) & CONCERNED:
        return None
    today, fr = establishment.localtime().date(), establishment.jurisdiction == "FR"
    month_end = fr and counts.is_last_day(today)
    counted = _counts(establishment.jurisdiction, month_end).read(
        house=establishment.pk,
        today=today,
        **({"tickets_valid_since": unclaimed.valid_since(establishment, today)} if fr else {}),
    )
    releves, interventions, to_post = _listed()
    context = {
        "releves": releves.read(house=establishment.pk),
        "interventions": interventions.read(house=establishment.pk),
        "incidents": counted["incidents"],
        "flagged": counted["flagged"],
        "untransmitted": selectors.untransmitted_days(establishment) if establishment.jurisdiction == "MC" else [],
        "overdue": selectors.overdue_revisions(establishment),
        "copy_overdue": selectors.files_copy_overdue(establishment),
        "events": counted["events"],
        # FR: SCCJ transmissions overdue (SLOT-39), relèves waiting for their modèle 31 (SLOT-43),
        # tickets to expire (SLOT-44).
        "transmissions": jpm.transmissions_due(establishment) if establishment.jurisdiction == "FR" else [],
        "unreconciled": counted.get("unreconciled", 0),
        "expired": counted.get("expired", 0),
        # FR: wins paid at the cash desk not yet in modèle 29 with the comité visa (the jackpots to
        # control, SLOT-35, SLOT-55); on the month's last day, the month-end count not closed (SLOT-46).
        "to_post": to_post.read(house=establishment.pk) if fr else [],
        "month_end_due": month_end and not counted["month_end"],
        # FR: machines in operation and no staffing for today yet (SLOT-50).
        "unstaffed": staffing.staffing_missing(counted),
    }
    if not any(context.values()):
        return None
    return Panel(_("Machines à sous"), "slots/_panel_waiting.html", context, order=50)


@main_acts
def slot_room_acts(request: HttpRequest, establishment: Establishment) -> list[MainAct]:
    roles, est = roles_of(request.user, establishment), establishment
    acts = []
    if Role.SUPERVISEUR in roles:
        acts.append(MainAct(_("Relever les compteurs (nouvelle relève)"), url=reverse("slots:releve_open")))
        releve = selectors.open_releves(est).first()
        if releve is not None:
            acts.append(MainAct(_("Continuer la relève en cours"), url=reverse("slots:releve", args=[releve.pk])))
        if Role.SUPERVISEUR in PAY_ROLES[est.jurisdiction]:
            acts.append(MainAct(_("Payer un jackpot"), url=reverse("slots:jackpot")))
    if Role.MECANICIEN in roles:
        mine = selectors.open_interventions(est).filter(technician=request.user).first()
        if mine is not None:
            acts.append(
                MainAct(
                    _("Fin d'intervention — %(m)s") % {"m": mine.machine},
                    url=reverse("slots:intervention_close", args=[mine.pk]),
                )
            )
        acts.append(MainAct(_("Ouvrir une machine (fiche d'intervention)"), url=reverse("slots:intervention_new")))
    if Role.CAISSIER in roles and Role.CAISSIER in PAY_ROLES[est.jurisdiction]:
        acts.append(MainAct(_("Payer un gain de machine à sous"), url=reverse("slots:jackpot"), order=30))
    if roles & {Role.CAISSIER, Role.COMPTABILITE} and est.jurisdiction == "MC":
        count = SlotCount.objects.filter(establishment=est, status=SlotCount.Status.OPEN).order_by("-pk").first()
        if count is not None:
            acts.append(
                MainAct(
                    _("Continuer la comptée des machines"), url=reverse("slots:slot_count", args=[count.pk]), order=30
                )
            )
        else:
            acts.append(MainAct(_("Ouvrir une comptée des machines"), url=reverse("slots:count_open"), order=30))
    return acts


@chart(
    "ecarts-compteurs-machines",
    _("Écarts entre compteurs et comptages du mois, par machine"),
    shown=selectors.has_machines,
)
def meters_against_counts(establishment: Establishment, month: datetime.date) -> tuple[str, list, list]:
    """Machine by machine, the month's differences between what the meters say and what was found:
    MC the drop counted against the meters' deltas (SLOT-11), FR the cash-desk payments against the
    manual-jackpot meters of the états de rapprochement (SLOT-43). Only in a house with slot machines."""
    days = (month, month_end(establishment, month))
    if establishment.jurisdiction == "MC":
        found = DropCount.objects.filter(machine__establishment=establishment, counted_at__date__range=days)
        requirement, difference, gap = "SLOT-11", _("Compté − compteurs (€)"), "variance"
    else:
        found = ReconciliationLine.objects.filter(
            machine__establishment=establishment, reconciliation__drawn_up_at__date__range=days
        )
        requirement, difference, gap = "SLOT-43", _("Compteurs − paiements (€)"), "difference"
    gaps = {row["machine"]: row["total"] for row in found.values("machine").annotate(total=Sum(gap))}
    machines = sorted(Machine.objects.filter(pk__in=gaps), key=lambda machine: machine.number)
    return (
        requirement,
        [_("Machine"), difference],
        [[machine.number, gaps[machine.pk]] for machine in machines],
    )
