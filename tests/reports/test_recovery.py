"""Printing without its broker, and jobs whose worker died: the request is never lost nor
answered 500, the job says it waits, and recovery re-sends it or fails it with the reason."""

import datetime
import time
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from casino_compliance.celery import app
from ledgers.core.authz import save_audited
from ledgers.reports.models import ReportJob
from ledgers.reports.services import report_jobs_recover, report_request_register

CLOSED_PORT = "redis://127.0.0.1:1/0"  # nothing listens there: the broker is unreachable


@pytest.fixture
def broker_down():
    """Tasks go to a Redis that does not answer (as in a deployment whose Redis is down)."""
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=CLOSED_PORT, task_always_eager=False)
    _drop_broker_pools()
    yield
    app.conf.update(saved)
    _drop_broker_pools()


def _drop_broker_pools():
    app.amqp._producer_pool = None
    app._pool = None


def test_print_request_with_redis_down_is_kept_queued_and_says_so(
    register, user_in, client, broker_down, django_capture_on_commit_callbacks
):
    client.force_login(user_in(register.establishment, "inspecteur"))
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("reports:register_print", args=[register.number]), {"lang": "fr"})
    assert time.monotonic() - started < 15  # refused at once, not after endless retries
    assert response.status_code == 302
    job = ReportJob.objects.get()
    assert (job.status, job.notice, job.sent_at) == (ReportJob.Status.QUEUED, ReportJob.Notice.BROKER_DOWN, None)
    page = client.get(reverse("reports:job", args=[job.pk])).content.decode()
    assert "injoignable" in page and "partira automatiquement" in page


def test_api_print_request_with_redis_down_answers_202_queued(
    register, user_in, broker_down, django_capture_on_commit_callbacks
):
    api = APIClient()
    api.force_authenticate(user_in(register.establishment, "inspecteur"))
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            "/api/v1/reports/", {"kind": "register", "register": register.number, "lang": "fr"}, format="json"
        )
    assert response.status_code == 202, response.content
    job = api.get(f"/api/v1/reports/{response.json()['id']}/").json()
    assert job["status"] == "queued" and "injoignable" in job["notice"]


def test_recovery_sends_again_what_the_broker_never_got(register, user_in, django_capture_on_commit_callbacks):
    job = report_request_register(register=register, actor=user_in(register.establishment, "inspecteur"), lang="fr")
    ReportJob.objects.filter(pk=job.pk).update(notice=ReportJob.Notice.BROKER_DOWN)  # the broker was down
    assert report_jobs_recover() == {"resent": [], "failed": []}  # just asked: its own send may be under way
    later = timezone.now() + datetime.timedelta(minutes=2)
    with django_capture_on_commit_callbacks(execute=True):
        assert report_jobs_recover(now=later) == {"resent": [job.pk], "failed": []}  # the broker is back (eager)
    job.refresh_from_db()
    assert (job.status, job.attempts, job.notice) == (ReportJob.Status.DONE, 1, "")


def _died_while_running(job: ReportJob, *, attempts: int, silent_for: int) -> ReportJob:
    """The state a worker killed mid-render leaves: running, its heartbeat ``silent_for`` minutes old."""
    job.status, job.attempts = ReportJob.Status.RUNNING, attempts
    job.started_at = job.heartbeat_at = timezone.now() - datetime.timedelta(minutes=silent_for)
    return save_audited(job, actor=None, reason="début")


def test_job_whose_worker_died_is_sent_again(register, user_in, django_capture_on_commit_callbacks):
    job = report_request_register(register=register, actor=user_in(register.establishment, "inspecteur"), lang="fr")
    _died_while_running(job, attempts=1, silent_for=30)
    with django_capture_on_commit_callbacks(execute=True):
        out = StringIO()
        call_command("recover_report_jobs", stdout=out)
    assert f"resent: [{job.pk}]" in out.getvalue()
    job.refresh_from_db()
    assert (job.status, job.progress, job.attempts) == (ReportJob.Status.DONE, 100, 2)
    reasons = list(job.history.order_by("history_date").values_list("history_change_reason", flat=True))
    assert "sans signe de vie : relancé" in reasons


def test_job_whose_worker_died_on_its_last_send_fails_with_the_reason(register, user_in, settings):
    job = report_request_register(register=register, actor=user_in(register.establishment, "inspecteur"), lang="fr")
    _died_while_running(job, attempts=settings.REPORTS_MAX_ATTEMPTS, silent_for=30)
    assert report_jobs_recover() == {"resent": [], "failed": [job.pk]}
    job.refresh_from_db()
    assert job.status == ReportJob.Status.FAILED and "aucun signe de vie" in job.error


def test_running_job_with_a_recent_heartbeat_is_left_alone(register, user_in):
    job = report_request_register(register=register, actor=user_in(register.establishment, "inspecteur"), lang="fr")
    _died_while_running(job, attempts=1, silent_for=1)
    assert report_jobs_recover() == {"resent": [], "failed": []}
    job.refresh_from_db()
    assert job.status == ReportJob.Status.RUNNING
