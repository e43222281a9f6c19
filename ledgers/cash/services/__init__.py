"""Writes on the table cash, one module per topic. Every service checks the actor's role, applies the
texts' rules (``RuleViolation`` with the catalogue ID), saves through ``save_audited`` (or appends an
append-only row) and writes its register entry in the same transaction."""

from .bbj import bad_beat_activate, bad_beat_record
from .cagnottes import CAGNOTTE_CONTROLLERS, PLAY_LINES, cagnotte_compute, cagnotte_count, cagnotte_play_line
from .common import CASHIERS, COUNTERS, carnet_of
from .control import CONTROL_KEEPERS, CONTROL_VISAS, control_day_close, control_day_visa
from .counts import (
    CERTIFICATION_WORDS,
    CERTIFIERS,
    REFAIT_THRESHOLD_FIXERS,
    certifier_role,
    count_certify,
    count_record,
    count_room_validation_record,
    refait_threshold,
    refait_threshold_fix,
)
from .floats import FLOAT_FIXERS, FLOAT_SIGNERS, float_amount_fix, float_record, float_refusal, table_box_record
from .levy import levy_month_close
from .orphans import ORPHAN_KEEPERS, orphan_record, orphan_restitute, orphans_season_clear, tirelire_open
from .rakes import RAKE_TAKERS, pot_rake_record
from .slips import (
    BOOK_KEEPERS,
    SLIP_RULES,
    VOIDERS,
    slip_book_open,
    slip_serve,
    slip_void,
    slip_write,
    slip_write_refusal,
    slips_centralise,
)
from .tickets import KEEPER_ONLY, TICKET_KEEPERS, ticket_book_register, ticket_stamp_entry

__all__ = [
    "BOOK_KEEPERS",
    "CAGNOTTE_CONTROLLERS",
    "CASHIERS",
    "CERTIFICATION_WORDS",
    "CERTIFIERS",
    "CONTROL_KEEPERS",
    "CONTROL_VISAS",
    "COUNTERS",
    "FLOAT_FIXERS",
    "FLOAT_SIGNERS",
    "KEEPER_ONLY",
    "ORPHAN_KEEPERS",
    "PLAY_LINES",
    "RAKE_TAKERS",
    "REFAIT_THRESHOLD_FIXERS",
    "SLIP_RULES",
    "TICKET_KEEPERS",
    "VOIDERS",
    "bad_beat_activate",
    "bad_beat_record",
    "cagnotte_compute",
    "cagnotte_count",
    "cagnotte_play_line",
    "carnet_of",
    "certifier_role",
    "control_day_close",
    "control_day_visa",
    "count_certify",
    "count_record",
    "count_room_validation_record",
    "float_amount_fix",
    "float_record",
    "float_refusal",
    "levy_month_close",
    "orphan_record",
    "orphan_restitute",
    "orphans_season_clear",
    "pot_rake_record",
    "refait_threshold",
    "refait_threshold_fix",
    "slip_book_open",
    "slip_serve",
    "slip_void",
    "slip_write",
    "slip_write_refusal",
    "slips_centralise",
    "table_box_record",
    "ticket_book_register",
    "ticket_stamp_entry",
    "tirelire_open",
]
