"""REG-23, SET-32 (003 art. 15 (35); FR-2007 art. 56-3-1, 57-2, 68-11), COUNT-20, COUNT-45, SLOT-29:
the display checklist of each French table and slot machine, and the refusals while an item is
missing: a table opening, a bad beat jackpot starting, a machine going in service."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.authority import selectors, services
from ledgers.authority.models import DisplayItem, RulesDisplay
from ledgers.cash.services import bad_beat_activate
from ledgers.core.errors import RuleViolation
from ledgers.core.models import TableSession
from ledgers.core.services import seance_open, table_session_open, table_session_prepare
from ledgers.slots import services as slot_services
from ledgers.tables.hooks import displays_posted
from tests.factories import GamingTableFactory, open_register, open_seance_registers, table_cagnotte

TODAY = timezone.localdate()


@pytest.fixture
def register(fro):
    return open_register(fro.est, "affichages_reglementaires")


@pytest.fixture
def seance(fro):
    open_seance_registers(fro.est)
    return seance_open(establishment=fro.est, date=TODAY, period="soiree", actor=fro.directeur_responsable)


def post(fro, item, **subject):
    return services.display_post(establishment=fro.est, actor=fro.comite, item=item, posted_on=TODAY, **subject)


def opening(fro, seance, table):
    session = table_session_prepare(seance=seance, table=table, actor=fro.directeur_responsable)
    return table_session_open(session=session, actor=fro.directeur_responsable)


@pytest.mark.parametrize(
    ("game", "item", "code", "article"),
    [
        ("ultimate_holdem", DisplayItem.ART_55_20, "REG-23", "art. 35 C 7° ter c"),
        ("three_card_poker", DisplayItem.ART_55_21, "REG-23", "art. 35 C 7° ter d"),
        ("texas_holdem", DisplayItem.RAKE_RATE, "COUNT-20", "art. 57-2"),
    ],
)
def test_reg_23_table_opens_only_with_its_display_posted(fro, register, seance, game, item, code, article):
    table = GamingTableFactory(establishment=fro.est, number="T1", game=game)
    if game == "texas_holdem":
        table_cagnotte(table)  # its own cagnotte, so that only the display is missing (COUNT-17)
    with pytest.raises(RuleViolation) as refused:
        opening(fro, seance, table)
    assert refused.value.code == code and article in refused.value.article
    assert TableSession.objects.get(table=table).status == TableSession.Status.PREPARING  # nothing changed
    line = post(fro, item, table=table)
    assert opening(fro, seance, table).status == TableSession.Status.OPEN
    entry = register.entries.get(seq=line.entry_seq)
    assert entry.payload["subject"] == "Table T1" and entry.payload["posted_on"] == TODAY.isoformat()


@pytest.mark.parametrize(
    ("game", "item", "article"),
    [
        ("roue_chance", DisplayItem.ROUE_RULES, "art. 35 A"),
        ("rampo", DisplayItem.ART_55_22, "art. 35 C 7° ter e"),
    ],
)
def test_reg_23_opening_check_of_wheel_and_dice_games(fro, register, seance, game, item, article):
    """The roue and rampo tables also wait for their wheel and dice: the display check alone."""
    table = GamingTableFactory(establishment=fro.est, number="T1", game=game)
    session = table_session_prepare(seance=seance, table=table, actor=fro.directeur_responsable)
    with pytest.raises(RuleViolation) as refused:
        displays_posted(session)
    assert refused.value.code == "REG-23" and article in refused.value.article
    post(fro, item, table=table)
    displays_posted(session)


def test_count_20_rake_rate_before_a_poker_table_opens(fro, register, seance):
    table = GamingTableFactory(establishment=fro.est, number="TH1", game="texas_holdem")
    table_cagnotte(table)
    with pytest.raises(RuleViolation) as refused:
        opening(fro, seance, table)
    assert refused.value.code == "COUNT-20" and "57-2" in refused.value.article
    post(fro, DisplayItem.RAKE_RATE, table=table)
    assert opening(fro, seance, table).opened_at is not None


def test_reg_23_games_without_display_open_and_monaco_is_not_concerned(fro, mco, seance):
    stud = GamingTableFactory(establishment=fro.est, number="SP1", game="stud_poker")
    assert opening(fro, seance, stud).status == TableSession.Status.OPEN
    open_seance_registers(mco.est)
    mc_seance = seance_open(establishment=mco.est, date=TODAY, period="soiree", actor=mco.directeur_jeux)
    mc_table = GamingTableFactory(establishment=mco.est, number="UT1", game="ultimate_holdem")
    session = table_session_prepare(seance=mc_seance, table=mc_table, actor=mco.directeur_jeux)
    assert table_session_open(session=session, actor=mco.directeur_jeux).status == TableSession.Status.OPEN


def test_count_45_bad_beat_jackpot_starts_only_with_its_increment_displayed(fro, register, seance):
    open_register(fro.est, "registre_bbj")
    table = GamingTableFactory(establishment=fro.est, number="TH1", game="texas_holdem")
    table_cagnotte(table)
    post(fro, DisplayItem.RAKE_RATE, table=table)
    with pytest.raises(RuleViolation) as refused:
        bad_beat_activate(
            table=table, machine_approval="AGR-1", cagnotte_number="BBJ-1", actor=fro.directeur_responsable
        )
    assert refused.value.code == "REG-23" and "56-3-1" in refused.value.article
    post(fro, DisplayItem.BBJ_INCREMENT, table=table)
    bad_beat_activate(table=table, machine_approval="AGR-1", cagnotte_number="BBJ-1", actor=fro.directeur_responsable)
    table.refresh_from_db()
    # From then on the BBJ display is one of the table's own: the checklist shows it.
    row = next(r for r in selectors.display_checklists(fro.est) if r["subject"] == table)
    assert [required.item for required, _line in row["lines"]] == [DisplayItem.RAKE_RATE, DisplayItem.BBJ_INCREMENT]
    assert opening(fro, seance, table).status == TableSession.Status.OPEN


def test_reg_23_who_checks_what_applies_and_when(fro, register):
    table = GamingTableFactory(establishment=fro.est, number="RC1", game="roue_chance")
    with pytest.raises(RuleViolation) as refused:
        services.display_post(
            establishment=fro.est, actor=fro.inspecteur, item=DisplayItem.ROUE_RULES, posted_on=TODAY, table=table
        )
    assert refused.value.code == "REG-23"
    with pytest.raises(ValidationError):  # not a roue de la chance display
        post(fro, DisplayItem.ART_55_22, table=table)
    with pytest.raises(ValidationError):  # a BBJ only at a cercle table
        post(fro, DisplayItem.BBJ_INCREMENT, table=table)
    with pytest.raises(ValidationError):
        services.display_post(
            establishment=fro.est,
            actor=fro.comite,
            item=DisplayItem.ROUE_RULES,
            posted_on=TODAY + datetime.timedelta(days=1),
            table=table,
        )
    with pytest.raises(ValidationError):  # a table or a machine, not neither
        services.display_post(establishment=fro.est, actor=fro.comite, item=DisplayItem.ROUE_RULES, posted_on=TODAY)
    assert not RulesDisplay.objects.exists() and register.entries.filter(kind="record").count() == 0


def test_slot_29_machine_in_service_only_with_the_devices_and_displays(fr_room):
    org = fr_room
    open_register(org.est, "affichages_reglementaires")
    machine = slot_services.machine_register(establishment=org.est, data=org.machine_input(), actor=org.keeper)
    org.lock_keys(machine)
    socle = org.socle()
    with pytest.raises(RuleViolation) as refused:
        slot_services.machine_move(
            machine=machine, to_place="floor", to_socle=socle, actor=org.keeper, reason="commissioning"
        )
    assert refused.value.code == "SLOT-29" and refused.value.article == "Arrêté du 14 mai 2007 art. 68-11"
    for item in (DisplayItem.SLOT_FRONT_LIGHT, DisplayItem.SLOT_LOCK, DisplayItem.SLOT_TOP_LIGHT):
        services.display_post(establishment=org.est, actor=org["comite"], item=item, posted_on=TODAY, machine=machine)
    with pytest.raises(RuleViolation) as refused:  # the devices are there, the rules are not displayed
        slot_services.machine_move(
            machine=machine, to_place="floor", to_socle=socle, actor=org.keeper, reason="commissioning"
        )
    assert refused.value.code == "REG-23" and "Règles du jeu énoncées en français" in refused.value.message
    for item in (DisplayItem.SLOT_RULES, DisplayItem.SLOT_STAKE, DisplayItem.SLOT_PAYOUTS):
        services.display_post(establishment=org.est, actor=org["comite"], item=item, posted_on=TODAY, machine=machine)
    slot_services.machine_move(
        machine=machine, to_place="floor", to_socle=socle, actor=org.keeper, reason="commissioning"
    )
    machine.refresh_from_db()
    assert machine.status == machine.Status.IN_SERVICE


def test_reg_23_page_and_api(client, fro, register):
    table = GamingTableFactory(establishment=fro.est, number="UT1", game="ultimate_holdem")
    client.force_login(fro.comite)
    page = client.get(reverse("authority:displays"))
    assert page.status_code == 200 and "UT1" in page.content.decode()
    response = client.post(
        reverse("authority:displays"),
        {"table": table.pk, "item": DisplayItem.ART_55_20, "posted_on": TODAY.isoformat()},
    )
    assert response.status_code == 302
    api = APIClient()
    api.force_authenticate(fro.comite)
    created = api.post(
        "/api/v1/authority/displays/",
        {"table": "UT1", "item": DisplayItem.ART_55_20, "posted_on": TODAY.isoformat()},
        format="json",
    )
    assert created.status_code == 201 and created.json()["table"] == "UT1"
    wrong = api.post(
        "/api/v1/authority/displays/",
        {"table": "UT1", "item": DisplayItem.RAKE_RATE, "posted_on": TODAY.isoformat()},
        format="json",
    )
    assert wrong.status_code == 400
    api.force_authenticate(fro.inspecteur)
    refused = api.post(
        "/api/v1/authority/displays/",
        {"table": "UT1", "item": DisplayItem.ART_55_20, "posted_on": TODAY.isoformat()},
        format="json",
    )
    assert refused.status_code == 409 and refused.json()["code"] == "REG-23"
    assert RulesDisplay.objects.filter(table=table).count() == 2
    assert api.get("/api/v1/authority/displays/").json()["results"][0]["item"] == DisplayItem.ART_55_20
