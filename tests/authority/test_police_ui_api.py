"""The police's registers through the pages, the dashboard and the API (REG-44, REG-45)."""

import datetime

from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.authority import services
from ledgers.authority.models import LiaisonQuestion, Observation


def test_reg_44_ui_agent_writes_and_directeur_follows_up(client, fro, police_registers):
    client.force_login(fro.police)
    page = client.get(reverse("authority:police"))
    assert page.status_code == 200 and reverse("authority:observation_create").encode() in page.content
    response = client.post(
        reverse("authority:observation_create"),
        {
            "visited_at": timezone.localtime().strftime("%Y-%m-%dT%H:%M"),
            "agents": "Brigadier Martin",
            "operations": "Vérification des carnets",
            "nature": "observation",
            "text": "Carnet 11 non arrêté.",
        },
    )
    assert response.status_code == 302
    observation = Observation.objects.get()
    client.force_login(fro.directeur_responsable)
    dashboard = client.get(reverse("dashboard"))
    assert b"Suite attendue" in dashboard.content
    response = client.post(reverse("authority:follow_up", args=[observation.pk]), {"text": "Carnet arrêté."})
    assert response.status_code == 302
    observation.refresh_from_db()
    assert observation.follow_up == "Carnet arrêté."


def test_reg_44_ui_refusal_shows_the_requirement(client, fro, police_registers):
    client.force_login(fro.directeur_responsable)
    response = client.post(
        reverse("authority:observation_create"),
        {
            "visited_at": timezone.localtime().strftime("%Y-%m-%dT%H:%M"),
            "agents": "Moi",
            "operations": "Rien",
            "nature": "observation",
            "text": "Auto-observation.",
        },
    )
    assert response.status_code == 409
    assert b"REG-44" in response.content and b"Auto-observation." in response.content  # input kept
    assert not Observation.objects.exists()


def test_reg_44_dashboard_flags_overdue(client, fro, police_registers):
    services.observation_record(
        establishment=fro.est,
        actor=fro.police,
        agents="A",
        operations="O",
        visited_at=timezone.now() - datetime.timedelta(days=9),
        nature="injunction",
        text="Injonction.",
    )
    client.force_login(fro.directeur_responsable)
    assert b"Suite en retard" in client.get(reverse("dashboard")).content


def test_reg_45_api_question_and_answer(fro, police_registers):
    api = APIClient()
    api.force_authenticate(fro.directeur_responsable)
    created = api.post(
        "/api/v1/authority/liaison/", {"subject": "Art. 43", "question": "Encaisse en salle ?"}, format="json"
    )
    assert created.status_code == 201, created.content
    pk = created.json()["id"]
    refused = api.post(f"/api/v1/authority/liaison/{pk}/answer/", {"answer": "Oui."}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "REG-45"
    api.force_authenticate(fro.chef_police)
    answered = api.post(f"/api/v1/authority/liaison/{pk}/answer/", {"answer": "Validation préalable."}, format="json")
    assert answered.status_code == 201 and answered.json()["answer_seq"] == 3
    listed = api.get("/api/v1/authority/liaison/").json()["results"]
    assert [q["number"] for q in listed] == [1]
    assert LiaisonQuestion.objects.get().answered_by == fro.chef_police


def test_reg_44_api_observation_and_follow_up(fro, police_registers):
    api = APIClient()
    api.force_authenticate(fro.police)
    created = api.post(
        "/api/v1/authority/observations/",
        {
            "visited_at": timezone.now().isoformat(),
            "agents": "B. Martin",
            "operations": "Contrôle",
            "nature": "instruction",
            "text": "Afficher le règlement.",
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    pk = created.json()["id"]
    refused = api.post(f"/api/v1/authority/observations/{pk}/follow-up/", {"text": "Fait."}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "REG-44"
    api.force_authenticate(fro.directeur_responsable)
    done = api.post(f"/api/v1/authority/observations/{pk}/follow-up/", {"text": "Affiché."}, format="json")
    assert done.status_code == 201 and done.json()["follow_up"] == "Affiché."
