"""AUTH-03: the figures an application to open or renew the authorisation states (003 art. 4, 5
(6, 7)) — per game, the tables installed and the minimum stake of the arrêté; the slot machines
installed; the electronic forms of table games operated — reproduced at any date from the
audited history of the tables, the arrêté d'autorisation then in force (its tables per game and in
all, beside those installed, and its minimum stakes, else the establishment's SET-08 then) and the
machines, and from the declarations (5°) implemented by then."""

import datetime
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from zoneinfo import ZoneInfo

from ledgers.core.games import GAMES
from ledgers.core.models import Establishment, GamingTable

from . import displays
from .models import Arrete, Declaration
from .selectors import arrete_in_force, authorised_minimums, declarations_of


@dataclass(frozen=True)
class GameFigures:
    game: str
    label: str
    tables: int
    authorised_tables: int | None  # None: the arrêté in force does not name the game
    authorised_minimum: Decimal | None


@dataclass(frozen=True)
class AuthorisationFigures:
    on: datetime.date
    arrete: Arrete | None
    games: list[GameFigures]
    slot_machines: int
    electronic_forms: list[Declaration]

    @property
    def tables(self) -> int:
        return sum(g.tables for g in self.games)


# AUTH-03: the dossier's figures at any date.
def authorisation_figures(establishment: Establishment, on: datetime.date) -> AuthorisationFigures:
    """The figures as they stood at the end of ``on`` (the establishment's local day)."""
    moment = datetime.datetime.combine(on, datetime.time.max, tzinfo=ZoneInfo(establishment.timezone))
    tables = Counter(t.game for t in GamingTable.history.as_of(moment).filter(establishment=establishment, active=True))
    then = Establishment.history.as_of(moment).filter(pk=establishment.pk).first()
    arrete = arrete_in_force(establishment, on)
    authorised = {line.game: line.tables for line in arrete.games.all()} if arrete is not None else {}
    minimums = authorised_minimums(arrete, then.setting("SET-08") if then is not None else None)
    games = [
        GameFigures(
            game=code,
            label=str(GAMES[code].label) if code in GAMES else code,
            tables=tables[code],
            authorised_tables=authorised.get(code),
            authorised_minimum=minimums.get(code),
        )
        for code in sorted(set(tables) | set(authorised) | set(minimums))
    ]
    # SLOT-28: the slot machines installed (in service) on that day.
    machines = displays.machines_in_service_at(establishment, moment)
    electronic = list(
        declarations_of(establishment)
        .filter(operation=Declaration.Operation.ELECTRONIC, implementation_date__lte=on)
        .order_by("number")
    )
    return AuthorisationFigures(on=on, arrete=arrete, games=games, slot_machines=machines, electronic_forms=electronic)
