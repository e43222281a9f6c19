"""Writes on sabots, shufflers and wheels. Every service checks the actor's role, applies the
texts' rules (``RuleViolation`` with the catalogue ID), changes the objects through
``save_audited`` and appends its register entry in the same transaction."""

import datetime
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from ledgers.cash.registers import CARNET_AVANCES
from ledgers.core.authz import require_role, role_named_by_text, roles_of, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.games import Equipment
from ledgers.core.models import Establishment, GamingTable, Location, Seance, TableSession
from ledgers.core.roles import Role
from ledgers.custody import services as custody
from ledgers.custody.models import ItemStatus
from ledgers.incidents.categories import CARD_ANOMALY, EQUIPMENT_CHECK, SHUFFLER_MALFUNCTION
from ledgers.incidents.models import Incident
from ledgers.incidents.selectors import has_open_incident
from ledgers.incidents.services import incident_open
from ledgers.registers.models import Entry
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append

from . import selectors
from .domains import SHOE_CATEGORY, SHOES
from .models import (
    ApprovedModel,
    AssetStatus,
    LaunchRoster,
    LaunchRosterPlace,
    LaunchTurn,
    LidLock,
    Shoe,
    ShoeAllocation,
    Shuffler,
    ShufflerUse,
    Socle,
    Wheel,
    WheelCheck,
)
from .registers import (
    MAIN_COURANTE_ROUE,
    MATERIEL_JEU,
    ROULEMENT_LANCEURS,
    VERIFICATIONS_MATERIEL,
)
from .specs import (
    ART_58_ALLOCATORS,
    CHECK_RULES,
    KINDS_BY_JURISDICTION,
    LAUNCH_LOG_KEEPERS,
    LAUNCH_STAFF,
    LID_GAMES,
    PAUSE_GAMES_MC,
    PUNTO_BANCO_ALLOCATORS,
    ROSTER_MEMBERS,
    ROSTER_SETTERS,
    ROTATION_GAMES,
    SHOE_GAMES_FR,
    SHUFFLER_DECKS_FR,
    SHUFFLER_DISPLAY_FR,
    WHEEL_FOR_GAME,
    clean_spec,
    normalise_display,
    validate_spec,
)

# Who manages the equipment (registers models and assets, commissions, mounts): the Direction.
MANAGERS = {
    "MC": (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR, Role.INSPECTEUR),
    "FR": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
}
# The staff of a table who start, stop and watch a shuffler during the séance.
TABLE_STAFF = (Role.CROUPIER, Role.CHEF_TABLE, Role.CHEF_PARTIE, Role.INSPECTEUR)
# FR: who keeps the sabot cabinet and allocates (art. 58, 57-13).
FR_SHOE_KEEPERS = (Role.DIRECTEUR_RESPONSABLE, Role.COMITE, Role.EMPLOYE_RESPONSABLE)


def _fr(value: Any) -> str:
    """Register entries are written in French whatever the user's interface language."""
    with translation.override("fr"):
        return str(value)


@contextmanager
def custody_input_errors() -> Iterator[None]:
    """The shared custody services report bad input as ValueError: it is a validation error here."""
    try:
        yield
    except ValueError as exc:
        raise ValidationError(str(exc)) from exc


def _record(
    est: Establishment, kind: str, *, actor: AbstractBaseUser, role: str, payload: dict, qualifier: str = ""
) -> Entry:
    return entry_append(register=current_register(est, kind, qualifier), actor=actor, role=role, payload=payload)


def _session_fields(session: TableSession) -> dict[str, Any]:
    return {
        "date": session.seance.date.isoformat(),
        "seance": _fr(session.seance),
        "table": session.table.number,
        "table_session": session.pk,
    }


def _equipment_entry(
    est: Establishment,
    *,
    actor: AbstractBaseUser,
    role: str,
    event,
    equipment: Any,
    details: Any = "",
    session: TableSession | None = None,
    table_number: str = "",
) -> Entry:
    """An entry of the register of the equipment's life (MATERIEL_JEU)."""
    payload = {
        "event": _fr(event),
        "equipment": _fr(equipment),
        "details": details if isinstance(details, list) else _fr(details),
        "signed_by": display_name(actor),
        "table": table_number,
        "seance": "",
    }
    if session is not None:
        payload.update(_session_fields(session))
    return _record(est, MATERIEL_JEU.code, actor=actor, role=role, payload=payload)


def _live_session(session: TableSession) -> TableSession:
    session = TableSession.objects.select_for_update().select_related("seance", "table").get(pk=session.pk)
    if session.status == TableSession.Status.CLOSED or session.seance.status != Seance.Status.OPEN:
        raise ValidationError(_("La partie de la table %(table)s est terminée.") % {"table": session.table})
    return session


# --- Approved models (SET-33, SHUF-01, SHUF-11, AMB-29) ------------------------------------------


@transaction.atomic
def approved_model_register(
    *,
    establishment: Establishment,
    kind: str,
    manufacturer: str,
    name: str,
    actor: AbstractBaseUser,
    approval_reference: str = "",
    approval_issuer: str = "",
    approved_on: datetime.date | None = None,
    approved_until: datetime.date | None = None,
) -> ApprovedModel:
    """Record a model of sabot or shuffler with its approval reference and issuer."""
    role = require_role(actor, establishment, MANAGERS[establishment.jurisdiction])
    if kind not in ApprovedModel.Kind.values:
        raise ValidationError({"kind": _("Type de matériel inconnu.")})
    if not manufacturer.strip() or not name.strip():
        raise ValidationError(_("Le fabricant et le modèle sont obligatoires."))
    if ApprovedModel.objects.filter(
        establishment=establishment, kind=kind, manufacturer=manufacturer.strip(), name=name.strip()
    ).exists():
        raise ValidationError(_("Ce modèle est déjà enregistré."))
    model = save_audited(
        ApprovedModel(
            establishment=establishment,
            kind=kind,
            manufacturer=manufacturer.strip(),
            name=name.strip(),
            approval_reference=approval_reference.strip(),
            approval_issuer=approval_issuer.strip(),
            approved_on=approved_on,
            approved_until=approved_until,
        ),
        actor=actor,
        reason="enregistrement",
    )
    approval = (
        _fr(
            _("Agrément %(ref)s délivré par %(issuer)s le %(date)s")
            % {
                "ref": model.approval_reference,
                "issuer": model.approval_issuer or "—",
                "date": approved_on.strftime("%d/%m/%Y") if approved_on else "—",
            }
        )
        if model.is_approved
        else _fr(_("Sans référence d'agrément"))
    )
    _equipment_entry(
        establishment,
        actor=actor,
        role=role,
        event=_("Enregistrement d'un modèle"),
        equipment=f"{model.get_kind_display()} {model}",
        details=approval,
    )
    return model


# --- Sabots: intake, sheet, use at the tables, withdrawal ------------------------------------------


def _numbering_rule(est: Establishment) -> str:
    return "SHOE-10" if est.jurisdiction == "FR" else "SHOE-01"


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
    role = require_role(actor, establishment, custody.domain_writer_roles(SHOES, establishment))
    if model.establishment_id != establishment.pk or model.kind != ApprovedModel.Kind.SHOE:
        raise ValidationError({"model": _("Ce modèle n'est pas un modèle de sabot de cet établissement.")})
    if not shoes:
        raise ValidationError(_("Indiquez au moins un sabot."))
    code = _numbering_rule(establishment)
    numbers = [number.strip() for number, _serial in shoes]
    if any(not number for number in numbers):
        raise RuleViolation(code, _("Chaque sabot porte le numéro que lui donne l'établissement."))
    taken = set(Shoe.objects.filter(establishment=establishment, serial__in=numbers).values_list("serial", flat=True))
    taken |= {n for n in numbers if numbers.count(n) > 1}
    if taken:
        raise RuleViolation(
            code, _("Numéro déjà attribué à un autre sabot : %(numbers)s.") % {"numbers": ", ".join(sorted(taken))}
        )
    with custody_input_errors():
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
    role = require_role(actor, est, custody.domain_writer_roles(SHOES, est))
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
    session = TableSession.objects.select_for_update().select_related("seance", "table").get(pk=session.pk)
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
        if table.game not in SHOE_GAMES_FR:
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
        if Equipment.CARDS not in table.game_info.equipment:
            raise ValidationError(_("Le jeu de cette table ne se joue pas avec des cartes."))
        role = role_named_by_text(
            actor,
            est,
            (Role.CARTIER,),
            "SHOE-02",
            _("Les sabots sont sortis des dépôts par le cartier au moment où il en est fait usage."),
        )
    if Shoe.objects.filter(table_session=session).exists():
        raise impossible(_("Un sabot est déjà en service à cette table : rentrez-le d'abord."))
    with custody_input_errors():
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
    if est.jurisdiction == "FR":  # COUNT-16: the allocation written in the table's carnet
        _carnet_entry(session, shoe, actor=actor, role=role, flags=flags)
    return allocation


def _carnet_entry(session: TableSession, shoe: Shoe, *, actor: AbstractBaseUser, role: str, flags: list[dict]) -> None:
    """The mention of the allocation on the table's carnet: its page for this table-partie."""
    est, table = session.seance.establishment, session.table
    kind = SHOE_GAMES_FR[table.game]["carnet"]
    allocator = display_name(actor)
    payload: dict[str, Any] = {
        **_session_fields(session),
        "event": _fr(_("Affectation du sabot")),
        "flags": [flag["text"] for flag in flags],
    }
    if kind == CARNET_AVANCES.code:
        payload["sabot"] = {
            "number": shoe.serial,
            "model": str(shoe.model),
            "allocated_by": allocator,
            "role": _fr(Role(role).label),
        }
    else:  # modèle 11, column 3: beside the names of the croupiers and changeurs (AMB-49)
        payload["col3"] = {"sabot": shoe.serial, "allocated_by": f"{allocator} ({_fr(Role(role).label)})", "names": []}
    _record(est, kind, actor=actor, role=role, payload=payload, qualifier=table.number)


@transaction.atomic
def shoe_return(
    *, shoes: Sequence[Shoe], to_location: Location, actor: AbstractBaseUser, returned_by: str = ""
) -> list[Shoe]:
    """Put sabots back in a depot at the end of the partie. MC: under the surveillance of the
    inspecteur de service, who signs the return (SHOE-02); FR: into the card cabinet or the sabot
    cabinet (SHOE-09)."""
    est = to_location.establishment
    if est.jurisdiction == "MC":
        role = role_named_by_text(
            actor,
            est,
            (Role.INSPECTEUR,),
            "SHOE-02",
            _("Les sabots sont rangés au dépôt sous la surveillance de l'inspecteur de service, qui signe la rentrée."),
        )
    else:
        role = require_role(actor, est, FR_SHOE_KEEPERS)
    with custody_input_errors():
        return custody.items_return(
            domain=SHOES, items=list(shoes), to_location=to_location, actor=actor, role=role, returned_by=returned_by
        )


@transaction.atomic
def shoe_withdraw(*, shoe: Shoe, actor: AbstractBaseUser, reason: str, to_location: Location | None = None) -> Shoe:
    """Declare a sabot out of use; MC: it goes to the main depot for examination and later
    destruction or neutralisation (SHOE-03), the move written in the annex ledger."""
    shoe = Shoe.objects.select_for_update().get(pk=shoe.pk)
    est = shoe.establishment
    role = require_role(actor, est, custody.domain_writer_roles(SHOES, est))
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
    with custody_input_errors():
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


# --- Shufflers -------------------------------------------------------------------------------


def require_current_approval(model: ApprovedModel, est: Establishment) -> None:
    """An approval with an end date is refused once expired (AUTH-06): the model's sabots and
    shufflers go out of service until it is renewed."""
    if model.approval_expired(est.localtime(timezone.now()).date()):
        raise RuleViolation(
            "AUTH-06",
            _("L'agrément %(ref)s du modèle %(model)s a expiré le %(date)s.")
            % {"ref": model.approval_reference, "model": model, "date": model.approved_until.strftime("%d/%m/%Y")},
        )


def _shuffler_approval_rule(est: Establishment) -> str:
    return "SHUF-11" if est.jurisdiction == "FR" else "SHUF-01"


def check_shuffler_eligible(shuffler: Shuffler, table: GamingTable) -> None:
    """The machine type must be allowed for the table's game (SHUF-08, SHUF-09; matrix SET-34)."""
    est = table.establishment
    allowed = (est.setting("SET-34") or {}).get(table.game, ())
    if shuffler.machine_type not in allowed:
        raise RuleViolation(
            "SHUF-09" if est.jurisdiction == "FR" else "SHUF-08",
            _("Un %(type)s n'est pas autorisé au jeu « %(game)s ».")
            % {"type": shuffler.get_machine_type_display().lower(), "game": table.get_game_display()},
        )


@transaction.atomic
def shuffler_register(
    *,
    establishment: Establishment,
    number: str,
    serial: str,
    model: ApprovedModel,
    machine_type: str,
    actor: AbstractBaseUser,
    embout: bool = False,
) -> Shuffler:
    """Register a shuffler or shuffler-dealer (SHUF-04), awaiting its putting into service."""
    role = require_role(actor, establishment, MANAGERS[establishment.jurisdiction])
    if model.establishment_id != establishment.pk or model.kind != ApprovedModel.Kind.SHUFFLER:
        raise ValidationError({"model": _("Ce modèle n'est pas un modèle de mélangeur de cet établissement.")})
    if not number.strip() or not serial.strip():
        raise ValidationError(_("Le numéro d'inventaire et le numéro de série sont obligatoires."))
    if Shuffler.objects.filter(establishment=establishment, number=number.strip()).exists():
        raise ValidationError({"number": _("Ce numéro d'inventaire est déjà attribué.")})
    shuffler = save_audited(
        Shuffler(
            establishment=establishment,
            number=number.strip(),
            serial=serial.strip(),
            model=model,
            machine_type=machine_type,
            embout=embout,
        ),
        actor=actor,
        reason="enregistrement",
    )
    _equipment_entry(
        establishment,
        actor=actor,
        role=role,
        event=_("Enregistrement"),
        equipment=shuffler,
        details=f"{model} — {_fr(_('série'))} {shuffler.serial}",
    )
    return shuffler


@transaction.atomic
def shuffler_commission(
    *,
    shuffler: Shuffler,
    actor: AbstractBaseUser,
    card_access_protection: bool,
    malfunction_signal: bool,
    observations: str = "",
) -> Shuffler:
    """Put a shuffler into service: an approved model (SHUF-01, SHUF-11, AMB-29) and, in Monaco, the
    checklist — protection against access to the cards during shuffling (SHUF-02) and a light or
    sound malfunction signal (SHUF-03)."""
    shuffler = Shuffler.objects.select_for_update().select_related("model").get(pk=shuffler.pk)
    est = shuffler.establishment
    role = require_role(actor, est, MANAGERS[est.jurisdiction])
    if shuffler.status != AssetStatus.REGISTERED:
        raise impossible(_("Ce mélangeur a déjà été mis en service."))
    if not shuffler.model.is_approved:
        raise RuleViolation(
            _shuffler_approval_rule(est),
            _("Le modèle %(model)s n'a pas de référence d'agrément : mise en service impossible.")
            % {"model": shuffler.model},
        )
    require_current_approval(shuffler.model, est)
    if est.jurisdiction == "MC" and not card_access_protection:
        raise RuleViolation(
            "SHUF-02",
            _(
                "Le mélangeur doit être muni d'une protection empêchant l'accès aux cartes pendant "
                "les cycles de mélange."
            ),
        )
    if est.jurisdiction == "MC" and not malfunction_signal:
        raise RuleViolation(
            "SHUF-03",
            _("Le mélangeur doit être muni d'un dispositif lumineux ou sonore signalant les dysfonctionnements."),
        )
    shuffler.card_access_protection, shuffler.malfunction_signal = card_access_protection, malfunction_signal
    shuffler.status, shuffler.commissioned_at, shuffler.commissioned_by = AssetStatus.IN_SERVICE, timezone.now(), actor
    save_audited(shuffler, actor=actor, reason="mise en service")
    details = [
        _fr(
            _("Agrément : %(ref)s (%(issuer)s)")
            % {"ref": shuffler.model.approval_reference, "issuer": shuffler.model.approval_issuer or "—"}
        ),
        _fr(_("Protection d'accès aux cartes : %(v)s") % {"v": _("oui") if card_access_protection else _("non")}),
        _fr(_("Signal de dysfonctionnement : %(v)s") % {"v": _("oui") if malfunction_signal else _("non")}),
    ] + ([observations.strip()] if observations.strip() else [])
    _equipment_entry(est, actor=actor, role=role, event=_("Mise en service"), equipment=shuffler, details=details)
    return shuffler


@transaction.atomic
def socle_create(*, table: GamingTable, code: str, actor: AbstractBaseUser) -> Socle:
    """Record the socle attached to a table (SHUF-05)."""
    est = table.establishment
    role = require_role(actor, est, MANAGERS[est.jurisdiction])
    if not code.strip():
        raise ValidationError({"code": _("Le repère du socle est obligatoire.")})
    if Socle.objects.filter(table=table, code=code.strip()).exists():
        raise ValidationError({"code": _("Ce socle existe déjà à cette table.")})
    socle = save_audited(Socle(table=table, code=code.strip()), actor=actor, reason="création")
    _equipment_entry(
        est,
        actor=actor,
        role=role,
        event=_("Socle fixé à la table"),
        equipment=socle,
        details="",
        table_number=table.number,
    )
    return socle


@transaction.atomic
def shuffler_mount(*, shuffler: Shuffler, socle: Socle, actor: AbstractBaseUser) -> Shuffler:
    """Fix a shuffler on the socle of a table whose game allows its type (SHUF-05, SHUF-08,
    SHUF-09); FR: the table then uses a shuffler from this date (SHUF-11)."""
    shuffler = Shuffler.objects.select_for_update().get(pk=shuffler.pk)
    est = shuffler.establishment
    role = require_role(actor, est, MANAGERS[est.jurisdiction])
    if socle.table.establishment_id != est.pk:
        raise ValidationError(_("Ce socle n'appartient pas à cet établissement."))
    if shuffler.status == AssetStatus.WITHDRAWN:
        raise ValidationError(_("Ce mélangeur est retiré."))
    if shuffler.socle_id is not None:
        raise ValidationError(_("Ce mélangeur est déjà fixé sur un socle : déposez-le d'abord."))
    if Shuffler.objects.filter(socle=socle).exists():
        raise ValidationError(_("Ce socle porte déjà un mélangeur."))
    check_shuffler_eligible(shuffler, socle.table)
    shuffler.socle = socle
    save_audited(shuffler, actor=actor, reason="installation")
    _equipment_entry(
        est,
        actor=actor,
        role=role,
        event=_("Installation sur socle"),
        equipment=shuffler,
        details=_fr(socle),
        table_number=socle.table.number,
    )
    return shuffler


@transaction.atomic
def shuffler_unmount(*, shuffler: Shuffler, actor: AbstractBaseUser) -> Shuffler:
    shuffler = Shuffler.objects.select_for_update(of=("self",)).select_related("socle__table").get(pk=shuffler.pk)
    est = shuffler.establishment
    role = require_role(actor, est, MANAGERS[est.jurisdiction])
    if shuffler.socle_id is None:
        raise ValidationError(_("Ce mélangeur n'est fixé sur aucun socle."))
    if shuffler.uses.filter(end_confirmed=False, table_session__status=TableSession.Status.OPEN).exists():
        raise ValidationError(_("Ce mélangeur est en service à une table ouverte."))
    socle = shuffler.socle
    shuffler.socle = None
    save_audited(shuffler, actor=actor, reason="dépose")
    _equipment_entry(
        est,
        actor=actor,
        role=role,
        event=_("Dépose du socle"),
        equipment=shuffler,
        details=_fr(socle),
        table_number=socle.table.number,
    )
    return shuffler


def _usable(shuffler: Shuffler, table: GamingTable) -> None:
    """A shuffler may be used at a table only in service, without an open malfunction (INC-07),
    mounted on that table's socle (SHUF-05) and allowed for its game (SHUF-08, SHUF-09)."""
    est = table.establishment
    if shuffler.status == AssetStatus.OUT_OF_SERVICE or has_open_incident(shuffler):
        raise RuleViolation(
            "INC-07",
            _("Le %(machine)s est hors service jusqu'à la levée de l'incident de dysfonctionnement.")
            % {"machine": shuffler},
        )
    if shuffler.status != AssetStatus.IN_SERVICE:
        raise RuleViolation(
            _shuffler_approval_rule(est), _("Le %(machine)s n'a pas été mis en service.") % {"machine": shuffler}
        )
    if shuffler.socle_id is None or shuffler.socle.table_id != table.pk:
        raise RuleViolation(
            "SHUF-11" if est.jurisdiction == "FR" else "SHUF-05",
            _("Le %(machine)s n'est pas fixé sur le socle de la table %(table)s.")
            % {"machine": shuffler, "table": table},
        )
    check_shuffler_eligible(shuffler, table)


@transaction.atomic
def shuffler_use_start(
    *,
    session: TableSession,
    shuffler: Shuffler,
    actor: AbstractBaseUser,
    embout: bool = False,
    display: str = "",
    decks_counted: int | None = None,
    observations: str = "",
) -> ShufflerUse:
    """Start a shuffler for the séance. FR blackjack (SHUF-14): embout distributeur fitted, display
    set to "black jack 6 jeux", six decks counted and checked; FR punto banco (SHUF-15): display
    "6 jeux", six decks counted and checked."""
    session = _live_session(session)
    est, table = session.seance.establishment, session.table
    role = require_role(actor, est, TABLE_STAFF)
    shuffler = Shuffler.objects.select_for_update(of=("self",)).select_related("socle").get(pk=shuffler.pk)
    _usable(shuffler, table)
    require_current_approval(shuffler.model, est)
    if ShufflerUse.objects.filter(table_session=session, shuffler=shuffler).exists():
        raise ValidationError(_("Ce mélangeur a déjà été mis en marche pour cette partie."))
    if est.jurisdiction == "FR" and table.game in SHUFFLER_DISPLAY_FR:
        code, expected = SHUFFLER_DISPLAY_FR[table.game]
        if table.game == "blackjack" and not (embout and shuffler.embout):
            raise RuleViolation(
                code, _("Au black jack, le mélangeur doit être muni de l'embout distributeur prévu pour ce jeu.")
            )
        if normalise_display(display) != expected:
            raise RuleViolation(
                code, _("L'écran du mélangeur doit afficher « %(expected)s ».") % {"expected": expected}
            )
        if decks_counted != SHUFFLER_DECKS_FR:
            raise RuleViolation(code, _("Les six jeux doivent être comptés et vérifiés avant d'être introduits."))
    use = save_audited(
        ShufflerUse(
            table_session=session,
            shuffler=shuffler,
            started_at=timezone.now(),
            started_by=actor,
            opening={"embout": embout, "display": display.strip(), "decks_counted": decks_counted},
        ),
        actor=actor,
        reason="mise en marche",
    )
    details = [
        _fr(_("Embout distributeur : %(v)s") % {"v": _("oui") if embout else _("non")}),
        _fr(_("Affichage : %(v)s") % {"v": display.strip() or "—"}),
        _fr(_("Jeux comptés : %(v)s") % {"v": decks_counted if decks_counted is not None else "—"}),
    ] + ([observations.strip()] if observations.strip() else [])
    _equipment_entry(
        est,
        actor=actor,
        role=role,
        event=_("Mise en marche pour la séance"),
        equipment=shuffler,
        details=details,
        session=session,
    )
    return use


@transaction.atomic
def shuffler_use_end(
    *,
    use: ShufflerUse,
    actor: AbstractBaseUser,
    hood_opened: bool,
    empty: bool,
    cards_removed: bool = False,
    disconnected: bool = False,
    observations: str = "",
) -> ShufflerUse:
    """End of séance at a shuffler. FR: the hood is opened so the players see no card is left
    inside (SHUF-13; a card found opens a card-anomaly incident, INC-13, and the machine must be
    emptied and shown again); at blackjack and punto banco the cards are taken out by hand and
    the machine is disconnected (SHUF-14, SHUF-15)."""
    use = (
        ShufflerUse.objects.select_for_update()
        .select_related("table_session__seance", "table_session__table", "shuffler")
        .get(pk=use.pk)
    )
    session = use.table_session
    est, table = session.seance.establishment, session.table
    role = require_role(actor, est, TABLE_STAFF)
    if use.end_confirmed:
        raise ValidationError(_("La fin de séance de ce mélangeur est déjà confirmée."))
    if session.status == TableSession.Status.CLOSED:
        raise ValidationError(_("La partie de la table %(table)s est terminée.") % {"table": table})
    if est.jurisdiction == "FR":
        if not hood_opened:
            raise RuleViolation(
                "SHUF-13",
                _(
                    "En fin de séance, le croupier ouvre le capot du mélangeur pour que les "
                    "joueurs constatent qu'aucune carte ne s'y trouve."
                ),
            )
        if table.game in SHUFFLER_DISPLAY_FR and not (cards_removed and disconnected):
            raise RuleViolation(
                SHUFFLER_DISPLAY_FR[table.game][0],
                _("En fin de séance, les cartes sont retirées à la main et le mélangeur est déconnecté."),
            )
    incident = None
    if hood_opened and not empty:
        incident = incident_open(
            establishment=est,
            category=CARD_ANOMALY.code,
            actor=actor,
            table_session=session,
            description=_fr(
                _("Carte(s) trouvée(s) dans le %(machine)s à l'ouverture du capot en fin de séance.")
                % {"machine": use.shuffler}
            ),
            circumstances=observations,
        )
    use.closing = {
        "hood_opened": hood_opened,
        "empty": empty,
        "cards_removed": cards_removed,
        "disconnected": disconnected,
        "incident": incident.pk if incident else use.closing.get("incident"),
    }
    use.ended_at, use.ended_by = timezone.now(), actor
    use.end_confirmed = empty and (hood_opened or est.jurisdiction == "MC")
    save_audited(use, actor=actor, reason="fin de séance")
    yes_no = {True: _("oui"), False: _("non")}
    details = (
        [
            _fr(_("Capot ouvert : %(v)s") % {"v": yes_no[hood_opened]}),
            _fr(_("Mélangeur vide : %(v)s") % {"v": yes_no[empty]}),
            _fr(_("Cartes retirées : %(v)s") % {"v": yes_no[cards_removed]}),
            _fr(_("Déconnecté : %(v)s") % {"v": yes_no[disconnected]}),
        ]
        + ([_fr(_("Incident n° %(n)s ouvert") % {"n": incident.pk})] if incident else [])
        + ([observations.strip()] if observations.strip() else [])
    )
    _equipment_entry(
        est, actor=actor, role=role, event=_("Fin de séance"), equipment=use.shuffler, details=details, session=session
    )
    return use


@transaction.atomic
def shuffler_pause_record(*, use: ShufflerUse, actor: AbstractBaseUser, cover_fitted: bool = True) -> Entry:
    """MC: play stops for lack of players — the cards stay in the shuffler-dealer and a cover is put
    on the insertion slot (SHUF-07, optional record)."""
    use = ShufflerUse.objects.select_related("table_session__seance", "table_session__table", "shuffler").get(pk=use.pk)
    session = use.table_session
    est = session.seance.establishment
    role = require_role(actor, est, TABLE_STAFF)
    if (
        est.jurisdiction != "MC"
        or session.table.game not in PAUSE_GAMES_MC
        or use.shuffler.machine_type != "continuous"
    ):
        raise ValidationError(
            _(
                "Cette mention concerne le mélangeur distributeur au black-jack, au trente et "
                "quarante et au punto banco (Monaco)."
            )
        )
    if session.status != TableSession.Status.OPEN:
        raise ValidationError(_("La table n'est pas ouverte."))
    details = (
        _("Partie interrompue, cartes laissées dans l'appareil, cache posé sur la fente d'introduction")
        if cover_fitted
        else _("Partie interrompue, cache non posé")
    )
    return _equipment_entry(
        est,
        actor=actor,
        role=role,
        event=_("Interruption de la partie"),
        equipment=use.shuffler,
        details=details,
        session=session,
    )


@transaction.atomic
def shuffler_malfunction_report(
    *,
    shuffler: Shuffler,
    actor: AbstractBaseUser,
    description: str,
    action_taken: str = "",
    session: TableSession | None = None,
) -> Incident:
    """The machine signalled a malfunction: an incident opens (INC-07) and the shuffler is out of
    service until it is cleared."""
    shuffler = Shuffler.objects.select_for_update().get(pk=shuffler.pk)
    est = shuffler.establishment
    role = require_role(actor, est, (*TABLE_STAFF, *MANAGERS[est.jurisdiction], Role.MECANICIEN))
    if not description.strip():
        raise ValidationError({"description": _("Décrivez le dysfonctionnement signalé.")})
    incident = incident_open(
        establishment=est,
        category=SHUFFLER_MALFUNCTION.code,
        actor=actor,
        subjects=[shuffler],
        description=description,
        circumstances=action_taken,
        table_session=session,
    )
    shuffler.status = AssetStatus.OUT_OF_SERVICE
    save_audited(shuffler, actor=actor, reason="dysfonctionnement")
    _equipment_entry(
        est,
        actor=actor,
        role=role,
        event=_("Dysfonctionnement — mise hors service"),
        equipment=shuffler,
        session=session,
        details=[
            description.strip(),
            *([action_taken.strip()] if action_taken.strip() else []),
            _fr(_("Incident n° %(n)s") % {"n": incident.pk}),
        ],
    )
    return incident


@transaction.atomic
def shuffler_return_to_service(*, shuffler: Shuffler, actor: AbstractBaseUser) -> Shuffler:
    """Back in service once the malfunction incident is closed (INC-07)."""
    shuffler = Shuffler.objects.select_for_update().get(pk=shuffler.pk)
    est = shuffler.establishment
    role = require_role(actor, est, MANAGERS[est.jurisdiction])
    if shuffler.status != AssetStatus.OUT_OF_SERVICE:
        raise ValidationError(_("Ce mélangeur n'est pas hors service."))
    if has_open_incident(shuffler):
        raise RuleViolation(
            "INC-07", _("L'incident de dysfonctionnement n'est pas clos : le mélangeur reste hors service.")
        )
    shuffler.status = AssetStatus.IN_SERVICE
    save_audited(shuffler, actor=actor, reason="remise en service")
    _equipment_entry(est, actor=actor, role=role, event=_("Remise en service"), equipment=shuffler)
    return shuffler


# --- Wheels --------------------------------------------------------------------------------------


def _spec_details(wheel: Wheel) -> list[str]:
    return [f"{key} : {value}" for key, value in sorted(wheel.spec.items())]


@transaction.atomic
def wheel_register(
    *, establishment: Establishment, number: str, kind: str, spec: dict, actor: AbstractBaseUser, serial: str = ""
) -> Wheel:
    """Record a roulette, boule plateau or wheel with its specification as found."""
    role = require_role(actor, establishment, MANAGERS[establishment.jurisdiction])
    if kind not in KINDS_BY_JURISDICTION[establishment.jurisdiction]:
        raise ValidationError({"kind": _("Ce matériel n'est pas exploité dans cette juridiction.")})
    if not number.strip():
        raise ValidationError({"number": _("Le numéro d'inventaire est obligatoire.")})
    if Wheel.objects.filter(establishment=establishment, number=number.strip()).exists():
        raise ValidationError({"number": _("Ce numéro d'inventaire est déjà attribué.")})
    wheel = save_audited(
        Wheel(
            establishment=establishment,
            number=number.strip(),
            serial=serial.strip(),
            kind=kind,
            spec=clean_spec(kind, spec),
        ),
        actor=actor,
        reason="enregistrement",
    )
    _equipment_entry(
        establishment, actor=actor, role=role, event=_("Enregistrement"), equipment=wheel, details=_spec_details(wheel)
    )
    return wheel


@transaction.atomic
def wheel_commission(*, wheel: Wheel, actor: AbstractBaseUser) -> Wheel:
    """Put into service only equipment whose recorded specification is the text's (WHEEL-01,
    WHEEL-03, WHEEL-04, WHEEL-05, WHEEL-07)."""
    wheel = Wheel.objects.select_for_update().get(pk=wheel.pk)
    est = wheel.establishment
    role = require_role(actor, est, MANAGERS[est.jurisdiction])
    if wheel.status != AssetStatus.REGISTERED:
        raise ValidationError(_("Ce matériel a déjà été mis en service."))
    validate_spec(wheel.kind, wheel.spec, est.jurisdiction)
    wheel.status = AssetStatus.IN_SERVICE
    save_audited(wheel, actor=actor, reason="mise en service")
    _equipment_entry(
        est,
        actor=actor,
        role=role,
        event=_("Mise en service — caractéristiques conformes"),
        equipment=wheel,
        details=_spec_details(wheel),
    )
    return wheel


@transaction.atomic
def wheel_install(*, wheel: Wheel, table: GamingTable, actor: AbstractBaseUser) -> Wheel:
    """Install a wheel in service at a table of its game."""
    wheel = Wheel.objects.select_for_update().get(pk=wheel.pk)
    est = wheel.establishment
    role = require_role(actor, est, MANAGERS[est.jurisdiction])
    if table.establishment_id != est.pk:
        raise ValidationError(_("Cette table n'appartient pas à cet établissement."))
    if WHEEL_FOR_GAME.get(table.game) != wheel.kind:
        raise ValidationError(_("Ce matériel ne sert pas au jeu de cette table."))
    if wheel.status != AssetStatus.IN_SERVICE:
        raise ValidationError(
            _("Le matériel doit être mis en service (caractéristiques validées) avant d'être installé.")
        )
    if Wheel.objects.filter(table=table).exclude(pk=wheel.pk).exists():
        raise ValidationError(_("Un autre matériel est installé à cette table."))
    wheel.table = table
    save_audited(wheel, actor=actor, reason="installation")
    _equipment_entry(
        est, actor=actor, role=role, event=_("Installation à la table"), equipment=wheel, table_number=table.number
    )
    return wheel


def _pair_roles(
    actor: AbstractBaseUser, cosigner: AbstractBaseUser, est: Establishment, roles: tuple[str, str], code: str
) -> tuple[str, str]:
    """The two signatories of a check hold the two roles the text names, one each."""
    mine, theirs = roles_of(actor, est), roles_of(cosigner, est)
    first, second = roles
    if actor.pk != cosigner.pk:
        if first in mine and second in theirs:
            return first, second
        if second in mine and first in theirs:
            return second, first
    raise RuleViolation(
        code,
        _("La vérification est faite et signée par deux personnes : %(a)s et %(b)s.")
        % {"a": Role(first).label, "b": Role(second).label},
    )


@transaction.atomic
def wheel_check_record(
    *,
    session: TableSession,
    actor: AbstractBaseUser,
    cosigner: AbstractBaseUser,
    points: Sequence[str],
    passed: bool,
    observations: str = "",
) -> WheelCheck:
    """The check before the séance, signed by both people the text names (MC WHEEL-06: maintenance
    staff in the presence of an inspecteur, REG-12; FR WHEEL-08: a comité member and the croupier,
    in the main courante, REG-11). A failed check opens an incident and the table stays closed
    (INC-08). ``cosigner`` is authenticated by the caller."""
    session = _live_session(session)
    est, table = session.seance.establishment, session.table
    rule = CHECK_RULES[est.jurisdiction].get(table.game)
    if rule is None:
        raise ValidationError(_("Aucune vérification avant séance n'est prescrite pour ce jeu."))
    code, roles = rule
    actor_role, cosigner_role = _pair_roles(actor, cosigner, est, roles, code)
    if session.status != TableSession.Status.PREPARING:
        raise ValidationError(_("La vérification a lieu avant l'ouverture de la table."))
    wheel = Wheel.objects.filter(table=table).first()
    if wheel is None:
        raise ValidationError(_("Aucun matériel n'est installé à cette table."))
    points = [str(p).strip() for p in points if str(p).strip()]
    if not points:
        raise ValidationError({"points": _("Indiquez les points vérifiés.")})
    if not passed and not observations.strip():
        raise ValidationError({"observations": _("Décrivez ce qui n'est pas conforme.")})
    incident = None
    if not passed:
        incident = incident_open(
            establishment=est,
            category=EQUIPMENT_CHECK.code,
            actor=actor,
            subjects=[wheel],
            table_session=session,
            description=_fr(_("Vérification avant séance non conforme : %(wheel)s.") % {"wheel": wheel}),
            circumstances=observations,
        )
    check = WheelCheck.objects.create(
        establishment=est,
        table_session=session,
        wheel=wheel,
        checked_at=timezone.now(),
        points=points,
        passed=passed,
        observations=observations.strip(),
        signer=actor,
        signer_role=actor_role,
        cosigner=cosigner,
        cosigner_role=cosigner_role,
        incident=incident,
    )
    names = {actor_role: display_name(actor), cosigner_role: display_name(cosigner)}
    payload = {
        **_session_fields(session),
        "wheel": _fr(wheel),
        "points": points,
        "result": _fr(_("conforme") if passed else _("non conforme")),
        "observations": check.observations,
        "incident": incident.pk if incident else None,
    }
    if est.jurisdiction == "MC":
        payload.update(
            event=_fr(_("Vérification avant séance")),
            technician=names[Role.ENTRETIEN],
            inspecteur=names[Role.INSPECTEUR],
        )
        _record(est, VERIFICATIONS_MATERIEL.code, actor=actor, role=actor_role, payload=payload)
    else:
        payload.update(comite=names[Role.COMITE], croupier=names[Role.CROUPIER])
        _record(est, MAIN_COURANTE_ROUE.code, actor=actor, role=actor_role, payload=payload)
    return check


@transaction.atomic
def wheel_lid_lock(*, session: TableSession, actor: AbstractBaseUser, key_holder: AbstractBaseUser) -> LidLock:
    """End of partie at the roulette: the cylinder covered with its lid, locked, and the key handed
    back to its holder (WHEEL-02, KEY-08; holders: SET-31). ``key_holder`` is authenticated by the
    caller (or is the actor)."""
    session = _live_session(session)
    est, table = session.seance.establishment, session.table
    if table.game not in LID_GAMES[est.jurisdiction]:
        raise ValidationError(_("Cette table n'a pas de cylindre fermé à clé."))
    role = require_role(actor, est, (Role.CROUPIER, Role.CHEF_TABLE, Role.INSPECTEUR))
    holders = tuple(est.setting("SET-31") or ())
    key_role = role_named_by_text(
        key_holder,
        est,
        holders,
        "KEY-08",
        _("La clé du couvercle est remise à son détenteur désigné (%(roles)s).")
        % {"roles": ", ".join(str(Role(r).label) for r in holders) or "—"},
    )
    if session.status != TableSession.Status.OPEN:
        raise ValidationError(_("Le cylindre se ferme à la fin de la partie, table ouverte."))
    if LidLock.objects.filter(table_session=session).exists():
        raise ValidationError(_("Le couvercle est déjà fermé pour cette partie."))
    wheel = Wheel.objects.filter(table=table).first()
    if wheel is None:
        raise ValidationError(_("Aucun cylindre n'est installé à cette table."))
    lock = LidLock.objects.create(
        table_session=session,
        wheel=wheel,
        locked_at=timezone.now(),
        locked_by=actor,
        locked_by_role=role,
        key_holder=key_holder,
        key_holder_role=key_role,
    )
    _record(
        est,
        VERIFICATIONS_MATERIEL.code,
        actor=actor,
        role=role,
        payload={
            **_session_fields(session),
            "wheel": _fr(wheel),
            "event": _fr(_("Fermeture du cylindre")),
            "points": [_fr(_("Couvercle posé et fermé à clé")), _fr(_("Clé remise à son détenteur"))],
            "result": _fr(_("fermé")),
            "observations": "",
            "technician": display_name(actor),
            "inspecteur": f"{display_name(key_holder)} ({_fr(Role(key_role).label)})",
        },
    )
    return lock


# --- Launching the ball at roulette and boule (WHEEL-09) -------------------------------------------


def _rotation_session(session: TableSession) -> TableSession:
    session = _live_session(session)
    if session.table.game not in ROTATION_GAMES[session.seance.establishment.jurisdiction]:
        raise ValidationError(_("L'ordre de roulement des lanceurs concerne la roulette et la boule (Monaco)."))
    return session


def _clock(moment: datetime.datetime, est: Establishment) -> str:
    return est.localtime(moment).strftime("%H:%M")


@transaction.atomic
def launch_roster_set(
    *, session: TableSession, croupiers: Sequence[AbstractBaseUser], actor: AbstractBaseUser, note: str = ""
) -> LaunchRoster:
    """The ordre de roulement of a roulette or boule table for the séance, set by the Direction des
    Jeux (WHEEL-09, art. 8.1, 10.1): the croupiers, in the order in which they launch the ball and
    relieve each other. Setting it again during the séance replaces it from then on."""
    session = _rotation_session(session)
    est = session.seance.establishment
    role = role_named_by_text(
        actor,
        est,
        ROSTER_SETTERS,
        "WHEEL-09",
        _("L'ordre de roulement est établi par la Direction des Jeux (directeur des jeux ou sous-directeur)."),
    )
    order = list(croupiers)
    if len({user.pk for user in order}) != len(order):
        raise ValidationError(_("Un croupier ne figure qu'une fois dans l'ordre de roulement."))
    for user in order:
        if not roles_of(user, est) & set(ROSTER_MEMBERS):
            raise RuleViolation(
                "WHEEL-09",
                _(
                    "%(name)s n'est pas croupier : seuls les croupiers affectés au jeu sont chargés successivement du "
                    "lancement."
                )
                % {"name": display_name(user)},
            )
    if len(order) < 2:
        raise RuleViolation(
            "WHEEL-09",
            _(
                "L'ordre de roulement comprend au moins deux croupiers : aucun ne peut être "
                "spécialisé dans le lancement."
            ),
        )
    replaces = session.launch_rosters.exists()
    roster = LaunchRoster.objects.create(
        establishment=est,
        table_session=session,
        set_at=timezone.now(),
        set_by=actor,
        set_by_role=role,
        note=note.strip(),
    )
    LaunchRosterPlace.objects.bulk_create(
        LaunchRosterPlace(roster=roster, position=position, croupier=user) for position, user in enumerate(order, 1)
    )
    _record(
        est,
        ROULEMENT_LANCEURS.code,
        actor=actor,
        role=role,
        payload={
            **_session_fields(session),
            "roster": roster.pk,
            "event": _fr(_("Nouvel ordre de roulement") if replaces else _("Ordre de roulement")),
            "order": [f"{position}. {display_name(user)}" for position, user in enumerate(order, 1)],
            "launcher": "",
            "since": _clock(roster.set_at, est),
            "flags": [],
            "observations": roster.note,
        },
    )
    return roster


def _launch_flags(
    est: Establishment, roster: LaunchRoster | None, turns: Sequence[LaunchTurn], launcher: AbstractBaseUser
) -> list[dict]:
    """What a new turn of ``launcher`` after ``turns`` reports (WHEEL-09): a launcher outside the
    order in force, or a pattern of specialisation — more consecutive turns, or a larger share of
    the partie's turns, than the establishment's thresholds (setting "WHEEL-09")."""
    name = display_name(launcher)
    limits = est.setting("WHEEL-09") or {}
    launchers = [turn.launcher_id for turn in turns] + [launcher.pk]
    run = next((i for i, pk in enumerate(reversed(launchers)) if pk != launcher.pk), len(launchers))
    total, mine, share = len(launchers), launchers.count(launcher.pk), limits.get("max_share_percent")
    texts = []
    with translation.override("fr"):  # flags are part of the register entry
        if roster is None:
            texts.append(
                _("Aucun ordre de roulement établi par la Direction des Jeux : %(name)s lance hors roulement.")
                % {"name": name}
            )
        elif not any(place.croupier_id == launcher.pk for place in roster.places.all()):
            texts.append(
                _("%(name)s n'est pas inscrit à l'ordre de roulement établi à %(at)s.")
                % {"name": name, "at": _clock(roster.set_at, est)}
            )
        if limits.get("max_consecutive") is not None and run > limits["max_consecutive"]:
            texts.append(
                _(
                    "%(name)s lance pour le %(n)se tour consécutif (plus de %(max)s de suite) : "
                    "spécialisation dans le lancement."
                )
                % {"name": name, "n": run, "max": limits["max_consecutive"]}
            )
        if share is not None and total >= limits.get("min_turns", 0) and mine > math.ceil(total * share / 100):
            texts.append(
                _(
                    "%(name)s a lancé %(mine)s des %(total)s tours de la partie (plus de %(max)s %%) : "
                    "spécialisation dans le lancement."
                )
                % {"name": name, "mine": mine, "total": total, "max": share}
            )
    return [{"code": "WHEEL-09", "text": text} for text in texts]


@transaction.atomic
def launch_turn_record(
    *,
    session: TableSession,
    launcher: AbstractBaseUser,
    actor: AbstractBaseUser,
    started_at: datetime.datetime | None = None,
    observations: str = "",
) -> LaunchTurn:
    """Who launches the ball from when at a roulette or boule table-partie — the first launcher,
    then each relief — written by the chef de table (at boule, the chef de partie). Allowed in any
    case; a launcher outside the ordre de roulement in force, or a pattern of specialisation, is
    flagged (WHEEL-09)."""
    session = _rotation_session(session)  # locked: the turns of one table are written one at a time
    est = session.seance.establishment
    role = require_role(actor, est, LAUNCH_LOG_KEEPERS)
    if session.status != TableSession.Status.OPEN:
        raise ValidationError(_("Les lanceurs s'inscrivent pendant la partie, table ouverte."))
    if not roles_of(launcher, est) & set(LAUNCH_STAFF):
        raise ValidationError(
            {
                "launcher": _("%(name)s ne fait pas partie du personnel des tables de cet établissement.")
                % {"name": display_name(launcher)}
            }
        )
    now = timezone.now()
    started_at = started_at or now
    turns = list(selectors.launch_turns(session))
    if started_at > now:
        raise ValidationError({"started_at": _("L'heure de prise du lancement ne peut être dans le futur.")})
    if started_at < (turns[-1].started_at if turns else session.opened_at):
        raise ValidationError(
            {
                "started_at": _(
                    "Les tours s'inscrivent dans l'ordre : cette heure précède le tour "
                    "précédent ou l'ouverture de la table."
                )
            }
        )
    roster = selectors.roster_in_force(session, started_at)
    flags = _launch_flags(est, roster, turns, launcher)
    turn = LaunchTurn.objects.create(
        establishment=est,
        table_session=session,
        launcher=launcher,
        started_at=started_at,
        roster=roster,
        recorded_at=now,
        recorded_by=actor,
        recorded_by_role=role,
        observations=observations.strip(),
        flags=flags,
    )
    previous = turns[-1].launcher if turns else None
    with translation.override("fr"):
        if previous is None:
            event = str(_("Premier lanceur de la partie"))
        elif previous.pk == launcher.pk:
            event = str(_("Nouveau tour du même lanceur"))
        else:
            event = _("Relève de %(name)s") % {"name": display_name(previous)}
    _record(
        est,
        ROULEMENT_LANCEURS.code,
        actor=actor,
        role=role,
        payload={
            **_session_fields(session),
            "roster": roster.pk if roster else None,
            "event": event,
            "order": [],
            "launcher": display_name(launcher),
            "since": _clock(started_at, est),
            "flags": [f"{flag['code']} : {flag['text']}" for flag in flags],
            "observations": turn.observations,
        },
    )
    return turn
