import os

import pytest
from django.db import connection

from ledgers.core.forking import forked


def failing() -> None:
    raise ValueError("no disk left")


def test_a_forked_process_gives_its_result():
    assert forked(os.getpid, name="the walk")() != os.getpid()


def test_an_error_in_a_forked_process_is_raised_with_its_traceback():
    with pytest.raises(ValueError, match="no disk left") as raised:
        forked(failing, name="the walk")()
    assert any("in failing" in note for note in raised.value.__notes__)


def test_a_forked_process_that_dies_is_an_error_with_its_exit_code():
    with pytest.raises(RuntimeError, match=r"the walk ended without an answer \(3\)"):
        forked(lambda: os._exit(3), name="the walk")()


@pytest.mark.django_db(transaction=True)
def test_a_forked_process_opens_its_own_connection_and_leaves_the_parents_open():
    """The connection open when forking is the parent's: the forked process queries on its own
    and the parent's session goes on."""

    def backend() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()" if connection.vendor == "postgresql" else "SELECT 1")
            return cursor.fetchone()[0]

    ours = backend()
    theirs = [forked(backend, name="a query")() for _ in range(2)]
    assert backend() == ours
    if connection.vendor == "postgresql":
        assert ours not in theirs
