"""Retention (REG-43, SET-39, SET-40, AMB-53): every register is kept for the period (gaming
season in France, 1 November – 31 October) of its entries and the ten periods after, without
exception; the term is computed per entry, and nothing is ever purged automatically."""

import datetime
from dataclasses import dataclass

from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import Establishment
from ledgers.registers.kinds import get_kind
from ledgers.registers.models import Register

# MC texts state no retention: the FR rule applies as best practice (SET-39), cited as such.
ARTICLE = {"FR": "FR-2007 art. 80", "MC": "SET-39 (bonne pratique, comme FR-2007 art. 80)"}


def period_of(establishment: Establishment, day: datetime.date) -> int:
    """The year in which the period (season) holding ``day`` starts."""
    start = establishment.setting("SET-40")
    starts = datetime.date(day.year, start["month"], start["day"])
    return day.year if day >= starts else day.year - 1


def period_bounds(establishment: Establishment, period: int) -> tuple[datetime.date, datetime.date]:
    """First and last day of the period that starts in ``period``."""
    start = establishment.setting("SET-40")
    first = datetime.date(period, start["month"], start["day"])
    return first, datetime.date(period + 1, start["month"], start["day"]) - datetime.timedelta(days=1)


def period_label(establishment: Establishment, period: int) -> str:
    first, last = period_bounds(establishment, period)
    return str(period) if first.year == last.year else f"{first.year}-{last.year}"


@dataclass(frozen=True)
class RetentionPolicy:
    """How long a register kind is kept here: its period and the ``periods`` after (REG-43)."""

    kind: str
    periods: int
    article: str

    def term(self, establishment: Establishment, day: datetime.date) -> datetime.date:
        """The last day an entry recorded on ``day`` must still be kept."""
        return period_bounds(establishment, period_of(establishment, day) + self.periods)[1]


def policy_for(establishment: Establishment, kind: str) -> RetentionPolicy:
    """The same for every kind: the text allows no exception (art. 80: "sans exception aucune")."""
    get_kind(kind)  # an unknown kind is an error, not a policy
    return RetentionPolicy(
        kind=kind, periods=int(establishment.setting("SET-39")["periods"]), article=ARTICLE[establishment.jurisdiction]
    )


def retention_end(register: Register) -> datetime.date | None:
    """The last day the register must be kept: the term of its last entry (None: no entry)."""
    last = register.entries.aggregate(last=Max("recorded_at"))["last"]
    if last is None:
        return None
    est = register.establishment
    return policy_for(est, register.kind).term(est, est.localtime(last).date())


def purge_refusal(register: Register, today: datetime.date) -> str | None:
    """Why the register may not be purged on ``today`` (None when its term is over)."""
    end = retention_end(register)
    if end is not None and today <= end:
        return str(
            _(
                "Le registre %(number)s est conservé jusqu'au %(end)s : l'année en cours et les dix "
                "précédentes, sans exception."
            )
            % {"number": register.number, "end": end.strftime("%d/%m/%Y")}
        )
    return None
