"""FR rules displays (REG-23, SET-32) and the slot devices of art. 68-11 (SLOT-29), as data: which
items a table of each game, a table running the bad beat jackpot and a slot machine must have
posted, with the requirement and article each comes from; and the checks that refuse a table
opening, a BBJ starting or a machine going in service while one is missing."""

import datetime
from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from ledgers.core.errors import RuleViolation
from ledgers.core.games import Family
from ledgers.core.models import Establishment, GamingTable

from .models import DisplayItem, RulesDisplay

I = DisplayItem  # noqa: E741


@dataclass(frozen=True)
class Required:
    item: str
    code: str
    article: str


_ART_35 = "Arrêté du 30 décembre 2014 art. 15 (art. 35 %s)"
# Per game: the texts displayed at each table of it (art. 35 A and C 7° ter c–e) and the rake
# rate of the poker tables (57-2, COUNT-20).
TABLE_ITEMS: dict[str, tuple[Required, ...]] = {
    "roue_chance": (Required(I.ROUE_RULES, "REG-23", _ART_35 % "A"),),
    "ultimate_holdem": (Required(I.ART_55_20, "REG-23", _ART_35 % "C 7° ter c"),),
    "three_card_poker": (Required(I.ART_55_21, "REG-23", _ART_35 % "C 7° ter d"),),
    "rampo": (Required(I.ART_55_22, "REG-23", _ART_35 % "C 7° ter e"),),
    "texas_holdem": (Required(I.RAKE_RATE, "COUNT-20", "Arrêté du 14 mai 2007 art. 57-2"),),
}
BBJ_ITEMS = (Required(I.BBJ_INCREMENT, "REG-23", "Arrêté du 14 mai 2007 art. 56-3-1 (COUNT-45)"),)
_SLOT_DISPLAY = "Arrêté du 14 mai 2007 art. 68-11 (SLOT-29)"
_SLOT_DEVICE = "Arrêté du 14 mai 2007 art. 68-11"
MACHINE_ITEMS = (
    Required(I.SLOT_FRONT_LIGHT, "SLOT-29", _SLOT_DEVICE),
    Required(I.SLOT_LOCK, "SLOT-29", _SLOT_DEVICE),
    Required(I.SLOT_TOP_LIGHT, "SLOT-29", _SLOT_DEVICE),
    Required(I.SLOT_RULES, "REG-23", _SLOT_DISPLAY),
    Required(I.SLOT_STAKE, "REG-23", _SLOT_DISPLAY),
    Required(I.SLOT_PAYOUTS, "REG-23", _SLOT_DISPLAY),
)


def runs_bad_beat(table: GamingTable) -> bool:
    return hasattr(table, "bad_beat_jackpot")


def table_items(table: GamingTable, *, with_bbj: bool | None = None) -> tuple[Required, ...]:
    """The displays a FR table needs: its game's, and the BBJ's where the table runs one (or, with
    ``with_bbj``, where a cercle table may run one)."""
    if table.establishment.jurisdiction != "FR":
        return ()
    bbj = runs_bad_beat(table) if with_bbj is None else with_bbj and table.game_info.family == Family.CERCLE
    return TABLE_ITEMS.get(table.game, ()) + (BBJ_ITEMS if bbj else ())


def machine_items(machine) -> tuple[Required, ...]:
    return MACHINE_ITEMS if machine.establishment.jurisdiction == "FR" else ()


def posted_items(*, table: GamingTable | None = None, machine=None) -> set[str]:
    lines = (
        RulesDisplay.objects.filter(table=table) if table is not None else RulesDisplay.objects.filter(machine=machine)
    )
    return set(lines.values_list("item", flat=True))


def missing(required: tuple[Required, ...], posted: set[str]) -> list[Required]:
    return [r for r in required if r.item not in posted]


def _refuse(gaps: list[Required], subject: str) -> None:
    if gaps:
        first = gaps[0]
        raise RuleViolation(
            first.code,
            _("%(subject)s : affichage ou dispositif manquant au registre des affichages — %(items)s.")
            % {"subject": subject, "items": " ; ".join(str(DisplayItem(g.item).label) for g in gaps)},
            article=first.article,
        )


def require_table_displays(table: GamingTable) -> None:
    """REFUSE opening a FR table (activating its game) before its displays are posted (REG-23)."""
    required = table_items(table)
    if required:
        _refuse(missing(required, posted_items(table=table)), _("Table %(n)s") % {"n": table.number})


def require_bbj_displays(table: GamingTable) -> None:
    """REFUSE starting the bad beat jackpot at a table before its increment conditions and rate
    are displayed there (REG-23, COUNT-45)."""
    _refuse(missing(BBJ_ITEMS, posted_items(table=table)), _("Table %(n)s") % {"n": table.number})


def require_machine_displays(machine) -> None:
    """REFUSE a FR machine in service without the three devices of art. 68-11 and the rules,
    stake and payouts displayed (SLOT-29, REG-23)."""
    required = machine_items(machine)
    if required:
        _refuse(missing(required, posted_items(machine=machine)), _("Machine %(n)s") % {"n": machine.number})


@dataclass(frozen=True)
class Fleet:
    """How this app reaches the slot machines that carry displays: the slots app declares it when
    ready, as it sits above this one. ``machines`` every machine of an establishment, ``active``
    those not retired, ``in_service_at`` how many were in service at a moment (history)."""

    machines: Callable[[Establishment], QuerySet]
    active: Callable[[Establishment], QuerySet]
    in_service_at: Callable[[Establishment, datetime.datetime], int]


_fleets: list[Fleet] = []


def declare_fleet(fleet: Fleet) -> Fleet:
    _fleets[:] = [fleet]
    return fleet


def no_machines() -> QuerySet:
    """The empty queryset of the model a display line names as its machine."""
    return RulesDisplay._meta.get_field("machine").related_model.objects.none()


def machines(establishment: Establishment) -> QuerySet:
    return _fleets[0].machines(establishment) if _fleets else no_machines()


def active_machines(establishment: Establishment) -> QuerySet:
    return _fleets[0].active(establishment) if _fleets else no_machines()


def machines_in_service_at(establishment: Establishment, moment: datetime.datetime) -> int:
    return _fleets[0].in_service_at(establishment, moment) if _fleets else 0
