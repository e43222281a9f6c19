"""Format 3: the history rows an act writes enter the chain through their digests, in the entry
of that act. An object and its latest history row changed together in place (the state check
sees them agree) no longer match the digest, and verification names the object, the history row
and the entry that sealed it. Entries of formats 1 and 2 verify as they always did."""

import hashlib
import io
import json
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

import tests.dice.conftest as dice_setup
from ledgers.dice.models import Die, HistoricalDie
from ledgers.registers.chain import canonical_bytes
from ledgers.registers.evidence import check_row_digests, check_state
from ledgers.registers.models import Entry
from ledgers.registers.verification import export_lines, verify_register
from tests.registers.conftest import triggers_bypassed
from tests.registers.test_chain_properties import run_sql

mc_org = dice_setup.mc_org

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]


def sealing_entry(die: Die) -> Entry:
    return Entry.objects.filter(digests__has_key="dice.Die").order_by("-id").first()


def test_reg_20_the_entry_of_an_act_seals_the_digest_of_each_history_row_it_wrote(mc_org):
    dice = dice_setup.receive_mc(mc_org, 2)
    entry = sealing_entry(dice[0])
    rows = HistoricalDie.objects.filter(id__in=[d.pk for d in dice])
    assert sorted(entry.digests["dice.Die"]) == sorted(str(row.history_id) for row in rows)
    assert entry.written["dice.Die"] == sorted(d.pk for d in dice)
    # The digests are part of what the entry's hash covers.
    assert hashlib.sha256(canonical_bytes(**entry.hashed_fields())).hexdigest() == entry.entry_hash
    assert check_row_digests() == []


def test_reg_20_a_die_and_its_latest_history_row_destroyed_together_in_place_are_named(mc_org):
    die = dice_setup.receive_mc(mc_org, 2)[1]
    latest = HistoricalDie.objects.filter(id=die.pk).latest("history_id")
    entry = sealing_entry(die)
    with triggers_bypassed():
        run_sql("UPDATE dice_die SET status = 'destroyed' WHERE id = %s", [die.pk])
        run_sql("UPDATE dice_historicaldie SET status = 'destroyed' WHERE history_id = %s", [latest.history_id])
    assert check_state(Die, HistoricalDie) is None  # the object agrees with its history…
    assert verify_register(entry.register) is None  # …and the chain is untouched
    (finding,) = check_row_digests()  # …but the history row is not the one the entry sealed
    assert (finding.model, finding.pk, finding.history_id, finding.code) == (
        "dice.Die",
        die.pk,
        latest.history_id,
        "row_digest",
    )
    assert f"{entry.register.number} n° {entry.seq}" in finding.reason
    out = io.StringIO()
    with pytest.raises(CommandError, match=f"dice.Die #{die.pk}"):
        call_command("verify_ledgers", stdout=out)
    assert f"ÉCHEC\tdice.Die #{die.pk} : historique n° {latest.history_id} modifié" in out.getvalue()


def test_reg_20_a_sealed_history_row_deleted_is_named(mc_org):
    die = dice_setup.receive_mc(mc_org, 1)[0]
    latest = HistoricalDie.objects.filter(id=die.pk).latest("history_id")
    with triggers_bypassed():
        run_sql("DELETE FROM dice_historicaldie WHERE history_id = %s", [latest.history_id])
    (finding,) = check_row_digests()
    assert (finding.model, finding.history_id) == ("dice.Die", latest.history_id)
    assert "disparu" in finding.reason


def test_reg_20_digests_rewritten_with_the_row_break_the_chain(mc_org):
    """Whoever rewrites the digest to match the changed row changes the entry's hashed content."""
    die = dice_setup.receive_mc(mc_org, 1)[0]
    entry = sealing_entry(die)
    entry.digests["dice.Die"] = {hid: "0" * 64 for hid in entry.digests["dice.Die"]}
    with triggers_bypassed():
        run_sql("UPDATE registers_entry SET digests = %s WHERE id = %s", [json.dumps(entry.digests), entry.pk])
    assert verify_register(entry.register).code == "entry_hash"


def test_reg_20_entries_of_format_2_and_3_verify_side_by_side_offline(mc_org, tmp_path):
    """An entry without digests (format 2, as written before) still verifies, in the database and
    in the auditor's script."""
    die = dice_setup.receive_mc(mc_org, 1)[0]
    entry = sealing_entry(die)
    register = entry.register
    first = Entry.objects.get(register=register, seq=1)
    assert first.written is not None
    with triggers_bypassed(), connection.cursor() as cursor:
        # Entry 1 as format 2 wrote it: no digests, hashed without them; the chain re-linked.
        fields = {**first.hashed_fields()}
        fields.pop("digests", None)
        prev = hashlib.sha256(canonical_bytes(**fields)).hexdigest()
        cursor.execute("UPDATE registers_entry SET digests = NULL, entry_hash = %s WHERE id = %s", [prev, first.pk])
        for later in Entry.objects.filter(register=register, seq__gt=1).order_by("seq"):
            later.prev_hash = prev
            prev = hashlib.sha256(canonical_bytes(**later.hashed_fields())).hexdigest()
            cursor.execute(
                "UPDATE registers_entry SET prev_hash = %s, entry_hash = %s WHERE id = %s",
                [later.prev_hash, prev, later.pk],
            )
        cursor.execute("UPDATE registers_register SET head_hash = %s WHERE id = %s", [prev, register.pk])
    register.refresh_from_db()
    assert verify_register(register) is None
    path = tmp_path / f"{register.number}.jsonl"
    path.write_text("".join(line + "\n" for line in export_lines(register)), encoding="utf-8")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert "digests" not in json.loads(lines[0]) and "digests" in json.loads(lines[entry.seq - 1])
    script = settings.BASE_DIR / "docs" / "verify_export.py"
    done = subprocess.run([sys.executable, script, path], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    broken = json.loads(lines[entry.seq - 1])
    broken["digests"]["dice.Die"] = {hid: "0" * 64 for hid in broken["digests"]["dice.Die"]}
    lines[entry.seq - 1] = json.dumps(broken, ensure_ascii=False)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    done = subprocess.run([sys.executable, script, path], capture_output=True, text=True, check=False)
    assert done.returncode != 0 and f"seq {entry.seq}: entry_hash" in done.stdout + done.stderr
