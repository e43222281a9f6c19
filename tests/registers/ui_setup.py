"""A main courante opened by the authority with entries, and the people around it."""

from dataclasses import dataclass

import pytest

from ledgers.registers import services
from ledgers.registers.models import Register
from tests.factories import open_register


@dataclass
class Cast:
    director: object
    authority: object
    visa: object
    writer: object


def monaco_cast(est, user_in) -> Cast:
    return Cast(
        director=user_in(est, "directeur_jeux"),
        authority=user_in(est, "commissaire"),
        visa=user_in(est, "scj"),
        writer=user_in(est, "inspecteur"),
    )


def main_courante(est, cast: Cast, entries: int = 3) -> Register:
    """Opened (seq 1) + ``entries`` facts by the cast's writer."""
    register = open_register(est, "main_courante")
    payloads = (
        {
            "event_at": f"2026-03-{1 + i % 28:02d} 14:00",
            "subject": f"Fait {i + 1}",
            "text": f"Relation du fait {i + 1}.",
        }
        for i in range(entries)
    )
    services.entries_bulk_append(register=register, actor=cast.writer, role="inspecteur", payloads=payloads)
    register.refresh_from_db()
    return register


# Fixtures shared by the page and API tests (imported by name into those modules).
@pytest.fixture(name="cast")
def cast_fixture(mc, user_in) -> Cast:
    return monaco_cast(mc, user_in)


@pytest.fixture(name="register")
def register_fixture(mc, cast) -> Register:
    return main_courante(mc, cast, entries=3)
