"""The register of keys filled from a spreadsheet: each row through ``key_register``, its lock
type's custody rule applied, the refused row named, nothing written unless every row is accepted."""

import pytest

from ledgers.core.imports import IMPORTS, import_rows, read_rows
from ledgers.keys.models import Key

pytestmark = [pytest.mark.django_db, pytest.mark.postgresql]


def run(org, text: str, *, commit=True):
    spec = IMPORTS.get("cles")
    rows = read_rows(name="cles.csv", data=text.encode(), spec=spec)
    return import_rows(spec=spec, establishment=org.est, actor=org.admin, rows=rows, commit=commit)


def test_key_02_a_socle_key_kept_elsewhere_than_the_cash_desk_refuses_the_file(mc_org):
    text = (
        "code;type_serrure;ouvre;materiel;exemplaires;lieu_de_garde;gardien;organisme\n"
        "P1;machine_door;Portes machines rangée 1;M1;2;coffre;;\n"
        "S1;socle;Socle 1;S1;1;coffre;;\n"
    )
    outcome = run(mc_org, text)
    assert [(p.row, p.code) for p in outcome.problems] == [(3, "KEY-02")]
    assert not Key.objects.filter(establishment=mc_org.est).exists()


def test_keys_are_entered_with_their_homes_and_lines(mc_org):
    text = (
        "code;type_serrure;ouvre;lieu_de_garde\n"
        "P1;machine_door;Portes machines rangée 1;coffre\n"
        "S1;socle;Socle 1;caisse-centrale\n"
    )
    outcome = run(mc_org, text)
    assert outcome.written, outcome.problems
    keys = Key.objects.filter(establishment=mc_org.est).order_by("code")
    assert [(k.code, k.home.kind) for k in keys] == [("P1", "coffre"), ("S1", "caisse_centrale")]


def test_an_unknown_home_and_lock_type_are_named_by_column(mc_org):
    outcome = run(mc_org, "code;type_serrure;ouvre;lieu_de_garde\nX;serrure;Rien;grenier\n", commit=False)
    assert {(p.row, p.column) for p in outcome.problems} == {(2, "type_serrure"), (2, "lieu_de_garde")}
