"""The count sessions of the slot boxes (FR-2007 art. 68-24, SLOT-46): every machine that ran since
its last count, the electronic units of cashless machines, the month-end count before modèle 32,
a denomination counted during a séance only with its general count at the end, the season-end
floats and hoppers; Monaco: the count of a relève's boxes."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.core import hooks
from ledgers.core.errors import RuleViolation
from ledgers.core.services import seance_open
from ledgers.slots import services
from ledgers.slots.models import AccountingLine, SlotCount
from ledgers.slots.services import accounting, counts
from tests.factories import DEFAULT_PASSWORD, open_register, open_seance_registers

pytestmark = pytest.mark.django_db

NOV_30 = datetime.datetime(2026, 11, 30, 10, 0, tzinfo=datetime.UTC)


@pytest.fixture
def clock(monkeypatch):
    """A settable "now", on the month's last day by default."""
    moment = [NOV_30]
    monkeypatch.setattr(timezone, "now", lambda: moment[0])
    return moment


@pytest.fixture
def fr(fr_room, clock):
    open_register(fr_room.est, "slot_comptees")
    return fr_room


def _machine(room, **kwargs):
    machine = room.on_floor(**kwargs)
    if room.est.jurisdiction == "FR":
        open_register(room.est, "slot_comptabilite_29", machine.casino_number)
    return machine


def _line(room, count, machine, **values):
    return counts.slot_count_line(
        count=count,
        machine=machine,
        actor=room["caissier"],
        signed_by=room["caissier"],
        comite=room["comite"],
        **{"coins": Decimal("100"), **values},
    )


def _open(room, kind="as_needed", **kwargs):
    return counts.slot_count_open(establishment=room.est, kind=kind, actor=room["comite"], **kwargs)


def test_slot_46_count_covers_every_machine_that_ran_since_its_last_count(fr, clock):
    ran, other = _machine(fr), _machine(fr)
    fr.register_machine()  # in store, never in service: not due
    count = _open(fr)
    line = _line(fr, count, ran, bills=Decimal("50"), tickets=Decimal("5"))
    assert line.accounting_line.kind == "count" and line.accounting_line.physical == Decimal("155")
    assert line.entry.register.kind == "slot_comptabilite_29"  # modèle 29 of the machine
    with pytest.raises(RuleViolation) as exc:
        counts.slot_count_close(count=count, actor=fr["comite"])
    assert exc.value.code == "SLOT-46" and other.number in str(exc.value) and ran.number not in str(exc.value)
    _line(fr, count, other)
    closed = counts.slot_count_close(count=count, actor=fr["comite"])
    assert closed.status == "closed"
    closing = SlotCount.objects.get(pk=count.pk)
    assert closing.closed_by == fr["comite"]
    # a machine taken off the floor after the count ran since it: it is due at the next one
    clock[0] += datetime.timedelta(hours=1)
    services.machine_move(
        machine=other,
        to_place="store",
        actor=fr.keeper,
        reason="breakdown",
        signers=[fr["comite"], fr["mecanicien"]],
        observations="Lecteur de billets en panne",
    )
    fr.register_machine()
    nxt = _open(fr)
    assert {m.pk for m in counts.machines_due(nxt)} == {ran.pk, other.pk}


def test_slot_46_cashless_machine_electronic_units_read(fr):
    tito = _machine(fr, media=("tito",))
    count = _open(fr)
    with pytest.raises(RuleViolation) as exc:
        _line(fr, count, tito)
    assert exc.value.code == "SLOT-46" and not AccountingLine.objects.exists()
    line = _line(fr, count, tito, units_in=1000, units_out=400)
    assert line.accounting_line.electronic == Decimal("60.00")


def test_slot_46_month_end_count_on_the_last_day_and_before_modele_32(client, fr, clock):
    open_register(fr.est, "slot_releve_32")
    machine = _machine(fr)
    fr.read(machine, value=500)
    clock[0] = NOV_30 - datetime.timedelta(days=1)
    with pytest.raises(RuleViolation) as exc:
        _open(fr, "month_end")
    assert exc.value.code == "SLOT-46"
    clock[0] = NOV_30
    client.force_login(fr["comite"])
    due = "Comptée de fin de mois à faire aujourd'hui"
    assert due in client.get(reverse("dashboard")).content.decode()
    month = {"establishment": fr.est, "year": 2026, "month": 11, "comite": fr["comite"], "actor": fr["employe_jeux"]}
    with pytest.raises(RuleViolation) as exc:  # the month closes only with its month-end count
        accounting.meter_statement_certify(**month)
    assert exc.value.code == "SLOT-46"
    count = _open(fr, "month_end")
    _line(fr, count, machine)
    with pytest.raises(RuleViolation):  # open is not enough
        accounting.meter_statement_certify(**month)
    counts.slot_count_close(count=count, actor=fr["comite"])
    assert due not in client.get(reverse("dashboard")).content.decode()
    assert accounting.meter_statement_certify(**month).lines[0]["casino"] == machine.casino_number


def test_slot_46_denomination_counted_during_the_seance_needs_its_general_count_at_the_end(fr):
    ten, euro = _machine(fr), _machine(fr, credit_value=Decimal("1.00"))
    fr.staff(NOV_30.date())  # the room's staffing before it opens (SLOT-50)
    open_seance_registers(fr.est)
    seance = seance_open(establishment=fr.est, date=NOV_30.date(), period="soiree", actor=fr.keeper)
    with pytest.raises(RuleViolation) as exc:  # a denomination count happens during an open séance
        _open(fr, "intra_seance", denomination=Decimal("0.10"))
    assert exc.value.code == "SLOT-46"
    intra = _open(fr, "intra_seance", seance=seance, denomination=Decimal("0.10"))
    with pytest.raises(RuleViolation) as exc:  # not of the denomination counted
        _line(fr, intra, euro)
    assert exc.value.code == "SLOT-46"
    _line(fr, intra, ten)
    counts.slot_count_close(count=intra, actor=fr["comite"])
    assert [m.code for m in hooks.seance_missing(seance) if m.code == "SLOT-46"] == ["SLOT-46"]
    general = _open(fr, "denomination_end", seance=seance, denomination=Decimal("0.10"))
    with pytest.raises(RuleViolation) as exc:
        _line(fr, general, euro)
    assert exc.value.code == "SLOT-46"
    _line(fr, general, ten)
    counts.slot_count_close(count=general, actor=fr["comite"])
    assert [m for m in hooks.seance_missing(seance) if m.code == "SLOT-46"] == []


def test_slot_46_season_end_counts_floats_and_hoppers(fr):
    machine = fr.register_machine(hopper=True)
    services.hopper_lid_confirm(machine=machine, actor=fr["mecanicien"])
    services.machine_move(
        machine=machine, to_place="floor", to_socle=fr.socle(), actor=fr.keeper, reason="commissioning"
    )
    open_register(fr.est, "slot_comptabilite_29", machine.casino_number)
    count = _open(fr, "season_end")
    with pytest.raises(RuleViolation) as exc:
        _line(fr, count, machine)
    assert exc.value.code == "SLOT-46"
    _line(fr, count, machine, hopper=Decimal("300"))
    with pytest.raises(RuleViolation) as exc:
        counts.slot_count_close(count=count, actor=fr["comite"])
    assert exc.value.code == "SLOT-46" and SlotCount.objects.get(pk=count.pk).status == "open"
    closed = counts.slot_count_close(count=count, actor=fr["comite"], floats=Decimal("5000"))
    assert closed.floats == Decimal("5000")


def test_slot_46_mc_count_of_a_releve_boxes_reconciles_each_drop(mc_room, clock):
    open_register(mc_room.est, "slot_comptees")
    machine = mc_room.on_floor()
    releve = mc_room.releve()
    with pytest.raises(RuleViolation) as exc:  # a slot-floor mechanic opens no count
        counts.slot_count_open(establishment=mc_room.est, kind="as_needed", releve=releve, actor=mc_room["mecanicien"])
    assert exc.value.code == "SLOT-46"
    count = counts.slot_count_open(
        establishment=mc_room.est, kind="as_needed", releve=releve, actor=mc_room["superviseur"]
    )
    line = counts.slot_count_line(
        count=count,
        machine=machine,
        actor=mc_room["superviseur"],
        signed_by=mc_room["superviseur"],
        bills=Decimal("20"),
    )
    assert line.drop_count.counted == Decimal("20") and line.drop_count.releve == releve
    counts.slot_count_close(count=count, actor=mc_room["superviseur"])


def test_slot_46_count_page_and_api(client, fr):
    machine = _machine(fr)
    client.force_login(fr["comite"])
    assert client.get(reverse("slots:counts")).status_code == 200
    assert client.post(reverse("slots:count_open"), {"kind": "as_needed"}).status_code == 302
    count = SlotCount.objects.get()
    page = client.get(reverse("slots:slot_count", args=[count.pk])).content.decode()
    # The comité member closes the comptée; the cashier writes each machine's line (SLOT-55).
    line_url, close_url = reverse("slots:count_line", args=[count.pk]), reverse("slots:count_close", args=[count.pk])
    assert close_url in page and line_url not in page
    client.force_login(fr["caissier"])
    page = client.get(reverse("slots:slot_count", args=[count.pk])).content.decode()
    assert close_url in page and line_url in page
    api = APIClient()
    api.force_authenticate(fr["caissier"])
    body = {
        "machine": machine.pk,
        "coins": "10.00",
        "comite_username": fr["comite"].username,
        "comite_password": DEFAULT_PASSWORD,
        "password": DEFAULT_PASSWORD,
    }
    done = api.post(f"/api/v1/slots/counts/{count.pk}/lines/", body, format="json")
    assert done.status_code == 201 and done.json()["coins"] == "10.00"
    api.force_authenticate(fr["comite"])
    other = _machine(fr)
    refused = api.post(f"/api/v1/slots/counts/{count.pk}/close/", {}, format="json")
    assert (
        refused.status_code == 409 and refused.json()["code"] == "SLOT-46" and other.number in refused.json()["detail"]
    )
    opened = api.post("/api/v1/slots/counts/", {"kind": "month_end"}, format="json")
    assert opened.status_code == 201 and opened.json()["kind"] == "month_end"
