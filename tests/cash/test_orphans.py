"""Orphans (FR art. 41): carnet modèle 11 bis, abandoned stakes, restitution to a proven owner,
expired tickets never refunded (COUNT-30 to COUNT-32; REG-31)."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from ledgers.cash import services
from ledgers.cash.models import Orphan
from ledgers.cash.registers import CARNET_ORPHELINS
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register


def orphan(org, category=Orphan.Category.FLOOR, amount="100", **kwargs):
    fields = {"place": "Salle des jeux", "found_by": "Agent Test", "paid_into": "caisse-1", **kwargs}
    return services.orphan_record(
        establishment=org.est, category=category, amount=Decimal(amount), actor=org[Role.CAISSIER], **fields
    )


def test_count_31_every_orphan_written_in_carnet_11_bis(fro):
    found = orphan(fro, paid_into="tirelire n° 2")
    entry = current_register(fro.est, CARNET_ORPHELINS.code).entries.get(seq=found.entry_seq)
    assert entry.payload["amount"] == "100.00" and entry.payload["paid_into"] == "tirelire n° 2"


def test_count_30_abandoned_stake_gives_its_initial_stake_and_cumulative_winnings(fro):
    with pytest.raises(RuleViolation) as missing:
        orphan(fro, Orphan.Category.ABANDONED_STAKE, "350")
    assert missing.value.code == "COUNT-30"
    with pytest.raises(RuleViolation) as wrong:
        orphan(fro, Orphan.Category.ABANDONED_STAKE, "350", initial_stake=Decimal(10), winnings=Decimal(300))
    assert wrong.value.code == "COUNT-30"
    stake = orphan(fro, Orphan.Category.ABANDONED_STAKE, "350", initial_stake=Decimal(10), winnings=Decimal(340))
    assert stake.initial_stake + stake.winnings == stake.amount


def test_count_32_restitution_to_a_proven_owner_within_the_amount(fro):
    found = orphan(fro, amount="100")
    with pytest.raises(RuleViolation) as unproven:
        services.orphan_restitute(
            orphan=found, amount=Decimal(50), name="M. Martin", address="", proof="", actor=fro[Role.CAISSIER]
        )
    assert unproven.value.code == "COUNT-32"
    with pytest.raises(RuleViolation) as above:
        services.orphan_restitute(
            orphan=found,
            amount=Decimal(150),
            name="M. Martin",
            address="1 rue de Nice",
            proof="Vidéo 21:14, caméra 3",
            actor=fro[Role.CAISSIER],
        )
    assert above.value.code == "COUNT-32"
    refunded = services.orphan_restitute(
        orphan=found,
        amount=Decimal(100),
        name="M. Martin",
        address="1 rue de Nice",
        proof="Vidéo 21:14, caméra 3",
        actor=fro[Role.CAISSIER],
    )
    assert refunded.refunded == Decimal("100.00")
    entry = current_register(fro.est, CARNET_ORPHELINS.code).entries.filter(kind="record").last()
    assert entry.payload["amount"] == "-100.00" and f"inscription n° {found.entry_seq}" in entry.payload["col9"]


def test_count_32_expired_tickets_are_never_refunded(fro):
    expired = orphan(fro, Orphan.Category.EXPIRED_TICKET, "20")
    with pytest.raises(RuleViolation) as refused:
        services.orphan_restitute(
            orphan=expired,
            amount=Decimal(20),
            name="Mme Durand",
            address="Nice",
            proof="Ticket n° 4411",
            actor=fro[Role.CAISSIER],
        )
    assert refused.value.code == "COUNT-32"


def test_orphan_page_and_api(client, fro):
    client.force_login(fro[Role.CAISSIER])
    assert (
        client.post(
            "/caisses/orphelins/nouveau/",
            {
                "category": "table",
                "amount": "25",
                "place": "Table RA1",
                "found_by": "Croupier",
                "paid_into": "caisse-1",
            },
        ).status_code
        == 302
    )
    found = Orphan.objects.get()
    assert client.get(f"/caisses/orphelins/{found.pk}/restitution/").status_code == 200
    api = APIClient()
    api.force_authenticate(fro[Role.CAISSIER])
    refused = api.post(
        f"/api/v1/cash/orphans/{found.pk}/restitution/",
        {"amount": "30", "name": "X", "address": "Y", "proof": "Z"},
        format="json",
    )
    assert refused.status_code == 409 and refused.json()["code"] == "COUNT-32"
    created = api.post(
        "/api/v1/cash/orphans/",
        {"category": "floor", "amount": "5", "place": "Hall", "found_by": "Agent", "paid_into": "tirelire 1"},
        format="json",
    )
    assert created.status_code == 201 and created.json()["entry_seq"] == 3


def test_count_31_tirelire_opened_before_witnesses_only_for_sums_posted_in_carnet_11_bis(fro):
    orphan(fro, amount="40", paid_into="tirelire 2")
    orphan(fro, amount="60", paid_into="tirelire 2")
    orphan(fro, amount="500", paid_into="caisse-1")
    with pytest.raises(RuleViolation) as unposted:
        services.tirelire_open(
            establishment=fro.est,
            tirelire="tirelire 2",
            amount=Decimal("120"),
            witnesses=["Agent Test"],
            actor=fro[Role.CAISSIER],
        )
    assert unposted.value.code == "COUNT-31"
    opening = services.tirelire_open(
        establishment=fro.est,
        tirelire="tirelire 2",
        amount=Decimal("100"),
        witnesses=["Agent Test"],
        actor=fro[Role.CAISSIER],
    )
    assert "100.00 € trouvés" in opening.payload["detail"] and opening.payload["amount"] == ""
    # The next opening counts only what was dropped in since this one.
    orphan(fro, amount="15", paid_into="tirelire 2")
    with pytest.raises(RuleViolation):
        services.tirelire_open(
            establishment=fro.est,
            tirelire="tirelire 2",
            amount=Decimal("100"),
            witnesses=["Agent Test"],
            actor=fro[Role.CAISSIER],
        )
    short = services.tirelire_open(
        establishment=fro.est,
        tirelire="tirelire 2",
        amount=Decimal("10"),
        witnesses=["Agent Test"],
        actor=fro[Role.CAISSIER],
    )
    assert "5.00" in short.payload["col9"]


def test_count_31_orphans_account_cleared_at_the_season_end_equal_to_the_carnet_total(fro):
    found = [orphan(fro, amount="100"), orphan(fro, amount="250")]
    services.orphan_restitute(
        orphan=found[0],
        amount=Decimal("30"),
        name="M. Dupont",
        address="Nice",
        proof="ticket",
        actor=fro[Role.CAISSIER],
    )
    Orphan.objects.update(found_at=datetime.datetime(2025, 3, 1, 22, tzinfo=datetime.UTC))
    season = datetime.date(2024, 11, 1)
    with pytest.raises(RuleViolation) as unequal:
        services.orphans_season_clear(
            establishment=fro.est, season_start=season, account_balance=Decimal("350"), actor=fro.director
        )
    assert unequal.value.code == "COUNT-31"
    clearing = services.orphans_season_clear(
        establishment=fro.est, season_start=season, account_balance=Decimal("320"), actor=fro.director
    )
    assert "320.00" in clearing.payload["detail"] and clearing.payload["season"] == "2024-11-01"
    with pytest.raises(ValidationError):
        services.orphans_season_clear(
            establishment=fro.est, season_start=season, account_balance=Decimal("320"), actor=fro.director
        )


def test_count_31_tirelire_and_season_clearing_through_the_api(fro):
    orphan(fro, amount="40", paid_into="T-1")
    client = APIClient()
    client.force_authenticate(fro[Role.CAISSIER])
    body = {"tirelire": "T-1", "amount": "50", "witnesses": ["Agent Test"]}
    refused = client.post("/api/v1/cash/orphans/tirelires/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "COUNT-31"
    opened = client.post("/api/v1/cash/orphans/tirelires/", {**body, "amount": "40"}, format="json")
    assert opened.status_code == 201 and opened.json()["payload"]["tirelire"] == "T-1"
    client.force_authenticate(fro.director)
    clearing = client.post(
        "/api/v1/cash/orphans/season-clearing/", {"season_start": "2024-11-01", "account_balance": "0"}, format="json"
    )
    assert clearing.status_code == 201 and "0.00" in clearing.json()["payload"]["detail"]
    far = client.post(
        "/api/v1/cash/orphans/season-clearing/", {"season_start": "0001-01-01", "account_balance": "0"}, format="json"
    )
    assert far.status_code == 400
