"""The sign-in throttle (django-axes) applies to every form that takes a secret: after the
configured number of wrong ones, the right one is refused too and nothing is changed or signed —
the password change, a signer's password and code at a visa, a countersigner's, the confirmation
of a new authenticator, and the links that set a password."""

import html
import re

import pytest
from django.urls import reverse
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from ledgers.core import accounts, passwords
from ledgers.registers.models import Entry
from tests.core.staff import director_of
from tests.dice.conftest import mc_org, receive_mc  # noqa: F401 (fixture)
from tests.factories import DEFAULT_PASSWORD
from tests.registers.ui_setup import cast_fixture, register_fixture  # noqa: F401 (fixtures)

LIMIT = 2
NEW = "Un-secret-bien-à-moi-2026"


@pytest.fixture
def lockout(settings):
    settings.AXES_ENABLED, settings.AXES_FAILURE_LIMIT = True, LIMIT


def text(response) -> str:
    return html.unescape(response.content.decode())


def code(device: TOTPDevice) -> str:
    return f"{totp(device.bin_key, step=device.step, t0=device.t0, digits=device.digits):0{device.digits}d}"


def test_password_change_locks_and_a_wrong_old_password_changes_nothing(client, lockout, mc, cast):
    client.force_login(cast.visa)
    url, lines = reverse("password-change"), Entry.objects.count()
    wrong = client.post(url, {"old_password": "pas le bon", "new_password": NEW, "repeated_password": NEW})
    assert "Rien n'a été changé" in text(wrong)
    for _ in range(LIMIT - 1):
        client.post(url, {"old_password": "pas le bon", "new_password": NEW, "repeated_password": NEW})
    right = client.post(url, {"old_password": DEFAULT_PASSWORD, "new_password": NEW, "repeated_password": NEW})
    assert right.status_code == 429
    cast.visa.refresh_from_db()
    assert cast.visa.check_password(DEFAULT_PASSWORD) and Entry.objects.count() == lines


def test_visa_password_locks_the_signer(client, lockout, mc, cast, register):
    client.force_login(cast.visa)
    url = reverse("registers:visa", args=[register.number])
    for _ in range(LIMIT):
        client.post(url, {"up_to_seq": 4, "statement": "Vu", "password": "pas le bon"})
    locked = client.post(url, {"up_to_seq": 4, "statement": "Vu", "password": DEFAULT_PASSWORD})
    assert locked.status_code == 429 and not register.entries.filter(kind="visa").exists()


def test_wrong_authenticator_codes_at_a_visa_lock_the_signer(client, lockout, mc, cast, register):
    device = TOTPDevice.objects.create(user=cast.visa, name="téléphone", confirmed=True)
    client.force_login(cast.visa)
    url = reverse("registers:visa", args=[register.number])
    data = {"up_to_seq": 4, "statement": "Vu", "password": DEFAULT_PASSWORD}
    refused = client.post(url, {**data, "otp_token": "000000"})
    assert "Code d'authentification incorrect" in text(refused)
    for _ in range(LIMIT - 1):
        device.refresh_from_db()
        device.throttle_reset()  # the device's own back-off aside: the lockout is what is tested
        client.post(url, {**data, "otp_token": "000000"})
    device.refresh_from_db()
    device.throttle_reset()
    locked = client.post(url, {**data, "otp_token": code(device)})
    assert locked.status_code == 429 and not register.entries.filter(kind="visa").exists()


def test_countersigner_password_locks_the_countersigner(lockout, mc, mc_org):  # noqa: F811
    from rest_framework.test import APIClient

    signer = mc_org["sous_directeur"]
    api = APIClient()
    api.force_authenticate(mc_org["cartier"])
    data = {
        "table_session": mc_org.session().pk,
        "dice": [d.serial for d in receive_mc(mc_org, 5)],
        "signer_username": signer.username,
    }
    entries = Entry.objects.count()
    for _ in range(LIMIT):
        api.post("/api/v1/dice/allocations/new/", {**data, "signer_password": "pas le bon"}, format="json")
    locked = api.post("/api/v1/dice/allocations/new/", {**data, "signer_password": DEFAULT_PASSWORD}, format="json")
    assert locked.status_code == 429 and Entry.objects.count() == entries


def invitation(house, mailoutbox, django_capture_on_commit_callbacks):
    director = director_of(house)
    official = accounts.account_create(
        establishment=house,
        username="officiel",
        first_name="Olivier",
        last_name="Officiel",
        email="olivier.officiel@interieur.example",
        roles=["scj"],
        actor=director,
    )
    with django_capture_on_commit_callbacks(execute=True):
        passwords.account_invite(establishment=house, user=official, actor=director)
    return official, re.search(r"https?://[^/\s]+(/invitation/[^\s]+/)", mailoutbox[-1].body).group(1)


def test_wrong_link_tokens_lock_the_account_they_name(
    client, lockout, mc, mailoutbox, django_capture_on_commit_callbacks
):
    official, link = invitation(mc, mailoutbox, django_capture_on_commit_callbacks)
    forged = link.rstrip("/").rsplit("/", 1)[0] + "/cb1z-0123456789abcdef0123456789abcdef/"
    assert "n'est plus valable" in text(client.get(forged, follow=True))
    for _ in range(LIMIT - 1):
        client.get(forged, follow=True)
    locked = client.get(link, follow=True)
    assert locked.status_code == 403 and "Trop d'essais" in text(locked)
    official.refresh_from_db()
    assert not official.has_usable_password()
