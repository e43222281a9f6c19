"""Taking over the register of keys from paper: each key with its holder, checked by the key
rules (FR: the card cabinet's single key in the hands of the directeur responsable or a comité
member, KEY-11), each line of the register of keys citing its paper page."""

import pytest
from django.core.exceptions import ValidationError

from ledgers.core.errors import RuleViolation
from ledgers.keys.models import Key
from ledgers.keys.selectors import cabinet_key, holder_now
from ledgers.keys.services import key_register
from ledgers.registers.models import Entry
from ledgers.takeover import services
from ledgers.takeover.selectors import inventory_problems
from tests.factories import open_register

from .test_cards import verify_ledgers_ok

pytestmark = pytest.mark.django_db

PAPER = "Registre des clés papier n° 1"


def cabinet(holder: str, page: int = 2, **fields) -> dict:
    row = {"page": str(page), "code": "ARM-1", "lock_type": "card_cabinet", "opens": "Armoire dépôt des cartes"}
    row.update(holder=holder, copies="1", asset_ref="armoire")
    row.update(fields)
    return row


def test_key_11_fr_cabinet_key_with_its_holder(house_fr):
    h = house_fr
    open_register(h.est, "registre_cles")
    rows = [cabinet(h.cartier.username), cabinet(h.director.username, page=3, copies="2")]
    problems = inventory_problems(establishment=h.est, domain="keys", rows=rows)
    assert [(p.row, p.field, p.code) for p in problems] == [(1, "holder", "KEY-11"), (2, "copies", "KEY-11")]
    rows = [cabinet(h.director.get_full_name()), cabinet(h.director.username, page=3)]
    problems = inventory_problems(establishment=h.est, domain="keys", rows=rows)
    assert [(p.row, p.field) for p in problems] == [(2, "code")]
    inventory = services.takeover_prepare(
        establishment=h.est, domain="keys", paper_register=PAPER, rows=rows[:1], actor=h.cartier
    )
    services.takeover_sign(inventory=inventory, actor=h.director)
    with pytest.raises(ValidationError):  # no authority visas the register of keys
        services.takeover_visa(inventory=inventory, actor=h.authority, statement="Vu")
    services.takeover_post(inventory=inventory, actor=h.director)
    key = cabinet_key(h.est)
    assert holder_now(key) == h.director
    (entry,) = Entry.objects.filter(register__kind="registre_cles", kind="record")
    assert entry.payload["observations"] == f"1 exemplaire — Reprise de l'existant : {PAPER}, p. 2"
    verify_ledgers_ok()


def test_reg_20_keys_no_take_over_once_a_key_was_registered(house_fr):
    h = house_fr
    open_register(h.est, "registre_cles")
    key_register(establishment=h.est, actor=h.director, code="C1", lock_type="other", opens="Bureau", home=h.depot)
    with pytest.raises(RuleViolation) as refused:
        services.takeover_prepare(
            establishment=h.est,
            domain="keys",
            paper_register=PAPER,
            rows=[cabinet(h.director.username)],
            actor=h.cartier,
        )
    assert refused.value.code == "REG-20"
    assert Key.objects.filter(establishment=h.est).count() == 1
