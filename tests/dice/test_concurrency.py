"""Two tables allocated the same dice at the same moment: one allocation wins, the other is
refused (DICE-09), whatever the interleaving (PostgreSQL row locks)."""

import threading

import pytest
from django.db import connection

from ledgers.core.errors import RuleViolation
from ledgers.dice.models import AllocatedDie, DiceAllocation
from ledgers.dice.services import dice_allocate
from tests.dice.conftest import receive_mc


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_dice_09_concurrent_allocations_of_the_same_dice(mc_org):
    seance = mc_org.seance()
    sessions = [mc_org.session(seance), mc_org.session(seance, table=mc_org.other_table)]
    dice = receive_mc(mc_org, 5)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def allocate(session):
        try:
            barrier.wait()
            dice_allocate(session=session, dice=dice, actor=mc_org["cartier"], signer=mc_org["sous_directeur"])
            outcomes.append("allocated")
        except RuleViolation as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=allocate, args=(session,)) for session in sessions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["DICE-09", "allocated"]
    assert DiceAllocation.objects.count() == 1 and AllocatedDie.objects.count() == 5
