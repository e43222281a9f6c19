"""Every demo role's home, and the main list pages, run a fixed number of queries whatever the
history: after more past table-parties and register entries, the same count, under a fixed bound."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from ledgers.core.demo import DEMO_FR, DEMO_MC, close_past_seances, demo_logins
from ledgers.core.models import Establishment, TableSession
from ledgers.core.roles import Role
from ledgers.registers.models import Register
from ledgers.registers.selectors import record_actor
from ledgers.registers.services import entries_bulk_append
from ledgers.registers.synthetic import synthetic_payloads
from ledgers.tables import demo as tables_demo

# The busiest home (FR directeur responsable, comité: about 90 with the demo, over 700 when each
# table-partie ever held cost its own queries): every panel's reads, then the page's own.
HOME_QUERIES = 100
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
def demo(django_db_setup, django_db_blocker):
    """The full demo, seeded once for the module and rolled back after it."""
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("seed_demo", stdout=StringIO())
        yield
        transaction.set_rollback(True)


def more_history() -> None:
    """Five more past evenings of table-parties with their staff, limits and reliefs, and a few
    hundred more entries in each main courante."""
    tables_demo.seed(stdout=StringIO(), days=tables_demo.DAYS + 5)
    close_past_seances(stdout=StringIO())
    for code, _director in DIRECTORS:
        est = Establishment.objects.get(code=code)
        main = est.registers.get(kind="main_courante", status=Register.Status.OPEN)
        writer, role = record_actor(main)
        payloads = synthetic_payloads(main.kind_info, 300, start=timezone.now())
        entries_bulk_append(register=main, actor=writer, role=role, payloads=payloads)


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


def test_homes_and_list_pages_cost_the_same_whatever_the_history(demo, db, client, django_assert_max_num_queries):
    pages = [(username, "/", HOME_QUERIES) for username, _role, _est in demo_logins()]
    pages += [(f"{role}.{code}", reverse(name), LIST_QUERIES) for code, role in DIRECTORS for name in LISTS]
    costs(client, django_assert_max_num_queries, pages)  # caches warm (content types, sessions)
    before = costs(client, django_assert_max_num_queries, pages)
    parties = TableSession.objects.count()
    more_history()
    assert TableSession.objects.count() > parties
    assert costs(client, django_assert_max_num_queries, pages) == before
