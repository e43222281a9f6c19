"""FR baccara à deux tableaux: the bank-type mention on the carnet modèle 11 and a banker segment,
headed by the banker's name, for every banker of the séance (COUNT-54)."""

import pytest
from rest_framework.test import APIClient

from ledgers.cash import services
from ledgers.cash.models import BaccaraBank
from ledgers.cash.registers import CARNET_CAGNOTTES
from ledgers.cash.services import baccara
from ledgers.cash.services.table_cagnottes import table_cagnotte_record
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.core.services import table_session_open
from ledgers.equipment.services import shoe_allocate, shoe_return
from ledgers.registers.selectors import current_register
from tests import sabots
from tests.cash.conftest import plaques
from tests.factories import GamingTableFactory, LocationFactory

BANK = plaques(20_000)


@pytest.fixture
def bac(fro):
    fro.tables["BD1"] = GamingTableFactory(
        establishment=fro.est, room=fro.room, number="BD1", game="baccara_deux_tableaux"
    )
    fro.open_register(CARNET_CAGNOTTES.code, "BD1")
    return fro


def test_count_54_bank_type_mention_before_any_banker(bac):
    session = bac.session("BD1", open_=False)
    with pytest.raises(RuleViolation) as no_mention:
        baccara.banker_segment_start(session=session, banker="M. Dupont", bank=BANK, actor=bac.director)
    assert no_mention.value.code == "COUNT-54"
    with pytest.raises(RuleViolation) as unknown:
        baccara.baccara_bank_record(table=bac.tables["BD1"], kind="mixte", actor=bac.director)
    assert unknown.value.code == "COUNT-54"
    baccara.baccara_bank_record(table=bac.tables["BD1"], kind=BaccaraBank.Kind.LIMITED, actor=bac.director)
    first = current_register(bac.est, CARNET_CAGNOTTES.code, "BD1").entries.filter(kind="record").first()
    assert first.payload["certification"] == "Baccara à banque limitée"
    with pytest.raises(RuleViolation) as nameless:
        baccara.banker_segment_start(session=session, banker="  ", bank=BANK, actor=bac.director)
    assert nameless.value.code == "COUNT-54"


def test_count_54_each_banker_heads_his_segment(bac):
    baccara.baccara_bank_record(table=bac.tables["BD1"], kind=BaccaraBank.Kind.OPEN, actor=bac.director)
    session = bac.session("BD1", open_=False)  # the first banker is written at the start of the séance
    baccara.banker_segment_start(session=session, banker="M. Dupont", bank=BANK, actor=bac.director)
    baccara.banker_segment_start(session=session, banker="Mme Martin", bank=plaques(30_000), actor=bac[Role.COMITE])
    assert [s.banker for s in session.banker_segments.all()] == ["M. Dupont", "Mme Martin"]
    bankers = [
        e.payload["col3"]["bankers"]
        for e in current_register(bac.est, CARNET_CAGNOTTES.code, "BD1").entries.filter(
            kind="record", payload__line="banker"
        )
    ]
    assert bankers == ["M. Dupont", "Mme Martin"]


def test_count_54_through_the_api_and_pages(client, bac):
    api = APIClient()
    api.force_authenticate(bac.director)
    assert (
        api.post(
            "/api/v1/cash/baccara-banks/", {"table": bac.tables["BD1"].pk, "kind": "ouverte"}, format="json"
        ).status_code
        == 201
    )
    session = bac.session("BD1", open_=False)
    segment = {"table_session": session.pk, "banker": "", "bank": BANK}
    nameless = api.post("/api/v1/cash/banker-segments/", segment, format="json")
    assert nameless.status_code == 409 and nameless.json()["code"] == "COUNT-54"
    client.force_login(bac.director)
    assert client.get(f"/caisses/tables/{session.pk}/banquier/").status_code == 200
    posted = client.post(f"/caisses/tables/{session.pk}/banquier/", {"banker": "M. Durand", "bank": "1000 x 20 plaque"})
    assert posted.status_code == 302
    assert session.banker_segments.get().banker == "M. Durand"


def test_count_54_bank_mention_page(client, bac):
    client.force_login(bac.director)
    assert client.get("/caisses/baccara/mention/").status_code == 200
    assert (
        client.post("/caisses/baccara/mention/", {"table": bac.tables["BD1"].pk, "kind": "limitee"}).status_code == 302
    )
    assert BaccaraBank.objects.get().kind == "limitee"


def test_count_54_no_cagnotte_computed_for_a_partie_without_a_banker(bac):
    baccara.baccara_bank_record(table=bac.tables["BD1"], kind=BaccaraBank.Kind.LIMITED, actor=bac.director)
    sabots.open_equipment_volumes(bac.est, bac.users, director=bac.director)
    cabinet = LocationFactory(
        establishment=bac.est, code="armoire-sabots", name="Armoire à sabots", kind="shoe_cabinet", room=bac.room
    )
    (shoe,) = sabots.receive_shoes(
        bac.est, ["1"], location=cabinet, actor=bac.director, model=sabots.shoe_model(bac.est, actor=bac.director)
    )
    session = bac.session("BD1", open_=False)
    shoe_allocate(session=session, shoe=shoe, actor=bac.director)  # SHOE-12: the table opens with its sabot
    table_cagnotte_record(table=bac.tables["BD1"], number="BD1", actor=bac.director)  # and its cagnotte (COUNT-42)
    session = table_session_open(session=session, actor=bac.director)
    shoe_return(shoes=[shoe], to_location=cabinet, actor=bac.director)  # SHOE-09: back before the partie ends
    bac.close(session)
    with pytest.raises(RuleViolation) as bankerless:
        services.cagnotte_compute(session=session, detached=[], actor=bac.director)
    assert bankerless.value.code == "COUNT-54"


def test_count_27_banker_bank_holds_only_chips_or_plaques(client, bac):
    baccara.baccara_bank_record(table=bac.tables["BD1"], kind=BaccaraBank.Kind.OPEN, actor=bac.director)
    session = bac.session("BD1", open_=False)
    with pytest.raises(RuleViolation) as banknotes:
        baccara.banker_segment_start(
            session=session,
            banker="M. Dupont",
            actor=bac.director,
            bank=[*BANK, {"value": "500", "quantity": 2, "kind": "billet"}],
        )
    assert banknotes.value.code == "COUNT-27"
    assert not session.banker_segments.exists()
    segment = baccara.banker_segment_start(session=session, banker="M. Dupont", bank=BANK, actor=bac.director)
    assert segment.bank_amount == 20_000 and segment.bank[0]["kind"] == "plaque"
    line = current_register(bac.est, CARNET_CAGNOTTES.code, "BD1").entries.filter(payload__line="banker").get()
    assert "somme en banque 20000.00 €" in line.payload["certification"]
    client.force_login(bac.director)
    refused = client.post(
        f"/caisses/tables/{session.pk}/banquier/", {"banker": "Mme Martin", "bank": "1000 x 10 plaque\n500 x 4 billet"}
    )
    assert refused.status_code == 409 and "COUNT-27" in refused.content.decode()
    api = APIClient()
    api.force_authenticate(bac.director)
    answer = api.post(
        "/api/v1/cash/banker-segments/",
        {
            "table_session": session.pk,
            "banker": "Mme Martin",
            "bank": [{"value": "500", "quantity": 4, "kind": "billet"}],
        },
        format="json",
    )
    assert answer.status_code == 409 and answer.json()["code"] == "COUNT-27"
