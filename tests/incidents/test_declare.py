"""The Incidents page offers "Déclarer un incident" to whom the incident register lets record, and
its API twin declares the same incident (INC-01)."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from ledgers.incidents.models import Incident
from tests.factories import open_register


@pytest.fixture
def mc_incidents(mc):
    return open_register(mc, "incidents")


def test_inc_01_an_incident_is_declared_from_the_incidents_page(client, mc, mc_incidents, user_in):
    inspector = user_in(mc, "inspecteur", first_name="Jeanne", last_name="Roux")
    client.force_login(inspector)
    page = client.get(reverse("incidents:list")).content.decode()
    assert reverse("incidents:declare") in page
    form = client.get(reverse("incidents:declare")).content.decode()
    assert "data-confirm=" in form and "INC-01" in form
    response = client.post(
        reverse("incidents:declare"),
        {"found_at": "2026-11-03T21:10", "description": "Contestation d'un coup à la table BJ1"},
    )
    incident = Incident.objects.get(establishment=mc)
    assert response.status_code == 302 and response.url == reverse("incidents:detail", args=[incident.pk])
    assert incident.requirement == "INC-01" and incident.found_by == inspector
    listed = client.get(reverse("incidents:list")).content.decode()
    assert "Jeanne Roux" in listed and inspector.username not in listed


def test_inc_01_whom_the_register_does_not_let_record_is_not_offered_the_declaration(client, mc, mc_incidents, user_in):
    client.force_login(user_in(mc, "commissaire"))
    assert reverse("incidents:declare") not in client.get(reverse("incidents:list")).content.decode()
    assert client.get(reverse("incidents:declare")).status_code == 403


def test_inc_01_the_api_declares_the_same_incident(mc, mc_incidents, user_in):
    api = APIClient()
    api.force_authenticate(user_in(mc, "inspecteur"))
    response = api.post(
        "/api/v1/incidents/declare/",
        {"found_at": "2026-11-03T21:10:00+01:00", "description": "Contestation d'un coup"},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["requirement"] == "INC-01"
