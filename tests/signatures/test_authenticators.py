"""Authenticator applications (TOTP) enrolled from the profile with a QR code drawn here and a
confirmation code, under the login throttle; a lost one withdrawn by the directorate; each a line
of the register of authorisations."""

import html

from django.urls import reverse
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.test import APIClient

from ledgers.core import authenticators
from ledgers.registers.models import Entry
from tests.registers.ui_setup import cast_fixture  # noqa: F401 (fixture)


def code(device: TOTPDevice) -> str:
    return str(TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift).token()).zfill(6)


def lines(mc, subject: str):
    return Entry.objects.filter(register__establishment=mc, payload__subject=subject)


def test_totp_enrolled_from_the_profile_with_a_local_qr_code_and_a_confirmation_code(client, mc, cast):
    client.force_login(cast.visa)
    assert client.post(reverse("profile-totp")).status_code == 302
    page = client.get(reverse("profile")).content.decode()
    device = TOTPDevice.objects.get(user=cast.visa)
    assert "<svg" in page and "otpauth://" in page and not device.confirmed
    wrong = client.post(reverse("profile-totp-confirm"), {"token": "000000"}, follow=True)
    assert "Code incorrect" in html.unescape(wrong.content.decode())
    device.refresh_from_db()
    assert not device.confirmed and not lines(mc, "Enrôlement d'un authentificateur").exists()
    device.throttle_reset()
    client.post(reverse("profile-totp-confirm"), {"token": code(device)})
    device.refresh_from_db()
    line = lines(mc, "Enrôlement d'un authentificateur").get()
    assert device.confirmed and line.payload["person"] == cast.visa.username and line.actor_user is None


def test_totp_confirmation_is_throttled_like_a_sign_in(client, settings, mc, cast):
    settings.AXES_ENABLED, settings.AXES_FAILURE_LIMIT = True, 2
    client.force_login(cast.visa)
    client.post(reverse("profile-totp"))
    device = TOTPDevice.objects.get(user=cast.visa)
    for _ in range(2):
        client.post(reverse("profile-totp-confirm"), {"token": "000000"})
        device.refresh_from_db()
        device.throttle_reset()
    locked = client.post(reverse("profile-totp-confirm"), {"token": code(device)}, follow=True)
    device.refresh_from_db()
    assert "Trop d'essais" in html.unescape(locked.content.decode()) and not device.confirmed


def test_a_lost_authenticator_is_withdrawn_by_the_directorate_with_a_line(mc, cast):
    device = TOTPDevice.objects.create(user=cast.visa, name="téléphone", confirmed=True)
    api = APIClient()
    api.force_authenticate(cast.writer)  # an inspecteur: not the directorate
    assert api.post(f"/api/v1/profile/totp/{device.pk}/revoke/").status_code == 403
    api.force_authenticate(cast.director)
    assert api.post(f"/api/v1/profile/totp/{device.pk}/revoke/").status_code == 200
    assert not TOTPDevice.objects.filter(pk=device.pk).exists()
    line = lines(mc, "Retrait d'un authentificateur").get()
    assert line.payload["person"] == cast.visa.username and line.actor_user == cast.director


def test_totp_enrolled_through_the_api(mc, cast):
    api = APIClient()
    api.force_authenticate(cast.visa)
    started = api.post("/api/v1/profile/totp/")
    assert started.status_code == 201 and started.json()["qr_svg"].startswith("<svg")
    device = TOTPDevice.objects.get(user=cast.visa)
    assert api.post("/api/v1/profile/totp/confirm/", {"token": "123"}).status_code == 400
    device.refresh_from_db()
    device.throttle_reset()
    confirmed = api.post("/api/v1/profile/totp/confirm/", {"token": code(device)})
    assert confirmed.status_code == 200 and confirmed.json()["confirmed"] is True


def test_second_factor_required_per_role_by_the_establishment_setting(settings, mc):
    settings.LEDGERS_SIGNING_SECOND_FACTOR = False
    assert authenticators.second_factor(mc, "scj") == authenticators.NONE
    mc.options = {**mc.options, authenticators.SETTING: {"scj": authenticators.PASSKEY}}
    assert authenticators.second_factor(mc, "scj") == authenticators.PASSKEY
    settings.LEDGERS_SIGNING_SECOND_FACTOR = True
    assert authenticators.second_factor(mc, "commissaire") == authenticators.CODE
    assert authenticators.second_factor(mc, "croupier") == authenticators.NONE


def test_the_directorate_page_lists_authenticators_and_withdraws_a_lost_passkey(client, mc, cast):
    from tests.signatures.test_passkeys import enrol

    key = enrol(cast.visa, mc)
    client.force_login(cast.writer)
    assert client.get(reverse("staff-authenticators")).status_code == 403
    client.force_login(cast.director)
    page = client.get(reverse("staff-authenticators")).content.decode()
    passkey = cast.visa.passkeys.get()
    assert cast.visa.username in page and reverse("profile-passkey-revoke", args=[passkey.pk]) in page
    url = reverse("profile-passkey-revoke", args=[passkey.pk])
    assert client.post(url, {"next": reverse("staff-authenticators")}).url == reverse("staff-authenticators")
    passkey.refresh_from_db()
    line = lines(mc, "Révocation d'une clé d'accès").get()
    assert passkey.revoked_at and line.payload["credential_id"] == key.id and line.actor_user == cast.director
