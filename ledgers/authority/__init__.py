"""The authorities' registers and records: police visits and liaison, prior declarations, house
rules and displays, approved bankers, the authorisation's figures, retention and archives.

Where each requirement of these registers stands: docs/requirements/."""
