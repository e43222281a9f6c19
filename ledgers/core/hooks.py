"""Preconditions that domain apps attach to table sessions.

Core must not import the domain apps, yet a table may open only when their rules allow it
(second control done, dice allocation signed, wheel checked…). Each app registers its checks in
``AppConfig.ready()``; a check raises ``RuleViolation`` to refuse.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import TableSession

Check = Callable[["TableSession"], None]

_opening_checks: list[Check] = []
_closing_checks: list[Check] = []


def on_table_opening(check: Check) -> Check:
    if check not in _opening_checks:
        _opening_checks.append(check)
    return check


def on_table_closing(check: Check) -> Check:
    if check not in _closing_checks:
        _closing_checks.append(check)
    return check


def run_opening_checks(session: "TableSession") -> None:
    for check in _opening_checks:
        check(session)


def run_closing_checks(session: "TableSession") -> None:
    for check in _closing_checks:
        check(session)
