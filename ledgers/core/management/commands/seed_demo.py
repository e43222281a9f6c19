"""Seed the demo casinos: the organisation, then each ledgers app's own demo data."""

import importlib
import importlib.util
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from functools import partial
from io import StringIO
from types import ModuleType
from typing import TextIO

from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, OutputWrapper
from django.db import connection, connections

from ledgers.core.demo import (
    DEMO_PASSWORD,
    ORGANISATION,
    close_past_seances,
    demo_cast,
    demo_logins,
    seeding_only,
)
from ledgers.core.forking import forked, second_process_possible


def seeders() -> list[ModuleType]:
    """The ``demo`` module of every ledgers app, in INSTALLED_APPS order (ledgers.core first), except
    that a module comes after the apps it names in ``SEED_AFTER``: the data it builds on."""
    modules = {
        config.name: importlib.import_module(f"{config.name}.demo")
        for config in apps.get_app_configs()
        if config.name.startswith("ledgers.") and importlib.util.find_spec(f"{config.name}.demo") is not None
    }
    ordered: list[str] = []

    def place(name: str, waiting: tuple[str, ...] = ()) -> None:
        if name in ordered:
            return
        if name in waiting:
            raise CommandError(f"Demo seeders wait for each other: {' → '.join((*waiting, name))}")
        for before in getattr(modules[name], "SEED_AFTER", ()):
            if before in modules:
                place(before, (*waiting, name))
        ordered.append(name)

    for name in modules:
        place(name)
    return [modules[name] for name in ordered]


@contextmanager
def queries_not_logged() -> Iterator[None]:
    """Under DEBUG (the demo's setting) Django logs every query, and on SQLite runs one more query
    for each to quote its parameters in that log: a tenth of the seed's time, for a log nobody reads."""
    debug, settings.DEBUG = settings.DEBUG, False
    try:
        yield
    finally:
        settings.DEBUG = debug


@contextmanager
def commits_not_awaited() -> Iterator[None]:
    """On PostgreSQL each commit waits for its write-ahead log to reach the disk: a few
    milliseconds for each of the seed's thousand-odd transactions. A demo seed lost to a crash is
    seeded again, so this connection's commits do not wait while it seeds (what each records is
    unchanged). SQLite in WAL mode with synchronous=NORMAL (settings) already syncs no commit."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SET synchronous_commit = off")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET synchronous_commit")


@contextmanager
def savepoints_not_taken() -> Iterator[None]:
    """The seeders call services inside transactions of their own, so each service's atomic block
    nests and costs a SAVEPOINT and a RELEASE round trip. A savepoint only lets its caller carry on
    after a refusal, which no seeder does: an error stops the seed and rolls back the seeder's
    transaction whole. While it seeds, the connection takes none, and a nested block that fails
    marks the whole transaction for rollback, as ``atomic(savepoint=False)`` does (what each block
    writes is unchanged)."""
    connection.savepoint = lambda: None  # an instance attribute, over the backend's method
    try:
        yield
    finally:
        del connection.savepoint


def seed_houses(domains: list[ModuleType], stdout: TextIO) -> None:
    """The domains' data of the demo establishments seeded here (``demo_houses``), then their past
    séances closed."""
    for seeder in domains:
        seeder.seed(stdout=stdout)
    close_past_seances(stdout=stdout)


def houses_apart() -> bool:
    """Whether each demo establishment is seeded by a process of its own, both at once (their data
    are their own once the organisation is committed): on PostgreSQL (SQLite takes one writer at a
    time), with a core for each process, and outside a caller's transaction (whose rows another
    connection would not see)."""
    return connection.vendor == "postgresql" and not connection.in_atomic_block and second_process_possible()


def house_seeded(code: str, domains: list[ModuleType]) -> str:
    """What a forked process does: the establishment ``code`` seeded on a connection of its own,
    its commits not awaited as in the parent; gives its lines, written by the parent."""
    out = StringIO()
    try:
        with seeding_only(code), commits_not_awaited():
            seed_houses(domains, OutputWrapper(out))
    finally:
        connections.close_all()
    return out.getvalue()


class Command(BaseCommand):
    help = (
        "Crée (ou complète) les casinos de démonstration de Monte-Carlo et de Nice : organisation, "
        "utilisateurs par rôle et registres. Sans effet s'ils existent déjà."
    )

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000/", help="Adresse affichée pour se connecter.")

    def handle(self, *args, url: str, **options):
        organisation, *domains = seeders()
        with queries_not_logged(), commits_not_awaited(), savepoints_not_taken(), demo_cast(), ExitStack() as run:
            for seeder in domains:
                if hasattr(seeder, "seeding"):
                    run.enter_context(seeder.seeding())
            organisation.seed(stdout=self.stdout)
            for seeder in domains:
                if hasattr(seeder, "prepare_tables"):
                    seeder.prepare_tables(stdout=self.stdout)
            if houses_apart():
                self.seed_apart(domains)
            else:
                seed_houses(domains, self.stdout)
        self.print_logins(url)

    def seed_apart(self, domains: list[ModuleType]) -> None:
        """Each demo establishment seeded by a forked process, both at once, each on a connection of
        its own (``forked``). Each one's lines are written whole once all are done; then the first
        error is raised."""
        waiting = [forked(partial(house_seeded, code, domains), name=f"the seed of {code}") for code in ORGANISATION]
        outcomes: list[str | Exception] = []
        for result in waiting:  # every process waited for, even after one failed
            try:
                outcomes.append(result())
            except Exception as exc:
                outcomes.append(exc)
        for outcome in outcomes:
            if isinstance(outcome, str):
                self.stdout.write(outcome, ending="")
        for outcome in outcomes:
            if isinstance(outcome, Exception):
                raise outcome

    def print_logins(self, url: str) -> None:
        rows = [("Identifiant", "Rôle", "Établissement", "Mot de passe")]
        rows += [(username, role, est, DEMO_PASSWORD) for username, role, est in demo_logins()]
        widths = [max(len(row[i]) for row in rows) for i in range(4)]
        line = "  ".join("-" * w for w in widths)
        self.stdout.write("")
        for i, row in enumerate(rows):
            self.stdout.write("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
            if i == 0:
                self.stdout.write(line)
        self.stdout.write("")
        self.stdout.write(self.style.SUCCESS(f"Connectez-vous sur {url}"))
