"""Staffing log per table-partie: the compositions, reliefs and caps of Section 7 GAMES."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from ledgers.core.errors import RuleViolation
from ledgers.core.models import TableSession
from ledgers.core.services import table_session_open
from ledgers.registers.selectors import current_register
from ledgers.tables import selectors
from ledgers.tables.hooks import staffed_as_the_text_says
from ledgers.tables.services import staff_assign, staff_release, staff_relieve
from tests.factories import make_user


def assign(casino, number_or_session, position, person):
    session = casino.session(number_or_session) if isinstance(number_or_session, str) else number_or_session
    return staff_assign(
        session=session,
        position=position,
        person=casino[person],
        actor=casino["inspecteur"] if "inspecteur" in casino.users else casino.director,
    )


def refused(code):
    return pytest.raises(RuleViolation, match=code)


def test_game_02_blackjack_one_croupier_under_a_chef_de_table_who_may_supervise_several(mcc):
    bj1 = mcc.session("BJ1")
    assign(mcc, bj1, "croupier", "croupier1")
    with refused("GAME-02"):
        assign(mcc, bj1, "croupier", "croupier2")
    with refused("GAME-02"):  # the composition is incomplete: no chef de table in charge
        table_session_open(session=bj1, actor=mcc.director)
    assign(mcc, bj1, "chef_table", "chef1")
    assign(mcc, "BJ2", "chef_table", "chef1")  # "may supervise several tables": no cap
    assert table_session_open(session=bj1, actor=mcc.director).status == TableSession.Status.OPEN


def test_game_02_entries_in_the_table_partie_log(mcc):
    bj1 = mcc.session("BJ1")
    duty = assign(mcc, bj1, "croupier", "croupier1")
    staff_relieve(assignment=duty, person=mcc["croupier2"], actor=mcc["inspecteur"])
    register = current_register(mcc.est, "parties_de_table")
    payloads = [e.payload for e in register.entries.filter(kind="record").order_by("seq")]
    assert [p["event"] for p in payloads] == ["Préparation de la partie", "Prise de poste", "Relève"]
    assert payloads[1]["table"] == "BJ1" and payloads[1]["detail"] == "Croupier : Croupier1 Test"
    assert payloads[2]["detail"] == "Croupier : Croupier2 Test ← Croupier1 Test"
    duty.refresh_from_db()
    assert duty.ended_at is not None and duty.relieved_by.person == mcc["croupier2"]


def test_game_13_punto_banco_big_table_and_seven_or_nine_seat_table(mcc):
    big = mcc.session("PB1")
    for position, person in (
        ("chef_table", "chef1"),
        ("inspecteur", "inspecteur"),
        ("tailleur", "croupier1"),
        ("payeur", "croupier2"),
        ("payeur", "croupier3"),
    ):
        assign(mcc, big, position, person)
    with refused("GAME-13"):
        assign(mcc, big, "payeur", "croupier4")
    assert table_session_open(session=big, actor=mcc.director).status == TableSession.Status.OPEN
    small = mcc.session("PB9")
    with refused("GAME-13"):  # 9 seats: one croupier, tailleur and payeur, and a chef de table
        assign(mcc, small, "tailleur", "croupier4")
    assign(mcc, small, "croupier", "croupier4")
    with refused("GAME-13"):
        table_session_open(session=small, actor=mcc.director)


def test_game_17_craps_a_chef_de_table_and_three_croupiers(mcc):
    craps = mcc.session("CR1")
    assign(mcc, craps, "chef_table", "chef1")
    for n in (1, 2):
        assign(mcc, craps, "croupier", f"croupier{n}")
    with refused("GAME-17"):  # the opening check (the dice have their own, DICE-10)
        staffed_as_the_text_says(craps)
    assign(mcc, craps, "croupier", "croupier3")
    staffed_as_the_text_says(craps)


def test_game_27_chemin_de_fer_an_inspecteur_a_croupier_and_changeurs(mcc):
    cf = mcc.session("CF1")
    assign(mcc, cf, "croupier", "croupier1")
    with refused("GAME-27"):
        assign(mcc, cf, "chef_table", "chef1")
    assign(mcc, cf, "inspecteur", "inspecteur")
    assign(mcc, cf, "changeur", "changeur")
    table_session_open(session=cf, actor=mcc.director)


def test_game_10_bj_one_deck_relief_not_at_the_end_of_a_deck_is_flagged(mcc):
    od = mcc.session("OD1")
    dealer = assign(mcc, od, "croupier", "croupier1")
    assign(mcc, od, "chef_table", "chef1")
    table_session_open(session=od, actor=mcc.director)
    successor = staff_relieve(assignment=dealer, person=mcc["croupier2"], actor=mcc["inspecteur"], at_break=False)
    assert [f["code"] for f in successor.flags] == ["GAME-10"]
    assert [row[0] for row in selectors.exceptions(mcc.est)] == ["GAME-10"]
    clean = staff_relieve(assignment=successor, person=mcc["croupier3"], actor=mcc["inspecteur"])
    assert clean.flags == []


def test_game_32_ultimate_holdem_croupier_not_relieved_during_a_hand(frc):
    ut = frc.session("UT1")
    dealer = assign(frc, ut, "croupier", "croupier1")
    with refused("GAME-32"):
        staff_relieve(assignment=dealer, person=frc["croupier2"], actor=frc.director, at_break=False)
    dealer.refresh_from_db()
    assert dealer.ended_at is None  # a refused relief changes nothing
    staff_relieve(assignment=dealer, person=frc["croupier2"], actor=frc.director, at_break=True)


def test_set_10_a_chef_de_table_controls_at_most_two_ultimate_holdem_tables(frc):
    assign(frc, "UT1", "chef_table", "chef1")
    assign(frc, "UT2", "chef_table", "chef1")
    with refused("GAME-32"):
        assign(frc, "UT3", "chef_table", "chef1")
    assign(frc, "UT3", "chef_table", "chef2")


def test_game_34_three_card_poker_chef_de_table_and_croupier_tailleur(frc):
    tc = frc.session("TC1")
    assign(frc, tc, "chef_table", "chef1")
    dealer = assign(frc, tc, "tailleur", "croupier1")
    table_session_open(session=tc, actor=frc.director)
    with refused("GAME-34"):
        staff_relieve(assignment=dealer, person=frc["croupier2"], actor=frc.director, at_break=False)


def test_game_15_fr_punto_banco_staff_and_footmen_at_most_one_per_two_tables(frc):
    pb = frc.session("PB1")
    for position, person in (
        ("chef_table", "chef1"),
        ("tailleur", "croupier1"),
        ("payeur", "croupier2"),
        ("payeur", "croupier3"),
        ("chef_partie", "chef_partie"),
    ):
        assign(frc, pb, position, person)
    staffed_as_the_text_says(pb)  # (the table opens once its sabot is allocated, SHOE-12)
    frc.session("PB3")
    first = assign(frc, pb, "valet_de_pied", "changeur")
    assert first.flags == []  # two tables: one footman
    second = assign(frc, "PB3", "valet_de_pied", "croupier4")
    assert [f["code"] for f in second.flags] == ["GAME-15"]


def test_game_15_fr_punto_banco_seven_seat_table_one_croupier(frc):
    small = frc.session("PB2")
    with refused("GAME-15"):
        assign(frc, small, "payeur", "croupier1")
    for position, person in (("croupier", "croupier1"), ("chef_table", "chef1"), ("chef_partie", "chef_partie")):
        assign(frc, small, position, person)
    staffed_as_the_text_says(small)


def test_game_42_baccara_exactly_one_croupier_and_one_changeur(frc):
    cf = frc.session("CF1")
    assign(frc, cf, "croupier", "croupier1")
    with refused("GAME-42"):
        assign(frc, cf, "croupier", "croupier2")
    with refused("GAME-42"):
        staffed_as_the_text_says(cf)
    assign(frc, cf, "changeur", "changeur")
    staffed_as_the_text_says(cf)


def test_game_18_rampo_a_chef_de_table_and_a_croupier(frc):
    rp = frc.session("RP1")
    assign(frc, rp, "chef_table", "chef1")
    with refused("GAME-18"):
        assign(frc, rp, "inspecteur", "chef2")


def test_a_table_opened_without_staff_logged_is_reported(frc):
    table_session_open(session=frc.session("TC1"), actor=frc.director)
    staff_assign(session=frc.session("TC1"), position="chef_table", person=frc["chef1"], actor=frc.director)
    ut = table_session_open(session=frc.session("UT1"), actor=frc.director)
    assert [(code, session.pk) for code, _, session in selectors.exceptions(frc.est)] == [("GAME-32", ut.pk)]


def test_staff_input_errors(frc, mc, user_in):
    cf = frc.session("CF1")
    assign(frc, cf, "croupier", "croupier1")
    with pytest.raises(ValidationError):  # already on duty at this table
        assign(frc, cf, "changeur", "croupier1")
    outsider = user_in(mc, "croupier")
    with pytest.raises(ValidationError):
        staff_assign(session=cf, position="changeur", person=outsider, actor=frc.director)
    duty = cf.staff.get()
    staff_release(assignment=duty, actor=frc.director)
    with pytest.raises(ValidationError):
        staff_relieve(assignment=duty, person=frc["croupier2"], actor=frc.director)
    with pytest.raises(ValidationError):
        staff_relieve(
            assignment=cf.staff.get(),
            person=frc["croupier2"],
            actor=frc.director,
            at=duty.started_at - datetime.timedelta(minutes=1),
        )


def test_a_croupier_may_not_log_the_staff(frc):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        staff_assign(session=frc.session("CF1"), position="croupier", person=frc["croupier1"], actor=frc["croupier"])


def test_game_10_flags_on_the_dashboard_of_the_inspecteur_and_the_scj(client, mcc, user_in):
    od = mcc.session("OD1")
    dealer = assign(mcc, od, "croupier", "croupier1")
    staff_relieve(assignment=dealer, person=mcc["croupier2"], actor=mcc["inspecteur"], at_break=False)
    for user in (mcc["inspecteur"], user_in(mcc.est, "scj")):
        client.force_login(user)
        page = client.get("/").content.decode()
        assert "Parties de table : signalements" in page and "GAME-10" in page


def test_flags_of_one_requirement_are_one_line_of_the_home(client, mcc):
    od = mcc.session("OD1")
    dealer = assign(mcc, od, "croupier", "croupier1")
    relief = staff_relieve(assignment=dealer, person=mcc["croupier2"], actor=mcc["inspecteur"], at_break=False)
    staff_relieve(assignment=relief, person=mcc["croupier3"], actor=mcc["inspecteur"], at_break=False)
    client.force_login(mcc["inspecteur"])
    page = client.get("/").content.decode()
    panel = page.split("Parties de table : signalements", 1)[1]
    assert panel.count('<span class="code">GAME-10</span>') == 1
    assert "2 signalements" in panel
    assert "Croupier2 Test" in panel and "Croupier3 Test" in panel  # each flag still says whom it concerns


@pytest.mark.parametrize(
    ("code", "game", "seats", "complete"),
    [
        ("GAME-19", "roulette", 8, {"chef_table": 1, "croupier": 2, "bout_de_table": 1}),
        ("GAME-21", "roulette_americaine", 8, {"croupier": 2, "chef_table": 1}),  # or one with a sorting machine
        ("GAME-22", "grande_roue", 8, {"croupier": 1}),
        ("GAME-23", "trente_quarante", 12, {"chef_table": 1, "controleur": 1, "tailleur": 1}),
        ("GAME-23", "trente_quarante", 7, {"chef_table": 1, "croupier": 1}),
        ("GAME-31", "banque_tout_va", 10, {"inspecteur": 1, "croupier": 1, "changeur": 1, "cartier": 1}),
    ],
)
def test_game_19_game_21_game_22_mc_compositions_required_at_opening(mc, user_in, code, game, seats, complete):
    from ledgers.core.services import seance_open, table_session_prepare
    from ledgers.tables.selectors import composition_gaps
    from tests.factories import GamingTableFactory, open_seance_registers

    open_seance_registers(mc)
    director = user_in(mc, "directeur_jeux")
    seance = seance_open(establishment=mc, date=datetime.date(2026, 11, 6), period="soiree", actor=director)
    session = table_session_prepare(
        seance=seance, table=GamingTableFactory(establishment=mc, game=game, seats=seats), actor=director
    )
    people = iter(user_in(mc, "croupier") for _ in range(6))
    positions = [p for p, n in complete.items() for _ in range(n)]
    for position in positions[:-1]:
        staff_assign(session=session, position=position, person=next(people), actor=director)
    if positions[:-1]:
        with refused(code):
            staffed_as_the_text_says(session)
    staff_assign(session=session, position=positions[-1], person=next(people), actor=director)
    staffed_as_the_text_says(session)
    assert composition_gaps(session) == []
    with refused(code):  # nobody beyond the composition
        staff_assign(session=session, position=positions[-1], person=next(people), actor=director)


def test_game_36_roue_de_la_chance_one_croupier(frc):
    rc = frc.session("RC1")
    assign(frc, rc, "croupier", "croupier1")
    with refused("GAME-36"):
        assign(frc, rc, "chef_table", "chef1")
    staffed_as_the_text_says(rc)


def test_game_20_who_was_the_inspecteur_on_duty_at_a_given_time(mcc):
    session = mcc.session("CF1")
    start = timezone.now() - datetime.timedelta(hours=2)
    duty = staff_assign(session=session, position="inspecteur", person=mcc["inspecteur"], actor=mcc.director, at=start)
    relief = make_user(mcc.est, "inspecteur", username="inspecteur-b")
    staff_relieve(assignment=duty, person=relief, actor=mcc.director, at=start + datetime.timedelta(hours=1))
    at = start + datetime.timedelta(minutes=30)
    assert [d.person for d in selectors.on_duty_at(session, "inspecteur", at)] == [mcc["inspecteur"]]
    at = start + datetime.timedelta(minutes=90)
    assert [d.person for d in selectors.on_duty_at(session, "inspecteur", at)] == [relief]
    assert not selectors.on_duty_at(session, "inspecteur", start - datetime.timedelta(minutes=1)).exists()


def test_the_home_reads_only_the_latest_table_flags(frc):
    first = table_session_open(session=frc.session("TC1"), actor=frc.director)
    last = table_session_open(session=frc.session("UT1"), actor=frc.director)
    assert [session.pk for _, _, session in selectors.exceptions(frc.est)] == [last.pk, first.pk]
    assert [session.pk for _, _, session in selectors.exceptions(frc.est, latest=2)] == [first.pk, last.pk]
    assert [session.pk for _, _, session in selectors.exceptions(frc.est, latest=1)] == [last.pk]
