"""The arrêté d'autorisation (AUTH-03) and the table mix it governs with the prior declarations
(AUTH-01): a French table is set up only under an arrêté in force, within its total and its tables
per game, beyond them only with a declaration implemented; its amendment follows up a declaration
(AUTH-02); each act is written in the register of gaming authorisations. Monaco's tables are
written in the main courante and not gated."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.authority import services
from ledgers.authority.models import Arrete, Declaration, TableAuthorisation
from ledgers.authority.selectors import arrete_in_force
from ledgers.core.errors import RuleViolation
from ledgers.core.hooks import opening_refusals
from ledgers.core.models import GamingTable, Seance
from ledgers.core.services import (
    gaming_table_change,
    gaming_table_create,
    seance_open,
    table_session_prepare,
)
from ledgers.registers.selectors import current_register
from tests.factories import RoomFactory, open_register, open_seance_registers, record_arrete

TODAY = timezone.localdate()
D = Decimal


@pytest.fixture
def casino(fro):
    """The French casino's registers of declarations and authorisations, and its room."""
    for kind in ("informations_autorites", "declarations_prealables", "autorisations_jeux"):
        open_register(fro.est, kind)
    fro.room = RoomFactory(establishment=fro.est, name="Salle des jeux")
    return fro


def add(casino, number, game, actor=None):
    return gaming_table_create(room=casino.room, number=number, game=game, actor=actor or casino.directeur_responsable)


def declare(casino, operation, *, ago=20, until=None):
    """A declaration sent ``ago`` days ago, implemented fifteen days after (``until``: a tournament's end)."""
    sent = TODAY - datetime.timedelta(days=ago)
    return services.declaration_record(
        establishment=casino.est,
        actor=casino.directeur_responsable,
        operation=operation,
        details=f"Opération {operation}°",
        sent_on=sent,
        recipients=Declaration.Recipient.values,
        proof="LRAR",
        implementation_date=sent + datetime.timedelta(days=15),
        tournament_until=until,
    )


def refused(code):
    return pytest.raises(RuleViolation, match=code)


def lines(casino):
    return [e.payload for e in current_register(casino.est, "autorisations_jeux").entries.filter(kind="record")]


# AUTH-03: the arrêté, recorded by the directeur responsable; no table without one -----------------


def test_auth_03_a_french_table_without_an_arrete_in_force_is_refused(casino):
    with refused("AUTH-03") as refusal:
        add(casino, "BJ1", "blackjack")
    assert "Aucun arrêté d'autorisation" in str(refusal.value)
    assert not GamingTable.objects.exists() and lines(casino) == []
    # an arrêté that takes effect tomorrow does not allow it today either
    record_arrete(casino.est, {"blackjack": 2}, effective_from=TODAY + datetime.timedelta(days=1))
    with refused("AUTH-03"):
        add(casino, "BJ1", "blackjack")


def test_auth_03_the_arrete_is_recorded_by_the_directeur_responsable_in_its_register(casino):
    with refused("AUTH-03"):
        record_arrete(casino.est, {"blackjack": 2}, actor=casino.comite)
    arrete = record_arrete(casino.est, {"blackjack": 2, "three_card_poker": (1, D("5"))}, total=4)
    line = lines(casino)[-1]
    assert line["arrete"] == arrete.number == 1 and line["total_tables"] == 4
    assert line["games"] == [
        {"game": "blackjack", "tables": 2, "minimum_stake": None},
        {"game": "three_card_poker", "tables": 1, "minimum_stake": "5.00"},
    ]
    assert "Poker trois cartes : 1 table(s), mise minimale 5.00 €" in line["detail"]
    assert arrete_in_force(casino.est, TODAY) == arrete


@pytest.mark.parametrize(
    "games,total,message",
    [
        ({"blackjack": 3}, 2, "dépassent le nombre total"),
        ({}, 2, "au moins un jeu"),
        ({"banque_tout_va": 1}, 2, "Jeu inconnu"),  # a Monaco game
        ({"blackjack": 0}, 2, "au moins une table"),
    ],
)
def test_auth_03_an_arrete_that_does_not_add_up_is_bad_input(casino, games, total, message):
    with pytest.raises(ValidationError, match=message):
        record_arrete(casino.est, games, total=total)
    assert not Arrete.objects.exists() and lines(casino) == []


def test_auth_03_an_arrete_takes_effect_after_the_one_in_force(casino):
    record_arrete(casino.est, {"blackjack": 2})
    with pytest.raises(ValidationError, match="en vigueur depuis"):
        record_arrete(casino.est, {"blackjack": 3}, effective_from=TODAY - datetime.timedelta(days=400))


def test_auth_03_a_table_set_up_is_written_with_its_arrete(casino):
    arrete = record_arrete(casino.est, {"blackjack": 2, "roulette": 1})
    table = add(casino, "BJ1", "blackjack")
    line = lines(casino)[-1]
    assert (line["event"], line["table"], line["arrete"], line["declaration"]) == (
        "Mise en service d'une table",
        "BJ1",
        arrete.number,
        None,
    )
    assert line["detail"] == "Black-jack, Salle des jeux, 7 places"
    gaming_table_change(table=table, actor=casino.directeur_responsable, game="roulette")
    assert lines(casino)[-1]["event"] == "Changement de jeu d'une table"
    assert "(jeu précédent : Black-jack)" in lines(casino)[-1]["detail"]
    assert TableAuthorisation.objects.filter(table=table).count() == 2


# AUTH-01: the authorised total, the games named, the tables per game -------------------------------


def test_auth_01_tables_in_service_beyond_the_authorised_total_refused(casino):
    record_arrete(casino.est, {"blackjack": 2, "roulette": 1}, effective_from=TODAY - datetime.timedelta(days=30))
    add(casino, "BJ1", "blackjack")
    bj2 = add(casino, "BJ2", "blackjack")
    add(casino, "RA1", "roulette")
    declare(casino, "6")  # another distribution, within the total
    with refused("AUTH-01") as refusal:
        add(casino, "BJ3", "blackjack")
    assert "3 tables en tout : 4 seraient en service" in str(refusal.value)
    assert not GamingTable.objects.filter(number="BJ3").exists()
    # out of service, a table leaves room for another; back in service, it is counted again
    gaming_table_change(table=bj2, actor=casino.directeur_responsable, active=False)
    assert lines(casino)[-1]["event"] == "Mise hors service d'une table"
    add(casino, "BJ3", "blackjack")
    with refused("AUTH-01"):
        gaming_table_change(table=bj2, actor=casino.directeur_responsable, active=True)


def test_auth_01_a_game_the_arrete_does_not_name_needs_a_new_game_or_replacement_declaration(casino):
    record_arrete(casino.est, {"blackjack": 2}, total=3)
    bj1 = add(casino, "BJ1", "blackjack")
    with refused("AUTH-01") as refusal:
        add(casino, "RA1", "roulette")
    assert "n'autorise pas le jeu « Roulette européenne »" in str(refusal.value)
    declare(casino, "3", ago=0)  # implemented in fifteen days: not yet
    with refused("AUTH-01"):
        add(casino, "RA1", "roulette")
    new_game = declare(casino, "3")
    add(casino, "RA1", "roulette")
    assert lines(casino)[-1]["declaration"] == f"n° {new_game.number} (3°)"
    replacement = declare(casino, "2")  # the latest implemented 2° or 3° is named
    gaming_table_change(table=bj1, actor=casino.directeur_responsable, game="punto_banco")
    assert TableAuthorisation.objects.filter(table=bj1).first().declaration in (new_game, replacement)


def test_auth_01_more_tables_of_a_game_need_a_distribution_declaration_after_the_arrete(casino):
    old = declare(casino, "6", ago=60)  # implemented before the arrêté took effect
    arrete = record_arrete(
        casino.est, {"blackjack": 1, "roulette": 2}, effective_from=TODAY - datetime.timedelta(days=30)
    )
    assert old.implementation_date < arrete.effective_from
    add(casino, "BJ1", "blackjack")
    with refused("AUTH-01") as refusal:
        add(casino, "BJ2", "blackjack")
    assert "autorise 1 table(s) de « Black-jack »" in str(refusal.value) and "(6°)" in str(refusal.value)
    distribution = declare(casino, "6")
    table = add(casino, "BJ2", "blackjack")
    assert TableAuthorisation.objects.get(table=table).declaration == distribution


def test_auth_01_tournament_poker_tables_only_with_a_seventh_declaration_covering_today(casino):
    record_arrete(casino.est, {"texas_holdem": 1}, total=1)
    add(casino, "TH1", "texas_holdem")
    with refused("AUTH-01") as refusal:
        add(casino, "TH2", "texas_holdem")
    assert "pendant un tournoi déclaré (7°)" in str(refusal.value)
    declare(casino, "7", ago=40, until=TODAY - datetime.timedelta(days=1))  # over yesterday
    with refused("AUTH-01"):
        add(casino, "TH2", "texas_holdem")
    tournament = declare(casino, "7", until=TODAY + datetime.timedelta(days=2))
    extra = add(casino, "TH2", "texas_holdem")  # beyond the total: the 7° adds poker tables
    assert TableAuthorisation.objects.get(table=extra).declaration == tournament
    assert lines(casino)[-1]["declaration"] == f"n° {tournament.number} (7°)"
    # a tournament's table is not among those the arrêté authorises: nothing else fits in
    with refused("AUTH-01"):
        add(casino, "BJ1", "blackjack")


def test_auth_01_a_tournament_table_opens_only_within_the_tournament_dates(casino):
    record_arrete(casino.est, {"texas_holdem": 1}, total=1)
    add(casino, "TH1", "texas_holdem")
    tournament = declare(casino, "7", until=TODAY + datetime.timedelta(days=2))
    extra = add(casino, "TH2", "texas_holdem")
    open_seance_registers(casino.est)

    def tournament_refusals(table, date):
        seance = Seance.objects.filter(establishment=casino.est, date=date).first() or seance_open(
            establishment=casino.est, date=date, period="soiree", actor=casino.directeur_responsable
        )
        session = table_session_prepare(seance=seance, table=table, actor=casino.directeur_responsable)
        return [r for r in opening_refusals(session) if r.code == "AUTH-01" and "tournoi" in str(r)]

    before = tournament.implementation_date - datetime.timedelta(days=1)
    (refusal,) = tournament_refusals(extra, before)
    assert f"déclaration n° {tournament.number}" in str(refusal)
    assert tournament_refusals(extra, TODAY) == []
    assert tournament_refusals(GamingTable.objects.get(number="TH1"), before) == []  # the arrêté's own table


def test_auth_01_monaco_tables_are_not_gated_and_go_in_the_main_courante(mco):
    open_register(mco.est, "main_courante")
    room = RoomFactory(establishment=mco.est, name="Salle Europe")
    table = gaming_table_create(room=room, number="R1", game="roulette", actor=mco.directeur_jeux)
    gaming_table_change(table=table, actor=mco.directeur_jeux, active=False)
    facts = [e.payload for e in current_register(mco.est, "main_courante").entries.filter(kind="record")]
    assert [(f["subject"], f["table"]) for f in facts] == [
        ("Mise en service d'une table", "R1"),
        ("Mise hors service d'une table", "R1"),
    ]
    assert facts[0]["text"] == "Table R1 (Roulette européenne, Salle Europe, 7 places) : en service."
    assert not TableAuthorisation.objects.exists()


def test_auth_01_a_table_change_is_refused_while_a_partie_is_under_way_or_when_nothing_changes(casino):
    record_arrete(casino.est, {"blackjack": 2, "punto_banco": 1})
    table = add(casino, "BJ1", "blackjack")
    with pytest.raises(ValidationError, match="Rien à changer"):
        gaming_table_change(table=table, actor=casino.directeur_responsable, game="blackjack", active=True)
    open_seance_registers(casino.est)
    seance = seance_open(establishment=casino.est, date=TODAY, period="soiree", actor=casino.directeur_responsable)
    table_session_prepare(seance=seance, table=table, actor=casino.directeur_responsable)
    with refused("REG-20"):
        gaming_table_change(table=table, actor=casino.directeur_responsable, game="punto_banco")
    with pytest.raises(PermissionDenied):  # the directorate sets the tables up
        add(casino, "BJ2", "blackjack", actor=casino.inspecteur)


# AUTH-02: the amendment follows up its declaration ---------------------------------------------------


def test_auth_02_an_amendment_naming_its_declaration_marks_it_arrete_modifie(casino):
    record_arrete(casino.est, {"blackjack": 1}, effective_from=TODAY - datetime.timedelta(days=30))
    declaration = declare(casino, "6")
    amendment = record_arrete(casino.est, {"blackjack": 2}, effective_from=TODAY, follows=declaration)
    declaration.refresh_from_db()
    assert declaration.follow_up == Declaration.FollowUp.AMENDED
    assert f"Arrêté n° {amendment.number}" in declaration.follow_up_note
    assert lines(casino)[-1]["declaration"] == declaration.number
    follow_up = current_register(casino.est, "declarations_prealables").entries.order_by("seq").last()
    assert follow_up.payload["event"] == "suite" and follow_up.payload["follow_up"] == "Arrêté d'autorisation modifié"
    assert arrete_in_force(casino.est, TODAY) == amendment
    add(casino, "BJ1", "blackjack")
    add(casino, "BJ2", "blackjack")  # the amended distribution, no declaration needed any more
    assert TableAuthorisation.objects.get(table__number="BJ2").arrete == amendment


# The API and the pages -----------------------------------------------------------------------------


def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_auth_03_api_records_and_lists_the_arretes(casino):
    body = {
        "reference": "Arrêté du 2 mars 2026",
        "signed_on": str(TODAY - datetime.timedelta(days=10)),
        "effective_from": str(TODAY - datetime.timedelta(days=10)),
        "total_tables": 3,
        "games": [{"game": "blackjack", "tables": 2}, {"game": "rampo", "tables": 1, "minimum_stake": "5"}],
    }
    refused = api(casino.comite).post("/api/v1/authority/arretes/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "AUTH-03"
    made = api(casino.directeur_responsable).post("/api/v1/authority/arretes/", body, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["games"] == [
        {"game": "blackjack", "tables": 2, "minimum_stake": None},
        {"game": "rampo", "tables": 1, "minimum_stake": "5.00"},
    ]
    listed = api(casino.police).get("/api/v1/authority/arretes/").json()
    assert [a["reference"] for a in listed["results"]] == ["Arrêté du 2 mars 2026"]


def test_auth_01_api_adds_and_changes_tables_through_the_services(casino):
    client = api(casino.directeur_responsable)
    body = {"room": casino.room.pk, "number": "BJ1", "game": "blackjack"}
    none = client.post("/api/v1/establishment/tables/", body, format="json")
    assert none.status_code == 409 and none.json()["code"] == "AUTH-03"
    record_arrete(casino.est, {"blackjack": 1, "roulette": 1})
    made = client.post("/api/v1/establishment/tables/", body, format="json")
    assert made.status_code == 201 and made.json()["active"] is True
    changed = client.post(
        f"/api/v1/establishment/tables/{made.json()['id']}/change/", {"game": "roulette"}, format="json"
    )
    assert changed.status_code == 200 and changed.json()["game"] == "roulette"
    assert client.post("/api/v1/establishment/tables/", {**body, "number": "BJ2"}, format="json").status_code == 201
    third = client.post("/api/v1/establishment/tables/", {**body, "number": "BJ3"}, format="json")
    assert third.status_code == 409 and third.json()["code"] == "AUTH-01"
    assert api(casino.police).post("/api/v1/establishment/tables/", body, format="json").status_code == 403
    assert [e["event"] for e in lines(casino)[-3:]] == [
        "Mise en service d'une table",
        "Changement de jeu d'une table",
        "Mise en service d'une table",
    ]


def test_auth_03_arretes_page_records_for_the_directeur_responsable_and_shows_to_the_authorities(casino, client):
    client.force_login(casino.police)
    page = client.get(reverse("authority:arretes")).content.decode()
    assert "Aucun arrêté d'autorisation en vigueur" in page and 'id="arrete-games"' not in page
    client.force_login(casino.directeur_responsable)
    form = {
        "reference": "Arrêté du 2 mars 2026",
        "signed_on": str(TODAY),
        "effective_from": str(TODAY),
        "total_tables": "1",
        "tables_blackjack": "2",
        "minimum_three_card_poker": "5",
    }
    bad = client.post(reverse("authority:arretes"), form)
    assert bad.status_code == 200 and "Indiquez les tables autorisées de ce jeu" in bad.content.decode()
    form.pop("minimum_three_card_poker")
    over = client.post(reverse("authority:arretes"), form)
    assert (
        "dépassent le nombre total" in over.content.decode()
        and 'value="Arrêté du 2 mars 2026"' in over.content.decode()
    )
    made = client.post(reverse("authority:arretes"), {**form, "total_tables": "2"})
    assert made.status_code == 302 and Arrete.objects.get().total_tables == 2
    client.force_login(casino.police)
    page = client.get(reverse("authority:arretes")).content.decode()
    assert "Black-jack : 2" in page and "Arrêté du 2 mars 2026" in page
    client.force_login(casino.comite)
    refused = client.post(reverse("authority:arretes"), {**form, "effective_from": str(TODAY), "total_tables": "2"})
    assert refused.status_code == 409 and "AUTH-03" in refused.content.decode()


def test_auth_01_tables_page_shows_the_refusal_and_keeps_the_input(casino, client):
    record_arrete(casino.est, {"blackjack": 1}, total=1)
    client.force_login(casino.directeur_responsable)
    form = {"room": casino.room.pk, "number": "BJ1", "game": "blackjack", "seats": "7"}
    assert client.post(reverse("gaming-tables"), form).status_code == 302
    refused = client.post(reverse("gaming-tables"), {**form, "number": "BJ9"})
    page = refused.content.decode()
    assert refused.status_code == 409 and "AUTH-01" in page and 'value="BJ9"' in page
    table = GamingTable.objects.get(number="BJ1")
    changed = client.post(reverse("gaming-table-change"), {"table": table.pk, "game": "", "state": "out"})
    assert changed.status_code == 302
    table.refresh_from_db()
    assert not table.active
    listing = client.get(reverse("gaming-tables")).content.decode()
    assert "BJ1" in listing and "Arrêtés d'autorisation" in listing
    client.force_login(casino.police)
    assert client.get(reverse("gaming-tables")).status_code == 403
