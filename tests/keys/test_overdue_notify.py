"""Overdue keys told by e-mail through a real SMTP server (aiosmtpd), by the periodic task: a line
of the registre des clés signed by the system, once per hand-over; the holder's acknowledgement
a line of the same register (KEY-02, KEY-05)."""

import datetime

from django.utils import timezone

from ledgers.core.models import Seance
from ledgers.keys.services import key_issue, key_return, keys_overdue_notify
from ledgers.keys.tasks import keys_overdue_notify_task
from ledgers.notifications.models import Notice, NoticeKind
from ledgers.notifications.services import notice_acknowledge
from ledgers.registers.models import SYSTEM_ACTOR, SYSTEM_ROLE, Register
from ledgers.registers.services import register_close
from ledgers.registers.verification import verify_register

from .conftest import due


def _out_machine_key(org, hours: float = 1):
    for role in ("mecanicien", "superviseur"):
        org[role].email = f"{role}@casino.test"
        org[role].save()
    key = org.key("M-1", "machine_door", home=org.homes["coffre"])
    return key_issue(
        key=key,
        actor=org["superviseur"],
        holder=org["mecanicien"],
        purpose_type="test.intervention",
        purpose_id=org.operation().pk,
        due_at=due(hours),
    )


def test_key_05_overdue_key_notified_once_and_recorded_by_the_system(mc_org, smtp, django_capture_on_commit_callbacks):
    issue = _out_machine_key(mc_org)
    smtp.start()
    assert keys_overdue_notify() == 0  # not due yet
    later = issue.due_at + datetime.timedelta(minutes=5)
    with django_capture_on_commit_callbacks(execute=True):
        assert keys_overdue_notify(now=later) == 1
    assert sorted(m["To"] for m in smtp.messages) == ["mecanicien@casino.test", "superviseur@casino.test"]
    notice = Notice.objects.get(kind=NoticeKind.KEY_OVERDUE)
    assert notice.created_by is None and notice.about == f"keys.keyissue:{issue.pk}"
    register = Register.objects.get(establishment=mc_org.est, kind="registre_cles")
    line = register.entries.get(seq=register.head_seq)
    assert (line.actor, line.actor_user, line.role) == (SYSTEM_ACTOR, None, SYSTEM_ROLE)
    assert line.payload["event"] == "Notification" and line.payload["key"].startswith("M-1")
    assert line.payload["holder"] == "Mecanicien Test (Mécanicien)"
    assert line.payload["recipients"] == [
        "Mecanicien Test (Mécanicien) <mecanicien@casino.test>",
        "Superviseur Test (Superviseur) <superviseur@casino.test>",
    ]
    assert "en retard" in line.payload["observations"]
    with django_capture_on_commit_callbacks(execute=True):
        assert keys_overdue_notify(now=later + datetime.timedelta(hours=1)) == 0  # told once
    assert len(smtp.messages) == 2
    # The holder acknowledges: a line of the same register, signed by them.
    notice_acknowledge(notice=notice, actor=mc_org["mecanicien"])
    register.refresh_from_db()
    receipt = register.entries.get(seq=register.head_seq)
    assert receipt.payload["event"] == "Accusé de réception"
    assert (receipt.actor_user, receipt.role) == (mc_org["mecanicien"], "mecanicien")
    assert verify_register(register) is None


def test_key_05_key_returned_before_the_sweep_is_not_notified(mc_org, smtp):
    issue = _out_machine_key(mc_org)
    key_return(issue=issue, actor=mc_org["superviseur"], returned_by=mc_org["mecanicien"])
    assert keys_overdue_notify(now=timezone.now() + datetime.timedelta(hours=3)) == 0
    assert not Notice.objects.exists()


def test_overdue_sweep_without_an_open_key_register_sends_nothing(mc_org, smtp):
    issue = _out_machine_key(mc_org)
    register = Register.objects.get(establishment=mc_org.est, kind="registre_cles")
    register_close(register=register, actor=mc_org.admin)
    assert keys_overdue_notify(now=issue.due_at + datetime.timedelta(minutes=1)) == 0
    assert not Notice.objects.exists()


def test_key_05_the_periodic_task_tells_of_a_key_out_after_its_intervention_closed(
    mc_org, smtp, django_capture_on_commit_callbacks
):
    issue = _out_machine_key(mc_org)
    mc_org.close(Seance.objects.get(pk=issue.purpose_id))  # not late, but its purpose is closed
    smtp.start()
    with django_capture_on_commit_callbacks(execute=True):
        assert keys_overdue_notify_task.delay().get() == 1
    assert len(smtp.messages) == 2
