from casino_compliance.celery import app

from . import services


@app.task(acks_late=True, bind=True, max_retries=None)
def mail_deliver_task(self, mail_id: int) -> bool:
    """Retried with the outbox row's backoff while the mail server refuses (it stays pending)."""
    try:
        return services.mail_deliver(mail_id=mail_id)
    except Exception as exc:
        if self.request.is_eager:
            return False  # in-process: the beat's flush (or the next call) tries again
        from .models import Mail

        mail = Mail.objects.get(pk=mail_id)
        raise self.retry(exc=exc, eta=mail.next_attempt_at) from exc


@app.task(acks_late=True)
def mails_flush_task() -> int:
    """Send what is due in the outbox: mails whose task was lost, or whose retry has come."""
    return services.mails_flush()


@app.task(acks_late=True)
def notices_escalate_task() -> int:
    return services.notices_escalate()
