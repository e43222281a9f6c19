"""Dashboard panels contributed by the domain apps.

Core does not know what waits for a user in each domain. An app registers a provider in its
``dashboard.py``, which the home imports the first time it is shown (``discover``); the dashboard
calls every provider with the request and the current establishment and shows the panels they
return (``None``: nothing to show for this user), late ones first, each as one line with its count
that opens onto the panel.
Above them, the role's main acts of the day (``main_acts`` providers): one click from the home to
the form, or the reason it cannot be done now. Core's own panel, the séances still open, is the
last one below.
"""

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar

from django.http import HttpRequest
from django.utils.functional import Promise
from django.utils.module_loading import autodiscover_modules
from django.utils.translation import gettext_lazy as _

from . import hooks
from .authz import roles_of, roles_remembered
from .catalogue import REQUIREMENTS
from .models import Establishment, Seance, TableSession
from .services import SEANCE_MANAGERS


@dataclass(frozen=True)
class Panel:
    title: str | Promise
    template: str  # rendered with ``context`` plus the page's context
    context: dict[str, Any] = field(default_factory=dict)
    order: int = 100  # smaller first
    late: bool = False  # something in it is overdue: shown before the rest
    count: int | None = None  # None: the lengths of the lists in ``context``

    @property
    def size(self) -> int:
        """How many things wait in this panel (the count shown on the home's line)."""
        if self.count is not None:
            return self.count
        return sum(len(value) for value in self.context.values() if isinstance(value, list | tuple))


Provider = Callable[[HttpRequest, Establishment], Panel | None]
T = TypeVar("T")

# What several panels of one home read (whether the house has slot machines…): read once while the
# home is built, read afresh everywhere else. Read-only: nothing is written while it is held.
_read_once: ContextVar[dict[Hashable, Any] | None] = ContextVar("dashboard_read_once", default=None)


@contextmanager
def home_reads() -> Iterator[None]:
    """Within the block, ``read_once`` reads each fact once; nested blocks share the outer one's."""
    if _read_once.get() is not None:
        yield
        return
    token = _read_once.set({})
    try:
        yield
    finally:
        _read_once.reset(token)


def read_once(key: Hashable, read: Callable[[], T]) -> T:
    """``read()``, remembered under ``key`` while the home is built (``home_reads``)."""
    memory = _read_once.get()
    if memory is None:
        return read()
    if key not in memory:
        memory[key] = read()
    return memory[key]


def open_seances_read(establishment: Establishment) -> list[Seance]:
    """The house's open séances by date, with their establishment (the checks read it) and the
    facts the apps read of them (``hooks.open_seances_with_facts``): read once for a home."""
    return read_once(
        ("core.open_seances", establishment.pk),
        lambda: hooks.open_seances_with_facts(establishment),
    )


def open_parties(establishment: Establishment) -> list[TableSession]:
    """Every table-partie of the house's open séances, with the facts the apps read of them
    (``hooks.party_facts``), by table number: read once for a home, whose séance checks and the
    panels of what the tables still need all read them."""
    return read_once(
        ("core.open_parties", establishment.pk),
        lambda: hooks.open_parties_with_facts(establishment),
    )


_providers: list[Provider] = []


@cache
def discover() -> None:
    """Import every app's ``dashboard`` and ``charts`` modules, which declare the panels, the main
    acts and the charts: when a page first asks for them rather than at start (as the admin finds its
    ``admin`` modules), so that the commands load none of the libraries of the pages."""
    autodiscover_modules("dashboard", "charts")


def dashboard_panel(provider: Provider) -> Provider:
    """Register a panel provider (usable as a decorator); registering twice is harmless."""
    if provider not in _providers:
        _providers.append(provider)
    return provider


def panels_for(request: HttpRequest, establishment: Establishment) -> list[Panel]:
    discover()
    with roles_remembered(request.user), home_reads():  # every provider asks for the user's roles
        panels = [provider(request, establishment) for provider in _providers]
    return sorted((p for p in panels if p is not None), key=lambda p: (not p.late, p.order))


@dataclass(frozen=True)
class MainAct:
    """A role's act of the day, a primary button at the top of its home: ``url`` when the user can
    do it now; else the reason, in the words of the refusal the service would give, with its rule's
    catalogue ID (the button is shown disabled, so the person knows what to wait for)."""

    label: str | Promise
    url: str = ""
    reason: str | Promise = ""
    code: str = ""
    order: int = 100

    @property
    def article(self) -> str:
        return REQUIREMENTS[self.code].article if self.code else ""


ActProvider = Callable[[HttpRequest, Establishment], list[MainAct]]

_act_providers: list[ActProvider] = []


def main_acts(provider: ActProvider) -> ActProvider:
    """Register a provider of main acts (usable as a decorator); registering twice is harmless."""
    if provider not in _act_providers:
        _act_providers.append(provider)
    return provider


def main_acts_for(request: HttpRequest, establishment: Establishment) -> list[MainAct]:
    discover()
    with roles_remembered(request.user), home_reads():
        acts = [act for provider in _act_providers for act in provider(request, establishment)]
    return sorted(acts, key=lambda act: act.order)


@dashboard_panel
def open_seances_panel(request: HttpRequest, establishment: Establishment) -> Panel | None:
    """The séances still open, with how many records each still lacks, for those who close them."""
    if not roles_of(request.user, establishment) & set(SEANCE_MANAGERS):
        return None
    seances = open_seances_read(establishment)
    # Each check reads every open séance in one query, their table-parties as the other panels do.
    with hooks.seances_read_together(seances, open_parties(establishment)):
        rows = [(seance, len(hooks.seance_missing(seance))) for seance in seances]
    if not rows:
        return None
    return Panel(_("Séances ouvertes"), "core/_panel_seances.html", {"rows": rows}, order=10)
