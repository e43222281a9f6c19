"""Demo table cash: a month of night séances at Monte-Carlo (blackjack banks, change slips, the
chemin de fer cagnotte checked against its tickets, a shortfall every fifth night) and
Nice (roulette avances, registre de contrôle closed in words and visaed every day; one night the
texas hold'em table's cagnotte is 10 € short of its tickets (INC-17) and its bad beat jackpot is
counted against the certified statement; an orphan in carnet modèle 11 bis), through the
services. Bad beat jackpots and orphans are French rules only (arts. 41, 56-3). The night séances
are this seeder's own, so every table-partie it plays is closed with its certified count.
Idempotent: a night séance that exists already is skipped."""

import datetime
from decimal import Decimal
from typing import TextIO

from django.db import transaction
from django.utils import timezone
from django.utils.translation import ngettext

from ledgers.authority import displays
from ledgers.authority.registers import DISPLAYS
from ledgers.authority.services import display_post
from ledgers.core.demo import DEMO_FR, demo_houses, demo_user
from ledgers.core.models import (
    Establishment,
    GamingTable,
    Location,
    LocationKind,
    Seance,
    SeancePeriod,
    TableSession,
)
from ledgers.core.roles import Role
from ledgers.core.services import (
    gaming_table_create,
    seance_close,
    seance_open,
    table_session_close,
    table_session_open,
    table_session_prepare,
)
from ledgers.equipment.volumes import open_volume
from ledgers.registers.models import Register
from ledgers.registers.services import register_create, register_open
from ledgers.tables.services import table_limits_set

from . import services
from .models import BadBeatTable, ChipSeries, ControlDay, Orphan, SlipBook, TableBox, TicketBook
from .registers import CARNET_CAGNOTTES
from .services import plaques, rakes
from .services.table_cagnottes import keeps_own_cagnotte, table_cagnotte_record

SEED_AFTER = ("ledgers.authority",)  # the French tables' displays (REG-23) before they open

DAYS = 30
PERIOD = SeancePeriod.NUIT
# (kind, qualifier, role that creates it, role that cotes and paraphs it, paraphe)
REGISTERS = {
    "MC": [
        ("banque_tables", "", Role.DIRECTEUR_JEUX, Role.DIRECTEUR_JEUX, "B.M."),
        ("bons_caisse", "", Role.DIRECTEUR_JEUX, Role.DIRECTEUR_JEUX, "B.M."),
        ("cagnottes_mc", "", Role.DIRECTEUR_JEUX, Role.DIRECTEUR_JEUX, "B.M."),
        # The cagnotte shortfall opens a game incident (COUNT-08, INC-01).
        ("incidents", "", Role.DIRECTEUR_JEUX, Role.DIRECTEUR_JEUX, "B.M."),
    ],
    "FR": [
        # One carnet d'avances per table box (COUNT-49): the nightly roulette and tonight's.
        *[
            ("carnet_avances", number, Role.DIRECTEUR_RESPONSABLE, Role.CONTROLE_INTERIEUR, "N.C.")
            for number in ("RA1", "RA2", "RA3")
        ],
        ("bons_caisse", "", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("registre_change", "caisse", Role.DIRECTEUR_RESPONSABLE, Role.COMPTABLE_TRESOR, "M.G."),
        ("registre_controle", "", Role.DIRECTEUR_RESPONSABLE, Role.CONTROLE_INTERIEUR, "N.C."),
        ("incidents", "", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("informations_autorites", "", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("retenues_pots", "", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("registre_plaques", "", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("carnets_tickets", "", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("registre_bbj", "", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
        ("carnet_orphelins", "", Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "F.D."),
    ],
}
TABLES = {"MC": ("BJ1", "BJ2"), "FR": ("RA1",)}
# Tonight's cash tables, played with their avance and ended: each waits for its two blind counts
# (tables no other seeder plays tonight, one for each counter of the demo to try).
TONIGHT = {"MC": ("BJ3", "BJ4", "BJ5"), "FR": ("RA1", "RA2", "RA3")}
# MC: the Direction fixes the somme mise en banque of its blackjack and punto banco tables (COUNT-01).
BANKED_GAMES = ("blackjack", "punto_banco")
# The changeur's book of bons (MC COUNT-06, FR ravitaillement COUNT-29).
CHANGEUR_BOOK = {"MC": SlipBook.Kind.CHANGEUR, "FR": SlipBook.Kind.RAVITAILLEMENT}
MC_BANK = Decimal(40_000)
FR_STAKE = Decimal(5)  # roulette at 5 €: avance ≥ 15 000 × 5 = 75 000 € (art. 49)
POKER_NIGHT = 2  # the night (days ago) the Nice texas hold'em table plays, with its BBJ


def _table_cagnottes(est: Establishment) -> None:
    """Each French cercle table's own cagnotte, numbered like it, in service in its carnet modèle 11
    (COUNT-17, COUNT-42): without it the table does not open."""
    director = demo_user(est, Role.DIRECTEUR_RESPONSABLE)
    for table in est.tables.filter(active=True, cagnottes=None).order_by("number"):
        if keeps_own_cagnotte(est.jurisdiction, table.game):
            open_volume(
                est,
                CARNET_CAGNOTTES.code,
                table.number,
                director=director,
                authority=demo_user(est, Role.CONTROLE_INTERIEUR),
                paraphe="N.C.",
            )
            table_cagnotte_record(table=table, number=table.number, actor=director)


def prepare_tables(*, stdout: TextIO) -> None:
    """Nice's cercle tables open in the equipment's and the cards' séances: their cagnottes first."""
    est = Establishment.objects.filter(code=DEMO_FR).first()
    if est is not None:
        _table_cagnottes(est)


def _registers(est: Establishment) -> None:
    for kind, qualifier, creator, authority, paraphe in REGISTERS[est.jurisdiction]:
        register = (
            Register.objects.filter(establishment=est, kind=kind, qualifier=qualifier)
            .exclude(status=Register.Status.CLOSED)
            .first()
        )
        if register is None:
            register = register_create(establishment=est, kind=kind, qualifier=qualifier, actor=demo_user(est, creator))
        if register.status == Register.Status.AWAITING_OPENING:
            register_open(register=register, actor=demo_user(est, authority), paraphe=paraphe)


def _lines(total: Decimal) -> list[dict]:
    plaques, chips = divmod(int(total), 1000)
    lines = [{"value": "1000", "quantity": plaques, "kind": "plaque"}]
    return lines + ([{"value": "1", "quantity": chips, "kind": "jeton"}] if chips else [])


def _swing(day: int, table_index: int) -> Decimal:
    """A deterministic result per day and table: the house wins most nights."""
    return Decimal(((day * 7919 + table_index * 104729) % 23 - 7) * 750)


def _play_night(est: Establishment, date: datetime.date, day: int, slip_book: SlipBook | None, desk: Location) -> None:
    fr = est.jurisdiction == "FR"
    director = demo_user(est, Role.DIRECTEUR_RESPONSABLE if fr else Role.DIRECTEUR_JEUX)
    seance = seance_open(establishment=est, date=date, period=PERIOD, actor=director)
    for index, number in enumerate(TABLES[est.jurisdiction]):
        table = est.tables.get(number=number)
        session = table_session_prepare(seance=seance, table=table, actor=director)
        if fr:  # the stake at opening, in the table-partie log; the art. 49 avance reads it
            table_limits_set(session=session, actor=director, minimum_stake=FR_STAKE)
        session = table_session_open(session=session, actor=director)
        avance = 15_000 * FR_STAKE if fr else MC_BANK
        previous = session.table.sessions.exclude(pk=session.pk).filter(count__status="certified").exists()
        note = "Encaisse de la séance précédente remise à la caisse centrale" if previous else ""
        if fr:
            services.float_record(
                session=session,
                breakdown=_lines(avance),
                actor=director,
                box_number=number,
                transport_box=f"BT-{number}",
                counted_by="Kevin Martinez",
                called_aloud=True,
                carry_note=note,
                carnet_on_table=True,
            )
        else:
            services.float_record(
                session=session,
                breakdown=_lines(avance),
                actor=demo_user(est, Role.CAISSIER),
                receiver=demo_user(est, Role.CHEF_TABLE),
                carry_note=note,
            )
            if slip_book is not None and day % 5 == 0:
                number_next = slip_book.slips.count() + slip_book.first_number
                slip = services.slip_write(
                    book=slip_book,
                    number=number_next,
                    session=session,
                    requested=[{"value": "100", "quantity": 50, "kind": "jeton"}],
                    handed=[{"value": "5000", "quantity": 1, "kind": "plaque"}],
                    actor=demo_user(est, Role.CHEF_TABLE),
                    supervisor=demo_user(est, Role.INSPECTEUR),
                )
                services.slip_serve(slip=slip, desk=desk, actor=demo_user(est, Role.CAISSIER))
        table_session_close(session=session, actor=director)
        encaisse = _lines(avance + _swing(day, index))
        services.count_record(
            session=session,
            breakdown=encaisse,
            actor=demo_user(est, Role.CROUPIER),
            present=["Croupier de la table", "Chef de table"],
            called_aloud=True,
            tips=Decimal(day * 10),
        )
        count = services.count_record(session=session, breakdown=encaisse, actor=demo_user(est, Role.CAISSIER))
        certifier = demo_user(est, Role.COMITE if fr else Role.INSPECTEUR)
        services.count_certify(count=count, actor=certifier, words="certifié exact" if fr else "vu")
    if not fr:
        _chemin_de_fer(est, seance, day, director)
    elif day == POKER_NIGHT:
        _poker_night(est, seance, director)
    seance_close(seance=seance, actor=director)
    if fr and day > 1:  # last night's day waits for the accounts to close it (COUNT-50)
        control = services.control_day_close(
            establishment=est, date=date, actor=demo_user(est, Role.CAISSIER_PRINCIPAL)
        )
        services.control_day_visa(day=control, actor=director)
        services.control_day_visa(day=control, actor=demo_user(est, Role.COMITE))


def _chemin_de_fer(est: Establishment, seance: Seance, day: int, director) -> None:
    """MC chemin de fer: the tickets detached are checked before the cagnotte is opened (COUNT-08);
    every fifth night the cagnotte is 5 € short."""
    table = est.tables.get(number="CF1")
    inspecteur = demo_user(est, Role.INSPECTEUR)
    book = TicketBook.objects.filter(table=table, finished_on__isnull=True).first() or services.ticket_book_register(
        table=table,
        cover_number=f"CF1-{TicketBook.objects.filter(table=table).count() + 1:03d}",
        ticket_value=Decimal(5),
        first_number=1,
        last_number=1000,
        actor=inspecteur,
    )
    session = table_session_open(
        session=table_session_prepare(seance=seance, table=table, actor=director), actor=director
    )
    table_session_close(session=session, actor=director)
    tickets = 20 + day % 7
    last = min(book.next_number + tickets - 1, book.last_number)
    cagnotte = services.cagnotte_compute(
        session=session, detached=[{"book": book, "last_number": last}], actor=inspecteur
    )
    counted = cagnotte.computed - (5 if day % 5 == 0 else 0)
    services.cagnotte_count(
        session=session, breakdown=[{"value": "5", "quantity": int(counted // 5), "kind": "jeton"}], actor=inspecteur
    )


def _poker_table(est: Establishment) -> GamingTable:
    """Nice's texas hold'em table in the cercle room, its displays posted (REG-23, COUNT-20, COUNT-45)."""
    director = demo_user(est, Role.DIRECTEUR_RESPONSABLE)
    table = est.tables.filter(number="TH1").first() or gaming_table_create(
        room=est.rooms.get(code="cercle"), number="TH1", game="texas_holdem", actor=director
    )
    open_volume(est, DISPLAYS.code, "", director=director, authority=director, paraphe="D.R.")
    for required in displays.missing(displays.table_items(table, with_bbj=True), displays.posted_items(table=table)):
        display_post(
            establishment=est,
            actor=demo_user(est, Role.COMITE),
            item=required.item,
            table=table,
            posted_on=timezone.localdate() - datetime.timedelta(days=DAYS + 1),
        )
    return table


def _poker_night(est: Establishment, seance: Seance, director) -> None:
    """The texas hold'em table: three pots raked 100 € each, 60 tickets of 5 € detached, the
    cagnotte found 10 € short, borne by the cash desk and set against the pots' rakes (COUNT-53,
    INC-17, COUNT-18); its bad beat jackpot counted 5 € above the certified statement,
    the higher amount retained (COUNT-21 to COUNT-24, INC-10)."""
    table = est.tables.get(number="TH1")
    comite = demo_user(est, Role.COMITE)
    book = services.ticket_book_register(
        table=table,
        cover_number="TH1",
        ticket_value=Decimal(5),
        first_number=1,
        last_number=500,
        actor=demo_user(est, Role.GARDIEN_CARNETS),
    )
    session = table_session_open(
        session=table_session_prepare(seance=seance, table=table, actor=director), actor=director
    )
    croupier = demo_user(est, Role.CROUPIER)
    for pot in (Decimal(2500), Decimal(3100), Decimal(2600)):  # cave 1 000 €: 100 € each, the cap
        rakes.pot_rake_record(session=session, pot=pot, cave=Decimal(1000), actor=croupier)
    table_session_close(session=session, actor=director)
    services.cagnotte_compute(session=session, detached=[{"book": book, "last_number": 60}], actor=comite)
    services.cagnotte_count(
        session=session,
        breakdown=[{"value": "5", "quantity": 58, "kind": "jeton"}],
        actor=comite,
        words="certifié exact",
    )
    services.bad_beat_record(
        session=session,
        counted=Decimal("185"),
        statement=Decimal("180"),
        displayed=Decimal("185"),
        present=["Kevin Martinez", "Laurent Ciais"],
        actor=demo_user(est, Role.CAISSIER),
        comite=comite,
    )


def _orphan(est: Establishment) -> None:
    """A 100 € plaque found under a roulette table, paid into the cash desk (COUNT-30, COUNT-31)."""
    if not Orphan.objects.filter(establishment=est).exists():
        services.orphan_record(
            establishment=est,
            category=Orphan.Category.FLOOR,
            amount=Decimal(100),
            place="Sous la table RA1",
            found_by="Romain Faraut",
            paid_into="Caisse",
            actor=demo_user(est, Role.CAISSIER),
        )


def _plaques(est: Establishment) -> None:
    """FR modèle 16: the chips and plaques in service, and the start-of-season census where the
    players hold 2 000 € more than the account says (COUNT-58 flag)."""
    keeper = demo_user(est, Role.CAISSIER_PRINCIPAL)
    if not ChipSeries.objects.filter(establishment=est).exists():
        plaques.chip_series_record(
            establishment=est,
            kind=ChipSeries.Kind.PLAQUE,
            description="Plaques nacrées",
            manufacturer="Bourgogne et Grasset",
            series_count=3,
            reserve_series=1,
            pieces=[{"value": "1000", "quantity": 100}, {"value": "500", "quantity": 100}],
            actor=keeper,
        )
        plaques.chip_series_record(
            establishment=est,
            kind=ChipSeries.Kind.JETON,
            description="Jetons ronds",
            manufacturer="Bourgogne et Grasset",
            series_count=4,
            reserve_series=2,
            pieces=[{"value": "100", "quantity": 500}, {"value": "5", "quantity": 1000}],
            actor=keeper,
        )
    for day, _period in plaques.censuses_due(est):
        counted = [
            {"series": series.pk, "value": piece["value"], "quantity": piece["quantity"] * 2 - 10}
            for series in ChipSeries.objects.filter(establishment=est)
            for piece in series.pieces
        ]
        held = plaques.taken_in_charge(est) - sum(Decimal(line["value"]) * line["quantity"] for line in counted)
        plaques.chip_census_record(
            establishment=est,
            census_date=day,
            counted=counted,
            counted_by="Caissier principal et membre du comité de direction",
            account_balance=held - 2000,
            actor=keeper,
        )


@transaction.atomic
def _ready_to_count(est: Establishment, number: str) -> TableSession | None:
    """Tonight's partie at table ``number``, played with its avance and ended, waiting for its count."""
    # Tonight's séance only: an earlier one still open is closed by the demo, which a partie left
    # uncounted would refuse.
    seance = Seance.objects.filter(establishment=est, status=Seance.Status.OPEN, date=timezone.localdate()).first()
    if seance is None:
        return None
    table = est.tables.get(number=number)
    session = seance.table_sessions.filter(table=table).first()
    if session is not None:
        return session
    fr = est.jurisdiction == "FR"
    director = demo_user(est, Role.DIRECTEUR_RESPONSABLE if fr else Role.DIRECTEUR_JEUX)
    session = table_session_prepare(seance=seance, table=table, actor=director)
    if fr:
        table_limits_set(session=session, actor=director, minimum_stake=FR_STAKE)
    session = table_session_open(session=session, actor=director)
    avance = 15_000 * FR_STAKE if fr else MC_BANK
    if fr:
        services.float_record(
            session=session,
            breakdown=_lines(avance),
            actor=director,
            box_number=table.number,
            transport_box=f"BT-{table.number}",
            counted_by="Kevin Martinez",
            called_aloud=True,
            carnet_on_table=True,
        )
    else:
        services.float_record(
            session=session,
            breakdown=_lines(avance),
            actor=demo_user(est, Role.CAISSIER),
            receiver=demo_user(est, Role.CHEF_TABLE),
        )
    return table_session_close(session=session, actor=director)


def seed(*, stdout: TextIO, days: int = DAYS) -> None:
    today = timezone.localdate()
    for code in demo_houses():
        est = Establishment.objects.filter(code=code).first()
        if est is None:
            continue
        poker = _poker_table(est) if est.jurisdiction == "FR" else None
        _registers(est)
        if poker is not None:
            _table_cagnottes(est)
        if poker is not None and not BadBeatTable.objects.filter(table=poker).exists():
            # Its bad beat jackpot runs on an approved machine with a built-in cagnotte (COUNT-46).
            services.bad_beat_activate(
                table=poker,
                machine_approval="Agrément BBJ n° 2025-114",
                cagnotte_number="BBJ-TH1",
                actor=demo_user(est, Role.DIRECTEUR_RESPONSABLE),
            )
        desk = Location.objects.filter(establishment=est, kind=LocationKind.CAISSE_CENTRALE).order_by("code").first()
        slip_book = None
        if est.jurisdiction == "MC":
            for table in est.tables.filter(game__in=BANKED_GAMES).order_by("number"):
                if est.setting("SET-06").get(table.number) is None:
                    est = services.float_amount_fix(
                        table=table, amount=MC_BANK, actor=demo_user(est, Role.DIRECTEUR_JEUX)
                    )
            slip_book = SlipBook.objects.filter(establishment=est, number="BC-001").first() or services.slip_book_open(
                establishment=est,
                kind=SlipBook.Kind.CHANGE,
                number="BC-001",
                first_number=1,
                last_number=100,
                actor=demo_user(est, Role.DIRECTEUR_JEUX),
            )
        else:
            for number in sorted({*TABLES["FR"], *TONIGHT["FR"]}):  # the locked box built into the table (COUNT-37)
                table = est.tables.get(number=number)
                if not TableBox.objects.filter(table=table).exists():
                    services.table_box_record(
                        table=table,
                        box_id=f"CI-{number}",
                        key_reference=f"CL-{number}",
                        actor=demo_user(est, Role.DIRECTEUR_RESPONSABLE),
                    )
            _plaques(est)
            _orphan(est)
        kind = CHANGEUR_BOOK[est.jurisdiction]
        if not SlipBook.objects.filter(establishment=est, kind=kind).exists():
            services.slip_book_open(
                establishment=est,
                kind=kind,
                number="BR-001",
                first_number=1,
                last_number=100,
                actor=demo_user(est, Role.DIRECTEUR_JEUX if est.jurisdiction == "MC" else Role.DIRECTEUR_RESPONSABLE),
            )
        played = 0
        for day in range(days, 0, -1):
            date = today - datetime.timedelta(days=day)
            if Seance.objects.filter(establishment=est, date=date, period=PERIOD).exists():
                continue
            _play_night(est, date, day, slip_book, desk)
            played += 1
        waiting = [_ready_to_count(est, number) for number in TONIGHT[est.jurisdiction]]
        if all(waiting):
            tables = ", ".join(session.table.number for session in waiting)
            stdout.write(f"{est.name} : les parties {tables} de ce soir attendent leur comptage")
        closed = ControlDay.objects.filter(establishment=est).count()
        nights = ngettext(
            "%(n)s séance de nuit avec avances et comptées certifiées",
            "%(n)s séances de nuit avec avances et comptées certifiées",
            played,
        ) % {"n": played}
        control_days = ngettext(
            "%(n)s journée du registre de contrôle", "%(n)s journées du registre de contrôle", closed
        ) % {"n": closed}
        stdout.write(f"{est.name} : {nights} ; {control_days}")
