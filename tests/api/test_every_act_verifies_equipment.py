"""Every write endpoint of the equipment API driven through its normal flow, each request in its
own transaction as in production, then ``verify_ledgers``: each act writes its entry, the entry
names the objects the act wrote, and the registers and the objects verify with no finding.

Monaco: sabots from intake to neutralisation with the SCJ informed, a shuffler-dealer at blackjack
with its pause and malfunction, a roulette cylinder with its pre-séance check, its ordre de
roulement, its launcher and its lid. France: sabots from intake to destruction before the police,
a shuffler at Texas hold'em, a wheel of fortune with its check by a comité member and the croupier.

A write route of ``SCOPE`` that no flow below exercises fails the test; ``CANNOT_RUN`` lists,
with the reason, the only ones a test cannot reach."""

from types import SimpleNamespace

import pytest
from django.utils import timezone

from ledgers.core.roles import Role
from ledgers.core.services import table_session_open
from ledgers.equipment.models import ApprovedModel, MachineType, WheelKind
from ledgers.equipment.specs import TEXT_SPECS
from ledgers.incidents.models import Incident
from tests.api.acts import Acts, verify_every_act
from tests.equipment.conftest import fr_org, incident_cleared, mc_org, seance, session
from tests.factories import countersignature, make_user, notice_aged

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

SCOPE = ("api/v1/equipment/",)

CANNOT_RUN: dict[str, str] = {}


def models(acts: Acts, org: SimpleNamespace, issuer: str) -> tuple[dict, dict]:
    """An approved sabot model and an approved shuffler model, recorded by the director."""
    return tuple(
        acts.post(
            org.director,
            "/api/v1/equipment/models/register/",
            {
                "kind": kind,
                "manufacturer": maker,
                "name": name,
                "approval_reference": reference,
                "approval_issuer": issuer,
                "approved_on": "2025-01-15",
            },
        )
        for kind, maker, name, reference in (
            (ApprovedModel.Kind.SHOE, "Cartamundi", "Sabot 6 jeux", "AM-2019-041"),
            (ApprovedModel.Kind.SHUFFLER, "Shuffle Master", "MD3", "AGR-77"),
        )
    )


# Who keeps the sabots, who takes one to a table, who puts it back, and where they are kept.
SABOT_HANDS = {
    "MC": (Role.CARTIER, Role.CARTIER, Role.INSPECTEUR, "depot-principal"),
    "FR": (Role.EMPLOYE_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, Role.DIRECTEUR_RESPONSABLE, "armoire-sabots"),
}


def sabots(acts: Acts, org: SimpleNamespace, model: dict, table) -> int:
    """Two sabots received; the first corrected, put in service at ``table`` and put back; the
    second declared out of use. Returns the second."""
    keeper, allocator, returner, cabinet = SABOT_HANDS[org.est.jurisdiction]
    keeper, allocator, returner = org.users[keeper], org.users[allocator], org.users[returner]
    received = acts.post(
        keeper,
        "/api/v1/equipment/shoes/receive/",
        {
            "model": model["id"],
            "location": org.locations[cabinet].pk,
            "shoes": [{"number": "S1", "maker_serial": "CM-1"}, {"number": "S2", "maker_serial": "CM-2"}],
            "delivery_note": "BL 2026-114",
        },
    )
    first, second = (shoe["id"] for shoe in received)
    acts.post(
        keeper,
        f"/api/v1/equipment/shoes/{first}/update/",
        {"number": "S1", "model": model["id"], "maker_serial": "CM-01"},
    )
    acts.post(allocator, "/api/v1/equipment/shoes/allocate/", {"table_session": table.pk, "shoe": first})
    acts.post(
        returner,
        "/api/v1/equipment/shoes/return/",
        {"shoes": [first], "to_location": org.locations[cabinet].pk, "returned_by": "Le croupier"},
    )
    acts.post(
        keeper,
        f"/api/v1/equipment/shoes/{second}/withdraw/",
        {"reason": "Orifice ébréché", "to_location": org.locations[cabinet].pk},
    )
    return second


def destroyed(acts: Acts, org: SimpleNamespace, shoe: int, *, method: str, witness, scj_informed: bool = False):
    """A withdrawn sabot's destruction planned and performed by the director before ``witness``;
    MC: the SCJ informed beforehand, its notice period (SET-05) run."""
    plan = acts.post(
        org.director,
        "/api/v1/equipment/destructions/plan/",
        {"method": method, "planned_at": timezone.now().isoformat(), "shoes": [shoe]},
    )
    if scj_informed:
        acts.post(
            org.director,
            f"/api/v1/equipment/destructions/{plan['id']}/notify/",
            {"channel": "email", "reference": "SCJ-12"},
        )
        notice_aged(SimpleNamespace(pk=plan["id"]))
    acts.post(
        org.director,
        f"/api/v1/equipment/destructions/{plan['id']}/complete/",
        {**countersignature("witness", witness), "observations": "Sabot hors d'usage"},
    )


def shuffler_installed(acts: Acts, org: SimpleNamespace, model: dict, table: str) -> dict:
    """A shuffler-dealer registered, put into service and fixed on the socle of ``table``."""
    machine = acts.post(
        org.director,
        "/api/v1/equipment/shufflers/register/",
        {"number": "M1", "serial": "SER-M1", "model": model["id"], "machine_type": MachineType.CONTINUOUS},
    )
    acts.post(
        org.director,
        f"/api/v1/equipment/shufflers/{machine['id']}/commission/",
        {"card_access_protection": True, "malfunction_signal": True, "observations": "Cache et voyant présents"},
    )
    socle = acts.post(org.director, "/api/v1/equipment/socles/", {"table": org.tables[table].pk, "code": f"S-{table}"})
    acts.post(org.director, f"/api/v1/equipment/shufflers/{machine['id']}/mount/", {"socle": socle["id"]})
    return machine


def shuffler_used(acts: Acts, org: SimpleNamespace, machine: dict, table_session, *, paused_by=None, **closing):
    """The shuffler started by the croupier for the séance and stopped at its end, hood opened and
    empty; MC: in between, the table open, a pause with the cover fitted recorded by ``paused_by``."""
    croupier = org.users[Role.CROUPIER]
    use = acts.post(
        croupier,
        "/api/v1/equipment/shuffler-uses/start/",
        {"table_session": table_session.pk, "shuffler": machine["id"]},
    )
    if paused_by is not None:
        table_session_open(session=table_session, actor=org.director)
        acts.post(paused_by, f"/api/v1/equipment/shuffler-uses/{use['id']}/pause/")
    acts.post(
        croupier,
        f"/api/v1/equipment/shuffler-uses/{use['id']}/end/",
        {"hood_opened": True, "empty": True, **closing},
    )


def shuffler_out_and_back(acts: Acts, org: SimpleNamespace, machine: dict, table_session, *, reporter, notified):
    """A malfunction reported at the table, its incident cleared, the machine back in service and
    taken off its socle."""
    acts.post(
        reporter,
        f"/api/v1/equipment/shufflers/{machine['id']}/malfunction/",
        {
            "description": "Voyant rouge allumé, cartes bloquées",
            "action_taken": "Cartes récupérées et contrôlées",
            "table_session": table_session.pk,
        },
    )
    incident = Incident.objects.get(establishment=org.est, requirement="INC-07")
    incident_cleared(org, incident, reporter=reporter, notified=notified, decision="Machine révisée.")
    acts.post(org.director, f"/api/v1/equipment/shufflers/{machine['id']}/return-to-service/")
    acts.post(org.director, f"/api/v1/equipment/shufflers/{machine['id']}/unmount/")


def wheel_installed(acts: Acts, org: SimpleNamespace, kind: str, table: str) -> None:
    """A wheel registered with the text's specification, put into service and installed at ``table``."""
    wheel = acts.post(
        org.director,
        "/api/v1/equipment/wheels/register/",
        {"number": f"W-{table}", "serial": f"SN-{table}", "kind": kind, "spec": TEXT_SPECS[kind]},
    )
    acts.post(org.director, f"/api/v1/equipment/wheels/{wheel['id']}/commission/")
    acts.post(org.director, f"/api/v1/equipment/wheels/{wheel['id']}/install/", {"table": org.tables[table].pk})


def monaco(acts: Acts, mco: SimpleNamespace) -> None:
    """Sabots, a shuffler-dealer at blackjack and a roulette of a Monaco casino over one séance."""
    users = mco.users
    shoe_model, shuffler_model = models(acts, mco, "Ministre d'État")
    evening = seance(mco)
    withdrawn = sabots(acts, mco, shoe_model, session(mco, "PB1", evening))
    destroyed(acts, mco, withdrawn, method="neutralisation", witness=users[Role.SCJ], scj_informed=True)

    machine = shuffler_installed(acts, mco, shuffler_model, "BJ1")
    blackjack = session(mco, "BJ1", evening)
    shuffler_used(
        acts, mco, machine, blackjack, paused_by=users[Role.CHEF_TABLE], cards_removed=True, disconnected=True
    )
    shuffler_out_and_back(acts, mco, machine, blackjack, reporter=users[Role.CROUPIER], notified=Role.INSPECTEUR)

    wheel_installed(acts, mco, WheelKind.ROULETTE_EUROPEENNE, "R1")
    roulette = session(mco, "R1", evening)
    acts.post(
        users[Role.ENTRETIEN],
        "/api/v1/equipment/wheel-checks/record/",
        {
            "table_session": roulette.pk,
            "points": ["Pivot", "Cloisons", "Obstacles"],
            "passed": True,
            **countersignature("cosigner", users[Role.INSPECTEUR]),
        },
    )
    table_session_open(session=roulette, actor=mco.director)
    relief = make_user(mco.est, Role.CROUPIER, username="croupier-relief")
    acts.post(
        users[Role.SOUS_DIRECTEUR],
        "/api/v1/equipment/launch-rosters/set/",
        {"table_session": roulette.pk, "croupiers": [users[Role.CROUPIER].pk, relief.pk], "note": "Soirée"},
    )
    acts.post(
        users[Role.CHEF_TABLE],
        "/api/v1/equipment/launch-turns/record/",
        {"table_session": roulette.pk, "launcher": users[Role.CROUPIER].pk},
    )
    acts.post(
        users[Role.CHEF_TABLE],
        "/api/v1/equipment/lid-locks/",
        {"table_session": roulette.pk, **countersignature("key_holder", users[Role.INSPECTEUR])},
    )


def france(acts: Acts, fro: SimpleNamespace) -> None:
    """Sabots, a shuffler at Texas hold'em and a wheel of fortune of a French casino over one séance."""
    users = fro.users
    shoe_model, shuffler_model = models(acts, fro, "Ministre de l'intérieur")
    evening = seance(fro)
    withdrawn = sabots(acts, fro, shoe_model, session(fro, "PB1", evening))
    destroyed(acts, fro, withdrawn, method="destruction", witness=users[Role.POLICE])

    machine = shuffler_installed(acts, fro, shuffler_model, "TH1")
    holdem = session(fro, "TH1", evening)
    shuffler_used(acts, fro, machine, holdem)
    shuffler_out_and_back(acts, fro, machine, holdem, reporter=users[Role.CROUPIER], notified=Role.CHEF_TABLE)

    wheel_installed(acts, fro, WheelKind.ROUE_CHANCE, "RC1")
    acts.post(
        users[Role.COMITE],
        "/api/v1/equipment/wheel-checks/record/",
        {
            "table_session": session(fro, "RC1", evening).pk,
            "points": ["Segments", "Frein"],
            "passed": True,
            **countersignature("cosigner", users[Role.CROUPIER]),
        },
    )


def test_shoe_03_every_equipment_act_in_its_own_transaction_leaves_registers_that_verify(mc, fr):
    acts = Acts()
    monaco(acts, mc_org(mc))
    france(acts, fr_org(fr))

    verify_every_act(acts, SCOPE, CANNOT_RUN)
