"""REG-43: retention of the current period and the ten before, without exception; the purge that
refuses before term; the archive of a closed season that an inspector verifies offline."""

import datetime
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.authority import retention, services
from ledgers.authority.archive import build_archive
from ledgers.authority.models import AccessLog, PurgeClearance, SeasonArchive
from ledgers.core.authz import save_audited
from ledgers.core.errors import RuleViolation
from ledgers.registers.services import entry_append, register_close
from ledgers.reports.sealing import demo_certificate_create
from tests.factories import open_register

VERIFY = Path(settings.BASE_DIR) / "docs" / "verify_export.py"


@pytest.fixture(autouse=True)
def files(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.LEDGERS_SEAL_DEMO_DIR = tmp_path / "seal"
    return tmp_path


def filled(est, writer, count=3, close_by=None):
    register = open_register(est, "main_courante")
    role = writer.memberships.values_list("role", flat=True).first()
    for i in range(count):
        entry_append(
            register=register,
            actor=writer,
            role=role,
            payload={"event_at": "2026-03-15 21:00", "subject": f"Fait {i}", "text": "Relation."},
        )
    if close_by is not None:
        register_close(register=register, actor=close_by)
    register.refresh_from_db()
    return register


def audit(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(VERIFY), str(path)], capture_output=True, text=True, check=False)


def current_season(est) -> int:
    return retention.period_of(est, est.localtime(timezone.now()).date())


@pytest.mark.parametrize(
    ("jurisdiction", "day", "term"),
    [
        ("FR", datetime.date(2026, 3, 15), datetime.date(2036, 10, 31)),
        ("FR", datetime.date(2026, 11, 2), datetime.date(2037, 10, 31)),
        ("FR", datetime.date(2026, 10, 31), datetime.date(2036, 10, 31)),
        ("MC", datetime.date(2026, 3, 15), datetime.date(2036, 12, 31)),
    ],
)
def test_reg_43_term_is_the_end_of_the_tenth_period_after(fr, mc, jurisdiction, day, term):
    est = fr if jurisdiction == "FR" else mc
    for kind in ("main_courante", "carnet_avances" if jurisdiction == "FR" else "prise_en_charge"):
        assert retention.policy_for(est, kind).term(est, day) == term  # every kind alike: no exception


def test_reg_43_purge_refused_before_term(fro):
    register = filled(fro.est, fro.inspecteur, close_by=fro.directeur_responsable)
    end = retention.retention_end(register)
    assert end == retention.period_bounds(fro.est, current_season(fro.est) + 10)[1]
    with pytest.raises(RuleViolation) as refused:
        services.register_purge(register=register, actor=fro.directeur_responsable, today=end)
    assert refused.value.code == "REG-43" and refused.value.article == "FR-2007 art. 80"
    assert end.strftime("%d/%m/%Y") in str(refused.value)
    assert not PurgeClearance.objects.exists()


def test_reg_43_purge_after_term_needs_closed_register_and_archive(fro, files):
    register = filled(fro.est, fro.inspecteur)
    after = retention.retention_end(register) + datetime.timedelta(days=1)
    with pytest.raises(RuleViolation, match="clos"):
        services.register_purge(register=register, actor=fro.directeur_responsable, today=after)
    register_close(register=register, actor=fro.directeur_responsable)
    register.refresh_from_db()
    with pytest.raises(RuleViolation, match="archive"):
        services.register_purge(register=register, actor=fro.directeur_responsable, today=after)
    demo_certificate_create(fro.est)
    archive = save_audited(
        SeasonArchive(establishment=fro.est, season=current_season(fro.est), requested_by=fro.directeur_responsable),
        actor=fro.directeur_responsable,
    )
    assert services.archive_run(archive_id=archive.pk).status == SeasonArchive.Status.DONE
    clearance = services.register_purge(register=register, actor=fro.directeur_responsable, today=after)
    assert (clearance.register, clearance.archive) == (register, archive)
    assert register.entries.count() == register.head_seq  # nothing deleted: the owner acts on the clearance


def test_reg_43_archive_only_of_a_closed_season(fro, files):
    demo_certificate_create(fro.est)
    with pytest.raises(ValidationError):
        services.archive_request(establishment=fro.est, season=current_season(fro.est), actor=fro.directeur_responsable)
    past = services.archive_request(
        establishment=fro.est, season=current_season(fro.est) - 1, actor=fro.agent_verificateur
    )
    assert past.status == SeasonArchive.Status.QUEUED


def test_reg_43_archive_job_zip_verifies_offline(fro, files):
    register = filled(fro.est, fro.inspecteur, count=4)
    demo_certificate_create(fro.est)
    archive = save_audited(
        SeasonArchive(establishment=fro.est, season=current_season(fro.est), requested_by=fro.directeur_responsable),
        actor=fro.directeur_responsable,
    )
    archive = services.archive_run(archive_id=archive.pk)
    assert archive.status == SeasonArchive.Status.DONE, archive.error
    # The house's volumes: the one filled, and its register of authorisations (the staff's roles).
    assert archive.registers[register.number] == register.head_hash and len(archive.registers) == 2
    with zipfile.ZipFile(archive.file.path) as packed:
        packed.extractall(files / "out")
    (folder,) = (files / "out").iterdir()
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["format"] == "ledgers-archive/1" and manifest["season"].count("-") == 1
    assert {f"{register.number}.jsonl", f"{register.number}.pdf"} <= {f["name"] for f in manifest["files"]}
    assert (folder / f"{register.number}.pdf").read_bytes().startswith(b"%PDF")
    result = audit(folder / "manifest.json")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "OK 4 files"


def test_reg_43_tampered_archive_file_is_named(fro, files):
    register = filled(fro.est, fro.inspecteur)
    build_archive(fro.est, current_season(fro.est), files / "a", sealed=False)
    export = files / "a" / f"{register.number}.jsonl"
    export.write_text(export.read_text(encoding="utf-8").replace("Fait 1", "Fait 9"), encoding="utf-8")
    result = audit(files / "a" / "manifest.json")
    assert result.returncode == 1
    assert (
        result.stderr.strip() == f"FAIL {register.number}.jsonl: does not match the manifest (SHA-256, entry count or "
        "last hash)"
    )


def test_reg_43_archive_season_command(fro, files):
    filled(fro.est, fro.inspecteur)
    out = io.StringIO()
    call_command(
        "archive_season",
        fro.est.code,
        str(current_season(fro.est)),
        "--out",
        str(files / "cmd"),
        "--unsealed",
        stdout=out,
    )
    assert "4 files" in out.getvalue()  # two volumes, with the register of authorisations
    assert audit(files / "cmd" / "manifest.json").returncode == 0


def test_reg_43_ui_purge_refusal_and_archive_download_logged(client, fro, files):
    register = filled(fro.est, fro.inspecteur, close_by=fro.directeur_responsable)
    client.force_login(fro.directeur_responsable)
    page = client.get(reverse("authority:archives"))
    assert page.status_code == 200 and register.number.encode() in page.content
    refused = client.post(reverse("authority:purge"), {"number": register.number})
    assert refused.status_code == 409 and b"REG-43" in refused.content
    demo_certificate_create(fro.est)
    archive = save_audited(
        SeasonArchive(establishment=fro.est, season=current_season(fro.est), requested_by=fro.directeur_responsable),
        actor=fro.directeur_responsable,
    )
    services.archive_run(archive_id=archive.pk)
    client.force_login(fro.agent_verificateur)
    download = client.get(reverse("authority:archive_file", args=[archive.pk]))
    assert download.status_code == 200 and download["Content-Type"] == "application/zip"
    assert AccessLog.objects.get().action == "export"
    client.force_login(fro.inspecteur)
    assert client.get(reverse("authority:archive_file", args=[archive.pk])).status_code == 403


def test_reg_43_api_purge_refused(fro):
    register = filled(fro.est, fro.inspecteur, close_by=fro.directeur_responsable)
    api = APIClient()
    api.force_authenticate(fro.directeur_responsable)
    refused = api.post("/api/v1/authority/purges/", {"register": register.number}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "REG-43"
    season = api.post("/api/v1/authority/archives/", {"season": current_season(fro.est)}, format="json")
    assert season.status_code == 400
