"""Notices by e-mail through a real SMTP server (aiosmtpd): recorded in the register concerned,
kept in the outbox while the server is down, escalated when not acknowledged, acknowledged in
the UI and the API."""

import datetime
from email.header import decode_header, make_header

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.authority.models import Declaration
from ledgers.authority.services import declaration_record
from ledgers.incidents.models import Incident, IncidentNotice
from ledgers.incidents.services import incident_open
from ledgers.notifications import services
from ledgers.notifications.models import Mail, Notice, NoticeKind, Subscription
from ledgers.registers.chain import format_timestamp
from ledgers.registers.integrity import check_entry_actors
from ledgers.registers.models import SYSTEM_ACTOR, SYSTEM_ROLE, EntryKind
from ledgers.registers.verification import snapshot, verify_register
from tests.factories import open_register


@pytest.fixture
def people(mc, user_in):
    open_register(mc, "incidents")
    return {
        "inspecteur": user_in(mc, "inspecteur"),
        "scj": user_in(mc, "scj", email="scj@casino.test"),
        "directeur": user_in(mc, "directeur_jeux", email="direction@casino.test"),
    }


def subject(message) -> str:
    return str(make_header(decode_header(message["Subject"])))


def open_game_incident(mc, people, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return incident_open(
            establishment=mc, category="game", description="Coup contesté =1+1", actor=people["inspecteur"]
        )


def test_inc_01_incident_mailed_to_the_scj_and_recorded_in_the_incident_register(
    mc, people, smtp, django_capture_on_commit_callbacks
):
    smtp.start()
    incident = open_game_incident(mc, people, django_capture_on_commit_callbacks)
    notice = Notice.objects.get(about=f"incidents.incident:{incident.pk}")
    [message] = smtp.messages
    assert message["To"] == "scj@casino.test" and f"Incident n° {incident.pk}" in subject(message)
    assert message["X-Ledgers-Notice"] == str(notice.pk)
    mail = notice.mails.get()
    assert mail.status == Mail.Status.SENT and mail.sent_at is not None and mail.attempts == 1
    entry = notice.register.entries.get(seq=notice.register.head_seq)
    assert entry.payload["event"] == "Notification" and entry.payload["notice"] == notice.pk
    assert entry.payload["recipients"] == ["Scj Test (Agent du Service de Contrôle des Jeux) <scj@casino.test>"]
    assert entry.actor_user == people["inspecteur"]


def test_mail_sent_while_the_server_is_down_is_delivered_once_it_is_up(
    mc, people, smtp, django_capture_on_commit_callbacks
):
    incident = open_game_incident(mc, people, django_capture_on_commit_callbacks)  # nothing listens yet
    mail = Mail.objects.get(notice__about=f"incidents.incident:{incident.pk}")
    assert mail.status == Mail.Status.PENDING and mail.attempts == 1 and "Connection" in mail.last_error
    assert mail.next_attempt_at > timezone.now()
    assert services.mails_flush() == 0  # its retry has not come yet: nothing is tried
    smtp.start()
    assert services.mails_flush(now=mail.next_attempt_at) == 1
    mail.refresh_from_db()
    assert mail.status == Mail.Status.SENT and mail.attempts == 2
    assert [m["To"] for m in smtp.messages] == ["scj@casino.test"]
    assert services.mails_flush(now=mail.next_attempt_at + datetime.timedelta(hours=1)) == 0  # sent once


def test_unacknowledged_notice_escalates_to_the_next_level(mc, people, smtp, django_capture_on_commit_callbacks):
    Subscription.objects.create(establishment=mc, role="directeur_jeux", kind=NoticeKind.INCIDENT, level=1)
    smtp.start()
    open_game_incident(mc, people, django_capture_on_commit_callbacks)
    notice = Notice.objects.get()
    assert services.notices_escalate(now=notice.acknowledge_by - datetime.timedelta(seconds=1)) == 0
    with django_capture_on_commit_callbacks(execute=True):
        assert services.notices_escalate(now=notice.acknowledge_by) == 1
    assert [m["To"] for m in smtp.messages] == ["scj@casino.test", "direction@casino.test"]
    notice.refresh_from_db()
    assert notice.level == 1
    assert services.notices_escalate(now=notice.acknowledge_by) == 0  # no level 2 subscribed


def test_inc_01_scj_acknowledges_in_the_ui_recorded_in_the_register(
    client, mc, people, smtp, django_capture_on_commit_callbacks
):
    smtp.start()
    incident = open_game_incident(mc, people, django_capture_on_commit_callbacks)
    notice = Notice.objects.get()
    client.force_login(people["scj"])
    assert notice.subject in client.get(reverse("notifications:list")).content.decode()
    response = client.post(reverse("notifications:detail", args=[notice.pk]))
    assert response.status_code == 302
    notice.refresh_from_db()
    assert notice.acknowledged_by == people["scj"]
    entry = notice.register.entries.get(seq=notice.register.head_seq)
    assert entry.kind == EntryKind.RECORD and entry.payload["event"] == "Accusé de réception"
    assert entry.actor_user == people["scj"] and entry.role == "scj"
    # The SCJ is recorded as informed of the incident, by e-mail (what closing the incident needs).
    informed = IncidentNotice.objects.get(incident=incident)
    assert (informed.recipient_role, informed.channel) == ("scj", "email")
    assert informed.notified_at == notice.mails.get().sent_at


def test_acknowledge_through_the_api_and_only_by_a_recipient(mc, people, smtp, django_capture_on_commit_callbacks):
    smtp.start()
    open_game_incident(mc, people, django_capture_on_commit_callbacks)
    notice = Notice.objects.get()
    stranger = APIClient()
    stranger.force_authenticate(people["directeur"])
    assert stranger.post(f"/api/v1/notifications/{notice.pk}/acknowledge/").status_code == 404
    api = APIClient()
    api.force_authenticate(people["scj"])
    assert [n["id"] for n in api.get("/api/v1/notifications/").json()["results"]] == [notice.pk]
    answer = api.post(f"/api/v1/notifications/{notice.pk}/acknowledge/")
    assert answer.status_code == 201 and answer.json()["acknowledged_at"]
    assert api.post(f"/api/v1/notifications/{notice.pk}/acknowledge/").status_code == 409


def test_auth_01_declaration_mailed_to_the_police_and_recorded(fr, user_in, smtp, django_capture_on_commit_callbacks):
    register = open_register(fr, "declarations_prealables")
    open_register(fr, "informations_autorites")
    director = user_in(fr, "directeur_responsable")
    police = user_in(fr, "police", email="police@casino.test")
    smtp.start()
    sent = timezone.localdate()
    with django_capture_on_commit_callbacks(execute=True):
        declaration = declaration_record(
            establishment=fr,
            actor=director,
            operation="6",
            details="Mise minimale de la roulette portée à 5 €",
            sent_on=sent,
            recipients=Declaration.Recipient.values,
            proof="LRAR 1A 234 567 8901 2",
            implementation_date=sent + datetime.timedelta(days=15),
        )
    [message] = smtp.messages
    assert message["To"] == "police@casino.test" and "Déclaration préalable n° 1" in subject(message)
    register.refresh_from_db()
    notice_entry = register.entries.get(seq=register.head_seq)
    assert notice_entry.seq == declaration.entry_seq + 1 and notice_entry.payload["event"] == "Notification"
    services.notice_acknowledge(notice=Notice.objects.get(), actor=police)
    register.refresh_from_db()
    receipt = register.entries.get(seq=register.head_seq)
    assert receipt.payload["event"] == "Accusé de réception" and (receipt.actor_user, receipt.role) == (
        police,
        "police",
    )
    assert receipt.payload["acknowledged_by"] == "Police Test (Fonctionnaire de police des jeux)"


def test_escalation_is_a_line_of_the_register_signed_by_the_system(
    mc, people, smtp, django_capture_on_commit_callbacks
):
    Subscription.objects.create(establishment=mc, role="directeur_jeux", kind=NoticeKind.INCIDENT, level=1)
    smtp.start()
    open_game_incident(mc, people, django_capture_on_commit_callbacks)
    notice = Notice.objects.get()
    when = notice.acknowledge_by
    with django_capture_on_commit_callbacks(execute=True):
        services.notices_escalate(now=when)
    register = notice.register
    register.refresh_from_db()
    line = register.entries.get(seq=register.head_seq)
    assert (line.actor, line.actor_user, line.role) == (SYSTEM_ACTOR, None, SYSTEM_ROLE)
    assert line.payload["event"] == "Relance, faute d'accusé de réception" and line.payload["level"] == 1
    assert line.payload["recipients"] == ["Directeur_jeux Test (Directeur des jeux) <direction@casino.test>"]
    assert line.payload["escalated_at"] == format_timestamp(when)
    assert verify_register(register) is None
    with snapshot():
        assert check_entry_actors() is None


def test_menu_links_to_the_notices_with_the_number_to_acknowledge(
    client, mc, people, smtp, django_capture_on_commit_callbacks
):
    smtp.start()
    open_game_incident(mc, people, django_capture_on_commit_callbacks)
    link = f'href="{reverse("notifications:list")}"'
    client.force_login(people["scj"])
    page = client.get(reverse("registers:list")).content.decode()
    assert link in page and 'title="À accuser">1</span>' in page
    client.post(reverse("notifications:detail", args=[Notice.objects.get().pk]))
    page = client.get(reverse("registers:list")).content.decode()
    assert link in page and 'title="À accuser"' not in page  # acknowledged: the link stays, no count
    client.force_login(people["directeur"])  # never mailed, not subscribed: no link
    assert link not in client.get(reverse("registers:list")).content.decode()
    Subscription.objects.create(establishment=mc, role="directeur_jeux", kind=NoticeKind.INCIDENT, level=1)
    assert link in client.get(reverse("registers:list")).content.decode()  # subscribed: the link, before any notice


def test_a_notice_nobody_is_to_receive_is_silent_one_nobody_can_receive_is_logged(mc, fr, user_in, caplog):
    """A category the texts have no one told for raises no alarm; a required recipient without an
    address is logged for the casino's IT, and nothing is sent or recorded in either case."""
    for est in (mc, fr):
        open_register(est, "incidents")
    with caplog.at_level("WARNING", logger="ledgers.notifications.services"):
        # FR: a game incident is told to no one by the texts.
        incident_open(establishment=fr, category="game", description="Coup contesté", actor=user_in(fr, "inspecteur"))
        assert not caplog.records
        # MC: the SCJ is told of it (INC-01), but the only SCJ agent has no address.
        user_in(mc, "scj", email="")
        incident_open(establishment=mc, category="game", description="Coup contesté", actor=user_in(mc, "inspecteur"))
    latest = Incident.objects.latest("pk").pk
    assert [r.getMessage() for r in caplog.records] == [
        f"notice 'Incident n° {latest} — Incident de jeu': no recipient with an e-mail address"
    ]
    assert not Notice.objects.exists()
