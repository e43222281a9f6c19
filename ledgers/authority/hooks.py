"""France: a gaming table is set up (added, given another game, put in or out of service) only as
the arrêté d'autorisation in force and the prior declarations allow it (AUTH-01, AUTH-03), and
written with what allows it in the register of gaming authorisations; a declared tournament's
poker table opens for play only within the tournament's dates (AUTH-01 7°)."""

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from ledgers.core.hooks import TABLE_SET_UP, on_table_opening, on_table_setup, records
from ledgers.core.models import GamingTable, TableSession

from . import table_mix
from .services import table_set_up_write


@on_table_setup
def table_mix_authorised(table: GamingTable) -> None:
    est = table.establishment
    if est.jurisdiction == "FR":
        table_mix.table_grounds(table, est.localtime(timezone.now()).date())


@records(TABLE_SET_UP)
def table_set_up_written(*, table: GamingTable, before: GamingTable | None, actor: AbstractBaseUser, role: str) -> None:
    if table.establishment.jurisdiction == "FR":
        table_set_up_write(table=table, before=before, actor=actor, role=role)


@on_table_opening
def tournament_table_within_its_dates(session: TableSession) -> None:
    if session.seance.establishment.jurisdiction == "FR":
        table_mix.require_tournament_dates(session)
