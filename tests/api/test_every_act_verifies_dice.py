"""Every write endpoint of the dice, keys, incidents, notifications and reports APIs driven through
its normal flow, each request in its own transaction as in production, then ``verify_ledgers``:
each act writes its entry, the entry names the objects the act wrote, and the registers and the
objects verify with no finding.

Monaco: a craps séance from the purchase order to the neutralisation of the used dice and the
SCJ's stock verification; the dice anomalies mailed, acknowledged by the sous-directeur, the SCJ's
information recorded, decided and closed; the roulette lid key out for the séance and back, a
socle key surrendered, the keys inventoried. France: a rampo séance from the police-visaed order
and the pairs cap to the destruction of a pair before the police; the anomaly acknowledged by the
police, decided and closed; the card cabinet key out for the séance and back, the keys
inventoried. In both, the séance closed, a printed register and the séance report asked for.

A write route of ``SCOPE`` that no flow below exercises fails the test; ``CANNOT_RUN`` lists,
with the reason, the only ones a test cannot reach."""

import datetime

import pytest
from django.utils import timezone

from ledgers.core.models import TableSession
from ledgers.core.roles import Role
from ledgers.core.services import seance_close, table_session_close
from ledgers.custody.models import DestructionSession
from ledgers.dice.models import Die
from ledgers.dice.rules import CHECKLIST
from ledgers.dice.selectors import stock_statement
from ledgers.incidents.models import Incident
from ledgers.notifications.models import Notice
from tests.api.acts import Acts, verify_every_act
from tests.dice.conftest import Org, fr_org, mc_org, open_table  # noqa: F401  (fixtures)
from tests.factories import DEFAULT_PASSWORD, LocationFactory, countersignature, make_user, notice_aged, open_register

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

SCOPE = ("api/v1/dice/", "api/v1/keys/", "api/v1/incidents/", "api/v1/notifications/", "api/v1/reports/")

CANNOT_RUN: dict[str, str] = {}

DICE, KEYS = "/api/v1/dice/", "/api/v1/keys/"
PASSED = {key: True for key in CHECKLIST}


def reachable(*users) -> None:
    """The people the texts name as told of an incident have an e-mail address."""
    for user in users:
        user.email = f"{user.username}@casino.example"
        user.save(update_fields=["email"])


def acknowledge(acts: Acts, user, incident: Incident) -> None:
    """The recipient acknowledges the e-mail that told them of the incident."""
    notice = Notice.objects.get(about=f"incidents.incident:{incident.pk}", mails__recipient=user)
    acts.post(user, f"/api/v1/notifications/{notice.pk}/acknowledge/")


def counted(org: Org) -> list[dict]:
    """What the SCJ or the police find in each place, here what the books say."""
    codes = dict(org.est.locations.values_list("pk", "code"))
    return [
        {"location": codes.get(location), "count": count}
        for (location, _category), count in stock_statement(org.est).by_location.items()
    ]


def monaco_dice(acts: Acts, org: Org) -> None:
    """A craps séance: ordered, received, moved to the annex depot, allocated under the sous-directeur's
    signature, a broken die swapped, checked at the end; the anomalies told and closed; the used
    dice neutralised before the inspector; the SCJ verifies the stock."""
    director, cartier, sd, chef = org["directeur_jeux"], org["cartier"], org["sous_directeur"], org["chef_table"]
    supplier = acts.post(director, f"{DICE}suppliers/", {"name": "Manufacture de dés"})
    order = acts.post(director, f"{DICE}orders/", {"supplier": supplier["id"], "quantity": 6})
    acts.post(director, f"{DICE}orders/{order['id']}/send/")
    serials = [f"CR-{n:03d}" for n in range(6)]
    acts.post(
        cartier,
        f"{DICE}receipts/",
        {
            "location": org.depot.code,
            "order": order["id"],
            "dice": [{"serial": serial, "sigle": "SBM", "inspection": PASSED} for serial in serials],
        },
    )
    acts.post(
        cartier,
        f"{DICE}transfers/",
        {"dice": serials[:5], "to_location": org.annex.code, "received_by": "Chef de table"},
    )
    acts.post(cartier, f"{DICE}annex-days/", {"date": timezone.localdate().isoformat()})

    session = org.session()
    acts.post(
        cartier,
        f"{DICE}allocations/new/",
        {"table_session": session.pk, "dice": serials[:5], **countersignature("signer", sd)},
    )
    open_table(org, session)
    acts.post(
        chef,
        f"{DICE}swaps/new/",
        {
            "table_session": session.pk,
            "withdrawn": ["CR-000"],
            "brought_in": ["CR-003"],
            "damaged": ["CR-000"],
            "reason": "damaged",
            "observations": "Dé fêlé après être tombé",
        },
    )
    acts.post(
        chef,
        "/api/v1/incidents/declare/",
        {
            "found_at": timezone.now().isoformat(),
            "table_session": session.pk,
            "description": "Contestation d'un coup",
        },
    )
    results = [{"serial": serial, "result": "ok"} for serial in serials[1:5]]
    acts.post(
        sd,
        f"{DICE}checks/new/",
        {
            "table_session": session.pk,
            "return_to": org.depot.code,
            "results": [{"serial": "CR-000", "result": "anomaly"}, *results],
            "observations": "Dé CR-000 fêlé, retiré en cours de partie",
        },
    )

    # Each anomaly: the sous-directeur acknowledges the e-mail, the SCJ told by phone is recorded,
    # the direction decides and closes.
    for incident in Incident.objects.filter(establishment=org.est, status=Incident.Status.OPEN):
        if incident.category == "dice_anomaly":
            acknowledge(acts, sd, incident)
        acts.post(
            director,
            f"/api/v1/incidents/{incident.pk}/notices/",
            {
                "recipient_role": Role.SCJ,
                "recipient_name": "Permanence du SCJ",
                "notified_at": timezone.now().isoformat(),
                "channel": "phone",
            },
        )
        acts.post(director, f"/api/v1/incidents/{incident.pk}/decision/", {"decision": "Dé détruit avec les usagés"})
        acts.post(director, f"/api/v1/incidents/{incident.pk}/close/")

    acts.post(cartier, f"{DICE}withdrawals/", {"dice": ["CR-005"], "reason": "used"})
    queue = list(
        Die.objects.filter(establishment=org.est, status__in=("out_of_use", "damaged")).values_list("serial", flat=True)
    )
    plan = acts.post(
        director,
        f"{DICE}destructions/new/",
        {"dice": queue, "method": "neutralisation", "planned_at": timezone.now().isoformat()},
    )
    acts.post(director, f"{DICE}destructions/{plan['id']}/notify/", {"channel": "email", "reference": "courriel"})
    notice_aged(DestructionSession.objects.get(pk=plan["id"]))
    acts.post(
        director,
        f"{DICE}destructions/{plan['id']}/complete/",
        {**countersignature("inspector", org["inspecteur"]), **countersignature("witness", org["scj"])},
    )
    acts.post(org["scj"], f"{DICE}verifications/", {"counted": counted(org), "orders_seen": [order["id"]]})


def france_dice(acts: Acts, org: Org) -> None:
    """A rampo séance: the order visaed by the police, received in pairs, the pairs cap set, two
    pairs allocated under a comité member's signature, the reserve pair brought into play, checked
    with the instruments (one die off balance); the police acknowledges the anomaly, the Direction
    decides and closes; the reserve pair destroyed before the police."""
    director, police, employee = org["directeur_responsable"], org["police"], org["employe_responsable"]
    supplier = acts.post(
        director,
        f"{DICE}suppliers/",
        {
            "name": "Dés agréés SA",
            "approval_reference": "Agrément 2024-07",
            "approval_issuer": "Ministre de l'intérieur",
            "approved_from": "2024-01-01",
        },
    )
    acts.post(
        director,
        f"{DICE}suppliers/{supplier['id']}/approval/",
        {"approval_reference": "Agrément 2026-02", "approval_issuer": "Ministre de l'intérieur"},
    )
    order = acts.post(director, f"{DICE}orders/", {"supplier": supplier["id"], "carnet": "21-004", "quantity": 2})
    acts.post(police, f"{DICE}orders/{order['id']}/visa/", {"statement": "Vu, commissaire Vidal"})
    acts.post(director, f"{DICE}orders/{order['id']}/send/")
    colours = ("rouge", "vert", "jaune", "bleu")
    dice = [
        {
            "serial": f"R-{n:02d}",
            "sigle": "CNI",
            "colour": colour,
            "side_mm": "22.00",
            "pair": str((n - 1) // 2),
            "inspection": PASSED,
        }
        for n, colour in enumerate(colours, start=1)
    ]
    received = acts.post(employee, f"{DICE}receipts/", {"location": org.depot.code, "order": order["id"], "dice": dice})
    pairs = sorted({die["pair"] for die in received})
    acts.post(director, f"{DICE}pairs-cap/", {"max_pairs": 20, "reference": "Décision du ministre du 2 mars 2026"})

    session = org.session()
    acts.post(
        org["chef_table"],
        f"{DICE}allocations/new/",
        {"table_session": session.pk, "pairs": pairs, **countersignature("signer", org["comite"])},
    )
    open_table(org, session)
    reserve = [die["serial"] for die in received if die["pair"] == pairs[1]]
    acts.post(
        org["chef_table"],
        f"{DICE}swaps/new/",
        {"table_session": session.pk, "brought_in": reserve, "reason": "shooter"},
    )
    acts.post(
        director,
        f"{DICE}checks/new/",
        {
            "table_session": session.pk,
            "return_to": org.depot.code,
            "results": [
                {
                    "serial": die["serial"],
                    "micrometer": "22,0",
                    "square_ok": True,
                    "balance_ok": die["serial"] != "R-04",
                }
                for die in received
            ],
            "instruments": {"micrometer": "MIC-7", "square": "EQ-2", "balance": "BC-1"},
            **countersignature("cosigner", org["chef_table"]),
        },
    )

    incident = Incident.objects.get(establishment=org.est, status=Incident.Status.OPEN)
    acknowledge(acts, police, incident)
    acts.post(director, f"/api/v1/incidents/{incident.pk}/decision/", {"decision": "Paire retirée et détruite"})
    acts.post(director, f"/api/v1/incidents/{incident.pk}/close/")

    acts.post(employee, f"{DICE}withdrawals/", {"dice": ["R-03"], "reason": "used"})
    plan = acts.post(
        director,
        f"{DICE}destructions/new/",
        {"dice": reserve, "method": "destruction", "planned_at": timezone.now().isoformat()},
    )
    acts.post(
        director,
        f"{DICE}destructions/{plan['id']}/complete/",
        {"loaded": False, "tampered": False, "police_service": "DTPJ Nice", **countersignature("witness", police)},
    )


def enter(acts: Acts, director, code: str, lock_type: str, opens: str, **custody) -> dict:
    """The key entered in the register with its home or custodian."""
    return acts.post(director, f"{KEYS}keys/new/", {"code": code, "lock_type": lock_type, "opens": opens, **custody})


def inventory(acts: Acts, org: Org, director) -> None:
    """The blind inventory: every copy of every key found where it belongs."""
    counted = [{"key": key.pk, "copies": key.copies} for key in org.est.keys.all()]
    acts.post(director, f"{KEYS}inventories/", {"counted": counted, "password": DEFAULT_PASSWORD})


def out_and_back(acts: Acts, org: Org, key: dict, giver, holder) -> None:
    """The key handed over for the séance, the holder signing, then taken back from them."""
    issue = acts.post(
        giver,
        f"{KEYS}issues/new/",
        {
            "key": key["id"],
            "purpose_type": "core.seance",
            "purpose_id": org.seance().pk,
            "due_at": (timezone.now() + datetime.timedelta(hours=6)).isoformat(),
            "password": DEFAULT_PASSWORD,
            **countersignature("holder", holder),
        },
    )
    acts.post(
        giver,
        f"{KEYS}issues/{issue['id']}/return/",
        {"password": DEFAULT_PASSWORD, **countersignature("holder", holder)},
    )


def monaco_keys(acts: Acts, org: Org) -> None:
    """The roulette lid key, held by the inspector, out for the séance and back; a socle out of
    operation surrendered with its key to the caissier principal; the blind inventory."""
    open_register(org.est, "registre_cles")
    caisse = LocationFactory(
        establishment=org.est, code="caisse-centrale", name="Caisse centrale", kind="caisse_centrale"
    )
    caissier_principal = make_user(org.est, Role.CAISSIER_PRINCIPAL, username=f"caissier_principal-{org.est.code}")
    director, inspector = org["directeur_jeux"], org["inspecteur"]
    lid = enter(acts, director, "CYL-1", "cylinder_lid", "Couvercle du cylindre de la R1", custodian=inspector.username)
    socle = enter(acts, director, "S-12", "socle", "Socle 12", home=caisse.pk)
    out_and_back(acts, org, lid, director, inspector)
    acts.post(
        director,
        f"{KEYS}surrenders/",
        {
            "key": socle["id"],
            "socle_ref": "Socle 12",
            "lock_ref": "Serrure 12-A",
            "reason": "Socle déposé pour réparation",
            "password": DEFAULT_PASSWORD,
            **countersignature("receiver", caissier_principal),
        },
    )
    inventory(acts, org, director)


def france_keys(acts: Acts, org: Org) -> None:
    """The card cabinet's single key, held by the directeur responsable, lent to a comité member for
    the séance and back; the blind inventory."""
    open_register(org.est, "registre_cles")
    director, comite = org["directeur_responsable"], org["comite"]
    cabinet = enter(
        acts, director, "ARM-1", "card_cabinet", str(org.depot), asset_ref=org.depot.code, custodian=director.username
    )
    out_and_back(acts, org, cabinet, director, comite)
    inventory(acts, org, director)


def reports(acts: Acts, org: Org, reader) -> None:
    """The tables and the séance closed, the reader asks for a printed register and the séance report."""
    seance = org.seance()
    for session in seance.table_sessions.exclude(status=TableSession.Status.CLOSED):
        table_session_close(session=session, actor=org["chef_table"])
    manager = org["directeur_responsable"] if org.est.jurisdiction == "FR" else org["sous_directeur"]
    seance_close(seance=seance, actor=manager)
    register = org.registers["incidents"]
    acts.post(reader, "/api/v1/reports/", {"kind": "register", "register": register.number, "lang": "fr"})
    acts.post(reader, "/api/v1/reports/", {"kind": "daily", "seance": seance.pk})


def test_reg_20_every_act_in_its_own_transaction_leaves_registers_that_verify(mc_org, fr_org, settings, tmp_path):  # noqa: F811
    settings.MEDIA_ROOT = tmp_path / "media"
    reachable(mc_org["sous_directeur"], mc_org["scj"], fr_org["police"])
    acts = Acts()
    monaco_dice(acts, mc_org)
    monaco_keys(acts, mc_org)
    reports(acts, mc_org, mc_org["scj"])
    france_dice(acts, fr_org)
    france_keys(acts, fr_org)
    reports(acts, fr_org, fr_org["directeur_responsable"])

    verify_every_act(acts, SCOPE, CANNOT_RUN)
