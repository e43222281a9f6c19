"""Key policy: for each lock type, in each jurisdiction, where the key lives, who may hold it,
who hands it over, what it may leave for, and how many people release and take it back.

The texts' custody matrix is the establishment setting SET-36 (slot keys, KEY-02 to KEY-05 in
Monaco, 68-14 in France: KEY-13 to KEY-16), SET-35 (card cabinet, KEY-10 / KEY-11) and SET-31
(roulette lid, KEY-08). Best-practice checks (BP) are in the setting "KEY-BP", switchable per
establishment: the bill-box key refused to slot-floor roles (KEY-03), one key ID for one lock type
in France (KEY-12), the upper-part opening rule where the texts may not require it (AMB-51), and
the dual-control policy (how many people release a key, who takes it back).
"""

from dataclasses import dataclass

from django.db import models
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import Establishment
from ledgers.core.roles import DIRECTORATE, Role

from .purposes import PurposeKind


class LockType(models.TextChoices):
    MACHINE_DOOR = "machine_door", _("Porte de machine")
    SOCLE = "socle", _("Socle")
    BILL_RELEASE = "bill_release", _("Bloc lecteur de billets / désolidarisation des boîtes à billets")
    BILL_CONTENT = "bill_content", _("Contenu des boîtes à billets / tickets")
    UPPER = "upper", _("Partie supérieure de machine")
    LOWER = "lower", _("Partie inférieure de machine")
    RESET = "reset", _("Réinitialisation")
    LOGIC_BOARD = "logic_board", _("Carte logique")
    CARD_CABINET = "card_cabinet", _("Armoire « dépôt des cartes » / armoire à sabots")
    CYLINDER_LID = "cylinder_lid", _("Couvercle de cylindre")
    OTHER = "other", _("Autre")


# Whose keys are sensitive: a person holding several of them at once is reported (sanity report).
SENSITIVE = frozenset(
    {
        LockType.SOCLE,
        LockType.BILL_RELEASE,
        LockType.BILL_CONTENT,
        LockType.UPPER,
        LockType.LOWER,
        LockType.RESET,
        LockType.LOGIC_BOARD,
        LockType.CARD_CABINET,
    }
)
# Slot-floor roles, refused the bill-box content keys in Monaco (KEY-03, BP).
SLOT_FLOOR = frozenset({Role.SUPERVISEUR, Role.MECANICIEN, Role.CHANGEUR, Role.EMPLOYE_JEUX})
# Who keeps the register of keys: the Direction and the slot operations director.
KEY_ADMIN = (*DIRECTORATE, Role.DIRECTEUR_EXPLOITATION)
# Who the upper-part opening needs besides the directeur responsable or comité member (KEY-17):
# the mechanic, or in casinos of at most SET-43 machines the employee in charge (AMB-51).
UPPER_MECHANIC = (Role.MECANICIEN,)
UPPER_EMPLOYEE = (Role.MECANICIEN, Role.EMPLOYE_JEUX, Role.CAISSIER)

SAME = "same"  # returned to every person who released it
FIRST = "first"  # returned to the first person who released it


@dataclass(frozen=True)
class Rule:
    code: str  # the catalogue row that the custody of this lock type enforces
    home_kind: str | None  # LocationKind the key lives in, None: held by a person
    holders: tuple[str, ...]  # roles that may hold it (custody and take); () = anyone
    givers: tuple[str, ...]  # roles that hand it over
    purposes: frozenset[str] | None  # PurposeKind it may leave for; None = any
    max_copies: int | None = None
    giver_code: str = ""  # the row refusing another giver (KEY-05), else ``code``
    purpose_code: str = ""  # the row refusing another purpose (KEY-02), else ``code``
    bp: bool = False  # the whole rule is best practice (not mandated)
    personal: bool = False  # held by a named person of ``holders`` (FR 68-14, art. 39), not kept in a place


def _roles(value) -> tuple[str, ...]:
    return tuple(str(r) for r in (value or ()))


def _kinds(value) -> frozenset[str] | None:
    return None if value is None else frozenset(value)


def rule_for(est: Establishment, lock_type: str) -> Rule:
    """The custody rule of ``lock_type`` in this establishment (its settings applied)."""
    jurisdiction = est.jurisdiction
    if lock_type == LockType.CYLINDER_LID:
        holders = _roles(est.setting("SET-31"))
        return Rule(
            "KEY-08",
            None,
            holders,
            (*KEY_ADMIN, Role.INSPECTEUR, *holders),
            frozenset({PurposeKind.TABLE_PARTIE, PurposeKind.SEANCE}),
            bp=jurisdiction != "MC",
        )
    if lock_type == LockType.CARD_CABINET:
        cabinet = est.setting("SET-35") or {}
        holders = _roles(cabinet.get("holders"))
        return Rule(
            "KEY-11" if jurisdiction == "FR" else "KEY-10",
            cabinet.get("home"),
            holders,
            holders,
            frozenset({PurposeKind.SEANCE, PurposeKind.TABLE_PARTIE}),
            max_copies=cabinet.get("copies"),
            bp=jurisdiction != "FR",
            personal=jurisdiction == "FR",
        )
    custody = (est.setting("SET-36") or {}).get(lock_type)
    if custody is None:
        return Rule("KEY-01", None, (), KEY_ADMIN, None, bp=True)
    return Rule(
        custody["code"],
        custody.get("home"),
        _roles(custody.get("holders")),
        _roles(custody["givers"]),
        _kinds(custody.get("purposes")),
        giver_code=custody.get("giver_code", ""),
        purpose_code=custody.get("purpose_code", ""),
        personal=not custody.get("home"),
    )


def bp(est: Establishment, check: str) -> bool:
    """Whether the best-practice check ``check`` is on here (setting "KEY-BP")."""
    return bool((est.setting("KEY-BP") or {}).get(check, False))


def dual_control(est: Establishment, lock_type: str) -> tuple[int, str]:
    """(how many people release the key, who takes it back: SAME or FIRST) — BP, setting "KEY-BP"."""
    policy = (est.setting("KEY-BP") or {}).get("dual_control") or {}
    release, back = policy.get(lock_type, policy.get("*", (1, FIRST)))
    return int(release), back
