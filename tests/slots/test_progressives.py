"""FR progressive jackpots: the registre des jackpots progressifs (SLOT-36), voluntary stops
(SLOT-37) and the multisite jackpot (JPM) with its modèle 28 S (SLOT-38 to SLOT-41)."""

import calendar
import datetime
import hashlib
import io
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.cash.models import Orphan
from ledgers.core.errors import RuleViolation
from ledgers.core.services import seance_close, seance_open
from ledgers.registers.models import Entry, Register
from ledgers.registers.verification import verify_register
from ledgers.reports.documents import register_pdf
from ledgers.slots import services
from ledgers.slots.models import AccountingLine, IncrementBon, Progressive
from ledgers.slots.services import accounting, jpm, progressives
from tests.cash.test_e2e import printed
from tests.factories import DEFAULT_PASSWORD, make_user, open_register, open_seance_registers

pytestmark = pytest.mark.django_db
IDENTITY = {
    "maker": "Aristocrat",
    "machine_type": "Vidéo rouleaux",
    "game_name": "Lightning Link",
    "payment_programme": "P-92",
}


@pytest.fixture
def room(fr_room):
    for kind in ("slot_jackpots_progressifs", "slot_jpm_28s", "carnet_orphelins"):
        open_register(fr_room.est, kind)
    return fr_room


def _machine(room, **identity):
    machine = room.on_floor(**{"game_name": "Lightning Link", "payment_programme": "P-92", **identity})
    open_register(room.est, "slot_comptabilite_29", machine.casino_number)
    return machine


def _local(room, code="PJ1", start=Decimal("1000")):
    return progressives.progressive_create(
        establishment=room.est,
        code=code,
        name="Grand jackpot",
        start_amount=start,
        machines=[_machine(room)],
        actor=room["comite"],
    )


def _jpm(room, machines=2):
    return progressives.progressive_create(
        establishment=room.est,
        code="JPM1",
        name="Mégajackpot",
        start_amount=Decimal("10000"),
        machines=[_machine(room) for _ in range(machines)],
        actor=room["comite"],
        multisite=True,
        increment_percent=Decimal("1"),
        members=["Casino de Nice", "Casino de Cannes"],
        **IDENTITY,
    )


def _told(room, progressive, kind="final", reference="DLPAJ-1"):
    return progressives.progressive_stop_notify(
        progressive=progressive, kind=kind, channel="written", reference=reference, actor=room["comite"]
    )


def test_slot_36_daily_reading_in_the_register(room):
    progressive = _local(room)
    reading = progressives.progressive_reading_record(
        progressive=progressive, displayed=Decimal("1250.50"), actor=room["caissier"]
    )
    entry = reading.entry
    assert entry.register.kind == "slot_jackpots_progressifs"
    assert entry.payload["jackpot"] == "PJ1" and entry.payload["amount"] == "1250.50"
    assert entry.payload["machines"] == progressive.machines.get().number and "Caissier" in entry.payload["signature"]
    with pytest.raises(ValidationError):
        progressives.progressive_reading_record(
            progressive=progressive, displayed=Decimal("1300"), actor=room["caissier"]
        )


def test_slot_36_fall_without_payment_flagged_explained_fall_not(room):
    progressive = _local(room)
    today = timezone.localdate()
    progressives.progressive_reading_record(
        progressive=progressive,
        displayed=Decimal("1500"),
        actor=room["caissier"],
        day=today - datetime.timedelta(days=2),
    )
    fell = progressives.progressive_reading_record(
        progressive=progressive,
        displayed=Decimal("1400"),
        actor=room["caissier"],
        day=today - datetime.timedelta(days=1),
    )
    assert fell.flags == ["SLOT-36"]
    services.jackpot_pay(
        machine=progressive.machines.get(),
        amount=Decimal("1400"),
        method="cash",
        actor=room["caissier"],
        controller=room["comite"],
        combination="Jackpot progressif",
    )
    after = progressives.progressive_reading_record(
        progressive=progressive, displayed=Decimal("1000"), actor=room["caissier"]
    )
    assert after.flags == []


def test_slot_36_gaming_day_not_closed_without_every_active_progressive(room):
    progressive = _local(room)
    _local(room, code="PJ2")
    manager = make_user(room.est, "directeur_responsable")
    for day in (1, 0):  # the room's staffing before it opens (SLOT-50)
        room.staff(timezone.localdate() - datetime.timedelta(days=day))
    open_seance_registers(room.est)
    yesterday = seance_open(
        establishment=room.est, date=timezone.localdate() - datetime.timedelta(days=1), period="soiree", actor=manager
    )
    assert seance_close(seance=yesterday, actor=manager).status == "closed"  # not in service yet that day
    afternoon = seance_open(establishment=room.est, date=timezone.localdate(), period="apres_midi", actor=manager)
    seance = seance_open(establishment=room.est, date=timezone.localdate(), period="soiree", actor=manager)
    assert seance_close(seance=afternoon, actor=manager).status == "closed"  # not the close of play yet
    with pytest.raises(RuleViolation) as exc:
        seance_close(seance=seance, actor=manager)
    assert exc.value.code == "REG-25" and "SLOT-36" in exc.value.message and "PJ2" in exc.value.message
    progressives.progressive_reading_record(progressive=progressive, displayed=Decimal("1100"), actor=room["caissier"])
    progressives.progressive_reading_record(
        progressive=Progressive.objects.get(code="PJ2"), displayed=Decimal("1000"), actor=room["caissier"]
    )
    assert seance_close(seance=seance, actor=manager).status == "closed"


def test_slot_37_stop_refused_without_the_recorded_minister_notice(room):
    progressive = _local(room)
    with pytest.raises(RuleViolation) as exc:
        progressives.progressive_stop(
            progressive=progressive,
            kind="final",
            stop_date=timezone.localdate(),
            displayed=Decimal("1300"),
            actor=room["comite"],
        )
    assert exc.value.code == "SLOT-37" and "Enregistrez d'abord" in str(exc.value)
    assert Progressive.objects.get(pk=progressive.pk).status == "active"


def test_slot_37_amb_50_stop_within_15_days_after_the_recorded_notice_not_later(room, monkeypatch):
    """ "Dans les quinze jours qui précèdent" (AMB-50): the Minister is told within the 15 days before
    the stop; a notice older than that no longer precedes it within them, and is given again."""
    progressive = _local(room)
    before = timezone.now()
    notice = _told(room, progressive)
    assert before <= notice.notified_at <= timezone.now()  # the system's time, nothing typed
    line = Entry.objects.filter(register__kind="informations_autorites").order_by("-pk").first()
    assert line.payload["requirement"] == "SLOT-37" and line.payload["reference"] == "DLPAJ-1"
    with pytest.raises(RuleViolation):
        _told(room, progressive, reference="DLPAJ-2")  # told once while it holds
    later = timezone.now() + datetime.timedelta(days=15, minutes=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    stop = {"progressive": progressive, "kind": "final", "stop_date": timezone.localdate(), "actor": room["comite"]}
    with pytest.raises(RuleViolation) as exc:
        progressives.progressive_stop(displayed=Decimal("1300"), **stop)
    until = room.est.localtime(notice.notified_at + datetime.timedelta(days=15))
    assert exc.value.code == "SLOT-37" and f"{until:%d/%m/%Y %H:%M}" in str(exc.value)
    assert Progressive.objects.get(pk=progressive.pk).status == "active"
    _told(room, progressive, reference="DLPAJ-2")  # told again: the stop may follow
    assert progressives.progressive_stop(displayed=Decimal("1300"), **stop).kind == "final"


def test_slot_37_the_notice_page_says_the_notice_is_given_as_the_move_notice_does(client, room):
    client.force_login(room["comite"])
    notice_page = client.get("/machines-a-sous/jackpots-progressifs/information-ministre/")
    move_page = client.get(f"/machines-a-sous/machines/{room.on_floor().pk}/information-police/")
    button = '<button type="submit">Information donnée</button>'
    assert button in notice_page.content.decode() and button in move_page.content.decode()


def test_slot_37_final_stop_posts_the_increment_to_orphans_and_recovery(room):
    progressive = _local(room)
    _told(room, progressive)
    stop = progressives.progressive_stop(
        progressive=progressive,
        kind="final",
        stop_date=timezone.localdate(),
        displayed=Decimal("1300"),
        actor=room["comite"],
    )
    assert stop.increment == Decimal("300") and stop.orphan.category == "jackpot_increment"
    assert stop.orphan.amount == Decimal("300")
    assert Entry.objects.filter(register__kind="carnet_orphelins", payload__amount="300.00").exists()
    target = _local(room, code="PJ2", start=Decimal("500"))
    stop = progressives.progressive_increment_recover(stop=stop, target=target, actor=room["comite"])
    target.refresh_from_db()
    assert target.start_amount == Decimal("800") and stop.recovered_to == target
    assert Orphan.objects.get(pk=stop.orphan.pk).refunded == Decimal("300")


def test_slot_37_recovery_after_31_october_refused(room):
    assert progressives.season_deadline(datetime.date(2026, 11, 5)) == datetime.date(2027, 10, 31)
    assert progressives.season_deadline(datetime.date(2026, 10, 31)) == datetime.date(2026, 10, 31)
    progressive = _local(room)
    _told(room, progressive)
    long_ago = timezone.localdate() - datetime.timedelta(days=800)
    stop = progressives.progressive_stop(
        progressive=progressive,
        kind="final",
        stop_date=long_ago,
        displayed=Decimal("1300"),
        actor=room["comite"],
    )
    with pytest.raises(RuleViolation) as exc:
        progressives.progressive_increment_recover(stop=stop, target=_local(room, code="PJ2"), actor=room["comite"])
    assert exc.value.code == "SLOT-37"


def test_slot_37_transfer_adds_the_whole_increment_to_the_target(room):
    progressive, target = _local(room), _local(room, code="PJ2", start=Decimal("200"))
    _told(room, progressive, kind="transfer", reference="DLPAJ-2")
    stop = progressives.progressive_stop(
        progressive=progressive,
        kind="transfer",
        stop_date=timezone.localdate(),
        displayed=Decimal("1450"),
        actor=room["comite"],
        target=target,
    )
    target.refresh_from_db()
    assert stop.orphan is None and target.start_amount == Decimal("650")


def test_slot_38_only_identical_machines(room):
    with pytest.raises(RuleViolation) as exc:
        progressives.progressive_create(
            establishment=room.est,
            code="JPM1",
            name="M",
            start_amount=Decimal("1"),
            multisite=True,
            machines=[_machine(room), _machine(room, payment_programme="P-88")],
            actor=room["comite"],
            **IDENTITY,
        )
    assert exc.value.code == "SLOT-38" and not Progressive.objects.exists()
    jackpot = _jpm(room)
    with pytest.raises(RuleViolation) as exc:
        jpm.jpm_connect(jackpot=jackpot, machine=_machine(room, maker="IGT"), actor=room["comite"])
    assert exc.value.code == "SLOT-38"
    jpm.jpm_connect(jackpot=jackpot, machine=_machine(room), actor=room["comite"])
    assert jackpot.machines.count() == 3


def test_slot_38_daily_28s_with_every_connected_machine_before_the_opening(room):
    jackpot = _jpm(room)
    first, second = jackpot.machines.order_by("casino_number")
    with pytest.raises(RuleViolation) as exc:
        jpm.jpm_reading_record(
            jackpot=jackpot, displayed=Decimal("10500"), meters={first.number: 100}, actor=room["employe_jeux"]
        )
    assert exc.value.code == "SLOT-38"
    reading = jpm.jpm_reading_record(
        jackpot=jackpot,
        displayed=Decimal("10500"),
        meters={first.number: 100, second.number: 200},
        actor=room["employe_jeux"],
    )
    assert reading.entry.register.kind == "slot_jpm_28s" and reading.entry.register.kind_info.form == "modèle 28 S"
    assert f"{first.number} : 100" in reading.entry.payload["meters"]
    manager = make_user(room.est, "directeur_responsable")
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    room.staff(tomorrow)
    open_seance_registers(room.est)
    with pytest.raises(RuleViolation) as exc:
        seance_open(establishment=room.est, date=tomorrow, period="soiree", actor=manager)
    assert exc.value.code == "SLOT-38" and "JPM1" in exc.value.message
    jpm.jpm_reading_record(
        jackpot=jackpot,
        displayed=Decimal("10600"),
        meters={first.number: 150, second.number: 260},
        actor=room["employe_jeux"],
        day=tomorrow,
    )
    assert seance_open(establishment=room.est, date=tomorrow, period="soiree", actor=manager).status == "open"


def test_slot_38_modele_26_jpm_register_of_the_system(room):
    jackpot = _jpm(room)
    machine = _machine(room)
    jpm.jpm_connect(jackpot=jackpot, machine=machine, actor=room["comite"])
    register = Register.objects.get(establishment=room.est, kind="slot_controle_technique", qualifier="JPM-JPM1")
    assert register.status == "open" and "JPM1" in register.title
    repair = {"jackpot": jackpot, "nature": "repair", "description": "Afficheur du JPM remplacé"}
    with pytest.raises(RuleViolation) as exc:  # countersigned as SLOT-34
        jpm.jpm_technical_record(actor=room["mecanicien"], **repair)
    assert exc.value.code == "SLOT-38"
    entry = jpm.jpm_technical_record(actor=room["mecanicien"], signers=[room["comite"]], **repair)
    assert entry.register == register and len(entry.payload["countersigned"]) == 2
    api = APIClient()  # an SFM intervention, through the API with the countersignatures
    sfm = {"jackpot": jackpot.pk, "nature": "sfm", "description": "Contrôle du contrôleur JPM"}
    sfm |= {f"{prefix}_password": DEFAULT_PASSWORD for prefix in ("comite", "technicien")}
    sfm |= {"comite_username": room["comite"].username, "technicien_username": room["mecanicien"].username}
    api.force_authenticate(room["employe_jeux"])
    refused = api.post("/api/v1/slots/jpm/technical-entries/", sfm, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "SLOT-53"
    api.force_authenticate(room["technicien_sfm"])
    done = api.post("/api/v1/slots/jpm/technical-entries/", sfm, format="json")
    assert done.status_code == 201 and "AGR-technicien_sfm" in done.json()["payload"]["detail"]
    events = list(register.entries.filter(kind="record").values_list("payload__event", flat=True))
    assert events == ["Mise en service du JPM", "Machine reliée au JPM", "Réparation", "Intervention de la SFM"]
    fiche = Register.objects.get(kind="slot_fiche_34", qualifier=machine.casino_number)
    assert fiche.entries.filter(payload__event="Machine reliée au JPM").exists()
    assert verify_register(register) is None


def _won(room, jackpot, winner=None):
    first, second = jackpot.machines.order_by("casino_number")
    jpm.jpm_reading_record(
        jackpot=jackpot,
        displayed=Decimal("10500"),
        meters={first.number: 1000, second.number: 2000},
        actor=room["employe_jeux"],
        day=timezone.localdate() - datetime.timedelta(days=1),
    )
    meters = {
        first.number: {"electronic": 11000, "electromechanical": 11005},
        second.number: {"electronic": 7000, "electromechanical": 7002},
    }
    return jpm.jpm_win_record(
        jackpot=jackpot,
        amount=Decimal("12500"),
        meters=meters,
        actor=room["caissier"],
        comite=room["comite"],
        winning_machine=winner,
        winning_casino="" if winner else "Casino de Cannes",
    )


def test_slot_40_win_bons_per_machine_with_both_signatures(room):
    jackpot = _jpm(room)
    first, second = jackpot.machines.order_by("casino_number")
    with pytest.raises(RuleViolation) as exc:
        jpm.jpm_win_record(
            jackpot=jackpot,
            amount=Decimal("1"),
            meters={},
            actor=room["caissier"],
            comite=None,
            winning_casino="Casino de Cannes",
        )
    assert exc.value.code == "SLOT-40"
    win = _won(room, jackpot, winner=first)
    bons = list(IncrementBon.objects.order_by("bon_number"))
    assert [b.machine for b in bons] == [first, second] and [b.bon_number for b in bons] == [1, 2]
    # 10 000 credits × 0.10 € × 1 %, and 5 000 credits: the increments since the first 28 S line.
    assert [b.share for b in bons] == [Decimal("10.00"), Decimal("5.00")]
    assert bons[0].start_amount == Decimal("10000") and bons[1].start_amount is None
    assert win.payment.bon_number == 1 and win.payment.controlled_by == room["comite"]
    assert win.entry.register.kind == "slot_jpm_28s" and "11005" in win.entry.payload["meters"]
    line = AccountingLine.objects.get(machine=first, kind="increment")
    assert line.amount == Decimal("10010.00") and "12500" in line.entry.payload["detail"]
    jackpot.refresh_from_db()
    assert jackpot.status == "won"
    jpm.jpm_restart(jackpot=jackpot, actor=room["comite"])
    jackpot.refresh_from_db()
    assert jackpot.status == "active"


def test_reg_40_reg_42_modele_28_s_lines_and_bons_d_incrementation_carry_every_mention(room):
    jackpot = _jpm(room)
    first, second = jackpot.machines.order_by("casino_number")
    cashier, comite = room["caissier"], room["comite"]
    win = _won(room, jackpot, winner=first)
    # 68-20-2: the day's line before the opening: the displayed amount, the "entrées" meter of each machine.
    reading = Entry.objects.get(register__kind="slot_jpm_28s", payload__event="Relevé avant l'ouverture").payload
    assert reading["jackpot"] == "JPM1" and reading["amount"] == "10500"
    assert reading["meters"] == f"{first.casino_number} : 1000 ; {second.casino_number} : 2000"
    # 68-20-3: annotated at the win with the amount won and both "entrées" meters of each machine.
    annotated = win.entry.payload
    assert annotated["jackpot"] == "JPM1" and annotated["amount"] == "12500"
    assert annotated["meters"] == f"{first.casino_number} : 11000 / 11005 ; {second.casino_number} : 7000 / 7002"
    assert annotated["signature"] == (
        f"{cashier.get_full_name()} — Caissier ; {comite.get_full_name()} — Membre du comité de direction"
    )
    # One bon d'incrémentation per machine: the casino's name, the machine's casino and location
    # numbers, its share of the increments, the starting amount for the winner; signed by both.
    for bon in IncrementBon.objects.order_by("bon_number"):
        line = bon.line.entry.payload
        assert line["machine"] == bon.machine.casino_number and line["amount"] == str(
            bon.share + (bon.start_amount or 0)
        )
        for mention in (
            f"n° {bon.bon_number}",
            room.est.name,
            f"emplacement {bon.machine.location_number}",
            f"part des incrémentations {bon.share} €",
        ):
            assert mention in line["detail"]
        assert (f"montant de départ {jackpot.start_amount} €" in line["detail"]) is (bon.machine == first)
        assert line["signature"] == annotated["signature"]
        assert (bon.cashier, bon.comite) == (cashier, comite)
    # The winner's bon de paiement: its line in the registre des jackpots, signed by both (REG-42).
    paid = win.payment.entry.payload
    assert paid["machine"] == first.casino_number and paid["amount"] == "12500"
    assert f"bon n° {win.payment.bon_number}" in paid["detail"] and paid["signature"] == annotated["signature"]
    register = win.entry.register
    assert verify_register(register) is None
    text = "".join(printed(register).split())  # the printed modèle 28 S shows both lines' meters
    for value in (reading["meters"], annotated["meters"], comite.get_full_name()):
        assert "".join(value.split()) in text


def test_slot_40_win_needs_both_meters_of_every_connected_machine(room):
    jackpot = _jpm(room)
    first, _second = jackpot.machines.order_by("casino_number")
    with pytest.raises(RuleViolation) as exc:
        jpm.jpm_win_record(
            jackpot=jackpot,
            amount=Decimal("1"),
            meters={first.number: {"electronic": 1, "electromechanical": 1}},
            actor=room["caissier"],
            comite=room["comite"],
            winning_casino="Casino de Cannes",
        )
    assert exc.value.code == "SLOT-40" and not IncrementBon.objects.exists()


def test_slot_39_transmission_by_the_directeur_responsable_with_digest(room):
    jackpot = _jpm(room)
    _won(room, jackpot)
    jpm.jpm_restart(jackpot=jackpot, actor=room["comite"])
    today = timezone.localdate()
    first, second = jackpot.machines.order_by("casino_number")
    jpm.jpm_reading_record(
        jackpot=jackpot,
        displayed=Decimal("10020"),
        meters={first.number: 1500, second.number: 2000},
        actor=room["employe_jeux"],
    )
    args = {
        "jackpot": jackpot,
        "reason": "win",
        "period_start": today - datetime.timedelta(days=1),
        "period_end": today,
        "recipient": "sccj@interieur.gouv.fr",
    }
    with pytest.raises(RuleViolation) as exc:
        jpm.jpm_transmission_record(actor=room["comite"], **args)
    assert exc.value.code == "SLOT-39"
    sent = jpm.jpm_transmission_record(actor=room.keeper, **args)
    assert f"{first.casino_number};{first.location_number};1000;1500;;0.50" in sent.csv
    assert sent.digest == hashlib.sha256(sent.csv.encode()).hexdigest() and sent.digest in sent.entry.payload["detail"]
    later = today + datetime.timedelta(days=10)
    assert not [r for j, r in jpm.transmissions_due(room.est, later) if j == jackpot and "gain" in r]


def test_slot_39_month_end_without_transmission_flagged(room):
    jackpot = _jpm(room)
    Progressive.objects.filter(pk=jackpot.pk).update(created_at=timezone.now() - datetime.timedelta(days=90))
    due = jpm.transmissions_due(room.est, timezone.localdate().replace(day=1) + datetime.timedelta(days=5))
    assert [j for j, _reason in due] == [jackpot]


def test_slot_41_global_stop_share_to_orphans_minister_immediately(room):
    jackpot = _jpm(room)
    first, second = jackpot.machines.order_by("casino_number")
    jpm.jpm_reading_record(
        jackpot=jackpot,
        displayed=Decimal("10500"),
        meters={first.number: 1000, second.number: 2000},
        actor=room["employe_jeux"],
        day=timezone.localdate() - datetime.timedelta(days=1),
    )
    jpm.jpm_reading_record(
        jackpot=jackpot,
        displayed=Decimal("10600"),
        meters={first.number: 3000, second.number: 2000},
        actor=room["employe_jeux"],
    )
    today = timezone.localdate()
    stop_args = {"progressive": jackpot, "kind": "final", "stop_date": today, "displayed": Decimal("10600")}
    with pytest.raises(RuleViolation) as exc:
        progressives.progressive_stop(actor=room["comite"], **stop_args)
    assert exc.value.code == "SLOT-41" and "Enregistrez d'abord" in str(exc.value)
    # informed immediately: no lead, the stop follows the notice the system recorded
    _told(room, jackpot, reference="DLPAJ-9")
    stop = progressives.progressive_stop(actor=room["comite"], **stop_args)
    assert stop.minister_reference == "DLPAJ-9"
    assert stop.increment == Decimal("2.00") and stop.orphan.amount == Decimal("2.00")


def test_slot_41_withdrawal_notice_one_bon_per_machine_deducted_in_modele_35(room, monkeypatch):
    jackpot = _jpm(room)
    first, second = jackpot.machines.order_by("casino_number")
    jpm.jpm_reading_record(
        jackpot=jackpot,
        displayed=Decimal("10500"),
        meters={first.number: 1000, second.number: 2000},
        actor=room["employe_jeux"],
    )
    today = timezone.localdate()
    args = {
        "jackpot": jackpot,
        "leave_date": today,
        "meters": {first.number: 1100, second.number: 2300},
        "actor": room["caissier"],
        "comite": room["comite"],
    }
    with pytest.raises(RuleViolation) as silent:
        jpm.jpm_withdraw(**args)
    assert silent.value.code == "SLOT-41" and "Enregistrez d'abord" in str(silent.value)
    _told(room, jackpot, kind="withdrawal", reference="DLPAJ-3")  # within the 15 days before (AMB-50)
    stop = jpm.jpm_withdraw(**args)
    assert stop.minister_reference == "DLPAJ-3"
    assert sorted(b.share for b in stop.bons.all()) == [Decimal("0.10"), Decimal("0.30")]
    assert stop.increment == Decimal("0.40") and AccountingLine.objects.filter(kind="increment").count() == 2
    jackpot.refresh_from_db()
    assert jackpot.status == "left"
    # Month end: modèle 35 deducts the withdrawal bons from the month's gaming product (art. 68-20-2).
    accounting.count_record(
        machine=first,
        physical=Decimal("100"),
        comite=room["comite"],
        actor=room["caissier"],
        signed_by=room["caissier"],
    )
    open_register(room.est, "slot_recapitulatif_35")
    last = today.replace(day=calendar.monthrange(today.year, today.month)[1])
    month_end = timezone.make_aware(datetime.datetime.combine(last, datetime.time(22)))
    monkeypatch.setattr(timezone, "now", lambda: month_end)
    month = {"establishment": room.est, "year": today.year, "month": today.month, "comite": room["comite"]}
    with pytest.raises(RuleViolation):
        accounting.statement_certify(actor=room["directeur_responsable"], total=Decimal("100"), **month)
    statement = accounting.statement_certify(actor=room["directeur_responsable"], total=Decimal("99.60"), **month)
    assert {line["casino"]: (line["product"], line["jpm_deduction"]) for line in statement.lines} == {
        first.casino_number: ("100.00", "0.10"),
        second.casino_number: ("0.00", "0.30"),
    }
    assert "68-20-2) : 0.40 €" in statement.entry.payload["detail"]


def test_reg_37_reg_40_registers_print_and_verify(room):
    progressive = _local(room)
    progressives.progressive_reading_record(
        progressive=progressive, displayed=Decimal("1012.30"), actor=room["caissier"]
    )
    _won(room, _jpm(room))
    for kind in ("slot_jackpots_progressifs", "slot_jpm_28s"):
        register = Register.objects.get(establishment=room.est, kind=kind)
        assert verify_register(register) is None
        pdf = io.BytesIO()
        register_pdf(register, pdf, lang="fr", sealed=False)
        assert pdf.getvalue().startswith(b"%PDF")
