"""Bad input is a clear 400, never a server error: a duplicate name, a NUL byte in the address,
a text far longer than any record keeps."""

from urllib.parse import urlencode

import pytest
from rest_framework.test import APIClient

from ledgers.core.roles import Role
from ledgers.incidents.services import incident_open
from tests.factories import open_register

SUPPLIERS = "/api/v1/dice/suppliers/"


@pytest.fixture
def director(mc, user_in):
    open_register(mc, "bons_commande", "dice")  # where a supplier is written
    client = APIClient()
    client.force_authenticate(user_in(mc, Role.DIRECTEUR_JEUX))
    return client


def test_duplicate_supplier_name_is_a_clear_400(director):
    assert director.post(SUPPLIERS, {"name": "Dés de France"}, format="json").status_code == 201
    again = director.post(SUPPLIERS, {"name": "Dés de France"}, format="json")
    assert again.status_code == 400
    assert "existe déjà" in str(again.json())


def test_hundred_thousand_characters_are_a_clear_400(director):
    refused = director.post(SUPPLIERS, {"name": "x" * 100_000}, format="json")
    assert refused.status_code == 400
    assert "10000 caractères au plus" in str(refused.json())


@pytest.mark.parametrize(
    "url", ["/api/v1/registers/?kind=a%00b", "/api/v1/registers/MC%00X/entries/", "/registres/?q=%00", "/des/%00/"]
)
def test_nul_byte_in_the_address_is_a_400(director, client, mc, user_in, url):
    client.force_login(user_in(mc, Role.DIRECTEUR_JEUX))
    response = (director if url.startswith("/api/") else client).get(url)
    assert response.status_code == 400
    assert "0x00" in response.content.decode()


def test_hundred_thousand_character_free_text_is_a_clear_400(director, mc, user_in):
    open_register(mc, "incidents")
    incident = incident_open(
        establishment=mc, category="game", description="Coup contesté", actor=user_in(mc, Role.DIRECTEUR_JEUX)
    )
    refused = director.post(f"/api/v1/incidents/{incident.pk}/decision/", {"decision": "x" * 100_000}, format="json")
    assert refused.status_code == 400
    assert "10000 caractères au plus" in str(refused.json())
    incident.refresh_from_db()
    assert incident.decision == ""


@pytest.mark.parametrize(
    "body", [{"dice": ["D1"], "to_location": "dép\x00ot"}, {"dice": ["D\x00"], "to_location": "x"}]
)
def test_nul_byte_in_a_json_lookup_is_a_400(director, body):
    assert director.post("/api/v1/dice/transfers/", body, format="json").status_code == 400


def test_nul_byte_in_a_form_lookup_is_a_400(client, mc, user_in):
    client.force_login(user_in(mc, Role.CARTIER))
    body = urlencode({"dice": "D1", "to_location": "a\x00b"})  # as a browser sends a form
    assert client.post("/des/transfert/", body, content_type="application/x-www-form-urlencoded").status_code == 400


def test_nul_byte_in_a_multipart_field_is_a_400(director):
    """The API also parses multipart bodies: their text fields are checked, their files are not."""
    body = {"code": "K\x00", "lock_type": "socle", "opens": "socle 12", "copies": "1"}
    assert director.post("/api/v1/keys/keys/new/", body, format="multipart").status_code == 400
