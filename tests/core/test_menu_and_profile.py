from datetime import timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token

from ledgers.registers.navigation import menu_for


def labels(items) -> dict[str, bool]:
    return {str(item.label): item.read_only for item in items}


def test_menu_shows_the_areas_a_role_records_in():
    croupier = labels(menu_for({"croupier"}, "MC"))
    # the croupier writes his blind count in the banque des tables register (COUNT-05)
    assert {"Accueil", "Cartes", "Matériel", "Caisses des jeux", "Incidents", "Registres"} <= set(croupier)
    assert not {"Machines à sous", "Clés", "Séances"} & set(croupier)
    caissier = labels(menu_for({"caissier"}, "MC"))
    assert {"Caisses des jeux", "Machines à sous", "Clés"} <= set(caissier) and "Cartes" not in caissier


def test_menu_of_a_regulator_reads_where_it_only_visas():
    police = labels(menu_for({"police"}, "FR"))
    # the police writes in the key register (KEY-*) and visas the slot registers (fiche modèle 34)
    assert police["Clés"] is False and police["Machines à sous"] is True and police["Autorités"] is False
    commissaire = labels(menu_for({"commissaire"}, "MC"))
    assert commissaire["Cartes"] is True and commissaire["Séances"] is True


def test_menu_in_the_page_follows_the_role(client, mc, user_in):
    client.force_login(user_in(mc, "croupier"))
    page = client.get(reverse("dashboard")).content.decode()
    assert reverse("cards:day") in page and reverse("slots:machines") not in page


def test_profile_creates_shows_and_revokes_the_api_token(client, mc, user_in, settings):
    user = user_in(mc, "inspecteur")
    client.force_login(user)
    assert "Vous n'avez pas de jeton." in client.get(reverse("profile")).content.decode()

    client.post(reverse("profile"), {"action": "create"})
    token = Token.objects.get(user=user)
    page = client.get(reverse("profile")).content.decode()
    assert token.key in page and "Expire le" in page
    # shown once only
    assert token.key not in client.get(reverse("profile")).content.decode()
    expected = token.created + timedelta(hours=settings.API_TOKEN_TTL_HOURS)
    assert client.get(reverse("profile")).context["expires"] == expected > timezone.now()
    api = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.get("/api/v1/registers/").status_code == 200

    client.post(reverse("profile"), {"action": "revoke"})
    assert not Token.objects.filter(user=user).exists()
    assert Client(HTTP_AUTHORIZATION=f"Token {token.key}").get("/api/v1/registers/").status_code in (401, 403)
