"""AUTH-01 prior declarations sent 15 days in advance to the three recipients; AUTH-02 their follow-up."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.authority import selectors, services
from ledgers.authority.models import Declaration
from ledgers.core.errors import RuleViolation
from ledgers.registers.models import Entry
from tests.factories import open_register

ALL = Declaration.Recipient.values


@pytest.fixture
def register(fro):
    open_register(fro.est, "informations_autorites")
    return open_register(fro.est, "declarations_prealables")


def declare(fro, *, days=15, sent_ago=0, actor=None, recipients=ALL, operation="6", **extra):
    sent = timezone.localdate() - datetime.timedelta(days=sent_ago)
    return services.declaration_record(
        establishment=fro.est,
        actor=actor or fro.directeur_responsable,
        operation=operation,
        details="Mise minimale de la roulette portée à 5 €",
        sent_on=sent,
        recipients=recipients,
        proof="LRAR 1A 234 567 8901 2",
        implementation_date=sent + datetime.timedelta(days=days),
        **extra,
    )


def test_auth_01_declaration_fifteen_days_ahead_recorded(fro, register):
    declaration = declare(fro)
    entry = Entry.objects.get(register=register, seq=declaration.entry_seq)
    assert entry.payload["operation"].startswith("6°") and len(entry.payload["recipients"]) == 3
    assert entry.payload["implementation_date"] == declaration.implementation_date.isoformat()


def test_auth_01_less_than_fifteen_days_refused(fro, register):
    with pytest.raises(RuleViolation) as refused:
        declare(fro, days=14)
    assert refused.value.code == "AUTH-01" and "15 jours" in str(refused.value)
    assert not Declaration.objects.exists() and register.entries.count() == 1


def test_auth_01_all_three_recipients_required(fro, register):
    with pytest.raises(RuleViolation) as refused:
        declare(fro, recipients=["dlpaj", "sccj"])
    assert refused.value.code == "AUTH-01" and "police judiciaire" in str(refused.value)


def test_auth_01_only_the_directeur_responsable_declares(fro, register):
    with pytest.raises(RuleViolation) as refused:
        declare(fro, actor=fro.comite)
    assert refused.value.code == "AUTH-01"


def test_auth_01_poker_tournament_needs_its_dates(fro, register):
    with pytest.raises(ValidationError):
        declare(fro, operation="7")
    sent = timezone.localdate()
    declaration = declare(fro, operation="7", tournament_until=sent + datetime.timedelta(days=18))
    assert declaration.tournament_until == sent + datetime.timedelta(days=18)


def test_auth_01_sending_date_not_in_the_future(fro, register):
    with pytest.raises(ValidationError):
        declare(fro, sent_ago=-1)


def test_auth_02_implemented_without_follow_up_flagged_then_followed_up(client, fro, register):
    implemented = declare(fro, sent_ago=20)
    declare(fro)  # not implemented yet: not flagged
    assert list(selectors.declarations_without_follow_up(fro.est)) == [implemented]
    client.force_login(fro.directeur_responsable)
    dashboard = client.get(reverse("dashboard")).content.decode()
    assert "Sans suite enregistrée" in dashboard and '<span class="code">AUTH-02</span>' in dashboard
    response = client.post(
        reverse("authority:declaration_follow_up", args=[implemented.pk]),
        {"follow_up": "amended", "note": "Arrêté modificatif du 3 mars"},
    )
    assert response.status_code == 302
    assert not selectors.declarations_without_follow_up(fro.est).exists()
    assert register.entries.order_by("-seq").first().payload["follow_up"] == "Arrêté d'autorisation modifié"


def test_auth_01_ui_and_api_refusals(client, fro, register):
    client.force_login(fro.directeur_responsable)
    today = timezone.localdate()
    response = client.post(
        reverse("authority:declarations"),
        {
            "operation": "3",
            "details": "Ouverture du three card poker",
            "sent_on": today.isoformat(),
            "recipients": ALL,
            "proof": "LRAR",
            "implementation_date": (today + datetime.timedelta(days=3)).isoformat(),
        },
    )
    assert response.status_code == 409 and b"AUTH-01" in response.content
    api = APIClient()
    api.force_authenticate(fro.directeur_responsable)
    created = api.post(
        "/api/v1/authority/declarations/",
        {
            "operation": "3",
            "details": "Ouverture du three card poker",
            "sent_on": today.isoformat(),
            "recipients": ALL,
            "proof": "LRAR",
            "implementation_date": (today + datetime.timedelta(days=15)).isoformat(),
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    assert created.json()["follow_up"] == "pending"
