"""FR art. 37: the changeur's cash box at a cercle table holds the sum fixed by the directeur
responsable and is written in carnet modèle 11 before he changes (COUNT-28); no foreign
currency is changed at a table (COUNT-27)."""

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from ledgers.cash import services
from ledgers.cash.models import ChangeurFloat, Slip, SlipBook
from ledgers.cash.registers import CARNET_CAGNOTTES
from ledgers.cash.services import changeurs
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register
from tests.cash.conftest import book, changeur_box, plaques
from tests.factories import make_user

CHIPS = [{"value": "100", "quantity": 50, "kind": "jeton"}]
NOTES = [{"value": "500", "quantity": 10, "kind": "billet"}]


def bon(org, session, actor=None, **kwargs):
    slip_book = SlipBook.objects.filter(establishment=org.est).first() or book(org)
    return services.slip_write(
        book=slip_book,
        number=1,
        session=session,
        requested=CHIPS,
        handed=NOTES,
        actor=actor or org[Role.CHANGEUR],
        supervisor=org[Role.CHEF_PARTIE],
        **kwargs,
    )


def test_count_28_changeur_float_fixed_by_the_directeur_responsable_and_written_in_modele_11(fro):
    session = fro.session("TH1")
    table = session.table
    with pytest.raises(RuleViolation) as not_fixed:
        changeurs.changeur_float_record(
            session=session, changeur=fro[Role.CHANGEUR], breakdown=plaques(5000), actor=fro.director
        )
    assert not_fixed.value.code == "COUNT-28"
    with pytest.raises(RuleViolation) as comite:
        changeurs.changeur_float_fix(table=table, amount=Decimal("5000"), actor=fro[Role.COMITE])
    assert comite.value.code == "COUNT-28"
    changeurs.changeur_float_fix(table=table, amount=Decimal("5000"), actor=fro.director)
    with pytest.raises(RuleViolation) as different:
        changeurs.changeur_float_record(
            session=session, changeur=fro[Role.CHANGEUR], breakdown=plaques(4000), actor=fro.director
        )
    assert different.value.code == "COUNT-28"
    with pytest.raises(RuleViolation) as croupier:
        changeurs.changeur_float_record(
            session=session, changeur=fro[Role.CROUPIER], breakdown=plaques(5000), actor=fro.director
        )
    assert croupier.value.code == "COUNT-28" and not ChangeurFloat.objects.exists()
    box = changeurs.changeur_float_record(
        session=session, changeur=fro[Role.CHANGEUR], breakdown=plaques(5000), actor=fro.director
    )
    entry = current_register(fro.est, CARNET_CAGNOTTES.code, "TH1").entries.filter(kind="record").last()
    assert box.amount == Decimal("5000.00") and "5000.00" in entry.payload["certification"]


def test_count_28_no_change_before_the_changeurs_box_is_written_nor_by_another_employee(fro):
    session = fro.session("TH1")
    with pytest.raises(RuleViolation) as early:
        bon(fro, session)
    assert early.value.code == "COUNT-28"
    changeur_box(fro, session)
    assert bon(fro, session).number == 1
    other = make_user(fro.est, Role.CHANGEUR, username="changeur3-frn")
    with pytest.raises(RuleViolation) as stranger:
        services.slip_write(
            book=Slip.objects.get().book,
            number=2,
            session=session,
            requested=CHIPS,
            handed=NOTES,
            actor=other,
            supervisor=fro[Role.CHEF_PARTIE],
        )
    assert stranger.value.code == "COUNT-28"


def test_count_27_no_foreign_currency_exchange_at_a_table(fro):
    session = fro.session("TH1")
    changeur_box(fro, session)
    with pytest.raises(RuleViolation) as refused:
        bon(fro, session, currency="USD")
    assert refused.value.code == "COUNT-27" and not Slip.objects.exists()


def test_count_28_changeur_box_page_and_api(client, fro):
    session = fro.session("TH1")
    api = APIClient()
    api.force_authenticate(fro.director)
    fixed = api.post(
        "/api/v1/cash/changeur-float-amounts/", {"table": session.table.pk, "amount": "3000"}, format="json"
    )
    assert fixed.status_code == 201
    body = {
        "table_session": session.pk,
        "changeur": fro[Role.CHANGEUR].username,
        "breakdown": [{"value": "1000", "quantity": 2, "kind": "plaque"}],
    }
    refused = api.post("/api/v1/cash/changeur-floats/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "COUNT-28"
    body["breakdown"][0]["quantity"] = 3
    assert api.post("/api/v1/cash/changeur-floats/", body, format="json").status_code == 201
    client.force_login(fro.director)
    assert client.get("/caisses/caisse-changeur/somme/").status_code == 200
    assert client.get(f"/caisses/tables/{session.pk}/caisse-changeur/").status_code == 200
