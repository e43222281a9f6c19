"""The API layer every app shares (ledgers.core.api): how a refusal is answered, what a caller may
reach, how a list is paged. Exercised through the slot and incident endpoints."""

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.core.api.errors import exception_handler
from ledgers.core.api.pagination import CursorPagination
from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.incidents.services import incident_open
from ledgers.slots import services

SLOTS = "/api/v1/slots/"


def _api(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_a_rule_violation_answers_409_with_its_code_and_article(mc_room):
    api = _api(mc_room.keeper)
    body = {"room": mc_room.room.pk, "number": "S-1"}
    assert api.post(f"{SLOTS}socles/", body, format="json").status_code == 201
    refused = api.post(f"{SLOTS}socles/", body, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "SLOT-03"
    assert refused.json()["article"] and refused.json()["detail"]


def test_invalid_input_answers_400_naming_the_field(mc_room):
    refused = _api(mc_room.keeper).post(f"{SLOTS}socles/", {"room": mc_room.room.pk}, format="json")
    assert refused.status_code == 400
    assert list(refused.json()) == ["number"]


def test_a_service_refusing_its_arguments_is_a_400_not_a_server_error(mc_room):
    """Closing a relève twice: the service's ValueError is bad input for the caller."""
    releve = mc_room.releve()
    api = _api(mc_room["superviseur"])
    assert api.post(f"{SLOTS}releves/{releve.pk}/close/", format="json").status_code == 201
    again = api.post(f"{SLOTS}releves/{releve.pk}/close/", format="json")
    assert again.status_code == 400
    assert again.json() == {"detail": "Cette relève est déjà close."}


def test_another_establishments_object_is_not_found(mc_room, fr_room):
    fr_releve = fr_room.releve()
    fr_machine = services.machine_register(
        establishment=fr_room.est, data=fr_room.machine_input(), actor=fr_room.keeper
    )
    api = _api(mc_room["superviseur"])
    assert api.post(f"{SLOTS}releves/{fr_releve.pk}/close/", format="json").status_code == 404
    assert api.get(f"{SLOTS}machines/{fr_machine.pk}/").status_code == 404
    assert api.get(f"{SLOTS}machines/").json()["results"] == []
    assert api.get(f"{SLOTS}machines/?establishment={fr_room.est.code}").status_code == 404
    fr_releve.refresh_from_db()
    assert fr_releve.status == fr_releve.Status.OPEN


def test_a_list_is_paged_by_a_cursor_in_the_views_order(mc_room, user_in, monkeypatch):
    """Incidents come newest found first, whatever the order they were written in."""
    monkeypatch.setattr(CursorPagination, "page_size", 2)
    director = user_in(mc_room.est, Role.DIRECTEUR_JEUX)
    now = timezone.now()
    made = [
        incident_open(
            establishment=mc_room.est,
            category="game",
            description=f"Coup {n}",
            actor=director,
            found_at=now - datetime.timedelta(hours=n),
        ).pk
        for n in range(3)
    ]
    api = _api(director)
    first = api.get("/api/v1/incidents/").json()
    second = api.get(first["next"]).json()
    assert [i["id"] for i in first["results"]] == made[:2]
    assert [i["id"] for i in second["results"]] == made[2:]
    assert second["next"] is None


def test_a_row_the_database_refuses_is_a_409_when_it_duplicates_one(mc):
    with pytest.raises(IntegrityError) as raised, transaction.atomic():
        Establishment.objects.create(code=mc.code, name="Doublon", jurisdiction="MC")
    answer = exception_handler(raised.value, {})
    assert answer.status_code == 409
    assert answer.data == {"detail": "Cet enregistrement existe déjà."}
