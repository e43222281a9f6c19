"""Carnet des prélèvements modèle 13: a sheet per month numbered from November, daily lines only
from closed and visaed modèle 12 days, the modèle 35 total, the season's gross product (COUNT-57; REG-35)."""

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from ledgers.cash import rules, services
from ledgers.cash.registers import CARNET_PRELEVEMENTS
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register
from tests.cash.test_control import day_played


@pytest.mark.parametrize(("month", "sheet"), [(11, 1), (12, 2), (1, 3), (3, 5), (10, 12)])
def test_count_57_sheets_numbered_from_the_start_of_the_season(month, sheet):
    assert rules.season_sheet(month) == sheet


def test_count_57_month_sheet_from_visaed_days_with_the_modele_35_total(fro):
    day_played(fro)
    day = services.control_day_close(establishment=fro.est, date=fro.day, actor=fro[Role.CAISSIER_PRINCIPAL])
    keeper = fro[Role.CAISSIER_PRINCIPAL]
    with pytest.raises(RuleViolation) as unvisaed:
        services.levy_month_close(establishment=fro.est, year=2026, month=3, slot_total=Decimal(1000), actor=keeper)
    assert unvisaed.value.code == "COUNT-57"
    services.control_day_visa(day=day, actor=fro.director)
    services.control_day_visa(day=day, actor=fro[Role.COMITE])
    with pytest.raises(RuleViolation) as no_slots:
        services.levy_month_close(establishment=fro.est, year=2026, month=3, slot_total=None, actor=keeper)
    assert no_slots.value.code == "COUNT-57"
    assert (
        services.levy_month_close(establishment=fro.est, year=2026, month=3, slot_total=Decimal(1000), actor=keeper)
        == 5
    )
    lines = [e.payload for e in current_register(fro.est, CARNET_PRELEVEMENTS.code).entries.filter(kind="record")]
    assert [(p["event"], p["total"], p["season_total"]) for p in lines] == [
        ("day", "3500.00", "3500.00"),
        ("month", "4500.00", "4500.00"),
    ]


def test_levy_sheet_page_and_api(client, fro):
    client.force_login(fro[Role.CAISSIER_PRINCIPAL])
    assert client.get("/caisses/carnet-prelevements/").status_code == 200
    api = APIClient()
    api.force_authenticate(fro[Role.CAISSIER_PRINCIPAL])
    response = api.post("/api/v1/cash/levy-sheets/", {"year": 2026, "month": 11, "slot_total": "0"}, format="json")
    assert response.status_code == 201 and response.json()["sheet"] == 1
