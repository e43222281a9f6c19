"""The deployment path of a notice's mail: a real Celery worker taking its task from Redis, a
real SMTP server (aiosmtpd) down, then up. The mail stays in the outbox and is retried by the
worker while the server refuses it, then is delivered once."""

import time

import pytest
from celery.signals import task_received

from ledgers.incidents.services import incident_open
from ledgers.notifications.models import Mail
from tests.factories import open_register


def _wait_for(condition, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := condition():
            return value
        time.sleep(0.2)
    raise AssertionError("condition not met in time")


@pytest.mark.worker
@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_mail_retried_by_the_worker_while_the_server_is_down_then_delivered_once(
    celery_on_redis, settings, smtp, mc, user_in
):
    settings.NOTIFICATIONS_RETRY_SECONDS = 1  # 1, 2, 4 … seconds between attempts
    open_register(mc, "incidents")
    user_in(mc, "scj", email="scj@casino.test")
    received = []

    def on_received(request, **kwargs):  # sent by a worker taking a message from the broker, never when eager
        received.append(request.name)

    task_received.connect(on_received, weak=False)
    try:
        incident = incident_open(  # commits: the mail's task is queued in Redis
            establishment=mc, category="game", description="Coup contesté", actor=user_in(mc, "inspecteur")
        )
        mail = Mail.objects.get(notice__about=f"incidents.incident:{incident.pk}")
        # Nothing listens on the SMTP port: the worker tries, the row keeps the error, and tries again.
        _wait_for(lambda: Mail.objects.get(pk=mail.pk).attempts >= 2)
        mail.refresh_from_db()
        assert mail.status == Mail.Status.PENDING and "Connection" in mail.last_error
        assert smtp.messages == []
        smtp.start()
        _wait_for(lambda: Mail.objects.get(pk=mail.pk).status == Mail.Status.SENT, timeout=90)
        time.sleep(2)  # no second delivery follows
    finally:
        task_received.disconnect(on_received)
    mail.refresh_from_db()
    assert mail.attempts >= 3 and mail.sent_at is not None and mail.last_error == ""
    assert [m["To"] for m in smtp.messages] == ["scj@casino.test"]
    assert set(received) == {"ledgers.notifications.tasks.mail_deliver_task"} and len(received) == mail.attempts
