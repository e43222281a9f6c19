"""Every write endpoint of the slot room's API (the inventory and its socles, the relèves and their
counts, the interventions, the monitoring events, the thresholds, the approvals and SFM visits, the
slot staff's reports, the daily envelope and the copy of the files, the disputes, the count
sessions and the French accounting of modèles 29, 32 and 35) driven through its normal flow in a
Monaco and a French slot room, each request in its own transaction as in production, then
``verify_ledgers``: each act writes its entry, the entry names the objects the act wrote, and the
registers and the objects verify with no finding.

The flows run on the last day of the previous month (the clock moved back, running on): the
month-end count and the monthly statements of modèles 32 and 35 are made on the month's last day.

A write route of ``SCOPE`` that no flow below exercises fails the test; ``CANNOT_RUN`` lists,
with the reason, the only ones a test cannot reach."""

import datetime

import pytest
from django.utils import timezone

from ledgers.keys.services import key_register
from ledgers.slots.models import Machine
from tests.api.acts import Acts, verify_every_act
from tests.factories import DEFAULT_PASSWORD, countersignature, make_user, open_register, post_displays
from tests.slots.conftest import FR_KINDS, FR_ROLES, MC_KINDS, MC_ROLES, SlotRoom, _room, photo
from tests.slots.test_api_flows import _machine_body

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

SCOPE = (
    "api/v1/slots/machines",
    "api/v1/slots/socles",
    "api/v1/slots/releves",
    "api/v1/slots/interventions",
    "api/v1/slots/counts",
    "api/v1/slots/events",
    "api/v1/slots/variance-threshold",
    "api/v1/slots/jackpot-thresholds",
    "api/v1/slots/approvals",
    "api/v1/slots/sfm-visits",
    "api/v1/slots/files-copies",
    "api/v1/slots/incident-reports",
    "api/v1/slots/staffing",
    "api/v1/slots/transmittals",
    "api/v1/slots/disputes",
    "api/v1/slots/meter-statements",
    "api/v1/slots/statements",
)

CANNOT_RUN: dict[str, str] = {}

API = "/api/v1/slots/"


def _month_end() -> datetime.datetime:
    """08:00 UTC on the last day of the month before this one."""
    last = timezone.localdate().replace(day=1) - datetime.timedelta(days=1)
    return datetime.datetime(last.year, last.month, last.day, 8, 0, tzinfo=datetime.UTC)


def _commission(acts: Acts, org: SlotRoom, machine: Machine) -> Machine:
    """The keys of its locks registered and (FR) its displays posted, then put on the floor on a new
    socle through the API, its meters read once."""
    org.lock_keys(machine)
    post_displays(machine)
    socle = acts.post(org.keeper, f"{API}socles/", {"room": org.room.pk, "number": f"S{org.next()}"})
    acts.post(
        org.keeper,
        f"{API}machines/{machine.pk}/moves/",
        {"to_place": "floor", "to_socle": socle["id"], "reason": "commissioning"},
    )
    machine.refresh_from_db()
    return machine


def _rows(machine: Machine, value: int) -> list[dict]:
    return [
        {"machine": machine.number, "station": m.station, "meter": m.key, "value": value}
        for m in machine.meters.filter(active=True)
    ]


def monaco(acts: Acts, org: SlotRoom) -> None:
    """A machine with a hopper entered in the inventory, its lid confirmed, a new sheet, on the
    floor; the thresholds; a relève with a box exchanged and the drop counted (directly and in a
    count session); an intervention, a RAM clear, the monitoring events, a dispute, the
    superviseur's envelope, the copy of the files, a surveillance report, a socle withdrawn."""
    keeper, superviseur, mecanicien = org.keeper, org["superviseur"], org["mecanicien"]
    open_register(org.est, "slot_comptees")
    created = acts.post(
        keeper, f"{API}machines/register/", {**_machine_body(org, hopper=True), "photo": photo()}, format="multipart"
    )
    machine = Machine.objects.get(pk=created["id"])
    acts.post(superviseur, f"{API}machines/{machine.pk}/hopper-lid/")
    acts.post(
        keeper, f"{API}machines/{machine.pk}/sheets/", {"characteristics": "Nouvel écran", "rtp_percent": "93.00"}
    )
    machine = _commission(acts, org, machine)
    other = org.on_floor()

    acts.post(
        keeper,
        f"{API}jackpot-thresholds/",
        {"amount": "1000.00", "effective_from": timezone.now().isoformat()},
    )
    acts.post(keeper, f"{API}variance-threshold/", {"preset": "strict_2pc_100"})

    sheet = acts.post(mecanicien, f"{API}interventions/", {"machine": machine.pk, "reason": "Accepteur bloqué"})
    keys = [m.key_at for m in machine.meters.filter(active=True)]
    acts.post(
        mecanicien,
        f"{API}machines/{machine.pk}/ram-clears/",
        {"reset_key": "RK-1", "reason": "Panne mémoire", "before": {k: 5 for k in keys}, "after": {k: 0 for k in keys}},
    )
    acts.post(mecanicien, f"{API}interventions/{sheet['id']}/close/", {"work_done": "Billet retiré"})

    releve = acts.post(
        superviseur,
        f"{API}releves/",
        {"room": org.room.pk, "during_operation": True, **countersignature("sworn_agent", org["agent_surveillance"])},
    )
    acts.post(superviseur, f"{API}releves/{releve['id']}/readings/", {"rows": _rows(machine, 100) + _rows(other, 100)})
    acts.post(
        superviseur,
        f"{API}releves/{releve['id']}/boxes/",
        {"machine": machine.pk, "box": "bill", "removed": "BB-1", "replaced_by": "BB-2"},
    )
    acts.post(superviseur, f"{API}releves/{releve['id']}/counts/", {"machine": machine.pk, "counted": "0.00"})
    count = acts.post(superviseur, f"{API}counts/", {"kind": "as_needed", "releve": releve["id"]})
    acts.post(superviseur, f"{API}counts/{count['id']}/lines/", {"machine": other.pk, "bills": "0.00"})
    acts.post(superviseur, f"{API}counts/{count['id']}/close/")
    acts.post(superviseur, f"{API}releves/{releve['id']}/close/")

    now = timezone.now()
    acts.post(
        superviseur,
        f"{API}events/",
        {
            "rows": [
                {"machine": machine.number, "event": "door_open", "at": (now - datetime.timedelta(hours=3)).isoformat()}
            ]
        },
    )
    acts.post(
        superviseur,
        f"{API}disputes/",
        {
            "machine": machine.pk,
            "claim": "Gain non payé",
            "mechanic": mecanicien.pk,
            "mechanic_statement": "Panne d'affichage",
            "decision": "Payé",
            "amount_paid": "20.00",
        },
    )
    acts.post(
        superviseur,
        f"{API}transmittals/",
        {"date": org.est.localtime(timezone.now()).date().isoformat(), **countersignature("received_by", keeper)},
    )
    acts.post(keeper, f"{API}files-copies/", countersignature("received_by", org["secretariat_general"]))
    acts.post(
        org["agent_surveillance"],
        f"{API}incident-reports/",
        {"description": "Bagarre près de la rangée B", "machine": machine.pk, "circumstances": "Deux clients"},
    )

    spare = acts.post(keeper, f"{API}socles/", {"room": org.room.pk, "number": "S-SPARE", "position": "Rangée Z"})
    socle_key = key_register(
        establishment=org.est,
        actor=keeper,
        code="SOCLE-SPARE",
        lock_type="socle",
        opens="socle S-SPARE",
        asset_ref="S-SPARE",
        home=org.est.locations.get(kind="caisse_centrale"),
    )
    receiver = make_user(org.est, "caissier_principal", username="cp-mcb")
    acts.post(
        keeper,
        f"{API}socles/withdraw/",
        {
            "socle": spare["id"],
            "reason": "Serrure grippée",
            "lock_ref": "SER-7",
            "key": socle_key.pk,
            "password": DEFAULT_PASSWORD,
            "receiver_username": receiver.username,
            "receiver_password": DEFAULT_PASSWORD,
        },
    )


def france(acts: Acts, org: SlotRoom) -> None:
    """The slot staff approved, the day staffed, a machine entered and put on the floor; a relève
    with its état de rapprochement; an intervention, a RAM clear by the comité member, a repair
    move countersigned, the SFM's visit, an anomaly report, the monitoring events; the carnet of
    modèle 29 (a bon d'avance, tickets, a count), the month-end count, modèles 32 and 35."""
    keeper, comite, caissier = org.keeper, org["comite"], org["caissier"]
    visa = {"comite_username": comite.username, "comite_password": DEFAULT_PASSWORD, "password": DEFAULT_PASSWORD}
    today = org.est.localtime(timezone.now()).date()
    for role in ("mecanicien", "employe_jeux", "technicien_sfm", "comite", "caissier", "superviseur"):
        acts.post(
            keeper,
            f"{API}approvals/",
            {
                "user": org[role].pk,
                "kind": "sfm" if role == "technicien_sfm" else "slot_staff",
                "reference": f"AGR-{role}",
                "issuer": "Ministère de l'intérieur",
                "valid_from": (today - datetime.timedelta(days=30)).isoformat(),
            },
        )
    for kind in (
        "slot_caisse",
        "slot_comptees",
        "slot_rapprochement_31",
        "slot_recapitulatif_35",
        "slot_releve_32",
        "carnet_orphelins",
    ):
        open_register(org.est, kind)
    acts.post(
        keeper,
        f"{API}staffing/",
        {"date": today.isoformat(), "comite": comite.pk, "cashier": caissier.pk, "maintainer": org["mecanicien"].pk},
    )
    acts.post(keeper, f"{API}variance-threshold/", {"amount": "150.00"})

    created = acts.post(keeper, f"{API}machines/register/", _machine_body(org, hopper=True))
    machine = Machine.objects.get(pk=created["id"])
    acts.post(org["mecanicien"], f"{API}machines/{machine.pk}/hopper-lid/")
    acts.post(
        keeper, f"{API}machines/{machine.pk}/sheets/", {"characteristics": "Nouvel écran", "rtp_percent": "93.00"}
    )
    machine = _commission(acts, org, machine)
    other = org.on_floor()
    for each in (machine, other):
        open_register(org.est, "slot_comptabilite_29", each.casino_number)

    sheet = acts.post(org["mecanicien"], f"{API}interventions/", {"machine": machine.pk, "reason": "Écran figé"})
    acts.post(org["mecanicien"], f"{API}interventions/{sheet['id']}/close/", {"work_done": "Carte vidéo changée"})
    key_register(
        establishment=org.est,
        actor=keeper,
        code="RK-1",
        lock_type="reset",
        opens="Réinitialisation",
        asset_ref=machine.number,
        custodian=comite,
    )
    keys = [m.key_at for m in machine.meters.filter(active=True)]
    acts.post(
        comite,
        f"{API}machines/{machine.pk}/ram-clears/",
        {"reset_key": "RK-1", "reason": "Panne mémoire", "before": {k: 5 for k in keys}, "after": {k: 0 for k in keys}},
    )

    releve = acts.post(org["superviseur"], f"{API}releves/", {"room": org.room.pk})
    acts.post(
        org["superviseur"], f"{API}releves/{releve['id']}/readings/", {"rows": _rows(machine, 100) + _rows(other, 100)}
    )
    acts.post(
        org["superviseur"],
        f"{API}releves/{releve['id']}/boxes/",
        {"machine": machine.pk, "box": "bill", "removed": "BB-1", "replaced_by": "BB-2"},
    )
    acts.post(org["superviseur"], f"{API}releves/{releve['id']}/counts/", {"machine": machine.pk, "counted": "0.00"})
    acts.post(caissier, f"{API}releves/{releve['id']}/reconciliation/", visa)
    acts.post(org["superviseur"], f"{API}releves/{releve['id']}/close/")

    base = f"{API}machines/{machine.pk}/"
    acts.post(
        caissier,
        f"{base}avances/",
        {
            "reason": "hopper_empty",
            "denomination": "1 €",
            "amount": "300",
            "refilled_by": org["employe_jeux"].pk,
            **visa,
        },
    )
    acts.post(caissier, f"{base}carnet/tickets/", {"amount": "20", **visa})
    acts.post(caissier, f"{base}carnet/counts/", {"physical": "1000", **visa})

    acts.post(
        org["technicien_sfm"],
        f"{API}sfm-visits/",
        {
            "machines": [machine.pk, other.pk],
            "remarks": "Limites conformes",
            "limits": {m.number: {"insertion_limit": "100", "payment_limit": "1500"} for m in (machine, other)},
        },
    )
    acts.post(
        org["superviseur"],
        f"{API}disputes/",
        {
            "machine": other.pk,
            "claim": "Crédits non payés",
            "mechanic": org["mecanicien"].pk,
            "mechanic_statement": "Trémie bloquée",
            "decision": "Payé",
            "amount_paid": "15.00",
        },
    )
    acts.post(org["technicien_sfm"], f"{API}incident-reports/", {"description": "Écran figé", "system": "SYS-1"})
    acts.post(
        org["superviseur"],
        f"{API}events/",
        {"rows": [{"machine": other.number, "event": "door_open", "at": timezone.now().isoformat()}]},
    )

    count = acts.post(comite, f"{API}counts/", {"kind": "month_end"})
    for each in (machine, other):
        acts.post(caissier, f"{API}counts/{count['id']}/lines/", {"machine": each.pk, "coins": "10.00", **visa})
    acts.post(comite, f"{API}counts/{count['id']}/close/")
    month = {"year": today.year, "month": today.month}
    acts.post(org["employe_jeux"], f"{API}meter-statements/", {**month, **visa})
    acts.post(org["directeur_responsable"], f"{API}statements/", {**month, **visa})

    acts.post(
        comite,
        f"{API}machines/{other.pk}/moves/",
        {
            "to_place": "workshop",
            "reason": "breakdown",
            "observations": "Écran noir",
            "technicien_username": org["mecanicien"].username,
            "technicien_password": DEFAULT_PASSWORD,
        },
    )
    spare = acts.post(keeper, f"{API}socles/", {"room": org.room.pk, "number": "S-SPARE"})
    acts.post(
        keeper,
        f"{API}socles/withdraw/",
        {"socle": spare["id"], "reason": "Rangée réaménagée", "password": DEFAULT_PASSWORD},
    )
    acts.post(
        comite,
        f"{API}machines/{machine.pk}/move-notices/",
        {"service": "Commissariat central", "channel": "email", "reference": "PN-1"},
    )
    acts.post(comite, f"{API}machines/{machine.pk}/moves/", {"to_place": "store", "reason": "planned"})


def test_slot_04_every_write_endpoint_of_the_slot_room_in_its_own_transaction_verifies(
    mc, fr, settings, tmp_path, monkeypatch
):
    settings.MEDIA_ROOT, settings.LEDGERS_SEAL_DEMO_DIR = tmp_path / "media", tmp_path / "seal"
    real_now, shift = timezone.now, timezone.now() - _month_end()
    monkeypatch.setattr(timezone, "now", lambda: real_now() - shift)
    acts = Acts()
    monaco(acts, _room(mc, MC_ROLES, MC_KINDS))
    france(acts, _room(fr, FR_ROLES, FR_KINDS))

    verify_every_act(acts, SCOPE, CANNOT_RUN)
