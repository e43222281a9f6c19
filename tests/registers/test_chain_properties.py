"""Property tests of the chain: whatever is appended verifies; whatever is tampered with is caught
and located, with the triggers switched off as the table owner could (the chain is the evidence)."""

import datetime
import hashlib
import json

import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ledgers.registers.chain import canonical_bytes, canonical_json, canonical_json_reference
from ledgers.registers.models import Entry
from ledgers.registers.services import entries_bulk_append, entry_append, visa_sign
from ledgers.registers.verification import scan, verify_register
from tests.registers.conftest import opened_register, triggers_bypassed

PROPERTY_SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

# Any text PostgreSQL's jsonb and UTF-8 can hold: everything but U+0000 and lone surrogates.
texts = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=20)
scalars = st.none() | st.booleans() | st.integers() | texts
values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(texts, children, max_size=4),
    max_leaves=12,
)
payloads = st.dictionaries(texts, values, max_size=5)
operations = st.lists(
    st.one_of(
        st.tuples(st.just("single"), payloads),
        st.tuples(st.just("bulk"), st.lists(payloads, min_size=1, max_size=6)),
    ),
    min_size=1,
    max_size=6,
)


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@settings(max_examples=500, deadline=None)
@given(value=payloads | values)
def test_the_fast_canonical_encoder_writes_the_reference_bytes(value):
    """orjson and the standard library's definition agree byte for byte on every value a payload
    may hold (integers beyond 64 bits included: orjson hands them to the reference)."""
    assert canonical_json(value) == canonical_json_reference(value)


def test_canonical_form_of_the_awkward_characters():
    value = {"é": '\x01\x1f\x7f\u2028\u2029"\\/\ud7ff\ue000\U0010ffff', "a": [2**63, 2**64, -(2**63) - 1, 2**70]}
    assert canonical_json(value) == canonical_json_reference(value)
    assert canonical_json(value).startswith(b'{"a":[9223372036854775808,18446744073709551616,')


def append_all(register, staff, ops) -> int:
    count = 0
    for op, data in ops:
        if op == "single":
            entry_append(register=register, actor=staff.writer, role=staff.writer_role, payload=data)
            count += 1
        else:
            count += entries_bulk_append(
                register=register, actor=staff.writer, role=staff.writer_role, payloads=data, batch_size=4
            )
    return count


@pytest.mark.django_db
@PROPERTY_SETTINGS
@given(ops=operations)
def test_reg_20_any_sequence_of_appends_verifies(mc, mc_staff, ops):
    with transaction.atomic():
        register = opened_register(mc, mc_staff)
        count = append_all(register, mc_staff, ops)
        register.refresh_from_db()
        assert verify_register(register) is None
        assert register.head_seq == count + 1  # the opening act, then every append
        seqs = list(Entry.objects.filter(register=register).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, count + 2))
        # What comes back from the database is what was hashed: the payloads round-trip exactly.
        stored = [row["payload"] for row in scan(register)][1:]
        expected = [data for op, d in ops for data in ([d] if op == "single" else d)]
        assert [canonical(p) for p in stored] == [canonical(p) for p in expected]
        transaction.set_rollback(True)


TAMPERS = ("payload", "actor", "recorded_at", "prev_hash", "entry_hash", "delete", "swap")


def run_sql(sql: str, params: list) -> None:
    with triggers_bypassed(), connection.cursor() as cursor:
        cursor.execute(sql, params)


def tamper(register, how: str, seq: int, data) -> int:
    """Change the stored rows of ``register`` at ``seq`` as an owner with the triggers off could;
    return the seq a verifier must name."""
    entry = Entry.objects.get(register=register, seq=seq)
    if how == "payload":
        new = data.draw(payloads, label="new payload")
        assume(canonical(new) != canonical(entry.payload))
        with triggers_bypassed():
            Entry.objects.filter(pk=entry.pk).update(payload=new)
    elif how == "actor":
        run_sql("UPDATE registers_entry SET actor = %s WHERE id = %s", [entry.actor + "x", entry.pk])
    elif how == "recorded_at":
        shift = data.draw(st.integers(-(10**9), 10**9).filter(bool), label="microseconds")
        with triggers_bypassed():
            Entry.objects.filter(pk=entry.pk).update(
                recorded_at=entry.recorded_at + datetime.timedelta(microseconds=shift)
            )
    elif how in ("prev_hash", "entry_hash"):
        forged = hashlib.sha256(getattr(entry, how).encode()).hexdigest()
        run_sql(f"UPDATE registers_entry SET {how} = %s WHERE id = %s", [forged, entry.pk])
    elif how == "delete":
        run_sql("DELETE FROM registers_entry WHERE id = %s", [entry.pk])
    elif how == "swap":
        other = data.draw(st.integers(seq + 1, register.head_seq), label="swapped with")
        other_pk = Entry.objects.get(register=register, seq=other).pk
        with triggers_bypassed(), connection.cursor() as cursor:
            update = "UPDATE registers_entry SET seq = %s WHERE id = %s"
            cursor.execute(update, [10**12, entry.pk])  # the unique (register, seq) forbids a direct swap
            cursor.execute(update, [seq, other_pk])
            cursor.execute(update, [other, entry.pk])
    return seq


@pytest.mark.django_db
@PROPERTY_SETTINGS
@given(ops=operations, with_visa=st.booleans(), how=st.sampled_from(TAMPERS), data=st.data())
def test_reg_20_any_single_tampering_is_detected_and_located(mc, mc_staff, ops, with_visa, how, data):
    with transaction.atomic():
        register = opened_register(mc, mc_staff)
        append_all(register, mc_staff, ops)
        register.refresh_from_db()
        if with_visa:
            visa_sign(register=register, actor=mc_staff.visa, up_to_seq=register.head_seq, statement="Vu.")
            register.refresh_from_db()
        last = register.head_seq - 1 if how == "swap" else register.head_seq
        seq = data.draw(st.integers(1, last), label="tampered seq")
        expected = tamper(register, how, seq, data)
        finding = verify_register(register)
        assert finding is not None, f"{how} at seq {seq} went unnoticed"
        assert (finding.register, finding.seq) == (register.number, expected), finding
        transaction.set_rollback(True)


@pytest.mark.django_db
@pytest.mark.parametrize("deleted,code", [(4, "head_seq"), (2, "missing")], ids=["newest", "gap"])
def test_reg_20_a_deleted_entry_is_detected(mc_register, mc_staff, deleted, code):
    """The newest entry's removal shows through the register head; any other leaves a gap."""
    for i in range(3):
        entry_append(register=mc_register, actor=mc_staff.writer, role=mc_staff.writer_role, payload={"i": i})
    run_sql("DELETE FROM registers_entry WHERE register_id = %s AND seq = %s", [mc_register.pk, deleted])
    finding = verify_register(mc_register)
    assert (finding.seq, finding.code) == (deleted, code)


@pytest.mark.django_db
def test_reg_20_forged_entries_beyond_the_head_are_detected(mc_register, mc_staff):
    entry_append(register=mc_register, actor=mc_staff.writer, role=mc_staff.writer_role, payload={"i": 1})
    mc_register.refresh_from_db()
    # A well-formed entry 3 inserted behind the service's back: the head does not know it.
    fields = dict(
        register=mc_register.number,
        seq=3,
        recorded_at="2026-01-01T00:00:00.000000Z",
        actor="x",
        role="inspecteur",
        kind="record",
        payload={},
        corrects=None,
        prev_hash=mc_register.head_hash,
    )
    Entry.objects.create(
        register=mc_register,
        seq=3,
        recorded_at=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC),
        actor="x",
        role="inspecteur",
        kind="record",
        payload={},
        prev_hash=mc_register.head_hash,
        entry_hash=hashlib.sha256(canonical_bytes(**fields)).hexdigest(),
    )
    finding = verify_register(mc_register)
    assert (finding.seq, finding.code) == (3, "head_seq")


@pytest.mark.django_db
def test_reg_20_registers_are_streamed_in_one_query(mc_register, mc_staff, django_assert_num_queries):
    """One ordered scan through a server-side cursor, whatever the size; fetched in rounds of
    ``page_size`` rows, which are not queries of their own."""
    entries_bulk_append(
        register=mc_register, actor=mc_staff.writer, role=mc_staff.writer_role, payloads=({"n": i} for i in range(24))
    )
    with django_assert_num_queries(1):
        assert [row["seq"] for row in scan(mc_register, page_size=5)] == list(range(1, 26))
    # the head, the checkpoints, the newest tree head, the seqs visas cover, the scan, the
    # passkeys its signers held (the register of authorisations' passkey lines)
    with django_assert_num_queries(6):
        assert verify_register(mc_register) is None
    entries_bulk_append(
        register=mc_register, actor=mc_staff.writer, role=mc_staff.writer_role, payloads=({"n": i} for i in range(300))
    )
    with django_assert_num_queries(6):  # the same whatever the size
        assert verify_register(mc_register) is None
