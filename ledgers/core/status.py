"""The status of every catalogue row and setting, read from the code itself: which modules cite a
row (a string literal equal to its ID: a RuleViolation's code, a check's or a register kind's
requirement; a comment or a docstring naming it is no citation, for it checks nothing), which
tests are named after it, which settings are read, and what ``ledgers.core.requirements`` rules
out or decides. ``manage.py requirements_status`` writes the
tables of docs/requirements/ from it; a test fails when a row is unaccounted for or the tables
differ from the code.

Statuses:
- enforced: a check cites the row (it refuses, requires or flags with its ID), or ``ENFORCED_BY``
  names the function that makes it hold by construction or the enforced row that holds it;
- reported: the row asks for a report, not a refusal nor a flag, and ``REPORTED`` names the
  function that computes it (which must exist);
- recorded: only a register kind cites the row: the register keeps the record the row asks for;
- ruled out: ``RULED_OUT`` says why, with the article;
- unaccounted: none of these (the status test fails).

Comments, docstrings and a page's ``requirements`` list (which rows the page helps with) cite
nothing.
"""

import ast
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from .catalogue import AMBIGUITIES, REQUIREMENTS, SETTINGS
from .requirements import AMBIGUITY_DECISIONS, DECISIONS, ENFORCED_BY, REPORTED, RULED_OUT, SETTINGS_HELD

ROOT = Path(__file__).resolve().parents[2]
ROW_ID = re.compile(r"^(?:CARD|DICE|SHOE|SHUF|WHEEL|GAME|SLOT|KEY|COUNT|INC|REG|AUTH)-\d\d$")
TEST_NAME = re.compile(r"^\s*(?:async )?def (test_\w+)", re.MULTILINE)
TEST_ID = re.compile(r"(?<=_)(card|dice|shoe|shuf|wheel|game|slot|key|count|inc|reg|auth)_(\d\d)(?=_|$)")
SETTING_ID = re.compile(r"^SET-\d\d$")
SETTING_MENTION = re.compile(r"\bSET-\d\d\b")
# Where the catalogue itself is held, not where a row is acted on.
NOT_CITATIONS = {"ledgers/core/catalogue.py", "ledgers/core/requirements.py", "ledgers/core/status.py"}
# The calls whose "SET-xx" argument reads the setting (Establishment.setting, options.get).
READERS = {"setting", "get"}
PREFIXES = ("CARD", "DICE", "SHOE", "SHUF", "WHEEL", "GAME", "SLOT", "KEY", "COUNT", "INC", "REG", "AUTH")


@dataclass
class Row:
    code: str
    modules: set[str] = field(default_factory=set)
    register_only: bool = True
    reported: bool = False
    tests: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        if self.code in RULED_OUT:
            return "ruled out"
        if not self.modules:
            return "unaccounted"
        if not self.register_only:
            return "enforced"
        return "reported" if self.reported else "recorded"


@dataclass
class Source:
    """One module of ledgers/: the rows it cites (ID, whether only as a register kind's
    requirement) and the settings it reads."""

    path: Path
    module: str
    text: str
    row_ids: list[tuple[str, bool]] = field(default_factory=list)
    settings_read: set[str] = field(default_factory=set)
    functions: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        registered: set[int] = set()
        listed: set[int] = set()
        tree = ast.parse(self.text)
        self.functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = _call_name(node)
                if name == "RegisterKind":
                    for keyword in node.keywords:
                        if keyword.arg == "requirements":
                            registered.update(id(n) for n in ast.walk(keyword.value))
                elif name in READERS:
                    self.settings_read.update(_setting_ids(node.args))
            elif isinstance(node, ast.ClassDef):
                # A page's ``requirements = (…)`` lists the rows it helps with, for its readers:
                # it enforces nothing and records nothing.
                for stmt in node.body:
                    if isinstance(stmt, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id == "requirements" for t in stmt.targets
                    ):
                        listed.update(id(n) for n in ast.walk(stmt.value))
            elif isinstance(node, ast.Subscript):
                self.settings_read.update(_setting_ids([node.slice]))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and ROW_ID.match(node.value):
                if id(node) not in listed:
                    self.row_ids.append((node.value, id(node) in registered))


def _setting_ids(nodes: list[ast.expr]) -> set[str]:
    return {
        n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str) and SETTING_ID.match(n.value)
    }


def _module(path: Path, root: Path) -> str:
    return ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")


def _call_name(node: ast.AST) -> str:
    func = node.func if isinstance(node, ast.Call) else None
    return getattr(func, "id", None) or getattr(func, "attr", "")


class Scan:
    """One pass over ledgers/ (citations, settings read) and tests/ (test names)."""

    def __init__(self, root: Path = ROOT) -> None:
        self.root = root

    @cached_property
    def rows(self) -> dict[str, Row]:
        rows = {code: Row(code) for code in REQUIREMENTS}
        for source in self._sources:
            for code, in_register in source.row_ids:
                rows[code].modules.add(source.module)
                rows[code].register_only &= in_register
        functions = {f"{source.module}.{name}" for source in self._sources for name in source.functions}
        for code, function in REPORTED.items():
            if code in rows and function in functions:
                rows[code].modules.add(function.rpartition(".")[0])
                rows[code].reported = True
        for code, by in ENFORCED_BY.items():
            held = rows[by].modules if ROW_ID.match(by) and rows[by].status == "enforced" else set()
            if by in functions:
                held = {by.rpartition(".")[0]}
            if code in rows and held:
                rows[code].modules |= held
                rows[code].register_only = False
        for path in sorted((self.root / "tests").rglob("test_*.py")):
            for name in TEST_NAME.findall(path.read_text(encoding="utf-8")):
                for prefix, number in TEST_ID.findall(name):
                    code = f"{prefix.upper()}-{number}"
                    if code in rows and name not in rows[code].tests:
                        rows[code].tests.append(name)
        for row in rows.values():
            row.tests.sort()
        return rows

    @cached_property
    def settings(self) -> dict[str, tuple[set[str], set[str]]]:
        """SET-xx → (modules that read it, modules that only name it)."""
        read, named = defaultdict(set), defaultdict(set)
        for source in self._sources:
            for code in source.settings_read:
                read[code].add(source.module)
            for code in SETTING_MENTION.findall(source.text):
                named[code].add(source.module)
        return {code: (read[code], named[code] - read[code]) for code in SETTINGS}

    @cached_property
    def _sources(self) -> list["Source"]:
        return [
            Source(path, _module(path, self.root), path.read_text(encoding="utf-8"))
            for path in sorted((self.root / "ledgers").rglob("*.py"))
            if path.relative_to(self.root).as_posix() not in NOT_CITATIONS
            and "migrations" not in path.parts
            and path.name != "demo.py"  # the demo data acts through the services, it enforces nothing
        ]

    def problems(self) -> list[str]:
        """What keeps the table from being complete: each line names the row and what it lacks."""
        out = []
        for code, row in self.rows.items():
            if row.status == "unaccounted":
                out.append(f"{code}: cited nowhere in the code and not ruled out")
            elif row.status == "ruled out" and row.modules:
                out.append(f"{code}: ruled out but cited in {', '.join(sorted(row.modules))}")
            elif row.status != "ruled out" and not row.tests:
                out.append(f"{code}: no test named after it")
        for code in sorted(set(RULED_OUT) | set(DECISIONS) | set(REPORTED)):
            if code not in REQUIREMENTS and not code.startswith(("AMB-", "SET-")):
                out.append(f"{code}: not a catalogue row")
        for code, function in REPORTED.items():
            if code in self.rows and not self.rows[code].reported:
                out.append(f"{code}: reported by {function}, which the code does not define")
        for code, by in ENFORCED_BY.items():
            if self.rows[code].status != "enforced":
                out.append(f"{code}: enforced by {by}, which the code does not define or does not enforce")
        for code, (read, _named) in self.settings.items():
            if not read and code not in SETTINGS_HELD:
                out.append(f"{code}: never read through Establishment.setting() and not held elsewhere")
        modules = {_module(path, self.root) for path in (self.root / "ledgers").rglob("*.py")}
        for code in AMBIGUITIES:
            if code not in AMBIGUITY_DECISIONS or not AMBIGUITY_DECISIONS[code].text:
                out.append(f"{code}: no decision taken")
        for code, decision in AMBIGUITY_DECISIONS.items():
            if code not in AMBIGUITIES:
                out.append(f"{code}: not a catalogue ambiguity")
            out.extend(f"{code}: decided in {m}, which is not a module" for m in decision.where if m not in modules)
        return out

    def markdown(self) -> dict[str, str]:
        """File name → content of docs/requirements/."""
        files = {f"{prefix}.md": self._prefix_table(prefix) for prefix in PREFIXES}
        files["SET.md"] = self._settings_table()
        files["AMB.md"] = self._ambiguities_table()
        files["README.md"] = self._index()
        return files

    def counts(self) -> dict[str, dict[str, int]]:
        counts: dict[str, dict[str, int]] = {}
        for code, row in self.rows.items():
            prefix = code.split("-")[0]
            per = counts.setdefault(
                prefix, {"enforced": 0, "reported": 0, "recorded": 0, "ruled out": 0, "unaccounted": 0}
            )
            per[row.status] += 1
        return counts

    def _prefix_table(self, prefix: str) -> str:
        lines = [
            f"# {prefix} — status of each row",
            "",
            "Generated by `manage.py requirements_status --write` from the code; do not edit by hand.",
            "",
            "| ID | Jur. | Article | Status | Where | Tests | Decision / reason |",
            "|---|---|---|---|---|---|---|",
        ]
        for code, row in self.rows.items():
            if code.split("-")[0] != prefix:
                continue
            req = REQUIREMENTS[code]
            if row.status == "ruled out":
                note = f"{RULED_OUT[code].reason} ({RULED_OUT[code].article})"
            else:
                note = DECISIONS.get(code, "")
            if code in ENFORCED_BY:
                note = f"Enforced by `{ENFORCED_BY[code]}`. {note}".strip()
            where = "<br>".join(f"`{m}`" for m in sorted(row.modules))
            tests = "<br>".join(f"`{t}`" for t in row.tests[:3])
            if len(row.tests) > 3:
                tests += f"<br>+{len(row.tests) - 3}"
            cells = (code, req.jurisdiction, _cell(req.article), row.status, where, tests, _cell(note))
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines) + "\n"

    def _settings_table(self) -> str:
        lines = [
            "# SET — settings the texts leave to the operator or an authority",
            "",
            "Generated by `manage.py requirements_status --write` from the code; do not edit by hand.",
            "Read: the code reads it per establishment (`Establishment.setting`); held: the value lives",
            "in the code as said.",
            "",
            "| ID | Setting | Status | Where | How it is held / decision |",
            "|---|---|---|---|---|",
        ]
        for code, name in SETTINGS.items():
            read, _named = self.settings[code]
            status = "read" if read else ("held" if code in SETTINGS_HELD else "unaccounted")
            where = "<br>".join(f"`{m}`" for m in sorted(read))
            note = SETTINGS_HELD.get(code) or DECISIONS.get(code, "")
            lines.append(f"| {code} | {_cell(name)} | {status} | {where} | {_cell(note)} |")
        return "\n".join(lines) + "\n"

    def _ambiguities_table(self) -> str:
        lines = [
            "# AMB — where the texts are ambiguous or contradict each other: the decision taken",
            "",
            "Generated by `manage.py requirements_status --write` from the code; do not edit by hand.",
            "The rows and settings are those the catalogue names with the ambiguity; the decision and",
            "where it is taken are `AMBIGUITY_DECISIONS` in `ledgers/core/requirements.py`.",
            "",
            "| ID | Topic | Rows and settings | Decision | Where |",
            "|---|---|---|---|---|",
        ]
        for code, ambiguity in AMBIGUITIES.items():
            decision = AMBIGUITY_DECISIONS.get(code)
            text, where = (decision.text, decision.where) if decision else ("", ())
            cells = (
                code,
                _cell(ambiguity.topic),
                ", ".join(ambiguity.names),
                _cell(text),
                "<br>".join(f"`{m}`" for m in where),
            )
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines) + "\n"

    def _index(self) -> str:
        lines = [
            "# Requirements — status",
            "",
            "Generated by `manage.py requirements_status --write` from the code; do not edit by hand.",
            "One table per catalogue prefix; the settings in [SET.md](SET.md), the decisions taken where the",
            "texts are ambiguous or contradict each other in [AMB.md](AMB.md). Statuses: **enforced** (a",
            "check cites the row: it refuses, requires or flags with its ID; a comment or a docstring",
            "naming it does not count), **reported** (the row asks for a report, computed at any date by",
            "the function named in `ledgers/core/requirements.py`), **recorded** (only the register kind",
            "that keeps the record cites it), **ruled out** (with the article and the reason,",
            "`ledgers/core/requirements.py`). Decisions where the text is silent are in the last column.",
            "",
            "| Prefix | Rows | Enforced | Reported | Recorded | Ruled out |",
            "|---|---|---|---|---|---|",
        ]
        keys = ("enforced", "reported", "recorded", "ruled out")
        total = dict.fromkeys(("rows", *keys), 0)
        for prefix, per in self.counts().items():
            rows = sum(per.values())
            total["rows"] += rows
            for key in keys:
                total[key] += per[key]
            lines.append(f"| [{prefix}]({prefix}.md) | {rows} | " + " | ".join(str(per[key]) for key in keys) + " |")
        lines.append(f"| total | {total['rows']} | " + " | ".join(str(total[key]) for key in keys) + " |")
        return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")
