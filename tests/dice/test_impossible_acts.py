"""Acts the recorded state of a die or of a table's dice makes impossible answer 409 with the
catalogue row that governs them, not a 400."""

import pytest
from rest_framework.test import APIClient

from ledgers.core.authz import save_audited
from ledgers.core.errors import STATE_RULE, RuleViolation
from ledgers.core.services import table_session_close
from ledgers.custody.models import ItemStatus
from tests.dice.conftest import allocate_mc, fr_order, open_table, receive_mc
from tests.factories import DEFAULT_PASSWORD

API = "/api/v1/dice/"


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _refused(response, code: str) -> None:
    assert response.status_code == 409, response.json()
    assert response.json()["code"] == code and response.json()["article"] == "AM 88-384 art. 2"


def test_dice_06_allocating_a_destroyed_die_is_409(mc_org):
    dice = receive_mc(mc_org, 5)
    dice[0].status = ItemStatus.DESTROYED
    save_audited(dice[0], actor=mc_org["cartier"], reason="destruction")
    response = api(mc_org["cartier"]).post(
        f"{API}allocations/new/",
        {
            "table_session": mc_org.session().pk,
            "dice": [d.serial for d in dice],
            "signer_username": mc_org["sous_directeur"].username,
            "signer_password": DEFAULT_PASSWORD,
        },
        format="json",
    )
    _refused(response, "DICE-06")


def test_dice_06_withdrawing_a_die_at_a_table_is_409(mc_org):
    session = mc_org.session()
    allocation = allocate_mc(mc_org, session)
    die = allocation.lines.first().die
    response = api(mc_org["cartier"]).post(
        f"{API}withdrawals/", {"dice": [die.serial], "reason": "used"}, format="json"
    )
    _refused(response, "DICE-06")


def _checked(org):
    """A craps table-partie with its dice allocated and checked at the end of the séance."""
    session = org.session()
    dice = [line.die for line in allocate_mc(org, session).lines.all()]
    open_table(org, session)
    body = {
        "table_session": session.pk,
        "return_to": org.depot.code,
        "results": [{"serial": d.serial, "result": "ok"} for d in dice],
    }
    assert api(org["sous_directeur"]).post(f"{API}checks/new/", body, format="json").status_code == 201
    return session, body


def test_dice_11_checking_a_table_twice_is_409(mc_org):
    _session, body = _checked(mc_org)
    _refused(api(mc_org["sous_directeur"]).post(f"{API}checks/new/", body, format="json"), "DICE-11")


def test_reg_20_visaing_an_order_twice_is_409(fr_org):
    order = fr_order(fr_org)  # visaed by the police
    response = api(fr_org["police"]).post(f"{API}orders/{order.pk}/visa/", {"statement": "Vu"}, format="json")
    assert response.status_code == 409, response.json()
    assert response.json()["code"] == STATE_RULE and response.json()["article"]


def test_reg_20_opening_a_table_partie_twice_is_refused(mc_org):
    session = mc_org.session()
    allocate_mc(mc_org, session)
    open_table(mc_org, session)
    with pytest.raises(RuleViolation) as refused:
        open_table(mc_org, session)
    assert refused.value.code == STATE_RULE


def test_reg_20_allocating_dice_to_a_closed_table_is_409(mc_org):
    session, _body = _checked(mc_org)
    table_session_close(session=session, actor=mc_org["sous_directeur"])
    response = api(mc_org["cartier"]).post(
        f"{API}allocations/new/",
        {
            "table_session": session.pk,
            "dice": [d.serial for d in receive_mc(mc_org, 5)],
            "signer_username": mc_org["sous_directeur"].username,
            "signer_password": DEFAULT_PASSWORD,
        },
        format="json",
    )
    assert response.status_code == 409, response.json()
    assert response.json()["code"] == STATE_RULE
