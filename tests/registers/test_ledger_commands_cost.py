"""The commands that read the ledgers start without Django's system checks, and the entries table
carries no index the unique (register, seq) already provides."""

import pytest
from django.core.management import load_command_class
from django.db import connection

LEDGER_COMMANDS = ("verify_ledgers", "export_register", "list_registers", "prove_entry", "seal_checkpoints")


@pytest.mark.parametrize("name", LEDGER_COMMANDS)
def test_ledger_commands_skip_the_system_checks(name):
    assert load_command_class("ledgers.registers", name).requires_system_checks == []


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
