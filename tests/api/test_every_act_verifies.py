"""Every write endpoint of the authorities' API driven through its normal flow, each request in
its own transaction as in production, then ``verify_ledgers``: each act writes its entry, the
entry names the objects the act wrote, and the registers and the objects verify with no finding.

A write route of ``SCOPE`` that no flow below exercises fails the test; ``CANNOT_RUN`` lists,
with the reason, the only ones a test cannot reach."""

import datetime
from types import SimpleNamespace

import pytest
from django.utils import timezone

from ledgers.authority.models import Declaration
from ledgers.authority.retention import period_of
from ledgers.core.models import TableSession
from ledgers.core.roles import Role
from ledgers.core.services import seance_open, table_session_open, table_session_prepare
from ledgers.equipment.services import wheels
from ledgers.equipment.specs import TEXT_SPECS, WHEEL_FOR_GAME
from ledgers.reports.sealing import demo_certificate_create
from tests import sabots
from tests.api.acts import Acts, verify_every_act
from tests.authority.conftest import FR_CAST, MC_CAST, cast
from tests.factories import make_user, open_register, open_seance_registers, set_up_table

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

SCOPE = ("api/v1/authority/",)

CANNOT_RUN = {
    "api/v1/authority/purges/": "a clearance needs a register past its retention term: the current period and "
    "the ten before (REG-43), eleven years of entries that a test cannot write at their dates",
}

TODAY = timezone.localdate()


def open_roulette(mco: SimpleNamespace) -> TableSession:
    """The roulette R1 opened in tonight's séance through the services: its wheel in service and
    checked before the séance by the maintenance staff with an inspecteur (WHEEL-06)."""
    director, table = mco.directeur_jeux, mco.est.tables.get(number="R1")
    sabots.open_equipment_volumes(mco.est, {role: getattr(mco, role) for role in MC_CAST}, director=director)
    kind = WHEEL_FOR_GAME[table.game]
    wheel = wheels.wheel_register(
        establishment=mco.est, number="W-R1", kind=kind, spec=TEXT_SPECS[kind], actor=director
    )
    wheels.wheel_install(wheel=wheels.wheel_commission(wheel=wheel, actor=director), table=table, actor=director)
    open_seance_registers(mco.est)
    seance = seance_open(establishment=mco.est, date=TODAY, period="soiree", actor=director)
    roulette = table_session_prepare(seance=seance, table=table, actor=director)
    wheels.wheel_check_record(
        session=roulette,
        actor=make_user(mco.est, Role.ENTRETIEN),
        cosigner=mco.inspecteur,
        points=["Pivot"],
        passed=True,
    )
    return table_session_open(session=roulette, actor=director)


def monaco(acts: Acts, mco: SimpleNamespace) -> None:
    """Approved bankers, complex called bets and the split-aces progressive of a Monaco casino."""
    for kind in ("banquiers_agrees", "annonces_complexes", "progressif_split_aces"):
        open_register(mco.est, kind)
    for number, game in (("BJ1", "blackjack"), ("BJ2", "blackjack"), ("R1", "roulette")):
        set_up_table(mco.est, number, game)
    roulette = open_roulette(mco)
    seance = roulette.seance
    chef_table = make_user(mco.est, Role.CHEF_TABLE)

    banker = acts.post(
        mco.directeur_jeux,
        "/api/v1/authority/bankers/",
        {
            "full_name": "Jean Banquier",
            "birth_date": "1970-05-01",
            "identity_document": "CNI 99",
            "approved_on": TODAY.isoformat(),
        },
    )
    acts.post(mco.directeur_jeux, f"/api/v1/authority/bankers/{banker['id']}/withdraw/", {"on": TODAY.isoformat()})
    bet = acts.post(
        chef_table,
        "/api/v1/authority/called-bets/",
        {"table_session": roulette.pk, "content": "Orphelins à cheval", "inspecteur": mco.inspecteur.pk},
    )
    acts.post(mco.directeur_jeux, f"/api/v1/authority/called-bets/{bet['id']}/scj-notices/", {"channel": "courriel"})
    acts.post(mco.directeur_jeux, f"/api/v1/authority/called-bets/{bet['id']}/visa/", {})
    acts.post(
        mco.directeur_jeux,
        "/api/v1/authority/split-aces/configs/",
        {
            "effective_from": TODAY.isoformat(),
            "combinations": "Deux as séparés",
            "stake": "5",
            "percentage": "10",
            "tables": ["BJ1", "BJ2"],
        },
    )
    acts.post(
        mco.inspecteur,
        "/api/v1/authority/split-aces/readings/",
        {"seance": seance.pk, "moment": "opening", "amount": "1000"},
    )
    acts.post(
        mco.inspecteur,
        "/api/v1/authority/split-aces/payouts/",
        {"seance": seance.pk, "table": "BJ1", "amount": "50", "winner": "M. X"},
    )


def france(acts: Acts, fro: SimpleNamespace) -> None:
    """The police registers, the arrêté d'autorisation and its amendment following a prior declaration,
    posted rules and the season's archive of a French casino."""
    for kind in (
        "observations_police",
        "registre_liaison",
        "informations_autorites",
        "declarations_prealables",
        "reglement_interieur",
        "affichages_reglementaires",
        "autorisations_jeux",
    ):
        open_register(fro.est, kind)
    arrete = {
        "reference": "Arrêté du 2 mars 2026",
        "signed_on": (TODAY - datetime.timedelta(days=30)).isoformat(),
        "effective_from": (TODAY - datetime.timedelta(days=30)).isoformat(),
        "total_tables": 2,
        "games": [{"game": "blackjack", "tables": 1}, {"game": "ultimate_holdem", "tables": 1, "minimum_stake": "10"}],
    }
    acts.post(fro.directeur_responsable, "/api/v1/authority/arretes/", arrete)
    set_up_table(fro.est, "BJ1", "blackjack")
    set_up_table(fro.est, "UT1", "ultimate_holdem")

    observation = acts.post(
        fro.police,
        "/api/v1/authority/observations/",
        {
            "visited_at": timezone.now().isoformat(),
            "agents": "B. Martin",
            "operations": "Contrôle",
            "nature": "instruction",
            "text": "Afficher le règlement.",
        },
    )
    acts.post(
        fro.directeur_responsable,
        f"/api/v1/authority/observations/{observation['id']}/follow-up/",
        {"text": "Affiché."},
    )
    question = acts.post(
        fro.directeur_responsable,
        "/api/v1/authority/liaison/",
        {"subject": "Art. 43", "question": "Encaisse en salle ?"},
    )
    acts.post(
        fro.chef_police, f"/api/v1/authority/liaison/{question['id']}/answer/", {"answer": "Validation préalable."}
    )
    declaration = acts.post(
        fro.directeur_responsable,
        "/api/v1/authority/declarations/",
        {
            "operation": "3",
            "details": "Ouverture du three card poker",
            "sent_on": TODAY.isoformat(),
            "recipients": Declaration.Recipient.values,
            "proof": "LRAR",
            "implementation_date": (TODAY + datetime.timedelta(days=15)).isoformat(),
        },
    )
    acts.post(
        fro.directeur_responsable,
        f"/api/v1/authority/declarations/{declaration['id']}/follow-up/",
        {"follow_up": Declaration.FollowUp.NOT_NEEDED},
    )
    amendment = {**arrete, "reference": "Arrêté modificatif", "total_tables": 3, "follows": declaration["id"]}
    acts.post(
        fro.directeur_responsable, "/api/v1/authority/arretes/", {**amendment, "effective_from": TODAY.isoformat()}
    )
    acts.post(
        fro.directeur_responsable,
        "/api/v1/authority/house-rules/",
        {"effective_from": TODAY.isoformat(), "reference": "R1", "options": ["surrender"]},
    )
    acts.post(
        fro.directeur_responsable,
        "/api/v1/authority/table-options/",
        {"table": "BJ1", "house_option": "surrender", "enabled": True},
    )
    acts.post(
        fro.comite, "/api/v1/authority/displays/", {"table": "UT1", "item": "art_55_20", "posted_on": TODAY.isoformat()}
    )
    demo_certificate_create(fro.est)
    season = period_of(fro.est, TODAY) - 1  # the last closed period
    acts.post(fro.directeur_responsable, "/api/v1/authority/archives/", {"season": season})


def test_reg_20_every_write_endpoint_in_its_own_transaction_leaves_registers_that_verify(mc, fr, settings, tmp_path):
    settings.MEDIA_ROOT, settings.LEDGERS_SEAL_DEMO_DIR = tmp_path / "media", tmp_path / "seal"
    acts = Acts()
    monaco(acts, cast(mc, MC_CAST))
    france(acts, cast(fr, FR_CAST))

    verify_every_act(acts, SCOPE, CANNOT_RUN)
