"""Every write endpoint of the slot machines' jackpots and cash desk driven through its normal flow,
each request in its own transaction as in production, then ``verify_ledgers``: each act writes its
entry, the entry names the objects the act wrote, and the registers and the objects verify with no
finding.

Monaco: the itinerant changeur assigned for the séance and the change he gives (SLOT-21), a manual
jackpot paid by the superviseur (SLOT-22), a top-up (SLOT-20) and an orphan (SLOT-19). France: the
cash desk's encaisse assigned, justified, restored and closed (SLOT-48, SLOT-49), the common desk
(SLOT-26), the counterfeit box (SLOT-45), the jackpot paid on a bon controlled by the comité member
and posted to modèle 29 (SLOT-35, SLOT-55), the progressive jackpots (SLOT-36, SLOT-37), the JPM
and its modèle 28 S (SLOT-38 to SLOT-41) and the TITO tickets (SLOT-44).

A write route of ``SCOPE`` that no flow below exercises fails the test; ``CANNOT_RUN`` lists,
with the reason, the only ones a test cannot reach."""

import datetime

import pytest
from django.utils import timezone

from ledgers.core.services import seance_open
from ledgers.slots.services import cashdesk
from tests.api.acts import Acts, verify_every_act
from tests.factories import DEFAULT_PASSWORD, make_user, open_register, open_seance_registers

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

SCOPE = tuple(
    f"api/v1/slots/{prefix}"
    for prefix in (
        "jpm",
        "progressives",
        "tickets",
        "change-points",
        "assignments",
        "counterfeits",
        "top-ups",
        "orphans",
        "jackpots",
        "common-desks",
        "carnet",
    )
)

CANNOT_RUN: dict[str, str] = {}

API = "/api/v1/slots/"
TODAY = timezone.localdate()
# The JPM's machines are identical (SLOT-38).
IDENTITY = {"maker": "Aristocrat", "machine_type": "Vidéo rouleaux", "game_name": "Lightning Link"}


def _days(n: int) -> datetime.date:
    return TODAY + datetime.timedelta(days=n)


def monaco(acts: Acts, room) -> None:
    """The itinerant changeur of the séance, a manual jackpot, a top-up and an orphan."""
    open_register(room.est, "slot_caisse")
    open_seance_registers(room.est)
    seance = seance_open(establishment=room.est, date=TODAY, period="soiree", actor=room["directeur_jeux"])
    changeur = make_user(room.est, "changeur", username=f"changeur-{room.est.code}")
    machine = room.on_floor()

    point = acts.post(
        room.keeper,
        f"{API}change-points/",
        {"kind": "itinerant", "name": "Changeur rangée A", "fixed_sum": "2000.00"},
    )
    acts.post(
        room["superviseur"],
        f"{API}change-points/{point['id']}/assignments/",
        {"seance": seance.pk, "person": changeur.pk},
    )
    acts.post(changeur, f"{API}change-points/{point['id']}/changes/", {"amount": "20.00", "given": "legal_tender"})
    acts.post(
        room["superviseur"],
        f"{API}jackpots/",
        {"machine": machine.pk, "amount": "150.00", "method": "cash", "combination": "3 BAR"},
    )
    acts.post(
        room["superviseur"],
        f"{API}top-ups/",
        {
            "machine": machine.pk,
            "combination": "3 BAR",
            "amount_due": "100.00",
            "paid_by_machine": "60.00",
            "difference": "40.00",
            "customer": "M. X",
            "mechanic_opinion": "Trémie vide",
        },
    )
    acts.post(
        room["superviseur"],
        f"{API}orphans/",
        {
            "kind": "credits",
            "amount": "12.50",
            "machine": machine.pk,
            "disposal": "Versé à la caisse",
            "taken_by": "Client au poste 12",
        },
    )


def _carnet_machine(room, **identity):
    """A machine on the floor with its carnet de comptabilité modèle 29 (SLOT-55)."""
    machine = room.on_floor(**identity)
    open_register(room.est, "slot_comptabilite_29", machine.casino_number)
    return machine


def _visa(room) -> dict:
    """The writer's signature and the comité member's visa (REG-28)."""
    return {
        "password": DEFAULT_PASSWORD,
        "comite_username": room["comite"].username,
        "comite_password": DEFAULT_PASSWORD,
    }


def france_cash_desk(acts: Acts, room, seance) -> None:
    """The cash desk's encaisse, the common desk and the counterfeit box."""
    desk = acts.post(
        room.keeper,
        f"{API}change-points/",
        {"kind": "desk", "name": "Caisse machines", "cash": "100.00", "chips": "50.00"},
    )
    assignment = acts.post(
        room.keeper,
        f"{API}change-points/{desk['id']}/assignments/",
        {"seance": seance.pk, "person": room["caissier"].pk},
    )
    cashier = room["caissier"]
    acts.post(
        cashier, f"{API}assignments/{assignment['id']}/justifications/", {"items": {"cash": "100.00", "chips": "50.00"}}
    )
    acts.post(
        cashier,
        f"{API}assignments/{assignment['id']}/restorations/",
        {"cash": "90.00", "chips": "50.00", "counterpart": "central"},
    )
    acts.post(cashier, f"{API}assignments/{assignment['id']}/close/", {"cash": "10.00", "chips": "0"})

    common = acts.post(
        room.keeper,
        f"{API}common-desks/",
        {
            "name": "Caisse commune",
            "route": "a",
            "contiguous_tables": True,
            "validation_reference": "PJ-2026-14",
            "validation_date": _days(-3).isoformat(),
            "validator_name": "Commissaire Martin",
            "cash": "500.00",
            "chips": "500.00",
        },
    )
    acts.post(
        room.keeper, f"{API}change-points/{common['point']}/assignments/", {"seance": seance.pk, "person": cashier.pk}
    )
    acts.post(
        cashier,
        f"{API}change-points/{common['point']}/changes/",
        {"amount": "10.00", "given": "chips", "account": "slot"},
    )

    # A coin found at a count of the financial year now ended, in the box since (set-up: the API
    # records what is found now); the one found today is kept until the next year end.
    ended = cashdesk.financial_year_end(room.est, TODAY)
    if ended > TODAY:
        ended = ended.replace(year=ended.year - 1)
    cashdesk.counterfeit_deposit(
        establishment=room.est,
        kind="counterfeit",
        description="2 € faux",
        quantity=3,
        found_during="count",
        found_by=room["employe_jeux"],
        actor=cashier,
        found_at=timezone.make_aware(datetime.datetime.combine(ended - datetime.timedelta(days=10), datetime.time(12))),
    )
    acts.post(
        cashier,
        f"{API}counterfeits/",
        {
            "kind": "foreign",
            "description": "1 CHF",
            "quantity": 1,
            "found_during": "packaging",
            "found_by": room["employe_jeux"].pk,
        },
    )
    acts.post(room["comite"], f"{API}counterfeits/destructions/", {"controller_name": "M. Trésor"})


def france_jackpots(acts: Acts, room) -> None:
    """A jackpot paid on a bon and posted to modèle 29; the progressive jackpots, the JPM and the
    TITO tickets."""
    cashier, comite = room["caissier"], room["comite"]
    paid = _carnet_machine(room)
    payment = acts.post(
        cashier,
        f"{API}jackpots/",
        {
            "machine": paid.pk,
            "amount": "800.00",
            "method": "cash",
            "combination": "7-7-7",
            "controller_username": comite.username,
            "controller_password": DEFAULT_PASSWORD,
        },
    )
    acts.post(cashier, f"{API}carnet/payments/", {"payment": payment["id"], **_visa(room)})

    # A progressive jackpot read daily, stopped for good, its increment recovered to another.
    progressive = acts.post(
        comite,
        f"{API}progressives/",
        {"code": "PJ1", "name": "Grand jackpot", "start_amount": "1000.00", "machines": [_carnet_machine(room).pk]},
    )
    target = acts.post(
        comite,
        f"{API}progressives/",
        {"code": "PJ2", "name": "Jackpot bleu", "start_amount": "500.00", "machines": [_carnet_machine(room).pk]},
    )
    acts.post(cashier, f"{API}progressives/readings/", {"progressive": progressive["id"], "displayed": "1250.50"})
    acts.post(cashier, f"{API}progressives/readings/", {"progressive": target["id"], "displayed": "520.00"})
    acts.post(
        comite,
        f"{API}progressives/stop-notices/",
        {"progressive": progressive["id"], "kind": "final", "channel": "written", "reference": "DLPAJ-1"},
    )
    # within the 15 days after the recorded notice (SET-42, AMB-50): the stops may follow at once
    stop = acts.post(
        comite,
        f"{API}progressives/stops/",
        {"progressive": progressive["id"], "kind": "final", "stop_date": TODAY.isoformat(), "displayed": "1300.00"},
    )
    acts.post(comite, f"{API}progressives/recoveries/", {"stop": stop["id"], "target": target["id"]})

    # The JPM: a machine connected, its register of the system, read, won, restarted, transmitted
    # to the SCCJ, then left.
    first, second, third = (_carnet_machine(room, payment_programme="P-92", **IDENTITY) for _ in range(3))
    jackpot = acts.post(
        comite,
        f"{API}progressives/",
        {
            "code": "JPM1",
            "name": "Mégajackpot",
            "start_amount": "10000.00",
            "machines": [first.pk, second.pk],
            "multisite": True,
            "increment_percent": "1",
            "members": ["Casino de Nice", "Casino de Cannes"],
            "payment_programme": "P-92",
            **IDENTITY,
        },
    )["id"]
    acts.post(comite, f"{API}jpm/connections/", {"jackpot": jackpot, "machine": third.pk})
    acts.post(
        room["mecanicien"],
        f"{API}jpm/technical-entries/",
        {
            "jackpot": jackpot,
            "nature": "repair",
            "description": "Afficheur du JPM remplacé",
            "comite_username": comite.username,
            "comite_password": DEFAULT_PASSWORD,
        },
    )
    machines = (first, second, third)
    acts.post(
        room["employe_jeux"],
        f"{API}jpm/readings/",
        {
            "jackpot": jackpot,
            "displayed": "10500.00",
            "meters": {m.number: 1000 * n for n, m in enumerate(machines, 1)},
            "day": _days(-1).isoformat(),
        },
    )
    acts.post(
        cashier,
        f"{API}jpm/wins/",
        {
            "jackpot": jackpot,
            "amount": "12500.00",
            "meters": {
                m.number: {"electronic": 1000 * n + 500, "electromechanical": 1000 * n + 502}
                for n, m in enumerate(machines, 1)
            },
            "winning_machine": first.pk,
            **_visa(room),
        },
    )
    acts.post(comite, f"{API}jpm/restarts/", {"jackpot": jackpot})
    acts.post(
        room["employe_jeux"],
        f"{API}jpm/readings/",
        {
            "jackpot": jackpot,
            "displayed": "10020.00",
            "meters": {m.number: 1000 * n + 600 for n, m in enumerate(machines, 1)},
        },
    )
    acts.post(
        room.keeper,
        f"{API}jpm/transmissions/",
        {
            "jackpot": jackpot,
            "reason": "win",
            "period_start": _days(-1).isoformat(),
            "period_end": TODAY.isoformat(),
            "recipient": "sccj@interieur.gouv.fr",
        },
    )
    acts.post(
        comite,
        f"{API}progressives/stop-notices/",
        {"progressive": jackpot, "kind": "withdrawal", "channel": "written", "reference": "DLPAJ-3"},
    )
    acts.post(
        cashier,
        f"{API}jpm/withdrawals/",
        {
            "jackpot": jackpot,
            "leave_date": TODAY.isoformat(),
            "meters": {m.number: 1000 * n + 700 for n, m in enumerate(machines, 1)},
            **_visa(room),
        },
    )

    # TITO tickets: imported from the system, one redeemed, the expired one posted to orphans.
    tito = _carnet_machine(room, media=("tito",))
    now = timezone.now()
    rows = [
        {
            "number": "T-OLD",
            "issued_at": (now - datetime.timedelta(days=10)).isoformat(),
            "amount": "25.00",
            "machine": tito.number,
        },
        {
            "number": "T-NEW",
            "issued_at": (now - datetime.timedelta(days=1)).isoformat(),
            "amount": "40.00",
            "machine": tito.number,
        },
    ]
    acts.post(cashier, f"{API}tickets/", {"rows": rows})
    acts.post(cashier, f"{API}tickets/redemptions/", {"number": "T-NEW"})
    acts.post(cashier, f"{API}tickets/expiries/", _visa(room))


def france(acts: Acts, room) -> None:
    for kind in ("carnet_orphelins", "slot_jackpots_progressifs", "slot_jpm_28s"):
        open_register(room.est, kind)
    room.staff()  # the day's slot-room staffing before the séance opens (SLOT-50)
    open_seance_registers(room.est)
    seance = seance_open(establishment=room.est, date=TODAY, period="soiree", actor=room["directeur_responsable"])
    france_cash_desk(acts, room, seance)
    france_jackpots(acts, room)


def test_slot_49_every_jackpot_and_cash_desk_act_in_its_own_transaction_leaves_registers_that_verify(mc_room, fr_room):
    acts = Acts()
    monaco(acts, mc_room)
    france(acts, fr_room)

    verify_every_act(acts, SCOPE, CANNOT_RUN)
