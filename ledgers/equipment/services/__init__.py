"""Writes on sabots, shufflers and wheels, one module per topic. Every service checks the actor's
role, applies the texts' rules (``RuleViolation`` with the catalogue ID), changes the objects through
``save_audited`` and appends its register entry in the same transaction."""

from .approved_models import approved_model_register, require_current_approval
from .common import FR_SHOE_KEEPERS, MANAGERS, TABLE_STAFF
from .launches import launch_roster_set, launch_turn_record
from .shoes import (
    plays_with_shoe,
    shoe_allocate,
    shoe_allocation_refusal,
    shoe_keeper_role,
    shoe_numbers_check,
    shoe_receive,
    shoe_return,
    shoe_returner_role,
    shoe_update,
    shoe_withdraw,
)
from .shufflers import (
    check_shuffler_eligible,
    shuffler_commission,
    shuffler_commission_check,
    shuffler_identity_check,
    shuffler_malfunction_report,
    shuffler_mount,
    shuffler_pause_record,
    shuffler_register,
    shuffler_return_to_service,
    shuffler_socle_check,
    shuffler_take_over,
    shuffler_unmount,
    shuffler_use_end,
    shuffler_use_start,
    socle_create,
)
from .wheels import wheel_check_record, wheel_commission, wheel_install, wheel_lid_lock, wheel_register

__all__ = [
    "FR_SHOE_KEEPERS",
    "MANAGERS",
    "TABLE_STAFF",
    "approved_model_register",
    "check_shuffler_eligible",
    "launch_roster_set",
    "launch_turn_record",
    "plays_with_shoe",
    "require_current_approval",
    "shoe_allocate",
    "shoe_allocation_refusal",
    "shoe_keeper_role",
    "shoe_numbers_check",
    "shoe_receive",
    "shoe_return",
    "shoe_returner_role",
    "shoe_update",
    "shoe_withdraw",
    "shuffler_commission",
    "shuffler_commission_check",
    "shuffler_identity_check",
    "shuffler_malfunction_report",
    "shuffler_mount",
    "shuffler_pause_record",
    "shuffler_register",
    "shuffler_return_to_service",
    "shuffler_socle_check",
    "shuffler_take_over",
    "shuffler_unmount",
    "shuffler_use_end",
    "shuffler_use_start",
    "socle_create",
    "wheel_check_record",
    "wheel_commission",
    "wheel_install",
    "wheel_lid_lock",
    "wheel_register",
]
