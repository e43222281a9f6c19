"""The changeur, the cashiers, the caissier principal, the comité members and the directeur
responsable see what waits for them at the cash desks."""

from decimal import Decimal

from ledgers.cash import services
from ledgers.core.roles import Role
from tests.cash.conftest import book, changeur_box, counted, fr_avance, plaques
from tests.cash.test_cagnottes import computed_poker


def panel(client, user) -> str:
    client.force_login(user)
    return client.get("/").content.decode()


def test_each_role_sees_the_counts_and_slips_waiting_for_it(client, fro):
    seance = fro.seance()
    poker = fro.session("TH1", seance=seance)
    changeur_box(fro, poker)
    services.slip_write(
        book=book(fro),
        number=1,
        session=poker,
        requested=plaques(500, 100),
        handed=[{"value": "500", "quantity": 1, "kind": "billet"}],
        actor=fro[Role.CHANGEUR],
        supervisor=fro[Role.CHEF_TABLE],
    )
    roulette = fro.session("RA1", seance=seance)
    fr_avance(fro, roulette)
    fro.close(roulette)
    services.count_record(
        session=roulette, breakdown=plaques(150_000), actor=fro[Role.CROUPIER], present=["C"], tips=0, called_aloud=True
    )
    assert "Bon B-1 n° 1 à servir" in panel(client, fro[Role.CHANGEUR])
    cashier = panel(client, fro[Role.CAISSIER])
    assert "Bon B-1 n° 1 à servir" in cashier and "Second comptage de la table RA1" in cashier
    assert "Encaisse de la table RA1" not in panel(client, fro[Role.COMITE])  # the second count is missing
    services.count_record(session=roulette, breakdown=plaques(150_000), actor=fro[Role.CAISSIER])
    assert "Encaisse de la table RA1 à certifier" in panel(client, fro[Role.COMITE])
    assert "Encaisse de la table RA1 à certifier" in panel(client, fro.director)
    services.count_certify(count=roulette.count, actor=fro.director, words="exact")
    assert "journée du 02/03/2026 à arrêter" in panel(client, fro[Role.CAISSIER_PRINCIPAL])
    day = services.control_day_close(establishment=fro.est, date=fro.day, actor=fro[Role.CAISSIER_PRINCIPAL])
    assert "Registre de contrôle du 02/03/2026 à viser" in panel(client, fro[Role.COMITE])
    services.control_day_visa(day=day, actor=fro[Role.COMITE])
    assert "à viser" not in panel(client, fro[Role.COMITE]) and "à viser" in panel(client, fro.director)


def test_count_43_count_24_cagnottes_and_bad_beat_jackpots_waiting_for_their_count(client, fro):
    services.bad_beat_activate(
        table=fro.tables["TH1"], machine_approval="BBJ-A1", cagnotte_number="C-TH1", actor=fro.director
    )
    session = computed_poker(fro)
    comite = panel(client, fro[Role.COMITE])
    assert "Cagnotte de la table TH1 à ouvrir et compter" in comite
    assert "Cagnotte de la table TH1" not in panel(client, fro[Role.CAISSIER])  # opened only before the comité
    assert "Bad beat jackpot de la table TH1 à compter" in panel(client, fro[Role.CAISSIER])
    services.cagnotte_count(
        session=session, breakdown=plaques(200, 100), actor=fro[Role.COMITE], words="certifié exact"
    )
    services.bad_beat_record(
        session=session,
        counted=Decimal(50),
        statement=Decimal(50),
        displayed=Decimal(50),
        present=["Croupier"],
        actor=fro[Role.CAISSIER],
        comite=fro[Role.COMITE],
    )
    comite = panel(client, fro[Role.COMITE])
    assert "Cagnotte de la table TH1" not in comite and "Bad beat jackpot de la table TH1" not in comite


def test_a_difference_between_the_blind_counts_is_escalated_to_the_certifiers(client, fro):
    session = fro.session("RA1")
    fr_avance(fro, session)
    fro.close(session)
    counted(fro, session, 150_000, second=149_000)
    assert "Écart entre les deux comptages de la table RA1 à trancher" in panel(client, fro[Role.COMITE])


def test_the_table_counters_find_the_blind_count_of_a_partie_ended_on_their_home(client, fro):
    roulette = fro.session("RA1", seance=fro.seance())
    fr_avance(fro, roulette)
    count = f'href="/caisses/tables/{roulette.pk}/comptee/">Comptée — table RA1'
    assert count not in panel(client, fro[Role.CROUPIER])  # counted once the partie has ended
    fro.close(roulette)
    for counter in (Role.CROUPIER, Role.CHEF_TABLE, Role.CAISSIER):
        assert count in panel(client, fro[counter]), counter
    services.count_record(
        session=roulette, breakdown=plaques(150_000), actor=fro[Role.CROUPIER], present=["C"], tips=0, called_aloud=True
    )
    # The second count is another person's.
    assert count not in panel(client, fro[Role.CROUPIER]) and count in panel(client, fro[Role.CHEF_TABLE])
