"""Login throttle (django-axes) behind a reverse proxy, and API token expiry."""

import os
import secrets
import subprocess
import sys
from datetime import timedelta

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.test import RequestFactory, override_settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from ledgers.core.authz import reauthenticate
from ledgers.core.middleware import client_ip
from tests.factories import DEFAULT_PASSWORD

PROXY = "10.0.0.1"  # the reverse proxy every request comes through


def _request(client_address: str, *, spoofed: str = ""):
    forwarded = ", ".join(a for a in (spoofed, client_address) if a)
    return RequestFactory().post("/visa/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded)


def _fail(user, request) -> None:
    with pytest.raises(ValidationError):
        reauthenticate(request, user=user, password="pas-le-bon")


@override_settings(AXES_ENABLED=True, AXES_FAILURE_LIMIT=3, TRUSTED_PROXY_COUNT=1)
def test_wrong_visa_passwords_lock_only_their_signer(mc, user_in):
    a, b = user_in(mc, "directeur_jeux"), user_in(mc, "directeur_jeux")
    for _ in range(5):
        _fail(a, _request("203.0.113.7"))
    # B behind the same proxy, even at the same terminal, still signs.
    reauthenticate(_request("203.0.113.7"), user=b, password=DEFAULT_PASSWORD)
    reauthenticate(_request("198.51.100.9"), user=b, password=DEFAULT_PASSWORD)
    # A is locked at that terminal after the limit: even the right password is refused.
    with pytest.raises(ValidationError):
        reauthenticate(_request("203.0.113.7"), user=a, password=DEFAULT_PASSWORD)


@override_settings(AXES_ENABLED=True, AXES_FAILURE_LIMIT=3, TRUSTED_PROXY_COUNT=1)
def test_login_page_answers_429_to_the_locked_user_only(mc, user_in, client):
    a, b = user_in(mc), user_in(mc)
    meta = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "203.0.113.7"}
    for _ in range(3):
        client.post(reverse("login"), {"username": a.username, "password": "faux"}, **meta)
    locked = client.post(reverse("login"), {"username": a.username, "password": DEFAULT_PASSWORD}, **meta)
    assert locked.status_code == 429
    # The page says what happened, how long to wait, and the way back, in the site's own chrome.
    page = locked.content.decode()
    assert "Après 3 mots de passe ou codes erronés" in page and "Réessayez dans 1" in page
    assert f'href="{reverse("login")}"' in page and "Se déconnecter" not in page
    ok = client.post(reverse("login"), {"username": b.username, "password": DEFAULT_PASSWORD}, **meta)
    assert ok.status_code == 302


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_client_ip_is_what_the_trusted_proxy_saw():
    assert client_ip(_request("203.0.113.7")) == "203.0.113.7"
    # Whatever the client writes to the left is not trusted.
    assert client_ip(_request("203.0.113.7", spoofed="6.6.6.6")) == "203.0.113.7"


@override_settings(TRUSTED_PROXY_COUNT=0)
def test_client_ip_ignores_forwarded_for_without_a_trusted_proxy():
    assert client_ip(_request("203.0.113.7")) == PROXY


@override_settings(TRUSTED_PROXY_COUNT=2)
def test_client_ip_behind_two_proxies():
    request = RequestFactory().get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7, 10.0.0.2")
    assert client_ip(request) == "203.0.113.7"


@override_settings(API_TOKEN_TTL_HOURS=1)
def test_api_token_expires(mc, user_in):
    token = Token.objects.create(user=user_in(mc, "directeur_jeux"))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get("/api/v1/registers/").status_code == 200
    Token.objects.filter(pk=token.pk).update(created=timezone.now() - timedelta(hours=2))
    refused = client.get("/api/v1/registers/")
    assert refused.status_code == 401 and refused["WWW-Authenticate"] == "Token"
    assert "expiré" in refused.json()["detail"]


def test_check_deploy_is_clean_with_production_settings():
    """``manage.py check --deploy`` with a production-like environment: not one warning."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="registres.casino.example",
        CSRF_TRUSTED_ORIGINS="https://registres.casino.example",
        SECURE_PROXY_SSL="1",
        SECURE_HSTS_PRELOAD="1",
        LEDGERS_SIGNING_KEY=secrets.token_hex(32),
        DJANGO_SETTINGS_MODULE="casino_compliance.settings",
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    assert "no issues" in done.stdout


def test_api_is_throttled(mc, user_in, monkeypatch):
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"anon": "2/minute", "user": "3/minute"})
    cache.clear()
    anonymous = APIClient()
    assert [anonymous.get("/api/v1/schema/").status_code for _ in range(3)] == [200, 200, 429]
    client = APIClient()
    client.force_authenticate(user_in(mc, "directeur_jeux"))
    assert [client.get("/api/v1/registers/").status_code for _ in range(4)] == [200, 200, 200, 429]
