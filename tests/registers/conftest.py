"""Registers ready to write in, the people around them, and a way to tamper as the owner would."""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from django.apps import apps
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection

from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.registers.models import Checkpoint, Entry, Register
from ledgers.registers.services import register_create, register_open


@dataclass
class Staff:
    director: AbstractBaseUser  # creates registers, approves corrections (SET-47), closes
    authority: AbstractBaseUser  # cotes and paraphs (the paraphing role of the jurisdiction)
    writer: AbstractBaseUser  # records entries
    visa: AbstractBaseUser  # visas (an authority of the jurisdiction)
    writer_role: str


STAFF_ROLES = {
    "MC": (Role.DIRECTEUR_JEUX, Role.COMMISSAIRE, Role.INSPECTEUR, Role.SCJ),
    "FR": (Role.DIRECTEUR_RESPONSABLE, Role.POLICE, Role.INSPECTEUR, Role.POLICE),
}


def staff_for(establishment: Establishment, make_user) -> Staff:
    director, authority, writer, visa = STAFF_ROLES[establishment.jurisdiction]
    return Staff(
        director=make_user(establishment, director),
        authority=make_user(establishment, authority),
        writer=make_user(establishment, writer),
        visa=make_user(establishment, visa),
        writer_role=writer,
    )


def opened_register(establishment: Establishment, staff: Staff, *, qualifier: str = "") -> Register:
    register = register_create(
        establishment=establishment, kind="main_courante", actor=staff.director, qualifier=qualifier
    )
    register_open(register=register, actor=staff.authority, paraphe="J.D.")
    register.refresh_from_db()
    return register


@pytest.fixture
def mc_staff(mc, user_in) -> Staff:
    return staff_for(mc, user_in)


@pytest.fixture
def fr_staff(fr, user_in) -> Staff:
    return staff_for(fr, user_in)


@pytest.fixture
def mc_register(mc, mc_staff) -> Register:
    return opened_register(mc, mc_staff)


# Every append-only table: the entries, the checkpoints and every simple-history table of the project, found
# through the app registry so that the apps added later are covered without editing the tests.
HISTORY_MODELS = sorted(
    (m for m in apps.get_models() if m.__name__.startswith("Historical")), key=lambda m: m._meta.label
)
LEDGER_MODELS = [Entry, Checkpoint, *HISTORY_MODELS]
ENTRY_TABLE = Entry._meta.db_table


@contextmanager
def triggers_bypassed(table: str = ENTRY_TABLE) -> Iterator[None]:
    """What the table owner or a superuser can do: switch the append-only triggers off.

    PostgreSQL: ``session_replication_role = replica`` (superuser); SQLite: drop the triggers and
    put them back. Tests use it to show that tampering is caught by the chain, not the triggers."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET session_replication_role = replica")
            try:
                yield
            finally:
                cursor.execute("SET session_replication_role = origin")
            return
        cursor.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s", [table])
        triggers = cursor.fetchall()
        for name, _sql in triggers:
            cursor.execute(f'DROP TRIGGER "{name}"')
        try:
            yield
        finally:
            for _name, sql in triggers:
                cursor.execute(sql)
