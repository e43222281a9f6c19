"""Cagnottes and ticket books: MC chemin de fer (COUNT-07, COUNT-08; REG-13), FR cercle games and
the carnet modèle 11 (COUNT-39, 43, 52, 53; REG-30; INC-17 and MC INC-01 opened on a difference)."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from ledgers.cash import services
from ledgers.cash.models import CagnotteCount
from ledgers.cash.registers import CAGNOTTES_MC, CARNET_CAGNOTTES
from ledgers.cash.rules import CAGNOTTE_DIFFERENCE
from ledgers.cash.services import tickets
from ledgers.cash.services.table_cagnottes import table_cagnotte_record
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.core.services import seance_close
from ledgers.incidents.models import Incident
from ledgers.registers.selectors import current_register
from tests.cash.conftest import certified, fr_avance, plaques
from tests.factories import GamingTableFactory, post_displays


def ticket_book(org, number, cover=None, value="5", first=1, last=500):
    keeper = org[Role.GARDIEN_CARNETS] if org.est.jurisdiction == "FR" else org.director
    return services.ticket_book_register(
        table=org.tables[number],
        cover_number=cover or number,
        ticket_value=Decimal(value),
        first_number=first,
        last_number=last,
        actor=keeper,
    )


def played(org, number, seance=None):
    return org.close(org.session(number, seance=seance))


def computed_poker(org):
    """TH1 played, 40 tickets of 5 € detached: a computed cagnotte of 200 €."""
    book = ticket_book(org, "TH1")
    session = played(org, "TH1")
    services.cagnotte_compute(session=session, detached=[{"book": book, "last_number": 40}], actor=org[Role.COMITE])
    return session


def test_count_39_fr_ticket_book_bears_its_tables_number(fro):
    with pytest.raises(RuleViolation) as refused:
        ticket_book(fro, "TH1", cover="TH2")
    assert refused.value.code == "COUNT-39"
    assert ticket_book(fro, "TH1").cover_number == "TH1"


def test_count_07_mc_one_active_ticket_book_per_chemin_de_fer_table(mco):
    ticket_book(mco, "CF1", cover="CF-A")
    with pytest.raises(RuleViolation) as refused:
        ticket_book(mco, "CF1", cover="CF-B")
    assert refused.value.code == "COUNT-07"


def test_count_08_count_09_reg_13_mc_no_cagnotte_opened_before_the_ticket_book_check(mco):
    book = ticket_book(mco, "CF1", cover="CF-A")
    session = played(mco, "CF1")
    with pytest.raises(RuleViolation) as refused:
        services.cagnotte_count(session=session, breakdown=plaques(500, 100), actor=mco[Role.INSPECTEUR])
    assert refused.value.code == "COUNT-08"
    computed = services.cagnotte_compute(
        session=session, detached=[{"book": book, "last_number": 100}], actor=mco[Role.INSPECTEUR]
    )
    assert computed.computed == Decimal("500.00") and computed.tickets[0]["tickets"] == 100
    counted = services.cagnotte_count(session=session, breakdown=plaques(495, 100), actor=mco[Role.INSPECTEUR])
    assert counted.shortfall == Decimal("5.00") and counted.retained == Decimal("500.00")
    events = [e.payload["event"] for e in current_register(mco.est, CAGNOTTES_MC.code).entries.filter(kind="record")]
    assert events == [
        "Carnet de tickets mis en service",
        "Vérification des tickets et calcul de la cagnotte",
        "Comptage de la cagnotte",
    ]


def test_count_09_mc_the_cagnotte_to_hold_is_the_value_of_the_tickets_detached_per_book(mco):
    book = ticket_book(mco, "CF1", cover="CF-A")
    session = played(mco, "CF1")
    with pytest.raises(RuleViolation) as stubless:
        services.cagnotte_compute(session=session, detached=[], actor=mco[Role.INSPECTEUR])
    assert stubless.value.code == "COUNT-09"
    with pytest.raises(RuleViolation) as uncomputed:  # nor is the cagnotte counted before
        services.cagnotte_count(session=session, breakdown=plaques(250, 50), actor=mco[Role.INSPECTEUR])
    assert uncomputed.value.code == "COUNT-08"
    computed = services.cagnotte_compute(
        session=session, detached=[{"book": book, "last_number": 50}], actor=mco[Role.INSPECTEUR]
    )
    assert computed.computed == Decimal("250.00")


def test_count_52_fr_cagnotte_computed_before_the_directeur_or_a_comite_member(fro):
    book = ticket_book(fro, "TH1")
    session = played(fro, "TH1")
    with pytest.raises(RuleViolation) as refused:
        services.cagnotte_compute(
            session=session, detached=[{"book": book, "last_number": 40}], actor=fro[Role.CAISSIER]
        )
    assert refused.value.code == "COUNT-52"
    with pytest.raises(RuleViolation) as early:
        services.cagnotte_count(
            session=session, breakdown=plaques(200, 100), actor=fro[Role.COMITE], words="certifié exact"
        )
    assert early.value.code == "COUNT-52"


def test_count_39_a_book_is_used_only_at_its_table(fro):
    other = ticket_book(fro, "TH1")
    fro.tables["TH2"] = GamingTableFactory(establishment=fro.est, room=fro.room, number="TH2", game="texas_holdem")
    post_displays(fro.tables["TH2"])  # the rake rate displayed (REG-23, COUNT-20)
    fro.open_register(CARNET_CAGNOTTES.code, "TH2")
    table_cagnotte_record(table=fro.tables["TH2"], number="TH2", actor=fro[Role.COMITE])
    session = played(fro, "TH2")
    with pytest.raises(RuleViolation) as refused:
        services.cagnotte_compute(
            session=session, detached=[{"book": other, "last_number": 10}], actor=fro[Role.COMITE]
        )
    assert refused.value.code == "COUNT-39"


def test_count_43_cagnotte_counted_and_certified_exact_by_the_directeur_or_a_comite_member(fro):
    session = computed_poker(fro)
    with pytest.raises(RuleViolation) as refused:
        services.cagnotte_count(
            session=session, breakdown=plaques(200, 100), actor=fro[Role.CAISSIER], words="certifié exact"
        )
    assert refused.value.code == "COUNT-43"
    with pytest.raises(RuleViolation) as words:
        services.cagnotte_count(session=session, breakdown=plaques(200, 100), actor=fro[Role.COMITE], words="exact")
    assert words.value.code == "COUNT-43"
    cagnotte = services.cagnotte_count(
        session=session, breakdown=plaques(200, 100), actor=fro[Role.COMITE], words="Certifié exact"
    )
    assert cagnotte.retained == Decimal("200.00") and cagnotte.surplus == cagnotte.shortfall == 0
    page = current_register(fro.est, CARNET_CAGNOTTES.code, "TH1").entries.filter(kind="record").last()
    assert page.payload["col8"] == page.payload["col9"] == page.payload["col15"] == "200.00"
    assert page.payload["certification"] == "certifié exact"


def test_count_53_inc_17_surplus_balanced_by_tickets_and_the_higher_amount_carried(fro):
    session = computed_poker(fro)
    with pytest.raises(RuleViolation) as refused:
        services.cagnotte_count(
            session=session, breakdown=plaques(215, 100), actor=fro[Role.COMITE], words="certifié exact"
        )
    assert refused.value.code == "COUNT-53"
    cagnotte = services.cagnotte_count(
        session=session,
        breakdown=plaques(215, 100),
        actor=fro[Role.COMITE],
        words="certifié exact",
        balancing_ticket=43,
    )
    assert (cagnotte.surplus, cagnotte.balancing_ticket, cagnotte.retained) == (Decimal("15.00"), 43, Decimal("215.00"))


def test_count_53_inc_17_shortfall_borne_by_the_cash_desk_and_the_computed_amount_carried(fro):
    session = computed_poker(fro)
    cagnotte = services.cagnotte_count(
        session=session, breakdown=plaques(190, 100), actor=fro[Role.COMITE], words="certifié exact"
    )
    assert cagnotte.shortfall == Decimal("10.00") and cagnotte.retained == Decimal("200.00")
    page = current_register(fro.est, CARNET_CAGNOTTES.code, "TH1").entries.filter(kind="record").last()
    assert page.payload["col11"] == "10.00" and "supporté par la caisse" in page.payload["certification"]


def test_count_53_cagnotte_carried_to_modele_12_without_compensation(fro):
    seance = fro.seance()
    book = ticket_book(fro, "TH1")
    poker = played(fro, "TH1", seance=seance)
    roulette = fro.session("RA1", seance=seance)
    fr_avance(fro, roulette)
    fro.close(roulette)
    certified(fro, roulette, 149_000)
    services.cagnotte_compute(session=poker, detached=[{"book": book, "last_number": 40}], actor=fro[Role.COMITE])
    with pytest.raises(RuleViolation) as refused:
        seance_close(seance=seance, actor=fro.director)
    assert refused.value.code == "REG-25" and "cagnotte de la table TH1" in str(refused.value)
    with pytest.raises(RuleViolation) as early:
        services.control_day_close(establishment=fro.est, date=fro.day, actor=fro[Role.CAISSIER_PRINCIPAL])
    assert early.value.code == "COUNT-53"
    services.cagnotte_count(session=poker, breakdown=plaques(200, 100), actor=fro[Role.COMITE], words="certifié exact")
    day = services.control_day_close(establishment=fro.est, date=fro.day, actor=fro[Role.CAISSIER_PRINCIPAL])
    assert (day.contrepartie_total, day.cercle_total, day.total) == (
        Decimal("-1000.00"),
        Decimal("200.00"),
        Decimal("-800.00"),
    )
    assert day.total_words == "moins huit cents euros"


def test_tickets_detached_run_on_from_the_last_seance(fro):
    book = ticket_book(fro, "TH1", last=50)
    first = played(fro, "TH1", seance=fro.seance(day=0))
    services.cagnotte_compute(session=first, detached=[{"book": book, "last_number": 40}], actor=fro[Role.COMITE])
    second = played(fro, "TH1", seance=fro.seance(day=1))
    tickets.ticket_seance_stamp(book=book, actor=fro[Role.GARDIEN_CARNETS], blue_line=True)  # COUNT-40
    with pytest.raises(ValidationError):
        services.cagnotte_compute(session=second, detached=[{"book": book, "last_number": 51}], actor=fro[Role.COMITE])
    cagnotte = services.cagnotte_compute(
        session=second, detached=[{"book": book, "last_number": 50}], actor=fro[Role.COMITE]
    )
    assert cagnotte.tickets[0]["first"] == 41 and cagnotte.computed == Decimal("50.00")
    book.refresh_from_db()
    assert book.finished_on == second.seance.date
    assert CagnotteCount.objects.count() == 2


def test_cagnotte_pages_from_ticket_book_to_certified_count(client, fro):
    client.force_login(fro[Role.GARDIEN_CARNETS])
    assert (
        client.post(
            "/caisses/carnets-tickets/nouveau/",
            {
                "table": fro.tables["TH1"].pk,
                "cover_number": "TH1",
                "ticket_value": "5",
                "first_number": 1,
                "last_number": 500,
            },
        ).status_code
        == 302
    )
    session = played(fro, "TH1")
    client.force_login(fro[Role.COMITE])
    for url in (
        f"/caisses/tables/{session.pk}/cagnotte/calcul/",
        f"/caisses/tables/{session.pk}/cagnotte/comptage/",
    ):
        assert client.get(url).status_code == 200, url
    assert client.get("/caisses/carnets-tickets/nouveau/").status_code == 409  # COUNT-40: the keeper's act
    early = client.post(
        f"/caisses/tables/{session.pk}/cagnotte/comptage/", {"breakdown": "100 x 2", "words": "certifié exact"}
    )
    assert early.status_code == 409 and "COUNT-52" in early.content.decode()
    assert client.post(f"/caisses/tables/{session.pk}/cagnotte/calcul/", {"detached": "TH1 40"}).status_code == 302
    assert (
        client.post(
            f"/caisses/tables/{session.pk}/cagnotte/comptage/", {"breakdown": "100 x 2", "words": "certifié exact"}
        ).status_code
        == 302
    )
    assert CagnotteCount.objects.get().retained == Decimal("200.00")


def test_cagnotte_through_the_api(fro):
    client = APIClient()
    client.force_authenticate(fro[Role.GARDIEN_CARNETS])
    book = client.post(
        "/api/v1/cash/ticket-books/",
        {
            "table": fro.tables["TH1"].pk,
            "cover_number": "TH9",
            "ticket_value": "5",
            "first_number": 1,
            "last_number": 100,
        },
        format="json",
    )
    assert book.status_code == 409 and book.json()["code"] == "COUNT-39"
    book = client.post(
        "/api/v1/cash/ticket-books/",
        {
            "table": fro.tables["TH1"].pk,
            "cover_number": "TH1",
            "ticket_value": "5",
            "first_number": 1,
            "last_number": 100,
        },
        format="json",
    )
    client.force_authenticate(fro.director)
    session = played(fro, "TH1")
    computed = client.post(
        "/api/v1/cash/cagnottes/compute/",
        {"table_session": session.pk, "detached": [{"book": book.json()["id"], "last_number": 10}]},
        format="json",
    )
    assert computed.status_code == 201 and computed.json()["computed"] == "50.00"
    counted = client.post(
        "/api/v1/cash/cagnottes/count/",
        {"table_session": session.pk, "breakdown": [{"value": "10", "quantity": 4}], "words": "certifié exact"},
        format="json",
    )
    assert counted.status_code == 201
    assert (counted.json()["shortfall"], counted.json()["retained"]) == ("10.00", "50.00")


def test_inc_17_a_cercle_cagnotte_difference_opens_an_incident_on_the_table(fro):
    session = computed_poker(fro)
    services.cagnotte_count(
        session=session, breakdown=plaques(190, 100), actor=fro[Role.COMITE], words="certifié exact"
    )
    incident = Incident.objects.get(table_session=session)
    assert (incident.category, incident.requirement) == (CAGNOTTE_DIFFERENCE.code, "INC-17")
    assert "190.00" in incident.description and "200.00" in incident.description


def test_inc_17_a_cagnotte_that_matches_opens_no_incident(fro):
    services.cagnotte_count(
        session=computed_poker(fro), breakdown=plaques(200, 100), actor=fro[Role.COMITE], words="certifié exact"
    )
    assert not Incident.objects.exists()


def test_count_08_mc_a_cagnotte_difference_opens_a_game_incident(mco):
    book = ticket_book(mco, "CF1", cover="CF-A")
    session = played(mco, "CF1")
    services.cagnotte_compute(
        session=session, detached=[{"book": book, "last_number": 100}], actor=mco[Role.INSPECTEUR]
    )
    services.cagnotte_count(session=session, breakdown=plaques(495, 100), actor=mco[Role.INSPECTEUR])
    assert Incident.objects.get(table_session=session).requirement == "INC-01"


def test_count_52_interruption_resumption_and_new_book_lines_during_play(fro):
    first = ticket_book(fro, "TH1", last=10)
    session = fro.session("TH1")
    with pytest.raises(ValidationError):
        services.cagnotte_play_line(session=session, line="resumption", actor=fro[Role.COMITE])
    services.cagnotte_play_line(session=session, line="interruption", actor=fro[Role.COMITE])
    with pytest.raises(ValidationError):
        services.cagnotte_play_line(session=session, line="interruption", actor=fro[Role.COMITE])
    services.cagnotte_play_line(session=session, line="resumption", actor=fro[Role.COMITE])
    with pytest.raises(RuleViolation) as no_book:
        services.cagnotte_play_line(session=session, line="new_book", actor=fro[Role.COMITE])
    assert no_book.value.code == "COUNT-52"
    other = GamingTableFactory(establishment=fro.est, room=fro.room, number="TH2", game="texas_holdem")
    stranger = services.ticket_book_register(
        table=other,
        cover_number="TH2",
        ticket_value=Decimal("5"),
        first_number=1,
        last_number=10,
        actor=fro[Role.GARDIEN_CARNETS],
    )
    with pytest.raises(RuleViolation) as elsewhere:
        services.cagnotte_play_line(session=session, line="new_book", book=stranger, actor=fro[Role.COMITE])
    assert elsewhere.value.code == "COUNT-39"
    second = ticket_book(fro, "TH1", value="10", first=101, last=200)
    services.cagnotte_play_line(session=session, line="new_book", book=second, actor=fro[Role.COMITE])
    lines = [
        e.payload
        for e in current_register(fro.est, CARNET_CAGNOTTES.code, "TH1").entries.filter(
            kind="record", payload__has_key="line"
        )
    ]
    assert [p["line"] for p in lines] == ["interruption", "resumption", "new_book"]
    assert lines[2]["tickets"] == "TH1 : 10.00 € n° 101"
    fro.close(session)
    computed = services.cagnotte_compute(
        session=session,
        detached=[{"book": first, "last_number": 10}, {"book": second, "last_number": 105}],
        actor=fro[Role.COMITE],
    )
    assert computed.computed == Decimal("100.00")  # 10 × 5 € + 5 × 10 €


def test_count_52_lines_during_play_through_the_api(fro):
    book = ticket_book(fro, "TH1")
    session = fro.session("TH1")
    client = APIClient()
    client.force_authenticate(fro[Role.COMITE])
    refused = client.post(
        "/api/v1/cash/cagnottes/lines/", {"table_session": session.pk, "line": "new_book"}, format="json"
    )
    assert refused.status_code == 409 and refused.json()["code"] == "COUNT-52"
    done = client.post(
        "/api/v1/cash/cagnottes/lines/",
        {"table_session": session.pk, "line": "new_book", "book": book.pk},
        format="json",
    )
    assert done.status_code == 201 and done.json()["payload"]["tickets"] == "TH1 : 5.00 € n° 1"


def test_count_17_no_cagnotte_computed_for_a_table_without_its_own_cagnotte(fro):
    fro.tables["TH2"] = GamingTableFactory(establishment=fro.est, room=fro.room, number="TH2", game="texas_holdem")
    post_displays(fro.tables["TH2"])
    fro.open_register(CARNET_CAGNOTTES.code, "TH2")
    book = ticket_book(fro, "TH2")
    session = fro.close(fro.opened_unchecked("TH2"))  # it no longer opens without one (COUNT-17)
    with pytest.raises(RuleViolation) as refused:
        services.cagnotte_compute(session=session, detached=[{"book": book, "last_number": 10}], actor=fro[Role.COMITE])
    assert refused.value.code == "COUNT-17" and not CagnotteCount.objects.filter(table_session=session).exists()
    table_cagnotte_record(table=fro.tables["TH2"], number="TH2", actor=fro[Role.COMITE])
    computed = services.cagnotte_compute(
        session=session, detached=[{"book": book, "last_number": 10}], actor=fro[Role.COMITE]
    )
    assert computed.computed == Decimal("50.00")


def test_reg_30_carnet_modele_11_line_carries_the_opening_time_in_column_2(fro):
    session = computed_poker(fro)
    line = current_register(fro.est, CARNET_CAGNOTTES.code, "TH1").entries.filter(kind="record").last()
    assert line.payload["col2"] == fro.est.localtime(session.opened_at).strftime("%H:%M")
    assert "col2" in [column.key for column in CARNET_CAGNOTTES.columns]
