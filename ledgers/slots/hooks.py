"""What the slots app wires into the extension points of the apps below it: the séance opening
checks (SLOT-38 the JPM's 28 S line, SLOT-50 the room's staffing), the séance closing checks
(SLOT-36, 38 the progressives' readings, SLOT-44 expired tickets posted, SLOT-46 the general
counts, SLOT-48 and 49 the change points; MC REG-25, SLOT-15 the day's
intervention sheets handed over), the certified modèle 35 total the carnet des
prélèvements takes, and the fleet of machines that carry the art. 68-11 displays."""

import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import DateTimeField, Exists, OuterRef
from django.db.models.functions import TruncDate
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.authority.displays import Fleet, declare_fleet
from ledgers.core.errors import RuleViolation
from ledgers.core.expressions import ArraySubquery
from ledgers.core.hooks import (
    SLOT_STATEMENT_TOTAL,
    Missing,
    on_seance_closing,
    on_seance_opening,
    per_seance_of,
    provides_month_total,
    seance_fact_values,
    seance_zone_facts,
)
from ledgers.core.models import Establishment, Seance
from ledgers.core.prepared import Bound, Prepared
from ledgers.core.readable import euros
from ledgers.core.roles import Role
from ledgers.core.selectors import others_open_that_day

from . import selectors
from .models import (
    ChangePoint,
    DailyTransmittal,
    Intervention,
    JpmReading,
    Machine,
    Progressive,
    ProgressiveReading,
)
from .services.accounting import month_slot_total
from .services.cashdesk import desks_unstaffed, points_to_restore
from .services.counts import denominations_uncounted
from .services.progressives import active_progressives
from .services.staffing import ARTICLE, fleet_threshold, staffing_of
from .services.unclaimed import issued_before, valid_since

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


@dataclass(frozen=True)
class SeanceDay:
    """What a séance's closing reads of it and of its day: another séance of the house still open
    that day (closing this one does not close the gaming day), the denominations counted with no
    general count after (SLOT-46), the change points to restore (SLOT-49); FR the slot desks with no
    cashier named (SLOT-48), the codes of the active progressives (SLOT-36) and JPMs (SLOT-38) not
    read that day, expired tickets not yet posted; MC the day's intervention sheets not in an
    envelope, an envelope already handed over, a sheet still open."""

    others_open: bool
    uncounted: list[Decimal] = field(default_factory=list)
    to_restore: list[ChangePoint] = field(default_factory=list)
    unstaffed: list[ChangePoint] = field(default_factory=list)
    progressives_unread: list[str] = field(default_factory=list)
    jpms_unread: list[str] = field(default_factory=list)
    expired: bool = False
    loose: bool = False
    envelope: bool = False
    under_way: bool = False


def _by_house(seances: list[Seance]) -> list[list[Seance]]:
    houses: dict[int, list[Seance]] = {}
    for seance in seances:
        houses.setdefault(seance.establishment_id, []).append(seance)
    return list(houses.values())


def _unread(readings: type[JpmReading | ProgressiveReading], progressive: str) -> ArraySubquery:
    """The codes of the séance's house's active progressives (the JPMs when ``readings`` is
    ``JpmReading``) in service on its day (created on or before it) whose amount is not read that day."""
    read = readings.objects.filter(**{progressive: OuterRef("pk")}, day=OuterRef(OuterRef("date")))
    active = Progressive.objects.filter(
        establishment=OuterRef("establishment"), status=Progressive.Status.ACTIVE, multisite=readings is JpmReading
    ).alias(created_on=TruncDate("created_at"))
    unread = active.filter(created_on__lte=OuterRef("date")).exclude(Exists(read))
    return ArraySubquery(unread.order_by("code").values("code"))


@seance_zone_facts
def zone_facts(jurisdiction: str, zone: str) -> dict[str, Any]:
    """What ``SeanceDay`` reads of each séance of a house of ``jurisdiction`` on the clock ``zone``
    (its day's sheets), as annotations of a query on séances: they name no house, day or setting."""
    facts = {
        "others_open": Exists(others_open_that_day(OuterRef("establishment"), OuterRef("date"), OuterRef("pk"))),
        "uncounted": denominations_uncounted(OuterRef("pk")),
        "to_restore": points_to_restore(OuterRef("pk")),
    }
    if jurisdiction == "FR":
        facts |= {
            "unstaffed": desks_unstaffed(OuterRef("pk"), OuterRef("establishment"), OuterRef("opened_at")),
            "progressives_unread": _unread(ProgressiveReading, "progressive"),
            "jpms_unread": _unread(JpmReading, "jackpot"),
            "expired": Exists(issued_before(OuterRef("establishment"), Bound("tickets_valid_since", DateTimeField()))),
        }
    if jurisdiction == "MC":
        day = TruncDate("stopped_at", tzinfo=ZoneInfo(zone))
        sheets = Intervention.objects.filter(machine__establishment=OuterRef("establishment"))
        sheets = sheets.alias(day=day).filter(day=OuterRef("date"))
        envelopes = DailyTransmittal.objects.filter(establishment=OuterRef("establishment"), date=OuterRef("date"))
        facts |= {
            "loose": Exists(sheets.filter(transmittal__isnull=True)),
            "envelope": Exists(envelopes),
            "under_way": Exists(sheets.filter(status=Intervention.Status.OPEN)),
        }
    return facts


@seance_fact_values
def house_values(est: Establishment) -> dict[str, Any]:
    """The values of the parameters of ``zone_facts`` that depend on the house's day and settings:
    FR the start of the tickets still valid (those issued before it expired)."""
    return {"tickets_valid_since": valid_since(est)} if est.jurisdiction == "FR" else {}


def day_facts(est: Establishment) -> dict[str, Any]:
    """What ``SeanceDay`` reads of each séance of ``est``, as annotations of a query on its séances
    (with ``Bound`` parameters, whose values ``house_values`` gives)."""
    return zone_facts(est.jurisdiction, est.timezone)


def _day_of(facts: dict[str, Any]) -> SeanceDay:
    """``SeanceDay`` from the values of ``day_facts``; the change points named as their rows say."""
    for points in ("to_restore", "unstaffed"):
        if points in facts:
            facts[points] = [ChangePoint(kind=point["kind"], name=point["name"]) for point in facts[points]]
    return SeanceDay(**facts)


# The names of ``day_facts`` by jurisdiction (its facts differ only by it): whether the séances
# were read with them is asked without building a dozen expressions only to read their names.
_fact_names: dict[str, list[str]] = {}


def seance_days(seances: list[Seance]) -> dict[int, SeanceDay]:
    """``SeanceDay`` of each séance: read with the séances when they were (``day_facts``, the home's
    open séances), else in one query per house (its clock dates the sheets)."""
    days = {}
    for group in _by_house(seances):
        est = group[0].establishment
        if est.jurisdiction not in _fact_names:
            _fact_names[est.jurisdiction] = list(day_facts(est))
        names = _fact_names[est.jurisdiction]
        if all(hasattr(seance, name) for seance in group for name in names):
            days |= {seance.pk: _day_of({name: getattr(seance, name) for name in names}) for seance in group}
            continue
        found = Seance.objects.filter(pk__in=[seance.pk for seance in group])
        # The facts hold ``Bound`` parameters (the house's day): a prepared query gives their values.
        rows = Prepared(found.annotate(**day_facts(est)).values("pk", *names)).read(**house_values(est))
        days |= {row.pop("pk"): _day_of(row) for row in rows}
    return days


def _day(seance: Seance) -> SeanceDay:
    return per_seance_of("slots.seance_day", seance, seance_days, SeanceDay(others_open=False))


@on_seance_closing
def progressives_recorded(seance: Seance) -> Iterator[Missing]:
    """SLOT-36: the last séance of the gaming day closes only when every active progressive's
    displayed amount is in the register; SLOT-38: and every JPM's 28 S line of the day."""
    est = seance.establishment
    day = _day(seance)
    if est.jurisdiction != "FR" or day.others_open:
        return
    for code in day.progressives_unread:
        yield Missing(
            _("montant affiché du jackpot progressif %(code)s à la fermeture") % {"code": code},
            "SLOT-36",
            reverse("slots:progressive_reading"),
        )
    for code in day.jpms_unread:
        yield Missing(
            _("relevé du JPM %(code)s au modèle 28 S") % {"code": code}, "SLOT-38", reverse("slots:jpm_reading")
        )


@on_seance_closing
def expired_tickets_posted(seance: Seance) -> Iterator[Missing]:
    """SLOT-44: the séance closes only once the expiry run has posted every expired ticket."""
    if seance.establishment.jurisdiction == "FR" and _day(seance).expired:
        yield Missing(_("tickets périmés à inscrire aux orphelins"), "SLOT-44", reverse("slots:tickets_expire"))


@on_seance_closing
def denominations_counted(seance: Seance) -> Iterator[Missing]:
    for denomination in _day(seance).uncounted:
        yield Missing(
            _("comptée générale des machines de %(d)s € en fin de séance") % {"d": euros(denomination)},
            "SLOT-46",
            reverse("slots:counts"),
        )


@on_seance_closing
def encaisses_restored(seance: Seance) -> Iterator[Missing]:
    """Every change point worked during the séance has its encaisse restored (SLOT-49); FR the slot
    desk had its named cashier (SLOT-48)."""
    day = _day(seance)
    for point in day.to_restore:
        yield Missing(
            _("encaisse de %(point)s à reconstituer") % {"point": point}, "SLOT-49", reverse("slots:cashdesk")
        )
    for point in day.unstaffed:
        yield Missing(_("caissier nommé pour %(point)s") % {"point": point}, "SLOT-48", reverse("slots:cashdesk"))


@on_seance_closing
def intervention_sheets_handed_over(seance: Seance) -> Iterator[Missing]:
    """MC REG-25: the establishment's closing (its last séance open that day) waits for the day's
    intervention sheets handed over in their envelope (SLOT-15). Flagged only, where the envelope
    cannot be made: a sheet opened after it was handed over (the day has one envelope), or an
    intervention still under way (its sheet is not closed)."""
    if seance.establishment.jurisdiction != "MC":
        return
    day = _day(seance)
    if day.others_open or not day.loose:  # not the day's closing, or nothing to hand over
        return
    if day.envelope:
        what, flag = _("fiche d'intervention du jour hors de l'enveloppe remise"), True
    elif day.under_way:
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
