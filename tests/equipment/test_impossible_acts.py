"""Acts the recorded state of a sabot or a shuffler makes impossible answer 409 (code, article)."""

from rest_framework.test import APIClient

from ledgers.core.errors import STATE_RULE
from ledgers.core.roles import Role
from ledgers.equipment import services
from tests.equipment.conftest import receive_shoes, shuffler

API = "/api/v1/equipment/"


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_shoe_03_withdrawing_a_sabot_twice_is_409(mco):
    (shoe,) = receive_shoes(mco, ["S1"])
    keeper = mco.users[Role.CARTIER]
    services.shoe_withdraw(shoe=shoe, actor=keeper, reason="Orifice ébréché")
    response = _client(keeper).post(f"{API}shoes/{shoe.pk}/withdraw/", {"reason": "Fendu"}, format="json")
    assert response.status_code == 409, response.json()
    assert response.json()["code"] == "SHOE-03" and response.json()["article"] == "AM 88-384 art. 1.5"


def test_reg_20_commissioning_a_shuffler_twice_is_409(mco):
    machine = shuffler(mco)  # commissioned
    response = _client(mco.director).post(
        f"{API}shufflers/{machine.pk}/commission/",
        {"card_access_protection": True, "malfunction_signal": True},
        format="json",
    )
    assert response.status_code == 409, response.json()
    assert response.json()["code"] == STATE_RULE and response.json()["article"]
