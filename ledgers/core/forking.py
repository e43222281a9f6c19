"""Work done at once by a forked process, where the machine has the cores for a second one."""

import multiprocessing
import os
import sys
import traceback
from collections.abc import Callable
from typing import TypeVar

from django.db import connections

T = TypeVar("T")


def second_process_possible() -> bool:
    """Whether a forked process would run beside this one: two cores for this process, the fork
    start method, and this process not a daemon (a worker pool's, which may not have children)."""
    if "fork" not in multiprocessing.get_all_start_methods() or multiprocessing.current_process().daemon:
        return False
    return len(os.sched_getaffinity(0)) >= 2


def forked(work: Callable[[], T], name: str) -> Callable[[], T]:
    """``work`` run by a process forked now; gives what waits for its result. An error there is
    raised here, the forked process's traceback in its notes; a process that ends without an
    answer is a RuntimeError with its exit code. The process inherits this one's memory, open
    database connections included: there they are dropped unclosed (``_inherited_dropped``), and
    ``work`` opens its own."""
    context = multiprocessing.get_context("fork")
    receiving, sending = context.Pipe(duplex=False)

    def child() -> None:
        _inherited_dropped()
        try:
            outcome = (True, work())
        except BaseException as exc:  # raised again in the parent
            exc.add_note(traceback.format_exc())
            outcome = (False, exc)
        sending.send(outcome)
        sending.close()

    for stream in (sys.stdout, sys.stderr):  # what is buffered is written once, by this process
        stream.flush()
    process = context.Process(target=child, name=name, daemon=True)
    process.start()
    sending.close()

    def result() -> T:
        try:
            outcome = receiving.recv()
        except EOFError:  # the process died: its exit code says how
            outcome = None
        finally:
            receiving.close()
            process.join()
        if outcome is None:
            raise RuntimeError(f"{name} ended without an answer ({process.exitcode})")
        done, value = outcome
        if not done:
            raise value
        return value

    return result


# The connections a forked process inherited, held until it ends: one collected would close its
# socket, which is the parent's too, and end the parent's session.
_inherited: list = []


def _inherited_dropped() -> None:
    """In a forked process, leave every database connection it inherited to the parent: the next
    query opens one of its own instead of writing on the parent's socket."""
    for connection in connections.all(initialized_only=True):
        if connection.connection is not None:
            _inherited.append(connection.connection)
            connection.connection = None
