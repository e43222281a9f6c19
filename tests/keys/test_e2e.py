"""End to end, per jurisdiction, through the pages and the API as people use them: signers type
their passwords; refusals come back with their catalogue ID; an overdue key reaches the
dashboard of its custodian and of the Direction."""

import datetime
import time

from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.keys.models import KeyIssue
from ledgers.keys.services import key_issue
from tests.factories import DEFAULT_PASSWORD, countersignature

from .conftest import due

PW = DEFAULT_PASSWORD


def _local(moment: datetime.datetime) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M")


def test_mc_releve_socle_keys_out_and_back_and_intervention_machine_key(client, mc_org):
    socle = mc_org.key("S-1", "socle", home=mc_org.homes["caisse_centrale"])
    machine = mc_org.key("M-1", "machine_door", home=mc_org.homes["coffre"])
    releve, intervention = mc_org.operation(), mc_org.operation()
    client.force_login(mc_org["caissier_principal"])
    data = {
        "key": socle.pk,
        "purpose": f"test.intervention:{intervention.pk}",
        "due_at": _local(due()),
        "password": PW,
        **countersignature("holder", mc_org["superviseur"]),
    }
    refused = client.post(reverse("keys:issue"), data)
    assert refused.status_code == 409 and "KEY-02" in refused.content.decode()
    assert not KeyIssue.objects.exists()
    response = client.post(reverse("keys:issue"), {**data, "purpose": f"test.releve:{releve.pk}"})
    assert response.status_code == 302
    issue = KeyIssue.objects.get()
    response = client.post(
        reverse("keys:return", args=[issue.pk]), {"password": PW, **countersignature("holder", mc_org["superviseur"])}
    )
    assert response.status_code == 302
    issue.refresh_from_db()
    assert issue.returned_at and issue.received_by == mc_org["caissier_principal"]

    # the superviseur hands the machine key to the mechanic, through the API
    api = APIClient()
    api.force_authenticate(mc_org["caissier"])
    body = {
        "key": machine.pk,
        "purpose_type": "test.intervention",
        "purpose_id": intervention.pk,
        "due_at": due().isoformat(),
        "password": PW,
        **countersignature("holder", mc_org["mecanicien"]),
    }
    refused = api.post("/api/v1/keys/issues/new/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "KEY-05"
    api.force_authenticate(mc_org["superviseur"])
    assert api.post("/api/v1/keys/issues/new/", {**body, "password": "faux"}, format="json").status_code == 400
    created = api.post("/api/v1/keys/issues/new/", body, format="json")
    assert created.status_code == 201, created.content
    back = api.post(
        f"/api/v1/keys/issues/{created.json()['id']}/return/",
        {"password": PW, **countersignature("holder", mc_org["mecanicien"])},
        format="json",
    )
    assert back.status_code == 201 and back.json()["returned_at"]
    assert api.get("/api/v1/keys/issues/?out=1").json()["results"] == []


def test_mc_overdue_key_on_the_dashboards_of_custodian_and_direction(client, mc_org):
    machine = mc_org.key("M-1", "machine_door", home=mc_org.homes["coffre"])
    intervention = mc_org.operation()
    issue = key_issue(
        key=machine,
        actor=mc_org["superviseur"],
        holder=mc_org["mecanicien"],
        purpose_type="test.intervention",
        purpose_id=intervention.pk,
        due_at=due(1 / 3600),
    )
    time.sleep(1.1)
    for viewer in ("superviseur", "directeur_jeux"):
        client.force_login(mc_org[viewer])
        page = client.get(reverse("dashboard")).content.decode()
        assert "Clés en retard" in page and "M-1" in page, viewer
    client.force_login(mc_org["cartier"])
    assert "M-1" not in client.get(reverse("dashboard")).content.decode()
    client.force_login(mc_org["directeur_jeux"])
    assert "KEY-05" in client.get(reverse("keys:exceptions")).content.decode()
    assert issue.is_out


def test_fr_upper_part_opening_and_card_cabinet_through_the_pages(client, fr_org):
    upper = fr_org.key("U-1", "upper", custodian=fr_org["directeur_responsable"], asset_ref="MAS-7")
    intervention = fr_org.operation()
    client.force_login(fr_org["directeur_responsable"])
    data = {
        "key": upper.pk,
        "purpose": f"test.intervention:{intervention.pk}",
        "due_at": _local(due()),
        "password": PW,
        **countersignature("holder", fr_org["directeur_responsable"]),
    }
    # The holder cannot be his own witness: the witness is picked among the roles KEY-17 names, and
    # the director is not one of them, so the form answers before anything is written.
    refused = client.post(
        reverse("keys:issue"), {**data, **countersignature("witness", fr_org["directeur_responsable"])}
    )
    assert refused.status_code == 200 and "witness_username" in refused.context["form"].errors
    assert not KeyIssue.objects.exists()
    assert (
        client.post(reverse("keys:issue"), {**data, **countersignature("witness", fr_org["mecanicien"])}).status_code
        == 302
    )
    issue = KeyIssue.objects.get()
    assert issue.signatures.filter(act="witness", user=fr_org["mecanicien"]).exists()
    created = client.post(
        reverse("keys:create"),
        {
            "code": "ARM-1",
            "lock_type": "card_cabinet",
            "opens": "Armoire",
            "asset_ref": "armoire",
            "copies": 2,
            "custodian": fr_org["comite"].pk,
        },
    )
    assert created.status_code == 409 and "KEY-11" in created.content.decode()
    start = timezone.now() - datetime.timedelta(hours=1)
    report = client.get(reverse("keys:holdings"), {"start": _local(start), "end": _local(due(3)), "asset_ref": "MAS-7"})
    assert "U-1" in report.content.decode() and "Imprimer" in report.content.decode()


def test_pages_render(client, mc_org):
    mc_org.key("M-1", "machine_door", home=mc_org.homes["coffre"])
    client.force_login(mc_org["directeur_jeux"])
    for name in ("list", "create", "issue", "exceptions", "holdings", "sanity", "inventory", "surrender"):
        assert client.get(reverse(f"keys:{name}")).status_code == 200, name
    key = mc_org.est.keys.get()
    assert "M-1" in client.get(reverse("keys:key", args=[key.pk])).content.decode()
    inventory = client.post(reverse("keys:inventory"), {"password": PW, f"key_{mc_org.est.keys.get().pk}": 1})
    assert inventory.status_code == 302
    assert "Dernier inventaire" in client.get(reverse("keys:sanity")).content.decode()
    api = APIClient()
    api.force_authenticate(mc_org["directeur_jeux"])
    assert [k["code"] for k in api.get("/api/v1/keys/keys/").json()["results"]] == ["M-1"]
    made = api.post(
        "/api/v1/keys/keys/new/",
        {"code": "M-1", "lock_type": "socle", "opens": "socles", "home": mc_org.homes["caisse_centrale"].pk},
        format="json",
    )
    assert made.status_code == 409 and made.json()["code"] == "KEY-01"


def test_fr_count_lower_key_out_and_back_and_overdue_on_the_direction_dashboard(client, fr_org):
    lower = fr_org.key("L-1", "lower", custodian=fr_org["comite"], asset_ref="MAS-7")
    count = fr_org.operation()
    issue = key_issue(
        key=lower,
        actor=fr_org["comite"],
        holder=fr_org["directeur_responsable"],
        purpose_type="test.count",
        purpose_id=count.pk,
        due_at=due(1 / 3600),
    )
    time.sleep(1.1)
    client.force_login(fr_org["directeur_responsable"])
    page = client.get(reverse("dashboard")).content.decode()
    assert "L-1" in page and "KEY-13" in page
    client.force_login(fr_org["comite"])
    response = client.post(
        reverse("keys:return", args=[issue.pk]),
        {"password": PW, **countersignature("holder", fr_org["directeur_responsable"])},
    )
    assert response.status_code == 302
    assert "L-1" not in client.get(reverse("dashboard")).content.decode()
    api = APIClient()
    api.force_authenticate(fr_org["comite"])
    made = api.post(
        "/api/v1/keys/keys/new/",
        {"code": "R-1", "lock_type": "reset", "opens": "réinitialisation", "custodian": fr_org["mecanicien"].username},
        format="json",
    )
    assert made.status_code == 409 and made.json()["code"] == "KEY-15"


def test_every_copy_out_is_a_409_with_its_code_and_article(mc_org):
    """A key whose every copy is out cannot be handed over: the recorded state refuses it like a rule
    (REG-20), code and article in the answer, nothing written."""
    machine = mc_org.key("M-1", "machine_door", home=mc_org.homes["coffre"])
    api = APIClient()
    api.force_authenticate(mc_org["superviseur"])
    body = {
        "key": machine.pk,
        "purpose_type": "test.intervention",
        "purpose_id": mc_org.operation().pk,
        "due_at": due().isoformat(),
        "password": PW,
        **countersignature("holder", mc_org["mecanicien"]),
    }
    assert api.post("/api/v1/keys/issues/new/", body, format="json").status_code == 201
    again = api.post("/api/v1/keys/issues/new/", {**body, "purpose_id": mc_org.operation().pk}, format="json")
    assert again.status_code == 409
    assert again.json()["code"] == "REG-20" and again.json()["article"] and "M-1" in again.json()["detail"]
    assert KeyIssue.objects.count() == 1
