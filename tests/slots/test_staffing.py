"""FR-2007 art. 68-27 (SLOT-50): the slot room's staffing per gaming day, each person approved by the
Minister of the Interior, before the séance opens; a mechanic above SET-43 machines."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.core.errors import RuleViolation
from ledgers.core.services import seance_open
from tests.factories import make_user, open_register, open_seance_registers

TODAY = timezone.localdate


def _refused(call, **kwargs) -> str:
    with pytest.raises(RuleViolation) as exc:
        call(**kwargs)
    assert exc.value.code == "SLOT-50"
    return exc.value.message


def test_slot_50_room_opens_only_with_the_days_approved_staffing(fr_room):
    fr_room.on_floor()
    opening = {"establishment": fr_room.est, "date": TODAY(), "period": "soiree", "actor": fr_room.keeper}
    open_seance_registers(fr_room.est)
    assert "non inscrit" in _refused(seance_open, **opening)
    unapproved = make_user(fr_room.est, "caissier", username="caissier-sans-agrement")
    assert "agrément" in _refused(fr_room.staff, cashier=unapproved)
    # 75 machines or fewer: a trained employee may replace the mechanic, his training recorded
    assert "formé" in _refused(fr_room.staff, maintainer=fr_room["employe_jeux"])
    staffing = fr_room.staff(maintainer=fr_room["employe_jeux"], training="Formation SFM du 02/10/2026")
    assert staffing.entry.register.kind == "slot_caisse" and "AGR-caissier" in staffing.entry.payload["detail"]
    assert staffing.maintainer_role == "employe_jeux" and staffing.cashier_approval.reference == "AGR-caissier"
    assert seance_open(**opening).status == "open"
    # a day before the approvals took effect: refused
    assert "agrément" in _refused(fr_room.staff, date=TODAY() - datetime.timedelta(days=60))


def test_slot_50_mechanic_present_above_set_43_machines(fr_room):
    fr_room.on_floor()
    fr_room.on_floor()
    fr_room.staff(maintainer=fr_room["employe_jeux"], training="Formation SFM")
    fr_room.est.options = {**fr_room.est.options, "SET-43": 1}  # two machines now run above the threshold
    fr_room.est.save()
    opening = {"establishment": fr_room.est, "date": TODAY(), "period": "soiree", "actor": fr_room.keeper}
    open_seance_registers(fr_room.est)
    assert "mécanicien" in _refused(seance_open, **opening)
    tomorrow = TODAY() + datetime.timedelta(days=1)
    _refused(fr_room.staff, date=tomorrow, maintainer=None)
    _refused(fr_room.staff, date=tomorrow, maintainer=fr_room["employe_jeux"], training="Formation SFM")
    fr_room.staff(date=tomorrow)
    assert seance_open(**{**opening, "date": tomorrow}).status == "open"


def test_slot_50_staffing_page_dashboard_and_api(client, fr_room):
    fr_room.on_floor()
    open_register(fr_room.est, "slot_caisse")
    client.force_login(fr_room["comite"])
    assert "Personnel de la salle des machines" in client.get(reverse("dashboard")).content.decode()
    page = client.post(
        reverse("slots:staffing"),
        {
            "date": TODAY().isoformat(),
            "comite": fr_room["comite"].pk,
            "cashier": fr_room["caissier"].pk,
            "maintainer": "",
        },
    )
    assert page.status_code == 302
    assert fr_room.est.localtime().date().strftime("%d/%m/%Y") in client.get(reverse("slots:staffing")).content.decode()
    api = APIClient()
    api.force_authenticate(fr_room.keeper)
    body = {
        "date": (TODAY() + datetime.timedelta(days=1)).isoformat(),
        "comite": fr_room["comite"].pk,
        "cashier": fr_room["employe_jeux"].pk,
    }
    refused = api.post("/api/v1/slots/staffing/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "SLOT-50"
    done = api.post(
        "/api/v1/slots/staffing/",
        {**body, "cashier": fr_room["caissier"].pk, "maintainer": fr_room["mecanicien"].pk},
        format="json",
    )
    assert done.status_code == 201 and done.json()["maintainer_role"] == "mecanicien"
