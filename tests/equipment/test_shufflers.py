"""Shufflers and shuffler-dealers: approval, commissioning checklist, socles, game eligibility,
per-séance checklists, malfunctions (SHUF-01 to SHUF-15, INC-07)."""

import pytest
from django.core.exceptions import ValidationError

from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.core.services import table_session_close, table_session_open
from ledgers.equipment import services
from ledgers.equipment.hooks import session_uses_shuffler, shuffler_deck_check
from ledgers.equipment.models import AssetStatus, MachineType
from ledgers.incidents.models import Incident
from ledgers.registers.selectors import current_register
from tests.factories import table_cagnotte

from .conftest import incident_cleared, mounted_shuffler, receive_shoes, session, shuffler


def log(est):
    return [e.payload for e in current_register(est, "materiel_jeu").entries.filter(kind="record").order_by("seq")]


def test_shuf_01_commissioning_without_approval_refused(mco):
    machine = shuffler(mco, approved=False, commission=False)
    with pytest.raises(RuleViolation) as exc:
        services.shuffler_commission(
            shuffler=machine, actor=mco.director, card_access_protection=True, malfunction_signal=True
        )
    assert exc.value.code == "SHUF-01"
    machine.refresh_from_db()
    assert machine.status == AssetStatus.REGISTERED


def test_shuf_02_commissioning_without_card_access_protection_refused(mco):
    machine = shuffler(mco, commission=False)
    with pytest.raises(RuleViolation) as exc:
        services.shuffler_commission(
            shuffler=machine, actor=mco.users[Role.INSPECTEUR], card_access_protection=False, malfunction_signal=True
        )
    assert exc.value.code == "SHUF-02"


def test_shuf_03_commissioning_without_malfunction_signal_refused(mco):
    machine = shuffler(mco, commission=False)
    with pytest.raises(RuleViolation) as exc:
        services.shuffler_commission(
            shuffler=machine, actor=mco.director, card_access_protection=True, malfunction_signal=False
        )
    assert exc.value.code == "SHUF-03"
    services.shuffler_commission(
        shuffler=machine, actor=mco.director, card_access_protection=True, malfunction_signal=True
    )
    machine.refresh_from_db()
    assert machine.status == AssetStatus.IN_SERVICE
    assert log(mco.est)[-1]["event"] == "Mise en service"


def test_shuf_04_shuf_08_machine_type_drives_mc_eligibility(mco):
    batch = shuffler(mco, machine_type=MachineType.BATCH, number="M1")
    dealer = shuffler(mco, machine_type=MachineType.CONTINUOUS, number="M2")
    bj = services.socle_create(table=mco.tables["BJ1"], code="S1", actor=mco.director)
    with pytest.raises(RuleViolation) as exc:
        services.shuffler_mount(shuffler=batch, socle=bj, actor=mco.director)
    assert exc.value.code == "SHUF-08"
    services.shuffler_mount(shuffler=dealer, socle=bj, actor=mco.director)
    pb = services.socle_create(table=mco.tables["PB1"], code="S2", actor=mco.director)
    services.shuffler_mount(shuffler=batch, socle=pb, actor=mco.director)  # punto banco: either type
    registered = current_register(mco.est, "materiel_jeu").entries.filter(payload__event="Enregistrement")
    assert [e.payload["details"].split(" ")[:2] for e in registered.order_by("seq")] == [
        ["Mélangeur", "de"],
        ["Mélangeur", "distributeur"],
    ]  # the register keeps each machine's type


def test_shuf_05_use_only_on_the_socle_of_that_table(mco):
    machine = mounted_shuffler(mco, "PB1")
    bj = session(mco, "BJ1")
    with pytest.raises(RuleViolation) as exc:
        services.shuffler_use_start(session=bj, shuffler=machine, actor=mco.users[Role.CROUPIER])
    assert exc.value.code == "SHUF-05"
    use = services.shuffler_use_start(
        session=session(mco, "PB1", bj.seance), shuffler=machine, actor=mco.users[Role.CROUPIER]
    )
    assert use.table_session.table.number == "PB1"
    assert log(mco.est)[-1]["table"] == "PB1"


def test_shuf_07_pause_with_cover_recorded(mco):
    machine = mounted_shuffler(mco, "BJ1")
    bj = session(mco, "BJ1")
    use = services.shuffler_use_start(session=bj, shuffler=machine, actor=mco.users[Role.CROUPIER])
    table_session_open(session=bj, actor=mco.director)
    entry = services.shuffler_pause_record(use=use, actor=mco.users[Role.CHEF_TABLE])
    assert "cache posé" in entry.payload["details"]


def test_shuf_09_fr_game_outside_the_list_refused(fro):
    machine = shuffler(fro, number="M1")
    socle = services.socle_create(table=fro.tables["CF1"], code="S1", actor=fro.director)
    with pytest.raises(RuleViolation) as exc:
        services.shuffler_mount(shuffler=machine, socle=socle, actor=fro.director)
    assert exc.value.code == "SHUF-09"
    machine.refresh_from_db()
    assert machine.socle is None


def test_shuf_11_fr_shuffler_without_approval_refused(fro):
    machine = shuffler(fro, approved=False, commission=False)
    with pytest.raises(RuleViolation) as exc:
        services.shuffler_commission(
            shuffler=machine, actor=fro.director, card_access_protection=False, malfunction_signal=False
        )
    assert exc.value.code == "SHUF-11"
    # FR does not impose the MC checklist: an approved machine goes into service without it.
    approved = shuffler(fro, number="M2", commission=False)
    services.shuffler_commission(
        shuffler=approved, actor=fro.director, card_access_protection=False, malfunction_signal=False
    )


def test_shuf_11_fr_use_at_a_table_without_the_shuffler_refused(fro):
    machine = mounted_shuffler(fro, "TH1")
    with pytest.raises(RuleViolation) as exc:
        services.shuffler_use_start(session=session(fro, "UTH1"), shuffler=machine, actor=fro.users[Role.CROUPIER])
    assert exc.value.code == "SHUF-11"


RED = {"back": "rouge", "material": "plastique", "approval_reference": "CARTES-2020-3"}
BLUE = {"back": "bleu", "material": "plastique", "approval_reference": "CARTES-2020-3"}


def test_shuf_12_poker_with_shuffler_one_red_and_one_blue_approved_plastic_deck(fro):
    th = session(fro, "TH1")
    shuffler_deck_check(table_session=th, decks=[RED])  # no shuffler at this table: nothing to check
    mounted_shuffler(fro, "TH1")
    assert session_uses_shuffler(th)
    for decks in ([RED], [RED, RED], [RED, {**BLUE, "material": "carton"}], [RED, {**BLUE, "approval_reference": ""}]):
        with pytest.raises(RuleViolation) as exc:
            shuffler_deck_check(table_session=th, decks=decks)
        assert exc.value.code == "SHUF-12"
    shuffler_deck_check(table_session=th, decks=[BLUE, RED])


def test_shuf_10_ultimate_holdem_two_decks_of_different_colours(fro):
    uth = session(fro, "UTH1")
    mounted_shuffler(fro, "UTH1")
    with pytest.raises(RuleViolation) as exc:
        shuffler_deck_check(table_session=uth, decks=[RED, RED])
    assert exc.value.code == "SHUF-10"
    shuffler_deck_check(table_session=uth, decks=[RED, BLUE])


def test_shuf_13_end_of_seance_hood_opened_and_empty_before_close(fro):
    machine = mounted_shuffler(fro, "TH1")
    table_cagnotte(fro.tables["TH1"])
    th = session(fro, "TH1")
    croupier = fro.users[Role.CROUPIER]
    use = services.shuffler_use_start(session=th, shuffler=machine, actor=croupier)
    table_session_open(session=th, actor=fro.director)
    with pytest.raises(RuleViolation) as exc:
        table_session_close(session=th, actor=fro.director)
    assert exc.value.code == "SHUF-13"
    with pytest.raises(RuleViolation) as exc:
        services.shuffler_use_end(use=use, actor=croupier, hood_opened=False, empty=True)
    assert exc.value.code == "SHUF-13"
    # A card found in the machine: card-anomaly incident (INC-13), and the close stays refused.
    services.shuffler_use_end(use=use, actor=croupier, hood_opened=True, empty=False, observations="Un 7 de cœur")
    incident = Incident.objects.get(category="card_anomaly")
    assert incident.requirement == "INC-13" and incident.table_session == th
    with pytest.raises(RuleViolation) as exc:
        table_session_close(session=th, actor=fro.director)
    assert exc.value.code == "SHUF-13"
    services.shuffler_use_end(use=use, actor=croupier, hood_opened=True, empty=True)
    assert table_session_close(session=th, actor=fro.director).status == "closed"


def test_shuf_14_blackjack_opening_and_closing_checklists(fro):
    machine = mounted_shuffler(fro, "BJ1", embout=True)
    bj = session(fro, "BJ1")
    croupier = fro.users[Role.CROUPIER]
    with pytest.raises(RuleViolation) as exc:
        table_session_open(session=bj, actor=fro.director)  # shuffler fixed on the table, not started
    assert exc.value.code == "SHUF-14"
    for kwargs in (
        {"embout": False, "display": "black jack 6 jeux", "decks_counted": 6},
        {"embout": True, "display": "6 jeux", "decks_counted": 6},
        {"embout": True, "display": "black jack 6 jeux", "decks_counted": 5},
    ):
        with pytest.raises(RuleViolation) as exc:
            services.shuffler_use_start(session=bj, shuffler=machine, actor=croupier, **kwargs)
        assert exc.value.code == "SHUF-14"
    use = services.shuffler_use_start(
        session=bj, shuffler=machine, actor=croupier, embout=True, display="« Black Jack 6 jeux »", decks_counted=6
    )
    table_session_open(session=bj, actor=fro.director)  # the shuffler deals in place of a sabot
    with pytest.raises(RuleViolation) as exc:
        table_session_close(session=bj, actor=fro.director)
    assert exc.value.code == "SHUF-14"
    with pytest.raises(RuleViolation) as exc:
        services.shuffler_use_end(use=use, actor=croupier, hood_opened=True, empty=True, cards_removed=True)
    assert exc.value.code == "SHUF-14"
    services.shuffler_use_end(
        use=use, actor=croupier, hood_opened=True, empty=True, cards_removed=True, disconnected=True
    )
    table_session_close(session=bj, actor=fro.director)


def test_shuf_15_punto_banco_display_six_decks(fro):
    machine = mounted_shuffler(fro, "PB1")
    pb = session(fro, "PB1")
    with pytest.raises(RuleViolation) as exc:
        services.shuffler_use_start(
            session=pb, shuffler=machine, actor=fro.users[Role.CROUPIER], display="black jack 6 jeux", decks_counted=6
        )
    assert exc.value.code == "SHUF-15"
    services.shuffler_use_start(
        session=pb, shuffler=machine, actor=fro.users[Role.CROUPIER], display="6 jeux", decks_counted=6
    )
    # Punto banco still needs its sabot allocated (SHOE-12).
    with pytest.raises(RuleViolation) as exc:
        table_session_open(session=pb, actor=fro.director)
    assert exc.value.code == "SHOE-12"
    (shoe,) = receive_shoes(fro, ["1"])
    services.shoe_allocate(session=pb, shoe=shoe, actor=fro.director)
    table_session_open(session=pb, actor=fro.director)


def test_inc_07_malfunction_puts_the_shuffler_out_of_service_until_cleared(mco):
    machine = mounted_shuffler(mco, "PB1")
    pb = session(mco, "PB1")
    incident = services.shuffler_malfunction_report(
        shuffler=machine,
        actor=mco.users[Role.CROUPIER],
        description="Voyant rouge allumé, cartes bloquées",
        action_taken="Cartes récupérées et contrôlées",
        session=pb,
    )
    machine.refresh_from_db()
    assert machine.status == AssetStatus.OUT_OF_SERVICE and incident.requirement == "INC-07"
    with pytest.raises(RuleViolation) as exc:
        services.shuffler_use_start(session=pb, shuffler=machine, actor=mco.users[Role.CROUPIER])
    assert exc.value.code == "INC-07"
    with pytest.raises(RuleViolation) as exc:
        services.shuffler_return_to_service(shuffler=machine, actor=mco.director)
    assert exc.value.code == "INC-07"
    incident_cleared(
        mco,
        incident,
        reporter=mco.users[Role.CROUPIER],
        notified=Role.INSPECTEUR,
        decision="Machine déposée pour révision.",
    )
    services.shuffler_return_to_service(shuffler=machine, actor=mco.director)
    services.shuffler_use_start(session=pb, shuffler=machine, actor=mco.users[Role.CROUPIER])
    assert [p["event"] for p in log(mco.est)][-3:] == [
        "Dysfonctionnement — mise hors service",
        "Remise en service",
        "Mise en marche pour la séance",
    ]


def test_shuffler_mounted_twice_refused(mco):
    machine = mounted_shuffler(mco, "PB1")
    socle = services.socle_create(table=mco.tables["BJ1"], code="S9", actor=mco.director)
    with pytest.raises(ValidationError):
        services.shuffler_mount(shuffler=machine, socle=socle, actor=mco.director)


def test_set_34_eligibility_matrix_is_an_establishment_setting(fro):
    machine = shuffler(fro, number="M1")
    socle = services.socle_create(table=fro.tables["PB1"], code="S1", actor=fro.director)
    # The matrix is overridden game by game: the casino takes punto banco off its shufflers.
    fro.est.options = {"SET-34": {"punto_banco": []}}
    fro.est.save()
    with pytest.raises(RuleViolation) as exc:
        services.shuffler_mount(shuffler=machine, socle=socle, actor=fro.director)
    assert exc.value.code == "SHUF-09"
