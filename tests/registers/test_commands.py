"""The register commands: list, verify, export (re-hashed independently), volume seeding."""

import datetime
import hashlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command, load_command_class
from django.core.management.base import CommandError
from django.db import connection

from ledgers.core.roles import Role
from ledgers.registers.kinds import get_kind
from ledgers.registers.models import Entry
from ledgers.registers.services import EVENT_AT_FORMAT, entry_append, entry_correct, register_create, visa_sign
from ledgers.registers.verification import verify_register
from tests.registers.conftest import opened_register, triggers_bypassed

ROOT = Path(settings.BASE_DIR)
VERIFY_EXPORT = ROOT / "docs" / "verify_export.py"
COMMANDS = ("list_registers", "verify_ledgers", "export_register", "seed_volume", "seal_checkpoints")


def run(name: str, *args) -> str:
    out = io.StringIO()
    call_command(name, *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def fill(register, staff, count: int) -> None:
    for i in range(count):
        entry_append(
            register=register,
            actor=staff.writer,
            role=staff.writer_role,
            payload={"subject": f"Fait n° {i}", "détail": {"montant": "12.50", "liste": [i, None, True]}},
        )


def without_authorisations(lines):
    """The lines that do not name a register of authorisations (its volume holds the staff's roles
    the fixtures grant)."""
    return [line for line in lines if "-HABILITATIONS-" not in line and "\thabilitations\t" not in line]


@pytest.fixture
def registers(mc, fr, mc_staff, fr_staff):
    """Three registers: two in Monaco (3 and 1 entries), one in France (2 entries)."""
    first = opened_register(mc, mc_staff)
    fill(first, mc_staff, 2)
    second = opened_register(mc, mc_staff)
    third = opened_register(fr, fr_staff)
    fill(third, fr_staff, 1)
    return first, second, third


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_explains_itself(name):
    parser = load_command_class("ledgers.registers", name).create_parser("manage.py", name)
    text = parser.format_help()
    assert "registre" in text
    assert len(text.splitlines()) > 5


@pytest.mark.django_db
def test_list_registers_one_tab_separated_line_per_register(registers):
    first, second, third = registers
    lines = without_authorisations(run("list_registers").splitlines())
    assert lines == sorted(
        [f"{first.number}\tmain_courante\t3", f"{second.number}\tmain_courante\t1", f"{third.number}\tmain_courante\t2"]
    )
    assert without_authorisations(run("list_registers", "--establishment", "frn").splitlines()) == [
        f"{third.number}\tmain_courante\t2"
    ]
    assert run("list_registers", "--establishment", "nowhere") == ""


@pytest.mark.django_db
def test_verify_ledgers_ok_line_per_register(registers):
    lines = without_authorisations(run("verify_ledgers", "--chain-only").splitlines())
    assert lines == sorted(f"OK\t{r.number}" for r in registers)
    # Then every tracked model: its objects as their history says.
    everything = without_authorisations(run("verify_ledgers").splitlines())
    assert everything[:3] == lines and len(everything) > 3
    assert all(line.startswith("OK\t") for line in everything)
    assert run("verify_ledgers", registers[2].number).splitlines() == [f"OK\t{registers[2].number}"]


@pytest.mark.django_db
def test_verify_ledgers_unknown_register(registers):
    with pytest.raises(CommandError, match="NOPE-001"):
        run("verify_ledgers", registers[0].number, "NOPE-001")


@pytest.mark.django_db
def test_reg_20_verify_ledgers_names_register_seq_and_reason(registers):
    first, _second, third = registers
    with triggers_bypassed():
        Entry.objects.filter(register=third, seq=2).update(actor="quelqu'un d'autre")
        Entry.objects.filter(register=first, seq=3).delete()
    out = io.StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("verify_ledgers", stdout=out)
    assert failed.value.returncode == 1
    bad = sorted([first, third], key=lambda r: r.number)[0]
    expected = verify_register(bad)
    assert f"{bad.number} n° {expected.seq} : {expected.reason}" in str(failed.value)
    lines = out.getvalue().splitlines()
    assert f"ÉCHEC\t{first.number} n° 3 : {verify_register(first).reason}" in lines
    assert f"ÉCHEC\t{third.number} n° 2 : l'empreinte ne correspond pas au contenu de l'entrée" in lines
    assert f"OK\t{registers[1].number}" in lines


def rehash(lines: list[str]) -> None:
    """An auditor's own check with hashlib and json only: every hash and every link."""
    prev = "0" * 64
    for n, line in enumerate(lines, start=1):
        entry = json.loads(line)
        assert entry["seq"] == n
        assert entry["prev_hash"] == prev
        hashed = {k: v for k, v in entry.items() if k != "entry_hash"}
        canonical = json.dumps(hashed, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert hashlib.sha256(canonical.encode("utf-8")).hexdigest() == entry["entry_hash"]
        prev = entry["entry_hash"]


@pytest.mark.django_db
def test_export_register_round_trip(mc_register, mc_staff, tmp_path):
    fill(mc_register, mc_staff, 3)
    entry_correct(
        entry=Entry.objects.get(register=mc_register, seq=2),
        actor=mc_staff.director,
        reason="Erreur de montant",
        approval="Approuvé : douze euros",
        payload={"montant": "12.00"},
    )
    visa_sign(register=mc_register, actor=mc_staff.visa, up_to_seq=5, statement="Vu et vérifié — « RAS ».")
    lines = run("export_register", mc_register.number).splitlines()
    assert len(lines) == 6
    rehash(lines)
    stored = {e.seq: e for e in Entry.objects.filter(register=mc_register).select_related("corrects")}
    for line in lines:
        entry = json.loads(line)
        assert set(entry) == {
            "register",
            "seq",
            "recorded_at",
            "actor",
            "role",
            "kind",
            "payload",
            "corrects",
            "prev_hash",
            "entry_hash",
            "written",
            "digests",
        }
        assert entry == {**stored[entry["seq"]].hashed_fields(), "entry_hash": stored[entry["seq"]].entry_hash}
    assert json.loads(lines[4])["corrects"] == 2
    assert "« RAS »" in lines[5]  # UTF-8 as written, no ASCII escapes

    call_command("export_register", mc_register.number, "--out", str(tmp_path / "one"), stderr=io.StringIO())
    written = (tmp_path / "one" / f"{mc_register.number}.jsonl").read_text(encoding="utf-8")
    assert written.splitlines() == lines and written.endswith("\n")
    audit = subprocess.run(
        [sys.executable, str(VERIFY_EXPORT), str(tmp_path / "one" / f"{mc_register.number}.jsonl")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert audit.returncode == 0, audit.stderr
    assert audit.stdout.strip() == f"OK 6 entries, last hash {json.loads(lines[-1])['entry_hash']}"


@pytest.mark.django_db
def test_export_register_all(registers, tmp_path):
    call_command("export_register", "--all", "--out", str(tmp_path), stderr=io.StringIO())
    exported = without_authorisations(p.name for p in tmp_path.iterdir())
    assert sorted(exported) == sorted(f"{r.number}.jsonl" for r in registers)
    for register in registers:
        rehash((tmp_path / f"{register.number}.jsonl").read_text(encoding="utf-8").splitlines())


@pytest.mark.django_db
@pytest.mark.parametrize("args", [(), ("--all",), ("X-001", "--all", "--out", "d")], ids=["none", "all-no-out", "both"])
def test_export_register_arguments(args):
    with pytest.raises(CommandError):
        run("export_register", *args)


@pytest.mark.django_db
def test_reg_20_auditor_script_names_a_tampered_entry(mc_register, mc_staff, tmp_path):
    fill(mc_register, mc_staff, 3)
    with triggers_bypassed():
        Entry.objects.filter(register=mc_register, seq=3).update(payload={"subject": "autre chose"})
    call_command("export_register", mc_register.number, "--out", str(tmp_path), stderr=io.StringIO())
    audit = subprocess.run(
        [sys.executable, str(VERIFY_EXPORT), str(tmp_path / f"{mc_register.number}.jsonl")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert audit.returncode == 1
    assert audit.stderr.strip() == "FAIL seq 3: entry_hash does not match the entry's content"


@pytest.mark.django_db
def test_seed_volume_appends_valid_entries_shaped_like_the_kind(mc_register):
    out = run("seed_volume", mc_register.number, "--entries", "25", "--batch", "7")
    mc_register.refresh_from_db()
    assert mc_register.head_seq == 26
    assert "25" in out and mc_register.number in out
    assert verify_register(mc_register) is None
    columns = {c.key for c in get_kind("main_courante").columns}
    records = Entry.objects.filter(register=mc_register, kind="record")
    assert records.count() == 25
    for entry in records:
        assert set(entry.payload) == columns
        assert entry.role in get_kind("main_courante").record_roles
        datetime.datetime.strptime(entry.payload["event_at"], EVENT_AT_FORMAT)  # as the service writes it


@pytest.mark.django_db
def test_seed_volume_needs_a_writer(mc, mc_staff, user_in):
    register = opened_register(mc, mc_staff)
    # Everyone who may record in a main courante here leaves the casino.
    for user in (mc_staff.director, mc_staff.writer):
        user.is_active = False
        user.save()
    with pytest.raises(CommandError, match="rôle d'inscription"):
        run("seed_volume", register.number, "--entries", "3")
    user_in(mc, Role.CHEF_PARTIE)
    run("seed_volume", register.number, "--entries", "3")
    register.refresh_from_db()
    assert register.head_seq == 4


@pytest.mark.django_db
def test_reg_01_seed_volume_refuses_a_register_not_yet_paraphed(mc, mc_staff):
    register = register_create(establishment=mc, kind="main_courante", actor=mc_staff.director)
    with pytest.raises(CommandError, match="REG-01"):
        run("seed_volume", register.number, "--entries", "3")


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_reg_20_verify_ledgers_exit_status(registers):
    """The real process exit status, as a nightly job sees it."""
    db = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "casino_compliance.test_settings",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
    }

    def verify():
        return subprocess.run(
            [sys.executable, "manage.py", "verify_ledgers"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )

    ok = verify()
    assert ok.returncode == 0, ok.stderr
    assert all(f"OK\t{r.number}\n" in ok.stdout for r in registers) and "OK\tdice.Die" in ok.stdout
    bad = registers[1]
    with triggers_bypassed():
        Entry.objects.filter(register=bad, seq=1).update(role="police")
    failed = verify()
    assert failed.returncode == 1
    assert f"{bad.number} n° 1 : l'empreinte ne correspond pas au contenu de l'entrée" in failed.stderr
