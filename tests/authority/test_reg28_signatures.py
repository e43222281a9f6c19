"""REG-28 (FR-2007 art. 69, 73; AMB-54): the FR registers kept by computer are traceable (the REG-20
hash chain), and each modèle 29 entry carries its electronic signatures: the cashier's and the
comité member's, the comité member re-authenticated (password, and authenticator code when they
have one), both written in the entry whose hash binds them. An entry without them is refused."""

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from ledgers.core.errors import RuleViolation
from ledgers.registers.chain import entry_hash
from ledgers.registers.kinds import all_kinds, get_kind
from ledgers.registers.verification import verify_register
from ledgers.slots.models import AccountingLine
from ledgers.slots.services import accounting, counts
from tests.factories import DEFAULT_PASSWORD, open_register

ART_69_FORMS = ("modèle 10", "modèle 11", "modèle 12", "modèle 13", "modèle 29")


@pytest.fixture
def machine(fr_room):
    machine = fr_room.on_floor(payment_limit=Decimal("500"))
    open_register(fr_room.est, "slot_comptabilite_29", machine.casino_number)
    return machine


def _avance(fr_room, machine, **overrides):
    values = {
        "machine": machine,
        "amount": Decimal("200"),
        "denomination": "pièces de 1 €",
        "reason": "hopper_empty",
        "refilled_by": fr_room["employe_jeux"],
        "comite": fr_room["comite"],
        "actor": fr_room["caissier"],
        "signed_by": fr_room["caissier"],
        **overrides,
    }
    return accounting.avance_issue(**values)


def test_reg_28_the_art_69_forms_are_registers_of_the_hash_chain():
    """Every art. 69 form the system keeps is a register kind, so every line of it is an entry of
    the REG-20 chain (time-stamped, with its author, append-only)."""
    kept = {kind.form for kind in all_kinds() if kind.form}
    assert set(ART_69_FORMS) <= kept


def test_reg_28_modele_29_entry_signatures_bound_to_its_hash(fr_room, machine):
    line = _avance(fr_room, machine).line
    entry = line.entry
    signature = entry.payload["signature"]
    assert fr_room["caissier"].get_full_name() in signature and fr_room["comite"].get_full_name() in signature
    assert entry.actor_user == fr_room["caissier"] and entry.role == "caissier"
    fields = entry.hashed_fields()
    assert entry_hash(**fields) == entry.entry_hash
    forged = {
        **fields,
        "payload": {
            **entry.payload,
            "signature": signature.replace(fr_room["comite"].get_full_name(), "Quelqu'un d'autre"),
        },
    }
    assert entry_hash(**forged) != entry.entry_hash  # the signatures cannot change without breaking the chain
    assert verify_register(entry.register) is None


def test_reg_28_modele_29_entry_refused_without_its_signatures(fr_room, machine):
    for overrides in ({"comite": None}, {"comite": fr_room["caissier"]}):
        with pytest.raises(RuleViolation):
            _avance(fr_room, machine, **overrides)
    assert not AccountingLine.objects.exists()


def test_reg_28_count_line_of_modele_29_refused_without_its_writer_signature(fr_room, machine):
    open_register(fr_room.est, "slot_comptees")
    count = counts.slot_count_open(establishment=fr_room.est, kind="as_needed", actor=fr_room["comite"])
    api = APIClient()
    api.force_authenticate(fr_room["caissier"])
    body = {
        "machine": machine.pk,
        "coins": "10.00",
        "comite_username": fr_room["comite"].username,
        "comite_password": DEFAULT_PASSWORD,
    }
    unsigned = api.post(f"/api/v1/slots/counts/{count.pk}/lines/", body, format="json")
    assert unsigned.status_code == 409 and unsigned.json()["code"] == "REG-28"
    signed = api.post(f"/api/v1/slots/counts/{count.pk}/lines/", {**body, "password": DEFAULT_PASSWORD}, format="json")
    assert signed.status_code == 201 and signed.json()["coins"] == "10.00"


def test_reg_28_the_service_itself_refuses_a_line_its_writer_did_not_sign(fr_room, machine):
    """The rule lives in the service: any caller (a page, the API, a task, a script) that did not
    re-authenticate the writer for the line gets the refusal, as does one signed by someone else."""
    for signed_by in (None, fr_room["comite"]):
        with pytest.raises(RuleViolation) as refused:
            _avance(fr_room, machine, signed_by=signed_by)
        assert refused.value.code == "REG-28"
    open_register(fr_room.est, "slot_comptees")
    count = counts.slot_count_open(establishment=fr_room.est, kind="as_needed", actor=fr_room["comite"])
    with pytest.raises(RuleViolation) as refused:
        counts.slot_count_line(
            count=count, machine=machine, actor=fr_room["caissier"], comite=fr_room["comite"], coins=Decimal("10")
        )
    assert refused.value.code == "REG-28"
    assert not AccountingLine.objects.exists() and not count.lines.exists()


def test_reg_28_the_comite_member_signs_by_re_authenticating(fr_room, machine):
    api = APIClient()
    api.force_authenticate(fr_room["caissier"])
    body = {
        "reason": "hopper_empty",
        "denomination": "pièces de 1 €",
        "amount": "200",
        "refilled_by": fr_room["employe_jeux"].pk,
        "comite_username": fr_room["comite"].username,
        "password": DEFAULT_PASSWORD,
    }
    wrong = api.post(
        f"/api/v1/slots/machines/{machine.pk}/avances/", {**body, "comite_password": "faux"}, format="json"
    )
    assert wrong.status_code == 400 and not AccountingLine.objects.exists()
    signed = api.post(
        f"/api/v1/slots/machines/{machine.pk}/avances/", {**body, "comite_password": DEFAULT_PASSWORD}, format="json"
    )
    assert signed.status_code == 201 and AccountingLine.objects.count() == 1


def test_reg_28_the_writer_signs_each_modele_29_entry_by_re_authenticating(fr_room, machine):
    api = APIClient()
    api.force_authenticate(fr_room["caissier"])
    body = {
        "reason": "hopper_empty",
        "denomination": "pièces de 1 €",
        "amount": "200",
        "refilled_by": fr_room["employe_jeux"].pk,
        "comite_username": fr_room["comite"].username,
        "comite_password": DEFAULT_PASSWORD,
    }
    url = f"/api/v1/slots/machines/{machine.pk}/avances/"
    assert api.post(url, body, format="json").status_code == 400
    wrong = api.post(url, {**body, "password": "faux"}, format="json")
    assert wrong.status_code == 400 and "password" in wrong.json() and not AccountingLine.objects.exists()
    assert api.post(url, {**body, "password": DEFAULT_PASSWORD}, format="json").status_code == 201
    line = AccountingLine.objects.get()
    assert line.cashier == fr_room["caissier"] and line.entry.payload["signature"]


def test_reg_28_the_modele_29_kind_is_fr_and_paraphed(fr_room):
    kind = get_kind("slot_comptabilite_29")
    assert kind.form == "modèle 29" and "FR" in kind.jurisdictions
