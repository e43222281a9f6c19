"""The somme mise en banque fixed by the Direction (MC COUNT-01) and the centralisation of the
ravitaillement bons (FR COUNT-29) through the API, as on their pages."""

from decimal import Decimal

from rest_framework.test import APIClient

from ledgers.cash import services
from ledgers.core.roles import Role
from ledgers.core.services import seance_close
from tests.cash.conftest import book

from .test_slips import ravitaillement


def api_as(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_count_01_somme_en_banque_fixed_through_the_api(mco):
    table = mco.tables["CF1"]
    refused = api_as(mco[Role.CROUPIER]).post(
        "/api/v1/cash/bank-amounts/", {"table": table.pk, "amount": "40000"}, format="json"
    )
    assert refused.status_code == 403
    done = api_as(mco.director).post(
        "/api/v1/cash/bank-amounts/", {"table": table.pk, "amount": "40000"}, format="json"
    )
    assert done.status_code == 201 and done.json() == {"table": "CF1", "amount": "40000.00"}
    table.establishment.refresh_from_db()
    assert Decimal(str(table.establishment.setting("SET-06")["CF1"])) == Decimal("40000")


def test_count_29_bons_centralised_through_the_api(fro):
    seance = fro.seance()
    session = fro.session("TH1", seance=seance)
    services.slip_serve(slip=ravitaillement(fro, session, book(fro)), desk=fro.desk, actor=fro[Role.CAISSIER])
    fro.close(session)
    url = f"/api/v1/cash/seances/{seance.pk}/centralisation/"
    done = api_as(fro[Role.CAISSIER_PRINCIPAL]).post(url, {"desk": fro.desk.pk}, format="json")
    assert done.status_code == 201 and done.json() == {"centralised": 1}
    assert seance_close(seance=seance, actor=fro.director).status == "closed"
