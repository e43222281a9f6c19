import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledgers.registers import services as registers
from ledgers.reports.models import ReportJob
from ledgers.reports.services import register_fingerprint, report_request_register, report_run
from tests.factories import make_user
from tests.registers.printed import filled_register, page_texts


def ask(register, actor, django_capture_on_commit_callbacks, **options):
    """A print request, its task run eagerly when the transaction commits (no REDIS_URL)."""
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        job = report_request_register(register=register, actor=actor, lang=options.pop("lang", "fr"), **options)
    job.refresh_from_db()
    return job, callbacks


def test_printed_register_runs_through_the_task_to_a_file(register, user_in, django_capture_on_commit_callbacks):
    reader = user_in(register.establishment, "inspecteur")
    job, callbacks = ask(register, reader, django_capture_on_commit_callbacks)
    assert len(callbacks) == 1
    assert (job.status, job.progress, job.error) == (ReportJob.Status.DONE, 100, "")
    pages = page_texts(job.file.read())
    assert f"Page 1 / {len(pages)}" in pages[0] and register.number in pages[0]
    assert job.fingerprint == register_fingerprint(
        number=register.number, head_seq=register.head_seq, head_hash=register.head_hash, lang="fr", sealed=False
    )
    # Every change of status is in the job's history, attributed to the person who asked.
    history = list(job.history.order_by("history_date").values_list("status", "history_user"))
    assert history == [("queued", reader.pk), ("running", reader.pk), ("done", reader.pk)]


def test_same_register_state_reuses_the_printed_file(register, user_in, django_capture_on_commit_callbacks):
    first, _ = ask(register, user_in(register.establishment, "inspecteur"), django_capture_on_commit_callbacks)
    second, callbacks = ask(register, user_in(register.establishment, "scj"), django_capture_on_commit_callbacks)
    assert callbacks == []  # nothing to render
    assert second.pk != first.pk and second.status == ReportJob.Status.DONE
    assert second.file.name == first.file.name
    # Another language or a new entry is another document.
    english, callbacks = ask(
        register, user_in(register.establishment, "scj"), django_capture_on_commit_callbacks, lang="en"
    )
    assert len(callbacks) == 1 and english.file.name != first.file.name
    registers.entry_append(
        register=register,
        actor=make_user(register.establishment, "inspecteur"),
        role="inspecteur",
        payload={"subject": "Nouveau fait"},
    )
    later, callbacks = ask(register, user_in(register.establishment, "scj"), django_capture_on_commit_callbacks)
    assert len(callbacks) == 1 and later.fingerprint != first.fingerprint and later.file.name != first.file.name


def test_a_task_delivered_twice_does_nothing_the_second_time(register, user_in, django_capture_on_commit_callbacks):
    job, _ = ask(register, user_in(register.establishment, "inspecteur"), django_capture_on_commit_callbacks)
    assert report_run(job_id=job.pk) is None
    assert ReportJob.objects.get(pk=job.pk).file.name == job.file.name


def test_progress_is_written_on_the_job_as_pages_are_drawn(mc, user_in):
    register = filled_register(mc, records=80, visa_after=40)
    job = report_request_register(register=register, actor=user_in(mc, "inspecteur"), lang="fr")  # not run yet
    assert job.status == ReportJob.Status.QUEUED
    with CaptureQueriesContext(connection) as queries:
        report_run(job_id=job.pk)
    written = [int(v) for q in queries for v in re.findall(r'SET "progress" = (\d+)', q["sql"])]
    assert len(written) > 3 and written == sorted(written) and written[-1] < 100
    job.refresh_from_db()
    assert (job.status, job.progress) == (ReportJob.Status.DONE, 100)


def test_a_failure_is_recorded_on_the_job(register, demo_seal, user_in, django_capture_on_commit_callbacks):
    reader = user_in(register.establishment, "inspecteur")
    with django_capture_on_commit_callbacks(execute=True):
        job = report_request_register(register=register, actor=reader, lang="fr", sealed=True)
        demo_seal.unlink()  # the certificate disappears before the task runs
    job.refresh_from_db()
    assert job.status == ReportJob.Status.FAILED and not job.file
    assert "Aucun certificat de scellement" in job.error


def test_only_members_of_the_establishment_may_print(register, fr, user_in):
    with pytest.raises(PermissionDenied):
        report_request_register(register=register, actor=user_in(fr, "directeur_responsable"), lang="fr")
    assert not ReportJob.objects.exists()


def test_unknown_language_and_missing_certificate_are_refused(register, user_in, settings):
    reader = user_in(register.establishment, "inspecteur")
    with pytest.raises(ValidationError):
        report_request_register(register=register, actor=reader, lang="de")
    settings.LEDGERS_SEAL_DEMO = False
    with pytest.raises(ValidationError, match="Aucun certificat de scellement"):
        report_request_register(register=register, actor=reader, lang="fr", sealed=True)
    assert not ReportJob.objects.exists()
