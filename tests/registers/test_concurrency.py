"""Concurrent writers to one register: the row lock serialises them into one gapless chain."""

import threading

import pytest
from django.db import connection

from ledgers.registers.models import Entry
from ledgers.registers.services import entry_append
from ledgers.registers.verification import verify_register
from tests.registers.conftest import opened_register

WRITERS, APPENDS = 8, 200


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_reg_20_concurrent_writers_make_one_gapless_chain(mc, mc_staff):
    register = opened_register(mc, mc_staff)
    start = threading.Barrier(WRITERS)
    errors: list[BaseException] = []

    def write(writer: int) -> None:
        try:
            start.wait()
            for i in range(APPENDS):
                entry_append(
                    register=register,
                    actor=mc_staff.writer,
                    role=mc_staff.writer_role,
                    payload={"writer": writer, "i": i},
                )
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)
        finally:
            connection.close()  # each thread has its own connection; do not leak it

    threads = [threading.Thread(target=write, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    register.refresh_from_db()
    total = WRITERS * APPENDS + 1  # and the opening act
    assert register.head_seq == total
    seqs = list(Entry.objects.filter(register=register).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, total + 1))
    assert verify_register(register) is None
    written = Entry.objects.filter(register=register, kind="record").values_list("payload", flat=True)
    assert sorted((p["writer"], p["i"]) for p in written) == [(w, i) for w in range(WRITERS) for i in range(APPENDS)]
