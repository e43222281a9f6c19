"""The slot lists of the API: relèves, intervention sheets and meter readings, each scoped to the
caller's establishment, a cursor page, with its filters."""

from rest_framework.test import APIClient

from ledgers.slots import services


def client_for(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_releves_interventions_and_meter_readings_listed_per_establishment(mc_room, fr_room):
    machine = mc_room.on_floor()
    readings = mc_room.read(machine, value=120)
    releve = readings[0].releve
    services.intervention_open(machine=machine, actor=mc_room["mecanicien"], reason="Bourrage")
    fr_room.releve()  # another establishment's: never listed
    api = client_for(mc_room["superviseur"])

    listed = api.get("/api/v1/slots/releves/").json()
    assert [r["id"] for r in listed["results"]] == [releve.pk] and "next" in listed
    assert api.get("/api/v1/slots/releves/", {"status": "closed"}).json()["results"] == []

    sheets = api.get("/api/v1/slots/interventions/", {"machine": machine.pk}).json()["results"]
    assert [(s["machine"], s["status"]) for s in sheets] == [(machine.pk, "open")]

    values = api.get("/api/v1/slots/meter-readings/", {"releve": releve.pk}).json()["results"]
    assert {v["value"] for v in values} == {120} and {v["machine"] for v in values} == {machine.pk}
    assert len(values) == len(readings)
