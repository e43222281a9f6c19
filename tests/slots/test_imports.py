"""Socles and machines from a spreadsheet at the set-up: each row through ``socle_create`` or
``machine_register`` (the inventory file's rules), the refused row named, nothing written unless
every row is accepted."""

import pytest

from ledgers.core.imports import IMPORTS, import_rows, read_rows
from ledgers.slots.models import Machine, Socle

pytestmark = [pytest.mark.django_db, pytest.mark.postgresql]

MACHINES = (
    "type;technologie;fabricant;numero_serie;numero_casino;numero_fabricant;numero_emplacement;"
    "paiements;postes;taux_redistribution;date_taux;caracteristiques\n"
    "Vidéo rouleaux;electronic;Aristocrat;SER-1;C1;MK1;L1;coins,banknotes;1;92,5;2026-01-15;5 rouleaux\n"
    "Vidéo poker;Électronique;IGT;SER-2;C2;MK2;L2;coins;1;93;15/01/2026;Poker\n"
)


def run(room, spec_code: str, text: str, *, commit=True):
    spec = IMPORTS.get(spec_code)
    rows = read_rows(name="parc.csv", data=text.encode(), spec=spec)
    return import_rows(spec=spec, establishment=room.est, actor=room.keeper, rows=rows, commit=commit)


def test_machines_enter_the_inventory_file(fr_room):
    outcome = run(fr_room, "machines", MACHINES)
    assert outcome.written, outcome.problems
    assert set(Machine.objects.filter(establishment=fr_room.est).values_list("casino_number", flat=True)) == {
        "C1",
        "C2",
    }


def test_slot_52_a_machine_without_its_numbers_refuses_the_file(fr_room):
    text = MACHINES + "Vidéo;electronic;IGT;SER-3;;;;coins;1;93;2026-01-15;x\n"
    outcome = run(fr_room, "machines", text)
    assert [(p.row, p.code) for p in outcome.problems] == [(4, "SLOT-52")]
    assert not Machine.objects.filter(establishment=fr_room.est).exists()


def test_slot_03_a_socle_number_given_twice_is_refused(mc_room):
    outcome = run(mc_room, "socles", "numero;salle;emplacement\n1;slots;Rangée A\n1;slots;Rangée B\n")
    assert [(p.row, p.code) for p in outcome.problems] == [(3, "SLOT-03")]
    assert not Socle.objects.filter(establishment=mc_room.est).exists()
    assert run(mc_room, "socles", "numero;salle\n1;slots\n2;slots\n").written
    assert Socle.objects.filter(establishment=mc_room.est).count() == 2
