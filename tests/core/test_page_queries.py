"""Every demo role's home, and the main list pages, with the full demo: under a fixed bound of
queries (the homes ran one query per table-partie ever held), the same count on every visit, and
the same count again once every register holds many more lines, by every role that writes
there, and the houses held many more séances, with their card movements and key hand-overs:
what a page reads does not grow with what the house has recorded."""

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse

from bench.history import more_history, more_seances
from ledgers.core.demo import DEMO_FR, DEMO_MC, demo_logins, demo_user
from ledgers.core.models import Establishment, Seance, SeancePeriod
from ledgers.core.roles import Role
from ledgers.core.services import seance_open
from tests.demo import seed_demo

# Every role's home reads at most GOAL queries.
GOAL = 30
LIST_QUERIES = 25
LISTS = (
    "registers:list",
    "seances",
    "cards:units",
    "dice:list",
    "keys:list",
    "incidents:list",
    "slots:machines",
    "reports:list",
    "cards:day",
    "cash:day",
    "equipment:overview",
)
DIRECTORS = ((DEMO_MC, Role.DIRECTEUR_JEUX), (DEMO_FR, Role.DIRECTEUR_RESPONSABLE))


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, demo_dir):
    """The full demo, seeded once for the module and rolled back after it."""
    with django_db_blocker.unblock(), transaction.atomic():
        seed_demo(demo_dir)
        yield
        transaction.set_rollback(True)


def costs(client, assert_max, pages: list[tuple[str, str, int]]) -> dict[tuple[str, str], int]:
    """(username, url) → queries of the page, each under its bound."""
    found = {}
    users = get_user_model().objects
    for username, url, bound in pages:
        client.force_login(users.get(username=username))
        with assert_max(bound) as captured:
            response = client.get(url)
        assert response.status_code < 500, (username, url)
        found[username, url] = len(captured)
    return found


def test_every_home_and_list_page_stays_under_its_query_bound(demo, db, client, django_assert_max_num_queries):
    pages = [(username, "/", GOAL) for username, _role, _est in demo_logins()]
    pages += [(f"{role}.{code}", reverse(name), LIST_QUERIES) for code, role in DIRECTORS for name in LISTS]
    costs(client, django_assert_max_num_queries, pages)  # caches warm (content types, sessions)
    assert costs(client, django_assert_max_num_queries, pages) == costs(client, django_assert_max_num_queries, pages)


def test_every_home_and_list_page_reads_as_much_after_more_history(demo, db, client, django_assert_max_num_queries):
    pages = [(username, "/", GOAL) for username, _role, _est in demo_logins()]
    pages += [(f"{role}.{code}", reverse(name), LIST_QUERIES) for code, role in DIRECTORS for name in LISTS]
    costs(client, django_assert_max_num_queries, pages)  # caches warm
    before = costs(client, django_assert_max_num_queries, pages)
    more_history(per_register=400)
    more_seances(count=20)
    costs(client, django_assert_max_num_queries, pages)
    after = costs(client, django_assert_max_num_queries, pages)
    assert {page: (before[page], after[page]) for page in before if before[page] != after[page]} == {}


def test_every_home_reads_as_much_with_a_second_open_seance(demo, db, client, django_assert_max_num_queries):
    """The séance checks read every open séance together: a second one open in each house adds no
    query to any home."""
    pages = [(username, "/", GOAL) for username, _role, _est in demo_logins()]
    costs(client, django_assert_max_num_queries, pages)  # caches warm
    before = costs(client, django_assert_max_num_queries, pages)
    for est in Establishment.objects.filter(code__in=(DEMO_MC, DEMO_FR)):
        held = Seance.objects.filter(establishment=est, status=Seance.Status.OPEN).get()
        taken = set(Seance.objects.filter(establishment=est, date=held.date).values_list("period", flat=True))
        period = next(p for p in SeancePeriod if p not in taken)
        director = demo_user(est, Role.DIRECTEUR_JEUX if est.jurisdiction == "MC" else Role.DIRECTEUR_RESPONSABLE)
        seance_open(establishment=est, date=held.date, period=period, actor=director)
    after = costs(client, django_assert_max_num_queries, pages)
    assert {page: (before[page], after[page]) for page in before if after[page] > before[page]} == {}
