"""REG-19, GAME-07 (001 art. 55-4): the règlement intérieur, versioned with dates of effect, and the
blackjack options a table may apply only when the version in force writes them."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from ledgers.authority import selectors, services
from ledgers.authority.models import HouseOption, TableOptionChange
from ledgers.core.errors import RuleViolation
from tests.factories import GamingTableFactory, open_register

TODAY = timezone.localdate()


@pytest.fixture
def register(fro):
    return open_register(fro.est, "reglement_interieur")


@pytest.fixture
def table(fro):
    return GamingTableFactory(establishment=fro.est, number="BJ1", game="blackjack")


def publish(fro, days=0, options=(HouseOption.SURRENDER,)):
    return services.house_rules_publish(
        establishment=fro.est,
        actor=fro.directeur_responsable,
        effective_from=TODAY + datetime.timedelta(days=days),
        reference="Règlement affiché en salle",
        options=options,
    )


def test_reg_19_versions_and_the_one_in_force(fro, register):
    assert selectors.house_rules_in_force(fro.est) is None
    first = publish(fro, days=-10)
    later = publish(fro, days=5, options=(HouseOption.SURRENDER, HouseOption.NO_DRAW_21))
    assert (first.version, later.version) == (1, 2)
    assert selectors.house_rules_in_force(fro.est) == first
    assert selectors.house_rules_in_force(fro.est, TODAY + datetime.timedelta(days=5)) == later
    assert register.entries.filter(kind="record").count() == 2
    with pytest.raises(ValidationError):
        publish(fro, days=5)  # not after the previous version


def test_reg_19_signed_by_the_directeur_responsable(fro, register):
    with pytest.raises(RuleViolation) as refused:
        services.house_rules_publish(
            establishment=fro.est, actor=fro.comite, effective_from=TODAY, reference="R", options=()
        )
    assert refused.value.code == "REG-19"


def test_game_07_option_not_in_the_rules_in_force_refused(fro, register, table):
    with pytest.raises(RuleViolation) as refused:
        services.table_option_set(table=table, option=HouseOption.SURRENDER, enabled=True, actor=fro.comite)
    assert refused.value.code == "GAME-07"  # no règlement at all
    publish(fro, days=-1)
    publish(fro, days=3, options=(HouseOption.SURRENDER, HouseOption.NO_DRAW_21))
    with pytest.raises(RuleViolation) as refused:  # written only in the version not yet in force
        services.table_option_set(table=table, option=HouseOption.NO_DRAW_21, enabled=True, actor=fro.comite)
    assert refused.value.code == "GAME-07"
    assert not TableOptionChange.objects.exists()
    change = services.table_option_set(table=table, option=HouseOption.SURRENDER, enabled=True, actor=fro.comite)
    assert change.rules.version == 1
    assert list(selectors.table_options_in_force(fro.est)) == [("BJ1", HouseOption.SURRENDER)]
    services.table_option_set(table=table, option=HouseOption.SURRENDER, enabled=False, actor=fro.comite)
    assert selectors.table_options_in_force(fro.est) == {}


def test_game_07_ui_refusal_shows_the_requirement(client, fro, register, table):
    publish(fro, days=-1)
    client.force_login(fro.directeur_responsable)
    page = client.get(reverse("authority:house_rules"))
    assert page.status_code == 200 and "Abandon après les deux premières cartes" in page.content.decode()
    refused = client.post(
        reverse("authority:table_option"), {"table": table.pk, "option": "no_draw_21", "enabled": "on"}
    )
    assert refused.status_code == 409 and b"GAME-07" in refused.content
    done = client.post(reverse("authority:table_option"), {"table": table.pk, "option": "surrender", "enabled": "on"})
    assert done.status_code == 302


def test_game_07_api(fro, register, table):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(fro.directeur_responsable)
    created = api.post(
        "/api/v1/authority/house-rules/",
        {"effective_from": TODAY.isoformat(), "reference": "R1", "options": ["surrender"]},
        format="json",
    )
    assert created.status_code == 201 and created.json()["version"] == 1
    refused = api.post(
        "/api/v1/authority/table-options/",
        {"table": "BJ1", "house_option": "ll_seated", "enabled": True},
        format="json",
    )
    assert refused.status_code == 409 and refused.json()["code"] == "GAME-07"
    done = api.post(
        "/api/v1/authority/table-options/",
        {"table": "BJ1", "house_option": "surrender", "enabled": True},
        format="json",
    )
    assert done.status_code == 201 and done.json()["table"] == "BJ1"
