"""In Chromium with its virtual authenticator (CDP WebAuthn domain): an SCJ agent registers a
passkey from the profile, signs a visa with it, and an auditor verifies the signature from the
exports alone; the same assertion replayed for another range, another person's credential and a
changed payload are refused or fail verification naming the entry."""

import json
import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from ledgers.registers import services
from ledgers.registers.models import Entry, EntryKind
from ledgers.registers.verification import verify_register
from tests.factories import DEFAULT_PASSWORD
from tests.registers.ui_setup import main_courante, monaco_cast
from tests.signatures.test_passkeys import enrol, export, rehash_from, run_verifier

from .browser import MARKS

pytestmark = MARKS


@pytest.fixture
def page(browser):
    page = browser.new_page(locale="fr-FR")
    page.set_default_timeout(60_000)
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",  # a tablet's own authenticator
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return page


def test_visa_signed_with_a_passkey_in_chromium_and_verified_offline(live_server, mc, user_in, page, tmp_path):
    cast = monaco_cast(mc, user_in)
    register = main_courante(mc, cast, entries=6)
    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", cast.visa.username)
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(live_server.url + "/")

    page.goto(live_server.url + reverse("profile"))
    page.fill("#passkey-name", "Tablette du bureau")
    page.click("[data-passkey-register]")
    page.wait_for_selector("#cles-d-acces :text('Tablette du bureau'), #passkey-register-error:not([hidden])")
    assert page.locator("#passkey-register-error").is_hidden(), page.locator("#passkey-register-error").inner_text()
    assert "Tablette du bureau" in page.locator("#cles-d-acces").inner_text()
    credential = cast.visa.passkeys.get()
    line = Entry.objects.get(payload__credential_id=credential.credential_id)
    assert line.payload["public_key"] == credential.public_key

    page.goto(live_server.url + reverse("registers:visa", args=[register.number]))
    page.fill("#id_up_to_seq", "5")
    page.fill("#id_statement", "Vu lors du contrôle inopiné.")
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(rf"/registres/{register.number}/\?before="))
    assert "Visa enregistré." in page.content()
    visa = register.entries.get(kind=EntryKind.VISA)
    assertion = visa.payload["passkey"]
    assert assertion["credential_id"] == credential.credential_id and verify_register(register) is None

    # The auditor, with the two exports only.
    signed, lines = export(register, tmp_path), export(line.register, tmp_path)
    ok = run_verifier(signed, lines)
    assert ok.returncode == 0 and "OK 1 passkey signature" in ok.stdout, ok.stderr

    # The same assertion, replayed for another range: refused.
    replayed = {
        "id": assertion["credential_id"],
        "type": "public-key",
        "response": {
            "authenticatorData": assertion["authenticator_data"],
            "clientDataJSON": assertion["client_data_json"],
            "signature": assertion["signature"],
        },
    }
    with pytest.raises(ValidationError, match="n'a pas signé cet acte"):
        services.visa_sign(register=register, actor=cast.visa, up_to_seq=7, statement="Vu", passkey=replayed)
    # Another person's credential: refused to the signer.
    other = enrol(cast.director, mc)
    with pytest.raises(ValidationError, match="pas l'une des vôtres"):
        services.visa_sign(
            register=register, actor=cast.visa, up_to_seq=7, statement="Vu", passkey=other.get({"challenge": "x"})
        )
    # A changed payload, the chain recomputed after it: the passkey check names the entry.
    entries = [json.loads(text) for text in signed.read_text().splitlines()]
    entries[visa.seq - 1]["payload"]["covers_seq"] = 6
    entries[visa.seq - 1]["payload"]["covers_hash"] = entries[5]["entry_hash"]
    rehash_from(entries, visa.seq)
    forged = tmp_path / "forged.jsonl"
    forged.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries))
    refused = run_verifier(forged, lines)
    assert refused.returncode != 0 and f"seq {visa.seq}: the passkey signed another act" in refused.stderr
