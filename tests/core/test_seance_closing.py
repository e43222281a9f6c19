"""REG-25: a séance closes only when every mandatory record of its tables is complete; each app
says what is missing through ``on_seance_closing``."""

import datetime

import pytest

from ledgers.core import hooks
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Seance
from ledgers.core.services import seance_close, seance_open
from tests.factories import open_seance_registers


@pytest.fixture
def missing_count():
    """A check that reports one missing count while ``state["missing"]`` is true."""
    state = {"missing": True}

    def check(seance):
        if state["missing"]:
            yield hooks.Missing("comptage de la table BJ1", "COUNT-15", "/comptage/")

    hooks.on_seance_closing(check)
    yield state
    hooks._seance_checks.remove(check)


def test_reg_25_seance_not_closed_while_a_record_is_missing(mc, user_in, missing_count):
    director = user_in(mc, "directeur_jeux")
    open_seance_registers(mc)
    seance = seance_open(establishment=mc, date=datetime.date(2026, 11, 2), period="soiree", actor=director)
    assert hooks.seance_missing(seance) == [hooks.Missing("comptage de la table BJ1", "COUNT-15", "/comptage/")]
    with pytest.raises(RuleViolation) as refused:
        seance_close(seance=seance, actor=director)
    assert refused.value.code == "REG-25" and "comptage de la table BJ1" in str(refused.value)
    seance.refresh_from_db()
    assert seance.status == Seance.Status.OPEN

    missing_count["missing"] = False
    assert seance_close(seance=seance, actor=director).status == Seance.Status.CLOSED
