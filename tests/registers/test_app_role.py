"""The application's database role of docs/operations.md: it appends through the services, and can
neither change, remove nor truncate a ledger row, nor switch the triggers off."""

import re
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import DatabaseError, connection, transaction

from ledgers.registers.models import Entry, Register
from ledgers.registers.services import checkpoints_seal, entries_bulk_append, entry_append, visa_sign
from ledgers.registers.signing import current_key_id
from ledgers.registers.verification import verify_register
from tests.registers.conftest import LEDGER_MODELS

DOCS = Path(settings.BASE_DIR) / "docs"
GRANTS = (DOCS / "grants.sql").read_text(encoding="utf-8")


def test_operations_doc_shows_the_shipped_grants():
    blocks = re.findall(r"```sql\n(.*?)```", (DOCS / "operations.md").read_text(encoding="utf-8"), flags=re.DOTALL)
    assert GRANTS in blocks


@pytest.fixture
def app_role(db):
    """A role set up as docs/grants.sql says, then taken by this test's connection. CREATE ROLE is
    transactional in PostgreSQL: the role goes with the test's rolled-back transaction."""
    role = f"ledgers_app_{uuid.uuid4().hex[:12]}"
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE ROLE {role} NOLOGIN")
        cursor.execute(GRANTS.replace("ledgers_app", role), None)
        cursor.execute(f"SET ROLE {role}")
    try:
        yield role
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET ROLE")


def refused(sql: str) -> str:
    with pytest.raises(DatabaseError) as error, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)
    return str(error.value)


@pytest.mark.postgresql
def test_reg_20_the_application_role_appends(mc_register, mc_staff, app_role):
    entry_append(register=mc_register, actor=mc_staff.writer, role=mc_staff.writer_role, payload={"a": 1})
    entries_bulk_append(
        register=mc_register, actor=mc_staff.writer, role=mc_staff.writer_role, payloads=[{"b": i} for i in range(3)]
    )
    visa_sign(register=mc_register, actor=mc_staff.visa, up_to_seq=5, statement="Vu.")
    assert verify_register(mc_register) is None
    assert Entry.objects.filter(register=mc_register).count() == 6


@pytest.mark.postgresql
@pytest.mark.parametrize("model", LEDGER_MODELS, ids=lambda m: m._meta.db_table)
def test_reg_20_the_application_role_cannot_change_a_ledger(model, app_role):
    table, pk = model._meta.db_table, model._meta.pk.column
    for sql in (f'UPDATE "{table}" SET "{pk}" = "{pk}"', f'DELETE FROM "{table}"', f'TRUNCATE "{table}"'):
        assert "permission denied" in refused(sql)
    assert "must be owner" in refused(f'ALTER TABLE "{table}" DISABLE TRIGGER USER')


@pytest.mark.postgresql
def test_reg_20_the_application_role_cannot_switch_triggers_off(app_role):
    assert "permission denied" in refused("SET session_replication_role = replica")


@pytest.mark.postgresql
def test_reg_20_the_application_role_seals_but_cannot_forge(mc_register, mc_staff, app_role):
    """It seals checkpoints (it may insert them); a checkpoint row of its own has no valid seal, and
    the transaction id of a row it inserts is the database's, not the one it sends."""
    entry_append(register=mc_register, actor=mc_staff.writer, role=mc_staff.writer_role, payload={"a": 1})
    assert [c.seq for c in checkpoints_seal(registers=Register.objects.filter(pk=mc_register.pk))] == [2]
    with connection.cursor() as cursor:
        cursor.execute("SELECT txid_current()")
        (txid,) = cursor.fetchone()
        cursor.execute(
            "INSERT INTO registers_checkpoint "
            "(register_id, seq, entry_hash, created_at, mac, key_id, signature, ledgers_txid) "
            "VALUES (%s, 1, %s, now(), '', %s, %s, 1) RETURNING ledgers_txid",
            [mc_register.pk, "0" * 64, current_key_id(), "0" * 128],
        )
        assert cursor.fetchone() == (txid,)
    assert (verify_register(mc_register).seq, verify_register(mc_register).code) == (1, "checkpoint_mac")
