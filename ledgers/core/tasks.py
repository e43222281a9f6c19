import logging

from casino_compliance.celery import app

from .directory import sync_directory

logger = logging.getLogger(__name__)


@app.task(acks_late=True)
def directory_sync_task() -> dict[str, int]:
    result = sync_directory()
    return {"checked": result.checked, "disabled": result.disabled}


@app.task(acks_late=True, bind=True, max_retries=8, retry_backoff=60)
def invitation_mail_task(self, user_id: int, establishment_id: int) -> bool:
    """Mail an invitation's link, made now (it is kept nowhere), retried while the mail server
    refuses it; in-process, a refusal is logged and the directorate sends the invitation again."""
    from .passwords import invitation_mail_send

    try:
        return invitation_mail_send(user_id=user_id, establishment_id=establishment_id)
    except Exception as exc:
        if self.request.is_eager:
            logger.warning("invitation of user %s not mailed", user_id, exc_info=True)
            return False
        raise self.retry(exc=exc, countdown=60 * 2**self.request.retries) from exc
