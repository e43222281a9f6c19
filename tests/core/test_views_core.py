import html
import re

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from ledgers.core.authz import save_audited
from ledgers.core.selectors import SESSION_KEY
from ledgers.core.services import gaming_table_create, location_create, membership_grant, room_create
from tests.factories import DEFAULT_PASSWORD, open_register


def text(response) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", response.content.decode()))


# Login, logout, language ---------------------------------------------------------------------------------------


def test_login_page_is_french_by_default(client):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert "Connexion" in text(response) and "Mot de passe" in text(response)


def test_login_then_dashboard_then_logout(client, mc, user_in):
    user = user_in(mc, "inspecteur")
    response = client.post(reverse("login"), {"username": user.username, "password": DEFAULT_PASSWORD})
    assert response.status_code == 302 and response.url == reverse("dashboard")
    page = text(client.get(reverse("dashboard")))
    assert "À faire" in page and mc.name in page and "Inspecteur" in page
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("dashboard")).status_code == 302


def test_login_refused_with_a_wrong_password(client, mc, user_in):
    user = user_in(mc, "inspecteur")
    response = client.post(reverse("login"), {"username": user.username, "password": "non"})
    assert response.status_code == 200 and "_auth_user_id" not in client.session


def test_language_switch_to_english(client, mc, user_in):
    client.force_login(user_in(mc, "inspecteur"))
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    page = text(client.get(reverse("dashboard")))
    assert "To do" in page and "À faire" not in page


# Dashboard and establishment switcher -------------------------------------------------------------------------


def test_dashboard_of_a_user_without_establishment(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("orphelin", password=DEFAULT_PASSWORD))
    assert "aucun établissement" in text(client.get(reverse("dashboard")))


def test_switching_establishment(client, mc, fr, user_in):
    user = user_in(mc, "inspecteur")
    user_in(fr, "comite", username="autre")  # fr has staff of its own
    membership_grant(user=user, establishment=fr, role="comite", actor=None)
    client.force_login(user)
    assert f'value="{fr.pk}"' in client.get(reverse("dashboard")).content.decode()  # the switcher
    response = client.post(reverse("establishment-switch"), {"establishment": fr.pk, "next": "/registres/"})
    assert response.status_code == 302 and response.url == "/registres/"
    assert client.session[SESSION_KEY] == fr.pk
    assert fr.name in text(client.get(reverse("establishment")))


def test_switching_to_an_establishment_of_others_is_404(client, mc, fr, user_in):
    client.force_login(user_in(mc, "inspecteur"))
    assert client.post(reverse("establishment-switch"), {"establishment": fr.pk}).status_code == 404


def test_switch_ignores_a_foreign_next_url(client, mc, user_in):
    client.force_login(user_in(mc, "inspecteur"))
    response = client.post(
        reverse("establishment-switch"), {"establishment": mc.pk, "next": "https://ailleurs.example/"}
    )
    assert response.url == "/"


# Establishment page and object history --------------------------------------------------------------------------


@pytest.fixture
def floor(mc, user_in):
    director = user_in(mc, "directeur_jeux")
    room = room_create(establishment=mc, code="europe", name="Salle Europe", actor=director)
    open_register(mc, "main_courante")  # where a Monaco table's set-up is written
    table = gaming_table_create(room=room, number="BJ1", game="blackjack", actor=director)
    depot = location_create(establishment=mc, code="dp", name="Dépôt principal", kind="depot_principal", actor=director)
    return director, room, table, depot


def test_establishment_page_lists_rooms_tables_locations_with_history_links(client, mc, floor):
    director, room, table, depot = floor
    client.force_login(director)
    page = client.get(reverse("establishment")).content.decode()
    for obj, name in ((mc, "establishment"), (room, "room"), (table, "gamingtable"), (depot, "location")):
        assert reverse("object-history", args=["core", name, obj.pk]) in page
    assert "Salle Europe" in page and "Black-jack" in page and "Dépôt principal" in page


def test_history_shows_who_when_what_changed_and_why(client, mc, floor):
    director, _, table, _ = floor
    table.seats = 6
    save_audited(table, actor=director, reason="réaménagement de la salle")
    client.force_login(director)
    page = text(client.get(reverse("object-history", args=["core", "gamingtable", table.pk])))
    assert "réaménagement de la salle" in page and "Places : 7 → 6" in page
    assert "Création" in page and "Jeu : Black-jack" in page and director.get_full_name() in page


def test_history_is_404_for_another_establishment(client, fr, floor, user_in):
    _, _, table, _ = floor
    client.force_login(user_in(fr, "police"))
    assert client.get(reverse("object-history", args=["core", "gamingtable", table.pk])).status_code == 404


@pytest.mark.parametrize("app_label,model", [("auth", "user"), ("core", "nosuchmodel"), ("core", "historicalroom")])
def test_history_only_for_tracked_objects_of_ours(client, mc, floor, app_label, model):
    director, *_ = floor
    client.force_login(director)
    assert client.get(reverse("object-history", args=[app_label, model, director.pk])).status_code == 404


def test_setup_services_refuse_staff_outside_the_directorate(mc, user_in):
    with pytest.raises(PermissionDenied):
        room_create(establishment=mc, code="x", name="X", actor=user_in(mc, "croupier"))
