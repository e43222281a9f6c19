"""FR sums that become orphans: TITO tickets expired (SLOT-44) and unclaimed wins found by the état
de rapprochement modèle 31 (SLOT-43); and the pages and API of the progressive jackpots."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.cash.models import Orphan
from ledgers.core.errors import RuleViolation
from ledgers.core.services import seance_close, seance_open
from ledgers.registers.selectors import current_register
from ledgers.registers.verification import verify_register
from ledgers.slots import services
from ledgers.slots.models import AccountingLine, Progressive, Ticket
from ledgers.slots.registers import CHANGE_POINTS
from ledgers.slots.services import accounting, jpm, progressives, unclaimed
from tests.factories import make_user, open_register, open_seance_registers

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(fr_room):
    for kind in (
        "carnet_orphelins",
        "slot_rapprochement_31",
        "slot_jackpots_progressifs",
        "slot_jpm_28s",
        "slot_caisse",
    ):
        open_register(fr_room.est, kind)
    return fr_room


def _tito(room):
    machine = room.on_floor(media=("tito",))
    open_register(room.est, "slot_comptabilite_29", machine.casino_number)
    return machine


def _import(room, machine, days_ago: int, number="T1", amount=Decimal("25")):
    issued = timezone.now() - datetime.timedelta(days=days_ago)
    return unclaimed.tickets_import(
        establishment=room.est,
        actor=room["caissier"],
        rows=[unclaimed.TicketRow(number, issued, amount, machine.number if machine else "")],
    )[0]


def test_slot_44_expired_ticket_never_redeemed(room):
    machine = _tito(room)
    _import(room, machine, 9, "OLD")
    fresh = _import(room, machine, 7, "NEW")
    with pytest.raises(RuleViolation) as exc:
        unclaimed.ticket_redeem(establishment=room.est, number="OLD", actor=room["caissier"])
    assert exc.value.code == "SLOT-44"
    assert (
        unclaimed.ticket_redeem(establishment=room.est, number=fresh.number, actor=room["caissier"]).status
        == "redeemed"
    )


def test_slot_44_tickets_issued_and_paid_are_lines_of_the_cash_desk_register(room):
    """Art. 68-26: the slot desk's encaisse is justified by the tickets it paid and the tickets
    issued; each imported ticket and each payment is a line of its register, in the same act."""
    machine = _tito(room)
    issued = timezone.now() - datetime.timedelta(days=1)
    rows = [
        unclaimed.TicketRow("M-1", issued, Decimal("25"), machine.number),
        unclaimed.TicketRow("C-1", issued, Decimal("40")),
    ]
    unclaimed.tickets_import(establishment=room.est, actor=room["caissier"], rows=rows)
    unclaimed.ticket_redeem(establishment=room.est, number="C-1", actor=room["caissier"])
    register = current_register(room.est, CHANGE_POINTS.code)
    tickets = register.entries.filter(payload__event__startswith="Ticket").order_by("seq")
    lines = [(e.payload["event"], e.payload["amount"], e.payload["detail"]) for e in tickets]
    assert [line[:2] for line in lines] == [
        ("Ticket émis", "25.00"),
        ("Ticket émis", "40.00"),
        ("Ticket payé", "40.00"),
    ]
    assert f"machine {machine.number}" in lines[0][2] and "caisse" in lines[2][2] and "C-1" in lines[2][2]
    assert verify_register(register) is None
    with pytest.raises(ValidationError):  # all rows or none: no line for a refused import
        unclaimed.tickets_import(establishment=room.est, actor=room["caissier"], rows=[rows[0]])
    assert register.entries.filter(payload__event__startswith="Ticket").count() == 3


def test_slot_44_validity_is_the_set_37_setting(room):
    machine = _tito(room)
    old, today = _import(room, machine, 9, "OLD"), room.est.localtime().date()
    assert unclaimed.expiry_date(room.est, old) == today - datetime.timedelta(days=1)
    assert list(unclaimed.expired_unposted(room.est)) == [old]
    room.est.options = {**room.est.options, "SET-37": 10}
    room.est.save()
    assert unclaimed.expiry_date(room.est, old) == today + datetime.timedelta(days=1)
    assert list(unclaimed.expired_unposted(room.est)) == []


def test_slot_44_expiry_run_posts_to_orphans_and_modele_29(room):
    machine = _tito(room)
    _import(room, machine, 10, "M1", Decimal("25"))
    _import(room, None, 12, "C1", Decimal("40"))
    _import(room, machine, 3, "M2")
    with pytest.raises(RuleViolation) as exc:
        unclaimed.tickets_expire(establishment=room.est, actor=room["caissier"], comite=None)
    assert exc.value.code == "SLOT-44"
    expired = unclaimed.tickets_expire(establishment=room.est, actor=room["caissier"], comite=room["comite"])
    assert sorted(t.number for t in expired) == ["C1", "M1"]
    assert sorted(o.amount for o in Orphan.objects.filter(category="expired_ticket")) == [Decimal("25"), Decimal("40")]
    line = AccountingLine.objects.get(machine=machine, kind="expired")
    assert line.amount == Decimal("25") and "M1" in line.entry.payload["detail"]
    assert Ticket.objects.get(number="M2").status == "issued"
    with pytest.raises(RuleViolation):
        unclaimed.ticket_redeem(establishment=room.est, number="M1", actor=room["caissier"])


def test_slot_44_seance_not_closed_before_the_expiry_run(room):
    _import(room, _tito(room), 10)
    manager = make_user(room.est, "directeur_responsable")
    room.staff()
    open_seance_registers(room.est)
    seance = seance_open(establishment=room.est, date=timezone.localdate(), period="soiree", actor=manager)
    with pytest.raises(RuleViolation) as exc:
        seance_close(seance=seance, actor=manager)
    assert "SLOT-44" in exc.value.message
    unclaimed.tickets_expire(establishment=room.est, actor=room["caissier"], comite=room["comite"])
    assert seance_close(seance=seance, actor=manager).status == "closed"


def _carnet_machine(room):
    machine = room.on_floor()
    open_register(room.est, "slot_comptabilite_29", machine.casino_number)
    return machine


def _paid(room, machine, amount):
    payment = services.jackpot_pay(
        machine=machine,
        amount=amount,
        method="cash",
        actor=room["caissier"],
        controller=room["comite"],
        combination="777",
    )
    accounting.payment_post(payment=payment, comite=room["comite"], actor=room["caissier"], signed_by=room["caissier"])


def test_slot_43_shortfall_to_orphans_and_modele_29_excess_flagged(room):
    short, over = _carnet_machine(room), _carnet_machine(room)
    room.read(short, 100)
    room.read(over, 100)
    _paid(room, short, Decimal("30"))
    _paid(room, over, Decimal("80"))
    releve = room.releve()
    jackpots = {m.key: 100 + 500 for m in short.meters.all() if m.code == "jackpots"}
    room.read(short, 100, releve=releve, **jackpots)  # 500 credits × 0.10 € = 50 € against 30 € paid
    room.read(over, 100, releve=releve, **{m.key: 600 for m in over.meters.all() if m.code == "jackpots"})
    with pytest.raises(RuleViolation) as exc:
        unclaimed.reconciliation_draw_up(releve=releve, actor=room["caissier"], comite=room["caissier"])
    assert exc.value.code == "SLOT-43"
    Releve = type(releve)
    releve = Releve.objects.get(pk=releve.pk)
    _paid(room, over, Decimal("10"))  # after the reading: outside its period
    reconciliation = unclaimed.reconciliation_draw_up(releve=releve, actor=room["caissier"], comite=room["comite"])
    lines = {line.machine: line for line in reconciliation.lines.all()}
    assert set(lines) == {short, over}
    assert lines[short].difference == Decimal("20.00") and lines[short].orphan.category == "unclaimed_win"
    assert lines[short].accounting_line.kind == "unclaimed" and lines[short].accounting_line.amount == Decimal("20")
    assert lines[over].difference == Decimal("-30.00") and lines[over].flagged and lines[over].orphan is None
    assert reconciliation.entry.register.kind_info.form == "modèle 31"


def test_slot_43_reading_not_closed_without_modele_31(room):
    machine = _carnet_machine(room)
    releve = room.releve()
    room.read(machine, 100, releve=releve)
    with pytest.raises(RuleViolation) as exc:
        services.releve_close(releve=releve, actor=room["superviseur"])
    assert exc.value.code == "SLOT-43" and machine.number in exc.value.message
    assert list(unclaimed.awaiting_reconciliation(room.est)) == [releve]
    unclaimed.reconciliation_draw_up(releve=releve, actor=room["caissier"], comite=room["comite"])
    with pytest.raises(RuleViolation) as exc:  # a machine read now would have no modèle 31 line
        room.read(_carnet_machine(room), 100, releve=releve)
    assert exc.value.code == "SLOT-43"
    assert services.releve_close(releve=releve, actor=room["superviseur"]).status == "closed"
    assert not unclaimed.awaiting_reconciliation(room.est).exists()


def test_slot_36_44_pages_and_api(client, room):
    client.force_login(room.keeper)
    releve = room.releve()
    for name, kwargs in [
        ("progressives", {}),
        ("progressive_create", {}),
        ("progressive_reading", {}),
        ("progressive_stop_notice", {}),
        ("progressive_stop", {}),
        ("progressive_recover", {}),
        ("jpm_reading", {}),
        ("jpm_connect", {}),
        ("jpm_technical", {}),
        ("jpm_win", {}),
        ("jpm_restart", {}),
        ("jpm_transmission", {}),
        ("jpm_withdraw", {}),
        ("tickets_import", {}),
        ("ticket_redeem", {}),
        ("tickets_expire", {}),
        ("reconciliation", {"pk": releve.pk}),
    ]:
        assert client.get(reverse(f"slots:{name}", kwargs=kwargs)).status_code == 200, name
    machine = room.on_floor()
    response = client.post(
        reverse("slots:progressive_create"),
        {"code": "PJ9", "name": "Jackpot", "start_amount": "100", "machines": [machine.pk], "increment_percent": "0"},
    )
    assert response.status_code == 302
    api = APIClient()
    api.force_authenticate(room["caissier"])
    progressive_id = Progressive.objects.get(code="PJ9").pk
    answer = api.post(
        "/api/v1/slots/progressives/readings/", {"progressive": progressive_id, "displayed": "150.00"}, format="json"
    )
    assert answer.status_code == 201, answer.content
    answer = api.post(
        "/api/v1/slots/progressives/readings/", {"progressive": progressive_id, "displayed": "150.00"}, format="json"
    )
    assert answer.status_code == 400
    _import(room, _tito(room), 9, "X1")
    answer = api.post("/api/v1/slots/tickets/redemptions/", {"number": "X1"}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "SLOT-44"


def test_slot_39_sccj_file_download(client, room):
    machine = room.on_floor(game_name="G", payment_programme="P", casino_number="=1+1")
    jackpot = progressives.progressive_create(
        establishment=room.est,
        code="JPM1",
        name="M",
        start_amount=Decimal("100"),
        machines=[machine],
        actor=room["comite"],
        multisite=True,
        increment_percent=Decimal("1"),
        maker=machine.maker,
        machine_type=machine.machine_type,
        game_name="G",
        payment_programme="P",
    )
    client.force_login(room.keeper)
    url = reverse("slots:jpm_transmission_csv", args=[jackpot.pk])
    today = timezone.localdate().isoformat()
    assert client.get(url, {"start": today, "end": today}).status_code == 400  # no modèle 28 S line yet
    jpm.jpm_reading_record(
        jackpot=jackpot, displayed=Decimal("150"), meters={machine.number: 42}, actor=room["caissier"]
    )
    response = client.get(url, {"start": today, "end": today})
    assert response.status_code == 200 and response["Content-Type"] == "text/csv"
    # A casino number a spreadsheet would compute is written as text.
    assert f"'=1+1;{machine.location_number};42;42" in response.content.decode()


def test_tickets_import_echoes_the_pasted_text_as_a_spreadsheet_will_not_run_it(room):
    from ledgers.slots.forms.progressives import TicketsImportForm

    issued = timezone.now() - datetime.timedelta(days=1)
    with pytest.raises(ValidationError) as unknown:
        unclaimed.tickets_import(
            establishment=room.est,
            actor=room["caissier"],
            rows=[unclaimed.TicketRow("T1", issued, Decimal("25"), '=HYPERLINK("http://x")')],
        )
    assert '\'=HYPERLINK("http://x")' in unknown.value.messages[0]
    with pytest.raises(ValidationError) as amount:
        unclaimed.tickets_import(
            establishment=room.est, actor=room["caissier"], rows=[unclaimed.TicketRow("@T2", issued, Decimal("0"), "")]
        )
    assert "'@T2" in amount.value.messages[0]
    form = TicketsImportForm({"rows": "+T3;hier;25;"}, establishment=room.est)
    assert not form.is_valid() and "'+T3;hier;25;" in form.errors["rows"][0]
