"""The acts on a register through the API, as on its pages: created, coté et paraphé by its
authority (REG-01), a main courante fact, a correction with its approval in words (REG-27), the
closing act; refusals answer 409 with the rule."""

from rest_framework.test import APIClient

from tests.factories import DEFAULT_PASSWORD
from tests.registers.ui_setup import cast_fixture  # noqa: F401 (fixture)


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_reg_01_reg_27_register_created_paraphed_written_corrected_and_closed_through_the_api(cast):
    created = api_as(cast.director).post("/api/v1/registers/new/", {"kind": "main_courante"}, format="json")
    assert created.status_code == 201 and created.json()["status"] == "awaiting"
    number = created.json()["number"]
    fact = {"event_at": "2026-03-02T14:00:00+01:00", "subject": "Panne d'éclairage", "text": "Salle Europe."}
    early = api_as(cast.writer).post(f"/api/v1/registers/{number}/main-courante/", fact, format="json")
    assert early.status_code == 409 and early.json()["code"] == "REG-01"
    opened = api_as(cast.authority).post(
        f"/api/v1/registers/{number}/opening/", {"paraphe": "CG", "password": DEFAULT_PASSWORD}, format="json"
    )
    assert opened.status_code == 201 and opened.json()["kind"] == "opening"
    written = api_as(cast.writer).post(f"/api/v1/registers/{number}/main-courante/", fact, format="json")
    assert written.status_code == 201 and written.json()["payload"]["subject"] == "Panne d'éclairage"
    seq = written.json()["seq"]
    corrected = api_as(cast.director).post(
        f"/api/v1/registers/{number}/entries/{seq}/corrections/",
        {
            "reason": "Salle mal nommée",
            "approval": "Approuvé la correction de l'entrée numéro deux",
            "payload": {**written.json()["payload"], "text": "Salle des Amériques."},
        },
        format="json",
    )
    assert corrected.status_code == 201 and corrected.json()["kind"] == "correction"
    assert corrected.json()["corrects"] == seq
    closed = api_as(cast.director).post(f"/api/v1/registers/{number}/closing/", {}, format="json")
    assert closed.status_code == 201 and closed.json()["kind"] == "closing"
    after = api_as(cast.writer).post(f"/api/v1/registers/{number}/main-courante/", fact, format="json")
    assert after.status_code in (400, 409)
