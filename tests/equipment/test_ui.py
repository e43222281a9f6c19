"""Pages of the equipment flows: they call the services, show a refusal with its ID and article,
and keep what the user typed."""

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from ledgers.core.catalogue import REQUIREMENTS
from ledgers.core.roles import Role
from ledgers.equipment.models import Shoe, ShoeAllocation, Wheel, WheelCheck, WheelKind
from tests.factories import DEFAULT_PASSWORD, make_user

from .conftest import mounted_shuffler, receive_shoes, session, shoe_model, wheel

PAGES = [
    "overview",
    "model_list",
    "shoe_list",
    "shoe_receive",
    "shoe_allocate",
    "shoe_return",
    "repeated_pairs",
    "destruction_list",
    "destruction_plan",
    "shuffler_list",
    "shuffler_create",
    "socle_create",
    "shuffler_use_start",
    "wheel_list",
    "wheel_create",
    "wheel_check",
    "lid_lock",
    "model_create",
    "launch_roster",
    "launch_turn",
    "exceptions",
]


@pytest.mark.parametrize("name", PAGES)
def test_every_page_renders_in_french(client, mco, name):
    client.force_login(mco.director)
    response = client.get(reverse(f"equipment:{name}"))
    # The cartier takes a sabot out, the inspecteur signs its return (SHOE-02): not the director.
    assert response.status_code == (409 if name in ("shoe_allocate", "shoe_return") else 200)
    assert "Vue par table" in response.content.decode()


def test_object_pages_render(client, mco):
    (shoe,) = receive_shoes(mco, ["S1"])
    machine = mounted_shuffler(mco, "PB1")
    cylinder = wheel(mco, WheelKind.ROULETTE_EUROPEENNE, table="R1")
    pb = session(mco, "PB1")
    client.force_login(mco.director)
    for url in (
        reverse("equipment:shoe_detail", args=[shoe.pk]),
        reverse("equipment:shoe_update", args=[shoe.pk]),
        reverse("equipment:shoe_withdraw", args=[shoe.pk]),
        reverse("equipment:shuffler_detail", args=[machine.pk]),
        reverse("equipment:shuffler_malfunction", args=[machine.pk]),
        reverse("equipment:wheel_detail", args=[cylinder.pk]),
        reverse("equipment:table", args=[pb.table_id]),
        reverse("equipment:table", args=[cylinder.table_id]),
    ):
        assert client.get(url).status_code == 200, url


def test_overview_shows_each_table_and_its_equipment(client, mco):
    (shoe,) = receive_shoes(mco, ["S7"])
    pb = session(mco, "PB1")
    from ledgers.equipment import services

    services.shoe_allocate(session=pb, shoe=shoe, actor=mco.users[Role.CARTIER])
    client.force_login(mco.director)
    page = client.get(reverse("equipment:overview")).content.decode()
    assert "Sabot n° S7" in page and "Punto banco n° PB1" in page
    assert "Registres à ouvrir" not in page


def test_receive_form_records_shoes(client, fro):
    model = shoe_model(fro)
    client.force_login(fro.users[Role.EMPLOYE_RESPONSABLE])
    response = client.post(
        reverse("equipment:shoe_receive"),
        {
            "model": model.pk,
            "location": fro.locations["armoire"].pk,
            "numbers": "11; SN-11\n12; SN-12",
        },
    )
    assert response.status_code == 302
    assert set(Shoe.objects.values_list("serial", "maker_serial")) == {("11", "SN-11"), ("12", "SN-12")}


def test_refusal_shows_id_and_article_and_keeps_input(client, fro):
    (shoe,) = receive_shoes(fro, ["11"])
    client.force_login(fro.users[Role.EMPLOYE_RESPONSABLE])
    response = client.post(
        reverse("equipment:shoe_receive"),
        {
            "model": shoe.model.pk,
            "location": fro.locations["armoire"].pk,
            "numbers": "11; SN-DOUBLE",
            "delivery_note": "BL-2026-118",
        },
    )
    page = response.content.decode()
    assert response.status_code == 409
    assert "SHOE-10" in page and REQUIREMENTS["SHOE-10"].article in page
    assert "SN-DOUBLE" in page and "BL-2026-118" in page  # nothing lost
    assert Shoe.objects.count() == 1


def test_allocation_form_flags_and_refusal(client, fro):
    (shoe,) = receive_shoes(fro, ["5"])
    pb = session(fro, "PB1")
    client.force_login(fro.users[Role.CROUPIER])
    response = client.post(reverse("equipment:shoe_allocate"), {"session": pb.pk, "shoe": shoe.pk})
    assert response.status_code == 409 and "SHOE-05" in response.content.decode()
    client.force_login(fro.users[Role.EMPLOYE_RESPONSABLE])
    response = client.post(reverse("equipment:shoe_allocate"), {"session": pb.pk, "shoe": shoe.pk})
    assert response.status_code == 302
    assert ShoeAllocation.objects.get().role == Role.EMPLOYE_RESPONSABLE


def test_wheel_check_form_countersigned_by_the_inspecteur(client, mco):
    wheel(mco, WheelKind.ROULETTE_EUROPEENNE, table="R1")
    r1 = session(mco, "R1")
    client.force_login(mco.users[Role.ENTRETIEN])
    data = {
        "session": r1.pk,
        "points": "Pivot\nCloisons\nObstacles",
        "passed": "1",
        "cosigner_username": mco.users[Role.INSPECTEUR].username,
        "cosigner_password": "wrong",
    }
    response = client.post(reverse("equipment:wheel_check"), data)
    assert response.status_code == 200 and "signature refusée" in response.content.decode()
    assert not WheelCheck.objects.exists()
    response = client.post(reverse("equipment:wheel_check"), {**data, "cosigner_password": DEFAULT_PASSWORD})
    assert response.status_code == 302
    check = WheelCheck.objects.get()
    assert check.points == ["Pivot", "Cloisons", "Obstacles"] and check.cosigner == mco.users[Role.INSPECTEUR]


def test_wheel_page_names_each_characteristic_and_the_checks_columns(client, mco):
    cylinder = wheel(mco, WheelKind.ROULETTE_EUROPEENNE, table="R1")
    client.force_login(mco.director)
    page = client.get(reverse("equipment:wheel_detail", args=[cylinder.pk])).content.decode()
    assert "Cases : 37" in page and "Obstacles : 7" in page and "pockets" not in page
    assert "Cylindre ou roue" in page and "Signataire" in page and ">Wheel<" not in page


def test_wheel_form_reloads_the_text_specification_with_htmx(client, mco):
    client.force_login(mco.director)
    response = client.get(
        reverse("equipment:wheel_create"), {"kind": "grande_roue", "number": "GR-4"}, HTTP_HX_REQUEST="true"
    )
    page = response.content.decode()
    assert "<html" not in page and "joker_noir = 1" in page and "24" in page
    assert 'value="GR-4"' in page  # what was typed stays


def test_wheel_form_refuses_wrong_segments_with_article(client, mco):
    client.force_login(mco.director)
    response = client.post(
        reverse("equipment:wheel_create"),
        {
            "number": "GR-9",
            "kind": "grande_roue",
            "segments": "joker_noir = 1, joker_jaune = 1, 20 = 2, 10 = 4, 5 = 7, 2 = 15, 1 = 25",
        },
    )
    assert response.status_code == 302
    machine = Wheel.objects.get(number="GR-9")
    response = client.post(reverse("equipment:wheel_commission", args=[machine.pk]), {"confirm": "on"})
    assert response.status_code == 409 and "WHEEL-05" in response.content.decode()


def test_lid_lock_form_with_key_holder(client, mco):
    wheel(mco, WheelKind.ROULETTE_EUROPEENNE, table="R1")
    r1 = session(mco, "R1")
    from ledgers.core.services import table_session_open
    from ledgers.equipment import services

    services.wheel_check_record(
        session=r1, actor=mco.users[Role.ENTRETIEN], cosigner=mco.users[Role.INSPECTEUR], points=["Pivot"], passed=True
    )
    table_session_open(session=r1, actor=mco.director)
    client.force_login(mco.users[Role.CROUPIER])
    response = client.post(reverse("equipment:lid_lock"), {"session": r1.pk})
    assert response.status_code == 409 and "KEY-08" in response.content.decode()
    response = client.post(
        reverse("equipment:lid_lock"),
        {
            "session": r1.pk,
            "key_holder_username": mco.users[Role.INSPECTEUR].username,
            "key_holder_password": DEFAULT_PASSWORD,
        },
    )
    assert response.status_code == 302


def test_english_interface(client, mco):
    client.force_login(mco.director)
    try:
        page = client.get(reverse("equipment:overview"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    finally:
        translation.activate(settings.LANGUAGE_CODE)  # the request left English active in this thread
    assert "Equipment by table" in page


def test_dashboard_panel_lists_what_waits_at_the_tables(client, fro):
    from ledgers.equipment.models import WheelKind as Kind

    wheel(fro, Kind.ROUE_CHANCE, table="RC1")
    session(fro, "RC1", session(fro, "PB1").seance)
    client.force_login(fro.director)
    page = client.get(reverse("dashboard")).content.decode()
    assert "Sabot à affecter" in page and "Vérification avant séance à faire" in page
    # Not on the home of a role that does not work with the equipment (the slot room's staff).
    client.force_login(make_user(fro.est, Role.EMPLOYE_JEUX, username="employe-jeux"))
    page = client.get(reverse("dashboard")).content.decode()
    assert page.count("Matériel") == 0 and "Sabot à affecter" not in page


def test_registers_are_written_in_french_whatever_the_interface_language(client, fro):
    (shoe,) = receive_shoes(fro, ["5"])
    pb = session(fro, "PB1")
    client.force_login(fro.users[Role.EMPLOYE_RESPONSABLE])
    try:
        response = client.post(
            reverse("equipment:shoe_allocate"), {"session": pb.pk, "shoe": shoe.pk}, HTTP_ACCEPT_LANGUAGE="en"
        )
    finally:
        translation.activate(settings.LANGUAGE_CODE)
    assert response.status_code == 302
    from ledgers.registers.selectors import current_register

    (page,) = current_register(fro.est, "carnet_avances", "PB1").entries.filter(kind="record")
    assert page.payload["event"] == "Affectation du sabot" and page.payload["sabot"]["role"] == "Employé responsable"


def test_role_refusal_is_a_403_page(client, mco):
    client.force_login(mco.users[Role.CROUPIER])
    response = client.post(reverse("equipment:model_create"), {"kind": "shoe", "manufacturer": "X", "name": "Y"})
    assert response.status_code == 403 and "réservée aux rôles" in response.content.decode()


def test_shoe_02_the_menu_offers_the_sabots_to_the_cartier_and_their_return_to_the_inspecteur(client, mco):
    pb = session(mco, "PB1")
    allocate, back = reverse("equipment:shoe_allocate"), reverse("equipment:shoe_return")
    client.force_login(mco.users[Role.CROUPIER])
    page = client.get(reverse("equipment:table", args=[pb.table_id])).content.decode()
    assert f'href="{allocate}' not in page and f'href="{back}"' not in page and "SHOE-02" in page
    for url in (allocate, f"{allocate}?session={pb.pk}", back):
        refused = client.get(url)
        assert refused.status_code == 409 and '<form method="post"' not in refused.content.decode(), url
    client.force_login(mco.users[Role.CARTIER])
    page = client.get(reverse("equipment:table", args=[pb.table_id])).content.decode()
    assert f'href="{allocate}?session={pb.pk}"' in page and f'href="{back}"' not in page
    assert client.get(allocate).status_code == 200 and client.get(back).status_code == 409
    client.force_login(mco.users[Role.INSPECTEUR])
    assert f'href="{back}"' in client.get(reverse("equipment:overview")).content.decode()
    assert client.get(back).status_code == 200


def test_shoe_05_the_fr_croupier_is_refused_before_the_form(client, fro):
    pb = session(fro, "PB1")
    client.force_login(fro.users[Role.CROUPIER])
    refused = client.get(f"{reverse('equipment:shoe_allocate')}?session={pb.pk}")
    assert refused.status_code == 409 and "SHOE-05" in refused.content.decode()
    client.force_login(fro.users[Role.EMPLOYE_RESPONSABLE])
    assert client.get(f"{reverse('equipment:shoe_allocate')}?session={pb.pk}").status_code == 200


@pytest.mark.parametrize(
    ("org_name", "number", "keeper"),
    [("mco", "R1", Role.CARTIER), ("fro", "RA1", Role.EMPLOYE_RESPONSABLE)],  # SHOE-02, SHOE-05
)
def test_shoe_02_shoe_05_no_sabot_offered_at_a_table_whose_game_uses_none(client, request, org_name, number, keeper):
    org = request.getfixturevalue(org_name)
    roulette = session(org, number)
    pb = session(org, "PB1", roulette.seance)
    client.force_login(org.users[keeper])
    page = client.get(reverse("equipment:table", args=[roulette.table_id])).content.decode()
    assert f"{reverse('equipment:shoe_allocate')}?session={roulette.pk}" not in page
    page = client.get(reverse("equipment:table", args=[pb.table_id])).content.decode()
    assert f'href="{reverse("equipment:shoe_allocate")}?session={pb.pk}"' in page
