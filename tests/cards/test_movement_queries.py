"""A card movement updates the decks of its unit in bulk, each with its history row."""

from ledgers.cards import services
from ledgers.cards.models import CardUnit
from ledgers.core.roles import Role

# One huitain issued to a table, then returned, inside the test's transaction: its SAVEPOINT and
# RELEASE are counted apart (a request's transaction is the outermost one). The return: who acts
# and who countersigns in one read of their memberships, the unit and its 8 decks locked in one
# query that also says which of them an open incident names, one history INSERT for the unit and
# its decks and one UPDATE per set of values they take (two: the unit goes back to a depot, its
# decks have no location of their own), the register's head read, the entry appended with the
# head moved (one statement), the event: 8 (9 when the decks and each check's incidents were asked
# apart). The issue adds the table session's lock and takes the unit and its decks out in one
# UPDATE; the units already at the table are locked and read with the units issued, and the
# incidents' content type is joined rather than looked up: 8 (10 when they were read apart; 35
# and 31 with the SAVEPOINT when each deck was saved apart).
SAVEPOINT = 2
ISSUE_QUERIES = 8
RETURN_QUERIES = 8


def test_huitain_issue_queries_bounded_and_every_deck_has_its_history(mcw, django_assert_max_num_queries):
    (huitain,) = mcw.receive(mcw.spec("huitain"))
    session = mcw.session("punto_banco")
    decks = list(huitain.members.all())
    before = {d.pk: d.history.count() for d in decks}
    with django_assert_max_num_queries(ISSUE_QUERIES + SAVEPOINT):
        mcw.issue(session, huitain)
    for deck in CardUnit.objects.filter(parent=huitain):
        assert deck.status == "issued" and deck.table_session_id == session.pk
        assert deck.history.count() == before[deck.pk] + 1
        last = deck.history.first()
        assert last.history_type == "~"
        assert last.history_user == mcw.keeper
        assert last.history_change_reason == "sortie pour une table"
        assert last.table_session_id == session.pk


def test_huitain_return_writes_every_deck_history(mcw, django_assert_max_num_queries):
    (huitain,) = mcw.receive(mcw.spec("huitain"))
    session = mcw.session("punto_banco")
    mcw.issue(session, huitain)
    counts = {d.pk: d.history.count() for d in huitain.members.all()}
    inspecteur = mcw.u[Role.INSPECTEUR]
    with django_assert_max_num_queries(RETURN_QUERIES + SAVEPOINT):
        services.cards_return(
            units=[huitain], to_location=mcw.depot, actor=mcw.keeper, returned_by="M. Croupier", inspecteur=inspecteur
        )
    for deck in CardUnit.objects.filter(parent=huitain):
        assert deck.table_session_id is None
        assert deck.history.count() == counts[deck.pk] + 1
        assert deck.history.first().history_user == mcw.keeper
