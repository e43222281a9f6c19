"""Taking over the keys out on a hand-over from paper: each copy in its holder's hands since the
paper's date, due back at its time, checked by the key's custody rule (FR: the card cabinet's key
only with the directeur responsable or a comité member, KEY-11), its line of the register of keys
citing the paper page; taken back by anyone who may hand the key over."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from ledgers.core.errors import RuleViolation
from ledgers.keys.models import Key, KeyIssue
from ledgers.keys.selectors import exceptions, holder_now
from ledgers.keys.services import key_issue, key_register, key_return
from ledgers.registers.models import Entry
from ledgers.takeover import services
from ledgers.takeover.selectors import domain_started, inventory_problems
from tests.factories import open_register

from .test_cards import verify_ledgers_ok

pytestmark = pytest.mark.django_db

PAPER = "Registre des clés papier n° 4"


def at(days: int) -> str:
    return (timezone.localtime() + datetime.timedelta(days=days)).strftime("%d/%m/%Y %H:%M")


def out(key: str, holder, released_by, page: int = 9, **fields) -> dict:
    row = {
        "page": str(page),
        "key": key,
        "holder": holder.username,
        "released_by": released_by.username,
        "issued_at": at(-2),
        "due_at": at(1),
        "purpose": "Réparation de la serrure du bureau",
    }
    row.update(fields)
    return row


@pytest.fixture
def keys(house_fr):
    h = house_fr
    open_register(h.est, "registre_cles")
    key_register(establishment=h.est, actor=h.director, code="C1", lock_type="other", opens="Bureau", home=h.depot)
    key_register(establishment=h.est, actor=h.director, code="C2", lock_type="other", opens="Réserve", home=h.depot)
    key_register(
        establishment=h.est,
        actor=h.director,
        code="ARM-1",
        lock_type="card_cabinet",
        opens="Armoire dépôt des cartes",
        asset_ref="armoire",
        custodian=h.director,
    )
    return h


def test_key_11_keys_out_checked_by_their_custody_then_entered_out(keys):
    h = keys
    rows = [
        out("C1", h.cartier, h.director),
        out("C1", h.cartier, h.director, page=10),  # its one copy is already out, on the line above
        out("ARM-1", h.cartier, h.director),  # FR: the cabinet's key stays with the direction
        out("C9", h.cartier, h.director),
        out("C2", h.cartier, h.director, issued_at=at(1)),
        out("C2", h.cartier, h.cartier),  # a cartier does not hand the keys over
        out("C2", h.cartier, h.director, due_at="demain"),
    ]
    problems = inventory_problems(establishment=h.est, domain="keys_out", rows=rows)
    assert [(p.row, p.field, p.code == "KEY-11") for p in problems] == [
        (2, "key", False),
        (3, "holder", True),
        (4, "key", False),
        (5, "issued_at", False),
        (6, "released_by", False),
        (7, "due_at", False),
    ]
    inventory = services.takeover_prepare(
        establishment=h.est, domain="keys_out", paper_register=PAPER, rows=rows[:1], actor=h.cartier
    )
    services.takeover_sign(inventory=inventory, actor=h.director)
    services.takeover_post(inventory=inventory, actor=h.director)
    issue = KeyIssue.objects.get(key__code="C1")
    assert holder_now(issue.key) == h.cartier and issue.issued_by == h.director
    assert issue.issued_at < timezone.now() - datetime.timedelta(days=1)  # held since the paper's date
    assert not exceptions(h.est)  # not due yet
    entry = Entry.objects.get(register__kind="registre_cles", payload__event="Clé sortie reprise du registre papier")
    assert entry.payload["observations"] == f"Reprise de l'existant : {PAPER}, p. 9"
    assert entry.payload["purpose"] == "Reprise de l'existant : Réparation de la serrure du bureau"
    # Late once its due time from paper has passed, like any other copy out.
    assert [e.issue for e in exceptions(h.est, now=timezone.now() + datetime.timedelta(days=2))] == [issue]
    verify_ledgers_ok()


def test_no_ordinary_hand_over_names_the_take_over_as_its_purpose(keys):
    h = keys
    inventory = services.takeover_prepare(
        establishment=h.est,
        domain="keys_out",
        paper_register=PAPER,
        rows=[out("C1", h.cartier, h.director)],
        actor=h.cartier,
    )
    services.takeover_sign(inventory=inventory, actor=h.director)
    services.takeover_post(inventory=inventory, actor=h.director)
    with pytest.raises(ValidationError):
        key_issue(
            key=Key.objects.get(code="C2"),
            actor=h.director,
            holder=h.cartier,
            purpose_type="takeover.inventory",
            purpose_id=inventory.pk,
            due_at=timezone.now() + datetime.timedelta(hours=2),
        )


def test_reg_20_a_key_out_comes_back_to_whoever_may_hand_it_over_and_ends_the_take_over(keys):
    h = keys
    inventory = services.takeover_prepare(
        establishment=h.est,
        domain="keys_out",
        paper_register=PAPER,
        rows=[out("C1", h.cartier, h.director)],
        actor=h.cartier,
    )
    services.takeover_sign(inventory=inventory, actor=h.director)
    services.takeover_post(inventory=inventory, actor=h.director)
    assert not domain_started(h.est, "keys_out")  # what the take-over brought is no ordinary act
    issue = KeyIssue.objects.get()
    with pytest.raises(ValidationError):  # nobody released it here: a cartier may not take it back
        key_return(issue=issue, actor=h.cartier, returned_by=h.cartier)
    key_return(issue=issue, actor=h.director, returned_by=h.cartier)
    assert holder_now(issue.key) is None
    with pytest.raises(RuleViolation) as refused:
        services.takeover_prepare(
            establishment=h.est,
            domain="keys_out",
            paper_register=PAPER,
            rows=[out("C2", h.cartier, h.director)],
            actor=h.cartier,
        )
    assert refused.value.code == "REG-20"
    verify_ledgers_ok()
