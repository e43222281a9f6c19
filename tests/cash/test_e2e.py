"""End to end per jurisdiction: float → slips → end-of-séance count → carnet (FR modèle 10, MC
register of bank amounts) → FR modèle 12 closed in words → visas → printed registers verify."""

import io
from decimal import Decimal

import pytest
from pypdf import PdfReader

from ledgers.cash import services
from ledgers.cash.models import SlipBook
from ledgers.cash.registers import BANQUE_TABLES, BONS_CAISSE, CARNET_AVANCES, REGISTRE_CHANGE, REGISTRE_CONTROLE
from ledgers.core.roles import Role
from ledgers.core.services import seance_close
from ledgers.registers.printing import render_register
from ledgers.registers.selectors import current_register
from ledgers.registers.verification import verify_register
from tests.cash.conftest import book, certified, changeur_box, fr_avance, mc_bank

pytestmark = pytest.mark.postgresql

CHIPS = [{"value": "100", "quantity": 20, "kind": "jeton"}]


def printed(register) -> str:
    out = io.BytesIO()
    render_register(register, out)
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(out.getvalue())).pages)
    return " ".join(text.split())  # cells wrap their text over several lines


def test_fr_float_slips_count_carnet_modele_12_in_words_visas_and_print(fro):
    seance = fro.seance()
    roulette, poker = fro.session("RA1", seance=seance), fro.session("TH1", seance=seance)
    fr_avance(fro, roulette, 150_000)
    changeur_box(fro, poker)
    slip = services.slip_write(
        book=book(fro),
        number=1,
        session=poker,
        requested=CHIPS,
        handed=[{"value": "2000", "quantity": 1, "kind": "plaque"}],
        actor=fro[Role.CHANGEUR],
        supervisor=fro[Role.COMITE],
    )
    services.slip_serve(slip=slip, desk=fro.desk, actor=fro[Role.CAISSIER])
    fro.close(poker)
    fro.close(roulette)
    services.slips_centralise(seance=seance, desk=fro.desk, actor=fro[Role.CAISSIER_PRINCIPAL])
    count = certified(fro, roulette, 171_250)
    assert count.result == Decimal("21250.00")
    seance_close(seance=seance, actor=fro.director)
    day = services.control_day_close(establishment=fro.est, date=fro.day, actor=fro[Role.CAISSIER_PRINCIPAL])
    assert day.total_words == "vingt et un mille deux cent cinquante euros"
    services.control_day_visa(day=day, actor=fro.director)
    services.control_day_visa(day=day, actor=fro["comite2"])
    carnet = current_register(fro.est, CARNET_AVANCES.code, "RA1")
    control = current_register(fro.est, REGISTRE_CONTROLE.code)
    for register in (
        carnet,
        control,
        current_register(fro.est, BONS_CAISSE.code),
        current_register(fro.est, REGISTRE_CHANGE.code, fro.desk.code),
    ):
        assert verify_register(register) is None, register
    text = printed(control)
    assert "vingt et un mille deux cent cinquante euros" in text and "Visa" in text
    assert "Encaisse de fin de séance" in printed(carnet)


def test_mc_bank_change_slip_count_and_print(mco):
    seance = mco.seance()
    session = mco.session("BJ1", seance=seance)
    mc_bank(mco, session, 50_000)
    slip = services.slip_write(
        book=book(mco, kind=SlipBook.Kind.CHANGE, number="C-1"),
        number=1,
        session=session,
        requested=CHIPS,
        handed=[{"value": "2000", "quantity": 1, "kind": "plaque"}],
        actor=mco[Role.CHEF_TABLE],
        supervisor=mco[Role.INSPECTEUR],
    )
    services.slip_serve(slip=slip, desk=mco.desk, actor=mco[Role.CAISSIER])
    mco.close(session)
    count = certified(mco, session, 47_500)
    assert count.result == Decimal("-2500.00")
    assert seance_close(seance=seance, actor=mco.director).status == "closed"
    register = current_register(mco.est, BANQUE_TABLES.code)
    assert verify_register(register) is None
    text = printed(register)
    assert "Somme mise en banque" in text and "Encaisse de fin de séance" in text
