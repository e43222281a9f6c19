"""A countersignature at the terminal (the sous-directeur signing a dice allocation) takes the
countersigner's passkey when they hold one: the API answers the act's request options naming the
countersigner's field, and the act's entry keeps the assertion under ``passkeys`` by login."""

from rest_framework.test import APIClient

from ledgers.registers.models import Entry
from ledgers.registers.verification import verify_register
from tests.dice.conftest import mc_org, receive_mc  # noqa: F401 (fixture)
from tests.factories import DEFAULT_PASSWORD
from tests.signatures.test_passkeys import enrol


def test_countersigner_with_a_passkey_signs_the_allocation_with_it(mc, mc_org):  # noqa: F811
    signer = mc_org["sous_directeur"]
    key = enrol(signer, mc)
    session = mc_org.session()
    serials = [d.serial for d in receive_mc(mc_org, 5)]
    api = APIClient()
    api.force_authenticate(mc_org["cartier"])
    data = {
        "table_session": session.pk,
        "dice": serials,
        "signer_username": signer.username,
        "signer_password": DEFAULT_PASSWORD,
    }
    asked = api.post("/api/v1/dice/allocations/new/", data, format="json")
    assert asked.status_code == 400 and asked.json().get("passkey_field") == "signer_passkey", asked.json()
    other = enrol(mc_org["cartier"], mc)
    wrong = api.post(
        "/api/v1/dice/allocations/new/",
        {**data, "signer_passkey": other.get(asked.json()["passkey_options"])},
        format="json",
    )
    assert wrong.status_code == 400 and "pas l'une des vôtres" in str(wrong.json())
    done = api.post(
        "/api/v1/dice/allocations/new/",
        {**data, "signer_passkey": key.get(asked.json()["passkey_options"])},
        format="json",
    )
    assert done.status_code == 201, done.json()
    entry = Entry.objects.get(register__number=done.json()["register"], seq=done.json()["entry_seq"])
    assert entry.payload["passkeys"][signer.username]["credential_id"] == key.id
    assert verify_register(entry.register) is None
