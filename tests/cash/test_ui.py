"""The table cash pages answer in both jurisdictions; a refusal shows its requirement ID and
article and keeps what was typed; the forms reach the services."""

from decimal import Decimal

from django.utils import translation

from ledgers.cash.models import Slip, TableCount, TableFloat
from ledgers.core.roles import Role
from ledgers.core.templatetags.ledgers import money
from tests.cash.conftest import book, changeur_box, counted, fr_avance
from tests.factories import DEFAULT_PASSWORD


def test_pages_answer_for_both_jurisdictions(client, fro, mco):
    for org in (fro, mco):
        session = org.session(next(iter(org.tables)))
        client.force_login(org.director)
        for url in [
            "/caisses/",
            f"/caisses/tables/{session.pk}/avance/",
            f"/caisses/tables/{session.pk}/comptee/",
            f"/caisses/tables/{session.pk}/certification/",
            "/caisses/bons/nouveau/",
            "/caisses/bons/carnets/nouveau/",
            "/caisses/bons/annulation/",
            "/caisses/cagnotte-poker/",
            "/caisses/signalements/",
            "/caisses/somme-en-banque/",
            "/caisses/registre-controle/",
        ]:
            response = client.get(url)
            if org is mco and url.endswith("/avance/"):  # the cash desk hands the bank (COUNT-01)
                assert response.status_code == 409 and "COUNT-01" in response.content.decode(), url
            elif url.endswith("/comptee/"):  # counted by the counters, not the direction
                assert response.status_code == 403, url
            elif url.endswith("/bons/nouveau/"):  # written by the chef de table or the changeur
                assert (
                    response.status_code == 409
                    and ("COUNT-04" if org is mco else "COUNT-29") in response.content.decode()
                )
            elif org is fro and url.endswith("/somme-en-banque/"):  # Monaco's Direction des Jeux fixes it
                assert response.status_code == 403, url
            else:
                assert response.status_code == 200, url


def test_float_form_refusal_shows_the_requirement_and_keeps_the_input(client, fro):
    session = fro.session("RA1")
    client.force_login(fro.director)
    data = {
        "kind": "initial",
        "breakdown": "1000 x 100 plaque",
        "box_number": "RA1",
        "counted_by": staff_name(fro[Role.CROUPIER]),  # picked among the table's staff
        "called_aloud": "on",
    }
    response = client.post(f"/caisses/tables/{session.pk}/avance/", data)
    assert response.status_code == 409
    body = response.content.decode()
    # The quantities typed in the denomination grid come back with the refusal.
    assert "COUNT-12" in body and 'id="id_breakdown_plaque_1000" value="100"' in body
    data["breakdown"] = "1000 x 150 plaque"
    assert client.post(f"/caisses/tables/{session.pk}/avance/", data).status_code == 302
    assert TableFloat.objects.get().amount == Decimal("150000.00")


def test_mc_bank_form_with_the_chef_de_table_countersignature(client, mco):
    session = mco.session("BJ1")
    client.force_login(mco[Role.CAISSIER])
    response = client.post(
        f"/caisses/tables/{session.pk}/avance/",
        {
            "breakdown": "5000 x 10 plaque",
            "receiver_username": mco[Role.CHEF_TABLE].username,
            "receiver_password": DEFAULT_PASSWORD,
        },
    )
    assert response.status_code == 302
    assert TableFloat.objects.get().received_by == mco[Role.CHEF_TABLE]


def test_slip_count_certify_and_control_through_the_pages(client, fro):
    seance = fro.seance()
    poker = fro.session("TH1", seance=seance)
    slip_book = book(fro)
    changeur_box(fro, poker)
    client.force_login(fro[Role.CHANGEUR])
    response = client.post(
        "/caisses/bons/nouveau/",
        {
            "book": slip_book.pk,
            "number": 1,
            "table_session": poker.pk,
            "requested": "100 x 50",
            "handed": "500 x 10 billet",
            "supervisor_username": fro[Role.CHEF_PARTIE].username,
            "supervisor_password": DEFAULT_PASSWORD,
        },
    )
    assert response.status_code == 302, response.content.decode()
    slip = Slip.objects.get()
    client.force_login(fro[Role.CAISSIER])
    assert client.post(f"/caisses/bons/{slip.pk}/servir/", {"desk": fro.desk.pk}).status_code == 302
    assert client.post(f"/caisses/seances/{seance.pk}/centralisation/", {"desk": fro.desk.pk}).status_code == 302
    session = fro.session("RA1", seance=seance)
    fr_avance(fro, session)
    fro.close(session)
    client.force_login(fro[Role.CROUPIER])
    assert (
        client.post(
            f"/caisses/tables/{session.pk}/comptee/",
            {
                "breakdown": "1000 x 151 plaque",
                "present": [staff_name(fro[Role.CROUPIER]), staff_name(fro[Role.CHEF_TABLE])],
                "called_aloud": "on",
                "tips": "0",
            },
        ).status_code
        == 302
    )
    client.force_login(fro[Role.CAISSIER])
    assert client.post(f"/caisses/tables/{session.pk}/comptee/", {"breakdown": "1000 x 151 plaque"}).status_code == 302
    client.force_login(fro[Role.COMITE])
    response = client.post(
        f"/caisses/tables/{session.pk}/certification/", {"words": "exact", "password": DEFAULT_PASSWORD}
    )
    assert response.status_code == 302
    assert TableCount.objects.get().status == TableCount.Status.CERTIFIED
    client.force_login(fro[Role.CAISSIER_PRINCIPAL])
    assert client.post("/caisses/registre-controle/", {"date": fro.day.isoformat()}).status_code == 302
    page = client.get("/caisses/registre-controle/").content.decode()
    assert "mille euros" in page


def test_count_page_hides_the_first_count_until_both_are_in(client, fro):
    session = fro.session("RA1")
    fr_avance(fro, session)
    fro.close(session)
    counted(fro, session, 151_000, second=152_000)
    client.force_login(fro[Role.COMITE])
    page = client.get(f"/caisses/tables/{session.pk}/certification/").content.decode()
    with translation.override("fr"):  # the page's language; amounts as the money filter writes them
        both = money(151_000), money(152_000)
    assert all(amount in page for amount in both)  # the certifier sees both once they are in


def staff_name(user) -> str:
    return user.get_full_name() or user.get_username()
