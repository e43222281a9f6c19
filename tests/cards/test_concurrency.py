"""Card movements racing at the same moment (PostgreSQL row locks): an issue to a table while units
are returned from it, two issues to one table, issues to two tables. Whatever the interleaving,
each act either succeeds or is refused by the rule that the other act's outcome makes apply; no
deadlock, no lost update, and the registers stay gapless chains that verify."""

import io
import threading
from collections.abc import Callable
from functools import partial

import pytest
from django.core.management import call_command
from django.db import connection

from ledgers.cards.models import CardEvent, CardUnit
from ledgers.core.errors import RuleViolation
from ledgers.custody.models import ItemStatus
from ledgers.registers.models import Entry, Register

ROUNDS = 5
OK = "ok"


def race(*acts: Callable[[], object]) -> list[str]:
    """Run the acts at once, each in its thread with its own connection: ``ok`` or the code of the
    RuleViolation refusing it, in the order of ``acts``. Anything else (a deadlock's
    OperationalError…) fails the test."""
    start = threading.Barrier(len(acts))
    outcomes: list[str | None] = [None] * len(acts)
    errors: list[BaseException] = []

    def run(n: int, act: Callable[[], object]) -> None:
        try:
            start.wait()
            act()
            outcomes[n] = OK
        except RuleViolation as exc:
            outcomes[n] = exc.code
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)
        finally:
            connection.close()  # each thread has its own connection; do not leak it

    threads = [threading.Thread(target=run, args=(n, act)) for n, act in enumerate(acts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads)
    assert errors == []
    return outcomes


def assert_at(unit: CardUnit, session) -> None:
    """The unit and its decks issued to the table session."""
    for row in CardUnit.objects.filter(pk=unit.pk) | CardUnit.objects.filter(parent=unit):
        assert (row.status, row.table_session_id, row.location_id) == (ItemStatus.ISSUED, session.pk, None), row


def assert_in_depot(unit: CardUnit, world, status: str) -> None:
    """The unit in the depot (its decks with it, and no location of their own)."""
    unit.refresh_from_db()
    assert (unit.status, unit.table_session_id, unit.location_id) == (status, None, world.depot.pk)
    for deck in CardUnit.objects.filter(parent=unit):
        assert (deck.status, deck.table_session_id, deck.location_id) == (status, None, None), deck


def assert_ledgers_sound(world) -> None:
    """Every register of the house a gapless chain, and verify_ledgers finds nothing (chains, and each
    unit in the state of its last history row, each history row written with its register entry)."""
    for register in Register.objects.filter(establishment=world.est):
        seqs = list(Entry.objects.filter(register=register).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, register.head_seq + 1)), register
    call_command("verify_ledgers", stdout=io.StringIO())  # CommandError on the first finding


def issued_to(session) -> set[int]:
    events = CardEvent.objects.filter(kind=CardEvent.Kind.ISSUE, table_session=session)
    return set(events.values_list("unit", flat=True))


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_issue_while_the_table_returns_its_units(mcw):
    """The table holds a sixain and receives another while the first goes back: the issue waits for
    the return (it reads the units at the table under lock) and succeeds, or goes first and is
    refused because the table would hold twelve decks (GAME-01); the return always succeeds."""
    session = mcw.session("blackjack")
    units = mcw.receive(*(mcw.spec() for _ in range(2 * ROUNDS + 1)))
    held = units.pop()
    mcw.issue(session, held)
    outcomes = set()
    for _ in range(ROUNDS):
        new = units.pop()
        issue, give_back = race(partial(mcw.issue, session, new), partial(mcw.give_back, held))
        outcomes.add(issue)
        assert give_back == OK
        assert_in_depot(held, mcw, ItemStatus.AWAITING_CONTROL)
        if issue == OK:
            held = new
        else:
            assert issue == "GAME-01"
            assert_in_depot(new, mcw, ItemStatus.IN_STOCK)
            held = units.pop()
            mcw.issue(session, held)
        assert_at(held, session)
    assert outcomes <= {OK, "GAME-01"}
    assert_ledgers_sound(mcw)


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_two_issues_to_one_table(mcw):
    """Two sixains issued to one blackjack table at once: the issues to a table wait for one another,
    so the second sees the first's six decks there and is refused (GAME-01)."""
    session = mcw.session("blackjack")
    for _ in range(ROUNDS):
        first, second = mcw.receive(mcw.spec(), mcw.spec())
        outcomes = race(partial(mcw.issue, session, first), partial(mcw.issue, session, second))
        assert sorted(outcomes) == ["GAME-01", OK]
        issued, refused = (first, second) if outcomes[0] == OK else (second, first)
        assert_at(issued, session)
        assert_in_depot(refused, mcw, ItemStatus.IN_STOCK)
        assert issued_to(session) >= {issued.pk} and refused.pk not in issued_to(session)
        mcw.give_back(issued)
    assert_ledgers_sound(mcw)


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_issues_to_two_tables(mcw):
    """Two tables each receive their sixain at the same moment: both issues succeed; the same sixain
    asked by both at once goes to one of them, the other is refused (CARD-08)."""
    sessions = [mcw.session("blackjack"), mcw.session("trente_quarante")]
    for _ in range(ROUNDS):
        units = mcw.receive(mcw.spec(), mcw.spec())
        assert race(*(partial(mcw.issue, s, u) for s, u in zip(sessions, units, strict=True))) == [OK, OK]
        for session, unit in zip(sessions, units, strict=True):
            assert_at(unit, session)
        mcw.give_back(units[0])
        mcw.give_back(units[1])

        (shared,) = mcw.receive(mcw.spec())
        outcomes = race(*(partial(mcw.issue, s, shared) for s in sessions))
        assert sorted(outcomes) == ["CARD-08", OK]
        assert_at(shared, sessions[outcomes.index(OK)])
        assert shared.pk not in issued_to(sessions[outcomes.index("CARD-08")])
        mcw.give_back(shared)
    assert_ledgers_sound(mcw)
