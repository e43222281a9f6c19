"""Key custody: the register of keys, every hand-over for an open purpose, overdue and still-out
keys, socle keys surrendered, blind inventories.

Where each KEY requirement stands: docs/requirements/."""
