"""Incidents the slot staff report (ledgers.incidents): MC the sworn surveillance agents to their
hierarchy and to the superviseur (INC-06); FR the SFM's staff to the police, without delay when
urgent, otherwise by written report (INC-16)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.core.errors import RuleViolation
from ledgers.incidents.selectors import late_notices
from ledgers.incidents.services import incident_close, incident_decide, incident_notify
from ledgers.slots.services import reports

pytestmark = pytest.mark.django_db


def _notify(incident, role, actor, channel="phone"):
    return incident_notify(
        incident=incident,
        recipient_role=role,
        recipient_name="M. Dupont",
        channel=channel,
        notified_at=timezone.now(),
        actor=actor,
    )


def test_inc_06_surveillance_agent_reports_to_hierarchy_and_superviseur(mc_room):
    machine = mc_room.on_floor()
    agent, directeur = mc_room["agent_surveillance"], mc_room["directeur_jeux"]
    with pytest.raises(RuleViolation) as exc:  # the report is the sworn agent's
        reports.surveillance_incident_report(
            establishment=mc_room.est, description="Client agressif", actor=mc_room["superviseur"], machine=machine
        )
    assert exc.value.code == "INC-06"
    incident = reports.surveillance_incident_report(
        establishment=mc_room.est, description="Client agressif", actor=agent, machine=machine
    )
    assert incident.requirement == "INC-06" and incident.subjects.get().label == str(machine)
    incident_decide(incident=incident, decision="Client exclu", actor=directeur)
    _notify(incident, "superviseur", agent)
    with pytest.raises(RuleViolation) as exc:  # the hierarchy is not informed yet
        incident_close(incident=incident, actor=directeur)
    assert exc.value.code == "INC-06" and "Directeur des jeux" in str(exc.value)
    _notify(incident, "directeur_jeux", agent)
    assert incident_close(incident=incident, actor=directeur).status == "closed"


def test_inc_16_sfm_anomaly_police_informed_urgent_at_once_otherwise_by_written_report(fr_room):
    machine = fr_room.on_floor()
    sfm = fr_room["technicien_sfm"]
    with pytest.raises(RuleViolation) as exc:
        reports.anomaly_report(
            establishment=fr_room.est,
            description="Écran figé",
            urgent=False,
            actor=fr_room["employe_jeux"],
            machine=machine,
        )
    assert exc.value.code == "INC-16"
    written = reports.anomaly_report(
        establishment=fr_room.est, description="Compteur irrégulier", urgent=False, actor=sfm, system="SYS-AGREE-1"
    )
    with pytest.raises(RuleViolation) as exc:  # not urgent: a written report, not a phone call
        _notify(written, "police", sfm, channel="phone")
    assert exc.value.code == "INC-16"
    with pytest.raises(RuleViolation) as exc:
        incident_close(incident=written, actor=fr_room["directeur_responsable"])
    assert exc.value.code == "INC-16"
    _notify(written, "police", sfm, channel="written")
    assert incident_close(incident=written, actor=fr_room["directeur_responsable"]).status == "closed"
    urgent = reports.anomaly_report(
        establishment=fr_room.est, description="Paiements erratiques", urgent=True, actor=sfm, machine=machine
    )
    _notify(urgent, "police", sfm, channel="phone")
    assert incident_close(incident=urgent, actor=fr_room["directeur_responsable"]).status == "closed"


def test_inc_16_urgent_anomaly_police_informed_after_the_delay_flagged(client, fr_room):
    sfm, now = fr_room["technicien_sfm"], timezone.now()
    late = reports.anomaly_report(
        establishment=fr_room.est,
        description="Paiements erratiques",
        urgent=True,
        actor=sfm,
        system="SYS-AGREE-1",
        found_at=now - datetime.timedelta(minutes=90),
    )
    prompt = reports.anomaly_report(
        establishment=fr_room.est,
        description="Écran figé",
        urgent=True,
        actor=sfm,
        system="SYS-AGREE-1",
        found_at=now - datetime.timedelta(minutes=30),
    )
    assert late_notices(late) == ["police"] and late_notices(prompt) == []  # not informed 90 min after
    _notify(late, "police", sfm)
    _notify(prompt, "police", sfm)
    assert late_notices(late) == ["police"] and late_notices(prompt) == []  # the default 60 minutes (INC-16)
    late.establishment.options = {"INC-16": 120}  # the establishment's own delay
    assert late_notices(late) == []
    client.force_login(fr_room["directeur_responsable"])
    assert client.get(reverse("incidents:list")).content.decode().count("Information tardive") == 1
    api = APIClient()
    api.force_authenticate(fr_room["directeur_responsable"])
    listed = {i["id"]: i["late_notices"] for i in api.get("/api/v1/incidents/").json()["results"]}
    assert listed[late.pk] == ["police"] and listed[prompt.pk] == []


def test_inc_06_inc_16_report_page_and_api(client, mc_room, fr_room):
    client.force_login(mc_room["agent_surveillance"])
    assert client.get(reverse("slots:incident_report")).status_code == 200
    sent = client.post(reverse("slots:incident_report"), {"description": "Bagarre près de la rangée B"})
    assert sent.status_code == 302
    api = APIClient()
    api.force_authenticate(fr_room["employe_jeux"])
    refused = api.post(
        "/api/v1/slots/incident-reports/", {"description": "Écran figé", "system": "SYS-1"}, format="json"
    )
    assert refused.status_code == 409 and refused.json()["code"] == "INC-16"
    api.force_authenticate(fr_room["technicien_sfm"])
    done = api.post("/api/v1/slots/incident-reports/", {"description": "Écran figé", "system": "SYS-1"}, format="json")
    assert done.status_code == 201 and done.json()["requirement"] == "INC-16"
