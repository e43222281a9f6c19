"""GAME-04 (MC 000 art. 5.2 8°, SET-22): the Split Aces progressive: versioned configuration with
its author and date of effect, the amounts at each séance's opening and closing, the jackpots
paid, and the closing amount the stakes × percentage and the payouts do not explain (FLAG, BP)."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.authority import selectors, services
from ledgers.authority.models import ProgressiveConfig, ProgressiveReading
from ledgers.core.errors import RuleViolation
from ledgers.core.services import seance_open
from tests.factories import GamingTableFactory, open_register, open_seance_registers

TODAY = timezone.localdate()
D = Decimal


@pytest.fixture
def register(mco):
    return open_register(mco.est, "progressif_split_aces")


@pytest.fixture
def tables(mco):
    return {n: GamingTableFactory(establishment=mco.est, number=n, game="blackjack") for n in ("BJ1", "BJ2", "BJ3")}


def configure(mco, days=-1, percentage="10", actor=None, **kwargs):
    return services.progressive_configure(
        establishment=mco.est,
        actor=actor or mco.directeur_jeux,
        percentage=D(percentage),
        stake=D("5"),
        combinations="Paire d'as : 100 € ; deux as séparés : progressif",
        tables=["BJ1", "BJ2"],
        **{"effective_from": TODAY + datetime.timedelta(days=days), **kwargs},
    )


def seance(mco, days=0):
    open_seance_registers(mco.est)
    return seance_open(
        establishment=mco.est, date=TODAY + datetime.timedelta(days=days), period="soiree", actor=mco.directeur_jeux
    )


def test_game_04_configuration_refused_without_author_or_effective_date(mco, register, tables):
    for kwargs in ({"effective_from": None}, {"actor": None}):
        with pytest.raises(RuleViolation) as refused:
            services.progressive_configure(
                establishment=mco.est,
                percentage=D("10"),
                stake=D("5"),
                combinations="C",
                tables=["BJ1"],
                **{"actor": mco.directeur_jeux, "effective_from": TODAY, **kwargs},
            )
        assert refused.value.code == "GAME-04"
    with pytest.raises(RuleViolation) as refused:  # the Direction des Jeux approves, not an inspecteur
        configure(mco, actor=mco.inspecteur)
    assert refused.value.code == "GAME-04"
    assert not ProgressiveConfig.objects.exists() and register.entries.filter(kind="record").count() == 0


def test_game_04_versions_and_the_one_in_force(mco, register, tables):
    first = configure(mco, days=-10)
    later = configure(mco, days=3, percentage="12")
    assert (first.version, later.version) == (1, 2)
    assert selectors.progressive_in_force(mco.est) == first
    assert selectors.progressive_in_force(mco.est, TODAY + datetime.timedelta(days=3)) == later
    entry = register.entries.get(seq=first.entry_seq)
    assert "BJ1, BJ2" in entry.payload["detail"] and entry.actor_user == mco.directeur_jeux


def test_game_04_amounts_payouts_and_the_unexplained_change_flagged(mco, register, tables):
    configure(mco)
    evening = seance(mco)
    services.progressive_read(seance=evening, actor=mco.inspecteur, moment="opening", amount=D("1000"))
    payout = services.progressive_payout(
        seance=evening, table=tables["BJ1"], actor=mco.inspecteur, amount=D("200"), winner="M. Durand, carte 4411"
    )
    assert register.entries.get(seq=payout.entry_seq).payload["table"] == "BJ1"
    with pytest.raises(RuleViolation) as refused:  # BJ3 is not linked to the progressive
        services.progressive_payout(
            seance=evening, table=tables["BJ3"], actor=mco.inspecteur, amount=D("10"), winner="X"
        )
    assert refused.value.code == "GAME-04"
    # 1 000 + 500 × 10 % − 200 = 850: explained.
    closing = services.progressive_read(
        seance=evening, actor=mco.inspecteur, moment="closing", amount=D("850"), stakes=D("500")
    )
    assert closing.unexplained == 0 and not register.entries.get(seq=closing.entry_seq).payload["flags"]
    with pytest.raises(RuleViolation):  # once per séance and moment
        services.progressive_read(
            seance=evening, actor=mco.inspecteur, moment="closing", amount=D("850"), stakes=D("500")
        )
    next_day = seance(mco, days=1)
    services.progressive_read(seance=next_day, actor=mco.inspecteur, moment="opening", amount=D("850"))
    late = services.progressive_read(
        seance=next_day, actor=mco.inspecteur, moment="closing", amount=D("900"), stakes=D("100")
    )
    assert late.unexplained == D("40.00")  # 850 + 10 expected
    assert list(selectors.progressive_unexplained(mco.est)) == [late]
    assert "GAME-04" in register.entries.get(seq=late.entry_seq).payload["flags"][0]


def test_game_04_page_api_and_dashboard(client, mco, register, tables):
    client.force_login(mco.directeur_jeux)
    page = client.post(
        reverse("authority:split_aces"),
        {
            "effective_from": TODAY.isoformat(),
            "combinations": "Deux as séparés",
            "stake": "5",
            "percentage": "10",
            "tables": "BJ1, BJ2",
        },
    )
    assert page.status_code == 302 and ProgressiveConfig.objects.get().tables == ["BJ1", "BJ2"]
    evening = seance(mco)
    api = APIClient()
    api.force_authenticate(mco.inspecteur)
    opened = api.post(
        "/api/v1/authority/split-aces/readings/",
        {"seance": evening.pk, "moment": "opening", "amount": "1000"},
        format="json",
    )
    assert opened.status_code == 201
    closed = api.post(
        "/api/v1/authority/split-aces/readings/",
        {"seance": evening.pk, "moment": "closing", "amount": "1100", "stakes": "100"},
        format="json",
    )
    assert closed.status_code == 201 and closed.json()["unexplained"] == "90.00"
    paid = api.post(
        "/api/v1/authority/split-aces/payouts/",
        {"seance": evening.pk, "table": "BJ3", "amount": "50", "winner": "X"},
        format="json",
    )
    assert paid.status_code == 409 and paid.json()["code"] == "GAME-04"
    undated = api.post(
        "/api/v1/authority/split-aces/configs/",
        {"combinations": "C", "stake": "5", "percentage": "10", "tables": ["BJ1"]},
        format="json",
    )
    assert undated.status_code == 409 and undated.json()["code"] == "GAME-04"
    assert ProgressiveReading.objects.count() == 2
    dashboard = client.get(reverse("dashboard"))
    assert "écart inexpliqué" in dashboard.content.decode()
    assert client.get(reverse("authority:split_aces")).status_code == 200
