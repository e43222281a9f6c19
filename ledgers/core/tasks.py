from celery import shared_task

from .directory import sync_directory


@shared_task(acks_late=True)
def directory_sync_task() -> dict[str, int]:
    result = sync_directory()
    return {"checked": result.checked, "disabled": result.disabled}
