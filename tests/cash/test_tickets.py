"""FR carnets de tickets of the cercle cagnottes (REG-32): per-séance stub records (COUNT-38), the
card-table number series (COUNT-39), the keeper's date stamps and blue lines (COUNT-40) and the
approved levy machines (COUNT-41)."""

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from ledgers.cash import services
from ledgers.cash.models import TicketStamp
from ledgers.cash.registers import CARNET_CAGNOTTES, CARNETS_TICKETS
from ledgers.cash.services import tickets
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register
from tests.factories import GamingTableFactory


def book(org, number="TH1", first=1, last=500):
    return services.ticket_book_register(
        table=org.tables[number],
        cover_number=number,
        ticket_value=Decimal(5),
        first_number=first,
        last_number=last,
        actor=org[Role.GARDIEN_CARNETS],
    )


def compute(org, session, book_, last):
    return services.cagnotte_compute(
        session=session, detached=[{"book": book_, "last_number": last}], actor=org[Role.COMITE]
    )


def test_count_40_only_the_keeper_puts_a_book_into_service_with_its_date_stamp(fro):
    with pytest.raises(RuleViolation) as refused:
        services.ticket_book_register(
            table=fro.tables["TH1"],
            cover_number="TH1",
            ticket_value=Decimal(5),
            first_number=1,
            last_number=100,
            actor=fro.director,
        )
    assert refused.value.code == "COUNT-40"
    made = book(fro)
    stamp = made.stamps.get()
    assert (stamp.kind, stamp.first_ticket, stamp.keeper) == (TicketStamp.Kind.IN_SERVICE, 1, fro[Role.GARDIEN_CARNETS])
    entry = current_register(fro.est, CARNETS_TICKETS.code).entries.filter(kind="record").get()
    assert entry.payload["book"] == "TH1" and entry.role == Role.GARDIEN_CARNETS


def test_count_40_seance_start_stamp_required_before_tickets_of_the_next_seance(fro):
    made = book(fro)
    compute(fro, fro.close(fro.session("TH1", seance=fro.seance(day=0))), made, 40)  # the put-in-service stamp
    made.refresh_from_db()
    second = fro.close(fro.session("TH1", seance=fro.seance(day=1)))
    with pytest.raises(RuleViolation) as unstamped:
        compute(fro, second, made, 60)
    assert unstamped.value.code == "COUNT-40"
    with pytest.raises(RuleViolation) as not_keeper:
        tickets.ticket_seance_stamp(book=made, actor=fro[Role.COMITE], blue_line=True)
    assert not_keeper.value.code == "COUNT-40"
    with pytest.raises(RuleViolation) as no_line:
        tickets.ticket_seance_stamp(book=made, actor=fro[Role.GARDIEN_CARNETS], blue_line=False)
    assert no_line.value.code == "COUNT-40"
    stamp = tickets.ticket_seance_stamp(book=made, actor=fro[Role.GARDIEN_CARNETS], blue_line=True)
    assert (stamp.first_ticket, stamp.blue_line) == (41, True)
    # AMB-58: until the cagnotte is counted the day's operations are one séance, the stamp stands.
    with pytest.raises(RuleViolation) as twice:
        tickets.ticket_seance_stamp(book=made, actor=fro[Role.GARDIEN_CARNETS], blue_line=True)
    assert twice.value.code == "REG-20"
    assert compute(fro, second, made, 60).computed == Decimal("100.00")


def test_count_38_per_seance_stub_records_in_the_books_register(fro):
    made = book(fro)
    compute(fro, fro.close(fro.session("TH1", seance=fro.seance(day=0))), made, 40)
    tickets.ticket_seance_stamp(book=made, actor=fro[Role.GARDIEN_CARNETS], blue_line=True)
    events = [
        (e.payload["event"], e.payload["tickets"].split(" ")[1])
        for e in current_register(fro.est, CARNETS_TICKETS.code).entries.filter(kind="record")
    ]
    assert events == [
        ("Mise en service (timbre sur le premier ticket)", "1"),
        ("Début de séance (timbre et trait bleu)", "41"),
    ]


def test_count_39_card_table_series_unbroken_without_duplicates_never_renumbered(fro):
    bac = GamingTableFactory(establishment=fro.est, room=fro.room, number="BC1", game="chemin_de_fer")
    assert {t.number for t in tickets.unnumbered_card_tables(fro.est)} == {"TH1", "BC1"}
    with pytest.raises(RuleViolation) as gap:
        tickets.card_table_number(table=bac, serial=2, actor=fro.director)
    assert gap.value.code == "COUNT-39"
    tickets.card_table_number(table=bac, serial=1, actor=fro.director)
    with pytest.raises(RuleViolation) as duplicate:
        tickets.card_table_number(table=fro.tables["TH1"], serial=1, actor=fro.director)
    assert duplicate.value.code == "COUNT-39"
    with pytest.raises(RuleViolation) as renumbered:
        tickets.card_table_number(table=bac, serial=2, actor=fro.director)
    assert renumbered.value.code == "COUNT-39"
    assert tickets.card_table_number(table=fro.tables["TH1"], serial=2, actor=fro[Role.COMITE]).serial == 2
    assert tickets.unnumbered_card_tables(fro.est) == []


def test_count_41_levy_machine_needs_approval_and_its_history_is_the_computed_cagnotte(fro):
    table = fro.tables["TH1"]
    with pytest.raises(RuleViolation) as unapproved:
        tickets.levy_machine_activate(table=table, approval_reference=" ", actor=fro.director)
    assert unapproved.value.code == "COUNT-41"
    session = fro.close(fro.session("TH1"))
    with pytest.raises(RuleViolation) as no_machine:
        tickets.cagnotte_machine_compute(
            session=session, history_total=Decimal(30), printout_reference="H-1", actor=fro[Role.COMITE]
        )
    assert no_machine.value.code == "COUNT-41"
    tickets.levy_machine_activate(table=table, approval_reference="AGR-2026-7", actor=fro.director)
    made = book(fro)
    with pytest.raises(RuleViolation) as by_tickets:
        compute(fro, session, made, 10)
    assert by_tickets.value.code == "COUNT-41"
    parties = [
        {"time": "21:05", "pot": "200", "levy": "10", "win": "190"},
        {"time": "21:12", "pot": "400", "levy": "20", "win": "380"},
    ]
    with pytest.raises(RuleViolation) as mismatch:
        tickets.cagnotte_machine_compute(
            session=session,
            history_total=Decimal(35),
            printout_reference="H-1",
            parties=parties,
            actor=fro[Role.COMITE],
        )
    assert mismatch.value.code == "COUNT-41"
    cagnotte = tickets.cagnotte_machine_compute(
        session=session, history_total=Decimal(30), printout_reference="H-1", parties=parties, actor=fro[Role.COMITE]
    )
    assert cagnotte.computed == Decimal("30.00") and cagnotte.tickets[0]["parties"] == 2
    entry = current_register(fro.est, CARNET_CAGNOTTES.code, "TH1").entries.filter(kind="record").last()
    assert entry.payload["col8"] == "30.00"


def test_count_39_to_41_through_the_api_and_pages(client, fro):
    api = APIClient()
    api.force_authenticate(fro.director)
    numbered = api.post("/api/v1/cash/card-table-numbers/", {"table": fro.tables["TH1"].pk, "serial": 2}, format="json")
    assert numbered.status_code == 409 and numbered.json()["code"] == "COUNT-39"
    assert (
        api.post(
            "/api/v1/cash/card-table-numbers/", {"table": fro.tables["TH1"].pk, "serial": 1}, format="json"
        ).status_code
        == 201
    )
    machine = api.post(
        "/api/v1/cash/levy-machines/", {"table": fro.tables["TH1"].pk, "approval_reference": ""}, format="json"
    )
    assert machine.status_code == 409 and machine.json()["code"] == "COUNT-41"
    made = book(fro)
    api.force_authenticate(fro[Role.GARDIEN_CARNETS])
    stamp = api.post("/api/v1/cash/ticket-stamps/", {"book": made.pk, "blue_line": True}, format="json")
    assert stamp.status_code == 409 and stamp.json()["code"] == "REG-20"  # the put-in-service stamp covers ticket 1
    client.force_login(fro[Role.GARDIEN_CARNETS])
    page = client.get("/caisses/carnets-tickets/")
    assert page.status_code == 200 and "TH1" in page.content.decode()
    assert client.get(f"/caisses/carnets-tickets/{made.pk}/timbre/").status_code == 200
    client.force_login(fro.director)
    assert (
        client.post(
            "/caisses/machines-retenue/nouvelle/", {"table": fro.tables["TH1"].pk, "approval_reference": "AGR-1"}
        ).status_code
        == 302
    )
    session = fro.close(fro.session("TH1"))
    history = client.post(
        f"/caisses/tables/{session.pk}/cagnotte/historique/", {"history_total": "45", "printout_reference": "H-9"}
    )
    assert history.status_code == 302 and session.cagnotte.computed == Decimal("45.00")
