"""FR registre des plaques, jetons et cartes de paiement, modèle 16 (COUNT-58, REG-36, SET-45)."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.cash import rules
from ledgers.cash.models import ChipCensus, ChipSeries
from ledgers.cash.registers import REGISTRE_PLAQUES
from ledgers.cash.services import plaques
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register

PIECES = [{"value": "100", "quantity": 200}, {"value": "10", "quantity": 500}]  # 25 000 € a series


def chips(org, series_count=4, reserve=1):
    return plaques.chip_series_record(
        establishment=org.est,
        kind=ChipSeries.Kind.JETON,
        description="Jetons ronds bleus",
        manufacturer="Bourgogne et Grasset",
        series_count=series_count,
        reserve_series=reserve,
        pieces=PIECES,
        actor=org[Role.CAISSIER_PRINCIPAL],
    )


def test_count_58_series_written_in_modele_16_with_reserve_and_service(fro):
    series = chips(fro)
    assert (series.in_service_series, series.reserve_series) == (3, 1)
    assert plaques.taken_in_charge(fro.est) == Decimal("75000.00")
    entry = current_register(fro.est, REGISTRE_PLAQUES.code).entries.filter(kind="record").get()
    assert entry.payload["description"] == "Jetons ronds bleus — Bourgogne et Grasset"
    assert entry.payload["pieces"] == "200 × 100.00 € ; 500 × 10.00 €"
    assert entry.payload["series"] == "4 séries : 1 en réserve, 3 en service"
    plaques.chip_series_allocate(series=series, in_service_series=4, actor=fro[Role.COMPTABILITE])
    assert plaques.taken_in_charge(fro.est) == Decimal("100000.00")
    assert REGISTRE_PLAQUES.paraph_roles_for("FR") == (Role.DIRECTEUR_RESPONSABLE,)  # modèle 16 is not in art. 69


def test_count_58_description_and_manufacturer_required(fro):
    with pytest.raises(RuleViolation) as refused:
        plaques.chip_series_record(
            establishment=fro.est,
            kind="plaque",
            description="Plaques",
            manufacturer=" ",
            series_count=1,
            reserve_series=0,
            pieces=PIECES,
            actor=fro.director,
        )
    assert refused.value.code == "COUNT-58"
    with pytest.raises(ValidationError):  # plaques and chips give their values and number per value
        plaques.chip_series_record(
            establishment=fro.est,
            kind="plaque",
            description="Plaques",
            manufacturer="X",
            series_count=1,
            reserve_series=0,
            pieces=[],
            actor=fro.director,
        )
    cards = plaques.chip_series_record(
        establishment=fro.est,
        kind="carte",
        description="Cartes",
        manufacturer="Y",
        series_count=2,
        reserve_series=0,
        cards_per_series=500,
        actor=fro.director,
    )
    assert cards.pieces == [] and plaques.series_value(cards) == 0


def test_count_58_census_flags_player_held_amount_different_from_the_account(fro, monkeypatch):
    series = chips(fro)  # 75 000 € in service
    census = plaques.chip_census_record(
        establishment=fro.est,
        census_date=datetime.date(2025, 11, 2),
        counted_by="Caissier principal, comité",
        account_balance=Decimal("5000"),
        actor=fro[Role.COMITE],
        counted=[
            {"series": series.pk, "value": "100", "quantity": 550},
            {"series": series.pk, "value": "10", "quantity": 1000},
        ],
    )
    assert (census.season, census.period) == (datetime.date(2025, 11, 1), ChipCensus.Period.START)
    assert (census.counted_total, census.player_held) == (Decimal("65000.00"), Decimal("10000.00"))
    assert census.flags and "10000.00" in census.flags[0]
    entry = current_register(fro.est, REGISTRE_PLAQUES.code).entries.filter(kind="record").last()
    assert entry.payload["flags"] == census.flags and entry.payload["date"] == "2025-11-02"
    with pytest.raises(RuleViolation) as twice:  # one start-of-season census
        plaques.chip_census_record(
            establishment=fro.est,
            census_date=datetime.date(2025, 11, 3),
            counted_by="X",
            account_balance=Decimal("0"),
            actor=fro[Role.COMITE],
            counted=[{"series": series.pk, "value": "100", "quantity": 1}],
        )
    assert twice.value.code == "REG-20"
    middle = plaques.chip_census_record(
        establishment=fro.est,
        census_date=datetime.date(2026, 5, 1),
        counted_by="X",
        account_balance=Decimal("10000"),
        actor=fro[Role.COMITE],
        counted=[
            {"series": series.pk, "value": "100", "quantity": 550},
            {"series": series.pk, "value": "10", "quantity": 1000},
        ],
    )
    assert middle.period == ChipCensus.Period.MIDDLE and middle.flags == []


def test_count_58_census_due_at_season_start_and_mid_season(fro):
    series = chips(fro)
    assert plaques.censuses_due(fro.est, datetime.date(2025, 10, 31)) == [
        (datetime.date(2024, 11, 1), "start"),
        (datetime.date(2025, 5, 1), "middle"),
    ]
    assert plaques.censuses_due(fro.est, datetime.date(2026, 3, 2)) == [(datetime.date(2025, 11, 1), "start")]
    plaques.chip_census_record(
        establishment=fro.est,
        census_date=datetime.date(2025, 11, 1),
        counted_by="X",
        account_balance=Decimal("75000"),
        actor=fro[Role.COMITE],
        counted=[{"series": series.pk, "value": "100", "quantity": 0}],
    )
    assert plaques.censuses_due(fro.est, datetime.date(2026, 3, 2)) == []
    assert plaques.censuses_due(fro.est, datetime.date(2026, 5, 1)) == [(datetime.date(2026, 5, 1), "middle")]
    with pytest.raises(ValidationError):  # a value the series does not have
        plaques.chip_census_record(
            establishment=fro.est,
            census_date=datetime.date(2026, 5, 2),
            counted_by="X",
            account_balance=Decimal("0"),
            actor=fro[Role.COMITE],
            counted=[{"series": series.pk, "value": "5", "quantity": 1}],
        )


def test_count_58_register_and_census_through_the_api_and_page(client, fro):
    api = APIClient()
    api.force_authenticate(fro[Role.CAISSIER_PRINCIPAL])
    made = api.post(
        "/api/v1/cash/chip-series/",
        {
            "kind": "plaque",
            "description": "Plaques rectangulaires",
            "manufacturer": "Matsui",
            "series_count": 2,
            "reserve_series": 1,
            "pieces": [{"value": "1000", "quantity": 50}],
        },
        format="json",
    )
    assert made.status_code == 201 and made.json()["in_service_series"] == 1
    census = api.post(
        "/api/v1/cash/chip-censuses/",
        {
            "census_date": "2025-11-01",
            "counted_by": "Comité",
            "account_balance": "20000.00",
            "counted": [{"series": made.json()["id"], "value": "1000", "quantity": 30}],
        },
        format="json",
    )
    assert census.status_code == 201 and census.json()["player_held"] == "20000.00"
    assert census.json()["flags"] == []
    client.force_login(fro[Role.COMITE])
    page = client.get("/caisses/plaques-jetons/")
    assert page.status_code == 200 and "Plaques rectangulaires" in page.content.decode()
    moved = client.post(f"/caisses/plaques-jetons/series/{made.json()['id']}/", {"in_service_series": 2})
    assert moved.status_code == 302
    assert ChipSeries.objects.get().in_service_series == 2


def test_count_58_census_due_shown_on_the_dashboard(client, fro):
    today = timezone.localdate()
    season = rules.season_start(today)
    client.force_login(fro[Role.COMITE])
    expected = f"Recensement des plaques, jetons et cartes de paiement du {season:%d/%m/%Y}"
    assert expected in client.get("/").content.decode()
    series = chips(fro)
    plaques.chip_census_record(
        establishment=fro.est,
        census_date=season,
        counted_by="X",
        account_balance=Decimal(0),
        actor=fro[Role.COMITE],
        counted=[{"series": series.pk, "value": "10", "quantity": 1}],
    )
    due = plaques.censuses_due(fro.est)
    assert all(day != season for day, _period in due)
    client.force_login(fro[Role.CROUPIER])
    assert "Recensement des plaques" not in client.get("/").content.decode()
