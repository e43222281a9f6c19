from casino_compliance.celery import app

from . import services


@app.task(acks_late=True)
def keys_overdue_notify_task() -> int:
    """The beat's sweep for overdue keys: each is notified once (the service skips those told)."""
    return services.keys_overdue_notify()
