"""Acts the recorded state of a card unit makes impossible answer 409 with the catalogue row that
governs where a unit may be (CARD-08 / CARD-28), not a 400."""

from rest_framework.test import APIClient

from ledgers.core.authz import save_audited
from ledgers.custody.models import ItemStatus
from tests.cards.conftest import World
from tests.factories import DEFAULT_PASSWORD

API = "/api/v1/cards/"


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _refused(response, code: str, article: str) -> None:
    assert response.status_code == 409, response.json()
    body = response.json()
    assert (body["code"], body["article"]) == (code, article) and body["detail"]


def test_card_08_card_28_issuing_a_destroyed_unit_is_409(world: World):
    (unit,) = world.receive(world.spec())
    unit.status = ItemStatus.DESTROYED
    save_audited(unit, actor=world.director, reason="destruction")
    response = _client(world.keeper).post(
        f"{API}issues/",
        {"table_session": world.session().pk, "units": [unit.pk], "received_by": "M. Croupier"},
        format="json",
    )
    expected = ("CARD-08", "AM 88-384 art. 1.1") if world.mc else ("CARD-28", "Arrêté du 14 mai 2007 art. 39")
    _refused(response, *expected)
    unit.refresh_from_db()
    assert unit.status == ItemStatus.DESTROYED and unit.table_session_id is None


def test_card_08_issuing_a_unit_already_at_a_table_is_409(mcw: World):
    (unit,) = mcw.receive(mcw.spec())
    mcw.issue(mcw.session("blackjack"), unit)
    response = _client(mcw.cartier).post(
        f"{API}issues/",
        {"table_session": mcw.session("punto_banco").pk, "units": [unit.pk], "received_by": "M. Croupier"},
        format="json",
    )
    _refused(response, "CARD-08", "AM 88-384 art. 1.1")


def test_card_08_returning_cards_that_are_not_out_is_409(mcw: World):
    (unit,) = mcw.receive(mcw.spec())
    response = _client(mcw.cartier).post(
        f"{API}returns/",
        {
            "units": [unit.pk],
            "to_location": mcw.depot.pk,
            "returned_by": "M. Croupier",
            "signer_username": mcw.inspecteur.username,
            "signer_password": DEFAULT_PASSWORD,
        },
        format="json",
    )
    _refused(response, "CARD-08", "AM 88-384 art. 1.1")


def test_card_08_withdrawing_a_unit_at_a_table_is_409(mcw: World):
    (unit,) = mcw.receive(mcw.spec())
    mcw.issue(mcw.session(), unit)
    response = _client(mcw.cartier).post(
        f"{API}withdrawals/", {"units": [unit.pk], "status": "damaged", "reason": "Coin corné"}, format="json"
    )
    _refused(response, "CARD-08", "AM 88-384 art. 1.1")
