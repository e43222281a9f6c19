"""Sabots: intake, sheet, allocation to the tables, return and withdrawal."""

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core import hooks
from ledgers.core.authz import refusal_of, require_role, role_named_by_text, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.games import Equipment
from ledgers.core.models import Establishment, GamingTable, Location, Seance, TableSession
from ledgers.core.roles import Role
from ledgers.core.services import table_session_locked
from ledgers.custody import services as custody
from ledgers.custody.models import ItemStatus

from .. import selectors
from ..domains import SHOE_CATEGORY, SHOES
from ..models import (
    ApprovedModel,
    Shoe,
    ShoeAllocation,
)
from ..specs import (
    ART_58_ALLOCATORS,
    PUNTO_BANCO_ALLOCATORS,
    SHOE_GAMES_FR,
)
from .approved_models import require_current_approval
from .common import FR_SHOE_KEEPERS, _equipment_entry, _fr


def shoe_keeper_role(actor: AbstractBaseUser, est: Establishment) -> str:
    """The role in which ``actor`` takes sabots in, keeps their sheets and withdraws them: the
    writers of the sabots' ledger."""
    return require_role(actor, est, custody.domain_writer_roles(SHOES, est))


def _numbering_rule(est: Establishment) -> str:
    return "SHOE-10" if est.jurisdiction == "FR" else "SHOE-01"


def shoe_numbers_check(*, establishment: Establishment, numbers: Sequence[str]) -> None:
    """Each sabot entering the stock (a receipt, the take-over from paper) bears the number the
    establishment gives it, never one already given (SHOE-10; MC an ID, SHOE-01). Writes nothing."""
    code = _numbering_rule(establishment)
    numbers = [number.strip() for number in numbers]
    if any(not number for number in numbers):
        raise RuleViolation(code, _("Chaque sabot porte le numéro que lui donne l'établissement."))
    taken = set(Shoe.objects.filter(establishment=establishment, serial__in=numbers).values_list("serial", flat=True))
    taken |= {n for n in numbers if numbers.count(n) > 1}
    if taken:
        raise RuleViolation(
            code, _("Numéro déjà attribué à un autre sabot : %(numbers)s.") % {"numbers": ", ".join(sorted(taken))}
        )


@transaction.atomic
def shoe_receive(
    *,
    establishment: Establishment,
    model: ApprovedModel,
    location: Location,
    shoes: Sequence[tuple[str, str]],
    actor: AbstractBaseUser,
    delivery_note: str = "",
) -> list[Shoe]:
    """Take sabots into stock: each gets the establishment's number (SHOE-10; MC: an ID, SHOE-01),
    goes into a depot (SHOE-02, SHOE-09) and into the inventory of the intake register (SHOE-11).
    ``shoes``: (casino number, maker's serial number) pairs."""
    role = shoe_keeper_role(actor, establishment)
    if model.establishment_id != establishment.pk or model.kind != ApprovedModel.Kind.SHOE:
        raise ValidationError({"model": _("Ce modèle n'est pas un modèle de sabot de cet établissement.")})
    if not shoes:
        raise ValidationError(_("Indiquez au moins un sabot."))
    numbers = [number.strip() for number, _serial in shoes]
    shoe_numbers_check(establishment=establishment, numbers=numbers)
    custody.check_location(SHOES, location)
    now = timezone.now()
    created = [
        save_audited(
            Shoe(
                establishment=establishment,
                serial=number,
                maker_serial=serial.strip(),
                model=model,
                category=SHOE_CATEGORY,
                status=ItemStatus.IN_STOCK,
                location=location,
                received_at=now,
            ),
            actor=actor,
            reason="prise en charge",
        )
        for number, (_n, serial) in zip(numbers, shoes, strict=True)
    ]
    details = [f"{shoe.serial} — {model} — {_fr(_('série'))} {shoe.maker_serial or '—'}" for shoe in created]
    custody.intake_record_in(
        domain=SHOES,
        establishment=establishment,
        items=created,
        actor=actor,
        role=role,
        delivery_note=delivery_note,
        details={SHOE_CATEGORY: details},
    )
    return created


@transaction.atomic
def shoe_update(
    *, shoe: Shoe, actor: AbstractBaseUser, number: str, model: ApprovedModel, maker_serial: str = ""
) -> Shoe:
    """Correct the sheet of a sabot; its number never changes (SHOE-10: no renumbering)."""
    shoe = Shoe.objects.select_for_update().get(pk=shoe.pk)
    est = shoe.establishment
    role = shoe_keeper_role(actor, est)
    if number.strip() != shoe.serial:
        raise RuleViolation(
            _numbering_rule(est),
            _("Un sabot garde le numéro qui lui a été donné : il n'est jamais renuméroté (n° %(number)s).")
            % {"number": shoe.serial},
        )
    if model.establishment_id != est.pk or model.kind != ApprovedModel.Kind.SHOE:
        raise ValidationError({"model": _("Ce modèle n'est pas un modèle de sabot de cet établissement.")})
    before = f"{shoe.model} / {shoe.maker_serial or '—'}"
    shoe.model, shoe.maker_serial = model, maker_serial.strip()
    save_audited(shoe, actor=actor, reason="mise à jour de la fiche")
    _equipment_entry(
        est,
        actor=actor,
        role=role,
        event=_("Mise à jour de la fiche"),
        equipment=shoe,
        details=f"{before} → {shoe.model} / {shoe.maker_serial or '—'}",
    )
    return shoe


def _fr_allocator(actor: AbstractBaseUser, est: Establishment, game: str) -> tuple[str, list[dict]]:
    """FR: who may allocate a sabot at this game (SHOE-05, SHOE-12, AMB-49), and the flag a comité
    member's allocation raises at baccara and blackjack."""
    rules = SHOE_GAMES_FR[game]
    if game == "punto_banco":
        allowed, message = (
            PUNTO_BANCO_ALLOCATORS,
            _(
                "Au punto banco, les sabots sont affectés par le directeur responsable, un membre "
                "du comité de direction "
                "ou un employé responsable."
            ),
        )
    else:
        comite = (est.setting("AMB-49") or {}).get("comite_allocates", True)
        allowed = (*ART_58_ALLOCATORS, Role.COMITE) if comite else ART_58_ALLOCATORS
        message = _("Les sabots sont affectés aux tables par le directeur ou un employé responsable.")
    role = role_named_by_text(actor, est, allowed, rules["allocators"], message)
    flags = []
    if role == Role.COMITE and game != "punto_banco":
        flags.append(
            {
                "code": "AMB-49",
                "text": _fr(
                    _(
                        "Affectation par un membre du comité de direction (l'article 58 nomme le "
                        "directeur ou un employé "
                        "responsable)."
                    )
                ),
            }
        )
    return role, flags


def _mc_allocator(actor: AbstractBaseUser, est: Establishment) -> str:
    """MC: the cartier takes a sabot out of the depot at the moment of use (SHOE-02)."""
    return role_named_by_text(
        actor,
        est,
        (Role.CARTIER,),
        "SHOE-02",
        _("Les sabots sont sortis des dépôts par le cartier au moment où il en est fait usage."),
    )


def plays_with_shoe(table: GamingTable, est: Establishment) -> bool:
    """Whether a sabot may be put in service at ``table`` of ``est``: FR the games the texts name,
    MC a card game."""
    if est.jurisdiction == "FR":
        return table.game in SHOE_GAMES_FR
    return Equipment.CARDS in table.game_info.equipment


def shoe_allocation_refusal(
    actor: AbstractBaseUser, est: Establishment, game: str = ""
) -> RuleViolation | PermissionDenied | None:
    """Why ``actor`` may put no sabot in service here (at ``game``'s tables when it is named, else
    at any game played with a sabot), None when they may: asked before the form is offered."""
    if est.jurisdiction != "FR":
        return refusal_of(lambda: _mc_allocator(actor, est))
    games = [game] if game in SHOE_GAMES_FR else list(SHOE_GAMES_FR)
    refusals = [refusal_of(lambda game=game: _fr_allocator(actor, est, game)) for game in games]
    return None if None in refusals else refusals[0]


def shoe_returner_role(actor: AbstractBaseUser, est: Establishment) -> str:
    """The role in which ``actor`` signs the sabots' return to the depot: MC the inspecteur de
    service who watches it (SHOE-02), FR the keepers of the cabinets (SHOE-09)."""
    if est.jurisdiction == "MC":
        return role_named_by_text(
            actor,
            est,
            (Role.INSPECTEUR,),
            "SHOE-02",
            _("Les sabots sont rangés au dépôt sous la surveillance de l'inspecteur de service, qui signe la rentrée."),
        )
    return require_role(actor, est, FR_SHOE_KEEPERS)


@transaction.atomic
def shoe_allocate(
    *, session: TableSession, shoe: Shoe, actor: AbstractBaseUser, received_by: str = ""
) -> ShoeAllocation:
    """Put a sabot in service at a table-partie.

    MC: the cartier takes it out of the depot at the moment of use (SHOE-02, CARD-12).
    FR: the allocation at the start of the séance by the roles the texts name (SHOE-05, SHOE-12,
    AMB-49), of an approved model (SHOE-04, SHOE-07, SHOE-08) that is in the inventory (SHOE-11),
    flagged when the sabot went to the same table within the last SET-20 séances, and recorded in
    the table's carnet d'avances (SHOE-06) or in column 3 of its modèle 11 (SHOE-13)."""
    session = table_session_locked(session)
    est, table = session.seance.establishment, session.table
    if session.status == TableSession.Status.CLOSED or session.seance.status != Seance.Status.OPEN:
        # Sabots leave the depot only for a partie about to be played (SHOE-02) and are kept
        # nowhere else than in the cabinets unless allocated to an open table (SHOE-09).
        raise RuleViolation(
            "SHOE-09" if est.jurisdiction == "FR" else "SHOE-02",
            _("La table %(table)s n'a pas de partie ouverte : aucun sabot ne peut lui être affecté.")
            % {"table": table},
        )
    shoe = Shoe.objects.select_for_update().select_related("model").get(pk=shoe.pk)
    if shoe.establishment_id != est.pk:
        raise ValidationError(_("Ce sabot n'appartient pas à cet établissement."))
    flags: list[dict] = []
    if est.jurisdiction == "FR":
        if not plays_with_shoe(table, est):
            raise ValidationError(_("Le jeu de cette table ne se joue pas avec un sabot."))
        role, flags = _fr_allocator(actor, est, table.game)
        if not shoe.model.is_approved:
            raise RuleViolation(
                SHOE_GAMES_FR[table.game]["approval"],
                _("Le %(shoe)s est d'un modèle (%(model)s) sans agrément du ministre de l'intérieur.")
                % {"shoe": shoe, "model": shoe.model},
            )
        require_current_approval(shoe.model, est)
        if shoe.serial not in selectors.shoe_inventory(est):
            raise RuleViolation(
                "SHOE-11",
                _("Le %(shoe)s n'est pas inscrit à l'inventaire des sabots du carnet de prise en charge.")
                % {"shoe": shoe},
            )
        window = int(est.setting("SET-20") or 0)
        repeat = selectors.recent_allocation(shoe, table, session.seance, window)
        if repeat is not None:
            flags.append(
                {
                    "code": SHOE_GAMES_FR[table.game]["allocators"],
                    "text": _fr(
                        _("Même sabot à la même table qu'à la séance du %(seance)s (fenêtre : %(n)s séance(s)).")
                        % {"seance": repeat.table_session.seance, "n": window}
                    ),
                }
            )
    else:
        if not plays_with_shoe(table, est):
            raise ValidationError(_("Le jeu de cette table ne se joue pas avec des cartes."))
        role = _mc_allocator(actor, est)
    if Shoe.objects.filter(table_session=session).exists():
        raise impossible(_("Un sabot est déjà en service à cette table : rentrez-le d'abord."))
    custody.items_issue(
        domain=SHOES,
        items=[shoe],
        session=session,
        actor=actor,
        role=role,
        received_by=received_by,
        extra={"model": str(shoe.model), "flags": flags},
    )
    allocation = ShoeAllocation.objects.create(
        establishment=est,
        table_session=session,
        shoe=shoe,
        allocated_at=timezone.now(),
        allocated_by=actor,
        role=role,
        flags=flags,
    )
    hooks.announce(hooks.SHOE_ALLOCATED, allocation=allocation)  # the table's carnet keeps its line
    return allocation


@transaction.atomic
def shoe_return(
    *, shoes: Sequence[Shoe], to_location: Location, actor: AbstractBaseUser, returned_by: str = ""
) -> list[Shoe]:
    """Put sabots back in a depot at the end of the partie. MC: under the surveillance of the
    inspecteur de service, who signs the return (SHOE-02); FR: into the card cabinet or the sabot
    cabinet (SHOE-09)."""
    est = to_location.establishment
    role = shoe_returner_role(actor, est)
    return custody.items_return(
        domain=SHOES, items=list(shoes), to_location=to_location, actor=actor, role=role, returned_by=returned_by
    )


@transaction.atomic
def shoe_withdraw(*, shoe: Shoe, actor: AbstractBaseUser, reason: str, to_location: Location | None = None) -> Shoe:
    """Declare a sabot out of use; MC: it goes to the main depot for examination and later
    destruction or neutralisation (SHOE-03), the move written in the annex ledger."""
    shoe = Shoe.objects.select_for_update().get(pk=shoe.pk)
    est = shoe.establishment
    role = shoe_keeper_role(actor, est)
    if not reason.strip():
        raise ValidationError({"reason": _("Indiquez pourquoi le sabot est hors d'usage.")})
    if shoe.status != ItemStatus.IN_STOCK or shoe.location_id is None:
        raise RuleViolation(
            "SHOE-03" if est.jurisdiction == "MC" else "SHOE-09",
            _("Seul un sabot rangé en dépôt peut être déclaré hors d'usage."),
        )
    target = to_location or shoe.location
    origin = shoe.location
    shoe.status = ItemStatus.OUT_OF_USE
    save_audited(shoe, actor=actor, reason="hors d'usage")
    if target.pk == origin.pk:
        custody.check_location(SHOES, target, shoe)
    elif est.jurisdiction == "MC":
        custody.items_transfer(domain=SHOES, items=[shoe], to_location=target, actor=actor)
    else:
        custody.check_location(SHOES, target, shoe)
        shoe.location = target
        save_audited(shoe, actor=actor, reason="rangement")
    _equipment_entry(
        est,
        actor=actor,
        role=role,
        event=_("Mise hors d'usage"),
        equipment=shoe,
        details=f"{reason.strip()} — {target}",
    )
    return shoe
