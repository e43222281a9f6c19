"""AUTH-06: the one FR register of the notices given to the Minister of the Interior, the SCCJ and
the police, written by every act that notifies them in its own transaction; shown by the register
page and the API, printed with its columns."""

import datetime
import io

import pytest
from django.utils import timezone
from pypdf import PdfReader
from rest_framework.test import APIClient

from ledgers.authority import services as authority
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.incidents.models import Incident
from ledgers.incidents.registers import AUTHORITY_NOTICES, INCIDENT_REGISTER
from ledgers.incidents.services import incident_notify, incident_open
from ledgers.registers.printing import render_register
from ledgers.registers.selectors import current_register
from tests.factories import make_user, open_register


@pytest.fixture
def org(fr):
    open_register(fr, INCIDENT_REGISTER.code)
    open_register(fr, "declarations_prealables")
    return {
        "est": fr,
        "director": make_user(fr, Role.DIRECTEUR_RESPONSABLE, username="dr-frn"),
        "croupier": make_user(fr, Role.CROUPIER, username="croupier-frn"),
    }


def card_anomaly(org) -> Incident:
    return incident_open(
        establishment=org["est"],
        category="card_anomaly",
        description="Carte marquée au sixain 12",
        actor=org["croupier"],
    )


def notices(org) -> list[dict]:
    register = current_register(org["est"], AUTHORITY_NOTICES.code)
    return [e.payload for e in register.entries.filter(kind="record").order_by("seq")]


def test_auth_06_the_police_informed_of_an_incident_is_a_line_of_the_register(org):
    open_register(org["est"], AUTHORITY_NOTICES.code)
    incident = card_anomaly(org)
    at = timezone.now().replace(second=0, microsecond=0)
    incident_notify(
        incident=incident,
        recipient_role=Role.POLICE,
        recipient_name="Commissariat de Nice",
        notified_at=at,
        channel="phone",
        actor=org["croupier"],
    )
    [line] = notices(org)
    assert line["recipient"] == "Service de police — Commissariat de Nice"
    assert line["requirement"] == "INC-13" and "40" in line["article"]
    assert "Carte marquée" in line["subject"] and line["reference"] == "Téléphone"
    assert line["notified_at"] == org["est"].localtime(at).strftime("%d/%m/%Y %H:%M")


def test_auth_06_a_declaration_is_a_line_per_recipient(org):
    open_register(org["est"], AUTHORITY_NOTICES.code)
    sent = timezone.localdate()
    authority.declaration_record(
        establishment=org["est"],
        actor=org["director"],
        operation="6",
        details="Mise minimale de la roulette portée à 5 €",
        sent_on=sent,
        recipients=["dlpaj", "sccj", "pj"],
        proof="LRAR 1A 234",
        implementation_date=sent + datetime.timedelta(days=15),
    )
    lines = notices(org)
    assert [line["requirement"] for line in lines] == ["AUTH-01"] * 3
    assert {line["recipient"] for line in lines} == {
        "Ministère de l'intérieur (DLPAJ)",
        "Chef du service central des courses et jeux (SCCJ)",
        "Chef du service territorial de police judiciaire",
    }
    assert all(line["reference"] == "LRAR 1A 234" for line in lines)


def test_auth_06_no_notice_recorded_without_the_register(org):
    incident = card_anomaly(org)
    with pytest.raises(RuleViolation):
        incident_notify(
            incident=incident,
            recipient_role=Role.POLICE,
            recipient_name="Commissariat de Nice",
            notified_at=timezone.now(),
            channel="phone",
            actor=org["croupier"],
        )
    assert not incident.notices.exists()


def test_auth_06_page_api_and_printed_register(client, org):
    register = open_register(org["est"], AUTHORITY_NOTICES.code)
    incident_notify(
        incident=card_anomaly(org),
        recipient_role=Role.POLICE,
        recipient_name="Commissariat de Nice",
        notified_at=timezone.now(),
        channel="phone",
        actor=org["croupier"],
    )
    client.force_login(org["director"])
    assert "Commissariat de Nice" in client.get(f"/registres/{register.number}/").content.decode()
    api = APIClient()
    api.force_authenticate(org["director"])
    entries = api.get(f"/api/v1/registers/{register.number}/entries/").json()["results"]
    assert any(e["payload"].get("requirement") == "INC-13" for e in entries)
    out = io.BytesIO()
    register.refresh_from_db()
    render_register(register, out)
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(out.getvalue())).pages)
    for heading in ("Informé le", "Destinataire", "Objet", "Référence", "Exigence", "Article"):
        assert heading in text
