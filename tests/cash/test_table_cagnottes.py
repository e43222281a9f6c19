"""FR: each cercle table has its own cagnotte bearing the table's number (COUNT-17 texas hold'em,
COUNT-42 baccara), written in the table's carnet modèle 11."""

import pytest
from rest_framework.test import APIClient

from ledgers.cash.models import TableCagnotte
from ledgers.cash.registers import CARNET_CAGNOTTES
from ledgers.cash.services.table_cagnottes import table_cagnotte_record
from ledgers.core.errors import RuleViolation
from ledgers.core.hooks import opening_refusals
from ledgers.core.models import TableSession
from ledgers.core.roles import Role
from ledgers.core.services import table_session_open
from ledgers.equipment.services import shoe_allocate
from ledgers.registers.selectors import current_register
from tests import sabots
from tests.factories import GamingTableFactory, LocationFactory, post_displays


def test_count_17_holdem_cagnotte_bears_the_table_number(fro):
    table = fro.tables["TH1"]
    before = TableCagnotte.objects.count()
    with pytest.raises(RuleViolation) as refused:
        table_cagnotte_record(table=table, number="TH2", actor=fro[Role.COMITE])
    assert refused.value.code == "COUNT-17" and TableCagnotte.objects.count() == before
    cagnotte = table_cagnotte_record(table=table, number=" TH1 ", actor=fro[Role.COMITE])
    assert cagnotte.number == "TH1"
    entry = current_register(fro.est, CARNET_CAGNOTTES.code, "TH1").entries.filter(kind="record").last()
    assert "TH1" in entry.payload["certification"]


def test_count_42_baccara_cagnotte_bears_the_table_number_through_the_api(fro):
    table = GamingTableFactory(establishment=fro.est, room=fro.room, number="CF1", game="chemin_de_fer")
    fro.open_register(CARNET_CAGNOTTES.code, "CF1")
    api = APIClient()
    api.force_authenticate(fro[Role.COMITE])
    refused = api.post("/api/v1/cash/table-cagnottes/", {"table": table.pk, "number": "TH1"}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "COUNT-42"
    done = api.post("/api/v1/cash/table-cagnottes/", {"table": table.pk, "number": "CF1"}, format="json")
    assert done.status_code == 201 and done.json()["number"] == "CF1"


def test_count_42_cagnotte_page(client, fro):
    client.force_login(fro[Role.COMITE])
    assert client.get("/caisses/cagnottes/nouvelle/").status_code == 200
    response = client.post("/caisses/cagnottes/nouvelle/", {"table": fro.tables["TH1"].pk, "number": "RA1"})
    assert response.status_code == 409 and "COUNT-17" in response.content.decode()


def test_count_17_a_poker_table_opens_for_play_only_with_its_own_cagnotte(fro):
    table = GamingTableFactory(establishment=fro.est, room=fro.room, number="TH2", game="texas_holdem")
    fro.tables["TH2"] = table
    post_displays(table)
    fro.open_register(CARNET_CAGNOTTES.code, "TH2")
    session = fro.session("TH2", open_=False)
    assert [(r.code, "57-2" in r.article) for r in opening_refusals(session)] == [("COUNT-17", True)]
    with pytest.raises(RuleViolation) as refused:
        fro.session("TH2", seance=session.seance)
    assert refused.value.code == "COUNT-17"
    session.refresh_from_db()
    assert session.status != TableSession.Status.OPEN and session.opened_at is None
    table_cagnotte_record(table=table, number="TH2", actor=fro[Role.COMITE])
    assert opening_refusals(session) == []
    opened = fro.session("TH2", seance=session.seance)
    assert opened.status == TableSession.Status.OPEN


@pytest.mark.parametrize("game", ["chemin_de_fer", "baccara_deux_tableaux"])
def test_count_42_a_baccara_table_opens_for_play_only_with_its_own_cagnotte(fro, game):
    table = GamingTableFactory(establishment=fro.est, room=fro.room, number="BC1", game=game)
    fro.tables["BC1"] = table
    post_displays(table)
    fro.open_register(CARNET_CAGNOTTES.code, "BC1")
    sabots.open_equipment_volumes(fro.est, fro.users, director=fro.director)
    cabinet = LocationFactory(establishment=fro.est, code="armoire-sabots", kind="shoe_cabinet", room=fro.room)
    model = sabots.shoe_model(fro.est, actor=fro.director)
    (shoe,) = sabots.receive_shoes(fro.est, ["1"], location=cabinet, actor=fro.director, model=model)
    session = fro.session("BC1", open_=False)
    shoe_allocate(session=session, shoe=shoe, actor=fro.director)  # SHOE-12: its sabot first
    assert [(r.code, "56-1" in r.article) for r in opening_refusals(session)] == [("COUNT-42", True)]
    with pytest.raises(RuleViolation) as refused:
        table_session_open(session=session, actor=fro.director)
    assert refused.value.code == "COUNT-42"
    session.refresh_from_db()
    assert session.status != TableSession.Status.OPEN and session.opened_at is None
    table_cagnotte_record(table=table, number="BC1", actor=fro[Role.COMITE])
    assert opening_refusals(session) == []
    assert table_session_open(session=session, actor=fro.director).status == TableSession.Status.OPEN
