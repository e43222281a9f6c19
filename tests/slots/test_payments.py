"""Jackpots, disputes, top-ups and orphans (SLOT-16 to 20, SLOT-35; INC-04, INC-05; REG-17, REG-37, REG-42)."""

import datetime
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import timezone

from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.registers.models import Entry
from ledgers.registers.verification import verify_register
from ledgers.slots import services
from ledgers.slots.models import Orphan, TopUp
from tests.cash.test_e2e import printed
from tests.factories import EstablishmentFactory, make_user

pytestmark = pytest.mark.django_db


def test_slot_16_identity_required_above_threshold_in_force(mc_room):
    machine = mc_room.on_floor()
    now = timezone.now()
    services.jackpot_threshold_set(
        establishment=mc_room.est,
        amount=Decimal("2000"),
        effective_from=now - datetime.timedelta(days=10),
        actor=mc_room.keeper,
    )
    services.jackpot_threshold_set(
        establishment=mc_room.est,
        amount=Decimal("1000"),
        effective_from=now - datetime.timedelta(days=1),
        actor=mc_room.keeper,
    )
    pay = {"machine": machine, "method": "cash", "actor": mc_room["superviseur"]}
    with pytest.raises(RuleViolation) as exc:
        services.jackpot_pay(amount=Decimal("1500"), **pay)
    assert exc.value.code == "SLOT-16"
    # two days ago the 2000 € threshold was in force
    services.jackpot_pay(amount=Decimal("1500"), paid_at=now - datetime.timedelta(days=2), **pay)
    paid = services.jackpot_pay(amount=Decimal("1500"), id_type="Passeport", id_number="P123", **pay)
    assert "P123" in paid.entry.payload["detail"] and paid.entry.register.kind == "slot_jackpots"
    assert paid.amount == Decimal("1500")


def test_slot_17_payment_method_cash_cheque_or_transfer(mc_room):
    machine = mc_room.on_floor()
    with pytest.raises(RuleViolation) as exc:
        services.jackpot_pay(machine=machine, method="crypto", amount=Decimal("10"), actor=mc_room["superviseur"])
    assert exc.value.code == "SLOT-17"


def test_slot_22_only_superviseur_approves_a_manual_payment(mc_room):
    machine = mc_room.on_floor()
    with pytest.raises(RuleViolation) as exc:
        services.jackpot_pay(machine=machine, method="cash", amount=Decimal("10"), actor=mc_room["mecanicien"])
    assert exc.value.code == "SLOT-22"


def test_slot_35_fr_payment_controlled_by_comite_on_numbered_bon(fr_room):
    machine = fr_room.on_floor(payment_limit=Decimal("1000"))
    pay = {"machine": machine, "method": "cash", "actor": fr_room["caissier"], "combination": "7-7-7"}
    with pytest.raises(RuleViolation) as exc:
        services.jackpot_pay(amount=Decimal("5000"), **pay)
    assert exc.value.code == "SLOT-35"
    with pytest.raises(RuleViolation):
        services.jackpot_pay(amount=Decimal("5000"), controller=fr_room["superviseur"], **pay)
    first = services.jackpot_pay(amount=Decimal("5000"), controller=fr_room["comite"], **pay)
    second = services.jackpot_pay(amount=Decimal("800"), controller=fr_room["comite"], **pay)
    assert (first.bon_number, second.bon_number) == (1, 2)
    assert first.flags == [] and second.flags == ["SLOT-35"]  # not above the automatic payment limit


def test_reg_37_fr_jackpot_register_line_carries_every_mention_of_art_68_20_and_prints(fr_room):
    machine = fr_room.on_floor(payment_limit=Decimal("1000"))
    cashier, comite = fr_room["caissier"], fr_room["comite"]
    paid_at = timezone.now() - datetime.timedelta(minutes=5)
    pay = {"machine": machine, "amount": Decimal("5000"), "method": "cash", "actor": cashier, "controller": comite}
    with pytest.raises(ValidationError) as refused:  # the combination is one of the mentions
        services.jackpot_pay(combination=" ", paid_at=paid_at, **pay)
    assert "combination" in refused.value.message_dict
    payment = services.jackpot_pay(combination="7-7-7", paid_at=paid_at, **pay)
    line = Entry.objects.get(pk=payment.entry_id).payload
    assert line["machine"] == machine.casino_number  # numéro casino de la machine
    assert "7-7-7" in line["detail"]  # combinaison des figures
    assert line["at"] == fr_room.est.localtime(paid_at).strftime("%Y-%m-%d %H:%M")  # date, heure
    assert line["amount"] == "5000"  # montant du gain
    assert line["signature"] == (
        f"{cashier.get_full_name()} — Caissier ; {comite.get_full_name()} — Membre du comité de direction"
    )
    register = payment.entry.register
    assert register.kind == "slot_jackpots" and verify_register(register) is None
    text = "".join(printed(register).split()).replace("\u202f", "")  # amounts print with thin spaces
    for value in (machine.casino_number, "7-7-7", "5000", cashier.get_full_name(), comite.get_full_name()):
        assert "".join(value.split()) in text


def test_inc_04_slot_18_dispute_decided_after_hearing_the_mechanic(mc_room):
    machine = mc_room.on_floor()
    kwargs = {
        "machine": machine,
        "claim": "Trois cerises non payées",
        "mechanic": mc_room["mecanicien"],
        "decision": "Complément accordé",
    }
    with pytest.raises(RuleViolation) as exc:
        services.dispute_decide(mechanic_statement=" ", actor=mc_room["superviseur"], **kwargs)
    assert exc.value.code == "INC-04"
    with pytest.raises(RuleViolation):
        services.dispute_decide(mechanic_statement="Panne d'affichage", actor=mc_room["mecanicien"], **kwargs)
    dispute = services.dispute_decide(mechanic_statement="Panne d'affichage", actor=mc_room["superviseur"], **kwargs)
    assert "Panne d'affichage" in dispute.entry.payload["detail"]


def test_slot_20_top_up_is_the_positive_difference(mc_room):
    machine = mc_room.on_floor()
    kwargs = {
        "machine": machine,
        "combination": "3 BAR",
        "amount_due": Decimal("100"),
        "paid_by_machine": Decimal("60"),
        "customer": "M. X",
        "mechanic_opinion": "Trémie vide",
        "actor": mc_room["superviseur"],
    }
    for wrong in (Decimal("30"), Decimal("0")):
        with pytest.raises(RuleViolation) as exc:
            services.top_up_pay(difference=wrong, **kwargs)
        assert exc.value.code == "SLOT-20"
    top_up = services.top_up_pay(difference=Decimal("40"), **kwargs)
    assert top_up.entry.register.kind == "slot_complements"


def test_slot_19_orphan_never_paid_to_staff_and_inc_05_exclusion(mc_room):
    machine = mc_room.on_floor()
    kwargs = {
        "establishment": mc_room.est,
        "kind": "credits",
        "amount": Decimal("12.50"),
        "machine": machine,
        "disposal": "Versé à la caisse",
        "actor": mc_room["superviseur"],
    }
    with pytest.raises(RuleViolation) as exc:
        services.orphan_record(payee=mc_room["mecanicien"], **kwargs)
    assert exc.value.code == "SLOT-19"
    orphan = services.orphan_record(taken_by="Client au poste 12", **kwargs)
    assert orphan.excluded_at is not None and "exclu" in orphan.entry.payload["detail"]


def test_slot_19_orphan_never_paid_to_a_member_of_staff_of_another_casino(mc_room):
    """Art. 21.3 forbids "un membre du personnel" to take an orphan, not only the staff of the
    casino where it was found: a croupier of another casino of the operator is staff too."""
    other = EstablishmentFactory(code="mc-sporting", name="Sporting", jurisdiction="MC")
    croupier_elsewhere = make_user(other, Role.CROUPIER)
    kwargs = {
        "establishment": mc_room.est,
        "kind": "ticket",
        "amount": Decimal("40"),
        "place": "Allée 3",
        "disposal": "Remis au porteur",
        "actor": mc_room["superviseur"],
    }
    with pytest.raises(RuleViolation) as exc:
        services.orphan_record(payee=croupier_elsewhere, **kwargs)
    assert exc.value.code == "SLOT-19"
    assert not Orphan.objects.filter(establishment=mc_room.est).exists()
    # A customer's account holds no role anywhere: the orphan may be handed to him.
    customer = get_user_model().objects.create_user(username="client-allee-3")
    assert services.orphan_record(payee=customer, **kwargs).amount == Decimal("40.00")


def test_reg_17_top_ups_written_only_in_a_cahier_coted_by_the_directeur_exploitation(mc_room):
    from ledgers.registers.services import register_close
    from tests.factories import open_register

    machine = mc_room.on_floor()
    top_up = {
        "machine": machine,
        "combination": "3 BAR",
        "amount_due": Decimal("100"),
        "paid_by_machine": Decimal("60"),
        "difference": Decimal("40"),
        "customer": "M. X",
        "mechanic_opinion": "Trémie vide",
        "actor": mc_room["superviseur"],
    }
    cahier = mc_room.registers["slot_complements"]
    assert cahier.kind_info.paraph_roles_for("MC") == ("directeur_exploitation",)
    register_close(register=cahier, actor=mc_room["directeur_exploitation"])
    with pytest.raises(RuleViolation):  # no cahier open: no top-up
        services.top_up_pay(**top_up)
    assert not TopUp.objects.exists()
    second = open_register(mc_room.est, "slot_complements")
    paid = services.top_up_pay(**top_up)
    assert paid.entry.register == second and verify_register(second) is None


def test_reg_17_slot_20_cahier_line_carries_every_field_of_the_row(mc_room):
    machine = mc_room.on_floor()
    paid = services.top_up_pay(
        machine=machine,
        combination="3 BAR",
        amount_due=Decimal("100"),
        paid_by_machine=Decimal("60"),
        difference=Decimal("40"),
        customer="M. X",
        mechanic_opinion="Trémie vide",
        actor=mc_room["superviseur"],
    )
    line = paid.entry.payload
    assert line["machine"] and line["at"] and line["amount"] == "40" and line["signature"]
    for field in ("3 BAR", "100", "60", "M. X", "Trémie vide"):
        assert field in line["detail"]
