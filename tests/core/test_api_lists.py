"""The establishment's rooms and gaming tables, and the ticket books, listed through the API:
scoped to the caller's establishment, filtered."""

from decimal import Decimal

from rest_framework.test import APIClient

from ledgers.cash.services import ticket_book_register
from ledgers.core.roles import Role
from tests.factories import GamingTableFactory, RoomFactory, make_user, open_register


def test_rooms_and_tables_of_the_callers_establishment(fr, mc):
    room = RoomFactory(establishment=fr, code="salle", name="Salle des jeux")
    GamingTableFactory(establishment=fr, room=room, number="RA1", game="roulette")
    GamingTableFactory(establishment=fr, room=room, number="BJ1", game="blackjack")
    GamingTableFactory(establishment=mc, number="RA1", game="roulette")
    api = APIClient()
    api.force_authenticate(make_user(fr, Role.DIRECTEUR_RESPONSABLE))
    rooms = api.get("/api/v1/establishment/rooms/").json()["results"]
    assert [r["code"] for r in rooms] == ["salle"]
    tables = api.get("/api/v1/establishment/tables/").json()["results"]
    assert sorted(t["number"] for t in tables) == ["BJ1", "RA1"]
    roulette = api.get("/api/v1/establishment/tables/", {"game": "roulette"}).json()["results"]
    assert [(t["number"], t["room"]) for t in roulette] == [("RA1", room.pk)]


def test_ticket_books_listed_per_table(mc):
    room = RoomFactory(establishment=mc, code="salle", name="Salle")
    cf1 = GamingTableFactory(establishment=mc, room=room, number="CF1", game="chemin_de_fer")
    cf2 = GamingTableFactory(establishment=mc, room=room, number="CF2", game="chemin_de_fer")
    director = make_user(mc, Role.DIRECTEUR_JEUX)

    open_register(mc, "cagnottes_mc")
    for table in (cf1, cf2):
        ticket_book_register(
            table=table,
            cover_number=table.number,
            ticket_value=Decimal("5"),
            first_number=1,
            last_number=100,
            actor=director,
        )
    api = APIClient()
    api.force_authenticate(director)
    books = api.get("/api/v1/cash/ticket-books/").json()["results"]
    assert sorted(b["cover_number"] for b in books) == ["CF1", "CF2"]
    mine = api.get("/api/v1/cash/ticket-books/", {"table": cf2.pk}).json()["results"]
    assert [b["cover_number"] for b in mine] == ["CF2"]
