"""FR: the carnet d'avances of boule-type games stays on the table (COUNT-14); a box without chef
de table is held by the gaming employee designated for the table-partie (COUNT-13)."""

import pytest
from rest_framework.test import APIClient

from ledgers.cash.models import BoxHolderDesignation, TableFloat
from ledgers.cash.registers import CARNET_AVANCES
from ledgers.cash.services.box_holders import box_holder_designate
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register
from ledgers.tables.registers import TABLE_LOG
from ledgers.tables.rules import Position
from ledgers.tables.services import staff_assign
from tests.cash.conftest import fr_avance


def test_count_14_boule_carnet_on_the_table_confirmed_at_opening(fro):
    session = fro.session("B1")
    with pytest.raises(RuleViolation) as refused:
        fr_avance(fro, session, 40_000, carnet_on_table=False)
    assert refused.value.code == "COUNT-14" and not TableFloat.objects.exists()
    assert fr_avance(fro, session, 40_000).carnet_on_table
    roulette = fro.session("RA1", seance=session.seance)
    assert not fr_avance(fro, roulette, carnet_on_table=False).carnet_on_table  # roulette: no such rule


def test_count_13_box_received_by_the_chef_de_table_or_the_designated_employee(fro):
    session = fro.session("RA1")
    with pytest.raises(RuleViolation) as stranger:
        fr_avance(fro, session, receiver=fro[Role.CROUPIER])
    assert stranger.value.code == "COUNT-13" and not TableFloat.objects.exists()
    with pytest.raises(RuleViolation) as not_gaming:
        box_holder_designate(session=session, employee=fro[Role.CAISSIER], actor=fro.director)
    assert not_gaming.value.code == "COUNT-13" and not BoxHolderDesignation.objects.exists()
    box_holder_designate(session=session, employee=fro[Role.CROUPIER], actor=fro.director)
    received = fr_avance(fro, session, receiver=fro[Role.CROUPIER])
    assert received.received_by == fro[Role.CROUPIER]
    entries = current_register(fro.est, CARNET_AVANCES.code, "RA1").entries.filter(kind="record").order_by("seq")
    assert "Désignation" in entries.reverse()[1].payload["event"]
    other = fro.session("RA2", seance=session.seance)
    assert fr_avance(fro, other, receiver=fro[Role.CHEF_TABLE]).received_by == fro[Role.CHEF_TABLE]


def test_count_13_designation_page_and_api(client, fro):
    session = fro.session("RA1")
    api = APIClient()
    api.force_authenticate(fro.director)
    refused = api.post(
        "/api/v1/cash/box-holders/",
        {"table_session": session.pk, "employee": fro[Role.CAISSIER].username},
        format="json",
    )
    assert refused.status_code == 409 and refused.json()["code"] == "COUNT-13"
    done = api.post(
        "/api/v1/cash/box-holders/",
        {"table_session": session.pk, "employee": fro[Role.CHEF_PARTIE].username},
        format="json",
    )
    assert done.status_code == 201
    client.force_login(fro.director)
    assert client.get(f"/caisses/tables/{session.pk}/employe-caisse/").status_code == 200


def test_count_13_no_designation_while_a_chef_de_table_is_on_duty(fro):
    fro.open_register(TABLE_LOG.code)
    session = fro.session("RA1")
    staff_assign(session=session, position=Position.CHEF_TABLE, person=fro[Role.CHEF_TABLE], actor=fro.director)
    with pytest.raises(RuleViolation) as refused:
        box_holder_designate(session=session, employee=fro[Role.CROUPIER], actor=fro.director)
    assert refused.value.code == "COUNT-13" and not BoxHolderDesignation.objects.exists()
