"""Every write endpoint of the table cash API driven through its normal flow, each request in its
own transaction as in production, then ``verify_ledgers``: each act writes its entry, the entry
names the objects the act wrote, and the registers and the objects verify with no finding.

France: the avances of a roulette (table box, box holder, avance), the changeur's box, the
ravitaillement bons written, served, voided and centralised, both blind counts and their
certification, modèle 12 closed and visaed, the month's levy sheet; the poker cagnotte (ticket
books, pots, play lines, computation, certified count, stamps, card table numbers, the levy
machine's history), the bad beat jackpot (activation, conditions, count, machine log, win,
breakdown, suspension, final stop), the orphan sums, the chip series and their census, the
electronic devices (modèle 10 bis, 33, 7 and 11 quater) and the baccara à deux tableaux banks.
Monaco: the somme mise en banque, the bank of a blackjack, change slips written, served and
voided, the blind counts certified by the inspecteur, the SFE advance and the chemin de fer
cagnotte.

A write route of ``SCOPE`` that no flow below exercises fails the test; ``CANNOT_RUN`` lists,
with the reason, the only ones a test cannot reach."""

import datetime
from types import SimpleNamespace

import pytest
from django.utils import timezone

from ledgers.authority.registers import HOUSE_RULES
from ledgers.authority.services import house_rules_publish
from ledgers.cash.models import BadBeatConfig, ElectronicDevice, Orphan, SlipBook
from ledgers.cash.registers import (
    CARNET_11_QUATER,
    CARNET_AVANCES,
    CARNET_CAGNOTTES,
    ETAT_JOURNALIER_7,
    ETAT_MENSUEL_33,
    REGISTRE_10_BIS,
    RETENUES_POTS,
)
from ledgers.core.roles import Role
from tests.api.acts import Acts, verify_every_act
from tests.cash.conftest import fro, mco, plaques  # noqa: F401
from tests.factories import DEFAULT_PASSWORD, countersignature, post_displays, set_up_table

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

SCOPE = ("api/v1/cash/",)

CANNOT_RUN: dict[str, str] = {}

API = "/api/v1/cash/"
CHIPS = [{"value": "100", "quantity": 20, "kind": "jeton"}]
BBJ_LOG = (
    "heure,pot,retenue_maison,retenue_bbj,gains_payes,montant_bbj,paiements\n"
    "21:04:12,120.00,6.00,1.20,112.80,1001.20,\n"
    "21:30,90.00,4.50,0.90,84.60,1002.10,\n"
)


def new_table(org: SimpleNamespace, number: str, game: str, carnet=None):
    org.tables[number] = table = set_up_table(org.est, number, game, room=org.room)
    post_displays(table)
    if carnet is not None:
        org.open_register(carnet.code, number)
    return table


def slips(acts: Acts, org, session, *, book, writer, supervisor, requested, handed, cosigner, voider=None) -> None:
    """A book of slips put into service by the direction, its first slip written and countersigned
    at ``session``'s table and served at the desk, its second number voided under two signatures."""
    made = acts.post(org.director, f"{API}slip-books/", book)
    slip = acts.post(
        writer,
        f"{API}slips/",
        {
            "book": made["id"],
            "number": 1,
            "table_session": session.pk,
            "requested": requested,
            "handed": handed,
            **countersignature("supervisor", supervisor),
        },
    )
    acts.post(org[Role.CAISSIER], f"{API}slips/{slip['id']}/serve/", {"desk": org.desk.code})
    acts.post(
        voider or org.director,
        f"{API}slips/void/",
        {"book": made["id"], "number": 2, "reason": "Bon raturé", **countersignature("cosigner", cosigner)},
    )


def fr_avances_slips_counts_and_modele_12(acts: Acts, fro: SimpleNamespace) -> None:  # noqa: F811
    """Day 0: a roulette's avance and count, a poker's changeur box and bons, then modèle 12 and
    carnet modèle 13."""
    director, comite, keeper = fro.director, fro[Role.COMITE], fro[Role.CAISSIER_PRINCIPAL]
    ra9 = new_table(fro, "RA9", "roulette", CARNET_AVANCES)
    acts.post(
        director,
        f"{API}table-boxes/",
        {
            "table": ra9.pk,
            "box_id": "CI-9",
            "key_reference": "K-9",
            "banknotes_accepted": True,
            "coffret_id": "CB-9",
            "coffret_key_reference": "KB-9",
        },
    )
    seance = fro.seance()
    roulette, poker = fro.session("RA1", seance=seance), fro.session("TH1", seance=seance)
    acts.post(director, f"{API}box-holders/", {"table_session": roulette.pk, "employee": fro[Role.CROUPIER].username})
    acts.post(
        director,
        f"{API}floats/",
        {
            "table_session": roulette.pk,
            "breakdown": plaques(150_000),
            "box_number": "RA1",
            "transport_box": "BT-1",
            "counted_by": "Croupier Test",
            "called_aloud": True,
            "carnet_on_table": True,
            **countersignature("receiver", fro[Role.CROUPIER]),
        },
    )
    acts.post(director, f"{API}changeur-float-amounts/", {"table": poker.table.pk, "amount": "3000"})
    acts.post(
        director,
        f"{API}changeur-floats/",
        {"table_session": poker.pk, "changeur": fro[Role.CHANGEUR].username, "breakdown": plaques(3000)},
    )
    slips(
        acts,
        fro,
        poker,
        book={"kind": SlipBook.Kind.RAVITAILLEMENT, "number": "B-7", "first_number": 1, "last_number": 25},
        writer=fro[Role.CHANGEUR],
        supervisor=comite,
        requested=[{"value": "100", "quantity": 50}],
        handed=[{"value": "500", "quantity": 10, "kind": "billet"}],
        cosigner=keeper,
    )
    fro.close(poker)
    fro.close(roulette)
    acts.post(keeper, f"{API}seances/{seance.pk}/centralisation/", {"desk": fro.desk.pk})
    acts.post(
        fro[Role.CROUPIER],
        f"{API}counts/",
        {
            "table_session": roulette.pk,
            "breakdown": plaques(162_500),
            "present": ["Croupier Test", "Chef Test"],
            "called_aloud": True,
            "tips": "0",
        },
    )
    count = acts.post(
        fro[Role.CAISSIER], f"{API}counts/", {"table_session": roulette.pk, "breakdown": plaques(162_500)}
    )
    acts.post(comite, f"{API}counts/{count['id']}/certify/", {"words": "certifié exact", "password": DEFAULT_PASSWORD})
    day = acts.post(keeper, f"{API}control-days/", {"date": fro.day.isoformat()})
    for user in (director, comite):
        acts.post(user, f"{API}control-days/{day['id']}/visa/", {"password": DEFAULT_PASSWORD})
    acts.post(keeper, f"{API}levy-sheets/", {"year": fro.day.year, "month": fro.day.month, "slot_total": "1000"})


def fr_poker_cagnotte(acts: Acts, fro: SimpleNamespace) -> None:  # noqa: F811
    """Day 1: the poker's ticket books, a pot, the play lines, the cagnotte computed and counted;
    then the stamps, the card table number, the levy machine and its history (day 2)."""
    comite, gardien, director = fro[Role.COMITE], fro[Role.GARDIEN_CARNETS], fro.director
    th1 = fro.tables["TH1"]
    book = {"table": th1.pk, "cover_number": "TH1", "ticket_value": "5", "first_number": 1, "last_number": 100}
    first = acts.post(gardien, f"{API}ticket-books/", book)
    second = acts.post(
        gardien, f"{API}ticket-books/", {**book, "ticket_value": "10", "first_number": 101, "last_number": 200}
    )
    session = fro.session("TH1", seance=fro.seance(day=1))
    acts.post(fro[Role.CROUPIER], f"{API}pot-rakes/new/", {"table_session": session.pk, "pot": "3000", "cave": "500"})
    for line in ("interruption", "resumption"):
        acts.post(comite, f"{API}cagnottes/lines/", {"table_session": session.pk, "line": line})
    acts.post(comite, f"{API}cagnottes/lines/", {"table_session": session.pk, "line": "new_book", "book": second["id"]})
    fro.close(session)
    acts.post(
        director,
        f"{API}cagnottes/compute/",
        {"table_session": session.pk, "detached": [{"book": first["id"], "last_number": 15}]},
    )
    acts.post(
        director,
        f"{API}cagnottes/count/",
        {"table_session": session.pk, "breakdown": [{"value": "5", "quantity": 15}], "words": "certifié exact"},
    )
    acts.post(gardien, f"{API}ticket-stamps/", {"book": first["id"], "blue_line": True})
    acts.post(director, f"{API}card-table-numbers/", {"table": th1.pk, "serial": 1})
    acts.post(director, f"{API}levy-machines/", {"table": th1.pk, "approval_reference": "AGR-2026-7"})
    later = fro.close(fro.session("TH1", seance=fro.seance(day=2)))
    acts.post(
        comite,
        f"{API}cagnottes/machine-history/",
        {
            "table_session": later.pk,
            "history_total": "30",
            "printout_reference": "H-1",
            "parties": [
                {"time": "21:05", "pot": "200", "levy": "10", "win": "190"},
                {"time": "21:12", "pot": "400", "levy": "20", "win": "380"},
            ],
        },
    )
    cf1 = new_table(fro, "CF1", "chemin_de_fer", CARNET_CAGNOTTES)
    acts.post(comite, f"{API}table-cagnottes/", {"table": cf1.pk, "number": "CF1"})


def fr_bad_beat_jackpot(acts: Acts, fro: SimpleNamespace) -> None:  # noqa: F811
    """Days 3 and 4: the bad beat jackpot of TH1 from its activation to its final stop."""
    comite, cashier = fro[Role.COMITE], fro[Role.CAISSIER]
    fro.open_register(HOUSE_RULES.code)
    house_rules_publish(
        establishment=fro.est, actor=fro.director, effective_from=datetime.date(2026, 1, 1), reference="RI", options=[]
    )
    jackpot = acts.post(
        comite,
        f"{API}bad-beat-jackpot/tables/",
        {"table": fro.tables["TH1"].pk, "machine_approval": "AGR-1", "cagnotte_number": "BBJ-TH1"},
    )["id"]
    acts.post(
        comite,
        f"{API}bad-beat-jackpot/configs/",
        {
            "jackpot": jackpot,
            "starting_value": "1000",
            "increment_kind": BadBeatConfig.Increment.PERCENT,
            "increment_value": "1",
            "rounding": "à l'euro inférieur",
            "side_pot_rule": "pot principal",
            "minimum_pot": "40",
            "restart": BadBeatConfig.Restart.START,
        },
    )
    played = fro.close(fro.session("TH1", seance=fro.seance(day=3)))
    acts.post(
        cashier,
        f"{API}bad-beat-jackpot/",
        {
            "table_session": played.pk,
            "counted": "2.10",
            "statement": "2.10",
            "displayed": "1002.10",
            "present": ["Croupier Test"],
            **countersignature("comite", comite),
        },
    )
    acts.post(cashier, f"{API}bad-beat-jackpot/logs/", {"table_session": played.pk, "csv": BBJ_LOG})
    session = fro.session("TH1", seance=fro.seance(day=4))
    acts.post(
        cashier,
        f"{API}bad-beat-jackpot/wins/",
        {
            "table_session": session.pk,
            "combination": "carré de 7 contre quinte flush",
            "pot": "80",
            "amount": "1000",
            "players_present": 2,
            "bons": ["750.00", "250.00"],
            "winner_name": "Durand Anne",
            "restart_value": "1000",
            **countersignature("comite", comite),
        },
    )
    down = timezone.now() - datetime.timedelta(minutes=10)
    breakdown = acts.post(
        comite,
        f"{API}bad-beat-jackpot/breakdowns/",
        {
            "jackpot": jackpot,
            "down_at": down.isoformat(),
            "police_informed_at": (down + datetime.timedelta(minutes=2)).isoformat(),
            "police_service": "SRPJ Nice",
        },
    )
    acts.post(
        comite,
        f"{API}bad-beat-jackpot/breakdowns/{breakdown['id']}/restore/",
        {"restored_at": timezone.now().isoformat()},
    )
    suspension = acts.post(comite, f"{API}bad-beat-jackpot/suspensions/", {"jackpot": jackpot})
    acts.post(comite, f"{API}bad-beat-jackpot/suspensions/{suspension['id']}/resume/", {})
    acts.post(
        comite,
        f"{API}bad-beat-jackpot/final-stop-notices/",
        {"jackpot": jackpot, "channel": "written", "reference": "courrier 12"},
    )
    # within the 48 hours after the recorded notice (SET-42, AMB-50): the stop may follow at once
    acts.post(comite, f"{API}bad-beat-jackpot/final-stops/", {"jackpot": jackpot})


def fr_orphans_and_plaques(acts: Acts, fro: SimpleNamespace) -> None:  # noqa: F811
    """The orphan sums in carnet 11 bis (a restitution, a tirelire, the season's clearing) and the
    chip series of modèle 16 with their census."""
    cashier, keeper = fro[Role.CAISSIER], fro[Role.CAISSIER_PRINCIPAL]
    found = {"category": Orphan.Category.FLOOR, "place": "Salle des jeux", "found_by": "Agent Test"}
    orphan = acts.post(cashier, f"{API}orphans/", {**found, "amount": "100", "paid_into": "caisse-1"})
    acts.post(
        cashier,
        f"{API}orphans/{orphan['id']}/restitution/",
        {"amount": "100", "name": "M. Martin", "address": "1 rue de Nice", "proof": "Vidéo 21:14, caméra 3"},
    )
    acts.post(cashier, f"{API}orphans/", {**found, "amount": "40", "paid_into": "T-1"})
    acts.post(cashier, f"{API}orphans/tirelires/", {"tirelire": "T-1", "amount": "40", "witnesses": ["Agent Test"]})
    acts.post(fro.director, f"{API}orphans/season-clearing/", {"season_start": "2024-11-01", "account_balance": "0"})
    series = acts.post(
        keeper,
        f"{API}chip-series/",
        {
            "kind": "plaque",
            "description": "Plaques rectangulaires",
            "manufacturer": "Matsui",
            "series_count": 2,
            "reserve_series": 1,
            "pieces": [{"value": "1000", "quantity": 50}],
        },
    )
    acts.post(keeper, f"{API}chip-series/{series['id']}/allocate/", {"in_service_series": 2})
    acts.post(
        keeper,
        f"{API}chip-censuses/",
        {
            "census_date": "2025-11-01",
            "counted_by": "Comité",
            "account_balance": "20000.00",
            "counted": [{"series": series["id"], "value": "1000", "quantity": 30}],
        },
    )


def fr_electronic_and_baccara(acts: Acts, fro: SimpleNamespace) -> None:  # noqa: F811
    """Day 5: an electronic contrepartie device (modèle 10 bis, visa, modèle 33), an electronic
    cercle device (modèle 7, carnet 11 quater), and a baccara à deux tableaux bank and banker."""
    director, comite, cashier = fro.director, fro[Role.COMITE], fro[Role.CAISSIER]
    day = fro.day + datetime.timedelta(days=5)
    device = acts.post(
        director, f"{API}electronic-devices/", {"number": "ER1", "game": "Roulette électronique", "stations": 8}
    )
    fro.open_register(REGISTRE_10_BIS.code, "ER1")
    fro.open_register(ETAT_MENSUEL_33.code)
    acts.post(
        cashier,
        f"{API}station-results/",
        {
            "device": device["id"],
            "date": day.isoformat(),
            "station": 1,
            "avances": "1000",
            "physical_count": "1500",
            "units_in": 400,
            "units_out": 100,
            "unit_stake": "2",
            "tickets_issued": "300",
            "product": "800",
        },
    )
    acts.post(
        comite, f"{API}electronic-devices/{device['id']}/visa/", {"date": day.isoformat(), "password": DEFAULT_PASSWORD}
    )
    acts.post(
        cashier,
        f"{API}electronic-meter-statements/",
        {"year": day.year, "month": day.month, "password": DEFAULT_PASSWORD, **countersignature("comite", comite)},
    )
    cercle = acts.post(
        director,
        f"{API}electronic-devices/",
        {
            "family": ElectronicDevice.Family.CERCLE,
            "number": "EP1",
            "game": "Texas hold'em électronique",
            "stations": 10,
        },
    )
    fro.open_register(ETAT_JOURNALIER_7.code, "EP1")
    fro.open_register(CARNET_11_QUATER.code, "EP1")
    cercle_day = acts.post(
        cashier,
        f"{API}cercle-device-days/",
        {"device": cercle["id"], "date": day.isoformat(), "parties": 3, "levies": "45"},
    )
    acts.post(
        comite,
        f"{API}cercle-device-days/{cercle_day['id']}/certify/",
        {"words": "certifié exact", "password": DEFAULT_PASSWORD},
    )
    bd1 = new_table(fro, "BD1", "baccara_deux_tableaux", CARNET_CAGNOTTES)
    acts.post(director, f"{API}baccara-banks/", {"table": bd1.pk, "kind": "ouverte"})
    session = fro.session("BD1", seance=fro.seance(day=5), open_=False)
    acts.post(
        director,
        f"{API}banker-segments/",
        {"table_session": session.pk, "banker": "M. Durand", "bank": plaques(20_000)},
    )


def monaco(acts: Acts, mco: SimpleNamespace) -> None:  # noqa: F811
    """A blackjack's bank, change slips and counts; the SFE advance and the cagnotte of a chemin de fer."""
    director, cashier, inspecteur = mco.director, mco[Role.CAISSIER], mco[Role.INSPECTEUR]
    acts.post(director, f"{API}bank-amounts/", {"table": mco.tables["CF1"].pk, "amount": "40000"})
    acts.post(director, f"{API}refait-thresholds/", {"amount": "20000"})
    seance = mco.seance()
    blackjack = mco.session("BJ1", seance=seance)
    acts.post(
        cashier,
        f"{API}floats/",
        {
            "table_session": blackjack.pk,
            "breakdown": plaques(50_000),
            **countersignature("receiver", mco[Role.CHEF_TABLE]),
        },
    )
    slips(
        acts,
        mco,
        blackjack,
        book={"kind": SlipBook.Kind.CHANGE, "number": "C-1", "first_number": 1, "last_number": 50},
        writer=mco[Role.CHEF_TABLE],
        supervisor=inspecteur,
        requested=CHIPS,
        handed=[{"value": "2000", "quantity": 1, "kind": "plaque"}],
        cosigner=mco[Role.CAISSIER_PRINCIPAL],
        voider=inspecteur,
    )
    mco.close(blackjack)
    acts.post(
        mco[Role.CROUPIER],
        f"{API}counts/",
        {
            "table_session": blackjack.pk,
            "breakdown": plaques(47_500),
            "present": ["Croupier Test"],
            "called_aloud": True,
        },
    )
    count = acts.post(cashier, f"{API}counts/", {"table_session": blackjack.pk, "breakdown": plaques(47_500)})
    acts.post(inspecteur, f"{API}counts/{count['id']}/certify/", {"words": "exact", "password": DEFAULT_PASSWORD})
    chemin = mco.session("CF1", seance=seance)
    acts.post(
        mco[Role.CHANGEUR],
        f"{API}sfe-advances/",
        {"table_session": chemin.pk, "customer": "Mme Roy", "amount": "2000", "authorisation": "SFE-9"},
    )
    tickets = acts.post(
        director,
        f"{API}ticket-books/",
        {"table": chemin.table.pk, "cover_number": "CF-A", "ticket_value": "5", "first_number": 1, "last_number": 500},
    )
    mco.close(chemin)
    acts.post(
        inspecteur,
        f"{API}cagnottes/compute/",
        {"table_session": chemin.pk, "detached": [{"book": tickets["id"], "last_number": 100}]},
    )
    acts.post(inspecteur, f"{API}cagnottes/count/", {"table_session": chemin.pk, "breakdown": plaques(500, 100)})


def test_reg_20_every_cash_write_endpoint_in_its_own_transaction_leaves_registers_that_verify(fro, mco):  # noqa: F811
    fro.open_register(RETENUES_POTS.code)
    acts = Acts()
    fr_avances_slips_counts_and_modele_12(acts, fro)
    fr_poker_cagnotte(acts, fro)
    fr_bad_beat_jackpot(acts, fro)
    fr_orphans_and_plaques(acts, fro)
    fr_electronic_and_baccara(acts, fro)
    monaco(acts, mco)

    verify_every_act(acts, SCOPE, CANNOT_RUN)
