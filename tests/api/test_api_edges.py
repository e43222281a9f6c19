"""The edges of the API: what a client that sends the unexpected gets back. Dates outside any
register's years and texts no paper register could hold are a 400 naming the field; characters
that print otherwise than they read are refused; an OPTIONS describes a write; a 500 is JSON;
a token that no longer works is a 401 that says how to authenticate."""

import datetime

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from ledgers.core.roles import Role
from ledgers.registers.models import Entry
from tests.factories import open_register


@pytest.fixture
def writer(mc, user_in):
    register = open_register(mc, "main_courante")
    client = APIClient()
    client.force_authenticate(user_in(mc, Role.DIRECTEUR_JEUX))
    return client, f"/api/v1/registers/{register.number}/main-courante/"


def fact(**overrides):
    return {"event_at": timezone.now().isoformat(), "subject": "Ronde", "text": "Rien à signaler.", **overrides}


@pytest.mark.parametrize("event_at", ["0001-01-01 00:00", "0001-01-01T00:00:00Z", "9999-12-31 23:59", "1900-05-01"])
def test_a_date_outside_the_registers_years_is_a_400_naming_it(writer, event_at):
    client, url = writer
    refused = client.post(url, fact(event_at=event_at), format="json")
    assert refused.status_code == 400, refused.content
    assert "event_at" in refused.json() and "plausibles" in str(refused.json())
    assert not Entry.objects.filter(kind="record", register__kind="main_courante").exists()


def test_a_text_longer_than_a_register_holds_is_a_400_naming_it(writer):
    client, url = writer
    refused = client.post(url, fact(text="x" * 1_000_000), format="json")
    assert refused.status_code == 400
    assert "text" in refused.json() and "10000 caractères au plus" in str(refused.json())
    assert client.post(url, fact(text="x" * 2_000), format="json").status_code == 201


@pytest.mark.parametrize("hidden", ["\u202e", "\u200b", "\u2066", "\ufeff"])
def test_a_character_that_prints_otherwise_than_it_reads_is_refused(writer, hidden):
    client, url = writer
    refused = client.post(url, fact(subject=f"Table 12{hidden}3"), format="json")
    assert refused.status_code == 400 and "subject" in refused.json()
    assert not Entry.objects.filter(kind="record", register__kind="main_courante").exists()


def test_the_same_refusals_on_the_page(client, mc, user_in):
    register = open_register(mc, "main_courante")
    client.force_login(user_in(mc, Role.DIRECTEUR_JEUX))
    page = client.get(f"/registres/{register.number}/").content.decode()
    assert page  # the register's page is there to write from
    response = client.post(
        f"/registres/{register.number}/inscrire/",
        {"event_at": timezone.localtime().strftime("%Y-%m-%dT%H:%M"), "subject": "Ronde\u202e", "text": "x"},
    )
    assert response.status_code == 200 and "inversion du sens" in response.content.decode()
    assert not Entry.objects.filter(kind="record", register__kind="main_courante").exists()


def test_options_on_a_write_describes_its_input(writer):
    client, url = writer
    described = client.options(url)
    assert described.status_code == 200
    assert set(described.json()["actions"]["POST"]) == {"event_at", "subject", "text"}


@pytest.mark.parametrize("path", ["/api/v1/lost/", "/lost/"])
def test_a_server_error_is_json_in_the_api_and_a_page_elsewhere(settings, mc, user_in, path):
    settings.ROOT_URLCONF = "tests.api.failing_urls"
    client = Client(raise_request_exception=False)
    client.force_login(user_in(mc, Role.DIRECTEUR_JEUX))
    response = client.get(path)
    assert response.status_code == 500
    if path.startswith("/api/"):
        assert response["Content-Type"] == "application/json" and "detail" in response.json()
    else:
        assert response["Content-Type"].startswith("text/html")


def test_an_expired_or_revoked_token_is_a_401_saying_how_to_authenticate(mc, user_in, settings):
    token = Token.objects.create(user=user_in(mc, Role.DIRECTEUR_JEUX))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get("/api/v1/registers/").status_code == 200
    Token.objects.filter(pk=token.pk).update(
        created=timezone.now() - datetime.timedelta(hours=settings.API_TOKEN_TTL_HOURS + 1)
    )
    expired = client.get("/api/v1/registers/")
    assert expired.status_code == 401 and expired["WWW-Authenticate"] == "Token"
    token.delete()
    revoked = client.get("/api/v1/registers/")
    assert revoked.status_code == 401 and revoked["WWW-Authenticate"] == "Token"
    assert APIClient().get("/api/v1/registers/").status_code == 401
