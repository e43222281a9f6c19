"""Interventions, the daily envelope and staff approvals (SLOT-14, 15, 50, 53)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from ledgers.core.errors import RuleViolation
from ledgers.registers.models import Entry
from ledgers.slots import services
from ledgers.slots.models import DailyTransmittal, Intervention
from tests.factories import countersignature, open_seance_registers

pytestmark = pytest.mark.django_db


def test_slot_14_door_opened_only_by_an_identified_mechanic(mc_room):
    machine = mc_room.on_floor()
    with pytest.raises(RuleViolation) as exc:
        services.intervention_open(machine=machine, actor=mc_room["superviseur"], reason="Bourrage")
    assert exc.value.code == "SLOT-14"
    with pytest.raises(RuleViolation) as exc:
        services.intervention_open(machine=machine, actor=mc_room["mecanicien"], reason=" ")
    assert exc.value.code == "SLOT-14"
    sheet = services.intervention_open(machine=machine, actor=mc_room["mecanicien"], reason="Bourrage billets")
    line = mc_room.registers["slot_interventions"].entries.order_by("-seq").first()
    assert line.payload["intervention"] == sheet.pk and line.payload["machine"] == machine.number
    with pytest.raises(RuleViolation):
        services.intervention_close(intervention=sheet, actor=mc_room["superviseur"], work_done="x")
    closed = services.intervention_close(intervention=sheet, actor=mc_room["mecanicien"], work_done="Dégagé")
    assert closed.status == "closed" and closed.history.count() == 2


def test_slot_15_reg_16_envelope_of_the_day_and_no_edit_after(mc_room):
    machine = mc_room.on_floor()
    sheet = services.intervention_open(machine=machine, actor=mc_room["mecanicien"], reason="Écran")
    today = timezone.localdate()
    kwargs = {"establishment": mc_room.est, "date": today, "received_by": mc_room["directeur_exploitation"]}
    with pytest.raises(RuleViolation) as exc:
        services.transmittal_hand_over(actor=mc_room["superviseur"], **kwargs)
    assert exc.value.code == "SLOT-15"  # a sheet of the day still open
    services.intervention_close(intervention=sheet, actor=mc_room["mecanicien"], work_done="Remplacé")
    with pytest.raises(RuleViolation):
        services.transmittal_hand_over(actor=mc_room["superviseur"], **{**kwargs, "received_by": mc_room["mecanicien"]})
    envelope = services.transmittal_hand_over(actor=mc_room["superviseur"], **kwargs)
    assert list(envelope.sheets.all()) == [sheet]
    assert Intervention.objects.get(pk=sheet.pk).transmittal == envelope


def test_slot_53_fr_sfm_technician_needs_approval(fr_room):
    machine = fr_room.on_floor()
    sheet = services.intervention_open(machine=machine, actor=fr_room["technicien_sfm"], reason="Visite")
    assert sheet.approval.reference == "AGR-technicien_sfm"
    with pytest.raises(RuleViolation) as exc:
        services.intervention_close(intervention=sheet, actor=fr_room["technicien_sfm"], work_done="")
    assert exc.value.code == "SLOT-53"
    services.intervention_close(intervention=sheet, actor=fr_room["technicien_sfm"], work_done="Limites vérifiées")
    kinds = set(Entry.objects.filter(payload__intervention=sheet.pk).values_list("register__kind", flat=True))
    assert kinds == {"slot_controle_technique", "slot_fiche_34"}


def test_slot_50_fr_staff_without_valid_approval_refused(fr_room):
    from tests.factories import make_user

    machine = fr_room.on_floor()
    newcomer = make_user(fr_room.est, "mecanicien")
    with pytest.raises(RuleViolation) as exc:
        services.intervention_open(machine=machine, actor=newcomer, reason="Panne")
    assert exc.value.code == "SLOT-50"
    services.staff_approval_record(
        establishment=fr_room.est,
        user=newcomer,
        kind="slot_staff",
        reference="A-9",
        issuer="Ministère",
        valid_from=timezone.localdate() - datetime.timedelta(days=400),
        valid_until=timezone.localdate() - datetime.timedelta(days=1),
        actor=fr_room.keeper,
    )
    with pytest.raises(RuleViolation):
        services.intervention_open(machine=machine, actor=newcomer, reason="Panne")


def test_slot_54_sfm_visit_checks_limits_and_flags_overdue(fr_room):
    from ledgers.slots.selectors import overdue_revisions

    bills = fr_room.on_floor(insertion_limit="100", payment_limit="500")
    coins = fr_room.on_floor(media=("coins",))
    later = timezone.localdate() + datetime.timedelta(days=121)
    assert {m for m, _days in overdue_revisions(fr_room.est, later)} == {bills, coins}
    kwargs = {"establishment": fr_room.est, "machines": [bills, coins], "remarks": "RAS"}
    with pytest.raises(RuleViolation) as exc:
        services.sfm_visit_record(actor=fr_room["technicien_sfm"], limits={}, **kwargs)
    assert exc.value.code == "SLOT-54"
    with pytest.raises(RuleViolation):
        services.sfm_visit_record(actor=fr_room["mecanicien"], limits={}, **kwargs)
    visit = services.sfm_visit_record(
        actor=fr_room["technicien_sfm"],
        **kwargs,
        limits={bills.number: {"insertion_limit": "100", "payment_limit": "500"}},
        visited_at=timezone.now() + datetime.timedelta(days=100),
    )
    assert visit.limits[bills.number]["compliant"] and coins.number not in visit.limits
    assert visit.entry.register.kind == "slot_controle_technique"
    assert overdue_revisions(fr_room.est, later) == []
    assert {m for m, _d in overdue_revisions(fr_room.est, later + datetime.timedelta(days=121))} == {bills, coins}


def test_slot_14_and_24_monitoring_events_without_a_record_flagged(mc_room):
    from zoneinfo import ZoneInfo

    from ledgers.slots.imports import parse_events_csv

    machine = mc_room.on_floor()
    sheet = services.intervention_open(machine=machine, actor=mc_room["mecanicien"], reason="Panne")
    services.intervention_close(intervention=sheet, actor=mc_room["mecanicien"], work_done="Réparée")
    tz = ZoneInfo(mc_room.est.timezone)
    during = timezone.localtime(sheet.stopped_at, tz).strftime("%Y-%m-%d %H:%M:%S")
    night = (timezone.localtime(sheet.stopped_at, tz) - datetime.timedelta(hours=6)).strftime("%Y-%m-%d %H:%M:%S")
    text = (
        f"machine,event,at\n{machine.number},door_open,{during}\n{machine.number},door_open,{night}\n"
        f"{machine.number},bill_box_open,{night}\n"
    )
    events = services.monitoring_events_import(
        establishment=mc_room.est, rows=parse_events_csv(text, tz), actor=mc_room["superviseur"]
    )
    assert [(e.kind, e.flag) for e in events] == [
        ("door_open", ""),
        ("door_open", "SLOT-14"),
        ("bill_box_open", "SLOT-24"),
    ]
    assert events[0].intervention == sheet
    again = services.monitoring_events_import(
        establishment=mc_room.est, rows=parse_events_csv(text, tz), actor=mc_room["superviseur"]
    )
    assert again == []
    with pytest.raises(services.ReadingErrors):
        services.monitoring_events_import(
            establishment=mc_room.est,
            rows=parse_events_csv(f"machine,event,at\nNOPE,door_open,{night}\n", tz),
            actor=mc_room["superviseur"],
        )


def test_reg_25_slot_15_mc_last_seance_of_the_day_closes_once_the_sheets_are_handed_over(mc_room):
    from ledgers.core import hooks
    from ledgers.core.models import Seance, SeancePeriod
    from ledgers.core.services import seance_close, seance_open

    machine = mc_room.on_floor()
    sheet = services.intervention_open(machine=machine, actor=mc_room["mecanicien"], reason="Écran")
    services.intervention_close(intervention=sheet, actor=mc_room["mecanicien"], work_done="Remplacé")
    director, today = mc_room["directeur_jeux"], timezone.localdate()
    open_seance_registers(mc_room.est)
    first, last = (
        seance_open(establishment=mc_room.est, date=today, period=period, actor=director)
        for period in SeancePeriod.values[:2]
    )
    assert [m for m in hooks.seance_missing(first) if m.code == "SLOT-15"] == []  # another séance is still open
    seance_close(seance=first, actor=director)
    assert [m.code for m in hooks.seance_missing(last) if m.code == "SLOT-15"] == ["SLOT-15"]
    with pytest.raises(RuleViolation):
        seance_close(seance=last, actor=director)
    services.transmittal_hand_over(
        establishment=mc_room.est,
        date=today,
        actor=mc_room["superviseur"],
        received_by=mc_room["directeur_exploitation"],
    )
    assert [m for m in hooks.seance_missing(last) if m.code == "SLOT-15"] == []
    late = services.intervention_open(machine=machine, actor=mc_room["mecanicien"], reason="Bourrage")
    services.intervention_close(intervention=late, actor=mc_room["mecanicien"], work_done="Dégagé")
    assert [m.code for m in hooks.seance_flags(last) if m.code == "SLOT-15"] == ["SLOT-15"]
    assert seance_close(seance=last, actor=director).status == Seance.Status.CLOSED


def test_slot_15_the_direction_signs_the_envelope_at_the_superviseur_s_terminal(client, mc_room):
    """The receipt of the envelope is a signature: the Direction member's own password, not a
    name picked from a list; a wrong one records nothing and keeps what was typed."""
    machine = mc_room.on_floor()
    sheet = services.intervention_open(machine=machine, actor=mc_room["mecanicien"], reason="Écran")
    services.intervention_close(intervention=sheet, actor=mc_room["mecanicien"], work_done="Remplacé")
    client.force_login(mc_room["superviseur"])
    url = reverse("slots:transmittal")
    director = mc_room["directeur_exploitation"]
    form = {"date": timezone.localdate().isoformat(), **countersignature("received_by", director)}
    refused = client.post(url, {**form, "received_by_password": "pas-le-sien"})
    assert refused.status_code == 200 and "signature refusée" in refused.content.decode()
    assert not DailyTransmittal.objects.exists()
    assert client.post(url, form).status_code == 302
    assert DailyTransmittal.objects.get().received_by == director
