"""End to end per jurisdiction, through the services: a machine enters the inventory and goes on
the floor, its meters are read, a mechanic intervenes, a jackpot is paid, a relève exchanges the
bill box and counts the drop, the count is reconciled with the meters, the registers are visaed
by the authority and printed; every register verifies."""

import io
from decimal import Decimal

import pytest
from django.utils import timezone

from ledgers.registers.models import Register
from ledgers.registers.services import visa_sign
from ledgers.registers.verification import verify_register
from ledgers.reports.documents import register_pdf
from ledgers.slots import selectors, services
from ledgers.slots.services import unclaimed
from tests.factories import make_user, open_register

pytestmark = pytest.mark.django_db


def _journey(org, *, paid_by, controller=None, visa_role):
    machine = org.on_floor(payment_limit=Decimal("1000"))
    org.read(machine, 1000)
    sheet = services.intervention_open(machine=machine, actor=org["mecanicien"], reason="Accepteur bloqué")
    services.intervention_close(intervention=sheet, actor=org["mecanicien"], work_done="Billet retiré")
    payment = services.jackpot_pay(
        machine=machine,
        amount=Decimal("1200"),
        method="cash",
        combination="3 × 7",
        actor=org[paid_by],
        controller=controller,
        id_type="CNI",
        id_number="X1",
    )
    releve = org.releve(during_operation=True)
    org.read(machine, 1000, releve=releve, bills=3000)
    services.box_exchange(
        releve=releve, machine=machine, box="bill", removed="BB-1", replaced_by="BB-2", actor=org["superviseur"]
    )
    expected = selectors.expected_drop(releve, machine)
    count = services.drop_count_record(releve=releve, machine=machine, counted=expected, actor=org["superviseur"])
    if org.est.jurisdiction == "FR":  # its état de rapprochement modèle 31 first (SLOT-43)
        open_register(org.est, "slot_rapprochement_31")
        unclaimed.reconciliation_draw_up(releve=releve, actor=org["caissier"], comite=org["comite"])
    services.releve_close(releve=releve, actor=org["superviseur"])
    assert expected == Decimal("200.00") and not count.flagged and payment.amount == Decimal("1200")
    authority = make_user(org.est, visa_role)
    readings = Register.objects.get(establishment=org.est, kind="slot_releves")
    visa_sign(register=readings, actor=authority, up_to_seq=readings.head_seq, statement="Vu")
    pdf = io.BytesIO()
    register_pdf(readings, pdf, lang="fr", sealed=False)
    assert pdf.getvalue().startswith(b"%PDF")
    for register in Register.objects.filter(establishment=org.est, kind__startswith="slot_"):
        assert verify_register(register) is None, register.number
    return machine


def test_e2e_mc_machine_to_printed_register(mc_room):
    machine = _journey(mc_room, paid_by="superviseur", visa_role="scj")
    envelope = services.transmittal_hand_over(
        establishment=mc_room.est,
        date=timezone.localdate(),
        actor=mc_room["superviseur"],
        received_by=mc_room["directeur_exploitation"],
    )
    assert envelope.sheets.count() == 1 and machine.socle is not None


def test_e2e_fr_machine_to_printed_register(fr_room):
    machine = _journey(fr_room, paid_by="caissier", controller=fr_room["comite"], visa_role="police")
    fiche = Register.objects.get(kind="slot_fiche_34", qualifier=machine.casino_number)
    assert fiche.entries.filter(payload__event="Ouverture de la machine").exists()
