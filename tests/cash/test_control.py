"""Registre de contrôle modèle 12: carried from the certified carnets, no blank lines, totalled
and closed daily in words, two visas (COUNT-50, COUNT-56; REG-34)."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from ledgers.cash import selectors, services
from ledgers.cash.models import ControlDay
from ledgers.cash.registers import REGISTRE_CONTROLE
from ledgers.core import amounts
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register
from ledgers.registers.verification import verify_register
from tests.cash.conftest import certified, counted, fr_avance


def day_played(org, day=0, results=(("RA1", 150_000, 162_500), ("B1", 40_000, 31_000))):
    seance = org.seance(day=day)
    for number, avance, encaisse in results:
        session = org.session(number, seance=seance)
        fr_avance(org, session, avance, carry_note="report")
        org.close(session)
        certified(org, session, encaisse)
    return seance


@pytest.mark.parametrize(
    ("amount", "words"),
    [
        ("1", "un euro"),
        ("0", "zéro euro"),
        ("80", "quatre-vingts euros"),
        ("81.50", "quatre-vingt-un euros et cinquante centimes"),
        ("3500", "trois mille cinq cents euros"),
        ("1000000", "un million d'euros"),
        ("2080.01", "deux mille quatre-vingts euros et un centime"),
        ("-9000", "moins neuf mille euros"),
    ],
)
def test_count_56_amounts_in_words(amount, words):
    assert amounts.amount_in_words(Decimal(amount)) == words


def test_count_56_reg_34_day_carried_totalled_and_closed_in_words(fro):
    day_played(fro)
    day = services.control_day_close(establishment=fro.est, date=fro.day, actor=fro[Role.CAISSIER_PRINCIPAL])
    assert day.total == Decimal("3500.00") and day.total_words == "trois mille cinq cents euros"
    assert day.contrepartie_total == Decimal("3500.00") and day.cercle_total == 0
    register = current_register(fro.est, REGISTRE_CONTROLE.code)
    lines = [e.payload for e in register.entries.filter(kind="record").order_by("seq")]
    assert [(p.get("table"), p["result"], p["carried"]) for p in lines] == [
        ("B1", "-9000.00", "-9000.00"),
        ("RA1", "12500.00", "3500.00"),
        (None, "3500.00", "3500.00"),
    ]
    assert "trois mille cinq cents euros" in lines[-1]["total_words"]
    assert [e.seq for e in register.entries.order_by("seq")] == list(range(1, register.head_seq + 1))  # no gap
    assert verify_register(register) is None


def test_count_50_only_a_certified_carnet_is_carried(fro):
    seance = fro.seance()
    session = fro.session("RA1", seance=seance)
    fr_avance(fro, session)
    fro.close(session)
    counted(fro, session, 150_000)
    with pytest.raises(RuleViolation) as refused:
        services.control_day_close(establishment=fro.est, date=fro.day, actor=fro[Role.CAISSIER_PRINCIPAL])
    assert refused.value.code == "COUNT-50"
    assert not ControlDay.objects.exists()


def test_count_56_two_visas_by_two_different_persons(fro):
    day_played(fro)
    day = services.control_day_close(establishment=fro.est, date=fro.day, actor=fro[Role.CAISSIER_PRINCIPAL])
    with pytest.raises(RuleViolation):
        services.control_day_visa(day=day, actor=fro[Role.CAISSIER], statement="")
    day = services.control_day_visa(day=day, actor=fro.director)
    assert day.status == ControlDay.Status.CLOSED
    with pytest.raises(RuleViolation) as twice:
        services.control_day_visa(day=day, actor=fro.director)
    assert twice.value.code == "COUNT-56"
    day = services.control_day_visa(day=day, actor=fro[Role.COMITE])
    assert day.status == ControlDay.Status.VISAED and len(day.visas) == 2
    register = current_register(fro.est, REGISTRE_CONTROLE.code)
    assert register.entries.filter(kind="visa").count() == 2 and verify_register(register) is None


def test_count_56_next_day_not_posted_before_the_previous_day_is_visaed(fro):
    day_played(fro)
    services.control_day_close(establishment=fro.est, date=fro.day, actor=fro[Role.CAISSIER_PRINCIPAL])
    day_played(fro, day=1, results=(("RA1", 150_000, 150_000),))
    tomorrow = fro.day.replace(day=fro.day.day + 1)
    with pytest.raises(RuleViolation) as refused:
        services.control_day_close(establishment=fro.est, date=tomorrow, actor=fro[Role.CAISSIER_PRINCIPAL])
    assert refused.value.code == "COUNT-56"
    first = ControlDay.objects.get()
    services.control_day_visa(day=first, actor=fro.director)
    services.control_day_visa(day=first, actor=fro[Role.COMITE])
    second = services.control_day_close(establishment=fro.est, date=tomorrow, actor=fro[Role.CAISSIER_PRINCIPAL])
    assert second.total == 0 and second.total_words == "zéro euro" and second.season_total == Decimal("3500.00")


def test_count_56_a_day_is_closed_once(fro):
    day_played(fro)
    services.control_day_close(establishment=fro.est, date=fro.day, actor=fro[Role.CAISSIER_PRINCIPAL])
    with pytest.raises(ValidationError):
        services.control_day_close(establishment=fro.est, date=fro.day, actor=fro[Role.CAISSIER_PRINCIPAL])


def test_count_50_the_day_to_close_is_the_first_played_day_not_closed_read_in_two_queries(
    fro, django_assert_num_queries
):
    """The database finds the first day played and not yet closed (not every day ever played), then
    its tables' counts are read: two queries whatever the days already closed."""
    day_played(fro)
    day_played(fro, day=1, results=(("RA1", 150_000, 150_000),))
    tomorrow = fro.day.replace(day=fro.day.day + 1)
    with django_assert_num_queries(2):
        assert selectors.day_to_close(fro.est) == fro.day
    first = services.control_day_close(establishment=fro.est, date=fro.day, actor=fro[Role.CAISSIER_PRINCIPAL])
    services.control_day_visa(day=first, actor=fro.director)
    services.control_day_visa(day=first, actor=fro[Role.COMITE])
    with django_assert_num_queries(2):
        assert selectors.day_to_close(fro.est) == tomorrow
    services.control_day_close(establishment=fro.est, date=tomorrow, actor=fro[Role.CAISSIER_PRINCIPAL])
    with django_assert_num_queries(1):
        assert selectors.day_to_close(fro.est) is None
