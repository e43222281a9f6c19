import datetime

import pytest
from rest_framework.test import APIClient

from ledgers.core.services import seance_close, seance_open
from ledgers.reports.models import ReportJob
from tests.factories import make_user, open_seance_registers


@pytest.fixture
def api():
    return APIClient()


def test_print_a_register_through_the_api(api, register, user_in, django_capture_on_commit_callbacks):
    api.force_authenticate(user_in(register.establishment, "scj"))
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            "/api/v1/reports/",
            {"kind": "register", "register": register.number, "sealed": False, "lang": "fr"},
            format="json",
        )
    assert response.status_code == 202
    job_id = response.data["id"]
    detail = api.get(f"/api/v1/reports/{job_id}/")
    assert detail.status_code == 200
    assert (detail.data["status"], detail.data["progress"], detail.data["register"]) == ("done", 100, register.number)
    assert detail.data["file_url"].endswith(f"/api/v1/reports/{job_id}/file/")
    pdf = api.get(f"/api/v1/reports/{job_id}/file/")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert b"".join(pdf.streaming_content).startswith(b"%PDF")
    assert [job["id"] for job in api.get("/api/v1/reports/").data["results"]] == [job_id]


def test_a_queued_job_answers_202_and_has_no_file_yet(api, register, user_in):
    api.force_authenticate(user_in(register.establishment, "scj"))
    response = api.post(
        "/api/v1/reports/", {"kind": "register", "register": register.number}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 202 and response.data["status"] == "queued" and response.data["file_url"] is None
    assert response.data["parameters"] == {"lang": "en", "sealed": False}  # the reader's language by default
    assert api.get(f"/api/v1/reports/{response.data['id']}/file/").status_code == 404


def test_bad_requests(api, register, fr, user_in):
    api.force_authenticate(user_in(register.establishment, "scj"))
    assert api.post("/api/v1/reports/", {"kind": "register"}, format="json").status_code == 400
    assert (
        api.post(
            "/api/v1/reports/", {"kind": "register", "register": register.number, "lang": "de"}, format="json"
        ).status_code
        == 400
    )
    api.force_authenticate(user_in(fr, "police"))
    assert (
        api.post("/api/v1/reports/", {"kind": "register", "register": register.number}, format="json").status_code
        == 404
    )
    assert not ReportJob.objects.exists()


def test_seance_report_through_the_api(api, mc, django_capture_on_commit_callbacks):
    director = make_user(mc, "directeur_jeux")
    open_seance_registers(mc)
    seance = seance_open(establishment=mc, date=datetime.date(2026, 3, 14), period="soiree", actor=director)
    api.force_authenticate(director)
    assert api.post("/api/v1/reports/", {"kind": "daily", "seance": seance.pk}, format="json").status_code == 400
    seance_close(seance=seance, actor=director)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post("/api/v1/reports/", {"kind": "daily", "seance": seance.pk}, format="json")
    assert response.status_code == 202 and response.data["seance"] == seance.pk
    assert api.get(f"/api/v1/reports/{response.data['id']}/").data["status"] == "done"
