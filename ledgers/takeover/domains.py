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
from django.utils import timezone, translation
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
    # lines of the take-over register, one per object that has no register of its own to enter
    lines: list[str] = field(default_factory=list)


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
    # where the texts give the domain's objects
    jurisdictions: tuple[str, ...] = ("MC", "FR")


DOMAINS: dict[str, TakeoverDomain] = {}


def takeover_domain(domain: TakeoverDomain) -> TakeoverDomain:
    DOMAINS[domain.code] = domain
    return domain


def get_domain(code: str) -> TakeoverDomain:
    try:
        return DOMAINS[code]
    except KeyError:
        raise ValidationError({"domain": _("Domaine de reprise inconnu : %(d)s.") % {"d": code}}) from None


def domains_for(est: Establishment) -> dict[str, TakeoverDomain]:
    """The domains an establishment of its jurisdiction takes over."""
    return {code: domain for code, domain in DOMAINS.items() if est.jurisdiction in domain.jurisdictions}


def domain_choices(est: Establishment | None = None) -> list[tuple[str, str]]:
    domains = DOMAINS if est is None else domains_for(est)
    return [(code, str(domain.label)) for code, domain in domains.items()]


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


# --- Dice ---------------------------------------------------------------------------------------


@dataclass
class DieLine:
    page: int
    die: Any
    location: Location
    status: str
    is_new: bool


DICE_STATUSES = (ItemStatus.IN_STOCK, ItemStatus.OUT_OF_USE, ItemStatus.DAMAGED)


def _decimal(line: dict, name: str):
    from decimal import Decimal, InvalidOperation

    value = text(line, name).replace(",", ".").replace(" ", "").replace("\u00a0", "")
    if not value:
        return None
    try:
        return Decimal(value)
    except InvalidOperation:
        raise RowError(name, _("nombre attendu (« %(v)s » lu).") % {"v": value}) from None


def _check_dice(est: Establishment, lines: list[dict]) -> tuple[list[DieLine], list[Problem]]:
    from ledgers.custody.services import check_location
    from ledgers.dice.domains import DICE
    from ledgers.dice.models import Die
    from ledgers.dice.rules import CHECKLIST
    from ledgers.dice.services import DieInput, dice_die_check, dice_serials_check

    accepted: list = []

    def read(number: int, line: dict) -> DieLine:
        at = page(line)
        die = DieInput(
            serial=required(line, "serial"),
            sigle=required(line, "sigle"),
            colour=text(line, "colour"),
            side_mm=_decimal(line, "side_mm"),
            inspection=dict.fromkeys(CHECKLIST, True),  # inspected at its receipt
            pair=text(line, "pair"),
        )
        try:
            dice_die_check(establishment=est, die=die)
        except (RuleViolation, ValidationError) as exc:
            code = getattr(exc, "code", "")
            raise refusal("colour" if code == "DICE-17" else "side_mm", exc) from exc
        status = choice(line, "status", [(s, ItemStatus(s).label) for s in DICE_STATUSES], ItemStatus.IN_STOCK)
        location = location_of(est, line)
        try:
            check_location(DICE, location, Die(establishment=est, status=status))
        except (RuleViolation, ValidationError) as exc:
            raise refusal("location", exc) from exc
        try:
            dice_serials_check(establishment=est, dice=[*accepted, die])
        except (RuleViolation, ValidationError) as exc:
            raise refusal("serial", exc) from exc
        accepted.append(die)
        return DieLine(page=at, die=die, location=location, status=status, is_new=flag(line, "new", False))

    done, problems = checked(lines, read)
    if not problems and est.jurisdiction == "FR":
        problems += _dice_pair_problems(est, lines, done)
    return done, problems


def _dice_pair_problems(est: Establishment, lines: list[dict], done: list[DieLine]) -> list[Problem]:
    """FR: the dice go in pairs of two colours, within the Minister's maximum (DICE-13, DICE-14)."""
    from ledgers.dice.services import dice_pairs_check

    problems: list[Problem] = []
    numbers: dict[str, list[int]] = {}
    for number, line in enumerate(done, start=1):
        numbers.setdefault(line.die.pair.strip(), []).append(number)
    for rows in numbers.values():
        try:
            dice_pairs_check(establishment=est, dice=[done[n - 1].die for n in rows])
        except RuleViolation as exc:
            if exc.code != "DICE-14":
                problems += [Problem(n, "pair", exc.message, exc.code) for n in rows]
    if not problems:
        try:
            dice_pairs_check(establishment=est, dice=[line.die for line in done])
        except RuleViolation as exc:
            problems.append(Problem(len(done), "pair", force_str(exc.message), exc.code))
    return [Problem(p.row, p.field, force_str(p.message), p.code) for p in problems]


def _post_dice(est: Establishment, inventory, lines: list[DieLine], actor: AbstractBaseUser, role: str) -> Posted:
    from ledgers.custody.models import WITHDRAWN_STATUSES
    from ledgers.custody.services import intake_record_in
    from ledgers.dice.domains import CATEGORY, DICE
    from ledgers.dice.models import DicePair, Die
    from ledgers.dice.rules import CHECKLIST

    now, created = timezone.now(), []
    pairs: dict[str, DicePair] = {}
    next_pair = (
        DicePair.objects.filter(establishment=est).order_by("-number").values_list("number", flat=True).first() or 0
    ) + 1
    for line in lines:
        pair = None
        if est.jurisdiction == "FR":
            key = line.die.pair.strip()
            if key not in pairs:
                pairs[key] = DicePair.objects.create(establishment=est, number=next_pair, created_at=now)
                next_pair += 1
            pair = pairs[key]
        die = Die(
            establishment=est,
            serial=line.die.serial.strip(),
            sigle=line.die.sigle.strip(),
            colour=line.die.colour.strip(),
            side_mm=line.die.side_mm,
            inspection=dict.fromkeys(CHECKLIST, True),
            pair=pair,
            category=CATEGORY,
            status=line.status,
            location=line.location,
            received_at=now,
            services=0 if line.is_new and line.status not in WITHDRAWN_STATUSES else 1,
        )
        created.append(save_audited(die, actor=actor, reason="reprise de l'existant"))
    details = [
        f"{die.designation}{f' — {die.pair}' if die.pair_id else ''} — {die.get_status_display()}, p. {line.page}"
        for die, line in zip(created, lines, strict=True)
    ]
    intake_record_in(
        domain=DICE,
        establishment=est,
        items=created,
        actor=actor,
        role=role,
        details={CATEGORY: details},
        source=source(inventory.paper_register, lines),
    )
    return Posted([die.pk for die in created], str(_("%(n)s dé(s) repris")) % {"n": len(created)})


def _dice_started(est: Establishment, taken: set[int]) -> bool:
    from ledgers.dice.domains import DICE
    from ledgers.dice.models import DiceAllocation, DiceCheck, DiceSwap, Die

    return (
        DiceAllocation.objects.filter(establishment=est).exists()
        or DiceSwap.objects.filter(establishment=est).exists()
        or DiceCheck.objects.filter(establishment=est).exists()
        or PurchaseOrder.objects.filter(establishment=est, domain=DICE.code).exists()
        or DestructionSession.objects.filter(establishment=est, domain=DICE.code).exists()
        or DepotDay.objects.filter(establishment=est, domain=DICE.code).exists()
        or Die.objects.filter(establishment=est).exclude(pk__in=taken).exists()
    )


DICE = takeover_domain(
    TakeoverDomain(
        code="dice",
        label=_("Dés"),
        columns=(
            ("page", _("Page du registre papier"), _("La page où le dé est inscrit.")),
            ("serial", _("Numéro d'ordre"), _("Celui du fournisseur.")),
            ("sigle", _("Sigle"), _("Le sigle du casino porté par le dé.")),
            ("colour", _("Couleur"), _("France : obligatoire.")),
            ("side_mm", _("Côté (mm)"), _("France : de 20 à 25 mm.")),
            ("pair", _("Paire"), _("France : le même repère pour les deux dés d'une paire.")),
            ("location", _("Dépôt"), _("Code ou nom du dépôt où le dé se trouve.")),
            ("status", _("Statut"), _("in_stock (en dépôt), out_of_use ou damaged.")),
            ("new", _("Neuf"), _("oui : jamais mis en service.")),
        ),
        check=_check_dice,
        post=_post_dice,
        started=_dice_started,
        # FR: the dice section of the carnet modèle 19, which a police officer visas (REG-06);
        # MC: the SCJ may verify the dice stock and visa its registers (DICE-05).
        visa={"FR": ("REG-06", True), "MC": ("DICE-05", False)},
    )
)


# --- Keys ---------------------------------------------------------------------------------------


@dataclass
class KeyLine:
    page: int
    fields: dict


def _person(est: Establishment, line: dict, name: str):
    """The person of the house the column names (their login, or their first and last name), None
    when it is empty."""
    from django.contrib.auth import get_user_model
    from django.db.models import Value
    from django.db.models.functions import Concat

    from ledgers.core.models import Membership

    value = text(line, name)
    if not value:
        return None
    members = get_user_model().objects.filter(
        pk__in=Membership.objects.filter(establishment=est).values("user_id"), is_active=True
    )
    found = list(members.filter(username=value)) or list(
        members.annotate(full=Concat("first_name", Value(" "), "last_name")).filter(full__iexact=value)
    )
    if len(found) != 1:
        raise RowError(name, _("personne inconnue ou ambiguë dans cet établissement : « %(v)s ».") % {"v": value})
    return found[0]


def _holder(est: Establishment, line: dict):
    return _person(est, line, "holder")


def _key_refused_on(est: Establishment, fields: dict) -> str:
    """The column a key's refusal concerns ("" when the key is accepted): the register's check
    names no column, its words (in French, the registers' language) do."""
    from ledgers.keys.services import key_register_check

    with translation.override("fr"):
        try:
            key_register_check(establishment=est, **fields)
        except (RuleViolation, ValidationError) as exc:
            message = (
                force_str(getattr(exc, "message", "")) if isinstance(exc, RuleViolation) else " ".join(exc.messages)
            )
        else:
            return ""
    for words, column in (
        ("déjà inscrite", "code"),
        ("autre type", "code"),
        ("organisme", "holder_organisation"),
        ("exemplaire", "copies"),
        ("gardées à", "home"),
        ("lieu de garde", "home"),
    ):
        if words in message:
            return column
    return "holder"


def _check_keys(est: Establishment, lines: list[dict]) -> tuple[list[KeyLine], list[Problem]]:
    from ledgers.keys.policy import LockType
    from ledgers.keys.services import key_register_check

    seen: set[tuple[str, str]] = set()

    def read(number: int, line: dict) -> KeyLine:
        at = page(line)
        code = required(line, "code")
        lock_type = choice(line, "lock_type", LockType.choices)
        copies_text = text(line, "copies") or "1"
        if not copies_text.isdigit():
            raise RowError("copies", _("nombre attendu (« %(v)s » lu).") % {"v": copies_text})
        fields = {
            "code": code,
            "lock_type": lock_type,
            "opens": required(line, "opens"),
            "asset_ref": text(line, "asset_ref"),
            "copies": int(copies_text),
            "home": location_of(est, line, "home") if text(line, "home") else None,
            "custodian": _holder(est, line),
            "holder_organisation": text(line, "holder_organisation"),
        }
        if (code, lock_type) in seen:
            raise RowError("code", _("La clé %(code)s est déjà inscrite au registre.") % {"code": code})
        where = _key_refused_on(est, fields)
        if where:
            try:  # again, in the reader's language
                key_register_check(establishment=est, **fields)
            except (RuleViolation, ValidationError) as exc:
                raise refusal(where, exc) from exc
        seen.add((code, lock_type))
        return KeyLine(page=at, fields=fields)

    return checked(lines, read)


def _post_keys(est: Establishment, inventory, lines: list[KeyLine], actor: AbstractBaseUser, role: str) -> Posted:
    from ledgers.keys.services import key_register

    created = [
        key_register(establishment=est, actor=actor, source=source(inventory.paper_register, [line]), **line.fields).pk
        for line in lines
    ]
    return Posted(created, str(_("%(n)s clé(s) reprise(s)")) % {"n": len(created)})


def _key_acts(est: Establishment) -> bool:
    """Has the register of keys recorded an ordinary act: a hand-over (a copy taken over from paper
    is not one, its return is), a socle key surrendered, a blind inventory?"""
    from django.db.models import Q

    from ledgers.keys.models import KeyInventory, KeyIssue, SocleKeySurrender

    from .purposes import TAKEOVER_PURPOSE

    issues = KeyIssue.objects.filter(key__establishment=est)
    return (
        issues.filter(~Q(purpose_type=TAKEOVER_PURPOSE.code) | Q(returned_at__isnull=False)).exists()
        or SocleKeySurrender.objects.filter(key__establishment=est).exists()
        or KeyInventory.objects.filter(establishment=est).exists()
    )


def _keys_started(est: Establishment, taken: set[int]) -> bool:
    from ledgers.keys.models import Key

    return _key_acts(est) or Key.objects.filter(establishment=est).exclude(pk__in=taken).exists()


KEYS = takeover_domain(
    TakeoverDomain(
        code="keys",
        label=_("Clés"),
        columns=(
            ("page", _("Page du registre papier"), _("La page où la clé est inscrite.")),
            ("code", _("Identifiant de la clé"), ""),
            ("lock_type", _("Type de serrure"), _("Le code du type de serrure.")),
            ("opens", _("Ce qu'elle ouvre"), ""),
            ("asset_ref", _("Matériel (référence)"), _("Machine, socle, armoire…")),
            ("copies", _("Nombre d'exemplaires"), ""),
            ("home", _("Lieu de garde"), _("Code ou nom de l'emplacement.")),
            ("holder", _("Détenteur"), _("Identifiant ou prénom et nom de la personne qui la détient.")),
            ("holder_organisation", _("Organisme détenteur"), _("Carte logique : la SFM ou la police des jeux.")),
        ),
        check=_check_keys,
        post=_post_keys,
        started=_keys_started,
    )
)


# --- Keys out on a hand-over --------------------------------------------------------------------


@dataclass
class KeyOutLine:
    page: int
    key: Any
    holder: Any
    released_by: Any
    issued_at: Any
    due_at: Any
    purpose: str


def _moment(est: Establishment, line: dict, name: str):
    """A date and time on the establishment's clock: "JJ/MM/AAAA HH:MM" or "AAAA-MM-JJ HH:MM"."""
    import datetime
    from zoneinfo import ZoneInfo

    value = required(line, name)
    for layout in ("%d/%m/%Y %H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S"):
        try:
            return datetime.datetime.strptime(value, layout).replace(tzinfo=ZoneInfo(est.timezone))
        except ValueError:
            continue
    raise RowError(name, _("date et heure attendues, JJ/MM/AAAA HH:MM (« %(v)s » lu).") % {"v": value})


def _key_of(est: Establishment, line: dict):
    from ledgers.keys.models import Key

    code = required(line, "key")
    keys = Key.objects.filter(establishment=est, code=code).select_related("establishment")
    if text(line, "lock_type"):
        keys = keys.filter(lock_type=text(line, "lock_type"))
    found = list(keys)
    if len(found) != 1:
        raise RowError(
            "key",
            _("clé inconnue ou ambiguë au registre des clés : « %(v)s » (précisez le type de serrure).") % {"v": code},
        )
    if found[0].status != Key.Status.IN_SERVICE:
        raise RowError("key", _("la clé %(code)s n'est pas en service.") % {"code": code})
    return found[0]


def _check_keys_out(est: Establishment, lines: list[dict]) -> tuple[list[KeyOutLine], list[Problem]]:
    from ledgers.keys.services import copy_refusal, holder_refusal, release_refusal

    out: dict[int, int] = {}  # key → copies out in the lines above
    now = timezone.now()

    def read(number: int, line: dict) -> KeyOutLine:
        at = page(line)
        key = _key_of(est, line)
        holder = _person(est, line, "holder") or required(line, "holder")
        released_by = _person(est, line, "released_by") or required(line, "released_by")
        issued_at, due_at = _moment(est, line, "issued_at"), _moment(est, line, "due_at")
        if issued_at > now:
            raise RowError("issued_at", _("une clé reprise est sortie avant ce jour."))
        if due_at < issued_at:
            raise RowError("due_at", _("l'heure de retour prévue suit la sortie."))
        purpose = required(line, "purpose")
        for column, refused in (
            ("released_by", release_refusal(key, released_by)),
            ("holder", holder_refusal(key, holder)),
            ("key", copy_refusal(key, out.get(key.pk, 0))),
        ):
            if refused is not None:
                raise refusal(column, refused)
        out[key.pk] = out.get(key.pk, 0) + 1
        return KeyOutLine(at, key, holder, released_by, issued_at, due_at, purpose)

    return checked(lines, read)


def _post_keys_out(
    est: Establishment, inventory, lines: list[KeyOutLine], actor: AbstractBaseUser, role: str
) -> Posted:
    from ledgers.keys.services import key_out_take_over

    from .purposes import TAKEOVER_PURPOSE

    created = [
        key_out_take_over(
            key=line.key,
            actor=actor,
            holder=line.holder,
            released_by=line.released_by,
            issued_at=line.issued_at,
            due_at=line.due_at,
            purpose_type=TAKEOVER_PURPOSE.code,
            purpose_id=inventory.pk,
            purpose_label=line.purpose,
            source=source(inventory.paper_register, [line]),
        ).pk
        for line in lines
    ]
    return Posted(created, str(_("%(n)s clé(s) sortie(s) reprise(s)")) % {"n": len(created)})


KEYS_OUT = takeover_domain(
    TakeoverDomain(
        code="keys_out",
        label=_("Clés sorties"),
        columns=(
            ("page", _("Page du registre papier"), _("La page où la sortie est inscrite.")),
            ("key", _("Identifiant de la clé"), _("Telle qu'inscrite au registre des clés.")),
            ("lock_type", _("Type de serrure"), _("Si l'identifiant sert à plusieurs types de serrure.")),
            ("holder", _("Détenteur"), _("Identifiant ou prénom et nom de la personne qui la détient.")),
            ("released_by", _("Remise par"), _("Identifiant ou prénom et nom de la personne qui l'a remise.")),
            ("issued_at", _("Sortie le"), _("JJ/MM/AAAA HH:MM")),
            ("due_at", _("À rendre le"), _("JJ/MM/AAAA HH:MM")),
            ("purpose", _("Motif de sortie"), _("Tel que le registre papier le porte.")),
        ),
        check=_check_keys_out,
        post=_post_keys_out,
        started=lambda est, taken: _key_acts(est),
    )
)


# --- The paper volumes of the registers ----------------------------------------------------------


@dataclass
class VolumeLine:
    page: int
    kind: Any
    qualifier: str
    volume: str


def _kind_of(est: Establishment, line: dict):
    from ledgers.registers.kinds import KINDS

    value = required(line, "kind")
    for kind in KINDS:
        if est.jurisdiction not in kind.jurisdictions:
            continue
        with translation.override("fr"):
            french = str(kind.title)
        if value.lower() in (kind.code.lower(), french.lower(), force_str(kind.title).lower()):
            return kind
    raise RowError("kind", _("type de registre inconnu dans cette juridiction : « %(v)s ».") % {"v": value})


def _check_volumes(est: Establishment, lines: list[dict]) -> tuple[list[VolumeLine], list[Problem]]:
    from ledgers.registers.models import Entry, EntryKind

    from .models import Inventory

    done_before = {
        (row.get("kind"), row.get("qualifier", ""))
        for inventory in Inventory.objects.filter(
            establishment=est, domain="registers", status=Inventory.Status.POSTED
        ).only("rows")
        for row in inventory.rows
    }
    seen: set[tuple[str, str]] = set()

    def read(number: int, line: dict) -> VolumeLine:
        at = page(line)
        kind = _kind_of(est, line)
        qualifier = text(line, "qualifier")
        volume = required(line, "volume")
        pair = (kind.code, qualifier)
        if pair in seen or pair in done_before:
            raise RowError("kind", _("la suite de ce registre papier est déjà reprise."))
        written = Entry.objects.filter(
            register__establishment=est, register__kind=kind.code, register__qualifier=qualifier, kind=EntryKind.RECORD
        )
        if written.exists():
            message = _("ce registre a déjà ses premières inscriptions : sa suite du papier ne se reprend plus.")
            raise RowError("kind", message, "REG-20")
        seen.add(pair)
        return VolumeLine(page=at, kind=kind, qualifier=qualifier, volume=volume)

    return checked(lines, read)


def _post_volumes(est: Establishment, inventory, lines: list[VolumeLine], actor: AbstractBaseUser, role: str) -> Posted:
    from ledgers.registers.kinds import default_title

    texts = []
    with translation.override("fr"):
        for line in lines:
            texts.append(
                str(_("%(title)s : suite du volume papier %(volume)s, dernière page écrite %(page)s"))
                % {"title": default_title(line.kind, line.qualifier), "volume": line.volume, "page": line.page}
            )
    return Posted([], str(_("%(n)s registre(s) poursuivi(s)")) % {"n": len(lines)}, texts)


VOLUMES = takeover_domain(
    TakeoverDomain(
        code="registers",
        label=_("Volumes papier des registres"),
        columns=(
            ("kind", _("Registre"), _("Son code ou son intitulé.")),
            ("qualifier", _("Catégorie"), _("Pour un registre tenu par catégorie, table ou caisse.")),
            ("volume", _("Volume papier"), _("Le numéro du volume papier en cours.")),
            ("page", _("Dernière page écrite"), _("La dernière page écrite de ce volume.")),
        ),
        check=_check_volumes,
        post=_post_volumes,
        started=lambda est, taken: False,  # each register, line by line: its first inscriptions
    )
)


# --- Sabots -------------------------------------------------------------------------------------


@dataclass
class ShoeLine:
    page: int
    number: str
    maker_serial: str
    model: Any
    location: Location
    status: str


def _approved_model(est: Establishment, line: dict, kind: str):
    """The house's approved model of ``kind`` the line names, by its name or approval reference."""
    from ledgers.equipment.models import ApprovedModel

    value = required(line, "model")
    models = ApprovedModel.objects.filter(establishment=est, kind=kind)
    found = list(models.filter(name__iexact=value)) or list(models.filter(approval_reference__iexact=value))
    if len(found) != 1:
        raise RowError(
            "model",
            _("modèle de %(kind)s inconnu ou ambigu dans cet établissement : « %(v)s ».")
            % {"kind": str(ApprovedModel.Kind(kind).label).lower(), "v": value},
        )
    return found[0]


def _shoe_model(est: Establishment, line: dict):
    from ledgers.equipment.models import ApprovedModel

    return _approved_model(est, line, ApprovedModel.Kind.SHOE)


def _check_shoes(est: Establishment, lines: list[dict]) -> tuple[list[ShoeLine], list[Problem]]:
    from ledgers.custody.services import check_location
    from ledgers.equipment.domains import SHOES
    from ledgers.equipment.models import Shoe
    from ledgers.equipment.services import shoe_numbers_check

    numbers: list[str] = []

    def read(number: int, line: dict) -> ShoeLine:
        at = page(line)
        shoe_number = text(line, "number")
        try:
            shoe_numbers_check(establishment=est, numbers=[*numbers, shoe_number])
        except (RuleViolation, ValidationError) as exc:
            raise refusal("number", exc) from exc
        model = _shoe_model(est, line)
        status = choice(line, "status", [(s, ItemStatus(s).label) for s in KEPT_STATUSES], ItemStatus.IN_STOCK)
        location = location_of(est, line)
        try:
            check_location(SHOES, location, Shoe(establishment=est, status=status))
        except (RuleViolation, ValidationError) as exc:
            raise refusal("location", exc) from exc
        numbers.append(shoe_number)
        return ShoeLine(at, shoe_number, text(line, "maker_serial"), model, location, status)

    return checked(lines, read)


def _post_shoes(est: Establishment, inventory, lines: list[ShoeLine], actor: AbstractBaseUser, role: str) -> Posted:
    from ledgers.custody.services import intake_record_in
    from ledgers.equipment.domains import SHOE_CATEGORY, SHOES
    from ledgers.equipment.models import Shoe

    now = timezone.now()
    created = [
        save_audited(
            Shoe(
                establishment=est,
                serial=line.number,
                maker_serial=line.maker_serial,
                model=line.model,
                category=SHOE_CATEGORY,
                status=line.status,
                location=line.location,
                received_at=now,
            ),
            actor=actor,
            reason="reprise de l'existant",
        )
        for line in lines
    ]
    with translation.override("fr"):
        details = [
            f"{shoe.serial} — {line.model} — {_('série')} {shoe.maker_serial or '—'} — "
            f"{shoe.get_status_display()}, p. {line.page}"
            for shoe, line in zip(created, lines, strict=True)
        ]
    intake_record_in(
        domain=SHOES,
        establishment=est,
        items=created,
        actor=actor,
        role=role,
        details={SHOE_CATEGORY: details},
        source=source(inventory.paper_register, lines),
    )
    return Posted([shoe.pk for shoe in created], str(_("%(n)s sabot(s) repris")) % {"n": len(created)})


def _shoes_started(est: Establishment, taken: set[int]) -> bool:
    from ledgers.equipment.domains import SHOES
    from ledgers.equipment.models import Shoe, ShoeAllocation

    return (
        ShoeAllocation.objects.filter(establishment=est).exists()
        or DestructionSession.objects.filter(establishment=est, domain=SHOES.code).exists()
        or DepotDay.objects.filter(establishment=est, domain=SHOES.code).exists()
        or Shoe.objects.filter(establishment=est).exclude(pk__in=taken).exists()
    )


SHOES = takeover_domain(
    TakeoverDomain(
        code="shoes",
        label=_("Sabots"),
        columns=(
            ("page", _("Page du registre papier"), _("La page où le sabot est inscrit.")),
            ("number", _("Numéro de l'établissement"), ""),
            ("maker_serial", _("Numéro de série du fabricant"), ""),
            ("model", _("Modèle"), _("Le nom ou la référence d'agrément du modèle de sabot enregistré.")),
            ("location", _("Dépôt"), _("Code ou nom du dépôt où le sabot se trouve.")),
            ("status", _("Statut"), _("in_stock (en dépôt), out_of_use, marked ou damaged.")),
        ),
        check=_check_shoes,
        post=_post_shoes,
        started=_shoes_started,
        # FR: the sabots' inventory is kept on reserved pages of the carnet modèle 19 (SHOE-11), which a
        # police officer visas (REG-06).
        visa={"FR": ("REG-06", True)},
    )
)


# --- Shufflers ----------------------------------------------------------------------------------


@dataclass
class ShufflerLine:
    page: int
    fields: dict


def _socle_of(est: Establishment, line: dict):
    """The socle the line names (its table's number and its mark), None when the line names none."""
    from ledgers.equipment.models import Socle

    table, mark = text(line, "table"), text(line, "socle")
    if not table and not mark:
        return None
    if not (table and mark):
        raise RowError("socle" if table else "table", _("la table et le repère du socle vont ensemble."))
    found = Socle.objects.filter(table__establishment=est, table__number=table, code=mark).select_related("table")
    socle = found.first()
    if socle is None:
        raise RowError("socle", _("socle inconnu à cette table : « %(v)s ».") % {"v": f"{table} / {mark}"})
    return socle


def _check_shufflers(est: Establishment, lines: list[dict]) -> tuple[list[ShufflerLine], list[Problem]]:
    from ledgers.equipment.models import ApprovedModel, AssetStatus, MachineType, Shuffler
    from ledgers.equipment.services import shuffler_commission_check, shuffler_identity_check, shuffler_socle_check

    numbers: list[str] = []
    socles: list = []
    statuses = [(s, AssetStatus(s).label) for s in (AssetStatus.REGISTERED, AssetStatus.IN_SERVICE)]
    # The column a commissioning check's refusal concerns, by catalogue ID (the others: the model's approval).
    commission_columns = {"SHUF-02": "card_access_protection", "SHUF-03": "malfunction_signal"}

    def read(number: int, line: dict) -> ShufflerLine:
        at = page(line)
        model = _approved_model(est, line, ApprovedModel.Kind.SHUFFLER)
        fields = {
            "number": text(line, "number"),
            "serial": text(line, "serial"),
            "model": model,
            "machine_type": choice(line, "machine_type", MachineType.choices),
            "embout": flag(line, "embout", False),
            "in_service": choice(line, "status", statuses, AssetStatus.IN_SERVICE) == AssetStatus.IN_SERVICE,
            "card_access_protection": flag(line, "card_access_protection", False),
            "malfunction_signal": flag(line, "malfunction_signal", False),
            "socle": _socle_of(est, line),
        }
        try:
            shuffler_identity_check(
                establishment=est, number=fields["number"], serial=fields["serial"], model=model, numbers=numbers
            )
        except ValidationError as exc:
            raise refusal(next(iter(exc.message_dict)), exc) from exc
        if fields["in_service"]:
            try:
                shuffler_commission_check(
                    establishment=est,
                    model=model,
                    card_access_protection=fields["card_access_protection"],
                    malfunction_signal=fields["malfunction_signal"],
                )
            except RuleViolation as exc:
                raise refusal(commission_columns.get(exc.code, "model"), exc) from exc
        if fields["socle"] is not None:
            shuffler = Shuffler(establishment=est, machine_type=fields["machine_type"])
            try:
                shuffler_socle_check(shuffler, fields["socle"], socles)
            except (RuleViolation, ValidationError) as exc:
                raise refusal("socle", exc) from exc
            socles.append(fields["socle"])
        numbers.append(fields["number"])
        return ShufflerLine(page=at, fields=fields)

    return checked(lines, read)


def _post_shufflers(
    est: Establishment, inventory, lines: list[ShufflerLine], actor: AbstractBaseUser, role: str
) -> Posted:
    from ledgers.equipment.services import shuffler_take_over

    created = [
        shuffler_take_over(
            establishment=est, actor=actor, source=source(inventory.paper_register, [line]), **line.fields
        ).pk
        for line in lines
    ]
    return Posted(created, str(_("%(n)s mélangeur(s) repris")) % {"n": len(created)})


def _shufflers_started(est: Establishment, taken: set[int]) -> bool:
    from ledgers.equipment.models import Shuffler, ShufflerUse

    return (
        ShufflerUse.objects.filter(shuffler__establishment=est).exists()
        or Shuffler.objects.filter(establishment=est).exclude(pk__in=taken).exists()
    )


SHUFFLERS = takeover_domain(
    TakeoverDomain(
        code="shufflers",
        label=_("Mélangeurs"),
        columns=(
            ("page", _("Page du registre papier"), _("La page où le mélangeur est inscrit.")),
            ("number", _("Numéro d'inventaire"), ""),
            ("serial", _("Numéro de série"), ""),
            ("model", _("Modèle"), _("Le nom ou la référence d'agrément du modèle de mélangeur enregistré.")),
            ("machine_type", _("Type"), _("batch (mélangeur de cartes) ou continuous (mélangeur distributeur).")),
            ("embout", _("Embout distributeur de black jack"), _("oui ou non.")),
            ("status", _("Statut"), _("in_service (en service, par défaut) ou registered (pas encore en service).")),
            ("card_access_protection", _("Protection d'accès aux cartes"), _("oui ou non ; Monaco : oui en service.")),
            ("malfunction_signal", _("Signal de dysfonctionnement"), _("oui ou non ; Monaco : oui en service.")),
            ("table", _("Table"), _("Le numéro de la table dont le socle porte le mélangeur.")),
            ("socle", _("Socle"), _("Le repère du socle à cette table.")),
        ),
        check=_check_shufflers,
        post=_post_shufflers,
        started=_shufflers_started,
    )
)


# --- Cagnottes ----------------------------------------------------------------------------------


@dataclass
class CagnotteLine:
    page: int
    table: Any
    number: str
    displayed: Any


def _check_cagnottes(est: Establishment, lines: list[dict]) -> tuple[list[CagnotteLine], list[Problem]]:
    from ledgers.cash.models import TableCagnotte
    from ledgers.cash.services.bbj import bad_beat_take_over_check
    from ledgers.cash.services.table_cagnottes import table_cagnotte_check
    from ledgers.core.models import GamingTable

    seen: set[int] = set()

    def read(number: int, line: dict) -> CagnotteLine:
        at = page(line)
        value = required(line, "table")
        table = GamingTable.objects.filter(establishment=est, number=value, active=True).first()
        if table is None:
            raise RowError("table", _("table inconnue dans cet établissement : « %(v)s ».") % {"v": value})
        if table.pk in seen or TableCagnotte.objects.filter(table=table).exists():
            raise RowError("table", _("la cagnotte de cette table est déjà en service."))
        cagnotte = required(line, "number")
        try:
            table_cagnotte_check(table=table, number=cagnotte)
        except (RuleViolation, ValidationError) as exc:
            raise refusal("number" if isinstance(exc, RuleViolation) else "table", exc) from exc
        displayed = _decimal(line, "bbj_displayed")
        if displayed is not None:
            try:
                bad_beat_take_over_check(table=table, displayed=displayed)
            except (RuleViolation, ValidationError) as exc:
                raise refusal("bbj_displayed", exc) from exc
        seen.add(table.pk)
        return CagnotteLine(at, table, cagnotte, displayed)

    return checked(lines, read)


def _post_cagnottes(
    est: Establishment, inventory, lines: list[CagnotteLine], actor: AbstractBaseUser, role: str
) -> Posted:
    from ledgers.cash.services.bbj import bad_beat_take_over
    from ledgers.cash.services.table_cagnottes import table_cagnotte_record

    created = []
    for line in lines:
        cited = source(inventory.paper_register, [line])
        created.append(table_cagnotte_record(table=line.table, number=line.number, actor=actor, source=cited).pk)
        if line.displayed is not None:
            bad_beat_take_over(table=line.table, displayed=line.displayed, actor=actor, source=cited)
    return Posted(created, str(_("%(n)s cagnotte(s) reprise(s)")) % {"n": len(created)})


def _cagnottes_started(est: Establishment, taken: set[int]) -> bool:
    from ledgers.cash.models import BadBeatCount, BadBeatWin, CagnotteCount, TableCagnotte

    return (
        CagnotteCount.objects.filter(table_session__seance__establishment=est).exists()
        or BadBeatCount.objects.filter(table_session__seance__establishment=est).exists()
        or BadBeatWin.objects.filter(jackpot__table__establishment=est).exists()
        or TableCagnotte.objects.filter(table__establishment=est).exclude(pk__in=taken).exists()
    )


CAGNOTTES = takeover_domain(
    TakeoverDomain(
        code="cagnottes",
        label=_("Cagnottes des tables de cercle"),
        columns=(
            ("page", _("Page du registre papier"), _("La page où la cagnotte est inscrite.")),
            ("table", _("Table"), _("Le numéro de la table de cercle.")),
            ("number", _("Cagnotte n°"), _("Le numéro de la cagnotte : celui de sa table.")),
            (
                "bbj_displayed",
                _("Montant affiché du bad beat jackpot"),
                _("Pour une table dont le bad beat jackpot est activé : le dernier montant affiché au papier."),
            ),
        ),
        check=_check_cagnottes,
        post=_post_cagnottes,
        started=_cagnottes_started,
        # A cercle table's cagnotte numbered like its table, and the bad beat jackpot, are French
        # (COUNT-17, COUNT-42, COUNT-44); a Monaco cagnotte is emptied and counted at each séance.
        jurisdictions=("FR",),
    )
)


# --- Slot machine meters ------------------------------------------------------------------------


@dataclass
class MeterLine:
    page: int
    machine_id: int
    meter_id: int
    value: int


def _check_meters(est: Establishment, lines: list[dict]) -> tuple[list[MeterLine], list[Problem]]:
    from ledgers.slots.models import MeterReading
    from ledgers.slots.selectors import meters_by_key
    from ledgers.slots.services import ReadingRow, readings_check

    meters = meters_by_key(est, {text(line, "machine") for line in lines})
    read = set(
        MeterReading.objects.filter(meter_id__in=[m.id for m in meters.values()]).values_list("meter_id", flat=True)
    )
    rows: list[ReadingRow] = []

    def read_line(number: int, line: dict) -> MeterLine:
        at = page(line)
        machine = required(line, "machine")
        station_text = text(line, "station") or "1"
        value_text = required(line, "value")
        if not station_text.isdigit():
            raise RowError("station", _("nombre attendu (« %(v)s » lu).") % {"v": station_text})
        if not value_text.isdigit():
            raise RowError("value", _("nombre attendu (« %(v)s » lu).") % {"v": value_text})
        row = ReadingRow(machine, int(station_text), required(line, "meter"), int(value_text), number)
        errors = readings_check(establishment=est, rows=[*rows, row])
        if errors:
            key = (row.machine, row.station, row.meter)
            twice = any((r.machine, r.station, r.meter) == key for r in rows)
            raise RowError("meter" if key not in meters or twice else "value", errors[-1])
        meter = meters[(row.machine, row.station, row.meter)]
        if meter.id in read:
            raise RowError(
                "meter", _("ce compteur a déjà ses relevés : sa valeur du papier ne se reprend plus."), "REG-20"
            )
        rows.append(row)
        return MeterLine(page=at, machine_id=meter.machine_id, meter_id=meter.id, value=row.value)

    return checked(lines, read_line)


def _post_meters(est: Establishment, inventory, lines: list[MeterLine], actor: AbstractBaseUser, role: str) -> Posted:
    from ledgers.slots.models import Machine
    from ledgers.slots.services import meters_initial_record

    by_machine: dict[int, list[MeterLine]] = {}
    for line in lines:
        by_machine.setdefault(line.machine_id, []).append(line)
    created = []
    for machine in Machine.objects.filter(pk__in=list(by_machine)).order_by("pk"):
        group = by_machine[machine.pk]
        readings = meters_initial_record(
            machine=machine,
            values=[(line.meter_id, line.value) for line in group],
            actor=actor,
            source=source(inventory.paper_register, group),
        )
        created += [reading.pk for reading in readings]
    return Posted(created, str(_("%(n)s compteur(s) repris")) % {"n": len(created)})


def _meters_started(est: Establishment, taken: set[int]) -> bool:
    from ledgers.slots.models import RamClear, Releve

    return (
        Releve.objects.filter(establishment=est).exists()
        or RamClear.objects.filter(machine__establishment=est).exists()
    )


METERS = takeover_domain(
    TakeoverDomain(
        code="meters",
        label=_("Compteurs des machines à sous"),
        columns=(
            ("page", _("Page du registre papier"), _("La page où la valeur est inscrite.")),
            ("machine", _("Machine"), _("Son numéro (SBM ou numéro du casino).")),
            ("station", _("Poste"), _("1 par défaut.")),
            ("meter", _("Compteur"), _("Sa clé, telle que la relève la nomme.")),
            ("value", _("Valeur"), ""),
        ),
        check=_check_meters,
        post=_post_meters,
        started=_meters_started,
    )
)
