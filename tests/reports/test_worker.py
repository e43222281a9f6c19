"""One job through a real Celery worker and Redis (the deployment path); the other tests run the
tasks eagerly, as a deployment without REDIS_URL does."""

import time

import pytest
from celery.signals import task_received

from ledgers.reports.models import ReportJob
from ledgers.reports.services import report_request_register
from tests.registers.printed import filled_register, page_texts


@pytest.mark.worker
@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_printed_register_through_a_celery_worker_on_redis(celery_on_redis, mc, user_in):
    register = filled_register(mc, records=30)
    received = []

    def on_received(request, **kwargs):  # sent by a worker taking a message from the broker, never when eager
        received.append(request.name)

    task_received.connect(on_received, weak=False)
    try:
        job = report_request_register(register=register, actor=user_in(mc, "scj"), lang="fr")  # commits: enqueued
        deadline = time.monotonic() + 60
        while job.is_active and time.monotonic() < deadline:
            time.sleep(0.2)
            job.refresh_from_db()
    finally:
        task_received.disconnect(on_received)
    assert received == ["ledgers.reports.tasks.report_run_task"]
    assert (job.status, job.progress, job.error) == (ReportJob.Status.DONE, 100, "")
    assert register.number in page_texts(job.file.read())[0]
