"""The register rules: opening act (REG-01), visas (REG-04), closing act and traceability
(REG-20), corrections (REG-27). A refused request changes nothing."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from ledgers.core.errors import RuleViolation
from ledgers.core.models import Seance
from ledgers.core.roles import Role
from ledgers.core.services import seance_open
from ledgers.registers.chain import GENESIS_HASH, entry_hash
from ledgers.registers.models import Entry, EntryKind, Register
from ledgers.registers.services import (
    entries_bulk_append,
    entry_append,
    entry_correct,
    main_courante_record,
    register_close,
    register_create,
    register_open,
    visa_sign,
)
from ledgers.registers.verification import scan, verify_register
from tests.factories import EstablishmentFactory, open_seance_registers
from tests.registers.conftest import opened_register, staff_for, triggers_bypassed

pytestmark = pytest.mark.django_db


def record(register, staff, **payload) -> Entry:
    return entry_append(register=register, actor=staff.writer, role=staff.writer_role, payload=payload or {"a": 1})


def unchanged(register: Register, head_seq: int) -> bool:
    register.refresh_from_db()
    return register.head_seq == head_seq and register.entries.count() == head_seq


# REG-01: the opening act ("coté et paraphé")


def test_reg_01_no_entry_before_cote_et_paraphe(mc, mc_staff):
    register = register_create(establishment=mc, kind="main_courante", actor=mc_staff.director)
    assert register.status == Register.Status.AWAITING_OPENING
    with pytest.raises(RuleViolation) as refused:
        record(register, mc_staff)
    assert refused.value.code == "REG-01"
    with pytest.raises(RuleViolation, match="REG-01"):
        entries_bulk_append(register=register, actor=mc_staff.writer, role=mc_staff.writer_role, payloads=[{}])
    assert unchanged(register, 0)


@pytest.mark.parametrize("role", [Role.SCJ, Role.DIRECTEUR_JEUX, Role.INSPECTEUR])
def test_reg_01_only_the_paraphing_authority_opens_mc(mc, mc_staff, user_in, role):
    register = register_create(establishment=mc, kind="main_courante", actor=mc_staff.director)
    with pytest.raises(PermissionDenied):
        register_open(register=register, actor=user_in(mc, role), paraphe="X.Y.")
    assert unchanged(register, 0)


def test_reg_01_only_the_paraphing_authority_opens_fr(fr, fr_staff, user_in):
    register = register_create(establishment=fr, kind="main_courante", actor=fr_staff.director)
    with pytest.raises(PermissionDenied):
        register_open(register=register, actor=user_in(fr, Role.COMMISSAIRE), paraphe="X.Y.")
    opening = register_open(register=register, actor=fr_staff.authority, paraphe="P.J.")
    assert (opening.role, opening.seq) == (Role.POLICE, 1)


def test_reg_01_paraphe_required(mc, mc_staff):
    register = register_create(establishment=mc, kind="main_courante", actor=mc_staff.director)
    with pytest.raises(RuleViolation, match="REG-01"):
        register_open(register=register, actor=mc_staff.authority, paraphe="   ")
    assert unchanged(register, 0)


def test_reg_01_opening_act_is_the_first_entry_and_happens_once(mc, mc_staff):
    register = register_create(establishment=mc, kind="main_courante", actor=mc_staff.director)
    opening = register_open(register=register, actor=mc_staff.authority, paraphe=" J.D. ")
    assert (opening.seq, opening.kind, opening.role, opening.prev_hash) == (
        1,
        EntryKind.OPENING,
        Role.COMMISSAIRE,
        GENESIS_HASH,
    )
    assert opening.payload["paraphe"] == "J.D."
    assert opening.payload["authority"] == mc_staff.authority.get_full_name()
    assert register.number in opening.payload["statement"]
    register.refresh_from_db()
    assert register.status == Register.Status.OPEN
    assert register.history.first().history_user == mc_staff.authority
    with pytest.raises(RuleViolation, match="REG-01"):
        register_open(register=register, actor=mc_staff.authority, paraphe="J.D.")
    assert unchanged(register, 1)
    assert verify_register(register) is None


# REG-04: visas


@pytest.mark.parametrize("role", [Role.SCJ, Role.COMMISSAIRE])
def test_reg_04_mc_visa_by_scj_or_commissaire(mc, mc_register, mc_staff, user_in, role):
    record(mc_register, mc_staff)
    visa = visa_sign(register=mc_register, actor=user_in(mc, role), up_to_seq=2, statement="Vu.")
    assert (visa.kind, visa.role) == (EntryKind.VISA, role)


@pytest.mark.parametrize("role", [Role.INSPECTEUR, Role.DIRECTEUR_JEUX, Role.POLICE])
def test_reg_04_mc_visa_role_required(mc, mc_register, mc_staff, user_in, role):
    record(mc_register, mc_staff)
    with pytest.raises(PermissionDenied):
        visa_sign(register=mc_register, actor=user_in(mc, role), up_to_seq=2, statement="Vu.")
    assert unchanged(mc_register, 2)


def test_reg_04_fr_visa_by_police_only(fr, fr_staff, user_in):
    register = opened_register(fr, fr_staff)
    record(register, fr_staff)
    for role in (Role.SCJ, Role.COMMISSAIRE, Role.DIRECTEUR_RESPONSABLE):
        with pytest.raises(PermissionDenied):
            visa_sign(register=register, actor=user_in(fr, role), up_to_seq=2, statement="Vu.")
    visa = visa_sign(register=register, actor=fr_staff.visa, up_to_seq=2, statement="Vu.")
    assert visa.role == Role.POLICE


def test_reg_04_maker_cannot_visa_own_entries(mc, mc_register, mc_staff, user_in):
    both = user_in(mc, Role.SCJ, Role.INSPECTEUR)
    record(mc_register, mc_staff)
    entry_append(register=mc_register, actor=both, role=Role.INSPECTEUR, payload={"by": "both"})  # seq 3
    record(mc_register, mc_staff)  # seq 4
    with pytest.raises(RuleViolation, match="REG-04") as refused:
        visa_sign(register=mc_register, actor=both, up_to_seq=4, statement="Vu.")
    assert "3" in str(refused.value)
    assert unchanged(mc_register, 4)
    # Once another signer has covered that entry, the next range (without it) is theirs to visa.
    visa_sign(register=mc_register, actor=mc_staff.visa, up_to_seq=3, statement="Vu.")
    visa = visa_sign(register=mc_register, actor=both, up_to_seq=5, statement="Vu.")
    assert (visa.payload["covers_from"], visa.payload["covers_seq"]) == (4, 5)


def test_reg_04_opening_act_does_not_bar_its_author_from_visa(mc, mc_register, mc_staff):
    record(mc_register, mc_staff)
    visa = visa_sign(register=mc_register, actor=mc_staff.authority, up_to_seq=2, statement="Vu.")
    assert visa.payload["covers_from"] == 1


@pytest.mark.parametrize("up_to_seq", [0, -1, 3, 99])
def test_reg_04_visa_must_cover_an_existing_entry(mc_register, mc_staff, up_to_seq):
    record(mc_register, mc_staff)
    with pytest.raises(RuleViolation, match="REG-04"):
        visa_sign(register=mc_register, actor=mc_staff.visa, up_to_seq=up_to_seq, statement="Vu.")
    assert unchanged(mc_register, 2)


def test_reg_04_range_already_visaed_refused(mc_register, mc_staff):
    record(mc_register, mc_staff)
    record(mc_register, mc_staff)
    visa_sign(register=mc_register, actor=mc_staff.visa, up_to_seq=3, statement="Vu.")
    for up_to_seq in (1, 2, 3):
        with pytest.raises(RuleViolation, match="REG-04"):
            visa_sign(register=mc_register, actor=mc_staff.visa, up_to_seq=up_to_seq, statement="Vu.")
    assert unchanged(mc_register, 4)
    # The visa entry itself (seq 4) is the next thing to visa.
    visa = visa_sign(register=mc_register, actor=mc_staff.visa, up_to_seq=4, statement="")
    assert (visa.payload["covers_from"], visa.payload["covers_seq"]) == (4, 4)
    assert visa.payload["statement"]


def test_reg_04_visa_carries_covered_seq_and_hash(mc_register, mc_staff):
    record(mc_register, mc_staff)
    covered = record(mc_register, mc_staff)
    visa = visa_sign(register=mc_register, actor=mc_staff.visa, up_to_seq=covered.seq, statement=" Vu et vérifié. ")
    assert visa.payload == {
        "covers_from": 1,
        "covers_seq": covered.seq,
        "covers_hash": covered.entry_hash,
        "statement": "Vu et vérifié.",
        "signer": mc_staff.visa.get_full_name(),
    }
    assert verify_register(mc_register) is None


def rewrite_and_rechain(register: Register, seq: int, payload: dict) -> None:
    """What an owner could do with the triggers off: rewrite entry ``seq`` and recompute every
    later hash and the head, so that the chain itself is consistent again."""
    rows = list(scan(register))
    prev = rows[seq - 2]["entry_hash"]
    with triggers_bypassed():
        for row in rows[seq - 1 :]:
            row.pop("entry_hash")
            row["prev_hash"] = prev
            if row["seq"] == seq:
                row["payload"] = payload
            prev = entry_hash(**row)
            Entry.objects.filter(register=register, seq=row["seq"]).update(
                payload=row["payload"], prev_hash=row["prev_hash"], entry_hash=prev
            )
    Register.objects.filter(pk=register.pk).update(head_hash=prev)


def test_reg_04_visa_detects_a_rewritten_and_rechained_range(mc_register, mc_staff):
    record(mc_register, mc_staff, amount="100.00")
    record(mc_register, mc_staff)
    visa = visa_sign(register=mc_register, actor=mc_staff.visa, up_to_seq=3, statement="Vu.")
    record(mc_register, mc_staff)
    rewrite_and_rechain(mc_register, 2, {"amount": "10.00"})
    finding = verify_register(mc_register)
    assert (finding.seq, finding.code) == (visa.seq, "visa_hash")
    assert "3" in finding.reason


def test_reg_04_visa_range_must_follow_the_previous_visa(mc_register, mc_staff):
    record(mc_register, mc_staff)
    visa = visa_sign(register=mc_register, actor=mc_staff.visa, up_to_seq=2, statement="Vu.")
    payload = {**visa.payload, "covers_from": 2}
    rewrite_and_rechain(mc_register, visa.seq, payload)
    finding = verify_register(mc_register)
    assert (finding.seq, finding.code) == (visa.seq, "visa_range")


# REG-20: closing act, server time, payload types


def test_reg_20_no_entry_after_closing(mc_register, mc_staff):
    entry = record(mc_register, mc_staff)
    closing = register_close(register=mc_register, actor=mc_staff.director, statement="")
    assert (closing.seq, closing.kind, closing.payload["entries"]) == (3, EntryKind.CLOSING, 3)
    mc_register.refresh_from_db()
    assert mc_register.status == Register.Status.CLOSED
    for attempt in (
        lambda: record(mc_register, mc_staff),
        lambda: visa_sign(register=mc_register, actor=mc_staff.visa, up_to_seq=3, statement="Vu."),
        lambda: entry_correct(entry=entry, actor=mc_staff.director, reason="erreur", approval="approuvé", payload={}),
        lambda: register_close(register=mc_register, actor=mc_staff.director),
    ):
        with pytest.raises(RuleViolation, match="REG-20"):
            attempt()
    assert unchanged(mc_register, 3)
    assert verify_register(mc_register) is None


def test_reg_20_closing_reserved_to_direction_and_authority(mc_register, mc_staff):
    with pytest.raises(PermissionDenied):
        register_close(register=mc_register, actor=mc_staff.writer)
    assert register_close(register=mc_register, actor=mc_staff.authority).role == Role.COMMISSAIRE


def test_reg_20_an_entry_after_the_closing_act_is_detected(mc_register, mc_staff):
    record(mc_register, mc_staff)
    register_close(register=mc_register, actor=mc_staff.director)
    Register.objects.filter(pk=mc_register.pk).update(status=Register.Status.OPEN)  # the head is not a ledger
    late = record(mc_register, mc_staff)
    finding = verify_register(mc_register)
    assert (finding.seq, finding.code) == (late.seq, "after_closing")


def test_reg_20_recorded_at_keeps_microseconds(mc_register, mc_staff):
    entry = record(mc_register, mc_staff)
    stored = Entry.objects.get(pk=entry.pk).recorded_at
    assert stored == entry.recorded_at
    assert stored.tzinfo is not None and stored.utcoffset() == datetime.timedelta(0)
    assert verify_register(mc_register) is None


@pytest.mark.parametrize(
    "payload",
    [
        {"amount": 1.5},
        {"nested": [{"x": 1e3}]},
        {"at": datetime.datetime(2026, 1, 1)},
        {1: "x"},
        {"text": "a\x00b"},
        {"text": "\ud800"},
        {"tuple": (1, 2)},
    ],
    ids=["float", "nested-float", "datetime", "int-key", "nul", "surrogate", "tuple"],
)
def test_reg_20_payload_types_checked(mc_register, mc_staff, payload):
    with pytest.raises(ValidationError):
        record(mc_register, mc_staff, **{"p": payload})
    with pytest.raises(ValidationError):
        entries_bulk_append(
            register=mc_register, actor=mc_staff.writer, role=mc_staff.writer_role, payloads=[{"ok": True}, payload]
        )
    assert unchanged(mc_register, 1)


def test_reg_20_writer_role_must_write_in_the_kind(mc_register, mc_staff, user_in, mc):
    cashier = user_in(mc, Role.CAISSIER)
    with pytest.raises(ValueError):
        entry_append(register=mc_register, actor=cashier, role=Role.CAISSIER, payload={})
    assert unchanged(mc_register, 1)


def test_register_volumes_are_numbered_per_qualifier(mc, mc_staff):
    numbers = [
        register_create(establishment=mc, kind="main_courante", actor=mc_staff.director, qualifier=q).number
        for q in ("", "", "salon", "salon", "")
    ]
    assert numbers == [
        "MCB-MAINCOURANTE-001",
        "MCB-MAINCOURANTE-002",
        "MCB-MAINCOURANTE-SALON-001",
        "MCB-MAINCOURANTE-SALON-002",
        "MCB-MAINCOURANTE-003",
    ]


# REG-27: corrections are counter-entries, approved in words by a SET-47 role


def test_reg_27_correction_points_to_the_corrected_entry(mc_register, mc_staff):
    wrong = record(mc_register, mc_staff, amount="1000.00")
    record(mc_register, mc_staff)
    correction = entry_correct(
        entry=wrong,
        actor=mc_staff.director,
        reason=" Erreur de saisie ",
        approval="Approuvé : mille euros ramenés à cent euros",
        payload={"amount": "100.00"},
    )
    assert (correction.kind, correction.corrects, correction.seq) == (EntryKind.CORRECTION, wrong, 4)
    assert correction.payload == {
        "reason": "Erreur de saisie",
        "approval": "Approuvé : mille euros ramenés à cent euros",
        "approved_by": mc_staff.director.get_full_name(),
        "corrected": {"amount": "100.00"},
    }
    assert correction.hashed_fields()["corrects"] == wrong.seq
    wrong.refresh_from_db()
    assert wrong.payload == {"amount": "1000.00"}  # the original stays as it was written
    assert verify_register(mc_register) is None
    again = entry_correct(
        entry=correction, actor=mc_staff.director, reason="Encore", approval="Approuvé", payload={"amount": "110.00"}
    )
    assert again.corrects == correction


@pytest.mark.parametrize("reason,approval", [("", "Approuvé"), ("Erreur", ""), ("  ", "  ")])
def test_reg_27_correction_requires_reason_and_approval_in_words(mc_register, mc_staff, reason, approval):
    entry = record(mc_register, mc_staff)
    with pytest.raises(RuleViolation, match="REG-27"):
        entry_correct(entry=entry, actor=mc_staff.director, reason=reason, approval=approval, payload={})
    assert unchanged(mc_register, 2)


def test_reg_27_approver_role_per_set_47_mc(mc, mc_register, mc_staff, user_in):
    entry = record(mc_register, mc_staff)
    for role in (Role.INSPECTEUR, Role.SOUS_DIRECTEUR, Role.SCJ):
        with pytest.raises(PermissionDenied):
            entry_correct(entry=entry, actor=user_in(mc, role), reason="Erreur", approval="Approuvé", payload={})
    assert unchanged(mc_register, 2)
    correction = entry_correct(entry=entry, actor=mc_staff.director, reason="Erreur", approval="Approuvé", payload={})
    assert correction.role == Role.DIRECTEUR_JEUX


def test_reg_27_approver_role_per_set_47_fr(fr, fr_staff, user_in):
    register = opened_register(fr, fr_staff)
    entry = record(register, fr_staff)
    with pytest.raises(PermissionDenied):
        entry_correct(
            entry=entry, actor=user_in(fr, Role.DIRECTEUR_JEUX), reason="Erreur", approval="Approuvé", payload={}
        )
    for role in (Role.DIRECTEUR_RESPONSABLE, Role.COMITE):
        correction = entry_correct(
            entry=entry, actor=user_in(fr, role), reason="Erreur", approval="Approuvé", payload={}
        )
        assert correction.role == role


def test_reg_27_set_47_override_by_the_establishment(user_in):
    est = EstablishmentFactory(code="mco", jurisdiction="MC", options={"SET-47": [Role.SOUS_DIRECTEUR]})
    staff = staff_for(est, user_in)
    entry = record(opened_register(est, staff), staff)
    with pytest.raises(PermissionDenied):
        entry_correct(entry=entry, actor=staff.director, reason="Erreur", approval="Approuvé", payload={})
    correction = entry_correct(
        entry=entry, actor=user_in(est, Role.SOUS_DIRECTEUR), reason="Erreur", approval="Approuvé", payload={}
    )
    assert correction.role == Role.SOUS_DIRECTEUR


def test_reg_27_only_inscriptions_are_corrected(mc_register, mc_staff):
    record(mc_register, mc_staff)
    visa = visa_sign(register=mc_register, actor=mc_staff.visa, up_to_seq=2, statement="Vu.")
    for entry in (Entry.objects.get(register=mc_register, seq=1), visa):
        with pytest.raises(RuleViolation, match="REG-27"):
            entry_correct(entry=entry, actor=mc_staff.director, reason="Erreur", approval="Approuvé", payload={})
    assert unchanged(mc_register, 3)


def test_reg_27_corrected_payload_types_checked(mc_register, mc_staff):
    entry = record(mc_register, mc_staff)
    with pytest.raises(ValidationError):
        entry_correct(
            entry=entry, actor=mc_staff.director, reason="Erreur", approval="Approuvé", payload={"amount": 10.5}
        )
    assert unchanged(mc_register, 2)


def test_reg_20_the_entry_and_its_change_share_one_transaction(mc, mc_register, mc_staff):
    class Refused(Exception):
        pass

    with pytest.raises(Refused), transaction.atomic():
        seance = seance_open(establishment=mc, date=datetime.date(2026, 3, 1), period="soiree", actor=mc_staff.director)
        entry_append(
            register=mc_register,
            actor=mc_staff.writer,
            role=mc_staff.writer_role,
            payload={"subject": "Ouverture de la séance", "seance": seance.pk},
        )
        raise Refused  # anything that fails after the entry: the change and its entry go together
    assert not Seance.objects.exists()
    assert unchanged(mc_register, 1)


def test_reg_01_a_refused_entry_leaves_the_callers_transaction_usable(mc, mc_staff):
    open_seance_registers(mc)  # where the séance opened below is written
    register = register_create(establishment=mc, kind="main_courante", actor=mc_staff.director)
    with transaction.atomic():
        with pytest.raises(RuleViolation, match="REG-01"):
            entry_append(register=register, actor=mc_staff.writer, role=mc_staff.writer_role, payload={})
        with pytest.raises(ValidationError):
            entry_append(register=register, actor=mc_staff.writer, role=mc_staff.writer_role, payload={"x": 0.5})
        seance_open(establishment=mc, date=datetime.date(2026, 3, 1), period="soiree", actor=mc_staff.director)
    assert Seance.objects.count() == 1
    assert unchanged(register, 0)


def test_reg_20_a_stale_register_instance_still_appends_at_the_head(mc_register, mc_staff):
    stale = Register.objects.get(pk=mc_register.pk)
    record(mc_register, mc_staff)
    record(mc_register, mc_staff)
    entry = record(stale, mc_staff)  # its head says 1: the lock reads the real head
    assert (entry.seq, entry.prev_hash) == (4, mc_register.head_hash)
    assert (stale.head_seq, stale.head_hash) == (4, entry.entry_hash)
    assert verify_register(mc_register) is None


@pytest.mark.postgresql
def test_reg_20_an_append_inside_a_domain_transaction_is_one_statement(
    mc_register, mc_staff, django_assert_num_queries
):
    """Lock, check of the head, insert and head move in one statement; no savepoint round trips."""
    record(mc_register, mc_staff)
    with django_assert_num_queries(1):
        record(mc_register, mc_staff)
    assert verify_register(mc_register) is None


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_main_courante_record_outside_a_transaction_is_the_role_read_and_one_statement(mc, mc_staff):
    """The entry is the act's one write: its statement is its own transaction, without BEGIN,
    SAVEPOINT or COMMIT round trips."""
    opened = opened_register(mc, mc_staff)
    register = Register.objects.select_related("establishment").get(pk=opened.pk)  # as pages read it
    with CaptureQueriesContext(connection) as captured:
        entry = main_courante_record(
            register=register, actor=mc_staff.writer, event_at="2026-03-01 21:00", subject="Ronde", text="RAS"
        )
    sql = [query["sql"] for query in captured.captured_queries]
    assert len(sql) == 2, sql
    assert "core_membership" in sql[0] and sql[1].startswith("WITH moved AS"), sql
    assert entry.seq == 2 and verify_register(register) is None


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_main_courante_record_outside_a_transaction_appends_at_the_head_of_a_stale_register(mc, mc_staff):
    register = opened_register(mc, mc_staff)
    stale = Register.objects.get(pk=register.pk)
    fact = {"actor": mc_staff.writer, "event_at": "2026-03-01 21:00", "subject": "Ronde", "text": "RAS"}
    main_courante_record(register=register, **fact)
    entry = main_courante_record(register=stale, **fact)  # its head says 1: the register's lock is taken
    assert (entry.seq, entry.prev_hash) == (3, register.head_hash)
    assert verify_register(register) is None


@pytest.mark.postgresql
def test_main_courante_record_in_a_callers_transaction_takes_no_savepoint(
    mc_register, mc_staff, django_assert_num_queries
):
    register = Register.objects.select_related("establishment").get(pk=mc_register.pk)  # as pages read it
    with django_assert_num_queries(2):  # the writer's roles, the append
        main_courante_record(
            register=register, actor=mc_staff.writer, event_at="2026-03-01 21:00", subject="Ronde", text="RAS"
        )
    assert verify_register(register) is None


def test_reg_01_main_courante_record_refused_before_the_opening_writes_nothing(mc, mc_staff):
    register = register_create(establishment=mc, kind="main_courante", actor=mc_staff.director)
    with pytest.raises(RuleViolation, match="REG-01"):
        main_courante_record(
            register=register, actor=mc_staff.writer, event_at="2026-03-01 21:00", subject="Ronde", text="RAS"
        )
    assert unchanged(register, 0)
