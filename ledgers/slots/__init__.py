"""Slot machines (appareils automatiques): the socle file and the machine inventory, meters and
relèves, interventions, jackpot payments, slot accounting, counts, the slot cash desk,
progressive and multisite jackpots, tickets and the room's staffing.

Where each SLOT requirement stands: docs/requirements/."""
