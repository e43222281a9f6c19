"""Celery tasks: fetch ids, call a service. Late acknowledgement (a worker lost mid-render leaves
the message to another), retries with backoff on transient database errors; the services make a
second delivery harmless."""

from casino_compliance.celery import app

from .services import TRANSIENT_ERRORS, daily_reports_schedule, report_jobs_recover, report_run

RETRY = {
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": 5,
    "retry_backoff_max": 600,
    "retry_jitter": True,
    "max_retries": 5,
}


@app.task(bind=True, acks_late=True, **RETRY)
def report_run_task(self, job_id: int) -> None:
    report_run(job_id=job_id, final_attempt=self.request.retries >= self.max_retries)


@app.task(acks_late=True, **RETRY)
def daily_reports_task() -> None:
    daily_reports_schedule()


@app.task(acks_late=True, **RETRY)
def report_jobs_recover_task() -> None:
    report_jobs_recover()
