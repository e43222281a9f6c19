"""The slot room's change points and cash desk (MC AM 88-384 art. 16, 22: SLOT-21; FR-2007 art.
68-26: SLOT-48, SLOT-49).

Change is given at a desk, by change machines or by itinerant changers. A person works a desk or
changes on the floor only once assigned to it for the séance: MC the itinerant changeur specially
assigned (SLOT-21), FR the cashier named for the séance and the itinerant changer with a fixed sum
(SLOT-48). The encaisse opens in cash and chips, is justified at any time by the items the text
lists (the open avance and payment bons of the carnets modèle 29 count as cash values until the
next count), and after the séance is restored to its composition (or, after a count, its amount)
by deposits or withdrawals with the caisse centrale or the plaques-and-chips deposit account
(SLOT-49): the assignment closes only then, and the séance with it (``hooks``).

FR: counterfeit coins and foreign currency found go into a locked box at the cash desk, are never
exchanged and are destroyed at the end of the financial year under the control of the comptable
du Trésor (FR-2007 art. 68-23, SLOT-45).
"""

import datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet, Sum
from django.db.models.functions import JSONObject
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import role_named_by_text, roles_of, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.expressions import ArraySubquery
from ledgers.core.models import Establishment, Seance
from ledgers.core.readable import euros
from ledgers.core.roles import Role
from ledgers.registers.models import Entry
from ledgers.registers.services import display_name, entry_write, register_language
from ledgers.registers.written import note_written, reserve_written

from .. import selectors
from ..models import (
    AccountingLine,
    ChangeAssignment,
    ChangeMovement,
    ChangePoint,
    CommonDeskValidation,
    CounterfeitDestruction,
    CounterfeitItem,
    EncaisseJustification,
    Machine,
    SlotCount,
)
from ..registers import CHANGE_POINTS
from . import accounting
from .common import INVENTORY_ROLES, _line

Kind = ChangePoint.Kind
LIMIT = Decimal("1e12")
# Who sets up change points and assigns people each séance: the inventory keepers (MC the
# Directeur de l'exploitation or the Direction, FR the directeur responsable or a comité member),
# and the superviseur who runs the room (MC) or the caissier principal (FR).
ASSIGN_ROLES = {
    "MC": (*INVENTORY_ROLES["MC"], Role.SUPERVISEUR),
    "FR": (*INVENTORY_ROLES["FR"], Role.CAISSIER_PRINCIPAL),
}
# Who may be assigned: a cashier at a desk, a changeur (or a cashier) on the floor.
ASSIGNABLE = {
    Kind.DESK: (Role.CAISSIER, Role.CAISSIER_PRINCIPAL),
    Kind.SECONDARY: (Role.CAISSIER, Role.CAISSIER_PRINCIPAL),
    Kind.ITINERANT: (Role.CHANGEUR, Role.CAISSIER),
    # the common desk's cashier handles both table-game and slot operations (SLOT-26)
    Kind.COMMON: (Role.CAISSIER, Role.CAISSIER_PRINCIPAL),
}
# Art. 68-26: a common desk in casinos of 75 machines or fewer, or more if all are cashless.
COMMON_DESK_MAX = 75
# The items that justify the encaisse (art. 68-26), in the order of the text.
JUSTIFICATION_ITEMS = {
    "cash": _("Espèces"),
    "cheques": _("Chèques"),
    "card_receipts": _("Reçus de cartes bancaires"),
    "chips": _("Jetons"),
    "bons": _("Bons d'avance ou de paiement par caisse"),
    "tickets_redeemed": _("Tickets remboursés"),
    "tickets_issued": _("État récapitulatif des tickets émis par la caisse"),
    "cashless": _("État des opérations par cartes précréditées ou système monétique"),
}


def _code(est: Establishment) -> str:
    return "SLOT-21" if est.jurisdiction == "MC" else "SLOT-48"


def desk_line(
    est: Establishment,
    *,
    actor: AbstractBaseUser,
    role: str,
    event: Any,
    at: datetime.datetime,
    detail: str,
    amount: Decimal | None = None,
) -> dict[str, Any]:
    """A line of the slot cash desk's register (``CHANGE_POINTS``), in the registers' language."""
    with register_language():
        payload = _line(
            None,
            event=event,
            at=at,
            detail=detail,
            actor=actor,
            role=role,
            est=est,
            amount=str(amount) if amount is not None else "",
        )
    payload.pop("machine")
    return payload


def _entry(est: Establishment, *, actor: AbstractBaseUser, role: str, **line: Any) -> Entry:
    """Write ``desk_line``'s line (``line``: its event, time, detail and amount)."""
    payload = desk_line(est, actor=actor, role=role, **line)
    return entry_write(establishment=est, kind=CHANGE_POINTS.code, actor=actor, role=role, payload=payload)


def _amount(name: str, value: Decimal | None, *, positive: bool = False) -> None:
    if value is None:
        return
    if value >= LIMIT or (value <= 0 if positive else value < 0):
        raise ValidationError({name: _("Montant positif attendu.")})


@transaction.atomic
def change_point_create(
    *,
    establishment: Establishment,
    kind: str,
    name: str,
    actor: AbstractBaseUser,
    cash: Decimal = Decimal("0"),
    chips: Decimal = Decimal("0"),
    fixed_sum: Decimal | None = None,
) -> ChangePoint:
    """A change point in the register (SLOT-21): FR an itinerant changer works with a fixed sum
    (SLOT-48); a desk's encaisse is set in cash and chips (SLOT-49)."""
    est = establishment
    role = role_named_by_text(
        actor,
        est,
        ASSIGN_ROLES[est.jurisdiction],
        _code(est),
        _("Les points de change sont tenus par la direction de la salle des machines."),
    )
    if kind not in Kind.values:
        raise ValidationError({"kind": _("Nature inconnue.")})
    if kind == Kind.COMMON:
        raise RuleViolation(
            "SLOT-26",
            _(
                "Une caisse commune n'est mise en place qu'avec la validation préalable du "
                "chef du service de police judiciaire."
            ),
        )
    if not name.strip():
        raise ValidationError({"name": _("La désignation est obligatoire.")})
    _amount("cash", cash)
    _amount("chips", chips)
    _amount("fixed_sum", fixed_sum, positive=True)
    if kind == Kind.ITINERANT and fixed_sum is None and est.jurisdiction == "FR":
        raise RuleViolation("SLOT-48", _("Un changeur itinérant dispose d'une somme fixe."))
    if kind == Kind.ITINERANT:
        cash, chips = fixed_sum or Decimal("0"), Decimal("0")
    return _create_point(
        est, kind=kind, name=name, cash=cash, chips=chips, fixed_sum=fixed_sum, actor=actor, role=role
    )[0]


def _create_point(
    est: Establishment,
    *,
    kind: str,
    name: str,
    cash: Decimal,
    chips: Decimal,
    fixed_sum: Decimal | None,
    actor: AbstractBaseUser,
    role: str,
    detail: str = "",
) -> tuple[ChangePoint, Entry]:
    if ChangePoint.objects.filter(establishment=est, name=name.strip()).exists():
        raise ValidationError({"name": _("Ce point de change existe déjà.")})
    now = timezone.now()
    point = save_audited(
        ChangePoint(
            establishment=est, kind=kind, name=name.strip(), cash=cash, chips=chips, fixed_sum=fixed_sum, created_at=now
        ),
        actor=actor,
        reason="création",
    )
    entry = _entry(
        est,
        actor=actor,
        role=role,
        event=_("Point de change"),
        at=now,
        amount=point.encaisse,
        detail=f"{point} — {_('espèces')} {cash} € — {_('jetons')} {chips} €" + detail,
    )
    return point, entry


@transaction.atomic
def common_desk_enable(
    *,
    establishment: Establishment,
    name: str,
    route: str,
    contiguous_tables: bool,
    validation_reference: str,
    validation_date: datetime.date,
    validator_name: str,
    actor: AbstractBaseUser,
    cash: Decimal = Decimal("0"),
    chips: Decimal = Decimal("0"),
) -> CommonDeskValidation:
    """A common cash desk including the table-games desk, keeping separate accounts (SLOT-26):
    (a) 75 machines or fewer, (b) more, all on TITO or an approved cashless system; in both, table
    games in contiguous premises and the prior validation of the chief of the territorially
    competent judicial police service."""
    est = establishment
    if est.jurisdiction != "FR":
        raise ValidationError(_("La caisse commune est prévue dans les casinos français."))
    role = role_named_by_text(
        actor,
        est,
        INVENTORY_ROLES["FR"],
        "SLOT-26",
        _("La caisse commune est mise en place par la direction du casino."),
    )
    if route not in CommonDeskValidation.Route.values:
        raise ValidationError({"route": _("Nature inconnue.")})
    _amount("cash", cash)
    _amount("chips", chips)
    if not (validation_reference.strip() and validator_name.strip() and validation_date):
        raise RuleViolation(
            "SLOT-26",
            _(
                "Une caisse commune n'est mise en place qu'avec la validation préalable du "
                "chef du service de police judiciaire."
            ),
        )
    if validation_date > est.localtime(timezone.now()).date():
        raise ValidationError({"validation_date": _("La validation est préalable : sa date ne peut être à venir.")})
    if not contiguous_tables:
        raise RuleViolation("SLOT-26", _("La caisse commune suppose des jeux de table dans des lieux contigus."))
    in_service = selectors.machines_of(est).filter(status=Machine.Status.IN_SERVICE)
    machines = in_service.count()
    if route == CommonDeskValidation.Route.SMALL and machines > COMMON_DESK_MAX:
        raise RuleViolation(
            "SLOT-26",
            _(
                "%(n)d machines en exploitation : plus de 75, la caisse commune suppose que "
                "toutes fonctionnent avec des tickets ou un système monétique agréé."
            )
            % {"n": machines},
        )
    if route == CommonDeskValidation.Route.CASHLESS:
        paper = [m.number for m in in_service if not m.cashless]
        if paper:
            raise RuleViolation(
                "SLOT-26", _("Machines sans tickets ni système monétique agréé : %(m)s.") % {"m": ", ".join(paper)}
            )
    detail = (
        f" — {CommonDeskValidation.Route(route).label} — {validation_reference.strip()} "
        f"{validation_date:%d/%m/%Y} — {validator_name.strip()}"
    )
    point, entry = _create_point(
        est, kind=Kind.COMMON, name=name, cash=cash, chips=chips, fixed_sum=None, actor=actor, role=role, detail=detail
    )
    return CommonDeskValidation.objects.create(
        point=point,
        route=route,
        machines=machines,
        contiguous_tables=contiguous_tables,
        validation_reference=validation_reference.strip(),
        validation_date=validation_date,
        validator_name=validator_name.strip(),
        recorded_at=point.created_at,
        recorded_by=actor,
        entry=entry,
    )


@transaction.atomic
def change_assign(
    *, point: ChangePoint, seance: Seance, person: AbstractBaseUser | None, actor: AbstractBaseUser
) -> ChangeAssignment:
    """Assign a named person to a change point for the séance: FR the slot desk's cashier (SLOT-48),
    MC the itinerant changeur (SLOT-21). The encaisse opens at the point's set cash and chips."""
    est = point.establishment
    code = _code(est)
    role = role_named_by_text(
        actor,
        est,
        ASSIGN_ROLES[est.jurisdiction],
        code,
        _("Les affectations sont faites par la direction de la salle des machines."),
    )
    if seance.establishment_id != est.pk or seance.status != Seance.Status.OPEN:
        raise ValidationError({"seance": _("La séance doit être ouverte dans l'établissement.")})
    if point.kind == Kind.MACHINE or not point.active:
        raise ValidationError({"point": _("On n'affecte personne à une machine de change ou à un point fermé.")})
    if person is None or not roles_of(person, est) & set(ASSIGNABLE[point.kind]):
        raise RuleViolation(
            code, _("Une personne nommée, caissier à une caisse ou changeur sur la salle, est affectée pour la séance.")
        )
    if ChangeAssignment.objects.filter(point=point, seance=seance).exists():
        raise ValidationError(_("Ce point de change a déjà son affectation pour la séance."))
    now = timezone.now()
    assignment = save_audited(
        ChangeAssignment(
            point=point,
            seance=seance,
            person=person,
            opening_cash=point.cash,
            opening_chips=point.chips,
            opened_at=now,
            assigned_by=actor,
        ),
        actor=actor,
        reason="affectation",
    )
    _entry(
        est,
        actor=actor,
        role=role,
        event=_("Affectation pour la séance"),
        at=now,
        amount=point.encaisse,
        detail=f"{point} — {seance} — {display_name(person)}",
    )
    return assignment


def _current(point: ChangePoint, actor: AbstractBaseUser) -> ChangeAssignment:
    """The open assignment of ``actor`` at the point in an open séance, or the refusal."""
    est = point.establishment
    if est.jurisdiction == "FR" and point.kind == Kind.ITINERANT and point.fixed_sum is None:
        raise RuleViolation("SLOT-48", _("Un changeur itinérant sans somme fixe inscrite ne fait pas de change."))
    assignment = (
        ChangeAssignment.objects.select_for_update()
        .filter(point=point, person=actor, status=ChangeAssignment.Status.OPEN, seance__status=Seance.Status.OPEN)
        .first()
    )
    if assignment is None:
        raise RuleViolation(
            _code(est),
            _("%(who)s n'est pas affecté à %(point)s pour la séance en cours.")
            % {"who": display_name(actor), "point": point},
        )
    return assignment


@transaction.atomic
def change_record(
    *,
    point: ChangePoint,
    amount: Decimal,
    given: str,
    actor: AbstractBaseUser,
    tendered: CounterfeitItem | None = None,
    account: str = "",
) -> ChangeMovement:
    """A change given to a player, in legal tender, machine chips or house-card credits, by the
    person assigned to the point for the séance (SLOT-21, SLOT-48); never of an item of the
    counterfeit box (``tendered``, SLOT-45); at a common desk, posted to the table-games or the
    slots account (SLOT-26)."""
    check_not_counterfeit(tendered)
    if point.kind == Kind.COMMON and account not in ("table", "slot"):
        raise RuleViolation(
            "SLOT-26",
            _(
                "La caisse commune tient une comptabilité distincte : indiquez si "
                "l'opération relève des jeux de table ou des machines à sous."
            ),
        )
    account = account if point.kind == Kind.COMMON else ""
    assignment = _current(point, actor)
    if given not in ChangeMovement.Given.values:
        raise ValidationError({"given": _("Nature inconnue.")})
    _amount("amount", amount, positive=True)
    now = timezone.now()
    role = next(str(r) for r in ASSIGNABLE[point.kind] if r in roles_of(actor, point.establishment))
    entry = _entry(
        point.establishment,
        actor=actor,
        role=role,
        event=_("Change"),
        at=now,
        amount=amount,
        detail=f"{point} — {ChangeMovement.Given(given).label}" + (f" — {account}" if account else ""),
    )
    return ChangeMovement.objects.create(
        assignment=assignment,
        kind=ChangeMovement.Kind.CHANGE,
        amount=amount,
        given=given,
        account=account,
        recorded_at=now,
        recorded_by=actor,
        entry=entry,
    )


def movements(assignment: ChangeAssignment) -> dict[str, Decimal]:
    """The restoring deposits (+) and withdrawals (−) of the séance, in cash and in chips."""
    sums = assignment.movements.filter(kind=ChangeMovement.Kind.RESTORE).aggregate(cash=Sum("cash"), chips=Sum("chips"))
    return {k: v or Decimal("0") for k, v in sums.items()}


def open_bons(est: Establishment) -> Decimal:
    """FR: the avance and payment bons of the carnets modèle 29 since each machine's last count:
    cash values until the next count (SLOT-49)."""
    if est.jurisdiction != "FR":
        return Decimal("0")
    total = Decimal("0")
    for machine in {
        line.machine for line in AccountingLine.objects.filter(machine__establishment=est).select_related("machine")
    }:
        totals = accounting.open_totals(machine)
        total += totals[AccountingLine.Kind.AVANCE] + totals[AccountingLine.Kind.PAYMENT]
    return total


def _open_assignment(
    assignment: ChangeAssignment, actor: AbstractBaseUser, refusal: str
) -> tuple[ChangeAssignment, Establishment, str]:
    """The assignment locked, its establishment, and the role of the cashier or Direction member
    acting on its encaisse (SLOT-49); refused once the assignment is closed."""
    assignment = ChangeAssignment.objects.select_for_update().get(pk=assignment.pk)
    est = assignment.point.establishment
    role = role_named_by_text(actor, est, (*ASSIGNABLE[Kind.DESK], *ASSIGN_ROLES[est.jurisdiction]), "SLOT-49", refusal)
    if assignment.status != ChangeAssignment.Status.OPEN:
        raise ValidationError(_("Cette affectation est close."))
    return assignment, est, role


@transaction.atomic
def encaisse_justify(
    *, assignment: ChangeAssignment, items: dict[str, Decimal], actor: AbstractBaseUser
) -> EncaisseJustification:
    """The encaisse justified now by the listed items (SLOT-49): their total against the encaisse
    (the opening cash and chips and the restoring movements); the bons presented against the open
    bons of the carnets. The differences are recorded, not hidden."""
    assignment, est, role = _open_assignment(
        assignment, actor, _("L'encaisse est justifiée par le caissier ou la direction.")
    )
    unknown = set(items) - set(JUSTIFICATION_ITEMS)
    if unknown:
        raise ValidationError({"items": _("Pièce justificative inconnue : %(i)s.") % {"i": ", ".join(sorted(unknown))}})
    for name, value in items.items():
        _amount(name, value)
    moved = movements(assignment)
    expected = assignment.opening_cash + assignment.opening_chips + moved["cash"] + moved["chips"]
    total = sum(items.values(), Decimal("0"))
    if max(abs(total), abs(expected), abs(total - expected)) >= LIMIT:
        raise ValidationError({"items": _("Montant hors limites.")})
    bons = open_bons(est)
    now = timezone.now()
    shown = {name: str(value) for name, value in items.items()}
    detail = " ; ".join(f"{JUSTIFICATION_ITEMS[name]} {value} €" for name, value in items.items()) + (
        f" — {_('encaisse')} {expected} € — {_('écart')} {total - expected} € — {_('bons en cours')} {bons} €"
    )
    entry = _entry(
        est,
        actor=actor,
        role=role,
        event=_("Justification de l'encaisse"),
        at=now,
        amount=total,
        detail=f"{assignment.point} — {detail}",
    )
    return EncaisseJustification.objects.create(
        assignment=assignment,
        items=shown,
        total=total,
        expected=expected,
        difference=total - expected,
        open_bons=bons,
        justified_at=now,
        justified_by=actor,
        entry=entry,
    )


@transaction.atomic
def encaisse_restore(
    *, assignment: ChangeAssignment, cash: Decimal, chips: Decimal, counterpart: str, actor: AbstractBaseUser
) -> ChangeMovement:
    """A deposit (+) or withdrawal (−) of cash or chips between the desk and the caisse centrale or
    the plaques-and-chips deposit account, recorded to restore the encaisse (SLOT-49)."""
    assignment, est, role = _open_assignment(
        assignment, actor, _("L'encaisse est reconstituée par le caissier ou la direction.")
    )
    if counterpart not in ChangeMovement.Counterpart.values:
        raise ValidationError({"counterpart": _("Nature inconnue.")})
    if (cash == 0 and chips == 0) or abs(cash) >= LIMIT or abs(chips) >= LIMIT:
        raise ValidationError(_("Un dépôt ou un retrait d'espèces ou de jetons est attendu."))
    now = timezone.now()
    entry = _entry(
        est,
        actor=actor,
        role=role,
        event=_("Reconstitution de l'encaisse"),
        at=now,
        amount=cash + chips,
        detail=f"{assignment.point} — {ChangeMovement.Counterpart(counterpart).label} — {_('espèces')} "
        f"{cash} € — {_('jetons')} {chips} €",
    )
    return ChangeMovement.objects.create(
        assignment=assignment,
        kind=ChangeMovement.Kind.RESTORE,
        cash=cash,
        chips=chips,
        counterpart=counterpart,
        recorded_at=now,
        recorded_by=actor,
        entry=entry,
    )


def counted_during(assignment: ChangeAssignment) -> bool:
    """A count of the slot boxes was closed during the assignment: the encaisse is then restored to
    its amount, not its composition."""
    return SlotCount.objects.filter(
        establishment=assignment.point.establishment,
        status=SlotCount.Status.CLOSED,
        closed_at__gte=assignment.opened_at,
    ).exists()


@transaction.atomic
def change_assignment_close(
    *, assignment: ChangeAssignment, cash: Decimal, chips: Decimal, actor: AbstractBaseUser
) -> ChangeAssignment:
    """End of the séance at the point: the encaisse counted (cash, chips) plus the restoring
    movements must give back its opening composition, or after a count its amount (SLOT-49)."""
    assignment, est, role = _open_assignment(
        assignment, actor, _("L'encaisse est reconstituée par le caissier ou la direction.")
    )
    _amount("cash", cash)
    _amount("chips", chips)
    moved = movements(assignment)
    restored_cash, restored_chips = cash + moved["cash"], chips + moved["chips"]
    if counted_during(assignment):
        restored = restored_cash + restored_chips == assignment.opening_cash + assignment.opening_chips
    else:
        restored = (restored_cash, restored_chips) == (assignment.opening_cash, assignment.opening_chips)
    if not restored:
        raise RuleViolation(
            "SLOT-49",
            _(
                "L'encaisse n'est pas reconstituée : %(cash)s € en espèces et %(chips)s € en "
                "jetons après les mouvements, pour %(oc)s € et %(och)s € à l'ouverture."
            )
            % {
                "cash": euros(restored_cash),
                "chips": euros(restored_chips),
                "oc": euros(assignment.opening_cash),
                "och": euros(assignment.opening_chips),
            },
        )
    now = timezone.now()
    assignment.closing_cash, assignment.closing_chips = cash, chips
    assignment.status, assignment.closed_at = ChangeAssignment.Status.CLOSED, now
    save_audited(assignment, actor=actor, reason="clôture")
    _entry(
        est,
        actor=actor,
        role=role,
        event=_("Encaisse reconstituée"),
        at=now,
        amount=restored_cash + restored_chips,
        detail=f"{assignment.point} — {_('espèces')} {restored_cash} € — {_('jetons')} {restored_chips} €",
    )
    return assignment


def _named(points: QuerySet, prefix: str = "") -> ArraySubquery:
    """The change points of ``points`` as ``{"kind", "name"}``, enough to name them."""
    return ArraySubquery(points.values(json=JSONObject(kind=f"{prefix}kind", name=f"{prefix}name")))


def points_to_restore(seance: OuterRef) -> ArraySubquery:
    """The change points still open during ``seance`` (a séance's pk, as an outer reference), their
    encaisse to restore (SLOT-49), latest opened first: an annotation of a query on séances."""
    still_open = ChangeAssignment.objects.filter(seance_id=seance, status=ChangeAssignment.Status.OPEN)
    return _named(still_open.order_by("-opened_at"), "point__")


def desks_unstaffed(seance: OuterRef, establishment: OuterRef, opened_at: OuterRef) -> ArraySubquery:
    """FR: the slot desks in service when ``seance`` opened with no cashier named for it (SLOT-48),
    the séance's pk, house and opening as outer references: an annotation of a query on séances."""
    named = ChangeAssignment.objects.filter(seance_id=OuterRef(seance), point=OuterRef("pk"))
    desks = ChangePoint.objects.filter(
        establishment_id=establishment, kind=Kind.DESK, active=True, created_at__lte=opened_at
    ).exclude(Exists(named))
    return _named(desks.order_by("kind", "name"))


# --- the counterfeit coins box (FR-2007 art. 68-23, SLOT-45) ------------------------------------------

# Who puts an item in the box kept at the cash desk, and who records its destruction.
BOX_KEEPERS = (Role.CAISSIER, Role.CAISSIER_PRINCIPAL)
DESTROYERS = (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)


@transaction.atomic
def counterfeit_deposit(
    *,
    establishment: Establishment,
    kind: str,
    description: str,
    quantity: int,
    found_during: str,
    found_by: AbstractBaseUser,
    actor: AbstractBaseUser,
    found_at: datetime.datetime | None = None,
) -> CounterfeitItem:
    """A counterfeit coin or foreign currency found at a count, packaging or repair, put by the
    cashier in the locked box kept at the cash desk (SLOT-45)."""
    est = establishment
    if est.jurisdiction != "FR":
        raise ValidationError(_("Le coffret des fausses pièces est prévu dans les casinos français."))
    role = role_named_by_text(
        actor, est, BOX_KEEPERS, "SLOT-45", _("Le coffret des fausses pièces est détenu à la caisse.")
    )
    if kind not in CounterfeitItem.Kind.values or found_during not in CounterfeitItem.FoundDuring.values:
        raise ValidationError(_("Nature inconnue."))
    if not description.strip() or not 0 < quantity < 10**6:
        raise ValidationError(_("La description et la quantité sont obligatoires."))
    if found_by is None or not roles_of(found_by, est):
        raise ValidationError({"found_by": _("Personne inconnue dans l'établissement.")})
    now = timezone.now()
    found_at = found_at or now
    key = reserve_written(CounterfeitItem)  # the item keeps its entry, which names it
    entry = _entry(
        est,
        actor=actor,
        role=role,
        event=_("Versement au coffret des fausses pièces"),
        at=now,
        detail=f"{CounterfeitItem.Kind(kind).label} — {description.strip()} × {quantity} — "
        f"{CounterfeitItem.FoundDuring(found_during).label} — {display_name(found_by)}",
    )
    return save_audited(
        CounterfeitItem(
            pk=key,
            establishment=est,
            kind=kind,
            description=description.strip(),
            quantity=quantity,
            found_during=found_during,
            found_at=found_at,
            found_by=found_by,
            deposited_by=actor,
            entry=entry,
        ),
        actor=actor,
        reason="SLOT-45",
    )


def check_not_counterfeit(item: CounterfeitItem | None) -> None:
    """A counterfeit coin or foreign currency of the box is never exchanged (SLOT-45)."""
    if item is not None:
        raise RuleViolation(
            "SLOT-45",
            _("Les fausses pièces et monnaies étrangères ne sont jamais changées : %(item)s est au coffret.")
            % {"item": item},
        )


def financial_year_end(est: Establishment, day: datetime.date) -> datetime.date:
    """The end of the financial year ``day`` falls in: setting SLOT-45 {"year_end": "MM-DD"}, by
    default 31 October, the end of the French gaming season (1 November – 31 October)."""
    month, dom = (int(n) for n in ((est.setting("SLOT-45") or {}).get("year_end") or "10-31").split("-"))
    end = datetime.date(day.year, month, dom)
    return end if day <= end else datetime.date(day.year + 1, month, dom)


@transaction.atomic
def counterfeit_destroy(
    *, establishment: Establishment, controller_name: str, actor: AbstractBaseUser
) -> CounterfeitDestruction:
    """Destroy the items of the box at the end of the financial year, under the control of the
    comptable du Trésor, chef de poste (SLOT-45; AMB-48: to confirm). Only the items found in a
    financial year now ended: none of the current year is destroyed before its end."""
    est = establishment
    role = role_named_by_text(
        actor,
        est,
        DESTROYERS,
        "SLOT-45",
        _("La destruction est faite par la direction sous le contrôle du comptable du Trésor."),
    )
    if not controller_name.strip():
        raise RuleViolation(
            "SLOT-45",
            _("La destruction se fait sous le contrôle du comptable du Trésor, chef de poste : indiquez son nom."),
        )
    now = timezone.now()
    today = est.localtime(now).date()
    ended = financial_year_end(est, today)
    if ended != today:
        ended = datetime.date(ended.year - 1, ended.month, ended.day)
    items = CounterfeitItem.objects.select_for_update().filter(establishment=est, destruction__isnull=True)
    due = [item for item in items if est.localtime(item.found_at).date() <= ended]
    if not due:
        raise RuleViolation(
            "SLOT-45",
            _(
                "Les fausses pièces ne sont détruites qu'en fin d'exercice : aucune pièce "
                "d'un exercice terminé n'est au coffret."
            ),
        )
    # The entry names the items it destroys: they take the destruction, which keeps the entry.
    note_written(CounterfeitItem, [item.pk for item in due])
    entry = _entry(
        est,
        actor=actor,
        role=role,
        event=_("Destruction des fausses pièces"),
        at=now,
        detail=f"{_('exercice clos le')} {ended:%d/%m/%Y} — {controller_name.strip()} — "
        + " ; ".join(str(item) for item in due),
    )
    destruction = CounterfeitDestruction.objects.create(
        establishment=est,
        year_end=ended,
        destroyed_at=now,
        controller_name=controller_name.strip(),
        recorded_by=actor,
        entry=entry,
    )
    for item in due:
        item.destruction = destruction
        save_audited(item, actor=actor, reason="SLOT-45")
    return destruction
