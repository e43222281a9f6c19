"""The house from an empty database: the administrator creates the establishment with its first
director (command, page, API); the directorate adds rooms and places (pages, API), each act a line
of the register of authorisations; the set-up area says what exists and what is missing; and
``verify_ledgers`` finds every such change with its entry."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from ledgers.core.models import Establishment, Location, Membership, Room
from ledgers.core.roles import Role
from ledgers.core.services import location_create, room_create
from ledgers.registers.kinds import AUTHORISATIONS
from ledgers.registers.models import Entry
from tests.factories import DEFAULT_PASSWORD, EstablishmentFactory, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.postgresql]


def lines(est) -> list[dict]:
    return [
        e.payload
        for e in Entry.objects.filter(register__establishment=est, register__kind=AUTHORISATIONS.code).order_by("pk")
    ]


def subjects(est) -> list[str]:
    return [payload.get("subject") for payload in lines(est)]


def superuser(username="admin"):
    return get_user_model().objects.create_superuser(username=username, password=DEFAULT_PASSWORD, email="")


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def verify() -> list[str]:
    out = io.StringIO()
    call_command("verify_ledgers", stdout=out)
    return [line for line in out.getvalue().splitlines() if not line.startswith("OK")]


@pytest.fixture
def fr():
    return EstablishmentFactory(code="fr-house", jurisdiction="FR")


@pytest.fixture
def director(fr):
    return make_user(fr, Role.DIRECTEUR_RESPONSABLE, username="directeur")


# --- the establishment -------------------------------------------------------------------------


def test_command_creates_a_french_house_and_grants_its_directeur_responsable():
    person = get_user_model().objects.create_user(username="dupont", first_name="Jean", last_name="Dupont")
    out = io.StringIO()
    call_command(
        "create_establishment",
        "--code=casino-nice",
        "--name=Casino de Nice",
        "--jurisdiction=FR",
        "--director=dupont",
        "--setting=SET-20=2",
        stdout=out,
    )
    est = Establishment.objects.get(code="casino-nice")
    assert (est.jurisdiction, est.timezone, est.setting("SET-20")) == ("FR", "Europe/Paris", 2)
    assert Membership.objects.filter(user=person, establishment=est, role=Role.DIRECTEUR_RESPONSABLE).exists()
    assert "directeur_responsable" in out.getvalue()
    assert len(lines(est)) >= 2  # the creation and the grant
    assert verify() == []


def test_command_monaco_grants_the_directeur_des_jeux():
    person = get_user_model().objects.create_user(username="rossi")
    call_command("create_establishment", "--code=mc", "--name=Casino", "--jurisdiction=MC", "--director=rossi")
    est = Establishment.objects.get(code="mc")
    assert est.timezone == "Europe/Monaco"
    assert Membership.objects.filter(user=person, establishment=est, role=Role.DIRECTEUR_JEUX).exists()


def test_command_refuses_an_unknown_director_and_writes_nothing():
    with pytest.raises(CommandError, match="personne"):
        call_command("create_establishment", "--code=x", "--name=X", "--jurisdiction=FR", "--director=nobody")
    assert not Establishment.objects.exists()


def test_command_refuses_an_unknown_setting():
    get_user_model().objects.create_user(username="dupont")
    with pytest.raises(CommandError):
        call_command(
            "create_establishment",
            "--code=x",
            "--name=X",
            "--jurisdiction=FR",
            "--director=dupont",
            "--setting=SET-9999=1",
        )
    assert not Establishment.objects.exists()


def test_an_administrator_signing_in_with_no_establishment_is_led_to_create_one():
    admin = superuser()
    client = signed_in(admin)
    assert client.get("/").url == reverse("establishment-create")
    get_user_model().objects.create_user(username="dupont")
    response = client.post(
        reverse("establishment-create"),
        {"code": "casino-nice", "name": "Casino de Nice", "jurisdiction": "FR", "director": "dupont"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    est = Establishment.objects.get(code="casino-nice")
    assert (
        Membership.objects.filter(user__username="dupont", establishment=est).get().role == Role.DIRECTEUR_RESPONSABLE
    )
    assert client.get("/").status_code == 200  # an establishment exists: the home again


def test_only_an_administrator_creates_an_establishment(director):
    assert signed_in(director).get(reverse("establishment-create")).status_code == 403
    api = APIClient()
    api.force_authenticate(director)
    response = api.post(
        "/api/v1/establishment/create/", {"code": "x", "name": "X", "jurisdiction": "MC", "director": "directeur"}
    )
    assert response.status_code == 403


def test_api_creates_an_establishment_with_its_settings():
    admin = superuser()
    get_user_model().objects.create_user(username="rossi")
    api = APIClient()
    api.force_authenticate(admin)
    response = api.post(
        "/api/v1/establishment/create/",
        {"code": "mc2", "name": "Casino 2", "jurisdiction": "MC", "director": "rossi", "options": {"SET-20": 3}},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert Establishment.objects.get(code="mc2").setting("SET-20") == 3


# --- rooms and places --------------------------------------------------------------------------


def test_room_and_location_each_write_their_line(fr, director):
    room = room_create(establishment=fr, code="europe", name="Salle Europe", actor=director)
    location_create(
        establishment=fr, code="armoire", name="Armoire cartes", kind="card_cabinet", room=room, actor=director
    )
    texts = " ".join(str(payload) for payload in lines(fr))
    assert "Salle Europe" in texts and "Armoire cartes" in texts
    assert verify() == []


def test_room_refused_to_a_croupier(fr):
    croupier = make_user(fr, Role.CROUPIER)
    with pytest.raises(Exception) as refused:
        room_create(establishment=fr, code="europe", name="Salle Europe", actor=croupier)
    assert refused.type.__name__ == "PermissionDenied"
    assert not Room.objects.exists()


def test_room_code_given_twice_is_refused(fr, director):
    room_create(establishment=fr, code="europe", name="Salle Europe", actor=director)
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        room_create(establishment=fr, code="europe", name="Autre", actor=director)


def test_pages_add_a_room_and_a_depot(fr, director):
    client = signed_in(director)
    assert client.post(reverse("setup-rooms"), {"code": "europe", "name": "Salle Europe"}).status_code == 302
    room = Room.objects.get(establishment=fr, code="europe")
    response = client.post(
        reverse("setup-locations"), {"code": "depot", "name": "Dépôt", "kind": "depot_principal", "room": room.pk}
    )
    assert response.status_code == 302
    assert Location.objects.get(establishment=fr, code="depot").room == room
    page = client.get(reverse("setup-locations")).content.decode()
    assert "Dépôt" in page and "_export=csv" in page
    export = client.get(reverse("setup-locations") + "?_export=csv")
    assert export.status_code == 200 and "depot" in export.content.decode("utf-8-sig")


def test_the_set_up_area_says_what_is_missing(fr, director):
    client = signed_in(director)
    page = client.get(reverse("setup")).content.decode()
    assert "Aucune salle" in page
    room_create(establishment=fr, code="europe", name="Salle Europe", actor=director)
    page = client.get(reverse("setup")).content.decode()
    assert "Aucune salle" not in page
    assert client.get(reverse("setup") + "?_export=xlsx").status_code == 200


def test_the_set_up_area_is_the_directorate_s(fr):
    croupier = make_user(fr, Role.CROUPIER)
    assert signed_in(croupier).get(reverse("setup")).status_code == 403


def test_api_adds_rooms_and_locations(fr, director):
    api = APIClient()
    api.force_authenticate(director)
    room = api.post("/api/v1/establishment/rooms/", {"code": "europe", "name": "Salle Europe"})
    assert room.status_code == 201, room.json()
    location = api.post(
        "/api/v1/establishment/locations/",
        {"code": "coffre", "name": "Coffre", "kind": "coffre", "room": room.json()["id"]},
        format="json",
    )
    assert location.status_code == 201, location.json()
    assert api.get("/api/v1/establishment/locations/").json()["results"][0]["code"] == "coffre"
    refused = api.post("/api/v1/establishment/locations/", {"code": "x", "name": "X", "kind": "nowhere"})
    assert refused.status_code == 400


def test_a_monaco_house_is_told_which_places_its_keys_need():
    mc = EstablishmentFactory(code="mc-house", jurisdiction="MC")
    director = make_user(mc, Role.DIRECTEUR_JEUX, username="dj-house")
    page = signed_in(director).get(reverse("setup")).content.decode()
    for kind in ("Coffre d&#x27;exploitation", "Caisse centrale", "Comptabilité générale"):
        assert kind in page
    location_create(establishment=mc, code="coffre", name="Coffre", kind="coffre", actor=director)
    assert "Coffre d&#x27;exploitation" not in signed_in(director).get(reverse("setup")).content.decode()


def test_the_creation_page_names_an_unknown_director_on_its_field():
    client = signed_in(superuser())
    response = client.post(
        reverse("establishment-create"), {"code": "x", "name": "X", "jurisdiction": "MC", "director": "nobody"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["director"]
    assert not Establishment.objects.exists()
