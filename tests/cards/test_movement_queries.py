"""A card movement updates the decks of its unit in bulk, each with its history row."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledgers.cards import services
from ledgers.cards.models import CardUnit
from ledgers.core.roles import Role

# One huitain issued to a table, then returned, inside the test's transaction: the service's own
# transaction is a SAVEPOINT and RELEASE there, a BEGIN and COMMIT in a request (whose
# transaction is the outermost one), and is counted apart; no other savepoint is taken. The return: who acts
# and who countersigns in one read of their memberships, the unit and its 8 decks locked in one
# query that also says which of them an open incident names (and, FR, whether the unit passed its
# post-partie control), one UPDATE of the unit and its decks (the unit goes back to a depot, its
# decks take no location of their own: one CASE on that column), one history INSERT, the
# register's head read, the entry appended with the head moved (one statement), the event: 7 (9
# with an UPDATE per set of values and the control asked apart). The issue adds the table
# session's lock; the units already at the table are locked and read with the units issued, and
# the incidents' content type is joined rather than looked up: 8 (10 when they were read apart;
# 35 and 31 with the SAVEPOINT when each deck was saved apart). An entry of format 3 adds one
# read: the history rows its transaction wrote for the objects it names, whose digests it seals.
ISSUE_QUERIES = 9
RETURN_QUERIES = 8


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


def cabinet(world) -> int:
    """FR: the holder of the card cabinet's key, read with its copy out in one query (KEY-11)."""
    return 0 if world.mc else 1


def test_sixain_issue_and_return_queries_bounded_in_both_jurisdictions(world):
    (sixain,) = world.receive(world.spec("sixain"))
    session = world.session("blackjack")
    with CaptureQueriesContext(connection) as captured:
        world.issue(session, sixain)
    assert len(statements(captured)) <= ISSUE_QUERIES + cabinet(world), statements(captured)
    if not world.mc:  # FR: examined at the table before it goes back to the cabinet (CARD-37)
        services.cards_post_control(
            unit=sixain, actor=world.u[Role.CROUPIER], complete=True, order_restored=True, marks_found=False
        )
    with CaptureQueriesContext(connection) as captured:
        services.cards_return(
            units=[sixain],
            to_location=world.depot,
            actor=world.keeper,
            returned_by="M. Croupier",
            inspecteur=world.u[Role.INSPECTEUR] if world.mc else None,
        )
    assert len(statements(captured)) <= RETURN_QUERIES + cabinet(world), statements(captured)
