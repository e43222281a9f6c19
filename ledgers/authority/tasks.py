"""Celery tasks: fetch ids, call a service (late acknowledgement; a second delivery finds the
archive finished and does nothing)."""

from casino_compliance.celery import app

from .services import archive_run


@app.task(acks_late=True)
def archive_run_task(archive_id: int) -> None:
    archive_run(archive_id=archive_id)
