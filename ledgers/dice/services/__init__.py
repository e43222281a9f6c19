"""Writes on dice. Suppliers, purchase orders, depot transfers, the annex ledger, verification and
the destruction steps are the shared custody services called with the ``DICE`` domain; these
services add what only dice have: receipt with its inspection, pairs and cap, allocation per
séance with its signature, swaps, the end-of-séance check, withdrawal, and the destruction
checks of each jurisdiction."""

from .allocation import allocator_role, dice_allocate
from .checks import DieResult, Result, dice_end_check, end_check_signer_role
from .common import SWAP_ROLES, service_register
from .destruction import (
    WithdrawReason,
    dice_destruction_complete,
    dice_destruction_plan,
    dice_withdraw,
    withdrawer_role,
)
from .receipt import (
    DieInput,
    dice_die_check,
    dice_pairs_cap_set,
    dice_pairs_check,
    dice_receive,
    dice_serials_check,
    receiver_role,
)
from .swaps import dice_swap, swapper_role

__all__ = [
    "SWAP_ROLES",
    "DieInput",
    "DieResult",
    "Result",
    "WithdrawReason",
    "allocator_role",
    "dice_allocate",
    "dice_destruction_complete",
    "dice_destruction_plan",
    "dice_die_check",
    "dice_end_check",
    "dice_pairs_cap_set",
    "dice_pairs_check",
    "dice_receive",
    "dice_serials_check",
    "dice_swap",
    "dice_withdraw",
    "end_check_signer_role",
    "receiver_role",
    "service_register",
    "swapper_role",
    "withdrawer_role",
]
