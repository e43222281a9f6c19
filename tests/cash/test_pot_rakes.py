"""The rake taken on each pot of a poker table-partie (COUNT-17, COUNT-18; art. 57-2, 56-1): the
posted rate and the buy-in's cap, the line of the relevé des retenues par pot, the quick entry
at the table, the API, and the cagnotte's count checked against the pots."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from ledgers.cash import services
from ledgers.cash.models import PotRake
from ledgers.cash.registers import CARNET_CAGNOTTES, RETENUES_POTS
from ledgers.cash.services.table_cagnottes import table_cagnotte_record
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register
from ledgers.registers.verification import verify_register
from tests.factories import GamingTableFactory, post_displays

from .test_cagnottes import plaques, ticket_book

D = Decimal


@pytest.fixture
def poker(fro):
    fro.open_register(RETENUES_POTS.code)
    return fro


def test_count_18_pot_rake_at_the_posted_rate_within_the_cap_written_in_the_register(poker):
    session = poker.session("TH1")
    croupier = poker[Role.CROUPIER]
    first = services.pot_rake_record(session=session, pot=D("237"), cave=D("500"), actor=croupier)
    second = services.pot_rake_record(session=session, pot=D("3000"), actor=croupier)
    assert (first.number, first.allowed, first.taken, first.gain, first.flags) == (
        1,
        D("9.50"),
        D("9.50"),
        D("227.50"),
        [],
    )
    assert (second.number, second.cave, second.taken, second.gain) == (2, D("500.00"), D("75.00"), D("2925.00"))
    register = current_register(poker.est, RETENUES_POTS.code)
    line = register.entries.filter(kind="record").last().payload
    assert line["table"] == "TH1" and line["pot_number"] == 2 and line["pot"] == "3000.00"
    assert line["rate"] == "4 %" and line["allowed"] == line["taken"] == "75.00" and line["gain"] == "2925.00"
    assert line["time"] and "Croupier" in line["signed_by"]
    assert verify_register(register) is None


def test_count_18_a_rake_taken_other_than_the_rake_due_is_recorded_and_flagged(poker):
    session = poker.session("TH1")
    over = services.pot_rake_record(
        session=session, pot=D("237"), cave=D("500"), taken=D("10"), actor=poker[Role.CROUPIER]
    )
    under = services.pot_rake_record(session=session, pot=D("237"), taken=D("9"), actor=poker[Role.CHEF_TABLE])
    assert over.flags[0].startswith("COUNT-18") and "au-dessus" in over.flags[0]
    assert under.flags[0].startswith("COUNT-18") and "au-dessous" in under.flags[0]
    flagged = current_register(poker.est, RETENUES_POTS.code).entries.filter(kind="record").last()
    assert flagged.payload["flags"] == under.flags


def test_count_17_the_rake_goes_into_the_tables_own_cagnotte(poker):
    table = GamingTableFactory(establishment=poker.est, room=poker.room, number="TH2", game="texas_holdem")
    poker.tables["TH2"] = table
    post_displays(table)
    poker.open_register(CARNET_CAGNOTTES.code, "TH2")
    session = poker.opened_unchecked("TH2")  # it no longer opens without one (COUNT-17)
    with pytest.raises(RuleViolation) as refused:
        services.pot_rake_record(session=session, pot=D("100"), cave=D("500"), actor=poker[Role.CROUPIER])
    assert refused.value.code == "COUNT-17" and not PotRake.objects.exists()
    table_cagnotte_record(table=table, number="TH2", actor=poker[Role.COMITE])
    assert services.pot_rake_record(session=session, pot=D("100"), cave=D("500"), actor=poker[Role.CROUPIER]).taken


def test_count_18_the_buy_in_is_the_parties_and_only_the_table_staff_record(poker):
    session = poker.session("TH1")
    with pytest.raises(ValidationError):  # the first pot gives the buy-in
        services.pot_rake_record(session=session, pot=D("100"), actor=poker[Role.CROUPIER])
    services.pot_rake_record(session=session, pot=D("100"), cave=D("500"), actor=poker[Role.CROUPIER])
    with pytest.raises(ValidationError):
        services.pot_rake_record(session=session, pot=D("100"), cave=D("1000"), actor=poker[Role.CROUPIER])
    with pytest.raises(Exception) as denied:
        services.pot_rake_record(session=session, pot=D("100"), actor=poker[Role.CAISSIER])
    assert denied.type.__name__ == "PermissionDenied"
    assert PotRake.objects.count() == 1


def test_count_18_the_cagnotte_count_is_checked_against_the_pots_rakes(poker):
    book = ticket_book(poker, "TH1")
    session = poker.session("TH1")
    for _ in range(2):  # cave 1 000 €: 4 % of 2 500 € = 100 €, at the 100 € cap
        services.pot_rake_record(session=session, pot=D("2500"), cave=D("1000"), actor=poker[Role.CROUPIER])
    poker.close(session)
    services.cagnotte_compute(session=session, detached=[{"book": book, "last_number": 30}], actor=poker[Role.COMITE])
    services.cagnotte_count(
        session=session, breakdown=plaques(150, 50), actor=poker[Role.COMITE], words="certifié exact"
    )
    line = current_register(poker.est, CARNET_CAGNOTTES.code, "TH1").entries.filter(kind="record").last().payload
    assert line["pot_rakes"] == "200.00"
    assert "Retenues inscrites pot par pot : 200.00 €" in line["certification"]


def test_count_18_cagnotte_count_matching_the_pots_carries_no_remark(poker):
    book = ticket_book(poker, "TH1")
    session = poker.session("TH1")
    services.pot_rake_record(session=session, pot=D("2500"), cave=D("1000"), actor=poker[Role.CROUPIER])
    poker.close(session)
    services.cagnotte_compute(session=session, detached=[{"book": book, "last_number": 20}], actor=poker[Role.COMITE])
    services.cagnotte_count(
        session=session, breakdown=plaques(100, 50), actor=poker[Role.COMITE], words="certifié exact"
    )
    line = current_register(poker.est, CARNET_CAGNOTTES.code, "TH1").entries.filter(kind="record").last().payload
    assert line["pot_rakes"] == "100.00" and "pot par pot" not in line["certification"]


def test_count_18_quick_entry_page_at_the_table(client, poker):
    session = poker.session("TH1")
    client.force_login(poker[Role.CROUPIER])
    page = client.get(f"/caisses/tables/{session.pk}/pots/")
    assert page.status_code == 200 and 'name="cave"' in page.content.decode()
    done = client.post(f"/caisses/tables/{session.pk}/pots/", {"pot": "3000", "cave": "500"})
    assert done.status_code == 302 and done["Location"].endswith(f"/tables/{session.pk}/pots/")
    after = client.get(done["Location"]).content.decode()
    assert 'name="cave"' not in after and "2 925,00" in after.replace("\u202f", " ").replace("\xa0", " ")
    client.force_login(poker[Role.CAISSIER])
    assert client.post(f"/caisses/tables/{session.pk}/pots/", {"pot": "10"}).status_code == 403


def test_count_18_pot_rakes_through_the_api(poker):
    session = poker.session("TH1")
    api = APIClient()
    api.force_authenticate(poker[Role.CROUPIER])
    missing = api.post("/api/v1/cash/pot-rakes/new/", {"table_session": session.pk, "pot": "100"}, format="json")
    assert missing.status_code == 400 and "cave" in missing.json()
    done = api.post(
        "/api/v1/cash/pot-rakes/new/", {"table_session": session.pk, "pot": "3000", "cave": "500"}, format="json"
    )
    assert done.status_code == 201 and done.json()["taken"] == "75.00" and done.json()["gain"] == "2925.00"
    listed = api.get("/api/v1/cash/pot-rakes/", {"table_session": session.pk})
    assert listed.status_code == 200 and [p["number"] for p in listed.json()["results"]] == [1]
    other = poker.session("RA1", seance=session.seance)
    refused = api.post(
        "/api/v1/cash/pot-rakes/new/", {"table_session": other.pk, "pot": "100", "cave": "500"}, format="json"
    )
    assert refused.status_code == 400
