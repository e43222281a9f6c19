"""Roulettes, boule, grande roue and roue de la chance: specifications, pre-séance checks, the lid
locked at the end of the partie (WHEEL-01 to WHEEL-08, INC-08, KEY-08, REG-11, REG-12)."""

import pytest
from django.core.exceptions import ValidationError

from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.core.services import table_session_close, table_session_open
from ledgers.equipment import services
from ledgers.equipment.models import AssetStatus, WheelKind
from ledgers.equipment.specs import TEXT_SPECS
from ledgers.incidents.models import Incident
from ledgers.registers.selectors import current_register
from tests.cash.test_e2e import printed
from tests.factories import make_user

from .conftest import incident_cleared, open_wheel_table, session, wheel

_numbers = iter(range(100, 999))


def refused(org, kind, spec):
    machine = wheel(org, kind, number=f"X{next(_numbers)}", spec=spec, commission=False)
    with pytest.raises(RuleViolation) as exc:
        services.wheel_commission(wheel=machine, actor=org.director)
    machine.refresh_from_db()
    assert machine.status == AssetStatus.REGISTERED
    return exc.value.code


def test_wheel_01_european_roulette_exactly_37_pockets_one_zero_seven_obstacles(mco):
    assert refused(mco, WheelKind.ROULETTE_EUROPEENNE, {"pockets": 37, "zeros": ["0"], "obstacles": 8}) == "WHEEL-01"
    assert (
        refused(mco, WheelKind.ROULETTE_EUROPEENNE, {"pockets": 38, "zeros": ["0", "00"], "obstacles": 7}) == "WHEEL-01"
    )
    assert wheel(mco, WheelKind.ROULETTE_EUROPEENNE, number="C2").status == AssetStatus.IN_SERVICE


def test_wheel_03_american_roulette_38_pockets_0_and_00_at_least_seven_obstacles(mco):
    assert (
        refused(mco, WheelKind.ROULETTE_AMERICAINE, {"pockets": 38, "zeros": ["0", "00"], "obstacles": 6}) == "WHEEL-03"
    )
    ok = wheel(
        mco, WheelKind.ROULETTE_AMERICAINE, number="A2", spec={"pockets": 38, "zeros": ["00", "0"], "obstacles": 12}
    )
    assert ok.status == AssetStatus.IN_SERVICE


def test_wheel_04_boule_nine_numbers_two_or_four_rows_colour_map(mco):
    spec = TEXT_SPECS[WheelKind.BOULE]
    assert refused(mco, WheelKind.BOULE, {**spec, "rows": 3}) == "WHEEL-04"
    wrong = {**spec, "colours": {**spec["colours"], "5": "rouge"}}
    machine = wheel(mco, WheelKind.BOULE, number="B9", spec=wrong, commission=False)
    with pytest.raises(RuleViolation):
        services.wheel_commission(wheel=machine, actor=mco.director)
    assert wheel(mco, WheelKind.BOULE, number="B2", spec={**spec, "rows": 4}).status == AssetStatus.IN_SERVICE


def test_wheel_05_grande_roue_segment_counts_refused(mco):
    segments = {**TEXT_SPECS[WheelKind.GRANDE_ROUE]["segments"], "1": 23, "2": 16}  # still 54 in all
    assert refused(mco, WheelKind.GRANDE_ROUE, {"segments": segments}) == "WHEEL-05"
    assert wheel(mco, WheelKind.GRANDE_ROUE, number="G2").status == AssetStatus.IN_SERVICE


def test_wheel_07_roue_de_la_chance_segment_counts_refused(fro):
    segments = {**TEXT_SPECS[WheelKind.ROUE_CHANCE]["segments"], "orange": 25}
    assert refused(fro, WheelKind.ROUE_CHANCE, {"segments": segments}) == "WHEEL-07"
    assert wheel(fro, WheelKind.ROUE_CHANCE, number="RC2").status == AssetStatus.IN_SERVICE


def test_wheel_kind_not_of_the_jurisdiction_refused(fro):
    with pytest.raises(ValidationError):
        wheel(fro, WheelKind.GRANDE_ROUE)


def test_wheel_06_reg_12_mc_check_by_maintenance_with_inspecteur_before_opening(mco):
    wheel(mco, WheelKind.ROULETTE_EUROPEENNE, table="R1")
    r1 = session(mco, "R1")
    technician, inspecteur = mco.users[Role.ENTRETIEN], mco.users[Role.INSPECTEUR]
    with pytest.raises(RuleViolation) as exc:
        table_session_open(session=r1, actor=mco.director)
    assert exc.value.code == "WHEEL-06"
    for actor, cosigner in ((technician, mco.users[Role.CROUPIER]), (technician, technician)):
        with pytest.raises(RuleViolation) as exc:
            services.wheel_check_record(session=r1, actor=actor, cosigner=cosigner, points=["Pivot"], passed=True)
        assert exc.value.code == "WHEEL-06"
    check = services.wheel_check_record(
        session=r1,
        actor=inspecteur,
        cosigner=technician,
        points=["Pivot", "Cloisons", "Obstacles", "Planéité"],
        passed=True,
    )
    assert (check.signer_role, check.cosigner_role) == (Role.INSPECTEUR, Role.ENTRETIEN)
    table_session_open(session=r1, actor=mco.director)
    (entry,) = current_register(mco.est, "verifications_materiel").entries.filter(kind="record")
    assert entry.payload["technician"] == technician.get_full_name()
    assert entry.payload["inspecteur"] == inspecteur.get_full_name() and entry.payload["result"] == "conforme"


def test_inc_08_failed_check_opens_incident_and_table_stays_closed(mco):
    machine = wheel(mco, WheelKind.GRANDE_ROUE, table="GR1")
    gr = session(mco, "GR1")
    technician, inspecteur = mco.users[Role.ENTRETIEN], mco.users[Role.INSPECTEUR]
    check = services.wheel_check_record(
        session=gr,
        actor=technician,
        cosigner=inspecteur,
        points=["Indicateur"],
        passed=False,
        observations="Indicateur voilé",
    )
    assert check.incident.requirement == "INC-08" and check.incident.subjects.get().object_id == machine.pk
    with pytest.raises(RuleViolation) as exc:
        table_session_open(session=gr, actor=mco.director)
    assert exc.value.code == "INC-08"
    incident_cleared(
        mco, check.incident, reporter=technician, notified=Role.INSPECTEUR, decision="Indicateur remplacé."
    )
    with pytest.raises(RuleViolation) as exc:
        table_session_open(session=gr, actor=mco.director)  # the last check still failed
    assert exc.value.code == "INC-08"
    services.wheel_check_record(session=gr, actor=technician, cosigner=inspecteur, points=["Indicateur"], passed=True)
    table_session_open(session=gr, actor=mco.director)
    assert Incident.objects.filter(category="equipment_check").count() == 1


def _printed_has(register, *values) -> None:
    text = "".join(printed(register).split())
    for value in values:
        assert "".join(value.split()) in text, value


def test_reg_11_main_courante_line_carries_every_column_and_prints(fro):
    machine = wheel(fro, WheelKind.ROUE_CHANCE, table="RC1")
    rc = session(fro, "RC1")
    comite, croupier = fro.users[Role.COMITE], fro.users[Role.CROUPIER]
    services.wheel_check_record(
        session=rc,
        actor=croupier,
        cosigner=comite,
        points=["Rotation libre", "Marqueur fixe"],
        passed=True,
        observations="Roue nettoyée",
    )
    register = current_register(fro.est, "main_courante_roue")
    (line,) = (e.payload for e in register.entries.filter(kind="record"))
    # WHEEL-08: date, séance, wheel, checks, result, the comité member's and the croupier's names.
    assert (line["date"], line["seance"], line["table"]) == (rc.seance.date.isoformat(), str(rc.seance), "RC1")
    assert machine.number in line["wheel"] and line["points"] == ["Rotation libre", "Marqueur fixe"]
    assert (line["result"], line["observations"]) == ("conforme", "Roue nettoyée")
    assert (line["comite"], line["croupier"]) == (comite.get_full_name(), croupier.get_full_name())
    _printed_has(register, "Rotation libre", "Roue nettoyée", comite.get_full_name(), croupier.get_full_name())


def test_reg_12_mc_equipment_check_line_carries_every_column_and_prints(mco):
    machine = wheel(mco, WheelKind.ROULETTE_EUROPEENNE, table="R1")
    r1 = session(mco, "R1")
    technician, inspecteur = mco.users[Role.ENTRETIEN], mco.users[Role.INSPECTEUR]
    services.wheel_check_record(
        session=r1,
        actor=inspecteur,
        cosigner=technician,
        points=["Pivot", "Cloisons"],
        passed=True,
        observations="Cylindre graissé",
    )
    register = current_register(mco.est, "verifications_materiel")
    (line,) = (e.payload for e in register.entries.filter(kind="record"))
    # WHEEL-06: date, séance, table, equipment, points, result, observations, technician and inspecteur.
    assert (line["date"], line["seance"], line["table"]) == (r1.seance.date.isoformat(), str(r1.seance), "R1")
    assert machine.number in line["wheel"] and line["points"] == ["Pivot", "Cloisons"]
    assert (line["result"], line["observations"]) == ("conforme", "Cylindre graissé")
    assert (line["technician"], line["inspecteur"]) == (technician.get_full_name(), inspecteur.get_full_name())
    _printed_has(register, "Cloisons", "Cylindre graissé", technician.get_full_name(), inspecteur.get_full_name())


def test_wheel_08_reg_11_fr_roue_de_la_chance_checked_by_comite_and_croupier_in_main_courante(fro):
    wheel(fro, WheelKind.ROUE_CHANCE, table="RC1")
    rc = session(fro, "RC1")
    with pytest.raises(RuleViolation) as exc:
        table_session_open(session=rc, actor=fro.director)
    assert exc.value.code == "WHEEL-08"
    with pytest.raises(RuleViolation) as exc:
        services.wheel_check_record(
            session=rc,
            actor=fro.users[Role.DIRECTEUR_RESPONSABLE],
            cosigner=fro.users[Role.CROUPIER],
            points=["Rotation"],
            passed=True,
        )
    assert exc.value.code == "WHEEL-08"
    services.wheel_check_record(
        session=rc,
        actor=fro.users[Role.CROUPIER],
        cosigner=fro.users[Role.COMITE],
        points=["Rotation libre", "Marqueur fixe", "52 segments"],
        passed=True,
    )
    table_session_open(session=rc, actor=fro.director)
    (entry,) = current_register(fro.est, "main_courante_roue").entries.filter(kind="record")
    assert entry.payload["comite"] == fro.users[Role.COMITE].get_full_name()
    assert entry.payload["croupier"] == fro.users[Role.CROUPIER].get_full_name()


def test_wheel_fr_roulette_needs_no_check(fro):
    wheel(fro, WheelKind.ROULETTE_EUROPEENNE, table="RA1")
    ra = session(fro, "RA1")
    table_session_open(session=ra, actor=fro.director)
    table_session_close(session=ra, actor=fro.director)


def open_roulette(mco):
    return open_wheel_table(mco, "R1", WheelKind.ROULETTE_EUROPEENNE)


def test_wheel_02_roulette_close_without_lid_locked_refused(mco):
    r1 = open_roulette(mco)
    with pytest.raises(RuleViolation) as exc:
        table_session_close(session=r1, actor=mco.director)
    assert exc.value.code == "WHEEL-02"
    services.wheel_lid_lock(session=r1, actor=mco.users[Role.CHEF_TABLE], key_holder=mco.users[Role.INSPECTEUR])
    assert table_session_close(session=r1, actor=mco.director).status == "closed"


def test_key_08_set_31_lid_key_returned_to_its_holder(mco):
    r1 = open_roulette(mco)
    with pytest.raises(RuleViolation) as exc:
        services.wheel_lid_lock(session=r1, actor=mco.users[Role.CROUPIER], key_holder=mco.users[Role.CHEF_TABLE])
    assert exc.value.code == "KEY-08"
    # SET-31: the operator names the holders of the lid keys.
    mco.est.options = {"SET-31": [Role.CHEF_TABLE]}
    mco.est.save()
    lock = services.wheel_lid_lock(session=r1, actor=mco.users[Role.CROUPIER], key_holder=mco.users[Role.CHEF_TABLE])
    assert lock.key_holder_role == Role.CHEF_TABLE
    entry = current_register(mco.est, "verifications_materiel").entries.filter(kind="record").last()
    assert entry.payload["event"] == "Fermeture du cylindre" and "Chef de table" in entry.payload["inspecteur"]


def test_wheel_check_needs_an_installed_wheel_and_is_before_opening(mco):
    gr = session(mco, "B1")
    other = make_user(mco.est, Role.ENTRETIEN)
    with pytest.raises(ValidationError):
        services.wheel_check_record(
            session=gr, actor=other, cosigner=mco.users[Role.INSPECTEUR], points=["x"], passed=True
        )
