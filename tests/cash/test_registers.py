"""The FR accounting registers kept by the cash services, printed under their official model:
carnet modèle 11 and the register of the ticket books (REG-30, REG-32), carnet modèle 11 bis
(REG-31), registre du bad beat jackpot modèle 8 quater (REG-10), carnet des prélèvements modèle 13
(REG-35), registre des plaques, jetons et cartes de paiement modèle 16 (REG-36). Modèles 10 and 12
are printed end to end in test_e2e."""

from decimal import Decimal

from ledgers.cash import services
from ledgers.cash.registers import (
    CARNET_CAGNOTTES,
    CARNET_ORPHELINS,
    CARNET_PRELEVEMENTS,
    CARNETS_TICKETS,
    REGISTRE_BBJ,
    REGISTRE_PLAQUES,
)
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register
from ledgers.registers.verification import verify_register
from tests.cash.conftest import plaques
from tests.cash.test_cagnottes import computed_poker
from tests.cash.test_control import day_played
from tests.cash.test_e2e import printed
from tests.cash.test_plaques import chips


def kept(org, kind, qualifier="") -> str:
    """The open volume verifies and prints; its text."""
    register = current_register(org.est, kind, qualifier)
    assert verify_register(register) is None
    return printed(register)


def test_reg_30_reg_32_carnet_modele_11_and_ticket_books_printed(fro):
    session = computed_poker(fro)
    services.cagnotte_count(
        session=session, breakdown=plaques(190, 100), actor=fro[Role.COMITE], words="certifié exact"
    )
    carnet = kept(fro, CARNET_CAGNOTTES.code, "TH1")
    assert "modèle 11" in carnet and "certifié exact" in carnet and "supporté par la caisse" in carnet
    books = kept(fro, CARNETS_TICKETS.code)
    assert "Mise en service (timbre sur le premier ticket)" in books and "TH1" in books


def test_reg_31_carnet_modele_11_bis_printed_with_the_orphan_and_its_restitution(fro):
    orphan = services.orphan_record(
        establishment=fro.est,
        category="floor",
        amount=Decimal(100),
        place="Salle",
        found_by="Agent Test",
        paid_into="caisse-1",
        actor=fro[Role.CAISSIER],
    )
    services.orphan_restitute(
        orphan=orphan,
        amount=Decimal(100),
        name="M. Martin",
        address="1 rue de Nice",
        proof="Vidéo 21:14, caméra 3",
        actor=fro[Role.CAISSIER],
    )
    text = kept(fro, CARNET_ORPHELINS.code)
    assert "modèle 11 bis" in text and "M. Martin" in text and "Vidéo 21:14" in text


def test_reg_10_registre_modele_8_quater_printed_with_the_displayed_amount(fro):
    session = fro.close(fro.session("TH1"))
    services.bad_beat_record(
        session=session,
        counted=Decimal(1250),
        statement=Decimal(1200),
        displayed=Decimal(25400),
        present=["Croupier Test"],
        actor=fro[Role.CAISSIER],
        comite=fro[Role.COMITE],
    )
    text = kept(fro, REGISTRE_BBJ.code)
    assert "modèle 8 quater" in text and "INC-10" in text and "25400" in text.replace(" ", "")


def test_reg_35_carnet_modele_13_sheet_printed(fro):
    day_played(fro)
    day = services.control_day_close(establishment=fro.est, date=fro.day, actor=fro[Role.CAISSIER_PRINCIPAL])
    services.control_day_visa(day=day, actor=fro.director)
    services.control_day_visa(day=day, actor=fro[Role.COMITE])
    assert (
        services.levy_month_close(
            establishment=fro.est, year=2026, month=3, slot_total=Decimal(1000), actor=fro[Role.CAISSIER_PRINCIPAL]
        )
        == 5
    )
    text = kept(fro, CARNET_PRELEVEMENTS.code)
    assert "modèle 13" in text and "4500" in text.replace(" ", "")


def test_reg_36_registre_modele_16_printed_with_the_series(fro):
    chips(fro)
    text = kept(fro, REGISTRE_PLAQUES.code)
    assert "modèle 16" in text and "Bourgogne et Grasset" in text


def test_reg_31_orphan_line_shows_who_found_it_and_the_witness(fro):
    services.orphan_record(
        establishment=fro.est,
        category="floor",
        amount=Decimal(20),
        place="Salle",
        found_by="Agent Durand",
        witness="Chef de table Roux",
        paid_into="caisse-1",
        actor=fro[Role.CAISSIER],
    )
    keys = [column.key for column in CARNET_ORPHELINS.columns]
    assert {"found_at", "category", "place", "amount", "found_by", "witness"} <= set(keys)
    text = kept(fro, CARNET_ORPHELINS.code)
    assert "Agent Durand" in text and "Chef de table Roux" in text
