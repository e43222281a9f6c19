"""The slot API for the flows that had only a page: each endpoint calls the page's service, and a
refusal of the texts answers 409 with its requirement ID and article."""

import datetime
import re
from decimal import Decimal

from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.core.models import Location
from ledgers.keys.services import key_register
from ledgers.registers.models import Entry
from ledgers.slots import services
from ledgers.slots.models import BoxExchange, Orphan, PaymentDispute, RamClear, Socle, TopUp
from tests.factories import countersignature

from .conftest import photo

API = "/api/v1/slots/"


def _api(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def _refused(response, code: str) -> None:
    assert response.status_code == 409, response.content
    assert response.json()["code"] == code and response.json()["article"]


def test_slot_03_api_socle_created_once_and_never_renumbered(mc_room):
    api = _api(mc_room.keeper)
    body = {"room": mc_room.room.pk, "number": "S-42", "position": "Rangée A"}
    created = api.post(f"{API}socles/", body, format="json")
    assert created.status_code == 201 and created.json()["number"] == "S-42"
    assert Socle.objects.get(pk=created.json()["id"]).active
    _refused(api.post(f"{API}socles/", body, format="json"), "SLOT-03")
    assert (
        _api(mc_room["mecanicien"]).post(f"{API}socles/", {**body, "number": "S-43"}, format="json").status_code == 403
    )


def _machine_body(room, **extra) -> dict:
    data = room.machine_input()
    body = {name: value for name, value in vars(data).items() if name != "meters"}
    body.update(
        rate_date=data.rate_date.isoformat(),
        rtp_percent=str(data.rtp_percent),
        credit_value=str(data.credit_value),
        digits=8,
    )
    return {**{k: v for k, v in body.items() if v is not None}, **extra}


def test_slot_04_slot_52_api_machine_registered_in_the_inventory(mc_room, fr_room):
    fr = _api(fr_room.keeper)
    body = _machine_body(fr_room, other_meters=[{"code": "other", "label": "games", "digits": 8}])
    created = fr.post(f"{API}machines/register/", body, format="json")
    assert created.status_code == 201, created.content
    machine = created.json()
    assert machine["place"] == "store" and any(m["code"] == "other" for m in machine["meters"])
    _refused(fr.post(f"{API}machines/register/", {**body, "casino_number": ""}, format="json"), "SLOT-52")
    mc = _api(mc_room.keeper)
    body = _machine_body(mc_room)
    _refused(mc.post(f"{API}machines/register/", body, format="json"), "SLOT-04")  # no photo
    multipart = {**body, "photo": photo()}
    created = mc.post(f"{API}machines/register/", multipart, format="multipart")
    assert created.status_code == 201, created.content


def test_slot_07_api_technical_sheet_new_version(mc_room):
    machine = mc_room.register_machine()
    api = _api(mc_room.keeper)
    url = f"{API}machines/{machine.pk}/sheets/"
    sheet = api.post(url, {"characteristics": "Nouvel écran", "rtp_percent": "93.00"}, format="json")
    assert sheet.status_code == 201 and sheet.json()["version"] == 2
    machine.refresh_from_db()
    assert machine.rtp_percent == Decimal("93.00")
    _refused(
        api.post(url, {"characteristics": "Deux taux", "rtp_percent": "93.00", "levy_percent": "5.00"}, format="json"),
        "SLOT-07",
    )


def test_key_15_api_ram_clear_by_the_comite_member_holding_the_reset_key(fr_room):
    machine = fr_room.on_floor()
    keys = [m.key_at for m in machine.meters.all()]
    body = {
        "reset_key": "RK-1",
        "reason": "Panne mémoire",
        "before": {k: 5 for k in keys},
        "after": {k: 0 for k in keys},
    }
    url = f"{API}machines/{machine.pk}/ram-clears/"
    _refused(_api(fr_room["comite"]).post(url, body, format="json"), "KEY-15")  # no such key registered
    key_register(
        establishment=fr_room.est,
        actor=fr_room.keeper,
        code="RK-1",
        lock_type="reset",
        opens="Réinitialisation",
        asset_ref=machine.number,
        custodian=fr_room["comite"],
    )
    done = _api(fr_room["comite"]).post(url, body, format="json")
    assert done.status_code == 201 and RamClear.objects.get(pk=done.json()["id"]).readings.count() == 2 * len(keys)
    bad = _api(fr_room["comite"]).post(url, {**body, "before": {}}, format="json")
    assert bad.status_code == 400


def test_slot_24_api_box_exchange_during_an_open_relève_only(mc_room):
    machine = mc_room.on_floor()
    releve = mc_room.releve()
    api = _api(mc_room["superviseur"])
    body = {"machine": machine.pk, "box": "bill", "removed": "BB-1", "replaced_by": "BB-2"}
    done = api.post(f"{API}releves/{releve.pk}/boxes/", body, format="json")
    assert done.status_code == 201 and BoxExchange.objects.filter(releve=releve).count() == 1
    machine.refresh_from_db()
    assert machine.bill_box == "BB-2"
    assert api.post(f"{API}releves/{releve.pk}/boxes/", body, format="json").status_code == 400  # twice
    from ledgers.slots import services

    services.releve_close(releve=releve, actor=mc_room["superviseur"])
    _refused(api.post(f"{API}releves/{releve.pk}/boxes/", {**body, "box": "cash"}, format="json"), "SLOT-24")


def test_slot_15_api_daily_envelope_of_the_superviseur(mc_room, fr_room):
    machine = mc_room.on_floor()
    from ledgers.slots import services

    sheet = services.intervention_open(machine=machine, actor=mc_room["mecanicien"], reason="Écran")
    api = _api(mc_room["superviseur"])
    body = {
        "date": timezone.localdate().isoformat(),
        **countersignature("received_by", mc_room["directeur_exploitation"]),
    }
    _refused(api.post(f"{API}transmittals/", body, format="json"), "SLOT-15")  # a sheet still open
    unsigned = {**body, "received_by_password": "not-his-password"}
    assert api.post(f"{API}transmittals/", unsigned, format="json").status_code == 400
    services.intervention_close(intervention=sheet, actor=mc_room["mecanicien"], work_done="Remplacé")
    done = api.post(f"{API}transmittals/", body, format="json")
    assert done.status_code == 201 and done.json()["date"] == body["date"]
    assert api.post(f"{API}transmittals/", body, format="json").status_code == 400  # handed over already
    other_day = {
        **body,
        "date": (timezone.localdate() - datetime.timedelta(days=1)).isoformat(),
        **countersignature("received_by", fr_room["directeur_responsable"]),
    }
    assert _api(fr_room["superviseur"]).post(f"{API}transmittals/", other_day, format="json").status_code == 400


def test_inc_04_api_contested_payment_decided_after_hearing_the_mechanic(mc_room):
    machine = mc_room.on_floor()
    body = {
        "machine": machine.pk,
        "claim": "Gain non payé",
        "mechanic": mc_room["mecanicien"].pk,
        "mechanic_statement": "Panne d'affichage",
        "decision": "Payé",
        "amount_paid": "20.00",
    }
    _refused(_api(mc_room["mecanicien"]).post(f"{API}disputes/", body, format="json"), "INC-04")
    done = _api(mc_room["superviseur"]).post(f"{API}disputes/", body, format="json")
    assert done.status_code == 201
    assert PaymentDispute.objects.get(pk=done.json()["id"]).entry.payload["detail"].count("Panne d'affichage") == 1


def test_slot_20_api_top_up_is_the_positive_difference(mc_room):
    machine = mc_room.on_floor()
    body = {
        "machine": machine.pk,
        "combination": "3 BAR",
        "amount_due": "100.00",
        "paid_by_machine": "60.00",
        "difference": "30.00",
        "customer": "M. X",
        "mechanic_opinion": "Trémie vide",
    }
    api = _api(mc_room["superviseur"])
    _refused(api.post(f"{API}top-ups/", body, format="json"), "SLOT-20")
    before = Entry.objects.count()
    done = api.post(f"{API}top-ups/", {**body, "difference": "40.00"}, format="json")
    assert done.status_code == 201 and TopUp.objects.get(pk=done.json()["id"]).entry.register.kind == "slot_complements"
    assert Entry.objects.count() == before + 1


def test_slot_19_inc_05_api_orphan_and_the_customer_who_took_it_excluded(mc_room):
    machine = mc_room.on_floor()
    body = {
        "kind": "credits",
        "amount": "12.50",
        "machine": machine.pk,
        "disposal": "Versé à la caisse",
        "taken_by": "Client au poste 12",
    }
    assert _api(mc_room["directeur_jeux"]).post(f"{API}orphans/", body, format="json").status_code == 403
    done = _api(mc_room["superviseur"]).post(f"{API}orphans/", body, format="json")
    assert done.status_code == 201 and done.json()["excluded_at"] is not None
    assert "exclu" in Orphan.objects.get(pk=done.json()["id"]).entry.payload["detail"]
    no_place = _api(mc_room["superviseur"]).post(f"{API}orphans/", {**body, "machine": None}, format="json")
    assert no_place.status_code == 400
    to_staff = {**body, "taken_by": "", "payee": mc_room["caissier"].pk}
    refused = _api(mc_room["superviseur"]).post(f"{API}orphans/", to_staff, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "SLOT-19"


def test_slot_14_key_05_api_door_events_matched_against_interventions_and_key_hand_overs(mc_room):
    """An opening the monitoring system exports is matched against the open intervention and the
    machine key the superviseur handed to the mechanic; one nothing explains is flagged."""
    from ledgers.keys.services import key_issue

    machine = mc_room.on_floor()
    door = key_register(
        establishment=mc_room.est,
        actor=mc_room.keeper,
        code="M-1",
        lock_type="machine_door",
        opens="porte",
        asset_ref=machine.number,
        home=Location.objects.get(establishment=mc_room.est, kind="coffre"),
    )
    sheet = services.intervention_open(machine=machine, actor=mc_room["mecanicien"], reason="Porte : contrôle")
    handed = key_issue(
        key=door,
        actor=mc_room["superviseur"],
        holder=mc_room["mecanicien"],
        purpose_type="slots.intervention",
        purpose_id=sheet.pk,
        due_at=timezone.now() + datetime.timedelta(hours=2),
    )
    now = timezone.now()
    rows = [
        {"machine": machine.number, "event": "door_open", "at": now.isoformat()},
        {"machine": machine.number, "event": "door_open", "at": (now - datetime.timedelta(hours=6)).isoformat()},
    ]
    done = _api(mc_room["superviseur"]).post(f"{API}events/", {"rows": rows}, format="json")
    assert done.status_code == 201, done.content
    matched, night = done.json()
    assert (matched["intervention"], matched["key_issue"], matched["key"], matched["flag"]) == (
        sheet.pk,
        handed.pk,
        "M-1",
        "",
    )
    assert (night["intervention"], night["key_issue"], night["flag"]) == (None, None, "SLOT-14")
    bad = _api(mc_room["superviseur"]).post(f"{API}events/", {"rows": [{**rows[0], "machine": "NOPE"}]}, format="json")
    assert bad.status_code == 400


def test_slot_16_api_identity_threshold_fixed_by_the_direction_from_its_date(client, mc_room):
    machine = mc_room.on_floor()
    body = {"amount": "1000.00", "effective_from": (timezone.now() - datetime.timedelta(days=1)).isoformat()}
    assert _api(mc_room["superviseur"]).post(f"{API}jackpot-thresholds/", body, format="json").status_code == 403
    fixed = _api(mc_room["directeur_exploitation"]).post(f"{API}jackpot-thresholds/", body, format="json")
    assert fixed.status_code == 201 and fixed.json()["amount"] == "1000.00"
    pay = {"machine": machine.pk, "amount": "1500.00", "method": "cash"}
    _refused(_api(mc_room["superviseur"]).post(f"{API}jackpots/", pay, format="json"), "SLOT-16")
    client.force_login(mc_room["directeur_exploitation"])
    page = client.get(reverse("slots:jackpot_threshold")).content.decode()
    assert re.search(r"1[\s\u00a0\u202f]?000,00\s?€", page)  # in the reader's format, thousands spaced


def test_slot_08_slot_09_api_hopper_lid_and_copy_of_the_files(mc_room):
    machine = mc_room.register_machine(hopper=True)
    api = _api(mc_room["superviseur"])
    assert api.post(f"{API}machines/{machine.pk}/hopper-lid/", {}, format="json").status_code == 201
    machine.refresh_from_db()
    assert machine.hopper_lid_confirmed_by == mc_room["superviseur"]
    body = countersignature("received_by", mc_room["superviseur"])
    _refused(_api(mc_room["directeur_exploitation"]).post(f"{API}files-copies/", body, format="json"), "SLOT-08")
    body = countersignature("received_by", mc_room["secretariat_general"])
    copy = _api(mc_room["directeur_exploitation"]).post(f"{API}files-copies/", body, format="json")
    assert copy.status_code == 201 and copy.json()["covers_seq"] > 1


def test_slot_53_slot_54_api_approval_and_sfm_revision_visit_with_the_limits(fr_room):
    machine = fr_room.on_floor()
    sfm = fr_room["technicien_sfm"]
    approval = {
        "user": fr_room["superviseur"].pk,
        "kind": "slot_staff",
        "reference": "AGR-9",
        "issuer": "Ministère de l'intérieur",
        "valid_from": "2026-01-01",
    }
    assert _api(fr_room["superviseur"]).post(f"{API}approvals/", approval, format="json").status_code == 403
    assert _api(fr_room.keeper).post(f"{API}approvals/", approval, format="json").status_code == 201
    visit = {"machines": [machine.pk], "remarks": "Limites conformes"}
    _refused(_api(sfm).post(f"{API}sfm-visits/", visit, format="json"), "SLOT-54")  # its limits not checked
    limits = {machine.number: {"insertion_limit": "100", "payment_limit": "1500"}}
    done = _api(sfm).post(f"{API}sfm-visits/", {**visit, "limits": limits}, format="json")
    assert done.status_code == 201 and done.json()["limits"][machine.number]["payment_limit"] == "1500.00"
