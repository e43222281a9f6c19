"""Names shared by the demo seeders (``manage.py seed_demo``), and the demo organisation.

``seed_demo`` seeds the organisation first, then calls ``seed(stdout=...)`` in the ``demo``
module of every ledgers app that has one, in INSTALLED_APPS order, except that a module declaring
``SEED_AFTER = ("ledgers.<app>", ...)`` runs after those apps' seeders (it builds on their data).
Between the organisation and the domain seeders, ``seed_demo`` calls ``prepare_tables(stdout=...)``
in every module that has one, in the same order: the tables themselves (set up by the authorities'
seeder once what allows them is recorded, ``seed_tables``), and what an app requires of a table
before it opens, which the seeders below it in the layers, running earlier, cannot put in place
themselves.
A module may also have ``seeding()``: a context manager that the whole run goes through (what a
run of thousands of acts may remember between them).
Each seeder must be idempotent (running seed_demo twice changes nothing the second time) and go
through the services. Séances are shared: a seeder opens the séance of a date and period, or joins
it while it is open, and closes only the table-parties it plays (and a séance only if it keeps
that period to itself). Once every seeder has played, ``seed_demo`` closes the past séances still
open (``close_past_seances``); today's stays open.
A seeder seeds the establishments ``demo_houses`` names, each apart from the other's data: once
the organisation and the tables are in place, ``seed_demo`` on PostgreSQL seeds each establishment
in a process of its own, both at once, where there is a core for each (``houses_apart``).
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import TextIO

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import ngettext

from .models import Establishment, LocationKind, Seance
from .roles import Role
from .services import (
    establishment_create,
    gaming_table_create,
    location_create,
    membership_grant,
    room_create,
    seance_close,
)

DEMO_MC = "montecarlo"  # Monaco establishment code
DEMO_FR = "nice"  # France establishment code
DEMO_PASSWORD = "demo-casino-2026"  # printed by seed_demo; demo only


def demo_username(establishment_code: str, role: str) -> str:
    return f"{role}.{establishment_code}"


_cast: ContextVar[dict[tuple[int, str], AbstractBaseUser] | None] = ContextVar("demo_cast", default=None)


@contextmanager
def demo_cast() -> Iterator[None]:
    """Within the block (a run of seed_demo), ``demo_user`` gives the same user each time it is
    asked for a role here, and that user's memberships are read once per establishment (as under
    ``roles_remembered``): the seeders name a demo user for each of thousands of acts, and none
    changes the demo users' roles once the organisation's seeder has granted them."""
    token = _cast.set({})
    try:
        yield
    finally:
        _cast.reset(token)


def demo_user(establishment: Establishment, role: str) -> AbstractBaseUser:
    cast = _cast.get()
    if cast is not None and (establishment.pk, role) in cast:
        return cast[establishment.pk, role]
    user = get_user_model().objects.get(username=demo_username(establishment.code, role))
    if cast is not None:
        user._remembered_roles = {}  # read by roles_of
        cast[establishment.pk, role] = user
    return user


@cache
def _demo_password_hash() -> str:
    """The demo password hashed once for every demo account: each hash costs the hasher's full work."""
    return make_password(DEMO_PASSWORD)


def demo_account(username: str, first_name: str, last_name: str, email: str = "") -> AbstractBaseUser:
    """The demo user ``username``, created with the demo password if missing."""
    users = get_user_model().objects
    return users.filter(username=username).first() or users.create(
        username=username, password=_demo_password_hash(), first_name=first_name, last_name=last_name, email=email
    )


_L = LocationKind
# code, name, jurisdiction, time zone, address; rooms (code, name); tables (room, number, game, super privé);
# locations (code, name, kind, room); one demo user per role that the jurisdiction's texts name.
ORGANISATION = {
    DEMO_MC: {
        "name": "Casino de Monte-Carlo (démo)",
        "jurisdiction": "MC",
        "timezone": "Europe/Monaco",
        "address": "Place du Casino\n98000 Monaco",
        "rooms": [
            ("europe", "Salle Europe"),
            ("ameriques", "Salle des Amériques"),
            ("touzet", "Salons Touzet (super privé)"),
        ],
        "tables": [
            ("europe", "BJ1", "blackjack", False),
            ("europe", "BJ2", "blackjack", False),
            ("europe", "BJ3", "blackjack", False),
            ("europe", "BJ4", "blackjack", False),
            ("europe", "BJ5", "blackjack", False),
            ("europe", "R1", "roulette", False),
            ("europe", "R2", "roulette", False),
            ("europe", "CF1", "chemin_de_fer", False),
            ("europe", "TV1", "banque_tout_va", False),
            ("ameriques", "PB1", "punto_banco", False),
            ("ameriques", "CR1", "craps", False),
            ("ameriques", "TCP1", "three_card_poker", False),
            ("ameriques", "UTH1", "ultimate_holdem", False),
            ("ameriques", "BJOD1", "blackjack_one_deck", False),
            ("touzet", "SP1", "punto_banco", True),
        ],
        "locations": [
            ("depot-principal", "Dépôt principal", _L.DEPOT_PRINCIPAL, None),
            ("depot-europe", "Dépôt annexe — salle Europe", _L.DEPOT_ANNEXE, "europe"),
            ("depot-ameriques", "Dépôt annexe — salle des Amériques", _L.DEPOT_ANNEXE, "ameriques"),
            ("dcc", "Dépôt Central des Cartes", _L.DCC, None),
            ("caisse-centrale", "Caisse centrale", _L.CAISSE_CENTRALE, None),
            ("comptabilite", "Comptabilité générale", _L.COMPTABILITE, None),
            ("coffre", "Coffre d'exploitation", _L.COFFRE, None),
            ("magasin", "Magasin", _L.MAGASIN, None),
            ("atelier", "Atelier", _L.ATELIER, None),
        ],
        "people": {
            Role.CARTIER: ("Jean-Marc", "Rossi"),
            Role.DCC_STAFF: ("Isabelle", "Gastaud"),
            Role.CROUPIER: ("Lucas", "Bertrand"),
            Role.CHEF_TABLE: ("Sophie", "Marchetti"),
            Role.CHEF_PARTIE: ("Antoine", "Giordano"),
            Role.INSPECTEUR: ("Philippe", "Lanteri"),
            Role.SOUS_DIRECTEUR: ("Nathalie", "Pastor"),
            Role.DIRECTEUR_JEUX: ("Bernard", "Médecin"),
            Role.CAISSIER: ("Julie", "Fissore"),
            Role.CAISSIER_PRINCIPAL: ("Patrick", "Boisson"),
            Role.COMPTABILITE: ("Valérie", "Campana"),
            Role.SUPERVISEUR: ("Thierry", "Notari"),
            Role.MECANICIEN: ("Marc", "Crovetto"),
            Role.ENTRETIEN: ("Ahmed", "Benali"),
            Role.AGENT_SURVEILLANCE: ("Éric", "Vatrican"),
            Role.CHANGEUR: ("Laetitia", "Pallanca"),
            Role.DIRECTEUR_EXPLOITATION: ("Jean-Pierre", "Rey"),
            Role.SECRETARIAT_GENERAL: ("Corinne", "Moreau"),
            Role.COMMISSAIRE: ("Christophe", "Orecchia"),
            Role.SCJ: ("Hélène", "Blanchi"),
        },
    },
    DEMO_FR: {
        "name": "Casino de Nice (démo)",
        "jurisdiction": "FR",
        "timezone": "Europe/Paris",
        "address": "Promenade des Anglais\n06000 Nice",
        "rooms": [("salle-jeux", "Salle des jeux"), ("cercle", "Salon de cercle")],
        "tables": [
            ("salle-jeux", "BJ1", "blackjack", False),
            ("salle-jeux", "BJ2", "blackjack", False),
            ("salle-jeux", "RA1", "roulette", False),
            ("salle-jeux", "RA2", "roulette", False),
            ("salle-jeux", "RA3", "roulette", False),
            ("salle-jeux", "PB1", "punto_banco", False),
            ("salle-jeux", "RP1", "rampo", False),
            ("salle-jeux", "RC1", "roue_chance", False),
            ("salle-jeux", "TCP1", "three_card_poker", False),
            ("salle-jeux", "UTH1", "ultimate_holdem", False),
            ("cercle", "CF1", "chemin_de_fer", False),
        ],
        "locations": [
            ("armoire-cartes", "Armoire « dépôt des cartes »", _L.CARD_CABINET, "salle-jeux"),
            ("caisse", "Caisse", _L.CAISSE_CENTRALE, None),
            ("coffre", "Coffre", _L.COFFRE, None),
            ("magasin", "Magasin", _L.MAGASIN, None),
            ("atelier", "Atelier", _L.ATELIER, None),
        ],
        "people": {
            Role.CARTIER: ("Sandrine", "Baudoin"),
            Role.CROUPIER: ("Kevin", "Martinez"),
            Role.CHEF_TABLE: ("Laurent", "Ciais"),
            Role.CHEF_PARTIE: ("Céline", "Ghiglione"),
            Role.DIRECTEUR_RESPONSABLE: ("François", "Delorme"),
            Role.COMITE: ("Catherine", "Aubert"),
            Role.EMPLOYE_RESPONSABLE: ("Mickaël", "Barale"),
            Role.CAISSIER: ("Aurélie", "Cotta"),
            Role.CAISSIER_PRINCIPAL: ("Olivier", "Raybaud"),
            Role.COMPTABILITE: ("Martine", "Gilli"),
            Role.SUPERVISEUR: ("David", "Ferrero"),
            Role.MECANICIEN: ("Stéphane", "Lorenzi"),
            Role.ENTRETIEN: ("Karim", "Haddad"),
            Role.AGENT_SURVEILLANCE: ("Romain", "Faraut"),
            Role.CHANGEUR: ("Yannick", "Bruno"),
            Role.RAVITAILLEUR: ("Hugo", "Maurel"),
            Role.GARDIEN_CARNETS: ("Josiane", "Icardo"),
            Role.EMPLOYE_JEUX: ("Fabien", "Rinaldi"),
            Role.TECHNICIEN_SFM: ("Grégory", "Bellon"),
            Role.POLICE: ("Claire", "Vidal"),
            Role.CHEF_POLICE: ("Alain", "Roux"),
            Role.CONTROLE_INTERIEUR: ("Nadia", "Chevalier"),
            Role.AGENT_VERIFICATEUR: ("Pascal", "Lefèvre"),
            Role.COMPTABLE_TRESOR: ("Monique", "Garnier"),
        },
    },
}


# The demo establishments this process seeds: both, but in a process seeding one of them
# (``seeding_only``).
_houses: ContextVar[tuple[str, ...]] = ContextVar("demo_houses", default=tuple(ORGANISATION))


def demo_houses() -> tuple[str, ...]:
    """The codes of the demo establishments the domain seeders seed here, in ``ORGANISATION`` order."""
    return _houses.get()


@contextmanager
def seeding_only(code: str) -> Iterator[None]:
    """Within the block the domain seeders seed only the demo establishment ``code``: each house's
    data is its own, so that a process may seed one while another seeds the other."""
    token = _houses.set((code,))
    try:
        yield
    finally:
        _houses.reset(token)


def demo_logins() -> list[tuple[str, str, str]]:
    """(username, role label, establishment name) of every demo user, for the printed table."""
    return [
        (demo_username(code, role), str(Role(role).label), org["name"])
        for code, org in ORGANISATION.items()
        for role in org["people"]
    ]


@transaction.atomic
def seed(stdout: TextIO) -> None:
    """The two demo establishments with their rooms, depots and one user per role. Their gaming
    tables come once what allows them is recorded (``seed_tables``, called by the authorities'
    seeder's ``prepare_tables``: Nice's arrêté d'autorisation first, Monte-Carlo's tables written in
    its main courante)."""
    for code, org in ORGANISATION.items():
        est = Establishment.objects.filter(code=code).first() or establishment_create(
            code=code,
            name=org["name"],
            jurisdiction=org["jurisdiction"],
            timezone_name=org["timezone"],
            address=org["address"],
            actor=None,
        )
        rooms = {room.code: room for room in est.rooms.all()}
        for room_code, name in org["rooms"]:
            if room_code not in rooms:
                rooms[room_code] = room_create(establishment=est, code=room_code, name=name, actor=None)
        locations = set(est.locations.values_list("code", flat=True))
        for loc_code, name, kind, room_code in org["locations"]:
            if loc_code not in locations:
                location_create(
                    establishment=est,
                    code=loc_code,
                    name=name,
                    kind=kind,
                    room=rooms[room_code] if room_code else None,
                    actor=None,
                )
        for role, (first_name, last_name) in org["people"].items():
            username = demo_username(code, role)
            # An address so that the demo's notices are mailed (to files in var/mail).
            user = demo_account(username, first_name, last_name, email=f"{username}@demo.invalid")
            membership_grant(user=user, establishment=est, role=role, actor=None)
        stdout.write(
            f"{est.name} : {len(rooms)} salles, {est.locations.count()} emplacements, "
            f"{len(org['people'])} utilisateurs de démonstration"
        )


def table_numbers(est: Establishment) -> list[str]:
    """The numbers of the demo establishment's gaming tables, in the order they are set up."""
    return [number for _room, number, _game, _super_prive in ORGANISATION[est.code]["tables"]]


@transaction.atomic
def seed_tables(est: Establishment, actor: AbstractBaseUser, stdout: TextIO) -> None:
    """The demo establishment's gaming tables, set up by ``actor`` (its director) through the
    service, which writes each in the register of its jurisdiction."""
    rooms = {room.code: room for room in est.rooms.all()}
    tables = set(est.tables.values_list("number", flat=True))
    for room_code, number, game, super_prive in ORGANISATION[est.code]["tables"]:
        if number not in tables:
            gaming_table_create(room=rooms[room_code], number=number, game=game, super_prive=super_prive, actor=actor)
    stdout.write(f"{est.name} : {est.tables.count()} tables de jeu")


@transaction.atomic
def close_past_seances(stdout: TextIO) -> None:
    """The séances of past days are over: close those the domain seeders left open for one another,
    by the director of the establishment. Every table-partie in them must already be over."""
    for code in demo_houses():
        est = Establishment.objects.filter(code=code).first()
        if est is None:
            continue
        director = demo_user(est, Role.DIRECTEUR_JEUX if est.jurisdiction == "MC" else Role.DIRECTEUR_RESPONSABLE)
        past = Seance.objects.filter(establishment=est, status=Seance.Status.OPEN, date__lt=timezone.localdate())
        closed = 0
        for seance in past.order_by("date", "opened_at"):
            seance_close(seance=seance, actor=director)
            closed += 1
        if closed:
            closed_text = ngettext("%(n)s séance passée clôturée", "%(n)s séances passées clôturées", closed)
            stdout.write(f"{est.name} : {closed_text % {'n': closed}}")
