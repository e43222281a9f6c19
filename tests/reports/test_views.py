import datetime

from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse

from ledgers.core.services import seance_close, seance_open
from ledgers.reports.models import ReportJob
from ledgers.reports.services import report_request_register
from tests.factories import make_user, open_seance_registers


def test_print_button_job_page_progress_and_download(client, register, user_in, django_capture_on_commit_callbacks):
    reader = user_in(register.establishment, "inspecteur")
    client.force_login(reader)
    request = RequestFactory().get("/")
    request.user = reader
    button = render_to_string("reports/_print_button.html", {"register": register}, request=request)
    url = reverse("reports:register_print", args=[register.number])
    assert f'action="{url}"' in button
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"lang": "fr"})
    job = ReportJob.objects.get()
    assert response.status_code == 302 and response.url == reverse("reports:job", args=[job.pk])
    page = client.get(response.url)
    assert page.status_code == 200
    assert reverse("reports:job_file", args=[job.pk]) in page.content.decode()
    assert "hx-trigger" not in page.content.decode()  # done: no more polling
    download = client.get(reverse("reports:job_file", args=[job.pk]))
    assert download["Content-Type"] == "application/pdf"
    assert b"".join(download.streaming_content).startswith(b"%PDF")
    listing = client.get(reverse("reports:list"))
    assert register.number in listing.content.decode()


def test_a_running_job_polls_its_progress_every_second(client, register, user_in):
    reader = user_in(register.establishment, "inspecteur")
    job = report_request_register(register=register, actor=reader, lang="fr")  # queued: its task has not run
    ReportJob.objects.filter(pk=job.pk).update(status=ReportJob.Status.RUNNING, progress=42)
    client.force_login(reader)
    partial = client.get(reverse("reports:job_progress", args=[job.pk])).content.decode()
    assert f'hx-get="{reverse("reports:job_progress", args=[job.pk])}"' in partial
    assert 'hx-trigger="every 1s"' in partial and "42 %" in partial
    assert client.get(reverse("reports:job_file", args=[job.pk])).status_code == 404


def test_reports_are_scoped_to_their_requester_and_establishment(client, register, fr, user_in):
    job = report_request_register(register=register, actor=user_in(register.establishment, "inspecteur"), lang="fr")
    client.force_login(user_in(register.establishment, "cartier"))
    assert client.get(reverse("reports:job", args=[job.pk])).status_code == 404
    client.force_login(user_in(fr, "directeur_responsable"))
    assert client.post(reverse("reports:register_print", args=[register.number]), {"lang": "fr"}).status_code == 404


def test_a_refused_seal_keeps_the_form(client, register, user_in, settings):
    settings.LEDGERS_SEAL_DEMO = False
    client.force_login(user_in(register.establishment, "inspecteur"))
    response = client.post(reverse("reports:register_print", args=[register.number]), {"lang": "en", "sealed": "on"})
    body = response.content.decode()
    assert response.status_code == 400 and "Aucun certificat de scellement" in body
    assert 'value="en" selected' in body and "checked" in body
    assert not ReportJob.objects.exists()


def test_seance_report_from_the_ui(client, mc, django_capture_on_commit_callbacks):
    director = make_user(mc, "directeur_jeux")
    open_seance_registers(mc)
    seance = seance_close(
        seance=seance_open(establishment=mc, date=datetime.date(2026, 3, 14), period="soiree", actor=director),
        actor=director,
    )
    client.force_login(director)
    form = client.get(reverse("reports:daily_request")).content.decode()
    assert f'<option value="{seance.pk}">' in form
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("reports:daily_request"), {"seance": seance.pk, "lang": "fr"})
    job = ReportJob.objects.get(seance=seance)
    assert response.url == reverse("reports:job", args=[job.pk]) and job.status == ReportJob.Status.DONE
