"""Celery tasks of the registers: the sealing of checkpoints (CELERY_BEAT_SCHEDULE), and the
witnesses' cosignatures of the sealed heads."""

import logging

from casino_compliance.celery import app

from .cosign import cosignatures_request
from .services import checkpoints_seal
from .treeheads import tree_heads_seal
from .verification import Finding

logger = logging.getLogger("ledgers.checkpoints")


@app.task(acks_late=True)
def checkpoints_seal_task() -> None:
    """Seal, and log every checkpoint and tree head (ship this logger off the database host: each line is an
    anchor) and every register refused because it does not verify; then ask the witnesses to cosign
    the new heads (cosignatures_request logs each answer)."""
    for result in checkpoints_seal():
        if isinstance(result, Finding):
            logger.error("register not sealed: %s (%s)", result, result.code)
        else:
            logger.info(
                "sealed %s %s %s %s %s",
                result.register.number,
                result.seq,
                result.entry_hash,
                result.key_id,
                result.signature,
            )
    for tree_head in tree_heads_seal():
        logger.info(
            "tree head %s %s %s %s %s",
            tree_head.establishment.code,
            tree_head.number,
            tree_head.tree_hash,
            tree_head.key_id,
            tree_head.signature,
        )
    cosignatures_request()
