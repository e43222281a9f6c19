"""Orphans (FR art. 41): carnet modèle 11 bis, abandoned stakes, restitution to a proven owner,
expired tickets never refunded (COUNT-30 to COUNT-32; REG-31)."""

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from ledgers.cash import services
from ledgers.cash.models import Orphan
from ledgers.cash.registers import CARNET_ORPHELINS
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register


def orphan(org, category=Orphan.Category.FLOOR, amount="100", **kwargs):
    fields = {"place": "Salle des jeux", "found_by": "Agent Test", "paid_into": "caisse-1", **kwargs}
    return services.orphan_record(establishment=org.est, category=category, amount=Decimal(amount),
                                  actor=org[Role.CAISSIER], **fields)


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
        services.orphan_restitute(orphan=found, amount=Decimal(50), name="M. Martin", address="", proof="",
                                  actor=fro[Role.CAISSIER])
    assert unproven.value.code == "COUNT-32"
    with pytest.raises(RuleViolation) as above:
        services.orphan_restitute(orphan=found, amount=Decimal(150), name="M. Martin", address="1 rue de Nice",
                                  proof="Vidéo 21:14, caméra 3", actor=fro[Role.CAISSIER])
    assert above.value.code == "COUNT-32"
    refunded = services.orphan_restitute(orphan=found, amount=Decimal(100), name="M. Martin",
                                         address="1 rue de Nice", proof="Vidéo 21:14, caméra 3",
                                         actor=fro[Role.CAISSIER])
    assert refunded.refunded == Decimal("100.00")
    entry = current_register(fro.est, CARNET_ORPHELINS.code).entries.filter(kind="record").last()
    assert entry.payload["amount"] == "-100.00" and f"inscription n° {found.entry_seq}" in entry.payload["col9"]


def test_count_32_expired_tickets_are_never_refunded(fro):
    expired = orphan(fro, Orphan.Category.EXPIRED_TICKET, "20")
    with pytest.raises(RuleViolation) as refused:
        services.orphan_restitute(orphan=expired, amount=Decimal(20), name="Mme Durand", address="Nice",
                                  proof="Ticket n° 4411", actor=fro[Role.CAISSIER])
    assert refused.value.code == "COUNT-32"


def test_orphan_page_and_api(client, fro):
    client.force_login(fro[Role.CAISSIER])
    assert client.post("/caisses/orphelins/nouveau/", {
        "category": "table", "amount": "25", "place": "Table RA1", "found_by": "Croupier",
        "paid_into": "caisse-1"}).status_code == 302
    found = Orphan.objects.get()
    assert client.get(f"/caisses/orphelins/{found.pk}/restitution/").status_code == 200
    api = APIClient()
    api.force_authenticate(fro[Role.CAISSIER])
    refused = api.post(f"/api/v1/cash/orphans/{found.pk}/restitution/", {
        "amount": "30", "name": "X", "address": "Y", "proof": "Z"}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "COUNT-32"
    created = api.post("/api/v1/cash/orphans/", {"category": "floor", "amount": "5", "place": "Hall",
                                                 "found_by": "Agent", "paid_into": "tirelire 1"}, format="json")
    assert created.status_code == 201 and created.json()["entry_seq"] == 3
