"""Seats and stakes of a table-partie (GAME-03 and the seat rows, the limit rows, SET-08, SET-09,
SET-11, AUTH-04): set by whom the text names, within its bounds, changes during play recorded."""

import datetime
from decimal import Decimal
from functools import partial

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from ledgers.authority.models import Declaration
from ledgers.authority.services import declaration_record
from ledgers.core.authz import save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.hooks import opening_refusals
from ledgers.core.models import Seance, TableSession
from ledgers.core.services import seance_open, table_session_open, table_session_prepare
from ledgers.registers.selectors import current_register
from ledgers.tables.models import TableLimits
from ledgers.tables.services import staff_assign, table_limits_set
from tests.factories import GamingTableFactory, open_register, record_arrete

from .conftest import DAY

D = Decimal


def refused(code):
    return pytest.raises(RuleViolation, match=code)


def limits(casino, number_or_session, **kwargs):
    session = casino.session(number_or_session) if isinstance(number_or_session, str) else number_or_session
    return table_limits_set(session=session, actor=casino.director, **kwargs)


def open_three_card(frc):
    session = frc.session("TC1")
    staff_assign(session=session, position="chef_table", person=frc["chef1"], actor=frc.director)
    staff_assign(session=session, position="tailleur", person=frc["croupier1"], actor=frc.director)
    return session


def test_game_35_three_card_poker_minimum_never_below_one_euro_and_maximum_multiples(frc):
    with refused("GAME-35"):
        limits(frc, "TC1", minimum_stake=D("0.50"), maximum_stake=D("50"))
    with refused("GAME-35"):
        limits(frc, "TC1", minimum_stake=D("5"), maximum_stake=D("75"))  # 15 ×
    record = limits(frc, "TC1", minimum_stake=D("5"), maximum_stake=D("125"))  # 25 ×
    session = record.table_session
    session.refresh_from_db()
    assert (session.minimum_stake, session.maximum_stake) == (D("5"), D("125"))  # what the art. 49 avance reads


def test_game_35_change_during_play_only_with_the_display_updated(frc):
    session = open_three_card(frc)
    limits(frc, session, minimum_stake=D("5"), maximum_stake=D("100"))
    table_session_open(session=session, actor=frc.director)
    with refused("GAME-35"):
        limits(frc, session, minimum_stake=D("5"), maximum_stake=D("250"))
    change = limits(frc, session, minimum_stake=D("5"), maximum_stake=D("250"), display_updated=True)
    assert change.during_play
    session.refresh_from_db()
    assert session.maximum_stake == D("100")  # the stakes at opening stay on the table-partie
    payloads = [e.payload for e in current_register(frc.est, "parties_de_table").entries.filter(kind="record")]
    events = [p["event"] for p in payloads[-3:]]
    assert events == ["Limites à l'ouverture", "Début de partie", "Changement de limites"]
    assert "max. 250.00 €" in payloads[-1]["detail"] and "affichage mis à jour" in payloads[-1]["detail"]


def test_game_34_three_card_poker_five_to_seven_seats(frc):
    with refused("GAME-34"):
        limits(frc, "TC1", seats=4, minimum_stake=D("5"), maximum_stake=D("50"))
    with refused("GAME-34"):
        limits(frc, "TC1", seats=8, minimum_stake=D("5"), maximum_stake=D("50"))
    assert limits(frc, "TC1", seats=5, minimum_stake=D("5"), maximum_stake=D("50")).seats == 5


def test_auth_04_minimum_below_the_authorised_minimum_refused(frc):
    frc.est.options = {"SET-08": {"three_card_poker": 10}}
    frc.est.save()
    with refused("AUTH-04"):
        limits(frc, "TC1", minimum_stake=D("5"), maximum_stake=D("50"))
    limits(frc, "TC1", minimum_stake=D("10"), maximum_stake=D("100"))


def test_auth_04_the_arrete_in_force_on_the_seance_day_fixes_the_minimum_over_set_08(frc):
    frc.est.options = {"SET-08": {"three_card_poker": 5, "ultimate_holdem": 20}}
    frc.est.save()
    games = {"three_card_poker": (1, D("15")), "ultimate_holdem": 1}  # no minimum fixed for the latter
    record_arrete(frc.est, games, effective_from=DAY - datetime.timedelta(days=10))
    record_arrete(frc.est, {"three_card_poker": (1, D("20"))}, effective_from=DAY + datetime.timedelta(days=1))
    with refused("AUTH-04") as refusal:
        limits(frc, "TC1", minimum_stake=D("10"), maximum_stake=D("100"))
    assert "(15,00 €)" in str(refusal.value)  # the arrêté in force on the séance's day, not the later one
    limits(frc, "TC1", minimum_stake=D("15"), maximum_stake=D("150"))
    with refused("AUTH-04") as refusal:
        limits(frc, "UT1", minimum_stake=D("10"), maximum_stake=D("100"))
    assert "(20,00 €)" in str(refusal.value)  # SET-08


def test_game_33_ultimate_holdem_maximum_10_20_or_30_times(frc):
    with refused("GAME-33"):
        limits(frc, "UT1", minimum_stake=D("10"), maximum_stake=D("250"))
    limits(frc, "UT1", minimum_stake=D("10"), maximum_stake=D("300"))


def test_game_32_game_06_game_16_seat_maximums(frc):
    with refused("GAME-32"):
        limits(frc, "UT1", seats=8, minimum_stake=D("10"), maximum_stake=D("100"))
    with refused("GAME-06"):
        limits(frc, "BJ1", seats=8, minimum_stake=D("10"))
    with refused("GAME-16"):
        limits(frc, "PB1", seats=17, minimum_stake=D("10"))


def test_game_03_mc_blackjack_seats_are_the_marked_spots_without_maximum(mcc):
    assert limits(mcc, "BJ1", seats=9, minimum_stake=D("25"), maximum_stake=D("5000")).seats == 9


def test_game_18_rampo_maximums_40_times_on_numbers_200_times_on_colours(frc):
    with refused("GAME-18"):
        limits(frc, "RP1", minimum_stake=D("2"), maximum_stake=D("82"), bet_maximums={"numbers": D("82")})
    with refused("GAME-18"):
        limits(frc, "RP1", minimum_stake=D("2"), bet_maximums={"colours": D("402")})
    with refused("GAME-18"):
        limits(frc, "RP1", seats=9, minimum_stake=D("2"))
    record = limits(
        frc, "RP1", minimum_stake=D("2"), maximum_stake=D("80"), bet_maximums={"numbers": D("80"), "colours": D("400")}
    )
    assert record.bet_maximums == {"numbers": "80", "colours": "400"}
    with pytest.raises(ValidationError):
        limits(frc, "RP1", minimum_stake=D("2"), bet_maximums={"douzaine": D("10")})


def test_game_37_and_game_38_roue_de_la_chance_per_colour_and_locked_after_opening(frc):
    with refused("GAME-37"):
        limits(frc, "RC1", minimum_stake=D("1"), bet_maximums={"white_black": D("6")})
    with refused("GAME-36"):
        limits(frc, "RC1", seats=13, minimum_stake=D("1"))
    session = limits(
        frc, "RC1", minimum_stake=D("1"), bet_maximums={"orange": D("100"), "white_black": D("5")}
    ).table_session
    # Opened (the wheel's own opening checks are the equipment's, WHEEL-08).
    session.status = TableSession.Status.OPEN
    save_audited(session, actor=frc.director)
    with refused("GAME-38"):
        limits(frc, session, minimum_stake=D("2"), display_updated=True)


def test_game_38_roue_de_la_chance_limits_hold_for_the_days_next_table_parties(frc):
    """The limits fixed at the day's opening hold until the next day's séance: a second table-partie of
    the same wheel that day takes them as they are; the next day's séance may fix others."""
    bets = {"orange": D("100"), "white_black": D("5")}
    first = limits(frc, "RC1", minimum_stake=D("1"), bet_maximums=bets).table_session
    first.status, first.opened_at = TableSession.Status.OPEN, timezone.now()
    save_audited(first, actor=frc.director)
    first.status, first.closed_at = TableSession.Status.CLOSED, timezone.now()
    save_audited(first, actor=frc.director)
    frc.seance = seance_open(establishment=frc.est, date=DAY, period="nuit", actor=frc.director)  # the same day
    second = frc.session("RC1")
    with refused("GAME-38"):
        limits(frc, second, minimum_stake=D("2"), bet_maximums=bets)
    with refused("GAME-38"):
        limits(frc, second, minimum_stake=D("1"), bet_maximums={"orange": D("50"), "white_black": D("5")})
    assert not TableLimits.objects.filter(table_session=second).exists()
    assert limits(frc, second, minimum_stake=D("1"), bet_maximums=bets)
    _next_seance(frc, DAY + datetime.timedelta(days=1))
    assert limits(frc, "RC1", minimum_stake=D("3"), bet_maximums=bets)


def test_game_41_baccara_minimum_never_below_one_euro(frc):
    with refused("GAME-41"):
        limits(frc, "CF1", minimum_stake=D("0.50"))
    limits(frc, "CF1", minimum_stake=D("1"))


def test_game_25_auth_05_boule_agreement_reference_and_no_aggregate_maximum(mcc):
    with refused("GAME-25"):
        limits(mcc, "BO1", minimum_stake=D("2"), maximum_stake=D("300"))
    with refused("GAME-25"):
        limits(
            mcc,
            "BO1",
            minimum_stake=D("2"),
            maximum_stake=D("300"),
            agreement_reference="Lettre 2026-14",
            bet_maximums={"aggregate": D("2000")},
        )
    record = limits(mcc, "BO1", minimum_stake=D("2"), maximum_stake=D("300"), agreement_reference="Lettre 2026-14")
    assert record.agreement_reference == "Lettre 2026-14"


def test_limits_set_by_whom_the_text_names(frc, mcc):
    with refused("GAME-35"):  # FR: the directeur responsable, not a comité member
        table_limits_set(session=frc.session("TC1"), actor=frc["comite"], minimum_stake=D("5"), maximum_stake=D("50"))
    with refused("GAME-25"):  # MC: the direction des jeux, not an inspecteur
        table_limits_set(session=mcc.session("BJ1"), actor=mcc["inspecteur"], minimum_stake=D("5"))
    assert table_limits_set(session=mcc.session("BJ1"), actor=mcc["sous_directeur"], minimum_stake=D("5"))


def test_limits_bad_input(frc):
    with pytest.raises(ValidationError):
        limits(frc, "CF1", minimum_stake=D("10"), maximum_stake=D("5"))
    with pytest.raises(ValidationError):
        limits(frc, "BJ1", minimum_stake=D("10"), bet_maximums={"numbers": D("5")})
    session = frc.session("CF1")
    frc.seance.status = Seance.Status.CLOSED
    save_audited(frc.seance, actor=frc.director)
    with pytest.raises(ValidationError):  # the partie is over
        limits(frc, session, minimum_stake=D("10"))


def test_game_08_lucky_ladies_pay_table_for_the_whole_partie_by_the_directeur_responsable(frc):
    with refused("GAME-08"):  # side-bet limits without the pay table chosen
        limits(
            frc, "BJ1", minimum_stake=D("10"), bet_maximums={"lucky_ladies_min": D("5"), "lucky_ladies_max": D("50")}
        )
    with pytest.raises(ValidationError):
        limits(frc, "BJ1", minimum_stake=D("10"), pay_table="C")
    with refused("GAME-08"):
        table_limits_set(session=frc.session("BJ1"), actor=frc["comite"], minimum_stake=D("10"), pay_table="A")
    record = limits(
        frc,
        "BJ1",
        minimum_stake=D("10"),
        maximum_stake=D("1000"),
        pay_table="A",
        bet_maximums={"lucky_ladies_min": D("5"), "lucky_ladies_max": D("50")},
    )
    session = record.table_session
    session.status = TableSession.Status.OPEN  # (the sabot's opening checks are the equipment's)
    save_audited(session, actor=frc.director)
    with refused("GAME-08"):
        limits(frc, session, minimum_stake=D("10"), maximum_stake=D("2000"), pay_table="B")
    assert limits(frc, session, minimum_stake=D("10"), maximum_stake=D("2000"), pay_table="A").during_play
    payloads = [e.payload for e in current_register(frc.est, "parties_de_table").entries.filter(kind="record")]
    assert [p["event"] for p in payloads[:2]] == ["Préparation de la partie", "Limites à l'ouverture"]
    assert "table de paiement A" in payloads[1]["detail"]


def test_game_26_chemin_de_fer_begins_only_with_four_seated_players(mcc):
    session = mcc.session("CF1")
    for position, person in (("inspecteur", "inspecteur"), ("croupier", "croupier1"), ("changeur", "changeur")):
        staff_assign(session=session, position=position, person=mcc[person], actor=mcc.director)
    limits(mcc, session, minimum_stake=D("100"), players=3)
    with refused("GAME-26"):
        table_session_open(session=session, actor=mcc.director)
    with pytest.raises(ValidationError):
        limits(mcc, session, seats=10, minimum_stake=D("100"), players=11)
    limits(mcc, session, minimum_stake=D("100"), players=4)
    assert table_session_open(session=session, actor=mcc.director).status == TableSession.Status.OPEN


def test_game_28_auth_05_garage_threshold_only_with_the_notification_to_the_authority(mcc):
    with refused("GAME-28"):
        limits(mcc, "CF1", minimum_stake=D("100"), bet_maximums={"banco_max": D("50000"), "garage_from": D("20000")})
    record = limits(
        mcc,
        "CF1",
        minimum_stake=D("100"),
        agreement_reference="Courrier 2026-031",
        bet_maximums={"banco_max": D("50000"), "garage_from": D("20000")},
    )
    assert record.bet_maximums == {"banco_max": "50000", "garage_from": "20000"}
    assert limits(mcc, "CF1", minimum_stake=D("100"), bet_maximums={"banco_max": D("50000")})


def test_game_41_the_casino_fixes_the_bancos_of_chemin_de_fer(frc):
    record = limits(frc, "CF1", minimum_stake=D("20"), bet_maximums={"banco_min": D("200"), "banco_max": D("5000")})
    assert record.bet_maximums == {"banco_min": "200", "banco_max": "5000"}


def _next_seance(frc, day):
    frc.seance = seance_open(establishment=frc.est, date=day, period="soiree", actor=frc.director)


def test_auth_01_minimum_stake_change_refused_without_an_implemented_declaration(frc):
    open_register(frc.est, "declarations_prealables")
    open_register(frc.est, "informations_autorites")
    limits(frc, "BJ1", minimum_stake=D("10"))
    _next_seance(frc, DAY + datetime.timedelta(days=1))
    assert limits(frc, "BJ1", minimum_stake=D("10"))  # the same minimum: no change to declare
    _next_seance(frc, DAY + datetime.timedelta(days=7))
    with refused("AUTH-01"):
        limits(frc, "BJ1", minimum_stake=D("15"))
    assert TableLimits.objects.filter(minimum_stake=D("15")).count() == 0
    sent = DAY - datetime.timedelta(days=10)
    declare = partial(
        declaration_record,
        establishment=frc.est,
        actor=frc.director,
        details="BJ1 : 15 €",
        sent_on=sent,
        recipients=Declaration.Recipient.values,
        proof="LRAR 1",
    )
    declare(operation="3", implementation_date=DAY + datetime.timedelta(days=6))  # another operation
    declare(operation="6", implementation_date=DAY + datetime.timedelta(days=8))  # not reached yet
    with refused("AUTH-01"):
        limits(frc, "BJ1", minimum_stake=D("15"))
    _next_seance(frc, DAY + datetime.timedelta(days=8))
    assert limits(frc, "BJ1", minimum_stake=D("15")).minimum_stake == D("15")
    _next_seance(frc, DAY + datetime.timedelta(days=9))
    with refused("AUTH-01"):  # the declaration was used up by the change it announced
        limits(frc, "BJ1", minimum_stake=D("20"))


def test_auth_01_opening_hours_changed_only_once_declared(frc):
    open_register(frc.est, "declarations_prealables")
    open_register(frc.est, "informations_autorites")

    def hours(closing):
        frc.est.options = {**frc.est.options, "SET-25": {"closing": {"soiree": [closing, 1]}}}
        frc.est.save()

    hours("04:00")  # before the house first plays: the hours of its authorisation
    table_session_open(session=frc.session("TC1"), actor=frc.director)
    _next_seance(frc, DAY + datetime.timedelta(days=1))
    table_session_open(session=frc.session("TC1"), actor=frc.director)  # the same hours: nothing to declare
    hours("05:00")
    _next_seance(frc, DAY + datetime.timedelta(days=2))
    session = frc.session("TC1")
    assert [(r.code, "9 bis" in r.article) for r in opening_refusals(session)] == [("AUTH-01", True)]
    with refused("AUTH-01"):
        table_session_open(session=session, actor=frc.director)
    declare = partial(
        declaration_record,
        establishment=frc.est,
        actor=frc.director,
        details="Fermeture de la séance du soir à 5 h",
        sent_on=DAY - datetime.timedelta(days=20),
        recipients=Declaration.Recipient.values,
        proof="LRAR 2",
    )
    declare(operation="3", implementation_date=DAY + datetime.timedelta(days=2))  # another operation
    declare(operation="6", implementation_date=DAY + datetime.timedelta(days=3))  # not reached yet
    with refused("AUTH-01"):
        table_session_open(session=session, actor=frc.director)
    declare(operation="6", implementation_date=DAY + datetime.timedelta(days=2))
    assert table_session_open(session=session, actor=frc.director).status == TableSession.Status.OPEN


def test_auth_01_roue_minimum_raised_at_opening_needs_no_declaration_mc_needs_none(frc, mcc):
    limits(frc, "RC1", minimum_stake=D("2"))
    _next_seance(frc, DAY + datetime.timedelta(days=1))
    assert limits(frc, "RC1", minimum_stake=D("5"))  # GAME-38: the directeur responsable raises it
    limits(mcc, "BJ1", minimum_stake=D("10"))
    mcc.seance = seance_open(
        establishment=mcc.est, date=DAY + datetime.timedelta(days=1), period="soiree", actor=mcc.director
    )
    assert limits(mcc, "BJ1", minimum_stake=D("25"))


def test_game_30_banque_a_tout_va_two_seances_a_day(mcc):
    table = GamingTableFactory(
        establishment=mcc.est, room=mcc.tables["BJ1"].room, number="BTV1", game="banque_tout_va", seats=10
    )
    for period in ("apres_midi", "soiree", "nuit"):
        seance = (
            mcc.seance
            if period == "soiree"
            else seance_open(establishment=mcc.est, date=DAY, period=period, actor=mcc.director)
        )
        session = table_session_prepare(seance=seance, table=table, actor=mcc.director)
        if period == "nuit":
            with refused("GAME-30"):
                table_session_open(session=session, actor=mcc.director)
            session.refresh_from_db()
            assert session.opened_at is None
        else:
            table_session_open(session=session, actor=mcc.director)
