"""Evidence beyond the chain: sealed checkpoints and earlier exports catch what a moved register
head hides (tail truncation, consistent rewrites), and the objects are held to their history and
their history to the entries. The attacker is simulated in SQL: the application's role moves the
head and updates domain rows (it may), the owner rewrites entries with the triggers off."""

import datetime
import hashlib
import io
import json
import logging
import subprocess
import sys
import threading
import time

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.test import override_settings
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

import tests.dice.conftest as dice_setup
from ledgers.authority.models import ApprovedBanker
from ledgers.authority.registers import BANKERS
from ledgers.authority.services import banker_approve, banker_withdraw
from ledgers.core.authz import save_audited
from ledgers.core.models import Seance, TableSession
from ledgers.core.roles import Role
from ledgers.core.services import (
    establishment_setting_change,
    seance_close,
    seance_open,
    table_session_open,
    table_session_prepare,
)
from ledgers.dice.models import Die, HistoricalDie
from ledgers.registers.chain import GENESIS_HASH, canonical_bytes
from ledgers.registers.checkpoints import checkpoint_key, checkpoint_mac
from ledgers.registers.evidence import CREATION_EXEMPT, EXEMPT, check_state, check_transactions, tracked_models
from ledgers.registers.integrity import check_history_times
from ledgers.registers.kinds import AUTHORISATIONS
from ledgers.registers.models import Checkpoint, Entry, Register
from ledgers.registers.services import checkpoints_seal, entries_bulk_append, entry_append, register_close
from ledgers.registers.signing import load_private, raw_public
from ledgers.registers.tasks import checkpoints_seal_task
from ledgers.registers.verification import (
    Finding,
    beside,
    export_lines,
    scan,
    snapshot,
    verify_against_export,
    verify_register,
)
from tests.factories import open_register, open_seance_registers, set_up_table
from tests.registers.conftest import opened_register, triggers_bypassed
from tests.registers.test_chain_properties import PROPERTY_SETTINGS, run_sql

mc_org = dice_setup.mc_org  # the dice fixture: a Monaco casino with depots and dice registers


def move_head(register, seq: int, digest: str) -> None:
    """What the application's role may do: the register row is writable."""
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE registers_register SET head_seq = %s, head_hash = %s WHERE id = %s", [seq, digest, register.pk]
        )


def truncate(register, keep: int) -> None:
    """The owner removes every entry after ``keep`` and moves the head back to it."""
    run_sql("DELETE FROM registers_entry WHERE register_id = %s AND seq > %s", [register.pk, keep])
    move_head(register, keep, Entry.objects.get(register=register, seq=keep).entry_hash)


def rewrite(register, start: int, payload: dict) -> None:
    """The owner gives entry ``start`` another payload and re-hashes every entry from it on, so
    that the chain and the head are consistent again."""
    rows = list(scan(register))
    prev = rows[start - 2]["entry_hash"] if start > 1 else GENESIS_HASH
    with triggers_bypassed(), connection.cursor() as cursor:
        for row in rows[start - 1 :]:
            row.pop("entry_hash")
            row["prev_hash"] = prev
            if row["seq"] == start:
                row["payload"] = payload
            prev = hashlib.sha256(canonical_bytes(**row)).hexdigest()
            cursor.execute(
                "UPDATE registers_entry SET payload = %s::jsonb, prev_hash = %s, entry_hash = %s "
                "WHERE register_id = %s AND seq = %s",
                [json.dumps(row["payload"]), row["prev_hash"], prev, register.pk, row["seq"]],
            )
    move_head(register, rows[-1]["seq"], prev)


def append(register, staff, count: int) -> None:
    entries_bulk_append(
        register=register, actor=staff.writer, role=staff.writer_role, payloads=[{"n": i} for i in range(count)]
    )


def sealed_one(register) -> Checkpoint:
    results = checkpoints_seal()
    assert all(not isinstance(r, Finding) for r in results), results
    return Checkpoint.objects.filter(register=register).latest("seq")


# --- checkpoints ---------------------------------------------------------------------------------


@pytest.mark.django_db
@PROPERTY_SETTINGS
@given(
    before=st.integers(0, 8), after=st.integers(0, 5), attack=st.sampled_from(["truncate", "rewrite"]), data=st.data()
)
def test_reg_20_truncation_or_consistent_rewrite_under_a_checkpoint_is_detected(
    mc, mc_staff, before, after, attack, data
):
    with transaction.atomic():
        register = opened_register(mc, mc_staff)
        append(register, mc_staff, before)
        checkpoint = sealed_one(register)
        assert checkpoint.seq == before + 1
        append(register, mc_staff, after)
        if attack == "truncate":
            keep = data.draw(st.integers(1, checkpoint.seq - 1), label="kept") if checkpoint.seq > 1 else None
            if keep is None:  # only the opening act is sealed: remove nothing but move the head on
                return transaction.set_rollback(True)
            truncate(register, keep)
            expected = (keep + 1, "checkpoint_missing")
        else:
            start = data.draw(st.integers(1, checkpoint.seq), label="rewritten from")
            rewrite(register, start, {"forged": True})
            expected = (checkpoint.seq, "checkpoint_hash")
        finding = verify_register(register)
        assert finding is not None, f"{attack} went unnoticed"
        assert (finding.register, finding.seq, finding.code) == (register.number, *expected), finding
        # The attack is consistent: without the checkpoint, the chain and the head would verify.
        with triggers_bypassed(Checkpoint._meta.db_table):
            Checkpoint.objects.filter(register=register).delete()
        assert verify_register(register) is None
        transaction.set_rollback(True)


@pytest.mark.django_db
def test_reg_20_a_forged_checkpoint_is_detected(mc_register, mc_staff):
    append(mc_register, mc_staff, 4)
    sealed_one(mc_register)
    truncate(mc_register, 3)
    # The application's role may insert a checkpoint of the truncated chain, but not seal it.
    entry = Entry.objects.get(register=mc_register, seq=3)
    fields = {"seq": 3, "entry_hash": entry.entry_hash, "created_at": entry.recorded_at}
    Checkpoint.objects.create(
        register=mc_register, mac=checkpoint_mac(b"guessed", register=mc_register.number, **fields), **fields
    )
    finding = verify_register(mc_register)
    assert (finding.seq, finding.code) == (3, "checkpoint_mac")
    assert "sceau valide" in finding.reason


def hmac_checkpoint(register, seq: int) -> None:
    """A checkpoint sealed as before signatures, under the HMAC key still configured: valid on its own."""
    entry = Entry.objects.get(register=register, seq=seq)
    fields = {"seq": seq, "entry_hash": entry.entry_hash, "created_at": entry.recorded_at}
    mac = checkpoint_mac(checkpoint_key(), register=register.number, **fields)
    Checkpoint.objects.create(register=register, mac=mac, **fields)


@pytest.mark.django_db
def test_reg_20_an_hmac_checkpoint_after_a_signed_one_is_reported(mc_register, mc_staff):
    append(mc_register, mc_staff, 1)
    hmac_checkpoint(mc_register, 2)  # sealed before signatures
    append(mc_register, mc_staff, 1)
    assert sealed_one(mc_register).seq == 3 and verify_register(mc_register) is None
    append(mc_register, mc_staff, 2)
    # Whoever kept the old HMAC key seals a later head with it.
    hmac_checkpoint(mc_register, 5)
    finding = verify_register(mc_register)
    assert (finding.register, finding.seq, finding.code) == (mc_register.number, 5, "checkpoint_hmac_after_signed")
    with pytest.raises(CommandError, match=f"{mc_register.number} n° 5"):
        call_command("verify_ledgers", mc_register.number, stdout=(text := io.StringIO()))
    assert (
        f"ÉCHEC\t{mc_register.number} n° 5 : le point de contrôle du n° 5 est scellé par HMAC alors que celui du "
        "n° 3 est déjà signé (Ed25519)"
    ) in text.getvalue()


@pytest.mark.django_db
def test_reg_20_a_checkpoint_edited_by_the_owner_no_longer_verifies(mc_register, mc_staff):
    append(mc_register, mc_staff, 2)
    checkpoint = sealed_one(mc_register)
    run_sql("UPDATE registers_checkpoint SET entry_hash = %s WHERE id = %s", ["f" * 64, checkpoint.pk])
    assert (verify_register(mc_register).seq, verify_register(mc_register).code) == (3, "checkpoint_mac")


@pytest.mark.django_db
def test_seal_checkpoints_seals_only_registers_that_moved(mc, mc_staff):
    first, second = opened_register(mc, mc_staff), opened_register(mc, mc_staff)
    append(first, mc_staff, 2)
    out = io.StringIO()
    call_command("seal_checkpoints", stdout=out)
    # The staff's roles, granted by the fixture, are lines of the register of authorisations.
    lines = sorted(line for line in out.getvalue().splitlines() if "-HABILITATIONS-" not in line)
    assert [line.split("\t")[:3] for line in lines] == [
        ["ARBRE", mc.code, "1"],
        ["SCELLÉ", first.number, "3"],
        ["SCELLÉ", second.number, "1"],
    ]
    assert checkpoints_seal() == []  # nothing moved since
    append(second, mc_staff, 1)
    assert [(c.register_id, c.seq) for c in checkpoints_seal()] == [(second.pk, 2)]
    assert verify_register(first) is None and verify_register(second) is None


@pytest.mark.django_db
def test_reg_20_seal_checkpoints_refuses_a_register_that_does_not_verify(mc, mc_staff):
    good, bad = opened_register(mc, mc_staff), opened_register(mc, mc_staff)
    for register in (good, bad):
        append(register, mc_staff, 2)
    run_sql("UPDATE registers_entry SET actor = 'x' WHERE register_id = %s AND seq = 2", [bad.pk])
    out = io.StringIO()
    with pytest.raises(CommandError, match=f"{bad.number} n° 2"):
        call_command("seal_checkpoints", stdout=out)
    assert f"ÉCHEC\t{bad.number} n° 2 : l'empreinte ne correspond pas au contenu de l'entrée" in out.getvalue()
    sealed = Checkpoint.objects.exclude(register__kind=AUTHORISATIONS.code).values_list("register_id", flat=True)
    assert list(sealed) == [good.pk]


@pytest.mark.django_db
def test_the_daily_task_seals_and_logs_each_checkpoint(mc_register, mc_staff, caplog):
    append(mc_register, mc_staff, 1)
    with caplog.at_level(logging.INFO, logger="ledgers.checkpoints"):
        checkpoints_seal_task.delay()
    checkpoint = Checkpoint.objects.get(register=mc_register)
    assert (
        f"sealed {mc_register.number} 2 {checkpoint.entry_hash} {checkpoint.key_id} {checkpoint.signature}"
        in caplog.messages
    )
    assert any(message.startswith(f"tree head {mc_register.establishment.code} 1 ") for message in caplog.messages)


@pytest.mark.django_db
def test_sealing_needs_the_private_key_and_verifying_only_the_public_keys(mc_register, mc_staff):
    append(mc_register, mc_staff, 1)
    with override_settings(LEDGERS_SIGNING_KEY=""):
        with pytest.raises(ImproperlyConfigured, match="LEDGERS_SIGNING_KEY"):
            checkpoints_seal()
        with pytest.raises(CommandError, match="LEDGERS_SIGNING_KEY or LEDGERS_SIGNING_KEY_FILE must be set"):
            call_command("seal_checkpoints", stdout=io.StringIO())
    sealed_one(mc_register)
    public = raw_public(load_private(settings.LEDGERS_SIGNING_KEY).public_key()).hex()
    with override_settings(LEDGERS_SIGNING_KEY="", LEDGERS_PUBLIC_KEYS=[public]):
        assert verify_register(mc_register) is None
    with override_settings(LEDGERS_SIGNING_KEY="", LEDGERS_PUBLIC_KEYS=[]):
        assert verify_register(mc_register).code == "checkpoint_mac"  # an unknown key does not verify


# --- earlier exports -----------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "attack,expected", [("none", None), ("rewrite", (3, "export_changed")), ("truncate", (4, "export_missing"))]
)
def test_reg_20_an_earlier_export_must_still_be_there(mc_register, mc_staff, attack, expected):
    append(mc_register, mc_staff, 4)
    exported = list(export_lines(mc_register))
    append(mc_register, mc_staff, 2)  # what was appended since is not the export's business
    if attack == "rewrite":
        rewrite(mc_register, 3, {"forged": True})
    elif attack == "truncate":
        truncate(mc_register, 3)
    assert verify_register(mc_register) is None  # the chain alone sees nothing
    finding = verify_against_export(exported)
    assert ((finding.register, finding.seq, finding.code) if finding else None) == (
        (mc_register.number, *expected) if expected else None
    )


@pytest.mark.django_db
def test_an_export_of_an_unknown_register_or_an_unreadable_line(mc_register):
    line = next(export_lines(mc_register))
    assert verify_against_export([line.replace(mc_register.number, "NOPE-001")]).code == "export_register"
    assert verify_against_export([line, "{not json"]).code == "export_format"


@pytest.mark.django_db
def test_verify_ledgers_against_a_directory_of_exports(mc, mc_staff, tmp_path):
    first, _second = opened_register(mc, mc_staff), opened_register(mc, mc_staff)
    append(first, mc_staff, 3)
    call_command("export_register", "--all", "--out", str(tmp_path), stderr=io.StringIO())
    out = io.StringIO()
    call_command("verify_ledgers", "--chain-only", "--against", str(tmp_path), stdout=out)
    assert out.getvalue().count("OK\texport ") == 3  # with the register of authorisations
    rewrite(first, 2, {"forged": True})
    out = io.StringIO()
    with pytest.raises(CommandError, match=f"{first.number} n° 2 : l'entrée diffère de celle de l'export"):
        call_command("verify_ledgers", "--chain-only", "--against", str(tmp_path / f"{first.number}.jsonl"), stdout=out)
    assert f"OK\t{first.number}" in out.getvalue()  # the chain and the head are consistent
    with pytest.raises(CommandError, match="introuvable"):
        call_command("verify_ledgers", "--against", str(tmp_path / "nothing.jsonl"), stdout=io.StringIO())


# --- objects and their history -------------------------------------------------------------------


def test_every_exemption_names_a_tracked_model_and_a_reason():
    labels = {model._meta.label for model, _history in tracked_models()}
    assert set(EXEMPT) <= labels and set(CREATION_EXEMPT) <= labels
    assert not set(EXEMPT) & set(CREATION_EXEMPT)
    assert all(reason for reason, _fields in EXEMPT.values()) and all(CREATION_EXEMPT.values())


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_reg_20_a_volume_is_held_from_its_opening_on(mc, user_in):
    """Its creation needs no entry: its first entry is the authority's opening act, which names the
    volume it opens, as the closing act names it closed; a change behind the services is found."""
    main = open_register(mc, "main_courante")
    assert main.entries.get(seq=1).written == {"registers.Register": [main.pk]}
    register_close(register=main, actor=user_in(mc, Role.DIRECTEUR_JEUX))
    assert main.entries.order_by("-seq").first().written == {"registers.Register": [main.pk]}
    assert check_transactions() == []
    with transaction.atomic():  # the volume reopened behind the services, without an entry
        main.refresh_from_db()
        main.status = Register.Status.OPEN
        save_audited(main, actor=None, reason="hors registre")
    assert [(f.model, f.pk, f.code) for f in check_transactions()] == [("registers.Register", main.pk, "transaction")]


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_reg_20_the_establishment_is_held_from_its_first_setting_on(mc, user_in):
    """Its creation, the set-up before any register, needs no entry; each setting changed later is
    a line of the main courante that names it; one changed behind the services is found."""
    main = open_register(mc, "main_courante")
    director = user_in(mc, Role.DIRECTEUR_JEUX)
    establishment_setting_change(establishment=mc, code="SET-20", value=2, actor=director)
    line = main.entries.order_by("-seq").first()
    assert line.written == {"core.Establishment": [mc.pk]} and line.payload["setting"] == "SET-20"
    assert check_transactions() == []
    with transaction.atomic():  # a setting changed behind the services, without an entry
        mc.refresh_from_db()
        mc.options = {**mc.options, "SET-20": 3}
        save_audited(mc, actor=director, reason="hors registre")
    assert [(f.model, f.pk, f.code) for f in check_transactions()] == [("core.Establishment", mc.pk, "transaction")]


@pytest.mark.django_db
def test_reg_20_a_direct_update_of_a_die_is_reported_with_model_pk_and_field(mc_org):
    die = dice_setup.receive_mc(mc_org, 3)[1]
    assert check_state(Die, HistoricalDie) is None
    with connection.cursor() as cursor:  # the application's role may update a domain row
        cursor.execute("UPDATE dice_die SET location_id = %s WHERE id = %s", [mc_org.annex.pk, die.pk])
    finding = check_state(Die, HistoricalDie)
    assert (finding.model, finding.pk, finding.field, finding.code) == ("dice.Die", die.pk, "location", "state")
    assert str(finding).startswith(f"dice.Die #{die.pk} location : l'état actuel diffère du dernier historique")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "sql,code",
    [
        ("UPDATE dice_die SET status = 'destroyed' WHERE id = %s", "state"),
        ("DELETE FROM dice_die WHERE id = %s", "deleted"),
        ("DELETE FROM dice_historicaldie WHERE id = %s", "no_history"),
    ],
    ids=["status", "row-deleted", "history-deleted"],
)
def test_reg_20_a_die_changed_behind_the_services_is_reported(mc_org, sql, code):
    die = dice_setup.receive_mc(mc_org, 2)[0]
    run_sql(sql, [die.pk])
    finding = check_state(Die, HistoricalDie)
    assert (finding.pk, finding.code) == (die.pk, code)


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_reg_20_a_history_row_without_an_entry_in_its_transaction_is_reported(mc_org):
    """Each service commits its own transaction here, as in production."""
    dice = dice_setup.receive_mc(mc_org, 2)
    assert check_transactions() == []
    die = Die.objects.get(pk=dice[0].pk)
    with transaction.atomic():  # a history row, forged to match an update, without an entry
        die.status = "destroyed"
        save_audited(die, actor=mc_org["cartier"], reason="hors registre")
    assert check_state(Die, HistoricalDie) is None  # state and history agree…
    findings = check_transactions()  # …but no entry shares the history row's transaction
    last = HistoricalDie.objects.filter(id=die.pk).latest("history_id")
    assert [(f.model, f.pk, f.code) for f in findings] == [("dice.Die", die.pk, "transaction")]
    assert f"historique n° {last.history_id} écrit sans entrée de registre" in findings[0].reason


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_reg_20_an_earlier_history_row_deleted_is_found_by_the_entry_that_names_it(mc, user_in):
    """The latest history row is held to the object's state; an earlier one, deleted by the owner
    with the triggers off, is missed by that comparison but not by the entry of its transaction,
    whose hashed ``written`` still names the object."""
    open_register(mc, BANKERS.code)
    director = user_in(mc, Role.DIRECTEUR_JEUX)
    banker = banker_approve(
        establishment=mc,
        actor=director,
        full_name="Jean Banquier",
        birth_date=datetime.date(1970, 5, 1),
        identity_document="Passeport 12AB34",
        approved_on=timezone.localdate(),
    )
    banker_withdraw(banker=banker, actor=director, on=timezone.localdate())
    history = ApprovedBanker.history.model
    approval = history.objects.filter(id=banker.pk).earliest("history_id")
    assert check_transactions() == []
    with triggers_bypassed():
        run_sql("DELETE FROM authority_historicalapprovedbanker WHERE history_id = %s", [approval.history_id])
    assert check_state(ApprovedBanker, history) is None  # the withdrawal, the latest row, still matches
    findings = check_transactions()
    assert [(f.model, f.pk, f.code) for f in findings] == [("authority.ApprovedBanker", banker.pk, "deleted_history")]
    assert "disparu" in findings[0].reason


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_reg_20_seances_and_table_parties_are_held_to_their_entries(mc, user_in):
    """A séance and its table-partie, from opening to closing, each act in its own transaction:
    every history row is named by its act's entry; a change of either behind the services is found."""
    open_seance_registers(mc)
    director = user_in(mc, Role.DIRECTEUR_JEUX)
    seance = seance_open(establishment=mc, date=timezone.localdate(), period="soiree", actor=director)
    table = set_up_table(mc, "BJ1", "blackjack")
    session = table_session_prepare(seance=seance, table=table, actor=director)
    session = table_session_open(session=session, actor=director)
    seance_close(seance=seance, actor=director)
    assert check_transactions() == []
    with transaction.atomic():  # history rows forged to match a reopening, without an entry
        seance.status, session.status = Seance.Status.OPEN, TableSession.Status.OPEN
        save_audited(seance, actor=director, reason="hors registre")
        save_audited(session, actor=director, reason="hors registre")
    assert [(f.model, f.pk, f.code) for f in check_transactions()] == [
        ("core.Seance", seance.pk, "transaction"),
        ("core.TableSession", session.pk, "transaction"),
    ]


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_reg_20_a_forged_history_row_of_an_object_that_keeps_its_entry_is_named(mc, user_in):
    """An approved banker keeps its entry's number, yet is saved before that entry, which names it:
    a change behind the services, with its history row stamped with the transaction of another
    banker's approval, is found (no entry of that transaction names the first banker)."""
    open_register(mc, BANKERS.code)
    director = user_in(mc, Role.DIRECTEUR_JEUX)
    first, second = [
        banker_approve(
            establishment=mc,
            actor=director,
            full_name=name,
            birth_date=datetime.date(1970, 5, 1),
            identity_document="Passeport 12AB34",
            approved_on=timezone.localdate(),
        )
        for name in ("Jean Banquier", "Paul Banquier")
    ]
    banker_withdraw(banker=second, actor=director, on=timezone.localdate())
    assert check_transactions() == []  # approvals and withdrawal: each history row named by its entry
    with connection.cursor() as cursor:
        cursor.execute("SELECT ledgers_txid FROM registers_entry WHERE id = %s", [Entry.objects.latest("pk").pk])
        (txid,) = cursor.fetchone()
    history = ApprovedBanker.history.model
    latest = history.objects.filter(id=first.pk).latest("history_id")
    run_sql("UPDATE authority_approvedbanker SET withdrawn_on = %s WHERE id = %s", [timezone.localdate(), first.pk])
    columns = [f.column for f in history._meta.concrete_fields if f.column != "history_id"]
    values = ", ".join("%s" if c == "withdrawn_on" else connection.ops.quote_name(c) for c in columns)
    run_sql(
        f"INSERT INTO authority_historicalapprovedbanker ({', '.join(map(connection.ops.quote_name, columns))}, "
        f"ledgers_txid) SELECT {values}, %s FROM authority_historicalapprovedbanker WHERE history_id = %s",
        [timezone.localdate(), txid, latest.pk],
    )
    assert check_state(ApprovedBanker, history) is None  # state and history agree…
    forged = history.objects.filter(id=first.pk).latest("history_id")
    assert [(f.model, f.pk, f.code, f.history_id) for f in check_transactions()] == [
        ("authority.ApprovedBanker", first.pk, "unnamed", forged.history_id)
    ]


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_reg_20_a_history_row_dated_outside_its_transactions_entries_is_reported(mc, user_in):
    """A history row forged later with the transaction id of a real act is dated outside the time
    of that act's entries."""
    open_register(mc, BANKERS.code)
    banker = banker_approve(
        establishment=mc,
        actor=user_in(mc, Role.DIRECTEUR_JEUX),
        full_name="Jean Banquier",
        birth_date=datetime.date(1970, 5, 1),
        identity_document="Passeport 12AB34",
        approved_on=timezone.localdate(),
    )
    assert check_history_times() is None
    history = ApprovedBanker.history.model
    latest = history.objects.filter(id=banker.pk).latest("history_id")
    columns = [*(f.column for f in history._meta.concrete_fields if f.column != "history_id"), "ledgers_txid"]
    values = ", ".join(
        "history_date + interval '2 hours'" if c == "history_date" else connection.ops.quote_name(c) for c in columns
    )
    run_sql(
        f"INSERT INTO authority_historicalapprovedbanker ({', '.join(map(connection.ops.quote_name, columns))}) "
        f"SELECT {values} FROM authority_historicalapprovedbanker WHERE history_id = %s",
        [latest.pk],
    )
    forged = history.objects.filter(id=banker.pk).latest("history_id")
    finding = check_history_times()
    assert (finding.model, finding.pk, finding.code) == ("authority.ApprovedBanker", banker.pk, "history_time")
    assert f"n° {forged.history_id}" in finding.reason


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_reg_20_a_clean_set_of_registers_and_objects_verifies(mc_org, mc_staff):
    register = opened_register(mc_org.est, mc_staff)
    for i in range(3):
        entry_append(register=register, actor=mc_staff.writer, role=mc_staff.writer_role, payload={"i": i})
    session = dice_setup.open_table(mc_org, dice_setup.allocate_mc(mc_org, mc_org.session()).table_session)
    assert session.status == "open"
    checkpoints_seal()
    out = io.StringIO()
    call_command("verify_ledgers", stdout=out)
    lines = out.getvalue().splitlines()
    assert all(line.startswith("OK\t") for line in lines), lines
    checked = ("dice.Die", "cards.CardUnit", "registers.Register", "transactions")
    assert {f"OK\t{label}" for label in checked} <= set(lines)
    assert Checkpoint.objects.count() == Entry.objects.values("register").distinct().count()


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_verify_ledgers_names_the_first_bad_object(mc_org):
    die = dice_setup.receive_mc(mc_org, 1)[0]
    with connection.cursor() as cursor:
        cursor.execute("UPDATE dice_die SET location_id = %s WHERE id = %s", [mc_org.annex.pk, die.pk])
    out = io.StringIO()
    with pytest.raises(CommandError, match=f"dice.Die #{die.pk} location"):
        call_command("verify_ledgers", stdout=out)
    assert f"ÉCHEC\tdice.Die #{die.pk} location" in out.getvalue()
    call_command("verify_ledgers", "--chain-only", stdout=io.StringIO())  # the registers themselves are sound


def _seen() -> tuple[int, int]:
    """(the backend serving this thread, the sessions it sees)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid(), (SELECT count(*) FROM django_session)")
        return cursor.fetchone()


def _others() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        return cursor.fetchone()[0]


def _others_back_to(connected: int) -> int:
    """The connections to this database once a closed one's server process has ended: it ends a
    moment after its client closes it (five seconds at most)."""
    for _ in range(50):
        if (now := _others()) == connected:
            return now
        time.sleep(0.1)
    return now


def _session_committed_elsewhere() -> None:
    def write() -> None:
        try:
            with connection.cursor() as cursor:  # this thread's connection, in autocommit
                cursor.execute("INSERT INTO django_session VALUES (md5(random()::text), '', now())")
        finally:
            connection.close()

    thread = threading.Thread(target=write)
    thread.start()
    thread.join()


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_checks_beside_the_walk_read_its_snapshot_on_a_connection_of_their_own():
    """The object and row checks run on a second connection while the chains are walked: in the
    snapshot the walk reads, not seeing what was committed after it, and that connection is closed
    when they end."""
    connected = _others()
    with snapshot(shared=True) as exported:
        mine, before = _seen()
        _session_committed_elsewhere()
        theirs, seen = beside(_seen, exported)()
        assert _seen() == (mine, before)
    assert exported and theirs != mine
    assert seen == before
    assert _seen()[1] == before + 1
    assert _others_back_to(connected) == connected


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_an_error_beside_the_walk_is_raised_in_the_caller():
    connected = _others()
    with snapshot(shared=True) as exported:
        waiting = beside(lambda: 1 / 0, exported)
        with pytest.raises(ZeroDivisionError):
            waiting()
    assert _others_back_to(connected) == connected


@pytest.mark.postgresql
@pytest.mark.django_db
def test_checks_beside_the_walk_run_in_order_inside_the_callers_transaction():
    """Another connection would not see the caller's uncommitted writes: no snapshot is exported,
    and the checks run on the caller's connection, in its transaction, when their result is asked
    for."""
    with snapshot(shared=True) as exported:
        waiting = beside(_seen, exported)
        mine, before = _seen()
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO django_session VALUES (md5(random()::text), '', now())")
        assert waiting() == (mine, before + 1)
    assert exported is None


@pytest.mark.postgresql
@pytest.mark.django_db
def test_every_ledger_row_is_stamped_with_its_transaction(mc_register, mc_staff):
    entry_append(register=mc_register, actor=mc_staff.writer, role=mc_staff.writer_role, payload={"a": 1})
    append(mc_register, mc_staff, 3)  # COPY
    with connection.cursor() as cursor:
        cursor.execute("SELECT txid_current()")
        txid = cursor.fetchone()[0]
        cursor.execute("SELECT DISTINCT ledgers_txid FROM registers_entry WHERE register_id = %s", [mc_register.pk])
        assert cursor.fetchall() == [(txid,)]
        # A client cannot choose the value: the trigger overrides it.
        cursor.execute(
            "INSERT INTO core_historicalroom (id, code, name, establishment_id, history_date, "
            "history_type, ledgers_txid) VALUES (999, 'x', 'x', %s, now(), '+', 1) RETURNING ledgers_txid",
            [mc_register.establishment_id],
        )
        assert cursor.fetchone()[0] == txid


@pytest.mark.postgresql
@pytest.mark.django_db
def test_every_ledger_table_carries_the_transaction_stamp():
    from ledgers.core.db import append_only_tables
    from tests.registers.conftest import LEDGER_MODELS

    tables = append_only_tables(connection)
    assert {model._meta.db_table for model in LEDGER_MODELS} <= set(tables)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT event_object_table FROM information_schema.triggers "
            "WHERE trigger_name = event_object_table || '_txid'"
        )
        assert {name for (name,) in cursor.fetchall()} == set(tables)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "attack,error",
    [
        ("none", ""),
        ("rewrite", "seq 2: changed since the earlier export"),
        ("truncate", "seq 4: missing since the earlier export (entries cut off the end)"),
    ],
)
def test_reg_20_auditor_script_holds_an_export_to_an_earlier_one(mc_register, mc_staff, tmp_path, attack, error):
    from tests.registers.test_commands import VERIFY_EXPORT

    append(mc_register, mc_staff, 3)
    earlier = tmp_path / "earlier.jsonl"
    earlier.write_text("".join(line + "\n" for line in export_lines(mc_register)), encoding="utf-8")
    if attack == "rewrite":
        rewrite(mc_register, 2, {"forged": True})
    elif attack == "truncate":
        truncate(mc_register, 3)
    now = tmp_path / "now.jsonl"
    now.write_text("".join(line + "\n" for line in export_lines(mc_register)), encoding="utf-8")
    audit = subprocess.run(
        [sys.executable, str(VERIFY_EXPORT), str(now), str(earlier)], capture_output=True, text=True, check=False
    )
    assert (audit.returncode, audit.stderr.strip()) == ((1, f"FAIL {error}") if error else (0, ""))


def test_deploy_check_warns_without_the_signing_key():
    from ledgers.registers.checks import signing_key_check

    assert signing_key_check(None) == []
    with override_settings(LEDGERS_SIGNING_KEY="", LEDGERS_SIGNING_KEY_FILE=""):
        assert [w.id for w in signing_key_check(None)] == ["registers.W001"]


@pytest.mark.postgresql
@pytest.mark.django_db
def test_entries_are_indexed_by_their_transaction_for_the_transaction_check():
    """The daily verification joins every history row to the entries by transaction id: without
    this index the check scanned the entries once per history row."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexdef FROM pg_indexes "
            "WHERE tablename = 'registers_entry' AND indexname = 'registers_entry_txid_idx'"
        )
        (definition,) = cursor.fetchone()
    assert "(ledgers_txid)" in definition
