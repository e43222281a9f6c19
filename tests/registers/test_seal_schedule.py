"""Seals run every few minutes (at most fifteen) and at each séance close, so that the entries no
seal covers are those of minutes, not of a day."""

import pytest
from django.conf import settings
from django.test import override_settings
from django.utils import timezone

from ledgers.core.roles import Role
from ledgers.core.services import seance_close, seance_open
from ledgers.registers import tasks
from tests.factories import open_seance_registers


def test_reg_20_the_seal_runs_at_least_every_fifteen_minutes():
    schedule = settings.CELERY_BEAT_SCHEDULE["seal-register-checkpoints"]
    assert schedule["task"] == "ledgers.registers.tasks.checkpoints_seal_task"
    assert schedule["schedule"] == settings.LEDGERS_SEAL_INTERVAL_MINUTES * 60 <= 15 * 60


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("on_close", [True, False])
def test_reg_20_a_seance_close_asks_for_a_seal_once_committed(mc, user_in, monkeypatch, on_close):
    asked = []
    monkeypatch.setattr(tasks.checkpoints_seal_task, "delay", lambda: asked.append(True))
    open_seance_registers(mc)
    director = user_in(mc, Role.DIRECTEUR_JEUX)
    with override_settings(LEDGERS_SEAL_ON_SEANCE_CLOSE=on_close):
        seance = seance_open(establishment=mc, date=timezone.localdate(), period="soiree", actor=director)
        assert asked == []
        seance_close(seance=seance, actor=director)
    assert asked == ([True] if on_close else [])
