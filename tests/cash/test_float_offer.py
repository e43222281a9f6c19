"""The avance is offered only to whom its service lets hand it over (COUNT-01 in Monaco: the cash
desk; COUNT-34 in France: the directeur responsable or a comité member), asked of the function the
service runs: the others see the act disabled with its row and article, never the grid."""

import pytest

from ledgers.cash import services
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from tests.cash.conftest import mc_bank, plaques


def test_count_01_float_refusal_is_the_services_own_refusal(mco):
    session = mco.session("BJ1")
    refusal = services.float_refusal(session, mco[Role.CROUPIER])
    assert refusal.code == "COUNT-01"
    with pytest.raises(RuleViolation) as refused:
        services.float_record(session=session, breakdown=plaques(50_000), actor=mco[Role.CROUPIER])
    assert (refused.value.code, str(refused.value.message)) == (refusal.code, str(refusal.message))
    assert services.float_refusal(session, mco[Role.CAISSIER]) is None
    assert mc_bank(mco, session, 50_000).amount == 50_000


def test_count_01_no_bank_fixed_refused_before_the_grid(mco):
    refusal = services.float_refusal(mco.session("CF1"), mco[Role.CAISSIER])
    assert refusal.code == "COUNT-01" and "n'a pas fixé" in str(refusal.message)


def test_count_34_fr_avance_signed_by_the_direction_only(fro):
    session = fro.session(next(n for n, t in fro.tables.items() if t.game_info.family == "contrepartie"))
    assert services.float_refusal(session, fro[Role.CROUPIER]).code == "COUNT-34"
    assert services.float_refusal(session, fro.director) is None


def test_count_01_croupier_gets_no_grid_and_the_day_shows_why(client, mco):
    session = mco.session("BJ1")
    client.force_login(mco[Role.CROUPIER])
    response = client.get(f"/caisses/tables/{session.pk}/avance/")
    page = response.content.decode()
    assert response.status_code == 409 and "COUNT-01" in page and "AM 88-384 art. 14" in page
    assert 'name="breakdown' not in page and '<form method="post"' not in page
    day = client.get("/caisses/").content.decode()
    assert f'href="/caisses/tables/{session.pk}/avance/"' not in day and "COUNT-01" in day
    client.force_login(mco[Role.CAISSIER])
    assert client.get(f"/caisses/tables/{session.pk}/avance/").status_code == 200
    assert f'href="/caisses/tables/{session.pk}/avance/"' in client.get("/caisses/").content.decode()


def test_count_05_certification_offered_only_to_the_certifiers(client, mco):
    session = mco.session("BJ1")
    client.force_login(mco[Role.CAISSIER])
    response = client.get(f"/caisses/tables/{session.pk}/certification/")
    assert response.status_code == 409 and "COUNT-05" in response.content.decode()
    client.force_login(mco[Role.INSPECTEUR])
    assert client.get(f"/caisses/tables/{session.pk}/certification/").status_code == 200
