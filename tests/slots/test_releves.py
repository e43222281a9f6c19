"""Relèves, box exchanges, counts and their reconciliation (SLOT-11, 22, 23, 24)."""

import datetime
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from ledgers.core.errors import RuleViolation
from ledgers.registers.models import Entry
from ledgers.slots import services
from ledgers.slots.dashboard import meters_against_counts
from ledgers.slots.models import Releve
from tests.factories import countersignature

pytestmark = pytest.mark.django_db


def test_slot_22_only_a_superviseur_directs_a_releve(mc_room):
    with pytest.raises(RuleViolation) as exc:
        services.releve_open(
            establishment=mc_room.est, room=mc_room.room, actor=mc_room["mecanicien"], during_operation=False
        )
    assert exc.value.code == "SLOT-22"
    assert not Releve.objects.exists()


def test_slot_23_releve_during_operation_closed_only_with_sworn_agent(mc_room):
    releve = services.releve_open(
        establishment=mc_room.est, room=mc_room.room, actor=mc_room["superviseur"], during_operation=True
    )
    with pytest.raises(RuleViolation) as exc:
        services.releve_close(releve=releve, actor=mc_room["superviseur"])
    assert exc.value.code == "SLOT-23"
    with pytest.raises(RuleViolation):
        services.releve_close(releve=releve, actor=mc_room["superviseur"], sworn_agent=mc_room["mecanicien"])
    closed = services.releve_close(
        releve=releve, actor=mc_room["superviseur"], sworn_agent=mc_room["agent_surveillance"]
    )
    assert closed.status == "closed" and closed.sworn_agent == mc_room["agent_surveillance"]


def test_slot_23_api_close_signed_by_the_sworn_agent_not_recorded_at_opening(mc_room):
    releve = services.releve_open(
        establishment=mc_room.est, room=mc_room.room, actor=mc_room["superviseur"], during_operation=True
    )
    api = APIClient()
    api.force_authenticate(mc_room["superviseur"])
    url = f"/api/v1/slots/releves/{releve.pk}/close/"
    refused = api.post(url, {}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "SLOT-23"
    mechanic = countersignature("sworn_agent", mc_room["mecanicien"])
    assert api.post(url, mechanic, format="json").json()["code"] == "SLOT-23"
    agent = countersignature("sworn_agent", mc_room["agent_surveillance"])
    # Named without his password, the agent has not signed: nothing is closed.
    unsigned = api.post(url, {**agent, "sworn_agent_password": "wrong"}, format="json")
    assert unsigned.status_code == 400 and "sworn_agent_password" in unsigned.json()
    assert Releve.objects.get(pk=releve.pk).status != "closed"
    closed = api.post(url, agent, format="json")
    assert closed.status_code == 201 and closed.json()["sworn_agent"] == mc_room["agent_surveillance"].pk
    assert Releve.objects.get(pk=releve.pk).status == "closed"


def test_slot_24_boxes_exchanged_only_during_an_open_releve(mc_room):
    machine = mc_room.on_floor()
    releve = mc_room.releve()
    exchange = services.box_exchange(
        releve=releve, machine=machine, box="bill", removed="BB-1", replaced_by="BB-2", actor=mc_room["superviseur"]
    )
    machine.refresh_from_db()
    assert machine.bill_box == "BB-2" and exchange.entry.register.kind == "slot_releves"
    services.releve_close(releve=releve, actor=mc_room["superviseur"])
    with pytest.raises(RuleViolation) as exc:
        services.box_exchange(
            releve=releve, machine=machine, box="cash", removed="CB-1", replaced_by="CB-2", actor=mc_room["superviseur"]
        )
    assert exc.value.code == "SLOT-24"
    with pytest.raises(RuleViolation) as exc:
        mc_room.read(machine, 10, releve=releve)
    assert exc.value.code == "SLOT-24"


def _counted_releve(org, *, counted, bills_delta=1000):
    machine = org.on_floor()
    org.read(machine, 0)
    releve = org.releve()
    org.read(machine, 0, releve=releve, bills=bills_delta)  # 1000 credits × 0.10 € = 100 €
    return services.drop_count_record(releve=releve, machine=machine, counted=counted, actor=org["superviseur"])


def test_slot_11_every_difference_flagged_none_graded_until_the_direction_chooses(mc_room):
    count = _counted_releve(mc_room, counted=Decimal("99.00"))
    assert count.expected == Decimal("100.00") and count.variance == Decimal("-1.00")
    assert count.variance_percent == Decimal("-1.00") and count.flagged
    assert count.threshold == {"amount": None, "percent": None}
    assert "AU-DELÀ DU SEUIL" not in count.entry.payload["detail"]
    assert not _counted_releve(mc_room, counted=Decimal("100.00")).flagged


def test_slot_11_differences_graded_against_the_directions_threshold(mc_room):
    mc_room.est.options = {"SLOT-11": {"preset": "5pc_200"}}
    mc_room.est.save()
    count = _counted_releve(mc_room, counted=Decimal("80.00"))
    assert count.variance == Decimal("-20.00") and count.variance_percent == Decimal("-20.00")
    assert count.flagged and count.threshold == {"amount": "200", "percent": "5"}
    assert "AU-DELÀ DU SEUIL" in count.entry.payload["detail"]
    below = _counted_releve(mc_room, counted=Decimal("99.00"))
    assert below.flagged and "AU-DELÀ DU SEUIL" not in below.entry.payload["detail"]


def test_slot_11_stricter_preset_chosen_by_the_direction_through_the_api(mc_room):
    api = APIClient()
    api.force_authenticate(mc_room["superviseur"])
    assert api.post("/api/v1/slots/variance-threshold/", {"preset": "strict_2pc"}, format="json").status_code == 403
    api.force_authenticate(mc_room["directeur_exploitation"])
    chosen = api.post("/api/v1/slots/variance-threshold/", {"preset": "strict_2pc_100"}, format="json")
    assert chosen.status_code == 201 and chosen.json() == {"amount": "100.00", "percent": "2.00"}
    line = Entry.objects.filter(register__kind="slot_releves", payload__event="Seuil d'écart des comptages").get()
    assert line.payload["threshold"] == {"amount": "100", "percent": "2"}
    mc_room.est.refresh_from_db()
    count = _counted_releve(mc_room, counted=Decimal("97.00"))  # 3 € short, 3 %: above 2 %
    assert count.flagged and count.threshold == {"amount": "100", "percent": "2"}
    own = api.post("/api/v1/slots/variance-threshold/", {"amount": "5"}, format="json")
    assert own.status_code == 201 and own.json() == {"amount": "5.00", "percent": None}
    assert api.post("/api/v1/slots/variance-threshold/", {}, format="json").status_code == 400


def test_slot_11_the_month_s_differences_are_drawn_per_machine_with_their_numbers(mc_room):
    """Two machines counted this month: one 5 € short of its meters, one exact; the chart of the
    month lists each with its difference, and the previous month has nothing."""
    short = _counted_releve(mc_room, counted=Decimal("95"))
    _counted_releve(mc_room, counted=Decimal("100"))
    month = mc_room.est.localtime().date().replace(day=1)
    drawn = meters_against_counts(mc_room.est, month)
    assert drawn.requirement == "SLOT-11" and len(drawn.rows) == 2
    assert dict(drawn.rows)[short.machine.number] == Decimal("-5.00")
    assert f"{short.machine.number} — Compté − compteurs (€) : -5" in drawn.svg
    assert meters_against_counts(mc_room.est, (month - datetime.timedelta(days=1)).replace(day=1)).rows == []


def test_slot_11_amount_threshold(mc_room):
    mc_room.est.options = {"SLOT-11": {"amount": "100", "percent": None}}
    mc_room.est.save()
    assert services.reconcile(Decimal("10000"), Decimal("9850"), services.variance_threshold(mc_room.est))[2]
    assert not services.reconcile(Decimal("10000"), Decimal("9950"), services.variance_threshold(mc_room.est))[2]
