"""What an opening inventory takes over, per domain: the columns of its lines, how each line is
read and checked (by the domain's own checks), how the lines are posted, and when the domain has
started its ordinary life (after which nothing is taken over any more).

A domain is declared here with ``takeover_domain``; each one reads and writes through the
services and checks of its own app."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.encoding import force_str
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, Location
from ledgers.custody.models import DepotDay, DestructionSession, ItemStatus, PurchaseOrder, Supplier


@dataclass(frozen=True)
class Problem:
    """Why one line of an inventory is refused: its number (1 = the first line under the header),
    the column, the message, and the catalogue ID when a rule of the texts refuses it."""

    row: int
    field: str
    message: str
    code: str = ""

    def __str__(self) -> str:
        prefix = f"{self.code} — " if self.code else ""
        return str(_("Ligne %(row)s, colonne « %(field)s » : %(message)s")) % {
            "row": self.row,
            "field": self.field,
            "message": prefix + self.message,
        }


class RowError(Exception):
    """A line refused on one of its columns (raised by a domain's ``read``)."""

    def __init__(self, field_name: str, message: Any, code: str = "") -> None:
        super().__init__(force_str(message))
        self.field = field_name
        self.message = force_str(message)
        self.code = code


@dataclass(frozen=True)
class Posted:
    """What the posting of one inventory created: the objects' keys, and a summary for its line."""

    objects: list[int]
    summary: str


@dataclass(frozen=True)
class TakeoverDomain:
    code: str
    label: str | Promise
    # (column, label, help): the columns of a line, in the order of the spreadsheet
    columns: tuple[tuple[str, str | Promise, str | Promise], ...]
    # (establishment, lines) → (the lines read, the problems); reads only
    check: Callable[[Establishment, list[dict]], tuple[list[Any], list[Problem]]]
    # (establishment, inventory, lines read, actor, role) → Posted; writes through the domain's services
    post: Callable[..., Posted]
    # (establishment, keys of the objects taken over so far) → has an ordinary act been recorded?
    started: Callable[[Establishment, set[int]], bool]
    # jurisdiction → (catalogue ID of the authority's visa, whether the posting needs it)
    visa: dict[str, tuple[str, bool]] = field(default_factory=dict)


DOMAINS: dict[str, TakeoverDomain] = {}


def takeover_domain(domain: TakeoverDomain) -> TakeoverDomain:
    DOMAINS[domain.code] = domain
    return domain


def get_domain(code: str) -> TakeoverDomain:
    try:
        return DOMAINS[code]
    except KeyError:
        raise ValidationError({"domain": _("Domaine de reprise inconnu : %(d)s.") % {"d": code}}) from None


def domain_choices() -> list[tuple[str, str]]:
    return [(code, str(domain.label)) for code, domain in DOMAINS.items()]


# --- Reading the columns ------------------------------------------------------------------------

YES = {"oui", "o", "yes", "y", "1", "vrai", "true", "x"}
NO = {"non", "n", "no", "0", "faux", "false", ""}


def text(line: dict, name: str) -> str:
    value = line.get(name)
    return "" if value is None else str(value).strip()


def required(line: dict, name: str) -> str:
    value = text(line, name)
    if not value:
        raise RowError(name, _("valeur obligatoire."))
    return value


def flag(line: dict, name: str, default: bool) -> bool:
    value = text(line, name).lower()
    if not value:
        return default
    if value in YES:
        return True
    if value in NO:
        return False
    raise RowError(name, _("répondez oui ou non (« %(v)s » lu).") % {"v": value})


def page(line: dict) -> int:
    value = required(line, "page")
    try:
        number = int(float(value))
    except ValueError:
        raise RowError("page", _("numéro de page attendu (« %(v)s » lu).") % {"v": value}) from None
    if number < 1 or str(number) != value.removesuffix(".0"):
        raise RowError("page", _("numéro de page attendu (« %(v)s » lu).") % {"v": value})
    return number


def choice(line: dict, name: str, choices: Sequence[tuple[str, Any]], default: str | None = None) -> str:
    """A value among ``choices``, given as its code or its label (any case)."""
    value = text(line, name)
    if not value and default is not None:
        return default
    for code, label in choices:
        if value.lower() in (str(code).lower(), force_str(label).lower()):
            return str(code)
    allowed = ", ".join(str(code) for code, _label in choices)
    raise RowError(name, _("valeur inconnue « %(v)s » (attendu : %(a)s).") % {"v": value, "a": allowed})


def location_of(est: Establishment, line: dict, name: str = "location") -> Location:
    value = required(line, name)
    found = (
        Location.objects.filter(establishment=est, code=value).first()
        or Location.objects.filter(establishment=est, name__iexact=value).first()
    )
    if found is None:
        raise RowError(name, _("emplacement inconnu dans cet établissement : « %(v)s ».") % {"v": value})
    return found


def refusal(name: str, exc: Exception) -> RowError:
    """A domain check's refusal, as the problem of the column it concerns."""
    if isinstance(exc, RuleViolation):
        return RowError(name, exc.message, exc.code)
    if isinstance(exc, ValidationError):
        return RowError(name, " ".join(exc.messages))
    return RowError(name, str(exc))


def checked(lines: list[dict], read: Callable[[int, dict], Any]) -> tuple[list[Any], list[Problem]]:
    """Every line read by ``read(number, line)``; the problems of all of them, not only the first."""
    done, problems = [], []
    for number, line in enumerate(lines, start=1):
        try:
            done.append(read(number, line))
        except RowError as exc:
            problems.append(Problem(number, exc.field, exc.message, exc.code))
    return done, problems


KEPT_STATUSES = (ItemStatus.IN_STOCK, ItemStatus.OUT_OF_USE, ItemStatus.MARKED, ItemStatus.DAMAGED)


def pages_of(pages: Sequence[int]) -> str:
    """Page numbers as a reader writes them: "12, 14-16"."""
    numbers = sorted(set(pages))
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs)


def source(paper_register: str, lines: Sequence[Any]) -> str:
    return str(_("Reprise de l'existant : %(r)s, p. %(p)s")) % {
        "r": paper_register,
        "p": pages_of([line.page for line in lines]),
    }


# --- Cards --------------------------------------------------------------------------------------


@dataclass
class CardLine:
    page: int
    spec: Any
    supplier: Supplier
    location: Location
    status: str
    condition: str
    is_new: bool
    complete: bool


def _card_decks(line: dict) -> tuple:
    from ledgers.cards.services import ReceivedDeck

    decks = []
    for part in text(line, "decks").split(";"):
        part = part.strip()
        if not part:
            continue
        serial, sep, colour = part.partition(":")
        if not sep:
            raise RowError(
                "decks", _("chaque jeu s'écrit « numéro:couleur », séparés par « ; » (« %(v)s » lu).") % {"v": part}
            )
        decks.append(ReceivedDeck(serial=serial.strip(), back_colour=colour.strip()))
    return tuple(decks)


def _check_cards(est: Establishment, lines: list[dict]) -> tuple[list[CardLine], list[Problem]]:
    from ledgers.cards.domains import CARDS
    from ledgers.cards.models import CardUnit, Condition, UnitType
    from ledgers.cards.services import ReceivedUnit, cards_serials_check, cards_unit_check
    from ledgers.custody.services import check_location

    suppliers = {s.name.lower(): s for s in Supplier.objects.filter(establishment=est, domain=CARDS.code)}
    accepted: dict[int, list] = {}  # supplier → the units of the lines already accepted

    def read(number: int, line: dict) -> CardLine:
        at = page(line)
        unit_type = choice(line, "unit_type", UnitType.choices)
        serial = required(line, "serial")
        name = required(line, "supplier")
        supplier = suppliers.get(name.lower())
        if supplier is None:
            raise RowError("supplier", _("fabricant non enregistré pour les cartes : « %(v)s ».") % {"v": name})
        status = choice(line, "status", [(s, ItemStatus(s).label) for s in KEPT_STATUSES], ItemStatus.IN_STOCK)
        spec = ReceivedUnit(
            unit_type=unit_type,
            serial=serial,
            back_colour=text(line, "back_colour"),
            decks=_card_decks(line),
            plain_back=flag(line, "plain_back", True),
            design=text(line, "design"),
        )
        try:
            cards_unit_check(establishment=est, unit=spec)
        except (RuleViolation, ValidationError) as exc:
            code = getattr(exc, "code", "")
            if code == "CARD-25" and est.jurisdiction == "FR" and unit_type != UnitType.SIXAIN:
                raise refusal("unit_type", exc) from exc
            if code == "CARD-25" and not spec.plain_back:
                raise refusal("plain_back", exc) from exc
            raise refusal("back_colour" if unit_type == UnitType.DECK else "decks", exc) from exc
        try:  # no number twice, in the stock or in the lines above
            cards_serials_check(establishment=est, supplier=supplier, units=[*accepted.get(supplier.pk, []), spec])
        except (RuleViolation, ValidationError) as exc:
            raise refusal("serial", exc) from exc
        location = location_of(est, line)
        try:
            check_location(CARDS, location, CardUnit(establishment=est, status=status))
        except (RuleViolation, ValidationError) as exc:
            raise refusal("location", exc) from exc
        condition = choice(line, "condition", Condition.choices, Condition.PERFECT)
        accepted.setdefault(supplier.pk, []).append(spec)
        return CardLine(
            page=at,
            spec=spec,
            supplier=supplier,
            location=location,
            status=status,
            condition=condition,
            is_new=flag(line, "new", False),
            complete=flag(line, "complete", True),
        )

    return checked(lines, read)


def _post_cards(est: Establishment, inventory, lines: list[CardLine], actor: AbstractBaseUser, role: str) -> Posted:
    from ledgers.cards.domains import CARDS
    from ledgers.cards.models import CardUnit, UnitType
    from ledgers.custody.models import WITHDRAWN_STATUSES
    from ledgers.custody.services import intake_record_in

    now, created, reason = timezone.now(), [], "reprise de l'existant"
    by_category: dict[tuple[int, str], list[tuple[CardLine, CardUnit]]] = {}
    for line in lines:
        spec = line.spec
        withdrawn = line.status in WITHDRAWN_STATUSES
        state = {
            "establishment": est,
            "supplier": line.supplier,
            "category": spec.unit_type,
            "received_at": now,
            "status": line.status,
            "plain_back": spec.plain_back,
            "design": spec.design.strip(),
            "is_new": line.is_new,
            "condition": line.condition,
            "complete": line.complete,
            "withdrawn_at": now if withdrawn else None,
            "withdrawal_reason": inventory.paper_register if withdrawn else "",
        }
        unit = save_audited(
            CardUnit(
                serial=spec.serial.strip(),
                unit_type=spec.unit_type,
                location=line.location,
                back_colour=spec.back_colour.strip() if spec.unit_type == UnitType.DECK else "",
                **state,
            ),
            actor=actor,
            reason=reason,
        )
        for position, deck in enumerate(spec.decks, start=1):
            save_audited(
                CardUnit(
                    serial=deck.serial.strip(),
                    unit_type=UnitType.DECK,
                    parent=unit,
                    position=position,
                    back_colour=deck.back_colour.strip(),
                    **state,
                ),
                actor=actor,
                reason=reason,
            )
        created.append(unit.pk)
        by_category.setdefault((line.supplier.pk, spec.unit_type), []).append((line, unit))
    for group in by_category.values():
        details = {}
        for line, unit in group:
            described = unit.serial
            if unit.unit_type != UnitType.DECK:
                described += " : " + ", ".join(f"{d.serial} ({d.back_colour})" for d in unit.decks())
            else:
                described += f" ({unit.back_colour})"
            described += f" — {unit.get_status_display()}, p. {line.page}"
            details.setdefault(unit.category, []).append(described)
        intake_record_in(
            domain=CARDS,
            establishment=est,
            items=[unit for _line, unit in group],
            actor=actor,
            role=role,
            details=details,
            source=source(inventory.paper_register, [line for line, _unit in group]),
        )
    return Posted(created, str(_("%(n)s unité(s) de cartes reprise(s)")) % {"n": len(created)})


def _cards_started(est: Establishment, taken: set[int]) -> bool:
    from ledgers.cards.domains import CARDS
    from ledgers.cards.models import CardEvent, CardUnit

    return (
        CardEvent.objects.filter(establishment=est).exists()
        or PurchaseOrder.objects.filter(establishment=est, domain=CARDS.code).exists()
        or DestructionSession.objects.filter(establishment=est, domain=CARDS.code).exists()
        or DepotDay.objects.filter(establishment=est, domain=CARDS.code).exists()
        or CardUnit.objects.filter(establishment=est, parent__isnull=True).exclude(pk__in=taken).exists()
    )


CARDS = takeover_domain(
    TakeoverDomain(
        code="cards",
        label=_("Cartes (sixains, huitains, jeux)"),
        columns=(
            ("page", _("Page du registre papier"), _("La page où l'unité est inscrite.")),
            ("unit_type", _("Type d'unité"), _("sixain, huitain ou jeu")),
            ("serial", _("Numéro d'ordre"), _("Celui du fabricant.")),
            ("supplier", _("Fabricant"), _("Tel qu'enregistré pour les cartes.")),
            (
                "decks",
                _("Jeux"),
                _("Pour un sixain ou un huitain : « numéro:couleur » de chaque jeu, séparés par « ; »."),
            ),
            ("back_colour", _("Couleur du dos"), _("Pour un jeu à l'unité.")),
            ("location", _("Dépôt"), _("Code ou nom du dépôt où l'unité se trouve.")),
            ("status", _("Statut"), _("in_stock (en dépôt), out_of_use, marked ou damaged.")),
            ("condition", _("État"), _("parfait ou imparfait.")),
            ("new", _("Neuf"), _("oui : encore sous bande de contrôle.")),
            ("complete", _("Complet"), _("oui ou non.")),
            ("plain_back", _("Dos uni"), _("oui ou non.")),
            ("design", _("Modèle / marque"), ""),
        ),
        check=_check_cards,
        post=_post_cards,
        started=_cards_started,
        # FR: the carnet modèle 19 is visaed by a police officer (CARD-27), and no order visaed by
        # the police covers stock bought before: the officer's visa of the inventory stands for it.
        # MC: the SCJ may visa the registers concerned (CARD-06); the posting does not wait for it.
        visa={"FR": ("CARD-27", True), "MC": ("CARD-06", False)},
    )
)
