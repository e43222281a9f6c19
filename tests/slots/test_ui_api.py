"""The slot pages and API: pages answer in both jurisdictions, a refusal shows its code, the CSV
import and the API import write all rows or none."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from ledgers.slots import services
from ledgers.slots.models import JackpotPayment, Machine, MeterReading
from tests.factories import DEFAULT_PASSWORD

from .conftest import PNG

pytestmark = pytest.mark.django_db
API = "/api/v1/slots/"


def test_pages_answer_for_both_jurisdictions(client, mc_room, fr_room):
    for org in (mc_room, fr_room):
        machine = org.on_floor()
        releve = org.releve()
        sheet = services.intervention_open(machine=machine, actor=org["mecanicien"], reason="Test")
        for user in (org.keeper, org["superviseur"]):
            client.force_login(user)
            for name, kwargs in [
                ("machines", {}),
                ("socle_create", {}),
                ("machine_register", {}),
                ("machine", {"pk": machine.pk}),
                ("sheet", {"pk": machine.pk}),
                ("move", {"pk": machine.pk}),
                ("move_notice", {"pk": machine.pk}),
                ("ram_clear", {"pk": machine.pk}),
                ("intervention_open", {"pk": machine.pk}),
                ("intervention_close", {"pk": sheet.pk}),
                ("releve_open", {}),
                ("releve", {"pk": releve.pk}),
                ("import", {"pk": releve.pk}),
                ("box", {"pk": releve.pk}),
                ("count", {"pk": releve.pk}),
                ("releve_close", {"pk": releve.pk}),
                ("approval", {}),
                ("transmittal", {}),
                ("sfm_visit", {}),
                ("jackpot", {}),
                ("dispute", {}),
                ("top_up", {}),
                ("orphan", {}),
                ("files_copy", {}),
                ("events_import", {}),
                ("variance_threshold", {}),
                ("jackpot_threshold", {}),
            ]:
                assert client.get(reverse(f"slots:{name}", kwargs=kwargs)).status_code == 200, name
            assert "Machines à sous" in client.get(reverse("dashboard")).content.decode()


def test_register_a_machine_through_the_page_with_its_photo(client, mc_room):
    client.force_login(mc_room.keeper)
    data = {
        "machine_type": "Vidéo",
        "technology": "electronic",
        "maker": "IGT",
        "maker_serial": "X1",
        "sbm_number": "SBM9",
        "media": ["coins"],
        "stations": 1,
        "rtp_percent": "93",
        "rate_date": "2026-01-01",
        "credit_value": "0.01",
        "digits": 8,
        "characteristics": "3 rouleaux",
        "other_meters": "other:games 8",
        "photo": SimpleUploadedFile("m.png", PNG, content_type="image/png"),
    }
    response = client.post(reverse("slots:machine_register"), data)
    assert response.status_code == 302, response.context["form"].errors
    machine = Machine.objects.get(sbm_number="SBM9")
    assert response.status_code == 302 and machine.photo
    assert {m.key for m in machine.meters.all()} == {"in", "out", "jackpots", "cash_box", "other:games"}
    data["photo"] = SimpleUploadedFile("m.png", PNG, content_type="image/png")
    response = client.post(reverse("slots:machine_register"), data)
    assert response.status_code == 409 and "SLOT-02" in response.content.decode()


def test_csv_import_page_all_rows_or_none(client, mc_room):
    machine = mc_room.on_floor()
    releve = mc_room.releve()
    client.force_login(mc_room["superviseur"])
    lines = ["machine;station;meter;value"] + [f"{machine.number};1;{m.key};42" for m in machine.meters.all()]
    bad = "\n".join([*lines, f"{machine.number};1;unknown;1"])
    response = client.post(
        reverse("slots:import", kwargs={"pk": releve.pk}), {"file": SimpleUploadedFile("r.csv", bad.encode())}
    )
    assert response.status_code == 200 and "ligne" in response.content.decode()
    assert not MeterReading.objects.exists()
    response = client.post(
        reverse("slots:import", kwargs={"pk": releve.pk}),
        {"file": SimpleUploadedFile("r.csv", "\n".join(lines).encode())},
    )
    assert response.status_code == 302
    assert MeterReading.objects.filter(releve=releve).count() == machine.meters.count()


def test_api_releve_import_count_and_refusal(mc_room):
    machine = mc_room.on_floor()
    api = APIClient()
    api.force_authenticate(mc_room["mecanicien"])
    refused = api.post(f"{API}releves/", {"room": mc_room.room.pk}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "SLOT-22"
    api.force_authenticate(mc_room["superviseur"])
    releve = api.post(f"{API}releves/", {"room": mc_room.room.pk}, format="json").json()
    rows = [{"machine": machine.number, "station": m.station, "meter": m.key, "value": 7} for m in machine.meters.all()]
    response = api.post(f"{API}releves/{releve['id']}/readings/", {"rows": rows}, format="json")
    assert response.status_code == 201 and response.json() == {"count": len(rows), "lines": 1, "incidents": []}
    bad = api.post(f"{API}releves/{releve['id']}/readings/", {"rows": [{**rows[0], "meter": "zz"}]}, format="json")
    assert bad.status_code == 400
    count = api.post(f"{API}releves/{releve['id']}/counts/", {"machine": machine.pk, "counted": "0.00"}, format="json")
    assert count.status_code == 201 and count.json()["flagged"] is False
    listed = api.get(f"{API}machines/").json()["results"]
    assert listed[0]["number"] == machine.number and listed[0]["meters"]
    sheet = api.post(f"{API}interventions/", {"machine": machine.pk, "reason": "x"}, format="json")
    assert sheet.status_code == 409 and sheet.json()["code"] == "SLOT-14"


def test_jackpot_page_refusal_shows_its_code(client, mc_room):
    from ledgers.slots.models import JackpotPayment

    machine = mc_room.on_floor()
    client.force_login(mc_room["mecanicien"])
    response = client.post(
        reverse("slots:jackpot"), {"machine": machine.pk, "station": 1, "amount": "50", "method": "cash"}
    )
    assert response.status_code == 409 and "SLOT-22" in response.content.decode()
    client.force_login(mc_room["superviseur"])
    response = client.post(
        reverse("slots:jackpot"), {"machine": machine.pk, "station": 1, "amount": "50", "method": "cash"}
    )
    assert response.status_code == 302 and JackpotPayment.objects.count() == 1


def test_slot_35_api_fr_jackpot_needs_the_comite_member_signing(fr_room):
    machine = fr_room.on_floor()
    api = APIClient()
    api.force_authenticate(fr_room["caissier"])
    body = {"machine": machine.pk, "amount": "2500.00", "method": "cash", "combination": "7-7-7"}
    refused = api.post(f"{API}jackpots/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "SLOT-35"
    # SLOT-35: the comité member signs with his password; naming him is not enough.
    signer = {"controller_username": fr_room["comite"].username}
    wrong = api.post(f"{API}jackpots/", {**body, **signer, "controller_password": "x"}, format="json")
    assert wrong.status_code == 400 and "controller_password" in wrong.json()
    paid = api.post(f"{API}jackpots/", {**body, **signer, "controller_password": DEFAULT_PASSWORD}, format="json")
    assert paid.status_code == 201 and paid.json()["bon_number"] == 1
    assert paid.json()["controlled_by"] == fr_room["comite"].pk


def test_slot_35_jackpot_page_comite_member_signs_with_his_password(client, fr_room):
    machine = fr_room.on_floor()
    client.force_login(fr_room["caissier"])
    body = {"machine": machine.pk, "station": 1, "amount": "2500", "method": "cash", "combination": "7-7-7"}
    signer = {"controller_username": fr_room["comite"].username}
    response = client.post(reverse("slots:jackpot"), {**body, **signer, "controller_password": "x"})
    assert response.status_code == 200 and not JackpotPayment.objects.exists()
    response = client.post(reverse("slots:jackpot"), {**body, **signer, "controller_password": DEFAULT_PASSWORD})
    assert response.status_code == 302
    assert JackpotPayment.objects.get().controlled_by == fr_room["comite"]


def test_fr_repair_move_page_with_countersignatures(client, fr_room):
    from tests.factories import DEFAULT_PASSWORD

    machine = fr_room.on_floor()
    client.force_login(fr_room["comite"])
    url = reverse("slots:move", kwargs={"pk": machine.pk})
    data = {"to_place": "workshop", "reason": "breakdown", "observations": "Écran noir"}
    response = client.post(url, data)
    assert response.status_code == 409 and "SLOT-34" in response.content.decode()
    response = client.post(
        url, {**data, "technicien_username": fr_room["mecanicien"].username, "technicien_password": DEFAULT_PASSWORD}
    )
    assert response.status_code == 302
    machine.refresh_from_db()
    assert machine.place == "workshop"


def test_api_fr_repair_move_countersigned(fr_room):
    from tests.factories import DEFAULT_PASSWORD

    machine = fr_room.on_floor()
    api = APIClient()
    api.force_authenticate(fr_room["comite"])
    body = {"to_place": "workshop", "reason": "breakdown", "observations": "Écran noir"}
    refused = api.post(f"{API}machines/{machine.pk}/moves/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "SLOT-34"
    signer = {"technicien_username": fr_room["mecanicien"].username, "technicien_password": DEFAULT_PASSWORD}
    moved = api.post(f"{API}machines/{machine.pk}/moves/", {**body, **signer}, format="json")
    assert moved.status_code == 201 and moved.json()["to_place"] == "workshop"
