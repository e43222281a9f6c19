from celery import shared_task

from . import services


@shared_task(acks_late=True)
def keys_overdue_notify_task() -> int:
    """The beat's sweep for overdue keys: each is notified once (the service skips those told)."""
    return services.keys_overdue_notify()
