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
    (tmp_path / "ledgers" / "a.py").write_text('CODE = "CARD-01"\nOTHER = "CARD-02"\n', encoding="utf-8")
    (tmp_path / "tests" / "test_a.py").write_text("def test_card_01_x():\n    pass\n", encoding="utf-8")
    rows = Scan(tmp_path).rows
    assert rows["CARD-01"].status == "enforced" and rows["CARD-01"].tests == ["test_card_01_x"]
    assert rows["CARD-02"].status == "enforced" and rows["CARD-02"].tests == []
    assert rows["CARD-03"].status == "unaccounted"
    problems = Scan(tmp_path).problems()
    assert "CARD-02: no test named after it" in problems
    assert "CARD-03: cited nowhere in the code and not ruled out" in problems


def test_a_row_named_only_in_a_comment_or_a_docstring_is_not_enforced(tmp_path):
    """A comment or a docstring says what the code is about; only a check, a requirement or a
    register kind citing the ID acts on the row."""
    (tmp_path / "ledgers").mkdir()
    (tmp_path / "tests").mkdir()
    source = (
        'def act():\n    """CARD-04: refused."""\n    # CARD-05: the same\n'
        '    raise RuleViolation("CARD-06", "no")  # CARD-07\n'
    )
    (tmp_path / "ledgers" / "a.py").write_text(source, encoding="utf-8")
    rows = Scan(tmp_path).rows
    assert rows["CARD-06"].status == "enforced" and rows["CARD-06"].modules == {"ledgers.a"}
    for code in ("CARD-04", "CARD-05", "CARD-07"):
        assert rows[code].status == "unaccounted" and not rows[code].modules


def test_a_row_listed_by_a_page_is_not_enforced_by_it(tmp_path):
    """A page's ``requirements`` list tells its reader which rows it helps with; the row is
    accounted for by the check or the register behind the page."""
    (tmp_path / "ledgers").mkdir()
    (tmp_path / "tests").mkdir()
    source = 'class Page(View):\n    requirements = ("CARD-04", "CARD-06")\n\n\nCHECK = "CARD-06"\n'
    (tmp_path / "ledgers" / "a.py").write_text(source, encoding="utf-8")
    rows = Scan(tmp_path).rows
    assert rows["CARD-04"].status == "unaccounted" and rows["CARD-06"].status == "enforced"


def test_a_row_asking_for_a_report_is_reported_by_the_function_that_computes_it(tmp_path):
    (tmp_path / "ledgers" / "authority").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    assert "reported by ledgers.authority.authorisation.authorisation_figures" in " ".join(Scan(tmp_path).problems())
    (tmp_path / "ledgers" / "authority" / "authorisation.py").write_text(
        "def authorisation_figures(establishment, on):\n    return on\n", encoding="utf-8"
    )
    rows = Scan(tmp_path).rows
    assert rows["AUTH-03"].status == "reported" and rows["AUTH-03"].modules == {"ledgers.authority.authorisation"}


def test_stale_tables_are_refused(tmp_path, monkeypatch):
    from ledgers.core.management.commands import requirements_status

    monkeypatch.setattr(requirements_status, "TARGET", tmp_path)
    with pytest.raises(CommandError, match="out of date"):
        call_command("requirements_status")
    call_command("requirements_status", "--write")
    call_command("requirements_status")


def test_every_ambiguity_of_the_catalogue_has_a_decision_taken_in_a_module(tmp_path, monkeypatch):
    from ledgers.core import status
    from ledgers.core.catalogue import AMBIGUITIES
    from ledgers.core.requirements import Decided

    assert len(AMBIGUITIES) == 63
    (tmp_path / "ledgers").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "ledgers" / "a.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.setattr(
        status,
        "AMBIGUITY_DECISIONS",
        {"AMB-01": Decided("Read so.", ("ledgers.a",)), "AMB-02": Decided("", ("ledgers.b",))},
    )
    problems = Scan(tmp_path).problems()
    assert "AMB-01: no decision taken" not in problems
    assert "AMB-02: no decision taken" in problems
    assert "AMB-02: decided in ledgers.b, which is not a module" in problems
    assert "AMB-03: no decision taken" in problems


def test_a_row_enforced_by_a_function_the_code_does_not_define_is_a_problem(monkeypatch):
    """A row said to hold by construction holds only while the function that makes it hold exists,
    and a row said to hold through another row only while that row is enforced."""
    from ledgers.core import status

    monkeypatch.setattr(status, "ENFORCED_BY", {**status.ENFORCED_BY, "SLOT-51": "ledgers.slots.services.gone"})
    problems = Scan().problems()
    assert "SLOT-51: enforced by ledgers.slots.services.gone, which the code does not define or does not enforce" in (
        problems
    )
    monkeypatch.setattr(status, "ENFORCED_BY", {"SHOE-06": "REG-28-NOT-A-ROW"})
    assert any(p.startswith("SHOE-06: enforced by") for p in Scan().problems())


def test_every_rule_a_custody_domain_declares_is_read_by_a_service():
    """A domain's rule that no service reads cites its row in vain: the row would count as enforced
    through a key nothing looks up."""
    import re
    from pathlib import Path

    from ledgers.custody.domains import DOMAINS

    root = Path(__file__).resolve().parents[2] / "ledgers"
    code = "\n".join(path.read_text(encoding="utf-8") for path in root.rglob("*.py") if "migrations" not in path.parts)
    read = set(re.findall(r"(?:(?:_rule|_refuse)\(\s*\w+,\s*|\.rule\(\s*)\"(\w+)\"", code))
    unread = {(domain.code, name) for domain in DOMAINS for name in domain.rules if name not in read}
    assert unread == set()
