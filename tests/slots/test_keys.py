"""Key custody with the real slot objects: keys out for a real relève and a real
intervention and back, overdue on the dashboard, still out when the relève closes; a machine in
service only with its locks' keys registered; a socle out of operation only once its key went to
the caissier principal."""

import datetime
import time

import pytest
from django.urls import reverse
from django.utils import timezone

from ledgers.core.errors import RuleViolation
from ledgers.core.models import Location
from ledgers.core.roles import Role
from ledgers.keys import selectors
from ledgers.keys.policy import LockType
from ledgers.keys.purposes import fleet_size, get_purpose_type
from ledgers.keys.services import key_issue, key_register, key_return, socle_key_surrender
from ledgers.slots import services
from ledgers.slots.locks import socle_withdraw
from tests.factories import make_user, open_seance_registers, post_displays

from .conftest import photo


def _due(hours: float = 2) -> datetime.datetime:
    return timezone.now() + datetime.timedelta(hours=hours)


def _home(room, kind: str) -> Location:
    return Location.objects.get(establishment=room.est, kind=kind)


def _key(room, code: str, lock_type: str, asset: str, **custody):
    return key_register(
        establishment=room.est,
        actor=room.keeper,
        code=code,
        lock_type=lock_type,
        opens=f"{lock_type} {asset}",
        asset_ref=asset,
        **custody,
    )


def test_key_02_key_05_mc_releve_socle_keys_out_and_back_and_intervention_machine_key(client, mc_room):
    machine = mc_room.on_floor()
    cashier = make_user(mc_room.est, "caissier_principal", username="cp-mc")
    socle_key = _key(mc_room, "S-1", "socle", machine.socle.number, home=_home(mc_room, "caisse_centrale"))
    door_key = _key(mc_room, "M-1", "machine_door", f"{machine.number},SBM9999", home=_home(mc_room, "coffre"))
    sheet = services.intervention_open(machine=machine, actor=mc_room["mecanicien"], reason="Lecteur bloqué")
    with pytest.raises(RuleViolation) as refused:  # a socle key leaves the caisse centrale only for a relève
        key_issue(
            key=socle_key,
            actor=cashier,
            holder=mc_room["superviseur"],
            purpose_type="slots.intervention",
            purpose_id=sheet.pk,
            due_at=_due(),
        )
    assert refused.value.code == "KEY-02"
    releve = mc_room.releve()
    out = key_issue(
        key=socle_key,
        actor=cashier,
        holder=mc_room["superviseur"],
        purpose_type="slots.releve",
        purpose_id=releve.pk,
        due_at=_due(),
    )
    assert out.purpose_label == str(releve) and selectors.exceptions(mc_room.est) == []
    key_return(issue=out, actor=cashier, returned_by=mc_room["superviseur"])
    services.releve_close(releve=releve, actor=mc_room["superviseur"])

    with pytest.raises(RuleViolation) as refused:  # only a superviseur hands the machine keys to the mechanic
        key_issue(
            key=door_key,
            actor=mc_room["mecanicien"],
            holder=mc_room["mecanicien"],
            purpose_type="slots.intervention",
            purpose_id=sheet.pk,
            due_at=_due(),
        )
    assert refused.value.code == "KEY-05"
    handed = key_issue(
        key=door_key,
        actor=mc_room["superviseur"],
        holder=mc_room["mecanicien"],
        purpose_type="slots.intervention",
        purpose_id=sheet.pk,
        due_at=_due(),
    )
    assert [
        i.key.code
        for i in selectors.holdings(mc_room.est, start=handed.issued_at, end=_due(), asset_ref=machine.number)
    ] == ["M-1"]
    key_return(issue=handed, actor=mc_room["superviseur"], returned_by=mc_room["mecanicien"])
    services.intervention_close(intervention=sheet, actor=mc_room["mecanicien"], work_done="Lecteur nettoyé")
    assert not selectors.out_issues(mc_room.est).exists()


def test_key_02_socle_key_still_out_when_its_releve_closes_is_flagged(mc_room):
    machine = mc_room.on_floor()
    cashier = make_user(mc_room.est, "caissier_principal", username="cp-mc")
    socle_key = _key(mc_room, "S-1", "socle", machine.socle.number, home=_home(mc_room, "caisse_centrale"))
    releve = mc_room.releve()
    key_issue(
        key=socle_key,
        actor=cashier,
        holder=mc_room["superviseur"],
        purpose_type="slots.releve",
        purpose_id=releve.pk,
        due_at=_due(),
    )
    services.releve_close(releve=releve, actor=mc_room["superviseur"])
    [flag] = selectors.exceptions(mc_room.est)
    assert (flag.code, flag.issue.key.code, flag.late_by) == ("KEY-02", "S-1", None)


def test_key_05_overdue_machine_key_on_the_dashboard(client, mc_room):
    machine = mc_room.on_floor()
    door_key = _key(mc_room, "M-1", "machine_door", machine.number, home=_home(mc_room, "coffre"))
    sheet = services.intervention_open(machine=machine, actor=mc_room["mecanicien"], reason="Porte forcée")
    key_issue(
        key=door_key,
        actor=mc_room["superviseur"],
        holder=mc_room["mecanicien"],
        purpose_type="slots.intervention",
        purpose_id=sheet.pk,
        due_at=_due(1 / 3600),
    )
    time.sleep(1.1)
    client.force_login(mc_room["directeur_jeux"])
    page = client.get(reverse("dashboard")).content.decode()
    assert "Clés en retard" in page and "M-1" in page
    [flag] = selectors.exceptions(mc_room.est)
    assert flag.code == "KEY-05" and flag.late_by is not None


def test_key_13_key_17_fr_intervention_upper_key_out_and_back_with_the_mechanic_present(fr_room):
    machine = fr_room.on_floor()
    [upper] = selectors.lock_keys(fr_room.est, machine.number)["upper"]
    assert fleet_size(fr_room.est) == 1  # at most SET-43 machines: the mechanic or the employee in charge
    sheet = services.intervention_open(machine=machine, actor=fr_room["mecanicien"], reason="Écran noir")
    director, comite = fr_room["directeur_responsable"], fr_room["comite"]
    with pytest.raises(RuleViolation) as refused:
        key_issue(
            key=upper,
            actor=director,
            holder=comite,
            purpose_type="slots.intervention",
            purpose_id=sheet.pk,
            due_at=_due(),
        )
    assert refused.value.code == "KEY-17"
    with pytest.raises(RuleViolation) as refused:
        key_issue(
            key=upper,
            actor=director,
            holder=fr_room["mecanicien"],
            purpose_type="slots.intervention",
            purpose_id=sheet.pk,
            due_at=_due(),
            witness=fr_room["employe_jeux"],
        )
    assert refused.value.code == "KEY-13"
    out = key_issue(
        key=upper,
        actor=director,
        holder=comite,
        purpose_type="slots.intervention",
        purpose_id=sheet.pk,
        due_at=_due(),
        witness=fr_room["mecanicien"],
    )
    key_return(issue=out, actor=director, returned_by=comite)
    services.intervention_close(intervention=sheet, actor=fr_room["mecanicien"], work_done="Carte écran remplacée")
    assert selectors.exceptions(fr_room.est) == []


def test_key_09_mc_machine_in_service_only_with_its_bill_box_lock_key(mc_room):
    machine = services.machine_register(
        establishment=mc_room.est, data=mc_room.machine_input(), actor=mc_room.keeper, photo=photo()
    )
    with pytest.raises(RuleViolation) as refused:
        services.machine_move(
            machine=machine, to_place="floor", to_socle=mc_room.socle(), actor=mc_room.keeper, reason="commissioning"
        )
    assert refused.value.code == "KEY-09"
    _key(mc_room, "BB-9", "bill_content", f"SBM0001, {machine.number}", home=_home(mc_room, "comptabilite"))
    services.machine_move(
        machine=machine, to_place="floor", to_socle=mc_room.socle(), actor=mc_room.keeper, reason="commissioning"
    )
    machine.refresh_from_db()
    assert machine.status == machine.Status.IN_SERVICE


def test_key_12_fr_machine_in_service_only_with_upper_lower_and_device_locks(fr_room):
    machine = services.machine_register(
        establishment=fr_room.est, data=fr_room.machine_input(media=("tito",)), actor=fr_room.keeper
    )
    post_displays(machine)  # the art. 68-11 devices and displays (SLOT-29)
    director = fr_room["directeur_responsable"]
    for code, lock_type, custodian in (
        ("U-1", "upper", director),
        ("L-1", "lower", director),
        ("B-1", "bill_content", fr_room["caissier"]),
    ):
        with pytest.raises(RuleViolation) as refused:
            services.machine_move(
                machine=machine, to_place="floor", to_socle=fr_room.socle(), actor=director, reason="commissioning"
            )
        assert refused.value.code == "KEY-12" and str(LockType(lock_type).label) in str(refused.value.message)
        _key(fr_room, code, lock_type, machine.number, custodian=custodian)
    services.machine_move(
        machine=machine, to_place="floor", to_socle=fr_room.socle(), actor=director, reason="commissioning"
    )


def test_key_07_socle_out_of_operation_only_once_its_key_went_to_the_caissier_principal(mc_room):
    socle = mc_room.socle()
    key = _key(mc_room, "S-7", "socle", socle.number, home=_home(mc_room, "caisse_centrale"))
    with pytest.raises(RuleViolation) as refused:
        socle_withdraw(socle=socle, actor=mc_room.keeper, reason="Serrure grippée")
    assert refused.value.code == "KEY-07"
    socle.refresh_from_db()
    assert socle.active
    cashier = make_user(mc_room.est, "caissier_principal", username="cp-mc")
    socle_key_surrender(
        key=key,
        actor=mc_room["superviseur"],
        receiver=cashier,
        socle_ref=socle.number,
        lock_ref="SER-7",
        reason="Serrure grippée",
    )
    socle_withdraw(socle=socle, actor=mc_room.keeper, reason="Serrure grippée")
    socle.refresh_from_db()
    assert not socle.active


def test_key_03_key_14_table_count_is_a_count_purpose():
    count = get_purpose_type("cash.table_count")
    assert count is not None and count.kind == "count"


@pytest.mark.parametrize("jurisdiction, code", [("MC", "KEY-06"), ("FR", "KEY-17")])
def test_key_06_key_17_door_opening_with_no_mechanic_login_or_record_flagged(jurisdiction, code, mc_room, fr_room):
    """The monitoring system's door-open signal matches the intervention the signed-in mechanic
    opened (KEY-06), or the FR intervention the upper-part opening is recorded for (KEY-17);
    one nothing explains is flagged, under the intervention sheet's row (SLOT-14 MC, SLOT-53 FR)."""
    room = mc_room if jurisdiction == "MC" else fr_room
    machine = room.on_floor()
    sheet = services.intervention_open(machine=machine, actor=room["mecanicien"], reason="Porte : contrôle")
    unexplained = sheet.stopped_at - datetime.timedelta(hours=6)
    events = services.monitoring_events_import(
        establishment=room.est,
        actor=room["superviseur"],
        rows=[
            services.EventRow(machine.number, "door_open", sheet.stopped_at),
            services.EventRow(machine.number, "door_open", unexplained),
        ],
    )
    matched, flagged = sorted(events, key=lambda e: e.occurred_at, reverse=True)
    assert matched.intervention.technician == room["mecanicien"] and matched.flag == ""
    assert flagged.flag == {"KEY-06": "SLOT-14", "KEY-17": "SLOT-53"}[code]


def test_key_06_door_opened_with_the_key_of_another_than_the_identified_mechanic_flagged(mc_room):
    """MC art. 20.3: the door is opened by the mechanic who identified himself, the one whose
    intervention is open; the door key then in another's hands is an opening that matches no
    identification (KEY-06). The key in the intervening mechanic's hands explains it."""
    other = make_user(mc_room.est, Role.MECANICIEN, username="mecanicien-b")
    events = []
    for code, holder in (("M-1", mc_room["mecanicien"]), ("M-2", other)):
        machine = mc_room.on_floor()
        door_key = _key(mc_room, code, "machine_door", machine.number, home=_home(mc_room, "coffre"))
        sheet = services.intervention_open(machine=machine, actor=mc_room["mecanicien"], reason="Porte : contrôle")
        out = key_issue(
            key=door_key,
            actor=mc_room["superviseur"],
            holder=holder,
            purpose_type="slots.intervention",
            purpose_id=sheet.pk,
            due_at=_due(),
        )
        (event,) = services.monitoring_events_import(
            establishment=mc_room.est,
            actor=mc_room["superviseur"],
            rows=[services.EventRow(machine.number, "door_open", sheet.stopped_at)],
        )
        assert event.intervention == sheet and event.key_issue == out
        events.append(event.flag)
    assert events == ["", "KEY-06"]


def test_key_05_machine_key_still_out_flagged_at_the_seance_closing_which_goes_on(client, mc_room):
    from ledgers.core.models import Seance, SeancePeriod
    from ledgers.core.services import seance_close, seance_open

    machine = mc_room.on_floor()
    door_key = _key(mc_room, "M-1", "machine_door", machine.number, home=_home(mc_room, "coffre"))
    sheet = services.intervention_open(machine=machine, actor=mc_room["mecanicien"], reason="Porte forcée")
    out = key_issue(
        key=door_key,
        actor=mc_room["superviseur"],
        holder=mc_room["mecanicien"],
        purpose_type="slots.intervention",
        purpose_id=sheet.pk,
        due_at=_due(),
    )
    director = mc_room["directeur_jeux"]
    open_seance_registers(mc_room.est)
    seance = seance_open(
        establishment=mc_room.est, date=timezone.localdate(), period=SeancePeriod.values[0], actor=director
    )
    assert selectors.exceptions(mc_room.est) == []  # neither late nor its intervention closed
    client.force_login(director)
    page = client.get(reverse("seance", kwargs={"pk": seance.pk})).content.decode()
    assert "KEY-05" in page and "M-1" in page and reverse("keys:return", args=[out.pk]) in page
    assert seance_close(seance=seance, actor=director).status == Seance.Status.CLOSED  # a flag, not a refusal
    [flag] = selectors.exceptions(mc_room.est)
    assert (flag.code, flag.issue.pk, flag.late_by) == ("KEY-05", out.pk, None)
    assert "clôture de la séance" in flag.reason
    key_return(issue=out, actor=mc_room["superviseur"], returned_by=mc_room["mecanicien"])
    assert selectors.exceptions(mc_room.est) == []


def test_key_07_socle_withdrawal_page_hands_lock_and_key_to_the_caissier_principal(client, mc_room):
    from ledgers.registers.models import Entry
    from tests.factories import DEFAULT_PASSWORD

    socle = mc_room.socle()
    key = _key(mc_room, "S-7", "socle", socle.number, home=_home(mc_room, "caisse_centrale"))
    cashier = make_user(mc_room.est, "caissier_principal", username="cp-mc")
    client.force_login(mc_room.keeper)
    url = reverse("slots:socle_withdraw")
    data = {"socle": socle.pk, "reason": "Serrure grippée", "lock_ref": "SER-7", "password": DEFAULT_PASSWORD}
    refused = client.post(url, data)  # no lock and key handed over
    assert refused.status_code == 409 and "KEY-07" in refused.content.decode()
    refused = client.post(
        url,
        {
            **data,
            "key": key.pk,
            "receiver_username": mc_room["caissier"].username,
            "receiver_password": DEFAULT_PASSWORD,
        },
    )  # a cashier, not the caissier principal
    assert refused.status_code == 409 and "KEY-07" in refused.content.decode()
    socle.refresh_from_db()
    assert socle.active and not key.surrenders.exists()
    before = Entry.objects.count()
    done = client.post(
        url, {**data, "key": key.pk, "receiver_username": cashier.username, "receiver_password": DEFAULT_PASSWORD}
    )
    assert done.status_code == 302
    socle.refresh_from_db()
    key.refresh_from_db()
    assert not socle.active and key.status == key.Status.SURRENDERED and key.custodian == cashier
    assert Entry.objects.count() == before + 2  # the register of keys and the socle file


def test_key_07_socle_withdrawal_api(mc_room):
    from rest_framework.test import APIClient

    from ledgers.registers.models import Entry
    from tests.factories import DEFAULT_PASSWORD

    socle = mc_room.socle()
    key = _key(mc_room, "S-7", "socle", socle.number, home=_home(mc_room, "caisse_centrale"))
    cashier = make_user(mc_room.est, "caissier_principal", username="cp-mc")
    api = APIClient()
    api.force_authenticate(mc_room.keeper)
    url = "/api/v1/slots/socles/withdraw/"
    body = {"socle": socle.pk, "reason": "Serrure grippée", "lock_ref": "SER-7", "password": DEFAULT_PASSWORD}
    refused = api.post(url, body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "KEY-07"
    before = Entry.objects.count()
    done = api.post(
        url,
        {**body, "key": key.pk, "receiver_username": cashier.username, "receiver_password": DEFAULT_PASSWORD},
        format="json",
    )
    assert done.status_code == 201 and done.json()["active"] is False
    assert Entry.objects.count() == before + 2
    assert api.post(url, body, format="json").status_code == 400  # out of operation already: not a choice


def test_key_03_mc_bill_box_content_key_out_only_for_an_open_slot_count(mc_room):
    """The bill-box content key leaves comptabilité générale for the slot room's drop count: not for
    a relève, not to the slot floor, not once the count is closed (KEY-03)."""
    from decimal import Decimal

    from ledgers.keys.models import Key
    from ledgers.slots.services import counts
    from tests.factories import open_register

    open_register(mc_room.est, "slot_comptees")
    machine = mc_room.on_floor()
    key = Key.objects.get(establishment=mc_room.est, code=f"bill_content-{machine.number}")
    accounts, second = (make_user(mc_room.est, "comptabilite", username=f"cg{n}-mc") for n in (1, 2))
    releve = mc_room.releve()
    count = counts.slot_count_open(
        establishment=mc_room.est, kind="as_needed", releve=releve, actor=mc_room["superviseur"]
    )
    assert get_purpose_type("slots.count").kind == "count"
    out = {"key": key, "actor": accounts, "co_releasers": [second], "holder": accounts, "due_at": _due()}
    for refused_kwargs in (
        {"purpose_type": "slots.releve", "purpose_id": releve.pk},  # a relève is no count
        {"purpose_type": "slots.count", "purpose_id": count.pk, "holder": mc_room["superviseur"]},
    ):
        with pytest.raises(RuleViolation) as refused:
            key_issue(**{**out, **refused_kwargs})
        assert refused.value.code == "KEY-03"
    issue = key_issue(**out, purpose_type="slots.count", purpose_id=count.pk)
    assert issue.purpose_label == str(count)
    counts.slot_count_line(count=count, machine=machine, actor=mc_room["superviseur"], bills=Decimal("40"))
    counts.slot_count_close(count=count, actor=mc_room["superviseur"])
    [flag] = selectors.exceptions(mc_room.est)  # still out after its count closed
    assert flag.issue == issue
    key_return(issue=issue, actor=accounts, returned_by=accounts, co_receivers=[second])
    with pytest.raises(RuleViolation) as refused:
        key_issue(**out, purpose_type="slots.count", purpose_id=count.pk)
    assert refused.value.code == "KEY-03"


def test_key_14_fr_bill_box_key_held_by_the_cashier_out_only_for_an_open_slot_count(fr_room):
    """The cashier's bill and ticket box key goes out for the slot count session (KEY-14, SLOT-46),
    to a cashier only, and not for an intervention."""
    from ledgers.keys.models import Key
    from ledgers.slots.services import counts
    from tests.factories import open_register

    open_register(fr_room.est, "slot_comptees")
    machine = fr_room.on_floor()
    key = Key.objects.get(establishment=fr_room.est, code=f"bill_content-{machine.number}")
    count = counts.slot_count_open(establishment=fr_room.est, kind="as_needed", actor=fr_room["comite"])
    sheet = services.intervention_open(machine=machine, actor=fr_room["mecanicien"], reason="Lecteur bloqué")
    cashier = fr_room["caissier"]
    out = {"key": key, "actor": cashier, "due_at": _due()}
    for refused_kwargs in (
        {"holder": cashier, "purpose_type": "slots.intervention", "purpose_id": sheet.pk},
        {"holder": fr_room["comite"], "purpose_type": "slots.count", "purpose_id": count.pk},
    ):
        with pytest.raises(RuleViolation) as refused:
            key_issue(**{**out, **refused_kwargs})
        assert refused.value.code == "KEY-14"
    issue = key_issue(**out, holder=cashier, purpose_type="slots.count", purpose_id=count.pk)
    assert issue.purpose_label == str(count) and issue.holder_role == "caissier"
    key_return(issue=issue, actor=cashier, returned_by=cashier)
