"""The avance is offered only to whom its service lets hand it over (COUNT-01 in Monaco: the cash
desk; COUNT-34 in France: the directeur responsable or a comité member), asked of the function the
service runs: the others see the act disabled with its row and article, never the grid."""

import pytest

from ledgers.cash import services
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.tables.registers import TABLE_LOG
from ledgers.tables.rules import Position
from ledgers.tables.services import staff_assign
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


def test_count_04_the_croupier_is_offered_no_slip_nor_any_direction_setting(client, mco):
    client.force_login(mco[Role.CROUPIER])
    day = client.get("/caisses/").content.decode()
    offered_elsewhere = ("/caisses/bons/carnets/nouveau/", "/caisses/bons/annulation/", "/caisses/orphelins/nouveau/")
    for path in ("/caisses/bons/nouveau/", "/caisses/somme-en-banque/", "/caisses/refait/", *offered_elsewhere):
        assert f'href="{path}"' not in day
    slip = client.get("/caisses/bons/nouveau/")
    page = slip.content.decode()
    assert slip.status_code == 409 and "COUNT-04" in page and '<form method="post"' not in page
    for path in ("/caisses/somme-en-banque/", "/caisses/refait/", "/caisses/bons/carnets/nouveau/"):
        refused = client.get(path)
        assert refused.status_code == 403 and '<form method="post"' not in refused.content.decode()


def test_count_04_the_chef_de_table_writes_slips_and_the_direction_fixes_the_bank(client, mco):
    client.force_login(mco[Role.CHEF_TABLE])
    assert 'href="/caisses/bons/nouveau/"' in client.get("/caisses/").content.decode()
    assert client.get("/caisses/bons/nouveau/").status_code == 200
    client.force_login(mco.director)
    day = client.get("/caisses/").content.decode()
    assert 'href="/caisses/somme-en-banque/"' in day and 'href="/caisses/refait/"' in day
    assert 'href="/caisses/bons/carnets/nouveau/"' in day and 'href="/caisses/orphelins/nouveau/"' not in day
    assert client.get("/caisses/somme-en-banque/").status_code == 200
    assert client.get("/caisses/refait/").status_code == 200


def test_count_13_box_holder_offered_to_the_direction_while_no_chef_de_table_is_on_duty(client, fro):
    session = fro.session("RA1")
    link = f'href="/caisses/tables/{session.pk}/employe-caisse/"'
    client.force_login(fro[Role.CROUPIER])
    assert link not in client.get("/caisses/").content.decode()
    assert client.get(f"/caisses/tables/{session.pk}/employe-caisse/").status_code == 403
    client.force_login(fro.director)
    assert link in client.get("/caisses/").content.decode()
    assert client.get(f"/caisses/tables/{session.pk}/employe-caisse/").status_code == 200
    fro.open_register(TABLE_LOG.code)
    staff_assign(session=session, position=Position.CHEF_TABLE, person=fro[Role.CHEF_TABLE], actor=fro.director)
    day = client.get("/caisses/").content.decode()
    assert link not in day and "COUNT-13" in day
    refused = client.get(f"/caisses/tables/{session.pk}/employe-caisse/")
    assert refused.status_code == 409 and '<form method="post"' not in refused.content.decode()


def test_count_40_fr_ticket_book_offered_to_its_keeper_alone(client, fro):
    link = 'href="/caisses/carnets-tickets/nouveau/"'
    for role in (Role.CROUPIER, Role.COMITE):
        client.force_login(fro[role])
        assert link not in client.get("/caisses/").content.decode()
        assert link not in client.get("/caisses/carnets-tickets/").content.decode()
        refused = client.get("/caisses/carnets-tickets/nouveau/")
        page = refused.content.decode()
        assert refused.status_code == 409 and "COUNT-40" in page and '<form method="post"' not in page
    client.force_login(fro[Role.GARDIEN_CARNETS])
    assert link in client.get("/caisses/").content.decode()
    assert client.get("/caisses/carnets-tickets/nouveau/").status_code == 200


def test_count_07_mc_ticket_book_not_offered_to_the_croupier(client, mco):
    link = 'href="/caisses/carnets-tickets/nouveau/"'
    client.force_login(mco[Role.CROUPIER])
    assert link not in client.get("/caisses/").content.decode()
    assert client.get("/caisses/carnets-tickets/nouveau/").status_code == 403
    client.force_login(mco[Role.INSPECTEUR])
    assert link in client.get("/caisses/").content.decode()


@pytest.mark.parametrize(
    ("path", "status", "allowed"),
    [
        ("/caisses/caisse-changeur/somme/", 409, Role.DIRECTEUR_RESPONSABLE),  # COUNT-28
        ("/caisses/cagnottes/nouvelle/", 403, Role.COMITE),  # COUNT-17: the Direction or the comité
    ],
)
def test_count_28_count_17_changeur_sum_and_cagnotte_offered_to_the_direction_alone(client, fro, path, status, allowed):
    client.force_login(fro[Role.CROUPIER])
    assert f'href="{path}"' not in client.get("/caisses/").content.decode()
    refused = client.get(path)
    assert refused.status_code == status and '<form method="post"' not in refused.content.decode()
    client.force_login(fro[allowed])
    assert f'href="{path}"' in client.get("/caisses/").content.decode()
    assert client.get(path).status_code == 200


def test_count_29_bons_centralised_by_a_cashier_alone(client, fro):
    seance = fro.seance()
    fro.session("RA1", seance=seance)
    link = f'href="/caisses/seances/{seance.pk}/centralisation/"'
    client.force_login(fro[Role.CROUPIER])
    assert link not in client.get("/caisses/").content.decode()
    assert client.get(f"/caisses/seances/{seance.pk}/centralisation/").status_code == 403
    client.force_login(fro[Role.CAISSIER])
    assert link in client.get("/caisses/").content.decode()
    assert client.get(f"/caisses/seances/{seance.pk}/centralisation/").status_code == 200
