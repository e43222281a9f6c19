"""Places: depots, transfers and the daily annex ledger."""

import datetime
from collections import Counter, defaultdict
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, Location, LocationKind
from ledgers.core.roles import Role
from ledgers.registers.models import Entry, Register
from ledgers.registers.selectors import current_register, opening_role
from ledgers.registers.services import display_name, entry_append

from ..domains import CustodyDomain
from ..models import (
    GONE_STATUSES,
    WITHDRAWN_STATUSES,
    DepotDay,
    TrackedItem,
)
from ..selectors import located_stock
from .common import _french, _refuse, _serials


def _annex_write(register: Register, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    """Every line of a domain's comptabilité annexe (its depots' movements and day closes) is
    written here, in the domain's volume. The text does not ask for it to be coté et paraphé
    (REG-03); an operator who sets SET-26 annex_ledger_paraphe has the Commissaire do it first."""
    if (register.establishment.setting("SET-26") or {}).get("annex_ledger_paraphe") and (
        opening_role(register) != Role.COMMISSAIRE
    ):
        raise RuleViolation(
            "REG-03",
            _(
                "La comptabilité annexe des dépôts doit être cotée et paraphée par le Commissaire du "
                "Gouvernement (réglage SET-26)."
            ),
        )
    return entry_append(register=register, actor=actor, role=role, payload=payload)


def check_location(domain: CustodyDomain, location: Location, item: TrackedItem | None = None) -> None:
    """Objects not at a table are kept only in the domain's depots (CARD-08, CARD-28, DICE-06…);
    withdrawn objects go to the main depot (CARD-17, SHOE-03)."""
    est = location.establishment
    allowed = domain.depot_kinds.get(est.jurisdiction, frozenset())
    if location.kind not in allowed or not location.active:
        _refuse(
            domain, "location", est, _("« %(loc)s » n'est pas un dépôt autorisé pour ce matériel.") % {"loc": location}
        )
        raise ValidationError(_("« %(loc)s » n'est pas un dépôt autorisé pour ce matériel.") % {"loc": location})
    if (
        item is not None
        and item.status in WITHDRAWN_STATUSES
        and est.jurisdiction == "MC"
        and location.kind != LocationKind.DEPOT_PRINCIPAL
    ):
        _refuse(
            domain,
            "out_of_use_location",
            est,
            _("Un matériel hors d'usage, marqué ou détérioré ne peut être placé qu'au dépôt principal."),
        )


@transaction.atomic
def items_transfer(
    *,
    domain: CustodyDomain,
    items: Sequence[TrackedItem],
    to_location: Location,
    actor: AbstractBaseUser,
    received_by: str = "",
) -> list[TrackedItem]:
    """Move objects between depots; each transfer is a line of the daily annex ledger (CARD-05)."""
    if not items:
        raise ValidationError(_("Aucun objet à transférer."))
    est = to_location.establishment
    if domain.annex_kind is None or est.jurisdiction != "MC":
        raise ValidationError(_("Les transferts entre dépôts ne concernent que la comptabilité annexe (Monaco)."))
    role = depot_keeper_role(actor, est, domain)
    model = type(items[0])
    locked = list(model.objects.select_for_update().filter(pk__in=[i.pk for i in items]).order_by("pk"))
    origins = {item.location_id for item in locked}
    if len(origins) != 1 or None in origins:
        _refuse(domain, "transfer", est, _("Un transfert part d'un seul dépôt d'origine vers un dépôt de destination."))
    origin = locked[0].location
    if origin.pk == to_location.pk:
        raise ValidationError({"to_location": _("Le dépôt de destination doit différer du dépôt d'origine.")})
    for item in locked:
        if item.status in GONE_STATUSES or item.table_session_id or item.location_id != origin.pk:
            _refuse(
                domain,
                "transfer",
                est,
                _("« %(item)s » n'est pas en stock au dépôt d'origine : stock négatif impossible.")
                % {"item": item.serial},
            )
        check_location(domain, to_location, item)
    for item in locked:
        item.location = to_location
        save_audited(item, actor=actor, reason="transfert")
    register = current_register(est, domain.annex_kind, domain.code)
    categories = dict(Counter(item.category for item in locked))
    _annex_write(
        register,
        actor=actor,
        role=role,
        payload={
            "movement": "TRANSFER",
            "operation": _french(_("Transfert")),
            "date": timezone.localdate().isoformat(),
            "from": origin.name,
            "to": to_location.name,
            "categories": categories,
            "quantities": [f"{category} × {n}" for category, n in sorted(categories.items())],
            "serials": _serials(locked),
            "handed_over_by": display_name(actor),
            "received_by": received_by,
        },
    )
    return locked


def domain_writer_roles(domain: CustodyDomain, est: Establishment) -> tuple[str, ...]:
    """Who keeps the domain's books: the intake register's writers."""
    kind, _qualifier = domain.intake_register(est, "")
    from ledgers.registers.kinds import get_kind

    return get_kind(kind).record_roles


def depot_keeper_role(actor: AbstractBaseUser, est: Establishment, domain: CustodyDomain) -> str:
    """The role in which ``actor`` moves the domain's objects between depots and closes its annex
    ledger's day: the books' keepers."""
    return require_role(actor, est, domain_writer_roles(domain, est))


@transaction.atomic
def depot_day_close(
    *, domain: CustodyDomain, establishment: Establishment, date: datetime.date, actor: AbstractBaseUser
) -> list[DepotDay]:
    """Close one day of the annex ledger for every depot: opening stock (yesterday's closing),
    transfers in and out, closing stock per category, as counted from the located objects."""
    if domain.annex_kind is None:
        raise ValueError(_("Ce matériel n'a pas de comptabilité annexe."))
    role = depot_keeper_role(actor, establishment, domain)
    register = current_register(establishment, domain.annex_kind, domain.code)
    register = Register.objects.select_for_update().get(pk=register.pk)
    if DepotDay.objects.filter(domain=domain.code, location__establishment=establishment, date=date).exists():
        raise ValidationError(
            {"date": _("La journée du %(date)s est déjà arrêtée.") % {"date": date.strftime("%d/%m/%Y")}}
        )
    moves_in: dict[str, Counter] = defaultdict(Counter)
    moves_out: dict[str, Counter] = defaultdict(Counter)
    for payload in register.entries.filter(kind="record").values_list("payload", flat=True):
        if payload.get("movement") == "TRANSFER" and payload.get("date") == date.isoformat():
            moves_in[payload["to"]].update(payload["categories"])
            moves_out[payload["from"]].update(payload["categories"])
    stock = located_stock(domain, establishment)
    days = []
    depots = Location.objects.filter(
        establishment=establishment,
        kind__in=domain.depot_kinds.get(establishment.jurisdiction, ()),
    ).order_by("code")
    for depot in depots:
        previous = DepotDay.objects.filter(domain=domain.code, location=depot, date__lt=date).order_by("-date").first()
        closing = {cat: n for (loc, cat), n in stock.items() if loc == depot.pk}
        day = DepotDay.objects.create(
            establishment=establishment,
            domain=domain.code,
            location=depot,
            date=date,
            opening=previous.closing if previous else {},
            transfers_in=dict(moves_in[depot.name]),
            transfers_out=dict(moves_out[depot.name]),
            closing=closing,
            closed_by=actor,
            closed_at=timezone.now(),
        )
        _annex_write(
            register,
            actor=actor,
            role=role,
            payload={
                "movement": "DAY_CLOSE",
                "operation": _french(_("Arrêté de la journée")),
                "date": date.isoformat(),
                "depot": depot.name,
                "from": depot.name,
                "opening": day.opening,
                "in": day.transfers_in,
                "out": day.transfers_out,
                "closing": closing,
                # printed form: one line per category
                "quantities": [
                    _french(
                        _("%(cat)s : ouverture %(o)s, entrées %(i)s, sorties %(x)s, clôture %(c)s"),
                        cat=category,
                        o=day.opening.get(category, 0),
                        i=day.transfers_in.get(category, 0),
                        x=day.transfers_out.get(category, 0),
                        c=closing.get(category, 0),
                    )
                    for category in sorted(set(day.opening) | set(day.transfers_in) | set(closing))
                ],
            },
        )
        days.append(day)
    return days
