"""The volumes an act opens in its author's name as it is done (a machine's fiche modèle 34, a
JPM's modèle 26) are cotés et paraphés with that author's passkey when they hold one: the page
and the API ask the browser for it, and the opening entry carries the assertion (SLOT-52,
SLOT-38, REG-01)."""

import html
import json
from decimal import Decimal

import pytest
from django.db import transaction
from django.urls import reverse
from rest_framework.test import APIClient

from ledgers.registers.models import Register
from ledgers.registers.verification import verify_register
from ledgers.signatures.passkeys import PasskeyRequired, Signer, signing
from ledgers.slots import services
from ledgers.slots.models import Machine, Progressive
from tests.signatures.test_passkeys import enrol, probe

from .test_progressives import IDENTITY, _machine, room  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def _fiche(machine: Machine) -> Register:
    return Register.objects.get(kind="slot_fiche_34", qualifier=machine.casino_number)


def test_slot_52_fr_machine_registered_by_a_passkey_holder_its_fiche_opened_with_the_passkey(fr_room):
    key = enrol(fr_room.keeper, fr_room.est)
    data = fr_room.machine_input()

    def act(passkey):
        with transaction.atomic(), signing([Signer(fr_room.keeper, passkey)]):
            return services.machine_register(establishment=fr_room.est, data=data, actor=fr_room.keeper)

    with pytest.raises(PasskeyRequired) as asked:  # asked for, not a crash, and nothing kept
        act(None)
    assert asked.value.field == "passkey" and not Machine.objects.exists()
    machine = act(key.get(asked.value.options))
    opening = _fiche(machine).entries.get(seq=1)
    assert opening.kind == "opening" and opening.payload["passkey"]["credential_id"] == key.id
    assert verify_register(_fiche(machine)) is None


def test_slot_52_fr_machine_page_asks_the_registrants_passkey_for_the_fiche(client, fr_room):
    key = enrol(fr_room.keeper, fr_room.est)
    client.force_login(fr_room.keeper)
    url = reverse("slots:machine_register")
    assert 'name="passkey"' in client.get(url).content.decode()  # what static/js/passkeys.js fills in
    data = {
        "machine_type": "Vidéo",
        "technology": "electronic",
        "maker": "IGT",
        "maker_serial": "X1",
        "casino_number": "C77",
        "maker_number": "MK77",
        "location_number": "L77",
        "media": ["coins"],
        "stations": 1,
        "rtp_percent": "93",
        "rate_date": "2026-01-01",
        "credit_value": "0.01",
        "digits": 8,
        "characteristics": "3 rouleaux",
    }
    unsigned = client.post(url, data)
    assert unsigned.status_code == 200 and "clé d'accès" in html.unescape(unsigned.content.decode())
    assert not Machine.objects.exists()
    options = probe(client, url, data)
    assert client.post(url, {**data, "passkey": json.dumps(key.get(options))}).status_code == 302
    opening = _fiche(Machine.objects.get()).entries.get(seq=1)
    assert opening.payload["passkey"]["credential_id"] == key.id


def test_slot_52_mc_machine_page_takes_no_passkey(client, mc_room):
    client.force_login(mc_room.keeper)
    assert "passkey" not in client.get(reverse("slots:machine_register")).context["form"].fields


def test_slot_38_jpm_created_through_the_api_by_a_passkey_holder_signs_its_modele_26(room):  # noqa: F811
    keeper = room["comite"]
    key = enrol(keeper, room.est)
    api = APIClient()
    api.force_authenticate(keeper)
    body = {
        "code": "JPM1",
        "name": "Mégajackpot",
        "start_amount": "10000",
        "machines": [_machine(room).pk, _machine(room).pk],
        "multisite": True,
        "increment_percent": "1",
        "members": ["Casino de Nice"],
        **IDENTITY,
    }
    asked = api.post("/api/v1/slots/progressives/", body, format="json")
    assert asked.status_code == 400 and asked.json()["passkey_field"] == "passkey", asked.json()
    assert not Progressive.objects.exists()
    # The act's first entry (the JPM's line) and the opening of its modèle 26 each take their own.
    first = key.get(asked.json()["passkey_options"])
    again = api.post("/api/v1/slots/progressives/", {**body, "passkey": first}, format="json")
    assert again.status_code == 400 and not Progressive.objects.exists()
    body["passkey"] = [first, key.get(again.json()["passkey_options"])]
    done = api.post("/api/v1/slots/progressives/", body, format="json")
    assert done.status_code == 201, done.json()
    register = Register.objects.get(kind="slot_controle_technique", qualifier="JPM-JPM1")
    assert register.entries.get(seq=1).payload["passkey"]["credential_id"] == key.id
    assert verify_register(register) is None


def test_slot_36_local_progressive_asks_no_passkey(room):  # noqa: F811
    enrol(room["comite"], room.est)
    api = APIClient()
    api.force_authenticate(room["comite"])
    body = {"code": "PJ1", "name": "Grand", "start_amount": str(Decimal("1000")), "machines": [_machine(room).pk]}
    assert api.post("/api/v1/slots/progressives/", body, format="json").status_code == 201
