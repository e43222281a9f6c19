"""The commands that read the ledgers, and those a scheduled job runs, start without Django's system
checks, and the ledger commands without the libraries of the web pages, the worker and the printed
documents; the entries table carries no index another one already provides (each one costs every
append)."""

import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import load_command_class
from django.db import connection

LEDGER_COMMANDS = (
    "verify_ledgers",
    "export_register",
    "list_registers",
    "prove_entry",
    "prove_consistency",
    "seal_checkpoints",
)
# Each loaded where it serves: Celery by the tasks modules, webauthn by the passkey ceremonies of the
# web pages, reportlab when a register is printed, num2words when an amount is written in words,
# asn1crypto when a time-stamp is asked for or checked, cryptography's certificates when a demo seal is
# made, the apps' home panels and charts when a page first shows them (core's dashboard, where they
# are registered, is loaded).
NOT_AT_START = (
    "celery",
    "webauthn",
    "reportlab",
    "num2words",
    "asn1crypto",
    "cryptography.x509",
    *sorted(
        f"ledgers.{path.parent.name}.{path.stem}"
        for pattern in ("ledgers/*/dashboard.py", "ledgers/*/charts.py")
        for path in Path(settings.BASE_DIR).glob(pattern)
        if path.parent.name != "core" or path.stem == "charts"
    ),
)
# Run by cron where no Celery beat runs (docs/operations.md).
SCHEDULED_COMMANDS = (("ledgers.reports", "recover_report_jobs"), ("ledgers.core", "sync_directory"))


@pytest.mark.parametrize(
    ("app", "name"), [*(("ledgers.registers", name) for name in LEDGER_COMMANDS), *SCHEDULED_COMMANDS]
)
def test_ledger_commands_skip_the_system_checks(app, name):
    assert load_command_class(app, name).requires_system_checks == []


def test_ledger_commands_start_without_the_web_worker_and_printing_libraries():
    """A fresh interpreter sets Django up and loads the ledger commands, as ``manage.py`` does."""
    code = (
        "import sys, django\n"
        "django.setup()\n"
        "from django.core.management import load_command_class\n"
        f"for name in {LEDGER_COMMANDS!r}:\n"
        "    load_command_class('ledgers.registers', name)\n"
        "print(*sorted(sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(settings.BASE_DIR))
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert "django" in loaded
    assert "ledgers.registers.verification" in loaded
    assert [name for name in NOT_AT_START if name in loaded] == []


@pytest.mark.postgresql
@pytest.mark.django_db
def test_entries_are_indexed_by_register_once():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'registers_entry' AND indexdef LIKE %s",
            ["%(register_id%"],
        )
        found = dict(cursor.fetchall())
    assert [name for name, definition in found.items() if "(register_id)" in definition] == []
    assert any("(register_id, seq)" in definition and "UNIQUE" in definition for definition in found.values())


@pytest.mark.postgresql
@pytest.mark.django_db
def test_entries_are_indexed_by_author_once():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexdef FROM pg_indexes WHERE tablename = 'registers_entry' AND indexdef LIKE %s",
            ["%(actor_user_id%"],
        )
        found = [definition for (definition,) in cursor.fetchall()]
    assert [definition for definition in found if "(actor_user_id)" in definition] == []
    assert any("(actor_user_id, recorded_at DESC, id DESC)" in definition for definition in found)
