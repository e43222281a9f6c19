"""The tamper suite: every way an owner of the database (triggers off) could rewrite the evidence,
each tried before any sealing and after a signed tree head left the building, and what
``verify_ledgers`` (with ``--tree-head`` once there is one) names. Each act is its own
transaction, as in production, so that rows carry distinct transaction ids.

``None`` marks what nothing but an anchor can show: a consistent rewrite of entries written since
the last seal (docs/ledger-format.md §8)."""

import datetime
import io
import json
import multiprocessing
import os

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import override_settings
from django.utils import timezone

import tests.dice.conftest as dice_setup
import tests.registers.test_cosignatures as cosigning
from ledgers.dice.models import Die, HistoricalDie
from ledgers.registers import evidence, integrity, verification
from ledgers.registers.checkpoints import checkpoint_mac
from ledgers.registers.digests import stored_digests
from ledgers.registers.integrity import check_entry_actors
from ledgers.registers.management.commands import verify_ledgers
from ledgers.registers.models import Checkpoint, Cosignature, Entry, Register, TreeHead
from ledgers.registers.services import entry_append, visa_sign
from ledgers.registers.verification import _rows, snapshot, verify_in_snapshot, verify_whole
from tests.registers.conftest import opened_register, staff_for
from tests.registers.test_chain_properties import run_sql
from tests.registers.test_evidence import rewrite, truncate

mc_org = dice_setup.mc_org
witness, witness_db = cosigning.witness, cosigning.witness_db  # the regulator's, a server of its own

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]


def write(register, staff, count: int) -> None:
    for n in range(count):  # one transaction each
        entry_append(register=register, actor=staff.writer, role=staff.writer_role, payload={"n": n})


def forge_entry(register, seq: int, *, txid_of: int | None = None) -> None:
    """Insert an entry at ``seq`` with the triggers off (its transaction id NULL, or copied from
    entry ``txid_of``), then re-hash from it and move the head: a consistent chain."""
    model = Entry.objects.get(register=register, seq=1)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT ledgers_txid FROM registers_entry WHERE register_id = %s AND seq = %s", [register.pk, txid_of or 1]
        )
        txid = cursor.fetchone()[0] if txid_of else None
    run_sql(
        "INSERT INTO registers_entry (register_id, seq, recorded_at, actor, actor_user_id, role, kind, payload, "
        "prev_hash, entry_hash, ledgers_txid) VALUES (%s, %s, now(), %s, %s, %s, 'record', '{}', '', '', %s)",
        [register.pk, seq, model.actor, model.actor_user_id, model.role, txid],
    )
    rewrite(register, seq, {"forged": True})


def shift_up(register, start: int) -> None:
    run_sql("UPDATE registers_entry SET seq = seq + 1000 WHERE register_id = %s AND seq >= %s", [register.pk, start])
    run_sql("UPDATE registers_entry SET seq = seq - 999 WHERE register_id = %s AND seq >= 1000", [register.pk])


def swap(register, a: int, b: int) -> None:
    """Exchange the contents of two entries and re-hash consistently from the first."""
    first, second = (Entry.objects.get(register=register, seq=s).payload for s in (a, b))
    rewrite(register, a, second)
    rewrite(register, b, first)


def forge_history(die: Die, *, entry: Entry | None = None) -> int:
    """Move a die behind the services and forge the history row that matches: stamped with the
    transaction of the die's latest real act, two hours after it; or with the transaction and the
    time of ``entry``, an act on something else. Returns the forged row's history id."""
    latest = HistoricalDie.objects.filter(id=die.pk).latest("history_id")
    run_sql("UPDATE dice_die SET status = 'destroyed' WHERE id = %s", [die.pk])
    source = (
        ("SELECT ledgers_txid FROM registers_entry WHERE id = %s", entry.pk)
        if entry
        else ("SELECT ledgers_txid FROM dice_historicaldie WHERE history_id = %s", latest.pk)
    )
    with connection.cursor() as cursor:
        cursor.execute(source[0], [source[1]])
        (txid,) = cursor.fetchone()
    at = entry.recorded_at if entry else timezone.now() + datetime.timedelta(hours=2)
    columns = [f.column for f in HistoricalDie._meta.concrete_fields if f.column != "history_id"]
    values = ", ".join("'destroyed'" if c == "status" else "%s" if c == "history_date" else f'"{c}"' for c in columns)
    run_sql(
        f"INSERT INTO dice_historicaldie ({', '.join(map(connection.ops.quote_name, columns))}, ledgers_txid) "
        f"SELECT {values}, %s FROM dice_historicaldie WHERE history_id = %s",
        [at, txid, latest.pk],
    )
    return HistoricalDie.objects.filter(id=die.pk).latest("history_id").pk


def tamper(case: str, register, staff, die: Die) -> dict:
    """Do ``case``; what the expected line needs beyond the register and the die."""
    if case == "edit":
        run_sql("UPDATE registers_entry SET payload = '{\"n\": 99}' WHERE register_id = %s AND seq = 3", [register.pk])
    elif case == "delete":
        run_sql("DELETE FROM registers_entry WHERE register_id = %s AND seq = 3", [register.pk])
    elif case == "insert":
        shift_up(register, 7)
        forge_entry(register, 7)
    elif case == "reorder":
        swap(register, 7, 8)
    elif case == "tail_cut":
        truncate(register, 6)
    elif case == "forged_tail":
        forge_entry(register, register.entries.count() + 1)
    elif case == "forged_tail_copied_txid":
        forge_entry(register, register.entries.count() + 1, txid_of=2)
    elif case == "visa_signer":
        run_sql(
            "UPDATE registers_entry SET actor_user_id = %s WHERE register_id = %s AND seq = 6",
            [staff.writer.pk, register.pk],
        )
    elif case == "history_forged":
        forge_history(die)
    elif case == "history_forged_other_object":
        # A real act of the same hour that never touched the die: a line of the main courante.
        return {"hid": forge_history(die, entry=Entry.objects.get(register=register, seq=2))}
    elif case == "history_deleted":
        run_sql("DELETE FROM dice_historicaldie WHERE id = %s", [die.pk])
    elif case == "checkpoints_deleted":
        run_sql("DELETE FROM registers_checkpoint WHERE register_id = %s", [register.pk])
        truncate(register, 6)
    return {}


def scene(mc_org, user_in):
    """A die received, and a register of 8 entries whose 6th is a visa of the 5 before it."""
    staff = staff_for(mc_org.est, user_in)
    die = dice_setup.receive_mc(mc_org, 1)[0]
    register = opened_register(mc_org.est, staff)
    write(register, staff, 4)
    visa_sign(register=register, actor=staff.visa, up_to_seq=5, statement="")
    write(register, staff, 2)
    return staff, die, register


# case: (before any seal, after a tree head left the building); each the start of the ÉCHEC line,
# with {r} the register's number and {die} the die's pk.
EXPECTED = {
    "edit": ("{r} n° 3 : l'empreinte ne correspond pas", "{r} n° 3 : l'empreinte ne correspond pas"),
    "delete": ("{r} n° 3 : entrée manquante", "{r} n° 3 : entrée manquante"),
    "insert": ("{r} n° 7 : entrée écrite les déclencheurs désactivés", "{r} n° 8 : l'entrée ne correspond plus"),
    "reorder": (None, "{r} n° 8 : l'entrée ne correspond plus"),
    "tail_cut": (None, "{r} n° 7 : la chaîne s'arrête au n° 6"),
    "forged_tail": ("{r} n° 9 : entrée écrite les déclencheurs", "{r} n° 11 : entrée écrite les déclencheurs"),
    "forged_tail_copied_txid": ("{r} n° 9 : entrée marquée d'une transaction", "{r} n° 11 : entrée marquée d'une"),
    "visa_signer": ("{r} n° 6 : le compte de l'auteur", "{r} n° 6 : le compte de l'auteur"),
    "history_forged": ("dice.Die #{die} : historique n°", "dice.Die #{die} : historique n°"),
    "history_forged_other_object": (
        "dice.Die #{die} : historique n° {hid} : aucune entrée de sa transaction ne nomme cet objet",
        "dice.Die #{die} : historique n° {hid} : aucune entrée de sa transaction ne nomme cet objet",
    ),
    "history_deleted": ("dice.Die #{die} : objet sans historique", "dice.Die #{die} : objet sans historique"),
    "checkpoints_deleted": (None, "{r} n° 7 : la chaîne s'arrête au n° 6"),
}


@pytest.mark.parametrize("sealed", [False, True], ids=["before_sealing", "after_sealing"])
@pytest.mark.parametrize("case", list(EXPECTED))
def test_reg_20_every_tampering_is_found_and_located(mc_org, user_in, tmp_path, case, sealed):
    staff, die, register = scene(mc_org, user_in)
    head = tmp_path / "tree-head.json"
    options = []
    if sealed:
        call_command("seal_checkpoints", "--out", str(head), stdout=io.StringIO())
        leaves = {leaf["register"]: leaf["seq"] for leaf in json.loads(head.read_text())["leaves"]}
        assert leaves[register.number] == 8
        options = ["--tree-head", str(head)]
        write(register, staff, 2)
    call_command("verify_ledgers", *options, stdout=io.StringIO())  # sound before the attack
    register.refresh_from_db()
    located = tamper(case, register, staff, die)
    expected = EXPECTED[case][sealed]
    out = io.StringIO()
    if expected is None:
        call_command("verify_ledgers", *options, stdout=out)
        return
    with pytest.raises(CommandError):
        call_command("verify_ledgers", *options, stdout=out)
    failures = [line for line in out.getvalue().splitlines() if line.startswith("ÉCHEC")]
    assert any(
        line.startswith(f"ÉCHEC\t{expected.format(r=register.number, die=die.pk, **located)}") for line in failures
    ), failures


def registers_edited_cut_and_sound(mc_org, user_in) -> tuple[Register, Register, Register]:
    """Three registers: one with its 3rd entry edited, one with it deleted, one untouched."""
    staff, die, edited = scene(mc_org, user_in)
    cut, sound = (opened_register(mc_org.est, staff, qualifier=q) for q in ("B", "C"))
    for register in (cut, sound):
        write(register, staff, 5)
    tamper("edit", edited, staff, die)
    tamper("delete", cut, staff, die)
    return edited, cut, sound


@pytest.mark.parametrize("server_side", [True, False], ids=["server_cursor", "pooler_without_one"])
def test_reg_20_the_registers_read_in_one_scan_find_what_each_one_read_alone_finds(
    mc_org, user_in, monkeypatch, server_side
):
    """verify_ledgers reads every register's entries in one scan, the next rows fetched by a thread
    while it hashes (read at once by a plain cursor where the pooler keeps no server-side one):
    each register's finding is the one its own verification gives."""
    monkeypatch.setitem(connection.settings_dict, "DISABLE_SERVER_SIDE_CURSORS", not server_side)
    edited, cut, sound = registers_edited_cut_and_sound(mc_org, user_in)
    registers = list(Register.objects.order_by("-number"))
    with snapshot():
        together = {register.number: finding for register, finding in verify_whole(registers, {})}
        alone = {register.number: verify_in_snapshot(register) for register in registers}
    assert list(together) == [register.number for register in registers]
    assert together == alone
    assert (together[edited.number].seq, together[edited.number].code) == (3, "entry_hash")
    assert (together[cut.number].seq, together[cut.number].code) == (3, "missing")
    assert together[sound.number] is None


def test_reg_20_registers_walked_by_a_second_process_give_what_one_process_finds(mc_org, user_in, monkeypatch):
    """Above ``ELSEWHERE_FROM`` entries a forked process reads the seals of about half the registers
    and walks them in the exported snapshot: the findings and the history digests gathered are
    those of one walk."""
    edited, cut, sound = registers_edited_cut_and_sound(mc_org, user_in)
    staff = staff_for(mc_org.est, user_in)
    forged = opened_register(mc_org.est, staff, qualifier="D")
    write(forged, staff, 3)
    entry = Entry.objects.get(register=forged, seq=3)
    fields = {"seq": 3, "entry_hash": entry.entry_hash, "created_at": entry.recorded_at}
    Checkpoint.objects.create(
        register=forged, mac=checkpoint_mac(b"guessed", register=forged.number, **fields), **fields
    )
    registers = list(Register.objects.order_by("-number"))
    monkeypatch.setattr(verification, "ELSEWHERE_FROM", 0)
    with snapshot(shared=True) as exported:
        assert verification._part_elsewhere(registers)
        with monkeypatch.context() as pool:  # a worker pool's process may not have children
            pool.setattr(multiprocessing.current_process(), "daemon", True)
            assert verification._part_elsewhere(registers) == []
        gathered_there, gathered_here = {}, {}
        walked = dict(verify_whole(registers, {}, gathered=gathered_there, exported=exported))
        alone = dict(verify_whole(registers, {}, gathered=gathered_here))
    assert list(walked) == registers
    assert walked == alone
    assert (walked[edited].seq, walked[edited].code) == (3, "entry_hash")
    assert (walked[cut].seq, walked[cut].code) == (3, "missing")
    assert walked[sound] is None
    assert (walked[forged].seq, walked[forged].code) == (3, "checkpoint_mac")
    assert gathered_there == gathered_here and gathered_here


def test_reg_20_verify_ledgers_reports_the_same_with_a_second_walk_and_the_checks_beside(mc_org, user_in, monkeypatch):
    staff, die, edited = scene(mc_org, user_in)
    write(opened_register(mc_org.est, staff, qualifier="B"), staff, 5)
    tamper("edit", edited, staff, die)
    tamper("history_forged", edited, staff, die)
    reports = []
    for elsewhere_from in (10**9, 0):
        monkeypatch.setattr(verification, "ELSEWHERE_FROM", elsewhere_from)
        with pytest.raises(CommandError, match=f"{edited.number} n° 3"):
            call_command("verify_ledgers", stdout=(out := io.StringIO()))
        reports.append(out.getvalue())
    assert reports[0] == reports[1]
    assert f"dice.Die #{die.pk} : historique n°" in reports[0]


@pytest.mark.parametrize("ending", ["raises", "dies"])
def test_a_second_walk_that_fails_is_an_error_of_the_verification(mc_org, user_in, monkeypatch, ending):
    scene(mc_org, user_in)
    registers = list(Register.objects.all())
    parent, walks = os.getpid(), verification._walks

    def failing(*args):
        if os.getpid() != parent:
            if ending == "dies":
                os._exit(3)
            raise ValueError("no disk left")
        return walks(*args)

    monkeypatch.setattr(verification, "ELSEWHERE_FROM", 0)
    monkeypatch.setattr(verification, "_walks", failing)
    expected = "no disk left" if ending == "raises" else r"ended without an answer \(3\)"
    with snapshot(shared=True) as exported, pytest.raises((ValueError, RuntimeError), match=expected):
        dict(verify_whole(registers, {}, exported=exported))
    assert Entry.objects.count() > 0  # the connection is the caller's still


def test_the_checks_that_read_the_entries_share_one_read_of_them(mc_org, user_in, monkeypatch):
    """The transaction, run, author and history-time checks of a full run read the entries once."""
    scene(mc_org, user_in)
    scans, scan = [], evidence.scan_entries

    def counted(*args):
        scans.append(args)
        return scan(*args)

    for module in (evidence, integrity, verify_ledgers):
        monkeypatch.setattr(module, "scan_entries", counted)
    call_command("verify_ledgers", stdout=(out := io.StringIO()))
    assert len(scans) == 1
    assert all(f"OK\t{name}" in out.getvalue() for name in ("transactions", "entry transactions", "history times"))


def test_reg_20_an_entry_without_its_authors_account_and_one_with_anothers_are_named(mc_org, user_in):
    """An entry without an account that is not the system's, and one whose account is not the
    author its hash seals: the second is named first, whatever their order."""
    staff, _die, register = scene(mc_org, user_in)
    run_sql("UPDATE registers_entry SET actor_user_id = NULL WHERE register_id = %s AND seq = 2", [register.pk])
    unmarked = check_entry_actors()
    assert (unmarked.register, unmarked.seq, unmarked.code) == (register.number, 2, "actor_user")
    assert "sans compte d'auteur" in unmarked.reason
    run_sql(
        "UPDATE registers_entry SET actor_user_id = %s WHERE register_id = %s AND seq = 4",
        [staff.visa.pk, register.pk],
    )
    alien = check_entry_actors()
    assert (alien.register, alien.seq, alien.code) == (register.number, 4, "actor_user")
    assert "n'est pas l'auteur scellé" in alien.reason


def test_reg_20_a_scan_stopped_at_a_finding_leaves_the_connection_to_the_next_query(mc_org, user_in):
    _staff, _die, register = scene(mc_org, user_in)
    with snapshot():
        rows = _rows(register, fetch=2)
        assert [next(rows)[0] for _ in range(3)] == [1, 2, 3]
        rows.close()
        assert Entry.objects.filter(register=register).count() == 8


# The tamperings that verify_ledgers cannot see in the database alone (None above), done by an
# insider who also holds the signing key and seals the register anew from scratch afterwards:
# the witness still serves the head of 8 entries it cosigned.
AGAINST_THE_WITNESS = {
    "reorder": "la tête de 8 entrées cosignée par regulator.example/witness n'est plus celle du registre",
    "tail_cut": "regulator.example/witness a cosigné 8 entrées, le registre en a moins",
    "checkpoints_deleted": "regulator.example/witness a cosigné 8 entrées, le registre en a moins",
}


@pytest.mark.parametrize("case", list(AGAINST_THE_WITNESS))
def test_reg_20_a_tampering_re_sealed_with_the_key_is_found_against_the_witness(mc_org, user_in, witness, case):
    staff, die, register = scene(mc_org, user_in)
    call_command("seal_checkpoints", stdout=io.StringIO())
    assert Cosignature.objects.filter(checkpoint__register=register, checkpoint__seq=8).exists()
    write(register, staff, 2)
    register.refresh_from_db()
    tamper(case, register, staff, die)
    cosigning.reseal_from_scratch(register)
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_ledgers", stdout=out)
    failures = [line for line in out.getvalue().splitlines() if line.startswith("ÉCHEC")]
    assert f"ÉCHEC\t{register.number} n° 8 : {AGAINST_THE_WITNESS[case]}" in "\n".join(failures), failures


def test_reg_20_a_die_and_its_history_row_changed_in_place_and_re_sealed_are_found_outside(mc_org, witness, tmp_path):
    """The whole rewrite: the die and its latest history row destroyed in place, the digest the
    entry sealed made to match, the chain re-hashed from that entry and the register sealed anew
    with the key. The database alone verifies; the tree head kept outside and the witness's
    cosigned head do not."""
    die = dice_setup.receive_mc(mc_org, 1)[0]
    head = tmp_path / "tree-head.json"
    call_command("seal_checkpoints", "--out", str(head), stdout=io.StringIO())  # every register cosigned
    entry = Entry.objects.filter(digests__has_key="dice.Die").order_by("-id").first()
    cosigned = Cosignature.objects.get(checkpoint__register=entry.register).checkpoint.seq
    hid = HistoricalDie.objects.filter(id=die.pk).latest("history_id").history_id
    run_sql("UPDATE dice_die SET status = 'destroyed' WHERE id = %s", [die.pk])
    run_sql("UPDATE dice_historicaldie SET status = 'destroyed' WHERE history_id = %s", [hid])
    entry.digests["dice.Die"][str(hid)] = stored_digests("dice.Die", [hid])[hid][1]
    run_sql("UPDATE registers_entry SET digests = %s WHERE id = %s", [json.dumps(entry.digests), entry.pk])
    rewrite(entry.register, entry.seq, entry.payload)
    cosigning.reseal_from_scratch(entry.register)
    with override_settings(LEDGERS_WITNESSES=[]):
        call_command("verify_ledgers", stdout=io.StringIO())  # the database alone is consistent
        with pytest.raises(CommandError):
            call_command("verify_ledgers", "--tree-head", str(head), stdout=(kept := io.StringIO()))
        assert "absente de la base ou différente" in kept.getvalue(), kept.getvalue()
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_ledgers", stdout=out)
    assert (
        f"ÉCHEC\t{entry.register.number} n° {cosigned} : la tête de {cosigned} entrées cosignée par "
        "regulator.example/witness n'est plus celle du registre (réécrit)" in out.getvalue()
    ), out.getvalue()


def test_reg_20_a_tree_head_that_left_the_building_shows_its_deleted_successors(mc_org, user_in, tmp_path):
    """Checkpoint rows and the tree head itself deleted, the tail cut: only the file still knows."""
    staff = staff_for(mc_org.est, user_in)
    register = opened_register(mc_org.est, staff)
    write(register, staff, 7)
    head = tmp_path / "tree-head.json"
    call_command("seal_checkpoints", "--out", str(head), stdout=io.StringIO())
    run_sql("DELETE FROM registers_treehead", [])
    run_sql("DELETE FROM registers_checkpoint", [])
    truncate(register, 6)
    call_command("verify_ledgers", "--chain-only", stdout=io.StringIO())  # the database alone is consistent
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_ledgers", "--chain-only", "--tree-head", str(head), stdout=out)
    text = out.getvalue()
    assert f"ÉCHEC\t{register.number} n° 7 : la chaîne s'arrête au n° 6" in text
    assert "absente de la base ou différente" in text
    assert not Checkpoint.objects.exists() and not TreeHead.objects.exists()
