"""Celery tasks of the registers: the daily sealing of checkpoints (CELERY_BEAT_SCHEDULE)."""

import logging

from celery import shared_task

from .services import checkpoints_seal
from .verification import Finding

logger = logging.getLogger("ledgers.checkpoints")


@shared_task(acks_late=True)
def checkpoints_seal_task() -> None:
    """Seal, and log every checkpoint (ship this logger off the database host: each line is an
    anchor) and every register refused because it does not verify."""
    for result in checkpoints_seal():
        if isinstance(result, Finding):
            logger.error("register not sealed: %s (%s)", result, result.code)
        else:
            logger.info("sealed %s %s %s %s", result.register.number, result.seq, result.entry_hash, result.mac)
