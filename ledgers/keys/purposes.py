"""What a key leaves its home for: the purpose registry.

Every key hand-over names its purpose (a relève, an intervention, a count, a séance, a
table-partie…), never nothing, and the purpose must be open when the key goes out. The keys app
does not import the apps that own those objects: each app declares its purpose types here, from
its ``purposes`` module, which its ``AppConfig.ready()`` imports::

    from ledgers.keys.purposes import PurposeType, purpose_type

    purpose_type(PurposeType(
        code="slots.releve", kind=PurposeKind.RELEVE, label=_("Relève"), model="slots.Releve",
        is_open=lambda releve: releve.status == "open",
        establishment=lambda releve: releve.establishment,
        describe=str,
        open_objects=lambda est: Releve.objects.filter(establishment=est, status="open"),
    ))

``kind`` is what the key policy reads (``ledgers.keys.policy``): a socle key leaves the caisse
centrale only for a purpose of kind "releve" (KEY-02), a machine key for an intervention or a
relève (KEY-05), a bill-box key for a count (KEY-03)… The ``code`` is the app's own, so that
several apps (and the tests) may declare purposes of the same kind. A hand-over stores
``(purpose_type, purpose_id)``; when the purpose closes while the key is still out, the key is
flagged on the exceptions list (KEY-02, KEY-05).

The slots app also declares how many machines an establishment runs (``fleet_size_counter``):
the upper-part opening rule reads it (KEY-17, SET-43, AMB-51). And it reads from the keys app:
``selectors.socle_surrendered`` before a socle goes "out of operation" (KEY-07), and
``selectors.lock_keys`` for a bill box's security lock (KEY-09, SLOT-12) and a French machine's
upper, lower and device locks (KEY-12). The count room declares its counts as purposes of kind
"count": the bill-box content keys go out only for one (KEY-03, KEY-14).
"""

from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from django.apps import apps
from django.db import models
from django.db.models import Model, OuterRef, QuerySet
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ledgers.core.registry import CodeRegistry

if TYPE_CHECKING:
    from ledgers.core.models import Establishment


class PurposeKind(models.TextChoices):
    RELEVE = "releve", _("Relève")
    INTERVENTION = "intervention", _("Intervention")
    COUNT = "count", _("Comptée")
    SEANCE = "seance", _("Séance")
    TABLE_PARTIE = "table_partie", _("Partie de table")
    # A copy already out when the house took its keys over from paper (``key_out_take_over``).
    TAKEOVER = "reprise", _("Reprise de l'existant")


@dataclass(frozen=True)
class PurposeType:
    code: str
    kind: str  # a PurposeKind
    label: str | Promise
    model: str  # "app_label.ModelName"
    is_open: Callable[[Any], bool]
    establishment: Callable[[Any], "Establishment"]
    describe: Callable[[Any], str]
    open_objects: Callable[["Establishment"], QuerySet]
    # False: no ordinary hand-over names it (the take-over of a copy already out).
    issuable: bool = True
    # The objects still open for a key already out (``is_open`` as a query); None: ``open_objects``.
    still_open: Callable[["Establishment"], QuerySet] | None = None

    def open_for_keys(self, establishment: "Establishment | OuterRef") -> QuerySet:
        """The objects still open for a key already out, of ``establishment`` (or of the house an
        outer query refers to: the declared queries only filter on it)."""
        return (self.still_open or self.open_objects)(establishment)

    def get(self, pk: int) -> Model | None:
        return apps.get_model(self.model).objects.filter(pk=pk).first()


PURPOSES: CodeRegistry[PurposeType] = CodeRegistry("key purpose type")
purpose_type = PURPOSES.declare


def get_purpose_type(code: str) -> PurposeType | None:
    try:
        return PURPOSES.get(code)
    except KeyError:
        return None


def purpose_types(kinds: frozenset[str] | None = None) -> list[PurposeType]:
    return [p for p in PURPOSES if kinds is None or p.kind in kinds]


_fleet_counters: list[Callable[["Establishment"], int]] = []


def fleet_size_counter(counter: Callable[["Establishment"], int]) -> Callable[["Establishment"], int]:
    """Declare how the machines of an establishment are counted (the slots app)."""
    if counter not in _fleet_counters:
        _fleet_counters.append(counter)
    return counter


def fleet_size(establishment: "Establishment") -> int | None:
    """The number of slot machines the establishment runs (the counter declared last), None while no
    app counts them."""
    return _fleet_counters[-1](establishment) if _fleet_counters else None


def _seance_open(seance) -> bool:
    return seance.status == seance.Status.OPEN


def _open_seances(est: "Establishment") -> QuerySet:
    from ledgers.core.selectors import open_seances

    return open_seances(est)


def _live_sessions(est: "Establishment") -> QuerySet:
    from ledgers.core.models import TableSession

    return (
        TableSession.objects.filter(seance__establishment=est)
        .exclude(status=TableSession.Status.CLOSED)
        .select_related("seance", "table")
    )


# The séance and the table-partie (the card cabinet key, KEY-11; the roulette lid key, KEY-08).
SEANCE = PurposeType(
    code="core.seance",
    kind=PurposeKind.SEANCE,
    label=_("Séance"),
    model="core.Seance",
    is_open=_seance_open,
    establishment=attrgetter("establishment"),
    describe=str,
    open_objects=_open_seances,
)
TABLE_PARTIE = PurposeType(
    code="core.table_partie",
    kind=PurposeKind.TABLE_PARTIE,
    label=_("Partie de table"),
    model="core.TableSession",
    is_open=attrgetter("is_live"),
    establishment=attrgetter("seance.establishment"),
    describe=str,
    open_objects=_live_sessions,
)


purpose_type(SEANCE)
purpose_type(TABLE_PARTIE)
