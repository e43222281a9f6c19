"""Writes of the authorities' registers and records. Every service checks who acts, applies the
texts' rules, saves with its history row and appends its register entry in one transaction."""

from .archives import ARCHIVERS, archive_request, archive_run, register_purge
from .arretes import arrete_record, table_set_up_write
from .bankers import BANKER_APPROVERS, banker_approve, banker_withdraw
from .called_bets import (
    BET_AUTHORISERS,
    BET_WRITERS,
    called_bet_authorise,
    called_bet_record,
    called_bet_scj_notify,
)
from .common import logger
from .declarations import declaration_follow_up, declaration_record
from .display_checklists import DISPLAY_CHECKERS, display_post
from .house_rules import house_rules_publish, table_option_set
from .liaison import liaison_answer, liaison_ask
from .observations import follow_up_days, observation_follow_up, observation_record
from .progressives import (
    PROGRESSIVE_APPROVERS,
    PROGRESSIVE_READERS,
    progressive_configure,
    progressive_payout,
    progressive_read,
)

__all__ = [
    "ARCHIVERS",
    "BANKER_APPROVERS",
    "BET_AUTHORISERS",
    "BET_WRITERS",
    "DISPLAY_CHECKERS",
    "PROGRESSIVE_APPROVERS",
    "PROGRESSIVE_READERS",
    "archive_request",
    "archive_run",
    "arrete_record",
    "banker_approve",
    "banker_withdraw",
    "called_bet_authorise",
    "called_bet_record",
    "called_bet_scj_notify",
    "declaration_follow_up",
    "declaration_record",
    "display_post",
    "follow_up_days",
    "house_rules_publish",
    "liaison_answer",
    "liaison_ask",
    "logger",
    "observation_follow_up",
    "observation_record",
    "progressive_configure",
    "progressive_payout",
    "progressive_read",
    "register_purge",
    "table_option_set",
    "table_set_up_write",
]
