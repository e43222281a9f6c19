"""MC: trente et quarante refait insurance premiums as a separate line of the table result
(COUNT-10); chemin de fer advances of the Société Financière d'Encaissement (COUNT-11)."""

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from rest_framework.test import APIClient

from ledgers.cash import services
from ledgers.cash.models import SfeAdvance
from ledgers.cash.registers import BANQUE_TABLES, BONS_CAISSE
from ledgers.cash.services.sfe import sfe_advance_record
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.registers.kinds import MAIN_COURANTE
from ledgers.registers.selectors import current_register
from tests.cash.conftest import counted, mc_bank
from tests.factories import GamingTableFactory


def trente_quarante_counted(mco, encaisse: int):
    """A trente et quarante table-partie closed and counted twice."""
    table = GamingTableFactory(establishment=mco.est, room=mco.room, number="TQ1", game="trente_quarante")
    mco.tables["TQ1"] = table
    services.float_amount_fix(table=table, amount=Decimal("50000"), actor=mco.director)
    session = mco.session("TQ1")
    mc_bank(mco, session)
    mco.close(session)
    return counted(mco, session, encaisse)


def test_count_10_game_24_refait_premiums_entered_as_a_separate_line_of_the_table_result(mco):
    services.refait_threshold_fix(establishment=mco.est, amount=Decimal("5000"), actor=mco.director)
    count = trente_quarante_counted(mco, 53_000)
    with pytest.raises(RuleViolation) as refused:
        services.count_certify(count=count, actor=mco[Role.INSPECTEUR], words="vu")
    assert refused.value.code == "COUNT-10"
    certified = services.count_certify(
        count=count, actor=mco[Role.INSPECTEUR], words="vu", insurance_premiums=Decimal("120")
    )
    assert certified.insurance_premiums == Decimal("120.00") and certified.result == Decimal("3000.00")
    last = current_register(mco.est, BANQUE_TABLES.code).entries.filter(kind="record").order_by("-seq").first()
    assert last.payload["amount"] == "120.00" and "refait" in last.payload["event"]


def test_game_24_refait_premiums_only_from_the_threshold_the_direction_fixed_set_23(mco):
    count = trente_quarante_counted(mco, 53_000)
    inspecteur = mco[Role.INSPECTEUR]
    # No threshold fixed (SET-23 has no default): no stake could be insured, no premium taken.
    with pytest.raises(RuleViolation) as unfixed:
        services.count_certify(count=count, actor=inspecteur, words="vu", insurance_premiums=Decimal("120"))
    assert unfixed.value.code == "GAME-24"
    with pytest.raises(PermissionDenied):
        services.refait_threshold_fix(establishment=mco.est, amount=Decimal("20000"), actor=inspecteur)
    fixed = services.refait_threshold_fix(establishment=mco.est, amount=Decimal("20000"), actor=mco.director)
    assert services.refait_threshold(fixed) == Decimal("20000.00")
    # Each insured stake is 20 000 € at least and pays 1 %: premiums below 200 € cannot be.
    with pytest.raises(RuleViolation) as below:
        services.count_certify(count=count, actor=inspecteur, words="vu", insurance_premiums=Decimal("120"))
    assert below.value.code == "GAME-24" and "200,00" in str(below.value)
    certified = services.count_certify(count=count, actor=inspecteur, words="vu", insurance_premiums=Decimal("250"))
    assert certified.insurance_premiums == Decimal("250.00")


def test_game_24_refait_threshold_fixed_through_the_api(mco):
    api = APIClient()
    api.force_authenticate(mco[Role.CROUPIER])
    assert api.post("/api/v1/cash/refait-thresholds/", {"amount": "10000"}, format="json").status_code == 403
    api.force_authenticate(mco.director)
    done = api.post("/api/v1/cash/refait-thresholds/", {"amount": "10000"}, format="json")
    assert done.status_code == 201 and done.json() == {"amount": "10000.00"}
    mco.est.refresh_from_db()
    assert mco.est.setting("SET-23") == "10000.00"
    line = current_register(mco.est, MAIN_COURANTE.code).entries.order_by("-seq").first()  # as every setting
    assert (line.actor_user, line.payload["setting"]) == (mco.director, "SET-23")
    assert line.payload["text"].startswith("Trente et quarante : mise minimale assurable contre le refait (SET-23) : ")


def test_count_10_no_premiums_at_other_tables(mco):
    session = mco.session("BJ1")
    mc_bank(mco, session)
    mco.close(session)
    count = counted(mco, session, 50_000)
    with pytest.raises(Exception, match="trente et quarante"):
        services.count_certify(count=count, actor=mco[Role.INSPECTEUR], words="vu", insurance_premiums=Decimal("1"))
    assert services.count_certify(count=count, actor=mco[Role.INSPECTEUR], words="vu").insurance_premiums is None


def test_count_11_sfe_advance_needs_the_sfe_authorisation(mco):
    session = mco.session("CF1")
    with pytest.raises(RuleViolation) as refused:
        sfe_advance_record(
            session=session, customer="M. Dupont", amount=Decimal("5000"), authorisation=" ", actor=mco[Role.CHANGEUR]
        )
    assert refused.value.code == "COUNT-11"
    with pytest.raises(RuleViolation) as croupier:
        sfe_advance_record(
            session=session,
            customer="M. Dupont",
            amount=Decimal("5000"),
            authorisation="SFE-1",
            actor=mco[Role.CROUPIER],
        )
    assert croupier.value.code == "COUNT-11" and not SfeAdvance.objects.exists()
    advance = sfe_advance_record(
        session=session, customer="M. Dupont", amount=Decimal("5000"), authorisation="SFE-1", actor=mco[Role.CHANGEUR]
    )
    entry = current_register(mco.est, BONS_CAISSE.code).entries.filter(kind="record").get()
    assert advance.amount == Decimal("5000.00") and "SFE-1" in entry.payload["requested"]


def test_count_11_sfe_advance_page_and_api(client, mco):
    session = mco.session("CF1")
    api = APIClient()
    api.force_authenticate(mco[Role.CHANGEUR])
    body = {"table_session": session.pk, "customer": "Mme Roy", "amount": "2000", "authorisation": ""}
    refused = api.post("/api/v1/cash/sfe-advances/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "COUNT-11"
    done = api.post("/api/v1/cash/sfe-advances/", {**body, "authorisation": "SFE-9"}, format="json")
    assert done.status_code == 201 and done.json()["authorisation"] == "SFE-9"
    client.force_login(mco[Role.CHANGEUR])
    assert client.get(f"/caisses/tables/{session.pk}/avance-sfe/").status_code == 200
