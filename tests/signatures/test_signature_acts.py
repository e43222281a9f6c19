"""Every signature act takes the signer's passkey: the paraphe of a printed volume, the visas an
act writes in its signer's name (one assertion per entry), a countersigner through the API; and
verify_ledgers, offline too, flags an author's signature made without the passkey they held."""

import html
import json

import pytest
from django.db import transaction
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.core.roles import Role
from ledgers.registers import services
from ledgers.registers.models import Entry
from ledgers.registers.printing.models import VolumeParaphe
from ledgers.registers.verification import verify_register
from ledgers.signatures.models import Passkey
from ledgers.signatures.passkeys import PasskeyRequired, Signer, signing
from tests.equipment.conftest import mc_org, session, wheel
from tests.factories import DEFAULT_PASSWORD, make_user
from tests.registers.printed import filled_register
from tests.registers.ui_setup import cast_fixture, register_fixture  # noqa: F401 (fixtures)
from tests.signatures.test_passkeys import enrol, export, probe, run_verifier


@override_settings(REGISTER_VOLUME_PAGES=2)
def test_volume_paraphe_asks_the_password_and_the_passkey_and_its_line_verifies(client, mc):
    register = filled_register(mc, records=60)
    authority = make_user(mc, register.kind_info.paraph_roles_for(mc.jurisdiction)[0])
    key = enrol(authority, mc)
    client.force_login(authority)
    url = reverse("registers:volumes", args=[register.number])
    data = {"volume": 1, "paraphe": "C. G.", "password": DEFAULT_PASSWORD}
    unsigned = client.post(url, data)
    assert unsigned.status_code == 200 and "clé d'accès" in html.unescape(unsigned.content.decode())
    assert not VolumeParaphe.objects.exists()
    options = probe(client, url, data)
    assert not VolumeParaphe.objects.exists()  # the tried act kept nothing
    assert client.post(url, {**data, "passkey": json.dumps(key.get(options))}).status_code == 302
    record = VolumeParaphe.objects.get(register=register, volume=1)
    line = Entry.objects.get(register__kind="habilitations", payload__register=register.number)
    assert line.actor_user == authority and line.payload["passkey"]["credential_id"] == key.id
    assert line.payload["page_digests"] == record.page_digests
    assert verify_register(line.register) is None


def test_an_act_writing_two_visas_in_its_signers_name_takes_one_assertion_for_each(mc, cast, register):
    key = enrol(cast.visa, mc)

    def act(passkey):
        with transaction.atomic(), signing([Signer(cast.visa, passkey)]):
            first = services.visa_sign(register=register, actor=cast.visa, up_to_seq=2, statement="Vu")
            return first, services.visa_sign(register=register, actor=cast.visa, up_to_seq=4, statement="Vu encore")

    with pytest.raises(PasskeyRequired) as asked:
        act(None)
    one = key.get(asked.value.options)
    with pytest.raises(PasskeyRequired) as again:  # the first visa signed, the second asks its own
        act(one)
    assert not register.entries.filter(kind="visa").exists()  # nothing kept until both are signed
    two = key.get(again.value.options)
    assert again.value.options["challenge"] != asked.value.options["challenge"]
    first, second = act([two, one])  # matched to each visa by the digest it signed, in any order
    assert first.payload["passkey"]["signature"] != second.payload["passkey"]["signature"]
    assert verify_register(register) is None
    with pytest.raises(Exception, match="n'a pas signé cet acte"):  # an assertion signs one entry only
        services.visa_sign(register=register, actor=cast.visa, up_to_seq=register.head_seq, statement="V", passkey=one)


def test_wheel_check_cosigner_signs_with_the_passkey_through_the_api(mc):
    org = mc_org(mc)
    wheel(org, "roulette_europeenne", table="R1")
    cosigner = org.users[Role.INSPECTEUR]
    key = enrol(cosigner, mc)
    api = APIClient()
    api.force_authenticate(org.users[Role.ENTRETIEN])
    body = {
        "table_session": session(org, "R1").pk,
        "points": ["Pivot"],
        "passed": True,
        "cosigner_username": cosigner.username,
        "cosigner_password": DEFAULT_PASSWORD,
    }
    asked = api.post("/api/v1/equipment/wheel-checks/record/", body, format="json")
    assert asked.status_code == 400 and asked.json()["passkey_field"] == "cosigner_passkey"
    body["cosigner_passkey"] = key.get(asked.json()["passkey_options"])
    done = api.post("/api/v1/equipment/wheel-checks/record/", body, format="json")
    assert done.status_code == 201, done.json()
    entry = Entry.objects.filter(payload__passkeys__has_key=cosigner.username).get()
    assert entry.payload["passkeys"][cosigner.username]["credential_id"] == key.id
    assert verify_register(entry.register) is None


def test_a_visa_signed_without_the_passkey_its_author_held_is_flagged(mc, cast, register, tmp_path):
    key = enrol(cast.visa, mc)
    # What only someone holding the database can do: the passkey put aside without its revocation
    # line, and a visa signed in its holder's name with the password alone.
    Passkey.objects.filter(credential_id=key.id).update(revoked_at=timezone.now())
    visa = services.visa_sign(register=register, actor=cast.visa, up_to_seq=4, statement="Vu")
    assert "passkey" not in visa.payload
    finding = verify_register(register)
    assert finding is not None and (finding.seq, finding.code) == (visa.seq, "passkey_missing")
    authorisations = Entry.objects.get(payload__credential_id=key.id).register
    refused = run_verifier(export(register, tmp_path), export(authorisations, tmp_path))
    assert refused.returncode != 0
    assert f"seq {visa.seq}: signed without the passkey its author held then" in refused.stderr


def test_a_visa_by_password_after_the_passkeys_revocation_line_is_not_flagged(mc, cast, register, tmp_path):
    from ledgers.core import authenticators

    key = enrol(cast.visa, mc)
    authenticators.passkey_revoke(passkey=Passkey.objects.get(credential_id=key.id), actor=cast.visa, establishment=mc)
    services.visa_sign(register=register, actor=cast.visa, up_to_seq=4, statement="Vu")
    assert verify_register(register) is None
    authorisations = Entry.objects.get(payload__credential_id=key.id, payload__has_key="public_key").register
    ok = run_verifier(export(register, tmp_path), export(authorisations, tmp_path))
    assert ok.returncode == 0, ok.stderr
