"""Taking over the cagnottes from paper (France): each cercle table's cagnotte in service, numbered
like its table (COUNT-17, COUNT-42), and the amount a running bad beat jackpot displayed (the
balance of its cagnotte), which the next count's COUNT-24 check continues from; each line of the
table's carnet and of the registre du bad beat jackpot citing the paper page."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from ledgers.cash import selectors as cash
from ledgers.cash.models import BadBeatOpening, TableCagnotte
from ledgers.cash.services import bad_beat_activate
from ledgers.cash.services.table_cagnottes import table_cagnotte_record
from ledgers.core.errors import RuleViolation
from ledgers.registers.models import Entry
from ledgers.takeover import services
from ledgers.takeover.selectors import inventory_problems
from tests.factories import open_register, post_displays, set_up_table

from .test_cards import verify_ledgers_ok

pytestmark = pytest.mark.django_db

PAPER = "Carnets des cagnottes et registre du bad beat jackpot papier"


def line(table: str, number: str | None = None, page: int = 21, **fields) -> dict:
    return {"page": str(page), "table": table, "number": table if number is None else number, **fields}


def post(h, rows):
    inventory = services.takeover_prepare(
        establishment=h.est, domain="cagnottes", paper_register=PAPER, rows=rows, actor=h.cartier
    )
    services.takeover_sign(inventory=inventory, actor=h.director)
    return services.takeover_post(inventory=inventory, actor=h.director)


@pytest.fixture
def cercle(house_fr):
    h = house_fr
    tables = {n: set_up_table(h.est, n, game) for n, game in (("TH1", "texas_holdem"), ("TH2", "texas_holdem"))}
    set_up_table(h.est, "R1", "roulette")
    for number in tables:
        open_register(h.est, "carnet_cagnottes", number)
    open_register(h.est, "registre_bbj")
    post_displays(tables["TH1"])
    h.jackpot = bad_beat_activate(
        table=tables["TH1"], machine_approval="AGR-1", cagnotte_number="BBJ-TH1", actor=h.director
    )
    return h


def test_count_17_count_24_cagnottes_checked_then_in_service_with_the_jackpot_s_amount(cercle):
    h = cercle
    rows = [
        line("TH1", bbj_displayed="2 450,00"),
        line("TH2", number="X"),  # a cercle table's cagnotte bears its number
        line("R1"),  # a roulette keeps no cagnotte
        line("TH2", bbj_displayed="100"),  # no jackpot runs at this table
        line("TH1", page=22),
    ]
    problems = inventory_problems(establishment=h.est, domain="cagnottes", rows=rows)
    assert [(p.row, p.field, p.code) for p in problems] == [
        (2, "number", "COUNT-17"),
        (3, "table", ""),
        (4, "bbj_displayed", "COUNT-46"),
        (5, "table", ""),
    ]
    post(h, [rows[0], line("TH2", page=23)])
    assert set(TableCagnotte.objects.values_list("number", flat=True)) == {"TH1", "TH2"}
    assert BadBeatOpening.objects.get(jackpot=h.jackpot).displayed == Decimal("2450.00")
    # The next count continues from the amount taken over (COUNT-24).
    assert cash.expected_display(h.jackpot, retained=Decimal("50.00"))["expected"] == Decimal("2500.00")
    carnet = Entry.objects.get(register__kind="carnet_cagnottes", register__qualifier="TH1", kind="record")
    assert (
        carnet.payload["certification"] == f"Cagnotte n° TH1 mise en service — Reprise de l'existant : {PAPER}, p. 21"
    )
    bbj = Entry.objects.filter(register__kind="registre_bbj", kind="record").order_by("seq").last()
    assert bbj.payload["displayed"] == "2450.00" and f"{PAPER}, p. 21" in bbj.payload["event"]
    verify_ledgers_ok()


def test_reg_20_cagnottes_no_take_over_once_one_was_put_in_service_by_hand(cercle):
    h = cercle
    table_cagnotte_record(table=h.est.tables.get(number="TH2"), number="TH2", actor=h.director)
    with pytest.raises(RuleViolation) as refused:
        services.takeover_prepare(
            establishment=h.est, domain="cagnottes", paper_register=PAPER, rows=[line("TH1")], actor=h.cartier
        )
    assert refused.value.code == "REG-20"


def test_monaco_takes_over_no_cagnotte(house_mc):
    h = house_mc
    with pytest.raises(ValidationError):
        services.takeover_prepare(
            establishment=h.est, domain="cagnottes", paper_register=PAPER, rows=[line("CF1")], actor=h.cartier
        )
