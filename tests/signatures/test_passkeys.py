"""Passkeys on signature acts: registered from the profile with a line naming the credential id and
public key, asked at the visa and at the cote et paraphe with the act's digest as challenge, the
assertion kept in the entry's hashed payload and verified again by verify_ledgers and offline."""

import html
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from ledgers.core import authenticators
from ledgers.registers import services
from ledgers.registers.models import Entry, EntryKind
from ledgers.registers.verification import verify_register
from ledgers.signatures.passkeys import PROBE_HEADER, PasskeyRequired, act_digest, b64u
from tests.factories import DEFAULT_PASSWORD
from tests.registers.ui_setup import cast_fixture, register_fixture  # noqa: F401 (fixtures)
from tests.signatures.authenticator import SoftAuthenticator

VERIFIER = Path(__file__).resolve().parents[2] / "docs" / "verify_passkeys.py"


def enrol(user, establishment) -> SoftAuthenticator:
    """A passkey of ``user`` registered as the profile page does."""
    key = SoftAuthenticator()
    begun = authenticators.passkey_registration_begin(user)
    authenticators.passkey_registration_finish(
        user=user,
        establishment=establishment,
        name="Tablette",
        credential=key.create(begun["options"]),
        state=begun["state"],
    )
    return key


def probe(client, url, data) -> dict:
    answer = client.post(url, data, headers={PROBE_HEADER: "1"})
    assert answer["Content-Type"].startswith("application/json")
    return answer.json()["publicKey"]


def visa_url(register) -> str:
    return reverse("registers:visa", args=[register.number])


def test_passkey_registration_writes_a_line_naming_its_credential_id_and_public_key(mc, cast):
    key = enrol(cast.visa, mc)
    line = Entry.objects.get(register__establishment=mc, payload__credential_id=key.id)
    stored = cast.visa.passkeys.get()
    assert line.payload["public_key"] == stored.public_key and line.payload["person"] == cast.visa.username
    assert line.payload["algorithm"] == -7 and line.actor_user is None


def test_visa_signed_with_the_passkey_over_its_own_digest(client, mc, cast, register):
    key = enrol(cast.visa, mc)
    client.force_login(cast.visa)
    data = {"up_to_seq": 4, "statement": "Vu", "password": DEFAULT_PASSWORD}
    options = probe(client, visa_url(register), data)
    assert not register.entries.filter(kind=EntryKind.VISA).exists()  # the probe keeps nothing
    assert [c["id"] for c in options["allowCredentials"]] == [key.id]
    answer = client.post(visa_url(register), {**data, "passkey": json.dumps(key.get(options))})
    assert answer.status_code == 302
    visa = register.entries.get(kind=EntryKind.VISA)
    assert visa.payload["passkey"]["credential_id"] == key.id
    assert options["challenge"] == b64u(act_digest(register=register.number, kind="visa", payload=visa.payload))
    assert verify_register(register) is None


def test_visa_of_a_passkey_holder_without_the_passkey_is_refused(client, mc, cast, register):
    enrol(cast.visa, mc)
    client.force_login(cast.visa)
    answer = client.post(visa_url(register), {"up_to_seq": 4, "statement": "Vu", "password": DEFAULT_PASSWORD})
    assert answer.status_code == 200 and "Signez cet acte avec votre clé d'accès" in html.unescape(
        answer.content.decode()
    )
    assert not register.entries.filter(kind=EntryKind.VISA).exists()


def test_an_assertion_replayed_for_another_range_is_refused(client, mc, cast, register):
    key = enrol(cast.visa, mc)
    client.force_login(cast.visa)
    data = {"up_to_seq": 3, "statement": "Vu", "password": DEFAULT_PASSWORD}
    signed_for_3 = key.get(probe(client, visa_url(register), data))
    answer = client.post(visa_url(register), {**data, "up_to_seq": 4, "passkey": json.dumps(signed_for_3)})
    assert "n'a pas signé cet acte" in html.unescape(answer.content.decode())
    assert not register.entries.filter(kind=EntryKind.VISA).exists()


def test_another_persons_passkey_is_refused(client, mc, cast, register):
    enrol(cast.visa, mc)
    other = enrol(cast.director, mc)
    client.force_login(cast.visa)
    data = {"up_to_seq": 4, "statement": "Vu", "password": DEFAULT_PASSWORD}
    options = probe(client, visa_url(register), data)
    answer = client.post(visa_url(register), {**data, "passkey": json.dumps(other.get(options))})
    assert "n'est pas l'une des vôtres" in html.unescape(answer.content.decode())
    assert not register.entries.filter(kind=EntryKind.VISA).exists()


def test_a_passkey_required_for_the_role_refuses_a_signer_without_one(mc, cast, register):
    mc.options = {**mc.options, authenticators.SETTING: {"scj": authenticators.PASSKEY}}
    mc.save()
    with pytest.raises(Exception) as refused:
        services.visa_sign(register=register, actor=cast.visa, up_to_seq=4, statement="Vu")
    assert "enregistrez-en une" in str(refused.value)


def test_second_factor_by_default_refuses_a_signer_without_any(settings, mc, cast, register):
    settings.LEDGERS_SIGNING_SECOND_FACTOR = True
    with pytest.raises(Exception) as refused:
        services.visa_sign(register=register, actor=cast.visa, up_to_seq=4, statement="Vu")
    assert "second facteur" in str(refused.value)
    enrol(cast.visa, mc)  # a passkey is a second factor
    with pytest.raises(Exception, match="clé d'accès"):
        services.visa_sign(register=register, actor=cast.visa, up_to_seq=4, statement="Vu")


def test_cote_et_paraphe_asks_the_password_and_the_passkey(client, mc, cast):
    waiting = services.register_create(establishment=mc, kind="main_courante", actor=cast.director)
    key = enrol(cast.authority, mc)
    client.force_login(cast.authority)
    url = reverse("registers:open", args=[waiting.number])
    without_password = client.post(url, {"paraphe": "C.G.", "statement": ""})
    assert without_password.status_code == 200 and not waiting.entries.exists()
    data = {"paraphe": "C.G.", "statement": "", "password": DEFAULT_PASSWORD}
    options = probe(client, url, data)
    assert client.post(url, {**data, "passkey": json.dumps(key.get(options))}).status_code == 302
    opening = waiting.entries.get(seq=1)
    assert opening.payload["passkey"]["credential_id"] == key.id
    assert verify_register(waiting) is None


def test_visa_through_the_api_answers_the_options_then_takes_the_assertion(mc, cast, register):
    key = enrol(cast.visa, mc)
    api = APIClient()
    api.force_authenticate(cast.visa)
    url = f"/api/v1/registers/{register.number}/visas/"
    data = {"up_to_seq": 4, "statement": "Vu", "password": DEFAULT_PASSWORD}
    asked = api.post(url, data, format="json")
    assert asked.status_code == 400 and "passkey" in asked.json()
    signed = api.post(url, {**data, "passkey": key.get(asked.json()["passkey_options"])}, format="json")
    assert signed.status_code == 201 and signed.json()["payload"]["passkey"]["credential_id"] == key.id


def export(register, directory: Path) -> Path:
    call_command("export_register", register.number, "--out", str(directory), stderr=io.StringIO())
    return directory / f"{register.number}.jsonl"


def rehash_from(lines: list[dict], seq: int) -> None:
    """What a forger holding the database would do: the chain recomputed from ``seq`` on."""
    import hashlib

    keys = ("register", "seq", "recorded_at", "actor", "role", "kind", "payload", "corrects", "prev_hash", "written")
    for entry in lines[seq - 1 :]:
        entry["prev_hash"] = lines[entry["seq"] - 2]["entry_hash"] if entry["seq"] > 1 else "0" * 64
        body = {k: entry[k] for k in keys if k in entry}
        canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
        entry["entry_hash"] = hashlib.sha256(canonical).hexdigest()


def run_verifier(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(VERIFIER), *map(str, args)], capture_output=True, text=True)


def test_exported_visa_verifies_offline_and_a_changed_payload_fails_naming_the_entry(mc, cast, register, tmp_path):
    key = enrol(cast.visa, mc)
    with pytest.raises(PasskeyRequired) as asked:
        services.visa_sign(register=register, actor=cast.visa, up_to_seq=4, statement="Vu")
    visa = services.visa_sign(
        register=register, actor=cast.visa, up_to_seq=4, statement="Vu", passkey=key.get(asked.value.options)
    )
    authorisations = Entry.objects.get(payload__credential_id=key.id).register
    signed = export(register, tmp_path)
    lines = export(authorisations, tmp_path)
    ok = run_verifier(signed, lines)
    assert ok.returncode == 0, ok.stderr
    assert "1 passkey signature" in ok.stdout
    entries = [json.loads(line) for line in signed.read_text().splitlines()]
    entries[visa.seq - 1]["payload"]["statement"] = "Vu, rien à signaler"
    rehash_from(entries, visa.seq)
    forged = tmp_path / "forged.jsonl"
    forged.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries))
    refused = run_verifier(forged, lines)
    assert refused.returncode != 0 and f"seq {visa.seq}: the passkey signed another act" in refused.stderr
