"""AUTH-01, AUTH-03: what allows a French gaming table in service — the arrêté d'autorisation in
force (the total number of tables, the tables of each game) and, beyond it, a prior declaration
implemented (003 art. 7, 9 bis): 3° a new game or 2° tables replaced by a new game's, within the
total; 6° another distribution of the tables, implemented after the arrêté took effect; 7° more
poker tables for a declared tournament, during its dates only. A table put out of service needs
nothing more than an arrêté in force.

A tournament's table is counted apart from the tables the arrêté authorises: it is the table
whose latest ``TableAuthorisation`` names a 7° declaration."""

import datetime
from collections import Counter
from dataclasses import dataclass

from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext_lazy as _

from ledgers.core.errors import RuleViolation
from ledgers.core.games import POKER_GAMES
from ledgers.core.models import GamingTable, TableSession

from .models import Arrete, Declaration, TableAuthorisation
from .selectors import arrete_in_force, declaration_implemented, tournament_declared

TOURNAMENT = Declaration.Operation.POKER_TOURNAMENT


@dataclass(frozen=True)
class Grounds:
    """The arrêté in force and the declaration a table's set-up relies on (None: the arrêté alone)."""

    arrete: Arrete
    declaration: Declaration | None = None


def _authorised_in_service(table: GamingTable) -> Counter:
    """Game → the establishment's other tables in service that the arrêté and the 2°, 3° and 6°
    declarations allow (the tournaments' tables left out)."""
    latest = TableAuthorisation.objects.filter(table=OuterRef("pk")).order_by("-pk").values("declaration__operation")
    others = (
        GamingTable.objects.filter(establishment=table.establishment, active=True)
        .exclude(pk=table.pk)
        .annotate(grounds=Subquery(latest[:1]))
        .values_list("game", "grounds")
    )
    return Counter(game for game, grounds in others if grounds != TOURNAMENT)


def table_grounds(table: GamingTable, on: datetime.date) -> Grounds:
    """What allows ``table`` as the set-up act leaves it (saved or not yet), the other tables as
    they stand, on ``on``; refused (AUTH-03, AUTH-01) when nothing does."""
    est = table.establishment
    arrete = arrete_in_force(est, on)
    if arrete is None:
        raise RuleViolation(
            "AUTH-03",
            _(
                "Aucun arrêté d'autorisation n'est en vigueur le %(date)s : inscrivez l'arrêté (tables "
                "autorisées par jeu, nombre total de tables) avant de mettre en place les tables."
            )
            % {"date": on.strftime("%d/%m/%Y")},
        )
    if not table.active:
        return Grounds(arrete)
    authorised = {line.game: line.tables for line in arrete.games.all()}
    in_service = _authorised_in_service(table)
    declaration, refusal = None, None
    if table.game not in authorised:
        declaration = declaration_implemented(est, Declaration.Operation.NEW_GAME, on=on) or declaration_implemented(
            est, Declaration.Operation.REPLACE_TABLES, on=on
        )
        if declaration is None:
            refusal = _(
                "L'arrêté n° %(n)s n'autorise pas le jeu « %(game)s » : ses tables exigent une déclaration "
                "préalable (3° nouveau jeu, ou 2° remplacement de tables) dont la date de mise en œuvre est atteinte."
            )
    elif in_service[table.game] + 1 > authorised[table.game]:
        declaration = declaration_implemented(
            est, Declaration.Operation.DISTRIBUTION, on=on, after=arrete.effective_from
        )
        if declaration is None:
            refusal = _(
                "L'arrêté n° %(n)s autorise %(tables)s table(s) de « %(game)s » : une table de plus exige une "
                "déclaration préalable (6°) mise en œuvre après son entrée en vigueur le %(since)s."
            )
    if refusal is None and in_service.total() + 1 > arrete.total_tables:
        refusal = _(
            "L'arrêté n° %(n)s autorise %(total)s tables en tout : %(count)s seraient en service (2° et 3° "
            "s'inscrivent dans ce total)."
        )
    if refusal is None:
        return Grounds(arrete, declaration)
    if table.game in POKER_GAMES and (tournament := tournament_declared(est, on)) is not None:
        return Grounds(arrete, tournament)
    message = refusal % {
        "n": arrete.number,
        "game": table.get_game_display(),
        "tables": authorised.get(table.game, 0),
        "since": arrete.effective_from.strftime("%d/%m/%Y"),
        "total": arrete.total_tables,
        "count": in_service.total() + 1,
    }
    if table.game in POKER_GAMES:
        message = _("%(refusal)s Une table de poker en plus n'est permise que pendant un tournoi déclaré (7°).") % {
            "refusal": message
        }
    raise RuleViolation("AUTH-01", message)


def require_tournament_dates(session: TableSession) -> None:
    """A tournament's poker table (AUTH-01 7°) opens for play only on a séance within the dates of
    the declaration it was set up under."""
    line = (
        TableAuthorisation.objects.filter(table=session.table_id).select_related("declaration").order_by("-pk").first()
    )
    tournament = line.declaration if line is not None else None
    if tournament is None or tournament.operation != TOURNAMENT:
        return
    if not tournament.implementation_date <= session.seance.date <= tournament.tournament_until:
        raise RuleViolation(
            "AUTH-01",
            _(
                "La table %(table)s est une table de poker du tournoi déclaré (déclaration n° %(n)s, du %(start)s "
                "au %(end)s) : elle n'ouvre que pendant le tournoi."
            )
            % {
                "table": session.table.number,
                "n": tournament.number,
                "start": tournament.implementation_date.strftime("%d/%m/%Y"),
                "end": tournament.tournament_until.strftime("%d/%m/%Y"),
            },
        )
