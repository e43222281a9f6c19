"""REG-22: who may verify what at any time, and every regulator's read or print logged."""

import pytest
from django.db import DatabaseError, transaction
from django.urls import reverse
from rest_framework.test import APIClient

from ledgers.authority.access import VERIFIERS
from ledgers.authority.models import AccessLog
from ledgers.core.roles import REGULATOR_ROLES, Role
from ledgers.reports import services as reports
from tests.factories import open_register


@pytest.fixture(autouse=True)
def report_files(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def test_reg_22_verifiers_are_regulators_of_each_jurisdiction():
    assert {v.role for v in VERIFIERS["MC"]} == {Role.SCJ, Role.COMMISSAIRE}
    assert {Role.POLICE, Role.CHEF_POLICE, Role.AGENT_VERIFICATEUR, Role.CONTROLE_INTERIEUR} <= {
        v.role for v in VERIFIERS["FR"]
    }
    assert all(v.role in REGULATOR_ROLES for table in VERIFIERS.values() for v in table)


def test_reg_22_regulator_reads_are_logged_staff_reads_are_not(client, mco):
    register = open_register(mco.est, "main_courante")
    client.force_login(mco.cartier)
    assert client.get(reverse("registers:detail", args=[register.number])).status_code == 200
    assert not AccessLog.objects.exists()
    client.force_login(mco.scj)
    assert client.get(reverse("registers:detail", args=[register.number])).status_code == 200
    assert client.get(reverse("registers:entry", args=[register.number, 1])).status_code == 200
    log = list(AccessLog.objects.order_by("pk"))
    assert [(a.user, a.action, a.target) for a in log] == [
        (mco.scj, "read", register.number),
        (mco.scj, "read", f"{register.number} n° 1"),
    ]
    assert log[0].roles == Role.SCJ and log[0].establishment == mco.est


def test_reg_22_api_reads_and_printed_copies_are_logged(mco):
    register = open_register(mco.est, "main_courante")
    api = APIClient()
    api.force_authenticate(mco.scj)
    assert api.get(f"/api/v1/registers/{register.number}/entries/").status_code == 200
    job = reports.report_request_register(register=register, actor=mco.scj, lang="fr")
    assert reports.report_run(job_id=job.pk).status == "done"
    assert api.get(f"/api/v1/reports/{job.pk}/file/").status_code == 200
    assert list(AccessLog.objects.order_by("pk").values_list("action", flat=True)) == ["read", "print"]
    assert AccessLog.objects.order_by("pk").last().target == f"rapport {job.pk} {register.number}"


def test_reg_22_refused_reads_are_not_logged(client, mco, fro):
    register = open_register(mco.est, "main_courante")
    client.force_login(fro.police)  # another establishment's register: 404
    assert client.get(reverse("registers:detail", args=[register.number])).status_code == 404
    assert not AccessLog.objects.exists()


def test_reg_22_log_visible_to_regulators_and_direction_only(client, mco):
    register = open_register(mco.est, "main_courante")
    client.force_login(mco.scj)
    client.get(reverse("registers:detail", args=[register.number]))
    for user in (mco.scj, mco.directeur_jeux):
        client.force_login(user)
        page = client.get(reverse("authority:access"))
        assert page.status_code == 200 and register.number.encode() in page.content
        assert "Service de Contrôle des Jeux".encode() in page.content or b"SCJ" in page.content
    client.force_login(mco.cartier)
    refused = client.get(reverse("authority:access"))
    assert refused.status_code == 403 and "REG-22" in refused.content.decode()
    api = APIClient()
    api.force_authenticate(mco.cartier)
    refused = api.get("/api/v1/authority/access-log/")
    assert refused.status_code == 403 and "REG-22" in refused.json()["detail"]
    api.force_authenticate(mco.directeur_jeux)
    assert [a["target"] for a in api.get("/api/v1/authority/access-log/").json()["results"]] == [register.number]


@pytest.mark.postgresql
def test_reg_22_access_log_is_append_only(client, mco):
    register = open_register(mco.est, "main_courante")
    client.force_login(mco.scj)
    client.get(reverse("registers:detail", args=[register.number]))
    with pytest.raises(DatabaseError), transaction.atomic():
        AccessLog.objects.update(target="autre chose")
    with pytest.raises(DatabaseError), transaction.atomic():
        AccessLog.objects.all().delete()
