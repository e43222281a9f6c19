"""End-of-séance count: two blind counts, the certification "exact" in the carnet d'avances, and
the séance that cannot close while a table's count is missing (COUNT-05, 15, 50; REG-09, REG-25)."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from ledgers.cash import services
from ledgers.cash.models import TableCount
from ledgers.cash.registers import BANQUE_TABLES, CARNET_AVANCES
from ledgers.core.errors import RuleViolation
from ledgers.core.hooks import seance_flags
from ledgers.core.roles import Role
from ledgers.core.services import seance_close
from ledgers.registers.selectors import current_register
from tests.cash.conftest import counted, fr_avance, mc_bank, plaques


def closed_with_avance(org, number="RA1", amount=150_000, seance=None):
    session = org.session(number, seance=seance)
    fr_avance(org, session, amount) if org.est.jurisdiction == "FR" else mc_bank(org, session, amount)
    return org.close(session)


def test_count_15_encaisse_counted_only_at_the_end_of_the_partie(fro):
    session = fro.session("RA1")
    fr_avance(fro, session)
    with pytest.raises(RuleViolation) as refused:
        services.count_record(session=session, breakdown=plaques(150_000), actor=fro[Role.CROUPIER])
    assert refused.value.code == "COUNT-15"


def test_count_05_mc_box_opened_only_at_the_end_of_the_seance(mco):
    session = mco.session("BJ1")
    mc_bank(mco, session)
    with pytest.raises(RuleViolation) as refused:
        services.count_record(session=session, breakdown=plaques(50_000), actor=mco[Role.CAISSIER])
    assert refused.value.code == "COUNT-05"


def test_blind_double_count_the_second_counter_does_not_see_the_first(fro, client):
    session = closed_with_avance(fro)
    first = services.count_record(
        session=session,
        breakdown=plaques(160_000),
        actor=fro[Role.CROUPIER],
        present=["A"],
        called_aloud=True,
        tips=Decimal(120),
    )
    assert first.status == TableCount.Status.AWAITING_SECOND
    client.force_login(fro[Role.CAISSIER])
    page = client.get(f"/caisses/tables/{session.pk}/comptee/")
    assert page.status_code == 200 and "160000" not in page.content.decode()
    with pytest.raises(ValidationError):
        services.count_record(session=session, breakdown=plaques(160_000), actor=fro[Role.CROUPIER])
    second = services.count_record(session=session, breakdown=plaques(160_000), actor=fro[Role.CAISSIER])
    assert second.status == TableCount.Status.AGREED and second.encaisse == Decimal("160000.00")


def test_a_difference_between_the_two_counts_is_escalated_and_settled_with_a_note(fro):
    session = closed_with_avance(fro)
    count = counted(fro, session, 160_000, second=159_000)
    assert count.status == TableCount.Status.ESCALATED and count.encaisse is None
    with pytest.raises(ValidationError):
        services.count_certify(count=count, actor=fro[Role.COMITE], words="exact")
    certified = services.count_certify(
        count=count,
        actor=fro[Role.COMITE],
        words="exact",
        encaisse=Decimal("160000"),
        resolution="Recompté : une plaque sous le tapis",
    )
    assert certified.encaisse == Decimal("160000.00") and certified.result == Decimal("10000.00")


def test_count_15_certified_exact_by_the_directeur_responsable_or_a_comite_member(fro):
    session = closed_with_avance(fro)
    count = counted(fro, session, 162_500)
    with pytest.raises(RuleViolation) as refused:
        services.count_certify(count=count, actor=fro[Role.CAISSIER_PRINCIPAL], words="exact")
    assert refused.value.code == "COUNT-15"
    certified = services.count_certify(count=count, actor=fro.director, words="Certifié   exact")
    assert certified.certification == "certifié exact" and certified.result == Decimal("12500.00")
    entry = current_register(fro.est, CARNET_AVANCES.code, "RA1").entries.filter(kind="record").last()
    assert entry.payload["event"] == "Encaisse de fin de séance" and entry.payload["result"] == "12500.00"
    assert entry.payload["certification"] == "certifié exact" and entry.payload["present"]


def test_count_50_the_certification_words_are_those_of_the_text(fro):
    count = counted(fro, closed_with_avance(fro), 150_000)
    with pytest.raises(RuleViolation) as refused:
        services.count_certify(count=count, actor=fro[Role.COMITE], words="ok")
    assert refused.value.code == "COUNT-50"


def test_count_15_a_cashier_attends_the_count(fro):
    session = closed_with_avance(fro)
    count = counted(fro, session, 150_000, first_by=fro[Role.CROUPIER], second_by=fro[Role.CHEF_TABLE])
    with pytest.raises(RuleViolation) as refused:
        services.count_certify(count=count, actor=fro[Role.COMITE], words="exact")
    assert refused.value.code == "COUNT-15" and "caissier" in str(refused.value)


def test_count_15_called_aloud_before_the_table_employees(fro):
    session = closed_with_avance(fro)
    services.count_record(session=session, breakdown=plaques(150_000), actor=fro[Role.CROUPIER], tips=Decimal(0))
    count = services.count_record(session=session, breakdown=plaques(150_000), actor=fro[Role.CAISSIER])
    with pytest.raises(RuleViolation) as refused:
        services.count_certify(count=count, actor=fro[Role.COMITE], words="exact")
    assert refused.value.code == "COUNT-15"


def test_the_certifier_is_not_one_of_the_counters(mco):
    session = closed_with_avance(mco, "BJ1", 50_000)
    count = counted(mco, session, 52_000, first_by=mco[Role.INSPECTEUR], second_by=mco[Role.CAISSIER])
    with pytest.raises(ValidationError):
        services.count_certify(count=count, actor=mco[Role.INSPECTEUR], words="vu")
    certified = services.count_certify(count=count, actor=mco["inspecteur2"], words="vu")
    assert certified.result == Decimal("2000.00")
    entry = current_register(mco.est, BANQUE_TABLES.code).entries.filter(kind="record").last()
    assert entry.payload["amount"] == "52000.00"


def test_reg_25_the_seance_cannot_close_while_a_tables_count_is_missing(fro):
    seance = fro.seance()
    session = closed_with_avance(fro, seance=seance)
    with pytest.raises(RuleViolation) as refused:
        seance_close(seance=seance, actor=fro.director)
    assert refused.value.code == "REG-25" and "RA1" in str(refused.value)
    count = counted(fro, session, 150_000)
    with pytest.raises(RuleViolation):  # counted but not yet certified
        seance_close(seance=seance, actor=fro.director)
    services.count_certify(count=count, actor=fro[Role.COMITE], words="exact")
    assert seance_close(seance=seance, actor=fro.director).status == "closed"


def cash_flags(seance):
    return [m for m in seance_flags(seance) if m.code.startswith("COUNT-")]


def test_count_01_count_34_a_table_played_without_its_float_is_flagged_at_the_closing(mco, fro):
    seance = mco.seance()
    mco.session("BJ2", seance=seance)
    mco.session("CF1", seance=seance)  # a cercle table: no bank
    assert [(str(m.what), m.code) for m in cash_flags(seance)] == [
        ("avance de la table BJ2 non inscrite au carnet", "COUNT-01")
    ]
    assert seance_close(seance=seance, actor=mco.director).status == "closed"  # a flag, not a refusal
    fr_seance = fro.seance()
    fro.session("TH1", seance=fr_seance)
    played = fro.session("RA1", seance=fr_seance)
    assert [m.code for m in cash_flags(fr_seance)] == ["COUNT-34"]
    fr_avance(fro, played)
    assert not cash_flags(fr_seance)


def test_count_36_tips_counted_and_recorded_with_the_encaisse(fro):
    session = closed_with_avance(fro)
    with pytest.raises(RuleViolation) as refused:
        services.count_record(
            session=session, breakdown=plaques(150_000), actor=fro[Role.CROUPIER], present=["A"], called_aloud=True
        )
    assert refused.value.code == "COUNT-36"
    services.count_record(
        session=session,
        breakdown=plaques(150_000),
        actor=fro[Role.CROUPIER],
        present=["A"],
        called_aloud=True,
        tips=Decimal(340),
    )
    count = services.count_record(session=session, breakdown=plaques(150_000), actor=fro[Role.CAISSIER])
    services.count_certify(count=count, actor=fro[Role.COMITE], words="exact")
    entry = current_register(fro.est, CARNET_AVANCES.code, "RA1").entries.filter(kind="record").last()
    assert entry.payload["tips"] == "340.00" and entry.payload["certification"] == "exact"


def test_count_35_count_room_only_after_the_police_validation_and_under_cctv(fro):
    session = closed_with_avance(fro)
    cash = [*plaques(149_500), {"value": "500", "quantity": 1, "kind": "billet"}]  # cash changed at the table
    fields = {
        "session": session,
        "breakdown": cash,
        "actor": fro[Role.CAISSIER],
        "present": ["A"],
        "called_aloud": True,
        "tips": Decimal(0),
        "count_room": True,
    }
    with pytest.raises(RuleViolation) as unvalidated:
        services.count_record(**fields, cctv_reference="Caméra 4, 23:10")
    assert unvalidated.value.code == "COUNT-35"
    with pytest.raises(ValidationError):
        services.count_room_validation_record(
            establishment=fro.est, reference="", validated_on=fro.day, service="SRPJ Nice", actor=fro.director
        )
    services.count_room_validation_record(
        establishment=fro.est, reference="DCPJ-2026-17", validated_on=fro.day, service="SRPJ Nice", actor=fro.director
    )
    fro.est.refresh_from_db()
    session.refresh_from_db()
    with pytest.raises(RuleViolation) as no_cctv:
        services.count_record(**fields)
    assert no_cctv.value.code == "COUNT-35"
    with pytest.raises(RuleViolation) as no_cash:
        services.count_record(**{**fields, "breakdown": plaques(150_000)}, cctv_reference="Caméra 4, 23:10")
    assert no_cash.value.code == "COUNT-35" and "aucun billet" in str(no_cash.value)
    count = services.count_record(**fields, cctv_reference="Caméra 4, 23:10")
    assert count.count_room and count.cctv_reference == "Caméra 4, 23:10"


@pytest.mark.parametrize("jurisdiction", ["fr", "mc"])
def test_count_05_15_each_blind_count_writes_its_line_without_the_amount(request, jurisdiction):
    """Each count is a register act of its own (its history row has its entry), naming the counter
    and the count's number; the amount waits for the certification, so the second counter reads
    nothing of the first count in the register."""
    if jurisdiction == "fr":
        org = request.getfixturevalue("fro")
        session, register = closed_with_avance(org), current_register(org.est, CARNET_AVANCES.code, "RA1")
        first_by, second_by, extra = org[Role.CROUPIER], org[Role.CAISSIER], {"tips": Decimal(0)}
    else:
        org = request.getfixturevalue("mco")
        session, register = closed_with_avance(org, "BJ1", 50_000), current_register(org.est, BANQUE_TABLES.code)
        first_by, second_by, extra = org[Role.CROUPIER], org[Role.CAISSIER], {}
    before = register.entries.count()
    count = services.count_record(session=session, breakdown=plaques(173_900), actor=first_by, **extra)
    services.count_record(session=session, breakdown=plaques(173_900), actor=second_by)
    lines = list(register.entries.filter(seq__gt=before).order_by("seq"))
    assert [(e.payload["count_number"], e.payload["table_count"], e.actor) for e in lines] == [
        (1, count.pk, first_by.username),
        (2, count.pk, second_by.username),
    ]
    for entry in lines:
        assert entry.payload["amount"] == "" and entry.payload["breakdown"] == ""
        assert "173900" not in str(entry.payload)
        assert entry.written["cash.TableCount"] == [count.pk]
    assert lines[0].payload["event"].startswith("Comptage n° 1 de l'encaisse, à l'aveugle")
