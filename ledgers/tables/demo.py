"""Demo: the staff and the stakes of table-parties in the last evening séances and today's.

Runs after the domain seeders (``SEED_AFTER``): at a few tables that need no equipment of their
own before play (blackjack and punto banco in Monaco with no cards out yet, three-card poker and
ultimate hold'em in Nice), each evening séance gets a table-partie staffed as its text says, its
seats and stakes set at opening by the Direction, and a relief during play; past parties end,
today's stays open, in the table-partie log the registers' seeder opens. Idempotent: a table that
already has its partie in the séance is left as it is."""

import datetime
from decimal import Decimal
from typing import TextIO

from django.db import transaction
from django.utils import timezone
from django.utils.translation import ngettext

from ledgers.core.demo import DEMO_FR, DEMO_MC, demo_account, demo_houses, demo_user, demo_username
from ledgers.core.models import Establishment, Seance, TableSession
from ledgers.core.roles import Role
from ledgers.core.services import (
    membership_grant,
    seance_open,
    table_session_close,
    table_session_open,
    table_session_prepare,
)

from . import services
from .models import StaffAssignment

SEED_AFTER = ("ledgers.cards", "ledgers.dice", "ledgers.equipment")
DAYS = 3  # past evenings, plus today's
D = Decimal

# Per establishment: the director (who also fixes the stakes), and the tables with their staff
# ((position, demo user key)), seats and stakes.
PLAN = {
    DEMO_MC: (
        Role.DIRECTEUR_JEUX,
        [
            (
                "BJ2",
                [("chef_table", "chef"), ("croupier", "croupier")],
                7,
                {"minimum_stake": D("25"), "maximum_stake": D("5000")},
            ),
            (
                "PB1",
                [("chef_table", "chef"), ("croupier", "croupier2")],
                7,
                {"minimum_stake": D("50"), "maximum_stake": D("10000")},
            ),
        ],
    ),
    DEMO_FR: (
        Role.DIRECTEUR_RESPONSABLE,
        [
            (
                "TCP1",
                [("chef_table", "chef"), ("tailleur", "croupier")],
                7,
                {"minimum_stake": D("5"), "maximum_stake": D("250")},
            ),
            (
                "UTH1",
                [("chef_table", "chef"), ("croupier", "croupier2")],
                7,
                {"minimum_stake": D("10"), "maximum_stake": D("200")},
            ),
        ],
    ),
}
EXTRA = {"croupier2": ("Emma", "Lorenzi"), "croupier3": ("Noé", "Cassini")}  # relief croupiers


def _people(est: Establishment) -> dict:
    people = {"chef": demo_user(est, Role.CHEF_TABLE), "croupier": demo_user(est, Role.CROUPIER)}
    for key, (first, last) in EXTRA.items():
        username = demo_username(est.code, key)
        people[key] = demo_account(username, first, last)
        membership_grant(user=people[key], establishment=est, role=Role.CROUPIER, actor=None)
    return people


def _play(est, seance: Seance, number: str, staff, seats: int, stakes: dict, director, people, past: bool) -> bool:
    table = est.tables.get(number=number)
    if TableSession.objects.filter(seance=seance, table=table).exists():
        return False  # another seeder's partie, or ours already played
    session = table_session_prepare(seance=seance, table=table, actor=director)
    opening = (
        timezone.now()
        if not past
        else timezone.make_aware(datetime.datetime.combine(seance.date, datetime.time(20, 0)))
    )
    for position, key in staff:
        services.staff_assign(session=session, position=position, person=people[key], actor=director, at=opening)
    services.table_limits_set(session=session, actor=director, seats=seats, **stakes)
    table_session_open(session=session, actor=director)
    dealer = StaffAssignment.objects.get(table_session=session, person=people[staff[1][1]])
    services.staff_relieve(
        assignment=dealer, person=people["croupier3"], actor=director, at=opening + datetime.timedelta(hours=1)
    )
    if past:
        table_session_close(session=session, actor=director)
    return True


@transaction.atomic
def seed(*, stdout: TextIO, days: int = DAYS) -> None:
    today = timezone.localdate()
    for code in demo_houses():
        director_role, tables = PLAN[code]
        est = Establishment.objects.filter(code=code).first()
        if est is None:
            continue
        director, people = demo_user(est, director_role), _people(est)
        played = 0
        for back in range(days, -1, -1):
            date = today - datetime.timedelta(days=back)
            seance = Seance.objects.filter(establishment=est, date=date, period="soiree").first()
            if seance is None:
                seance = seance_open(establishment=est, date=date, period="soiree", actor=director)
            if seance.status != Seance.Status.OPEN:
                continue
            played += sum(
                _play(est, seance, number, staff, seats, stakes, director, people, past=back > 0)
                for number, staff, seats, stakes in tables
            )
        text = ngettext(
            "%(n)s partie de table avec personnel et limites",
            "%(n)s parties de table avec personnel et limites",
            played,
        )
        stdout.write(f"{est.name} : {text % {'n': played}}")
