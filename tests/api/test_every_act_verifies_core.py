"""Every write endpoint of the registers, the set-up (an establishment created by the administrator,
rooms and places added and imported from a spreadsheet), the gaming tables, the séances and the
table-parties driven through its normal flow, each request in its own transaction as in production,
then ``verify_ledgers``: each act writes its entry, the entry names the objects the act wrote, and
the registers and the objects verify with no finding.

A register's life through the API (created, coté et paraphé by its authority, a main courante
fact, a correction, a visa, the closing act and the paraphe of its volume) in Monaco (the
commissaire and the SCJ) and in France (the police); tables added, given another game and put out
of service in each (in France under the arrêté d'autorisation); a séance in each (opened, its table-parties
prepared, staffed with a relief, their limits set, opened and closed, the séance closed), with the
Monaco chemin de fer's extension past the closing time the Direction set (a setting changed through
the API) and the banque à tout va's banker.

A write route of ``SCOPE`` that no flow below exercises fails the test; ``CANNOT_RUN`` lists,
with the reason, the only ones a test cannot reach."""

import datetime
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from ledgers.authority.services import banker_approve
from ledgers.core.models import GamingTable, Room, Seance
from ledgers.core.roles import Role
from ledgers.tables.selectors import closing_time
from tests.api.acts import Acts, verify_every_act
from tests.authority.conftest import cast
from tests.factories import (
    DEFAULT_PASSWORD,
    make_user,
    open_register,
    open_seance_registers,
    post_displays,
    record_arrete,
)

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

SCOPE = (
    "api/v1/registers/",
    "api/v1/^registers/",
    "api/v1/seances/",
    "api/v1/tables/",
    "api/v1/establishment/",
)

CANNOT_RUN: dict[str, str] = {}

TODAY = timezone.localdate()
FACT = {"subject": "Panne d'éclairage", "text": "Salle Europe, de 22 h 10 à 22 h 25."}


def register_life(acts: Acts, director, authority, writer, visa) -> None:
    """A main courante created by the directorate, coté et paraphé by its authority, written,
    corrected, visé, closed, and its volume paraphé."""
    number = acts.post(director, "/api/v1/registers/new/", {"kind": "main_courante"})["number"]
    acts.post(
        authority,
        f"/api/v1/registers/{number}/opening/",
        {"paraphe": "CG", "statement": "Coté et paraphé.", "password": DEFAULT_PASSWORD},
    )
    fact = acts.post(
        writer, f"/api/v1/registers/{number}/main-courante/", {**FACT, "event_at": timezone.now().isoformat()}
    )
    acts.post(
        director,
        f"/api/v1/registers/{number}/entries/{fact['seq']}/corrections/",
        {
            "reason": "Salle mal nommée",
            "approval": "Approuvé la correction de l'entrée numéro deux",
            "payload": {**fact["payload"], "text": "Salle des Amériques, de 22 h 10 à 22 h 25."},
        },
    )
    head = acts.post(
        writer, f"/api/v1/registers/{number}/main-courante/", {**FACT, "event_at": timezone.now().isoformat()}
    )
    acts.post(
        visa,
        f"/api/v1/registers/{number}/visas/",
        {"up_to_seq": head["seq"], "statement": "Vu", "password": DEFAULT_PASSWORD},
    )
    # The authority's visa of every main courante volume in one act (here the one volume).
    head = acts.post(
        writer, f"/api/v1/registers/{number}/main-courante/", {**FACT, "event_at": timezone.now().isoformat()}
    )
    acts.post(
        visa,
        "/api/v1/registers/visas-by-kind/",
        {"kind": "main_courante", "up_to": {number: head["seq"]}, "statement": "Vu", "password": DEFAULT_PASSWORD},
    )
    acts.post(director, f"/api/v1/registers/{number}/closing/", {"statement": "Clos."})
    acts.post(
        authority, f"/api/v1/registers/{number}/volumes/1/paraphe/", {"paraphe": "CG", "password": DEFAULT_PASSWORD}
    )
    # The registers the house still needs created in one act; a volume created by mistake withdrawn.
    acts.post(director, "/api/v1/registers/to-open/", {})
    mistaken = acts.post(director, "/api/v1/registers/new/", {"kind": "main_courante", "qualifier": "erreur"})
    acts.post(director, f"/api/v1/registers/{mistaken['number']}/withdrawal/", {"reason": "Créé par erreur"})


def seance_life(acts: Acts, director, staff: SimpleNamespace, tables: dict, played: str, limits: dict) -> dict:
    """A séance opened, its table-parties prepared; at the staffed table a croupier relieved and
    the relief released; the limits of the played table set and the table opened. Answers the
    séance and the table-parties by table number (the caller adds its jurisdiction's acts, then
    ``seance_end``)."""
    seance = acts.post(director, "/api/v1/seances/", {"date": TODAY.isoformat(), "period": "soiree"})
    parties = {
        number: acts.post(director, f"/api/v1/seances/{seance['id']}/tables/", {"table": table.pk})
        for number, table in tables.items()
    }
    staffed, played = parties[staff.table], parties[played]
    duty = acts.post(
        director,
        "/api/v1/tables/staff/",
        {"table_session": staffed["id"], "position": "croupier", "person": staff.croupier.pk},
    )
    relief = acts.post(director, f"/api/v1/tables/staff/{duty['id']}/relieve/", {"person": staff.relief.pk})
    acts.post(director, f"/api/v1/tables/staff/{relief['id']}/release/")
    acts.post(director, "/api/v1/tables/limits/", {**limits, "table_session": played["id"]})
    acts.post(director, f"/api/v1/seances/table-sessions/{played['id']}/open/", {"confirm_missing": True})
    return {"seance": seance, **parties}


def seance_end(acts: Acts, director, parties: dict, played: str) -> None:
    """The played table's end of partie, then the séance closed (the other parties end with it)."""
    acts.post(director, f"/api/v1/seances/table-sessions/{parties[played]['id']}/close/")
    closed = acts.post(director, f"/api/v1/seances/{parties['seance']['id']}/close/")
    assert closed["status"] == "closed", closed


def set_up_tables(acts: Acts, director, room, specs) -> dict:
    """The tables added through the API by the director (by number), and one more added, given
    another game and put out of service (in France under the arrêté in force, in Monaco written in
    the main courante)."""
    tables = {
        number: GamingTable.objects.get(
            pk=acts.post(
                director,
                "/api/v1/establishment/tables/",
                {"room": room.pk, "number": number, "game": game, "seats": seats},
            )["id"]
        )
        for number, game, seats in specs
    }
    spare = acts.post(
        director, "/api/v1/establishment/tables/", {"room": room.pk, "number": "BJ9", "game": "blackjack"}
    )
    acts.post(director, f"/api/v1/establishment/tables/{spare['id']}/change/", {"game": "punto_banco"})
    acts.post(director, f"/api/v1/establishment/tables/{spare['id']}/change/", {"active": False})
    return tables


def set_up_house(acts: Acts, director, code: str) -> Room:
    """A room and a place added, and places imported from a spreadsheet (checked, then written)."""
    room = acts.post(director, "/api/v1/establishment/rooms/", {"code": code, "name": "Salle des jeux"})
    acts.post(
        director,
        "/api/v1/establishment/locations/",
        {"code": f"depot-{code}", "name": "Dépôt", "kind": "depot_principal", "room": room["id"]},
    )
    sheet = f"code;nom;type;salle\ncoffre-{code};Coffre;coffre;{code}\ncaisse-{code};Caisse;caisse_centrale;\n"
    for dry_run in (True, False):
        acts.post(
            director,
            "/api/v1/establishment/imports/emplacements/",
            {"file": SimpleUploadedFile("lieux.csv", sheet.encode()), "dry_run": dry_run},
            format="multipart",
        )
    return Room.objects.get(pk=room["id"])


def make_croupier(est, name: str):
    return make_user(est, Role.CROUPIER, username=f"croupier-{name}-{est.code}")


def monaco(acts: Acts, mc) -> None:
    """The main courante before the commissaire and the SCJ; a séance with a chemin de fer played
    past the closing time (GAME-29) and a banque à tout va's approved banker (GAME-31)."""
    mco = cast(mc, (Role.DIRECTEUR_JEUX, Role.COMMISSAIRE, Role.SCJ, Role.INSPECTEUR))
    register_life(acts, mco.directeur_jeux, mco.commissaire, mco.inspecteur, mco.scj)

    open_seance_registers(mc)  # the main courante above is closed: its next volume, and the table-partie log
    open_register(mc, "banquiers_agrees")
    # the Direction fixes the evening séance's closing time, a line of the main courante
    acts.post(
        mco.directeur_jeux,
        "/api/v1/establishment/settings/",
        {"code": "SET-25", "value": {"closing": {"soiree": ["04:00", 1]}}},
    )
    mc.refresh_from_db()
    tables = set_up_tables(
        acts,
        mco.directeur_jeux,
        set_up_house(acts, mco.directeur_jeux, "salle-mc"),
        (("BJ1", "blackjack", 7), ("CF1", "chemin_de_fer", 10), ("BTV1", "banque_tout_va", 10)),
    )
    staff = SimpleNamespace(
        table="BJ1",
        croupier=make_croupier(mc, "a"),
        relief=make_croupier(mc, "relief"),
    )
    parties = seance_life(
        acts,
        mco.directeur_jeux,
        staff,
        tables,
        "CF1",
        {"seats": 10, "players": 5, "minimum_stake": "100", "maximum_stake": "10000"},
    )
    closing = closing_time(Seance.objects.get(pk=parties["seance"]["id"]))
    acts.post(
        mco.directeur_jeux,
        "/api/v1/tables/extensions/",
        {
            "table_session": parties["CF1"]["id"],
            "new_end": (closing + datetime.timedelta(hours=1)).isoformat(),
            "reason": "5 joueurs assis, partie animée",
        },
    )
    banker = banker_approve(
        establishment=mc,
        actor=mco.directeur_jeux,
        full_name="Jean Banquier",
        birth_date=datetime.date(1970, 5, 1),
        identity_document="Passeport 12AB34",
        approved_on=TODAY - datetime.timedelta(days=30),
    )
    acts.post(mco.inspecteur, "/api/v1/tables/bankers/", {"table_session": parties["BTV1"]["id"], "banker": banker.pk})
    seance_end(acts, mco.directeur_jeux, parties, "CF1")


def france(acts: Acts, fr) -> None:
    """The main courante before the police; the tables set up under the arrêté d'autorisation; a
    séance of ultimate texas hold'em, its rules posted."""
    fro = cast(fr, (Role.DIRECTEUR_RESPONSABLE, Role.POLICE, Role.CHEF_PARTIE))
    register_life(acts, fro.directeur_responsable, fro.police, fro.chef_partie, fro.police)

    open_seance_registers(fr)  # the main courante above is closed: its next volume, and the table-partie log
    record_arrete(fr, {"ultimate_holdem": 2, "blackjack": 1, "punto_banco": 1}, actor=fro.directeur_responsable)
    tables = set_up_tables(
        acts,
        fro.directeur_responsable,
        set_up_house(acts, fro.directeur_responsable, "salle-fr"),
        (("UT1", "ultimate_holdem", 7), ("UT2", "ultimate_holdem", 7)),
    )
    post_displays(*tables.values())  # the rules displays first (REG-23)
    staff = SimpleNamespace(table="UT1", croupier=make_croupier(fr, "a"), relief=make_croupier(fr, "b"))
    parties = seance_life(
        acts,
        fro.directeur_responsable,
        staff,
        tables,
        "UT2",
        {"seats": 7, "minimum_stake": "10", "maximum_stake": "200"},
    )
    seance_end(acts, fro.directeur_responsable, parties, "UT2")


def test_reg_01_reg_25_every_write_endpoint_in_its_own_transaction_leaves_registers_that_verify(mc, fr):
    acts = Acts()
    admin = get_user_model().objects.create_superuser(username="admin", password=DEFAULT_PASSWORD, email="")
    get_user_model().objects.create_user(username="directeur-nice", password=DEFAULT_PASSWORD)
    acts.post(
        admin,
        "/api/v1/establishment/create/",
        {"code": "nice", "name": "Casino de Nice", "jurisdiction": "FR", "director": "directeur-nice"},
    )
    monaco(acts, mc)
    france(acts, fr)

    verify_every_act(acts, SCOPE, CANNOT_RUN)
