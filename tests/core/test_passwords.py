"""Passwords that belong to their owner, in Monaco and in France: an outside official invited by a
link mailed to them (valid a limited time, spent once used, never shown to the directorate), a
provisional password replaced at the next sign-in before anything else, one's own change (current
password required, throttled like the sign-in), the reset by e-mail through Django's views; each a
line of the register of authorisations without the secret."""

import datetime
import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from ledgers.core import accounts, passwords
from ledgers.core.models import StaffAccount
from ledgers.core.roles import Role
from tests.core.staff import authorisation_lines, director_of
from tests.factories import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db

NEW = "Un-secret-bien-a-moi-42"


@pytest.fixture(params=("mc", "fr"))
def house(request):
    return request.getfixturevalue(request.param)


def official_role(house) -> str:
    return Role.SCJ if house.jurisdiction == "MC" else Role.POLICE


def invite(house, django_capture_on_commit_callbacks, **fields):
    director = director_of(house)
    official = accounts.account_create(
        establishment=house,
        username=fields.get("username", "official"),
        first_name="Olivier",
        last_name="Officiel",
        email="olivier.officiel@interieur.example",
        roles=[official_role(house)],
        actor=director,
    )
    with django_capture_on_commit_callbacks(execute=True):
        passwords.account_invite(establishment=house, user=official, actor=director)
    return director, official


def link_in(message) -> str:
    return re.search(r"https?://[^/\s]+(/invitation/[^\s]+/)", message.body).group(1)


def test_official_invited_by_link_sets_own_password_nobody_else_knows(
    client, house, mailoutbox, django_capture_on_commit_callbacks
):
    _director, official = invite(house, django_capture_on_commit_callbacks)
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["olivier.officiel@interieur.example"]
    link = link_in(mailoutbox[0])
    # The directorate's line names the address and the expiry, never the link's token.
    token = link.rstrip("/").rsplit("/", 1)[1]
    lines = authorisation_lines(house)
    assert any("olivier.officiel@interieur.example" in line for line in lines)
    assert all(token not in line for line in lines)

    form = client.get(link, follow=True)
    assert form.status_code == 200 and "new_password1" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302
    official.refresh_from_db()
    assert official.check_password(NEW)
    assert not StaffAccount.objects.get(user=official).must_set_password
    assert any("a choisi son mot de passe par le lien" in line for line in authorisation_lines(house))
    assert all(NEW not in line for line in authorisation_lines(house))
    # Spent: the same link no longer opens the form.
    client.logout()
    again = client.get(link, follow=True)
    assert "n'est plus valable" in again.content.decode()


def test_expired_invitation_says_so_and_changes_nothing(client, house, mailoutbox, django_capture_on_commit_callbacks):
    _director, official = invite(house, django_capture_on_commit_callbacks)
    link = link_in(mailoutbox[0])
    later = passwords.invitation_tokens._now() + datetime.timedelta(hours=73)
    passwords.invitation_tokens._now = lambda: later
    try:
        page = client.get(link, follow=True).content.decode()
    finally:
        del passwords.invitation_tokens._now
    assert "n'est plus valable" in page
    official.refresh_from_db()
    assert not official.has_usable_password()


def test_invitation_link_is_refused_by_the_reset_page_and_a_reset_link_by_the_invitation(
    client, house, mailoutbox, django_capture_on_commit_callbacks
):
    invite(house, django_capture_on_commit_callbacks)
    link = link_in(mailoutbox[0]).replace("/invitation/", "/reinitialisation/")
    assert "n'est plus valable" in client.get(link, follow=True).content.decode()


def test_official_never_gets_a_provisional_password(house, user_in):
    director = director_of(house)
    official = user_in(house, official_role(house))
    with pytest.raises(Exception, match="invitation"):
        passwords.account_password_provisional(establishment=house, user=official, password=NEW, actor=director)
    assert official.check_password(DEFAULT_PASSWORD)


def test_provisional_password_must_be_replaced_before_anything_else(client, house, user_in):
    director = director_of(house)
    croupier = accounts.account_create(
        establishment=house, username="floor", first_name="Flo", last_name="Rence", roles=["croupier"], actor=director
    )
    passwords.account_password_provisional(
        establishment=house, user=croupier, password="Provisoire-2026-abc", actor=director
    )
    assert any("Mot de passe provisoire" in line for line in authorisation_lines(house))
    assert all("Provisoire-2026-abc" not in line for line in authorisation_lines(house))

    signed_in = client.post(reverse("login"), {"username": "floor", "password": "Provisoire-2026-abc"})
    assert signed_in.status_code == 302
    held = client.get(reverse("seances"))
    assert held.status_code == 302 and held.url.startswith(reverse("password-change"))
    assert client.get("/api/v1/seances/").status_code == 403
    page = client.get(reverse("password-change")).content.decode()
    assert "avant toute autre chose" in page

    changed = client.post(
        reverse("password-change"),
        {"old_password": "Provisoire-2026-abc", "new_password": NEW, "repeated_password": NEW},
    )
    assert changed.status_code == 302
    assert client.get(reverse("seances")).status_code == 200  # the session goes on, free
    croupier.refresh_from_db()
    assert croupier.check_password(NEW) and not StaffAccount.objects.get(user=croupier).must_set_password


def test_own_password_change_requires_the_current_one_and_validators(client, house, user_in):
    user = user_in(house, Role.INSPECTEUR)
    client.force_login(user)
    wrong = client.post(
        reverse("password-change"), {"old_password": "pas-le-bon", "new_password": NEW, "repeated_password": NEW}
    )
    assert wrong.status_code == 200 and "Mot de passe actuel incorrect" in wrong.content.decode()
    weak = client.post(
        reverse("password-change"),
        {"old_password": DEFAULT_PASSWORD, "new_password": "1234", "repeated_password": "1234"},
    )
    assert weak.status_code == 200 and "trop court" in weak.content.decode()
    user.refresh_from_db()
    assert user.check_password(DEFAULT_PASSWORD)
    before = len(authorisation_lines(house))
    done = client.post(
        reverse("password-change"),
        {"old_password": DEFAULT_PASSWORD, "new_password": NEW, "repeated_password": NEW},
    )
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW)
    assert len(authorisation_lines(house)) == before + 1


def test_api_password_change(house, user_in):
    user = user_in(house, Role.CAISSIER)
    client = APIClient()
    client.force_authenticate(user)
    refused = client.post("/api/v1/staff/password/", {"old_password": "x", "new_password": NEW}, format="json")
    assert refused.status_code == 400 and "old_password" in refused.json()
    done = client.post(
        "/api/v1/staff/password/", {"old_password": DEFAULT_PASSWORD, "new_password": NEW}, format="json"
    )
    assert done.status_code == 204
    user.refresh_from_db()
    assert user.check_password(NEW)


def test_api_invites_and_gives_a_provisional_password(house, user_in, mailoutbox, django_capture_on_commit_callbacks):
    director = director_of(house)
    client = APIClient()
    client.force_authenticate(director)
    created = client.post(
        "/api/v1/staff/people/",
        {
            "username": "apiofficial",
            "first_name": "A",
            "last_name": "Official",
            "email": "a@example.org",
            "roles": [official_role(house)],
        },
        format="json",
    ).json()
    with django_capture_on_commit_callbacks(execute=True):
        invited = client.post(f"/api/v1/staff/people/{created['id']}/invitation/", format="json")
    assert invited.status_code == 201 and "valid_until" in invited.json()
    assert mailoutbox[-1].to == ["a@example.org"] and "/invitation/" in mailoutbox[-1].body
    assert "/invitation/" not in invited.content.decode()
    refused = client.post(
        f"/api/v1/staff/people/{created['id']}/provisional-password/", {"password": NEW}, format="json"
    )
    assert refused.status_code == 400
    croupier = user_in(house, Role.CROUPIER)
    given = client.post(f"/api/v1/staff/people/{croupier.pk}/provisional-password/", {"password": NEW}, format="json")
    assert given.status_code == 200 and given.json()["must_set_password"]


def test_reset_by_email_through_djangos_views(client, house, user_in, mailoutbox):
    user = user_in(house, Role.CARTIER, email="cartier@example.org")
    assert client.post(reverse("password_reset"), {"email": "cartier@example.org"}).status_code == 302
    assert len(mailoutbox) == 1
    link = re.search(r"https?://[^/\s]+(/reinitialisation/[^\s]+/)", mailoutbox[0].body).group(1)
    form = client.get(link, follow=True)
    done = client.post(form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW)
    assert any("a choisi son mot de passe par le lien" in line for line in authorisation_lines(house))
