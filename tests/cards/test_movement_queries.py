"""A card movement updates the decks of its unit in bulk, each with its history row, and its
entry seals the digests of those rows that the same statement returned."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from ledgers.cards import services
from ledgers.cards.models import CardEvent, CardUnit
from ledgers.core.roles import Role
from ledgers.registers.digests import stored_digests, transaction_digests, update_with_history
from ledgers.registers.written import take_written

# One huitain issued to a table, then returned, inside the test's transaction: the service's own
# transaction is a SAVEPOINT and RELEASE there, a BEGIN and COMMIT in a request (whose
# transaction is the outermost one), and is counted apart; no other savepoint is taken. The return: who acts
# and who countersigns in one read of their memberships, the unit and its 8 decks locked in one
# query that also says which of them an open incident names (and, FR, whether the unit passed its
# post-partie control), FR the holder of the card cabinet's key read with its copy out (KEY-11),
# one statement that updates the unit and its decks (the unit goes back to a depot, its decks take
# no location of their own: one CASE on that column), inserts their history rows from the rows it
# updated and returns them with those the transaction wrote before, whose digests the entry of
# format 3 seals without reading them again; the register's head read, the entry appended with the
# head moved (one statement), the event: 6 in Monaco, 7 in France (8 and 9 with the UPDATE, the
# history INSERT and the digests' read apart; 9 and 10 with an UPDATE per set of values and the
# control asked apart). The issue adds the table session's lock; the units already at the table
# are locked and read with the units issued, and the incidents' content type is joined rather
# than looked up: 7 in Monaco, 8 in France (10 and 11 when they were read apart; 35 and 31 with
# the SAVEPOINT when each deck was saved apart). The bounds hold in both jurisdictions.
ISSUE_QUERIES = 8
RETURN_QUERIES = 7


def statements(captured: CaptureQueriesContext) -> list[str]:
    """The statements of one service call, its own transaction's SAVEPOINT and RELEASE left out."""
    sql = [query["sql"] for query in captured.captured_queries]
    assert sql[0].startswith("SAVEPOINT") and sql[-1].startswith("RELEASE SAVEPOINT"), sql
    inner = sql[1:-1]
    assert not [s for s in inner if "SAVEPOINT" in s.split(" ", 2)[:2]], inner
    return inner


def test_huitain_issue_queries_bounded_and_every_deck_has_its_history(mcw):
    (huitain,) = mcw.receive(mcw.spec("huitain"))
    session = mcw.session("punto_banco")
    decks = list(huitain.members.all())
    before = {d.pk: d.history.count() for d in decks}
    with CaptureQueriesContext(connection) as captured:
        mcw.issue(session, huitain)
    assert len(statements(captured)) <= ISSUE_QUERIES, statements(captured)
    for deck in CardUnit.objects.filter(parent=huitain):
        assert deck.status == "issued" and deck.table_session_id == session.pk
        assert deck.history.count() == before[deck.pk] + 1
        last = deck.history.first()
        assert last.history_type == "~"
        assert last.history_user == mcw.keeper
        assert last.history_change_reason == "sortie pour une table"
        assert last.table_session_id == session.pk


def test_huitain_return_writes_every_deck_history(mcw):
    (huitain,) = mcw.receive(mcw.spec("huitain"))
    session = mcw.session("punto_banco")
    mcw.issue(session, huitain)
    counts = {d.pk: d.history.count() for d in huitain.members.all()}
    inspecteur = mcw.u[Role.INSPECTEUR]
    with CaptureQueriesContext(connection) as captured:
        services.cards_return(
            units=[huitain], to_location=mcw.depot, actor=mcw.keeper, returned_by="M. Croupier", inspecteur=inspecteur
        )
    assert len(statements(captured)) <= RETURN_QUERIES, statements(captured)
    for deck in CardUnit.objects.filter(parent=huitain):
        assert deck.table_session_id is None
        assert deck.history.count() == counts[deck.pk] + 1
        assert deck.history.first().history_user == mcw.keeper


def examined(world, unit: CardUnit) -> None:
    """FR: examined at the table before it goes back to the cabinet (CARD-37)."""
    if not world.mc:
        services.cards_post_control(
            unit=unit, actor=world.u[Role.CROUPIER], complete=True, order_restored=True, marks_found=False
        )


def given_back(world, unit: CardUnit) -> None:
    services.cards_return(
        units=[unit],
        to_location=world.depot,
        actor=world.keeper,
        returned_by="M. Croupier",
        inspecteur=world.u[Role.INSPECTEUR] if world.mc else None,
    )


def test_sixain_issue_and_return_queries_bounded_in_both_jurisdictions(world):
    (sixain,) = world.receive(world.spec("sixain"))
    session = world.session("blackjack")
    with CaptureQueriesContext(connection) as captured:
        world.issue(session, sixain)
    assert len(statements(captured)) <= ISSUE_QUERIES, statements(captured)
    examined(world, sixain)
    with CaptureQueriesContext(connection) as captured:
        given_back(world, sixain)
    assert len(statements(captured)) <= RETURN_QUERIES, statements(captured)


def written_here(units: list[CardUnit]) -> dict[str, str]:
    """{history id: digest} of every history row of ``units`` that this transaction wrote, read
    from the table as stored now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT history_id FROM cards_historicalcardunit WHERE id = ANY(%s) AND ledgers_txid = txid_current()",
            [[u.pk for u in units]],
        )
        hids = [hid for (hid,) in cursor.fetchall()]
    return {str(hid): digest for hid, (_pk, digest) in sorted(stored_digests("cards.CardUnit", hids).items())}


@pytest.mark.postgresql
def test_movement_entry_seals_every_history_row_of_its_units_as_stored(world):
    (sixain,) = world.receive(world.spec("sixain"))
    units = [sixain, *sixain.members.all()]
    world.issue(world.session("blackjack"), sixain)
    issue = CardEvent.objects.filter(unit=sixain, kind=CardEvent.Kind.ISSUE).get().entry
    assert issue.written == {"cards.CardUnit": sorted(u.pk for u in units)}
    assert issue.digests == {"cards.CardUnit": written_here(units)}
    examined(world, sixain)
    given_back(world, sixain)
    back = CardEvent.objects.filter(unit=sixain, kind=CardEvent.Kind.RETURN).get().entry
    assert back.digests == {"cards.CardUnit": written_here(units)}
    assert len(back.digests["cards.CardUnit"]) > len(issue.digests["cards.CardUnit"])


class Refused(Exception):
    pass


@pytest.mark.postgresql
def test_digests_returned_by_a_write_rolled_back_are_not_sealed(mcw):
    """The rows a rolled-back savepoint wrote are gone: the next entry reads what stands."""
    (sixain,) = mcw.receive(mcw.spec("sixain"))
    units = [sixain, *sixain.members.all()]
    with pytest.raises(Refused), transaction.atomic():
        update_with_history(units, {"pae": False}, user=mcw.keeper, reason="essai")
        raise Refused
    names = take_written()
    assert names == {"cards.CardUnit": sorted(u.pk for u in units)}
    assert transaction_digests(names) == {"cards.CardUnit": written_here(units)}
