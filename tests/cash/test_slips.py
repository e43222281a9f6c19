"""Change slips and ravitaillement bons: numbered series, signatures, serving at a desk with its
change register, voids with two signatures, centralisation (COUNT-02, 04, 06, 26, 29; REG-14, 29, 33)."""

import pytest
from django.core.exceptions import ValidationError

from ledgers.cash import selectors, services
from ledgers.cash.models import Slip, SlipBook
from ledgers.cash.registers import BONS_CAISSE, CARNET_AVANCES, REGISTRE_CHANGE
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.core.services import seance_close
from ledgers.registers.kinds import get_kind
from ledgers.registers.models import Register
from ledgers.registers.selectors import current_register
from ledgers.registers.services import register_close, register_create, register_open
from tests.cash.conftest import book, changeur_box
from tests.factories import LocationFactory

CHIPS = [{"value": "100", "quantity": 50, "kind": "jeton"}]
NOTES = [{"value": "500", "quantity": 10, "kind": "billet"}]


def ravitaillement(org, session, slip_book, number=1, supervisor=None, **kwargs):
    changeur_box(org, session)
    return services.slip_write(
        book=slip_book,
        number=number,
        session=session,
        requested=CHIPS,
        handed=NOTES,
        actor=org[Role.CHANGEUR],
        supervisor=supervisor or org[Role.CHEF_PARTIE],
        **kwargs,
    )


def test_count_29_reg_33_bon_signed_by_the_changeur_and_a_supervisor_then_served_by_a_cashier(fro):
    session = fro.session("TH1")
    slip = ravitaillement(fro, session, book(fro))
    assert slip.total == 5000 and slip.supervisor_role == Role.CHEF_PARTIE
    served = services.slip_serve(slip=slip, desk=fro.desk, actor=fro[Role.CAISSIER])
    assert served.status == Slip.Status.SERVED
    change = current_register(fro.est, REGISTRE_CHANGE.code, fro.desk.code).entries.filter(kind="record").get()
    assert change.payload["reference"] == "B-1 n° 1" and change.payload["total"] == "5000.00"
    events = [e.payload["event"] for e in current_register(fro.est, BONS_CAISSE.code).entries.filter(kind="record")]
    assert events == ["Carnet mis en service : bons n° 1 à 50", "Rédaction", "Servi à la caisse"]


def test_count_29_bon_without_the_supervisors_signature_refused(fro):
    session = fro.session("TH1")
    with pytest.raises(RuleViolation) as refused:
        services.slip_write(
            book=book(fro),
            number=1,
            session=session,
            requested=CHIPS,
            handed=NOTES,
            actor=fro[Role.CHANGEUR],
            supervisor=None,
        )
    assert refused.value.code == "COUNT-29"
    with pytest.raises(RuleViolation):
        ravitaillement(fro, session, SlipBook.objects.get(), supervisor=fro[Role.CAISSIER])
    assert not Slip.objects.exists()


def test_count_29_value_handed_over_must_equal_the_chips_requested(fro):
    session = fro.session("TH1")
    with pytest.raises(RuleViolation) as refused:
        services.slip_write(
            book=book(fro),
            number=1,
            session=session,
            requested=CHIPS,
            handed=[{"value": "500", "quantity": 9, "kind": "billet"}],
            actor=fro[Role.CHANGEUR],
            supervisor=fro[Role.COMITE],
        )
    assert refused.value.code == "COUNT-29"


def test_count_29_bons_centralised_before_the_seance_closes(fro):
    seance = fro.seance()
    session = fro.session("TH1", seance=seance)
    services.slip_serve(slip=ravitaillement(fro, session, book(fro)), desk=fro.desk, actor=fro[Role.CAISSIER])
    fro.close(session)
    with pytest.raises(RuleViolation) as refused:
        seance_close(seance=seance, actor=fro.director)
    assert refused.value.code == "REG-25" and "centraliser" in str(refused.value)
    assert services.slips_centralise(seance=seance, desk=fro.desk, actor=fro[Role.CAISSIER_PRINCIPAL]) == 1
    assert seance_close(seance=seance, actor=fro.director).status == "closed"


def test_count_26_no_exchange_at_a_desk_without_its_change_register(fro):
    session = fro.session("TH1")
    slip = ravitaillement(fro, session, book(fro))
    other_desk = LocationFactory(establishment=fro.est, code="caisse-2", name="Caisse 2", kind="caisse_centrale")
    with pytest.raises(RuleViolation) as refused:
        services.slip_serve(slip=slip, desk=other_desk, actor=fro[Role.CAISSIER])
    assert refused.value.code == "REG-29"
    slip.refresh_from_db()
    assert slip.status == Slip.Status.WRITTEN


def test_count_26_reg_29_change_register_numbered_like_its_desk_paraphed_by_the_comptable_du_tresor(fro):
    register = current_register(fro.est, REGISTRE_CHANGE.code, fro.desk.code)
    assert register.qualifier == fro.desk.code and fro.desk.code.upper() in register.number
    assert register.entries.get(seq=1).role == Role.COMPTABLE_TRESOR


def test_count_04_mc_change_slip_signed_by_the_inspecteur_at_an_open_table(mco):
    change_book = book(mco, kind=SlipBook.Kind.CHANGE, number="C-1")
    session = mco.session("BJ1")
    plaque = [{"value": "5000", "quantity": 1, "kind": "plaque"}]
    with pytest.raises(RuleViolation) as refused:
        services.slip_write(
            book=change_book,
            number=1,
            session=session,
            requested=CHIPS,
            handed=plaque,
            actor=mco[Role.CHEF_TABLE],
            supervisor=mco[Role.CROUPIER],
        )
    assert refused.value.code == "COUNT-04"
    slip = services.slip_write(
        book=change_book,
        number=1,
        session=session,
        requested=CHIPS,
        handed=plaque,
        actor=mco[Role.CHEF_TABLE],
        supervisor=mco[Role.INSPECTEUR],
    )
    served = services.slip_serve(slip=slip, desk=mco.desk, actor=mco[Role.CAISSIER])
    assert served.served_by == mco[Role.CAISSIER]


def test_count_06_amb_32_mc_cercle_table_change_is_the_changeurs_not_a_chef_de_table_slip(mco):
    """Art. 17.2: at the cercle games the seated players' change is done by the changeur alone."""
    change_book = book(mco, kind=SlipBook.Kind.CHANGE, number="C-1")
    with pytest.raises(RuleViolation) as refused:
        services.slip_write(
            book=change_book,
            number=1,
            session=mco.session("CF1"),
            requested=CHIPS,
            handed=[{"value": "5000", "quantity": 1, "kind": "plaque"}],
            actor=mco[Role.CHEF_TABLE],
            supervisor=mco[Role.INSPECTEUR],
        )
    assert refused.value.code == "COUNT-06" and "changeur" in str(refused.value)
    assert not change_book.slips.exists()


def test_count_02_mc_no_change_slip_for_a_table_that_is_not_playing(mco):
    session = mco.session("BJ1", open_=False)
    with pytest.raises(RuleViolation) as refused:
        services.slip_write(
            book=book(mco, kind=SlipBook.Kind.CHANGE, number="C-1"),
            number=1,
            session=session,
            requested=CHIPS,
            handed=[{"value": "5000", "quantity": 1, "kind": "plaque"}],
            actor=mco[Role.CHEF_TABLE],
            supervisor=mco[Role.INSPECTEUR],
        )
    assert refused.value.code == "COUNT-02"


def test_count_06_mc_changeur_slip_signed_by_the_inspecteur(mco):
    session = mco.session("CF1")
    slip = services.slip_write(
        book=book(mco, kind=SlipBook.Kind.CHANGEUR, number="CH-1"),
        number=1,
        session=session,
        requested=CHIPS,
        handed=NOTES,
        actor=mco[Role.CHANGEUR],
        supervisor=mco[Role.INSPECTEUR],
    )
    assert slip.supervisor_role == Role.INSPECTEUR


def test_count_03_no_banknotes_requested_from_the_cash_desk(mco):
    session = mco.session("CF1")
    with pytest.raises(RuleViolation) as refused:
        services.slip_write(
            book=book(mco, kind=SlipBook.Kind.CHANGEUR, number="CH-1"),
            number=1,
            session=session,
            requested=NOTES,
            handed=CHIPS,
            actor=mco[Role.CHANGEUR],
            supervisor=mco[Role.INSPECTEUR],
        )
    assert refused.value.code == "COUNT-03"


def test_reg_14_slip_numbers_form_one_continuous_series_no_gap_no_reuse(fro):
    session, slip_book = fro.session("TH1"), book(fro)
    ravitaillement(fro, session, slip_book, number=1)
    with pytest.raises(RuleViolation) as reused:
        ravitaillement(fro, session, slip_book, number=1)
    assert reused.value.code == "COUNT-29" and "déjà été utilisé" in str(reused.value)
    with pytest.raises(RuleViolation) as gap:
        ravitaillement(fro, session, slip_book, number=3)
    assert "n° 2" in str(gap.value)
    with pytest.raises(ValidationError):
        ravitaillement(fro, session, slip_book, number=51)


def test_reg_14_a_void_needs_two_signatures_and_is_reported(fro):
    session, slip_book = fro.session("TH1"), book(fro)
    ravitaillement(fro, session, slip_book, number=1)
    with pytest.raises(ValidationError):
        services.slip_void(book=slip_book, number=2, actor=fro.director, cosigner=fro.director, reason="déchiré")
    with pytest.raises(ValidationError):
        services.slip_void(book=slip_book, number=2, actor=fro.director, cosigner=None, reason="déchiré")
    voided = services.slip_void(
        book=slip_book, number=2, actor=fro.director, cosigner=fro[Role.COMITE], reason="déchiré"
    )
    assert voided.status == Slip.Status.VOID and len(voided.voided_by) == 2
    assert ravitaillement(fro, session, slip_book, number=3).number == 3  # the series goes on after the void
    reported = [str(row["what"]) for row in selectors.slip_exceptions(fro.est)]
    assert "Bon annulé : déchiré" in reported and "47 bon(s) inutilisé(s) dans le carnet" in reported


def test_count_04_slip_not_served_at_the_end_of_the_partie_is_reported(fro):
    session = fro.session("TH1")
    ravitaillement(fro, session, book(fro))
    fro.close(session)
    assert "Bon non servi à la fin de la partie" in [str(row["what"]) for row in selectors.slip_exceptions(fro.est)]


def test_slip_books_are_kept_by_their_jurisdiction(fro):
    with pytest.raises(ValidationError):
        book(fro, kind=SlipBook.Kind.CHANGE)


@pytest.mark.parametrize(
    ("kind", "qualifier", "code"),
    [
        (REGISTRE_CHANGE.code, "caisse-1", "COUNT-26"),  # one change register per gaming cash desk
        (CARNET_AVANCES.code, "RA1", "COUNT-49"),  # one carnet d'avances per box
    ],
)
def test_count_26_count_49_a_second_open_volume_for_one_desk_or_box_refused(fro, kind, qualifier, code):
    first = current_register(fro.est, kind, qualifier)
    second = register_create(establishment=fro.est, kind=kind, qualifier=qualifier, actor=fro.director)
    paraph = fro.users[get_kind(kind).paraph_roles_for("FR")[0]]
    with pytest.raises(RuleViolation) as refused:
        register_open(register=second, actor=paraph, paraphe="PA")
    assert refused.value.code == code
    second.refresh_from_db()
    assert second.status == Register.Status.AWAITING_OPENING
    register_close(register=first, actor=fro.director)
    register_open(register=second, actor=paraph, paraphe="PA")
    assert current_register(fro.est, kind, qualifier) == second
