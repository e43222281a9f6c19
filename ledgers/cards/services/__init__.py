"""Every write of the card domain. Each service checks the actor's role, refuses what the texts
forbid (RuleViolation with the catalogue ID), changes the units through ``save_audited`` and
writes its register entry in the same transaction.

Who does what (MC from AM 88-384 art. 1, FR from the arrêté of 14 May 2007 arts. 39-40-1):
receipt — MC the cartier (CARD-03), FR the receiving employee of the carnet modèle 19; issue and
return — MC the cartier, the return under the inspecteur's surveillance (CARD-18), FR the holder
of the single key of the card cabinet (directeur responsable or comité member, CARD-34/37);
controls at the table — the croupier or chef de table; PAE — the DCC staff (MC only)."""

from .anomalies import cards_anomaly_report
from .common import (
    BEST_PRACTICE_OPTION,
    DEPOT_CONTROLLERS,
    DESIGNATORS,
    EXCHANGERS,
    KEEPERS,
    KEY_HOLDERS,
    RECEIVERS,
    REPORTERS,
    TABLE_STAFF,
    WITHDRAWERS,
    Kind,
    best_practice,
)
from .controls import POST_CONTROLLERS, cards_first_control, cards_post_control
from .destruction import cards_destruction_complete, cards_destruction_plan
from .exchanges import cards_exchange, cards_exchange_reconcile, cards_replacement_designate, cards_reshuffle_order
from .issue import cards_issue
from .receipt import ReceivedDeck, ReceivedUnit, cards_receive, cards_serials_check, cards_unit_check
from .returns import cards_return, cards_stock_verification, cards_withdraw
from .table import cards_pae_confirm, cards_pae_prepare, cards_table_control, cards_unseal

__all__ = [
    "BEST_PRACTICE_OPTION",
    "DEPOT_CONTROLLERS",
    "DESIGNATORS",
    "EXCHANGERS",
    "KEEPERS",
    "KEY_HOLDERS",
    "POST_CONTROLLERS",
    "RECEIVERS",
    "REPORTERS",
    "TABLE_STAFF",
    "WITHDRAWERS",
    "Kind",
    "ReceivedDeck",
    "ReceivedUnit",
    "best_practice",
    "cards_anomaly_report",
    "cards_destruction_complete",
    "cards_destruction_plan",
    "cards_exchange",
    "cards_exchange_reconcile",
    "cards_first_control",
    "cards_issue",
    "cards_pae_confirm",
    "cards_pae_prepare",
    "cards_post_control",
    "cards_receive",
    "cards_replacement_designate",
    "cards_reshuffle_order",
    "cards_return",
    "cards_serials_check",
    "cards_stock_verification",
    "cards_table_control",
    "cards_unit_check",
    "cards_unseal",
    "cards_withdraw",
]
