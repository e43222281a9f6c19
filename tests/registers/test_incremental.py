"""Incremental verification (from the last sealed checkpoint on) and verification on a replica.

The attacker is the owner with the triggers off, as in test_evidence: incremental verification
catches whatever changed at or after the last checkpoint, and trusts what precedes it, which the
checkpoint's seal covers and a full verification (``--full``) re-reads."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

import tests.dice.conftest as dice_setup
from ledgers.core.authz import save_audited
from ledgers.dice.models import Die, HistoricalDie
from ledgers.registers.models import Checkpoint, Entry
from ledgers.registers.services import checkpoints_seal, visa_sign
from ledgers.registers.treeheads import newest_document, tree_heads_seal
from ledgers.registers.verification import Finding, first_unsealed_transaction, verify_register
from tests.registers.conftest import triggers_bypassed
from tests.registers.test_chain_properties import run_sql
from tests.registers.test_evidence import append, rewrite, sealed_one, truncate

ROOT = Path(settings.BASE_DIR)
mc_org = dice_setup.mc_org  # a Monaco casino with depots and dice registers


def forge_payload(register, seq: int) -> None:
    """The owner changes one entry's payload and nothing else: its hash no longer matches."""
    with triggers_bypassed():
        Entry.objects.filter(register=register, seq=seq).update(payload={"forged": True})


@pytest.mark.django_db
def test_reg_20_incremental_verification_detects_a_tamper_after_the_checkpoint(mc_register, mc_staff):
    append(mc_register, mc_staff, 5)
    checkpoint = sealed_one(mc_register)  # seq 6
    append(mc_register, mc_staff, 4)  # 7..10
    assert verify_register(mc_register, since_checkpoint=True) is None
    forge_payload(mc_register, 9)
    finding = verify_register(mc_register, since_checkpoint=True)
    assert (finding.seq, finding.code) == (9, "entry_hash")
    assert checkpoint.seq == 6


@pytest.mark.django_db
def test_reg_20_incremental_verification_rereads_the_checkpointed_entry(mc_register, mc_staff):
    append(mc_register, mc_staff, 5)
    sealed_one(mc_register)
    append(mc_register, mc_staff, 2)
    forge_payload(mc_register, 6)
    finding = verify_register(mc_register, since_checkpoint=True)
    assert (finding.seq, finding.code) == (6, "entry_hash")


@pytest.mark.django_db
@pytest.mark.parametrize("attack", ["rewrite", "truncate"])
def test_reg_20_incremental_verification_holds_the_chain_to_the_checkpoint(mc_register, mc_staff, attack):
    """Consistent attacks on what the checkpoint covers change its entry or remove it."""
    append(mc_register, mc_staff, 5)
    sealed_one(mc_register)  # seq 6
    append(mc_register, mc_staff, 3)
    if attack == "rewrite":
        rewrite(mc_register, 3, {"forged": True})
        expected = (6, "checkpoint_hash")
    else:
        truncate(mc_register, 4)
        expected = (6, "checkpoint_missing")
    finding = verify_register(mc_register, since_checkpoint=True)
    assert (finding.seq, finding.code) == expected


@pytest.mark.django_db
def test_reg_20_incremental_verification_holds_a_tree_head_leaf_before_the_checkpoint(mc_register, mc_staff, tmp_path):
    """A tree head's leaf before the last checkpoint is held to the stored hash, even once the
    checkpoint rows under it are gone: from the newest tree head, and from one that left the
    building (``verify_ledgers --since-checkpoint --tree-head``)."""
    append(mc_register, mc_staff, 5)
    sealed_one(mc_register)  # seq 6
    tree_heads_seal()
    sent = tmp_path / "tree-head.json"
    sent.write_text(json.dumps(newest_document(mc_register.establishment)), encoding="utf-8")
    append(mc_register, mc_staff, 3)
    sealed_one(mc_register)  # seq 9
    assert verify_register(mc_register, since_checkpoint=True) is None
    run_sql("DELETE FROM registers_checkpoint WHERE register_id = %s AND seq = 6", [mc_register.pk])
    run_sql("UPDATE registers_entry SET entry_hash = %s WHERE register_id = %s AND seq = 6", ["f" * 64, mc_register.pk])
    finding = verify_register(mc_register, since_checkpoint=True)
    assert (finding.seq, finding.code) == (6, "checkpoint_hash")
    tree_heads_seal()  # the newest tree head now holds seq 9: the sent one still holds seq 6
    assert verify_register(mc_register, since_checkpoint=True) is None
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_ledgers", mc_register.number, "--since-checkpoint", "--tree-head", str(sent), stdout=out)
    assert f"ÉCHEC\t{mc_register.number} n° 6 : " in out.getvalue()


@pytest.mark.django_db
def test_incremental_verification_trusts_what_precedes_the_checkpoint(mc_register, mc_staff):
    append(mc_register, mc_staff, 5)
    sealed_one(mc_register)  # seq 6
    append(mc_register, mc_staff, 3)
    forge_payload(mc_register, 3)  # before the checkpoint, not re-hashed: only a full verification reads it
    assert verify_register(mc_register, since_checkpoint=True) is None
    finding = verify_register(mc_register)
    assert (finding.seq, finding.code) == (3, "entry_hash")
    # The daily sealing verifies incrementally; a full re-verification refuses to seal.
    append(mc_register, mc_staff, 1)
    assert [r.seq for r in checkpoints_seal(full=False)] == [10]
    append(mc_register, mc_staff, 1)
    refused = checkpoints_seal(full=True)
    assert isinstance(refused[0], Finding) and refused[0].seq == 3


@pytest.mark.django_db
def test_incremental_verification_reads_only_the_entries_from_the_checkpoint(mc_register, mc_staff):
    append(mc_register, mc_staff, 50)
    sealed_one(mc_register)  # seq 51
    append(mc_register, mc_staff, 4)
    executed = []

    def record(execute, sql, params, many, context):
        executed.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        assert verify_register(mc_register, since_checkpoint=True) is None
    scans = [params for sql, params in executed if "e.seq >= %s ORDER BY e.seq" in sql]
    assert scans == [[mc_register.pk, 51]]  # one scan of the entries, from the checkpoint's
    assert len(executed) <= 10  # and a constant number of lookups around it


@pytest.mark.django_db
def test_the_daily_verification_costs_the_same_queries_whatever_the_sealed_past(mc_org):
    """``verify_ledgers --since-checkpoint`` reads what was written since the seals: more sealed
    history before them (entries, objects and their history rows, checkpoints, tree heads) adds no
    query."""

    def sealed_past(dice: int) -> None:
        dice_setup.receive_mc(mc_org, dice)
        assert all(isinstance(sealed, Checkpoint) for sealed in checkpoints_seal(full=True))
        tree_heads_seal()

    def daily() -> int:
        dice_setup.receive_mc(mc_org, 1)  # the day's act, after the seals
        with CaptureQueriesContext(connection) as queries:
            call_command("verify_ledgers", "--since-checkpoint", stdout=io.StringIO())
        return len(queries)

    sealed_past(2)
    first = daily()
    sealed_past(30)
    sealed_past(5)
    assert daily() == first


@pytest.mark.django_db
def test_a_visa_after_the_checkpoint_over_entries_before_it_verifies_incrementally(mc_register, mc_staff):
    append(mc_register, mc_staff, 5)
    sealed_one(mc_register)  # seq 6
    visa_sign(register=mc_register, actor=mc_staff.visa, up_to_seq=4, statement="")  # seq 7, covers 1..4
    append(mc_register, mc_staff, 2)
    visa_sign(register=mc_register, actor=mc_staff.visa, up_to_seq=8, statement="")  # seq 10, covers 5..8
    assert verify_register(mc_register, since_checkpoint=True) is None
    assert sealed_one(mc_register).seq == 10
    # From seq 10 on, the range of the visa read must follow the last visa before the checkpoint.
    assert verify_register(mc_register, since_checkpoint=True) is None
    assert verify_register(mc_register) is None


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_verify_ledgers_reads_only_the_database_it_is_given(mc_register, mc_staff):
    """``--database replica`` with the default database unreachable: everything is read from the
    replica (opened read-only), and a tamper there is reported."""
    append(mc_register, mc_staff, 3)
    sealed_one(mc_register)
    db = connection.settings_dict
    test_db = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "casino_compliance.test_settings",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/no_such_database_for_verification",
        "DATABASE_REPLICA_URL": test_db,
    }

    def verify(*args):
        return subprocess.run(
            [sys.executable, "manage.py", "verify_ledgers", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )

    ok = verify("--database", "replica")
    assert ok.returncode == 0, ok.stderr
    assert f"OK\t{mc_register.number}\n" in ok.stdout and "OK\ttransactions" in ok.stdout
    incremental = verify("--database", "replica", "--since-checkpoint", "--chain-only")
    assert incremental.returncode == 0, incremental.stderr
    assert verify().returncode != 0  # the default database is not there: nothing was read from it
    forge_payload(mc_register, 2)
    failed = verify("--database", "replica")
    assert failed.returncode == 1
    assert f"{mc_register.number} n° 2 : l'empreinte ne correspond pas au contenu de l'entrée" in failed.stderr


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_reg_20_incremental_verification_reads_the_history_rows_and_entries_written_since_the_seals(mc_org):
    """``--since-checkpoint`` holds the history rows and entries of the transactions since the
    seals to each other; a history row stamped with a transaction before them is left to the full
    verification, which still finds it."""
    die = dice_setup.receive_mc(mc_org, 2)[0]
    assert all(isinstance(sealed, Checkpoint) for sealed in checkpoints_seal(full=True))
    since = first_unsealed_transaction()
    assert since > 0
    call_command("verify_ledgers", "--since-checkpoint", stdout=io.StringIO())
    with transaction.atomic():  # after the seals, a history row forged to match an update, without an entry
        die = Die.objects.get(pk=die.pk)
        die.status = "destroyed"
        save_audited(die, actor=mc_org["cartier"], reason="hors registre")
    forged = HistoricalDie.objects.filter(id=die.pk).latest("history_id")
    with pytest.raises(CommandError, match=f"dice.Die #{die.pk} : historique n° {forged.history_id}"):
        call_command("verify_ledgers", "--since-checkpoint", stdout=io.StringIO())
    with triggers_bypassed():  # the same row, stamped with one of the database's first transactions
        run_sql("UPDATE dice_historicaldie SET ledgers_txid = 3 WHERE history_id = %s", [forged.history_id])
    call_command("verify_ledgers", "--since-checkpoint", stdout=io.StringIO())
    with pytest.raises(CommandError, match=f"dice.Die #{die.pk} : historique n° {forged.history_id}"):
        call_command("verify_ledgers", stdout=io.StringIO())
