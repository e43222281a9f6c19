"""A card movement updates the decks of its unit in bulk, each with its history row."""

from ledgers.cards.models import CardUnit

# One huitain issued to a table, then returned, inside the test's transaction (its SAVEPOINT and
# RELEASE counted): the act's checks, the units locked with their decks, the unit and its 8 decks
# in one UPDATE and one history INSERT, the register entry and the event (35 and 31 queries when
# each deck was saved apart, 22 and 17 when the unit was saved apart and its decks asked again by
# each check).
ISSUE_QUERIES = 14
RETURN_QUERIES = 12


def test_huitain_issue_queries_bounded_and_every_deck_has_its_history(mcw, django_assert_max_num_queries):
    (huitain,) = mcw.receive(mcw.spec("huitain"))
    session = mcw.session("punto_banco")
    decks = list(huitain.members.all())
    before = {d.pk: d.history.count() for d in decks}
    with django_assert_max_num_queries(ISSUE_QUERIES):
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
    with django_assert_max_num_queries(RETURN_QUERIES):
        mcw.give_back(huitain)
    for deck in CardUnit.objects.filter(parent=huitain):
        assert deck.table_session_id is None
        assert deck.history.count() == counts[deck.pk] + 1
        assert deck.history.first().history_user == mcw.keeper
