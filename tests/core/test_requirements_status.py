"""The status tables of docs/requirements/ account for every catalogue row and setting, and say
what the code does: they are generated from it and must not drift."""

import pytest
from django.core.management import CommandError, call_command

from ledgers.core.catalogue import REQUIREMENTS, SETTINGS
from ledgers.core.requirements import RULED_OUT
from ledgers.core.status import Scan


@pytest.fixture(scope="module")
def scan() -> Scan:
    return Scan()


def test_catalogue_holds_343_rows_and_49_settings():
    assert len(REQUIREMENTS) == 343 and len(SETTINGS) == 49


def test_every_row_and_setting_is_accounted_for(scan):
    assert scan.problems() == []


def test_every_ruling_cites_its_article(scan):
    for code, ruling in RULED_OUT.items():
        assert ruling.article and ruling.reason, code
        assert scan.rows[code].status == "ruled out"


def test_status_tables_are_those_the_code_gives():
    """Regenerate with ``manage.py requirements_status --write``."""
    call_command("requirements_status")


def test_a_row_cited_nowhere_is_unaccounted(tmp_path):
    (tmp_path / "ledgers").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "ledgers" / "a.py").write_text('CODE = "CARD-01"  # CARD-02\n', encoding="utf-8")
    (tmp_path / "tests" / "test_a.py").write_text("def test_card_01_x():\n    pass\n", encoding="utf-8")
    rows = Scan(tmp_path).rows
    assert rows["CARD-01"].status == "enforced" and rows["CARD-01"].tests == ["test_card_01_x"]
    assert rows["CARD-02"].status == "enforced" and rows["CARD-02"].tests == []
    assert rows["CARD-03"].status == "unaccounted"
    problems = Scan(tmp_path).problems()
    assert "CARD-02: no test named after it" in problems
    assert "CARD-03: cited nowhere in the code and not ruled out" in problems


def test_stale_tables_are_refused(tmp_path, monkeypatch):
    from ledgers.core.management.commands import requirements_status

    monkeypatch.setattr(requirements_status, "TARGET", tmp_path)
    with pytest.raises(CommandError, match="out of date"):
        call_command("requirements_status")
    call_command("requirements_status", "--write")
    call_command("requirements_status")
