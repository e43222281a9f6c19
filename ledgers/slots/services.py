"""Writes on slot machines. Every service checks the actor's role, the texts' rules, saves with its
history and appends its register line in the same transaction:

- MC: the slot files (REG-15) for socles, machines, sheets and moves; the intervention sheets
  (REG-16) for interventions, RAM clears and the daily envelope;
- FR: the registre de contrôle technique modèle 26 (REG-38) for all of these, and the machine's
  own fiche modèle 34 (REG-39) for what affects it;
- both: the meter-readings register for relèves, readings, box exchanges and counts.
"""

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, connection, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.authority.displays import require_machine_displays
from ledgers.core.authz import require_role, roles_of, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, Room
from ledgers.core.roles import DIRECTORATE, Role
from ledgers.incidents.models import Incident
from ledgers.incidents.services import incident_open
from ledgers.keys.models import KeyIssue
from ledgers.keys.selectors import holdings
from ledgers.registers.kinds import RegisterKind
from ledgers.registers.models import Entry, Register
from ledgers.registers.selectors import current_register
from ledgers.registers.services import (
    display_name,
    entries_bulk_append,
    entry_append,
    register_create,
    register_language,
    register_open,
)

from . import selectors
from .locks import check_lock_keys, check_reset_key
from .models import (
    BoxExchange,
    DailyTransmittal,
    DropCount,
    FileCopy,
    Intervention,
    JackpotPayment,
    JackpotThreshold,
    Machine,
    MachineMove,
    Medium,
    Meter,
    MeterCode,
    MeterReading,
    MonitoringEvent,
    Orphan,
    PaymentDispute,
    PaymentMethod,
    Place,
    RamClear,
    ReconciliationLine,
    Releve,
    SfmVisit,
    Socle,
    StaffApproval,
    TechnicalSheet,
    TopUp,
)
from .registers import INVENTORY_KIND, JACKPOTS, MACHINE_FICHE, METER_READINGS, SLOT_FILES, TECHNICAL_KIND, TOP_UPS
from .rules import (
    FR_MIN_DIGITS,
    METER_ANOMALY,
    NO_GRADING,
    ROLLOVER_MAX_SHARE,
    VARIANCE_PRESETS,
    required_meters,
)

# Who keeps the inventory: MC the Directeur de l'exploitation (SLOT-08) or the Direction; FR the
# directeur responsable or a comité member (they sign the fiche modèle 34, SLOT-52).
INVENTORY_ROLES = {
    "MC": (Role.DIRECTEUR_EXPLOITATION, *DIRECTORATE),
    "FR": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
}
# Who opens a machine: MC the mechanic alone, identified on the monitoring system (SLOT-14); FR
# the casino mechanic, the employee in charge where ≤ 75 machines run (SET-43), or the SFM (68-30).
INTERVENTION_ROLES = {
    "MC": (Role.MECANICIEN,),
    "FR": (Role.MECANICIEN, Role.TECHNICIEN_SFM, Role.EMPLOYE_JEUX),
}
# Who records a RAM clear: MC the mechanic or the superviseur who hands him the keys (SLOT-22);
# FR only a comité member, who alone holds the reset keys (KEY-15).
RAM_CLEAR_ROLES = {"MC": (Role.MECANICIEN, Role.SUPERVISEUR), "FR": (Role.COMITE,)}
# Who reads meters at a relève: the superviseur directs it (SLOT-22); FR the gaming employee
# reads under the comité member's responsibility (SLOT-47).
READING_ROLES = (Role.SUPERVISEUR, Role.EMPLOYE_JEUX, Role.COMITE, Role.DIRECTEUR_RESPONSABLE)
COUNT_ROLES = (Role.SUPERVISEUR, Role.COMITE, Role.CAISSIER, Role.EMPLOYE_JEUX)


# --- register lines ------------------------------------------------------------------------------


def _signature(actor: AbstractBaseUser, role: str) -> str:
    return f"{display_name(actor)} — {Role(role).label}"


def _line(
    machine: Machine | None,
    *,
    event: Any,
    at: datetime.datetime,
    detail: str,
    actor: AbstractBaseUser,
    role: str,
    est: Establishment,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "event": str(event),
        "at": est.localtime(at).strftime("%Y-%m-%d %H:%M"),
        "machine": machine.number if machine else "",
        "detail": detail,
        "signature": _signature(actor, role),
        **extra,
    }


def _fiche(machine: Machine) -> Register:
    return current_register(machine.establishment, MACHINE_FICHE.code, machine.casino_number)


def _append(
    kinds: dict,
    machine: Machine | None,
    est: Establishment,
    *,
    actor: AbstractBaseUser,
    role: str,
    event: Any,
    at: datetime.datetime,
    detail: str,
    register_qualifier: str = "",
    **extra: Any,
) -> Entry:
    """One line in the register ``kinds`` names for the jurisdiction (the volume ``register_qualifier``
    names, e.g. a JPM's modèle 26), and (FR) the machine's fiche 34."""
    with register_language():
        payload = _line(machine, event=event, at=at, detail=detail, actor=actor, role=role, est=est, **extra)
    register = current_register(est, kinds[est.jurisdiction].code, register_qualifier)
    entry = entry_append(register=register, actor=actor, role=_writer(register, role), payload=payload)
    if est.jurisdiction == "FR" and machine is not None:
        fiche = _fiche(machine)
        entry_append(register=fiche, actor=actor, role=_writer(fiche, role), payload=payload)
    return entry


def _writer(register: Register | RegisterKind, role: str) -> str:
    """The role the line is written in: the actor's, when the register accepts it (an inventory
    keeper writing a reading line appears as himself)."""
    kind = register.kind_info if isinstance(register, Register) else register
    return role if role in kind.record_roles else kind.record_roles[0]


def _require(user: AbstractBaseUser | None, est: Establishment, roles: Sequence[str], code: str, message: Any) -> str:
    held = roles_of(user, est) if user is not None else set()
    role = next((str(r) for r in roles if r in held), None)
    if role is None:
        raise RuleViolation(code, message)
    return role


# --- socles and inventory (SLOT-01 to SLOT-13, SLOT-25, SLOT-30 to SLOT-33, SLOT-52) ---------------


@transaction.atomic
def socle_create(
    *, establishment: Establishment, room: Room, number: str, actor: AbstractBaseUser, position: str = ""
) -> Socle:
    """A socle gets its number once and for all (SLOT-03): no service renumbers one, and a number
    once given is never given again (the unique constraint outlives deactivation)."""
    role = require_role(actor, establishment, INVENTORY_ROLES[establishment.jurisdiction])
    number = number.strip()
    if not number:
        raise ValidationError({"number": _("Le numéro du socle est obligatoire.")})
    if room.establishment_id != establishment.pk:
        raise ValueError(_("Cette salle n'est pas dans l'établissement."))
    if Socle.objects.filter(establishment=establishment, number=number).exists():
        raise RuleViolation(
            "SLOT-03",
            _(
                "Le numéro de socle %(n)s a déjà été attribué : la numérotation des "
                "socles est fixée une fois pour toutes."
            )
            % {"n": number},
        )
    now = timezone.now()
    socle = save_audited(
        Socle(establishment=establishment, number=number, room=room, position=position.strip(), created_at=now),
        actor=actor,
        reason="création",
    )
    _append(
        INVENTORY_KIND,
        None,
        establishment,
        actor=actor,
        role=role,
        event=_("Création de socle"),
        at=now,
        detail=f"{socle} — {room}" + (f" — {socle.position}" if socle.position else ""),
    )
    return socle


@dataclass(frozen=True)
class MeterSpec:
    """A meter as the maker declares it; ``station`` None: on every station."""

    code: str
    digits: int
    nature: str = Meter.Nature.ELECTRONIC
    label: str = ""
    station: int | None = None


@dataclass(frozen=True)
class MachineInput:
    machine_type: str
    technology: str
    maker: str
    maker_serial: str
    media: list[str]
    stations: int
    rate_date: datetime.date
    rtp_percent: Decimal | None = None
    levy_percent: Decimal | None = None
    sbm_number: str = ""
    casino_number: str = ""
    maker_number: str = ""
    location_number: str = ""
    credit_value: Decimal = Decimal("0.01")
    hopper: bool = False
    bill_box: str = ""
    approved_system: str = ""
    game_name: str = ""
    payment_programme: str = ""
    insertion_limit: Decimal | None = None
    payment_limit: Decimal | None = None
    characteristics: str = ""
    meters: list[MeterSpec] = field(default_factory=list)
    drop_type: str = ""  # MC SLOT-10: cash box in the socle or pneumatic conveyor


def _check_machine(est: Establishment, data: MachineInput, photo: UploadedFile | None) -> None:
    jur = est.jurisdiction
    if not data.media or set(data.media) - set(Medium.values):
        raise RuleViolation(
            "SLOT-01",
            _("Indiquez les moyens de paiement acceptés par la machine (pièces, billets, jetons, carte, tickets)."),
        )
    if data.stations < 1:
        raise RuleViolation("SLOT-01", _("Une machine a au moins un poste de jeu."))
    if not data.maker_serial.strip():
        raise RuleViolation("SLOT-02", _("Le numéro de série du fabricant est obligatoire."))
    if (data.rtp_percent is None) == (data.levy_percent is None):
        raise RuleViolation(
            "SLOT-04",
            _(
                "Indiquez soit le taux de redistribution certifié par le fabricant, soit le "
                "pourcentage de prélèvement (jeux entre joueurs)."
            ),
        )
    if data.drop_type and data.drop_type not in Machine.DropType.values:
        raise ValidationError({"drop_type": _("Mode d'évacuation inconnu.")})
    if jur == "MC":
        if not data.sbm_number.strip():
            raise RuleViolation("SLOT-02", _("Le numéro d'identification SBM est obligatoire."))
        if Machine.objects.filter(establishment=est, sbm_number=data.sbm_number.strip()).exists():
            raise RuleViolation(
                "SLOT-02", _("Le numéro SBM %(n)s est déjà attribué à une autre machine.") % {"n": data.sbm_number}
            )
        if photo is None:
            raise RuleViolation("SLOT-04", _("La photographie de la machine est obligatoire au fichier d'inventaire."))
        return
    if not (data.casino_number.strip() and data.maker_number.strip() and data.location_number.strip()):
        raise RuleViolation(
            "SLOT-52", _("Les numéros casino, fabricant et d'emplacement de la machine sont obligatoires.")
        )
    if Machine.objects.filter(establishment=est, casino_number=data.casino_number.strip()).exists():
        raise RuleViolation(
            "SLOT-52", _("Le numéro casino %(n)s est déjà attribué à une autre machine.") % {"n": data.casino_number}
        )
    _check_limits(est, data.insertion_limit, data.payment_limit)


def _check_limits(est: Establishment, insertion: Decimal | None, payment: Decimal | None) -> None:
    """SLOT-25: insertion limit ≤ automatic payment limit ≤ the social-contribution threshold (SET-19)."""
    if insertion is not None and payment is not None and insertion > payment:
        raise RuleViolation("SLOT-25", _("La limite d'insertion ne peut dépasser la limite de paiement automatique."))
    threshold = est.setting("SET-19")
    if threshold is not None and payment is not None and payment > Decimal(str(threshold)):
        raise RuleViolation(
            "SLOT-25",
            _("La limite de paiement automatique ne peut dépasser le seuil de la contribution sociale (%(t)s €).")
            % {"t": threshold},
        )


@transaction.atomic
def machine_register(
    *, establishment: Establishment, data: MachineInput, actor: AbstractBaseUser, photo: UploadedFile | None = None
) -> Machine:
    """Enter a machine in the inventory file (SLOT-04) in the store, with its meter set and its first
    technical sheet (SLOT-07). FR: its fiche modèle 34 is opened, signed by the directeur
    responsable or the comité member who registers it (SLOT-52)."""
    est = establishment
    role = require_role(actor, est, INVENTORY_ROLES[est.jurisdiction])
    _check_machine(est, data, photo)
    now = timezone.now()
    machine = Machine(
        establishment=est,
        registered_at=now,
        place=Place.STORE,
        **{
            name: (value.strip() if isinstance(value, str) else value)
            for name, value in vars(data).items()
            if name not in ("characteristics", "meters")
        },
    )
    if photo is not None:
        machine.photo = photo
    try:
        with transaction.atomic():
            save_audited(machine, actor=actor, reason="inscription à l'inventaire")
    except IntegrityError as exc:
        raise RuleViolation(
            "SLOT-02", _("Cette machine (fabricant et numéro de série) est déjà à l'inventaire.")
        ) from exc
    if est.jurisdiction == "FR":
        fiche = register_create(
            establishment=est, kind=MACHINE_FICHE.code, actor=actor, qualifier=machine.casino_number
        )
        register_open(register=fiche, actor=actor, paraphe=display_name(actor))
    _declare_meters(machine, data.meters, actor=actor)
    media = ", ".join(str(Medium(m).label) for m in machine.media)
    _append(
        INVENTORY_KIND,
        machine,
        est,
        actor=actor,
        role=role,
        event=_("Inscription à l'inventaire"),
        at=now,
        detail=f"{machine.machine_type} — {machine.maker} n° {machine.maker_serial} — {media} — "
        f"{machine.stations} {_('poste(s)')}" + (f" — {machine.get_drop_type_display()}" if machine.drop_type else ""),
    )
    technical_sheet_record(
        machine=machine,
        actor=actor,
        characteristics=data.characteristics or machine.machine_type,
        rtp_percent=data.rtp_percent,
        levy_percent=data.levy_percent,
    )
    return machine


def _declare_meters(machine: Machine, specs: Iterable[MeterSpec], *, actor: AbstractBaseUser) -> list[Meter]:
    meters = []
    for spec in specs:
        stations = [spec.station] if spec.station else range(1, machine.stations + 1)
        for station in stations:
            if spec.code not in MeterCode.values or spec.digits < 1:
                raise ValidationError(_("Compteur inconnu ou nombre de chiffres invalide : %(c)s.") % {"c": spec.code})
            meters.append(
                save_audited(
                    Meter(
                        machine=machine,
                        station=station,
                        code=spec.code,
                        nature=spec.nature,
                        label=spec.label,
                        digits=spec.digits,
                    ),
                    actor=actor,
                    reason="déclaration",
                )
            )
    return meters


@transaction.atomic
def meters_declare(*, machine: Machine, specs: Sequence[MeterSpec], actor: AbstractBaseUser) -> list[Meter]:
    """Add meters to a machine's set: all the meters needed to reconstruct how it works (SLOT-06)."""
    est = machine.establishment
    role = require_role(actor, est, INVENTORY_ROLES[est.jurisdiction])
    meters = _declare_meters(machine, specs, actor=actor)
    _append(
        INVENTORY_KIND,
        machine,
        est,
        actor=actor,
        role=role,
        event=_("Déclaration de compteurs"),
        at=timezone.now(),
        detail=", ".join(f"{m.station}:{m.key} ({m.digits})" for m in meters),
    )
    return meters


@transaction.atomic
def technical_sheet_record(
    *,
    machine: Machine,
    actor: AbstractBaseUser,
    characteristics: str,
    rtp_percent: Decimal | None = None,
    levy_percent: Decimal | None = None,
) -> TechnicalSheet:
    """A new version of the machine's technical sheet (SLOT-07); its rate becomes the machine's,
    dated today (SLOT-04)."""
    est = machine.establishment
    role = require_role(actor, est, INVENTORY_ROLES[est.jurisdiction])
    if not characteristics.strip():
        raise ValidationError({"characteristics": _("Décrivez les caractéristiques de la machine.")})
    if (rtp_percent is None) == (levy_percent is None):
        raise RuleViolation(
            "SLOT-07", _("La fiche technique indique le taux de gain théorique ou le pourcentage de prélèvement.")
        )
    machine = Machine.objects.select_for_update().get(pk=machine.pk)
    version = (machine.sheets.order_by("-version").values_list("version", flat=True).first() or 0) + 1
    now = timezone.now()
    rate = f"{_('TRJ')} {rtp_percent} %" if rtp_percent is not None else f"{_('prélèvement')} {levy_percent} %"
    entry = _append(
        INVENTORY_KIND,
        machine,
        est,
        actor=actor,
        role=role,
        event=_("Fiche technique"),
        at=now,
        detail=f"v{version} — {rate} — {characteristics.strip()}",
    )
    sheet = TechnicalSheet.objects.create(
        machine=machine,
        version=version,
        characteristics=characteristics.strip(),
        rtp_percent=rtp_percent,
        levy_percent=levy_percent,
        recorded_at=now,
        recorded_by=actor,
        entry=entry,
    )
    machine.rtp_percent, machine.levy_percent, machine.rate_date = rtp_percent, levy_percent, est.localtime(now).date()
    save_audited(machine, actor=actor, reason="fiche technique")
    return sheet


@transaction.atomic
def hopper_lid_confirm(*, machine: Machine, actor: AbstractBaseUser) -> Machine:
    """The hopper's fixed lid, seen by a mechanic or a superviseur (SLOT-09)."""
    est = machine.establishment
    role = require_role(actor, est, (Role.MECANICIEN, Role.SUPERVISEUR, *INVENTORY_ROLES[est.jurisdiction]))
    if not machine.hopper:
        raise ValueError(_("Cette machine n'a pas de trémie."))
    now = timezone.now()
    machine.hopper_lid_confirmed_by, machine.hopper_lid_confirmed_at = actor, now
    save_audited(machine, actor=actor, reason="couvercle de trémie")
    _append(
        INVENTORY_KIND,
        machine,
        est,
        actor=actor,
        role=role,
        event=_("Couvercle de trémie fixé"),
        at=now,
        detail=str(_("Trémie munie d'un couvercle fixe.")),
    )
    return machine


def _check_commissionable(machine: Machine) -> None:
    """What a machine needs before it is put in operation on the floor. SLOT-29 implemented: FR,
    the art. 68-11 devices and rules displays on the machine's checklist (authority, REG-23)."""
    est = machine.establishment
    if not machine.sheets.exists():
        raise RuleViolation("SLOT-07", _("La machine n'a pas de fiche technique."))
    if machine.hopper and machine.hopper_lid_confirmed_at is None:
        raise RuleViolation("SLOT-09", _("La trémie de la machine doit avoir un couvercle fixe constaté."))
    meters = list(machine.meters.filter(active=True))
    codes = {m.code for m in meters}
    if Medium.BANKNOTES in machine.media and (not machine.bill_box or MeterCode.BILLS not in codes):
        raise RuleViolation(
            "SLOT-12",
            _(
                "Une machine acceptant les billets exige une boîte à billets à serrure et "
                "un compteur des crédits achetés par billets."
            ),
        )
    if est.jurisdiction == "MC":
        if Medium.TITO in machine.media or Medium.CARD in machine.media:
            needed = {MeterCode.TICKET_IN, MeterCode.TICKET_OUT} if Medium.TITO in machine.media else set()
            needed |= {MeterCode.CARD_IN, MeterCode.CARD_OUT} if Medium.CARD in machine.media else set()
            if not needed <= codes:
                raise RuleViolation("SLOT-13", _("Les compteurs des tickets ou des cartes manquent."))
        code = "SLOT-05"
    else:
        code = "SLOT-31" if machine.cashless else "SLOT-30"
        if machine.cashless and not machine.approved_system:
            raise RuleViolation("SLOT-31", _("Tickets ou cartes exigent la référence du système informatique agréé."))
        short = [m for m in meters if m.digits < FR_MIN_DIGITS]
        if short:
            raise RuleViolation(code, _("Le compteur %(m)s a moins de sept chiffres.") % {"m": short[0]})
    have = {(m.station, m.code, m.nature) for m in meters}
    for station in range(1, machine.stations + 1):
        for meter_code, nature in required_meters(est.jurisdiction, machine.media, hopper=machine.hopper):
            if (station, meter_code, nature) not in have:
                raise RuleViolation(
                    code,
                    _("Le poste %(s)s n'a pas le compteur « %(m)s » (%(n)s).")
                    % {"s": station, "m": MeterCode(meter_code).label, "n": Meter.Nature(nature).label},
                )
    check_lock_keys(machine)  # KEY-09 (MC), KEY-12 (FR): its locks' keys are in the register of keys
    require_machine_displays(machine)


@transaction.atomic
def machine_move(
    *,
    machine: Machine,
    to_place: str,
    actor: AbstractBaseUser,
    reason: str,
    moved_at: datetime.datetime | None = None,
    to_socle: Socle | None = None,
    police_informed_at: datetime.datetime | None = None,
    police_reference: str = "",
    observations: str = "",
    signers: Sequence[AbstractBaseUser] = (),
    replaced_by: Machine | None = None,
    replacing: Machine | None = None,
) -> MachineMove:
    """Move a machine between the floor (on a socle), the store and the workshop, with a snapshot of
    its meters (SLOT-04). Onto the floor it must be fit for operation; FR: a planned move needs
    the police informed beforehand (SLOT-33), a breakdown or incident its reason; the move is the
    modèle 26 line (SLOT-34, SLOT-51). With ``replaced_by``, a machine taken off the floor is
    replaced on its socle by that reserve machine in the same act: two lines, each naming both
    machines' numbers, the replacement countersigned like a repair (SLOT-34)."""
    est = machine.establishment
    role = require_role(actor, est, (*INVENTORY_ROLES[est.jurisdiction], Role.SUPERVISEUR, Role.MECANICIEN))
    machine = Machine.objects.select_for_update().get(pk=machine.pk)
    moved_at = moved_at or timezone.now()
    if to_place not in Place.values:
        raise RuleViolation("SLOT-04", _("Lieu hors de la liste contrôlée (salle de jeux, magasin, atelier)."))
    if reason not in MachineMove.Reason.values:
        raise ValidationError({"reason": _("Motif inconnu.")})
    if machine.status == Machine.Status.RETIRED:
        raise ValueError(_("Cette machine est sortie du parc."))
    if to_place == Place.FLOOR:
        if to_socle is None or to_socle.establishment_id != est.pk or not to_socle.active:
            raise ValidationError({"to_socle": _("Une machine en salle est installée sur un socle en service.")})
        occupant = Machine.objects.filter(socle=to_socle).exclude(pk=machine.pk).first()
        if occupant is not None:
            raise ValidationError(
                {
                    "to_socle": _("Le socle %(s)s porte déjà la machine %(m)s.")
                    % {"s": to_socle.number, "m": occupant.number}
                }
            )
        _check_commissionable(machine)
    else:
        to_socle = None
    if est.jurisdiction == "FR" and machine.status == Machine.Status.IN_SERVICE:
        lead = datetime.timedelta(minutes=(est.setting("SLOT-33") or {}).get("notice_lead_minutes", 0))
        if reason == MachineMove.Reason.PLANNED and (
            police_informed_at is None or not police_reference.strip() or police_informed_at > moved_at - lead
        ):
            raise RuleViolation(
                "SLOT-33",
                _(
                    "Aucune machine ne peut être déplacée de son emplacement initial avant "
                    "que le service de police compétent en ait été informé."
                ),
            )
        if reason in (MachineMove.Reason.BREAKDOWN, MachineMove.Reason.INCIDENT) and not observations.strip():
            raise RuleViolation("SLOT-33", _("Un déplacement pour panne ou incident technique en indique la cause."))
    if replaced_by is not None:
        replaced_by = Machine.objects.select_for_update().get(pk=replaced_by.pk)
        if (
            machine.place != Place.FLOOR
            or to_place == Place.FLOOR
            or replaced_by.establishment_id != est.pk
            or replaced_by.place == Place.FLOOR
            or replaced_by.status == Machine.Status.RETIRED
        ):
            raise ValidationError(
                {
                    "replaced_by": _(
                        "Une machine retirée de la salle est remplacée par une machine de réserve (magasin ou atelier)."
                    )
                }
            )
        observations = f"{observations.strip()} — {_('remplacée par')} {_identity(replaced_by)}".lstrip(" —")
    if (reason == MachineMove.Reason.REPLACEMENT) != (replacing is not None):  # ``replacing``: set by the act itself
        raise ValidationError({"reason": _("Un remplacement se fait depuis la machine retirée de la salle.")})
    if reason == MachineMove.Reason.REPAIR_RETURN and not machine.moves.filter(to_place=Place.WORKSHOP).exists():
        raise RuleViolation("SLOT-34", _("Un retour de réparation suppose un retrait pour réparation inscrit."))
    countersigned = _move_countersignatures(est, reason, actor=actor, signers=signers)
    snapshot = {m.key_at: value for m, value in selectors.last_values_of(machine).items()}
    from_place, from_socle = machine.place, machine.socle
    machine.place, machine.socle = to_place, to_socle
    machine.status = Machine.Status.IN_SERVICE if to_place == Place.FLOOR else Machine.Status.OUT_OF_SERVICE
    save_audited(machine, actor=actor, reason="déplacement")
    police = (
        f" — {_('police informée le')} {est.localtime(police_informed_at):%d/%m/%Y %H:%M} ({police_reference})"
        if police_informed_at
        else ""
    )
    notes = f" — {observations.strip()}" if observations.strip() else ""
    entry = _append(
        INVENTORY_KIND,
        machine,
        est,
        actor=actor,
        role=role,
        event=MachineMove.Reason(reason).label,
        at=moved_at,
        detail=f"{Place(from_place).label}{f' ({from_socle})' if from_socle else ''} → {Place(to_place).label}"
        f"{f' ({to_socle})' if to_socle else ''}{police}{notes}",
        meters=snapshot,
        countersigned=countersigned,
    )
    move = MachineMove.objects.create(
        machine=machine,
        moved_at=moved_at,
        from_place=from_place,
        from_socle=from_socle,
        to_place=to_place,
        to_socle=to_socle,
        reason=reason,
        police_informed_at=police_informed_at,
        police_reference=police_reference.strip(),
        meters=snapshot,
        recorded_by=actor,
        observations=observations.strip(),
        entry=entry,
    )
    if replaced_by is not None:
        machine_move(
            machine=replaced_by,
            to_place=Place.FLOOR,
            to_socle=from_socle,
            actor=actor,
            moved_at=moved_at,
            reason=MachineMove.Reason.REPLACEMENT,
            signers=signers,
            replacing=machine,
            observations=f"{_('en remplacement de')} {_identity(machine)}",
        )
    return move


def _identity(machine: Machine) -> str:
    """The machine's number and its maker's, as modèle 26 names both machines of a replacement."""
    return f"{machine.number} ({_('n° fabricant')} {machine.maker_number or machine.maker_serial})"


# FR moves that modèle 26 countersigns (SLOT-34): removal for repair, return after repair and the
# reserve machine put in place of another.
COUNTERSIGNED_MOVES = (
    MachineMove.Reason.BREAKDOWN,
    MachineMove.Reason.INCIDENT,
    MachineMove.Reason.REPAIR_RETURN,
    MachineMove.Reason.REPLACEMENT,
)


def _move_countersignatures(
    est: Establishment, reason: str, *, actor: AbstractBaseUser, signers: Sequence[AbstractBaseUser]
) -> list[str]:
    """FR: a removal for repair or a return is countersigned by the comité member (AMB-55: any
    comité member) and the mechanic, or the employee in charge where ≤ SET-43 machines run, and by
    the SFM technician who took part (SLOT-34). Returns the signatures, actor first."""
    if est.jurisdiction != "FR" or reason not in COUNTERSIGNED_MOVES:
        return []
    return countersignatures(
        est,
        actor=actor,
        signers=signers,
        code="SLOT-34",
        message=_(
            "Ce déplacement est contresigné par le membre du comité et par le mécanicien (ou l'employé chargé de "
            "l'opération)."
        ),
    )


def countersignatures(
    est: Establishment, *, actor: AbstractBaseUser, signers: Sequence[AbstractBaseUser], code: str, message: Any
) -> list[str]:
    """The modèle 26 countersignatures of SLOT-34: a comité member and the mechanic (or the employee
    in charge where ≤ SET-43 machines run) among the actor and the signers, else ``code`` refuses;
    the SFM technician signs too where he took part. Returns the signatures, actor first."""
    people = {user.pk: user for user in (actor, *signers)}
    held = {pk: roles_of(user, est) for pk, user in people.items()}
    technicians = (Role.MECANICIEN,) + (
        (Role.EMPLOYE_JEUX,) if selectors.installed_count(est) <= (est.setting("SET-43") or 75) else ()
    )
    if not any(Role.COMITE in roles for roles in held.values()) or not any(
        set(technicians) & roles for roles in held.values()
    ):
        raise RuleViolation(code, message)
    order = (Role.COMITE, Role.MECANICIEN, Role.EMPLOYE_JEUX, Role.TECHNICIEN_SFM, *INVENTORY_ROLES["FR"])
    return [
        _signature(user, next((str(r) for r in order if r in held[pk]), sorted(held[pk])[0]))
        for pk, user in people.items()
        if held[pk]
    ]


@transaction.atomic
def staff_approval_record(
    *,
    establishment: Establishment,
    user: AbstractBaseUser,
    kind: str,
    reference: str,
    issuer: str,
    valid_from: datetime.date,
    actor: AbstractBaseUser,
    valid_until: datetime.date | None = None,
) -> StaffApproval:
    """A ministerial approval of a slot staff member (SLOT-50) or of an SFM technician (SLOT-53)."""
    role = require_role(actor, establishment, INVENTORY_ROLES[establishment.jurisdiction])
    if kind not in StaffApproval.Kind.values:
        raise ValidationError({"kind": _("Nature d'agrément inconnue.")})
    if not reference.strip() or not issuer.strip():
        raise ValidationError(_("La référence et l'autorité de l'agrément sont obligatoires."))
    if valid_until is not None and valid_until < valid_from:
        raise ValidationError({"valid_until": _("La fin de validité précède son début.")})
    approval = save_audited(
        StaffApproval(
            establishment=establishment,
            user=user,
            kind=kind,
            reference=reference.strip(),
            issuer=issuer.strip(),
            valid_from=valid_from,
            valid_until=valid_until,
        ),
        actor=actor,
        reason="agrément",
    )
    _append(
        INVENTORY_KIND,
        None,
        establishment,
        actor=actor,
        role=role,
        event=_("Agrément"),
        at=timezone.now(),
        detail=f"{display_name(user)} — {approval} — {approval.issuer} — {valid_from:%d/%m/%Y}"
        + (f" → {valid_until:%d/%m/%Y}" if valid_until else ""),
    )
    return approval


# --- readings (SLOT-05, 06, 12, 13, 30 to 32; INC-12) --------------------------------------------------


@dataclass(frozen=True)
class ReadingRow:
    """One meter value as read: the machine's number, the station and the meter key (code[:em][:label])."""

    machine: str
    station: int
    meter: str
    value: int
    line: int = 0  # where it came from in an import, for the error messages


class ReadingErrors(ValidationError):
    """Every bad row of an import, each with its line; nothing is written."""


def _assess(capacity: int, previous: int | None, value: int) -> tuple[int | None, bool, bool]:
    """(delta, rollover, anomaly) of a reading against the previous value of its meter. A fall is a
    rollover at capacity when the increase it implies is under half the capacity (rules)."""
    if previous is None:
        return None, False, False
    if value >= previous:
        return value - previous, False, False
    implied = capacity - previous + value
    if implied < capacity * ROLLOVER_MAX_SHARE:
        return implied, True, False
    return None, False, True


def _parse_rows(
    est: Establishment, rows: list[ReadingRow]
) -> tuple[list[tuple[ReadingRow, selectors.MeterRef]], dict, list[str]]:
    """The rows with their meters, every meter of the machines named, and every bad row."""
    meters = selectors.meters_by_key(est, {row.machine for row in rows})
    parsed, errors, seen = [], [], set()
    for row in rows:
        meter = meters.get((row.machine, row.station, row.meter))
        if meter is None:
            errors.append(
                _row_error(
                    row,
                    _("compteur inconnu (%(m)s, poste %(s)s, %(k)s).")
                    % {"m": row.machine, "s": row.station, "k": row.meter},
                )
            )
        elif meter.id in seen:
            errors.append(_row_error(row, _("compteur relevé deux fois.")))
        elif not 0 <= row.value < meter.capacity:
            errors.append(
                _row_error(
                    row,
                    _("valeur %(v)s hors de la capacité du compteur (%(d)s chiffres).")
                    % {"v": row.value, "d": meter.digits},
                )
            )
        else:
            seen.add(meter.id)
            parsed.append((row, meter))
    return parsed, meters, errors


def _row_error(row: ReadingRow, problem: Any) -> str:
    # Built only for bad rows: a translated label per good row would cost a room's import dearly.
    where = _("ligne %(n)s") % {"n": row.line} if row.line else f"{row.machine}/{row.station}/{row.meter}"
    return f"{where} : {problem}"


def _require_complete(est: Establishment, meters: dict, read: set[int]) -> None:
    """Every active meter of a machine read is read (SLOT-06, SLOT-30: every meter at each reading)."""
    missing = next((m for m in meters.values() if m.id not in read), None)
    if missing is not None:
        raise RuleViolation(
            "SLOT-06" if est.jurisdiction == "MC" else "SLOT-30",
            _("Le compteur %(m)s n'est pas relevé : tous les compteurs de la machine le sont à chaque relève.")
            % {"m": f"{missing.number}/{missing.station} {missing.key}"},
        )


READING_COLUMNS = (
    "meter_id",
    "releve_id",
    "ram_clear_id",
    "source",
    "read_at",
    "value",
    "delta",
    "rollover",
    "incident_id",
    "read_by_id",
)


def _insert_readings(rows: list[tuple]) -> None:
    """Append-only reading rows (READING_COLUMNS), by COPY on PostgreSQL as the ledger engine does."""
    table, columns = MeterReading._meta.db_table, ", ".join(READING_COLUMNS)
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            cursor.executemany(
                f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(READING_COLUMNS))})", rows
            )
            return
        with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for values in rows:
                copy.write_row(values)


@dataclass(frozen=True)
class ImportResult:
    readings: int
    lines: int  # register lines: one per machine and station
    incidents: list[Incident]


@transaction.atomic
def releve_readings_import(
    *, releve: Releve, rows: Iterable[ReadingRow], actor: AbstractBaseUser, read_at: datetime.datetime | None = None
) -> ImportResult:
    """The meters of a relève, one machine or a whole room: every row checked before anything is
    written (one bad row refuses the lot, with every bad row named); then the readings, one
    register line per machine and station under one register lock, and an INC-12 incident per
    machine where a meter fell without a rollover at capacity or a RAM clear (SLOT-05, SLOT-32).
    Readings are append-only: no history rows; rows go as tuples (a room is thousands of them)."""
    est = releve.establishment
    role = require_role(actor, est, READING_ROLES)
    releve = Releve.objects.select_for_update().get(pk=releve.pk)
    if releve.status != Releve.Status.OPEN:
        raise RuleViolation("SLOT-24", _("Cette relève est close."))
    if ReconciliationLine.objects.filter(reconciliation__releve=releve).exists():
        # SLOT-43: a machine read after the modèle 31 would have no line in it.
        raise RuleViolation(
            "SLOT-43",
            _(
                "L'état de rapprochement modèle 31 de cette relève est établi : "
                "relevez les autres compteurs dans une nouvelle relève."
            ),
        )
    rows = list(rows)
    if not rows:
        raise ValidationError(_("Aucun relevé."))
    parsed, meters, errors = _parse_rows(est, rows)
    if errors:
        raise ReadingErrors(errors)
    _require_complete(est, meters, {meter.id for _row, meter in parsed})
    read_at = read_at or timezone.now()
    previous = selectors.last_values([meter.id for _row, meter in parsed])
    assessed, lines, falls = [], {}, {}
    for row, meter in parsed:
        delta, rollover, anomaly = _assess(meter.capacity, previous.get(meter.id), row.value)
        assessed.append((meter, row.value, delta, rollover))
        lines.setdefault((meter.number, meter.station), {})[meter.key] = row.value
        if anomaly:
            falls.setdefault(meter.machine_id, []).append((meter, previous[meter.id], row.value))
    incidents = {
        machine_id: _meter_incident(Machine.objects.get(pk=machine_id), found, actor=actor)
        for machine_id, found in falls.items()
    }
    fallen = {meter.id for found in falls.values() for meter, _before, _after in found}
    source = MeterReading.Source.RELEVE.value  # once: an enum member lookup per row costs as much as its copy
    _insert_readings(
        [
            (
                meter.id,
                releve.pk,
                None,
                source,
                read_at,
                value,
                delta,
                rollover,
                incidents[meter.machine_id].pk if meter.id in fallen else None,
                actor.pk,
            )
            for meter, value, delta, rollover in assessed
        ]
    )
    flagged = {meter.number for found in falls.values() for meter, _before, _after in found}
    with register_language():
        at = est.localtime(read_at).strftime("%Y-%m-%d %H:%M")
        signature, event = _signature(actor, role), str(_("Relève"))
        fall = str(_("Chute de compteur : incident ouvert"))
        payloads = [
            {
                "event": event,
                "at": at,
                "machine": number,
                "station": station,
                "meters": values,
                "detail": fall if number in flagged else "",
                "signature": signature,
                "releve": releve.pk,
            }
            for (number, station), values in lines.items()
        ]
    entries_bulk_append(
        register=current_register(est, METER_READINGS.code),
        actor=actor,
        role=_writer(METER_READINGS, role),
        payloads=payloads,
    )
    return ImportResult(readings=len(assessed), lines=len(payloads), incidents=list(incidents.values()))


def _meter_incident(machine: Machine, falls: list[tuple[Any, int, int]], *, actor: AbstractBaseUser) -> Incident:
    falls_text = "; ".join(f"{m.station}:{m.key} {before} → {after}" for m, before, after in falls)
    return incident_open(
        establishment=machine.establishment,
        category=METER_ANOMALY.code,
        actor=actor,
        subjects=[machine],
        description=str(
            _("Compteur en baisse sans passage par zéro à capacité ni remise à zéro enregistrée : %(f)s.")
            % {"f": falls_text}
        ),
    )


@transaction.atomic
def ram_clear_record(
    *,
    machine: Machine,
    actor: AbstractBaseUser,
    reset_key: str,
    reason: str,
    before: dict[str, int],
    after: dict[str, int],
    performed_at: datetime.datetime | None = None,
    witness: AbstractBaseUser | None = None,
) -> RamClear:
    """A RAM clear as its own act: the reset key, every meter before and after (keyed
    "station:key"), the reason; the line in the intervention sheets (MC) or modèle 26 (FR,
    KEY-15: recorded by the comité member who holds the reset keys). Readings after it start
    from the values after."""
    est = machine.establishment
    jur = est.jurisdiction
    role = (
        require_role(actor, est, RAM_CLEAR_ROLES[jur])
        if jur == "MC"
        else _require(
            actor,
            est,
            RAM_CLEAR_ROLES[jur],
            "KEY-15",
            _("Seul un membre du comité de direction détient et utilise les clés de réinitialisation."),
        )
    )
    if not reset_key.strip() or not reason.strip():
        raise ValidationError(_("La clé de remise à zéro et le motif sont obligatoires."))
    check_reset_key(machine, reset_key, actor)  # KEY-15: a registered reset key, held by the actor
    meters = {m.key_at: m for m in machine.meters.filter(active=True)}
    if set(before) != set(meters) or set(after) != set(meters):
        raise ValidationError(
            _("Indiquez chaque compteur de la machine avant et après la remise à zéro : %(k)s.")
            % {"k": ", ".join(sorted(meters))}
        )
    performed_at = performed_at or timezone.now()
    entry = _append(
        TECHNICAL_KIND,
        machine,
        est,
        actor=actor,
        role=role,
        event=_("Remise à zéro de la mémoire"),
        at=performed_at,
        detail=f"{_('Clé')} {reset_key.strip()} — {reason.strip()}",
        before=before,
        after=after,
    )
    clear = RamClear.objects.create(
        machine=machine,
        performed_at=performed_at,
        performed_by=actor,
        witness=witness,
        reset_key=reset_key.strip(),
        reason=reason.strip(),
        meters_before=before,
        meters_after=after,
        entry=entry,
    )
    previous = selectors.last_values(list(m.pk for m in meters.values()))
    readings, falls = [], []
    for key, meter in meters.items():
        delta, rollover, anomaly = _assess(meter.capacity, previous.get(meter.pk), int(before[key]))
        if anomaly:
            falls.append((meter, previous[meter.pk], int(before[key])))
        readings.append(
            MeterReading(
                meter=meter,
                ram_clear=clear,
                source=MeterReading.Source.RAM_BEFORE,
                read_at=performed_at,
                value=int(before[key]),
                delta=delta,
                rollover=rollover,
                read_by=actor,
            )
        )
        readings.append(
            MeterReading(
                meter=meter,
                ram_clear=clear,
                source=MeterReading.Source.RAM_AFTER,
                read_at=performed_at,
                value=int(after[key]),
                read_by=actor,
            )
        )
    if falls:
        incident = _meter_incident(machine, falls, actor=actor)
        for reading in readings:
            if reading.source == MeterReading.Source.RAM_BEFORE and reading.delta is None:
                reading.incident = incident
    MeterReading.objects.bulk_create(readings)
    return clear


# --- relèves, boxes and counts (SLOT-11, 22, 23, 24) ----------------------------------------------


@transaction.atomic
def releve_open(
    *,
    establishment: Establishment,
    room: Room,
    actor: AbstractBaseUser,
    during_operation: bool,
    sworn_agent: AbstractBaseUser | None = None,
    staff: str = "",
    started_at: datetime.datetime | None = None,
) -> Releve:
    """Only a superviseur directs a relève (SLOT-22, SLOT-24)."""
    role = _require(actor, establishment, (Role.SUPERVISEUR,), "SLOT-22", _("Seul un superviseur dirige une relève."))
    if room.establishment_id != establishment.pk:
        raise ValueError(_("Cette salle n'est pas dans l'établissement."))
    if sworn_agent is not None:
        _require(
            sworn_agent,
            establishment,
            (Role.AGENT_SURVEILLANCE,),
            "SLOT-23",
            _("L'agent désigné n'est pas un agent de surveillance assermenté."),
        )
    started_at = started_at or timezone.now()
    releve = save_audited(
        Releve(
            establishment=establishment,
            room=room,
            started_at=started_at,
            directed_by=actor,
            during_operation=during_operation,
            sworn_agent=sworn_agent,
            staff=staff.strip(),
        ),
        actor=actor,
        reason="ouverture",
    )
    agent = f" — {_('agent assermenté')} {display_name(sworn_agent)}" if sworn_agent else ""
    _releve_line(
        releve,
        actor=actor,
        role=role,
        event=_("Ouverture de la relève"),
        at=started_at,
        detail=f"{room}{agent}" + (f" — {_('salle en exploitation')}" if during_operation else ""),
    )
    return releve


def _releve_line(
    releve: Releve,
    *,
    actor: AbstractBaseUser,
    role: str,
    event: Any,
    at: datetime.datetime,
    detail: str,
    machine: Machine | None = None,
    **extra: Any,
) -> Entry:
    est = releve.establishment
    with register_language():
        payload = _line(
            machine, event=event, at=at, detail=detail, actor=actor, role=role, est=est, releve=releve.pk, **extra
        )
    return entry_append(
        register=current_register(est, METER_READINGS.code),
        actor=actor,
        role=_writer(METER_READINGS, role),
        payload=payload,
    )


def _require_reconciled(releve: Releve) -> None:
    """SLOT-43 (FR): a meter reading closes only once its état de rapprochement modèle 31 has a line
    for every machine read (its shortfalls already in orphans, written with it)."""
    read = set(releve.readings.values_list("meter__machine_id", flat=True))
    lines = set(ReconciliationLine.objects.filter(reconciliation__releve=releve).values_list("machine_id", flat=True))
    if missing := read - lines:
        numbers = sorted(m.number for m in Machine.objects.filter(pk__in=missing))
        raise RuleViolation(
            "SLOT-43",
            _(
                "Machines relevées sans ligne à l'état de rapprochement modèle 31 : "
                "%(m)s. Établissez-le avant de clore la relève."
            )
            % {"m": ", ".join(numbers)},
        )


@transaction.atomic
def releve_close(*, releve: Releve, actor: AbstractBaseUser, sworn_agent: AbstractBaseUser | None = None) -> Releve:
    """A relève carried out while the room operates is closed only with a sworn agent recorded (SLOT-23)."""
    est = releve.establishment
    role = _require(actor, est, (Role.SUPERVISEUR,), "SLOT-22", _("Seul un superviseur dirige une relève."))
    releve = Releve.objects.select_for_update().get(pk=releve.pk)
    if releve.status != Releve.Status.OPEN:
        raise ValueError(_("Cette relève est déjà close."))
    if sworn_agent is not None:
        _require(
            sworn_agent,
            est,
            (Role.AGENT_SURVEILLANCE,),
            "SLOT-23",
            _("L'agent désigné n'est pas un agent de surveillance assermenté."),
        )
        releve.sworn_agent = sworn_agent
    if releve.during_operation and releve.sworn_agent_id is None:
        raise RuleViolation(
            "SLOT-23",
            _(
                "Une relève effectuée pendant l'exploitation est sécurisée par un agent "
                "assermenté : indiquez-le avant de la clore."
            ),
        )
    if est.jurisdiction == "FR":
        _require_reconciled(releve)
    releve.status, releve.closed_at = Releve.Status.CLOSED, timezone.now()
    save_audited(releve, actor=actor, reason="clôture")
    _releve_line(
        releve,
        actor=actor,
        role=role,
        event=_("Clôture de la relève"),
        at=releve.closed_at,
        detail=f"{releve.readings.count()} {_('relevés')}, {releve.boxes.count()} {_('boîtes')}",
    )
    return releve


@transaction.atomic
def box_exchange(
    *, releve: Releve, machine: Machine, box: str, removed: str, replaced_by: str, actor: AbstractBaseUser
) -> BoxExchange:
    """A cash, bill or ticket box taken out and replaced: only during an open relève (SLOT-24)."""
    est = releve.establishment
    role = require_role(actor, est, (Role.SUPERVISEUR, Role.EMPLOYE_JEUX, Role.COMITE))
    releve = Releve.objects.select_for_update().get(pk=releve.pk)
    if releve.status != Releve.Status.OPEN:
        raise RuleViolation("SLOT-24", _("Socles et boîtes ne s'ouvrent que pendant une relève en cours."))
    if machine.establishment_id != est.pk or box not in BoxExchange.Box.values:
        raise ValueError(_("Machine ou boîte inconnue."))
    if not removed.strip() or not replaced_by.strip():
        raise ValidationError(_("Les numéros de la boîte retirée et de la boîte mise en place sont obligatoires."))
    if BoxExchange.objects.filter(releve=releve, machine=machine, box=box).exists():
        raise ValueError(_("Cette boîte a déjà été échangée pendant la relève."))
    now = timezone.now()
    entry = _releve_line(
        releve,
        actor=actor,
        role=role,
        event=_("Échange de boîte"),
        at=now,
        machine=machine,
        detail=f"{BoxExchange.Box(box).label} {removed.strip()} → {replaced_by.strip()}",
    )
    if box == BoxExchange.Box.BILL:
        machine = Machine.objects.select_for_update().get(pk=machine.pk)  # never save the caller's stale copy
        machine.bill_box = replaced_by.strip()
        save_audited(machine, actor=actor, reason="boîte à billets")
    return BoxExchange.objects.create(
        releve=releve,
        machine=machine,
        box=box,
        removed=removed.strip(),
        replaced_by=replaced_by.strip(),
        exchanged_at=now,
        recorded_by=actor,
        entry=entry,
    )


def variance_threshold(est: Establishment) -> dict[str, Decimal | None]:
    """The threshold grading the differences: a preset name or explicit {"amount", "percent"}
    (option SLOT-11) chosen by the Direction; none until it chooses."""
    chosen = est.setting("SLOT-11") or {}
    if "preset" in chosen:
        return VARIANCE_PRESETS.get(chosen["preset"], NO_GRADING)
    if not chosen:
        return NO_GRADING
    return {key: (Decimal(str(chosen[key])) if chosen.get(key) is not None else None) for key in ("amount", "percent")}


# Who chooses the reconciliation threshold: the Direction that directs the relèves and counts.
THRESHOLD_ROLES = {"MC": (Role.DIRECTEUR_EXPLOITATION,), "FR": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)}


@transaction.atomic
def variance_threshold_choose(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser,
    preset: str = "",
    amount: Decimal | None = None,
    percent: Decimal | None = None,
) -> dict[str, Decimal | None]:
    """The establishment chooses its reconciliation threshold (SLOT-11): a preset (its
    jurisdiction's or a stricter one such as 2 % or 100 €) or its own amount and/or percentage;
    the differences of the counts that follow are graded against it, each count keeping the
    threshold it was graded against. The choice is a line of the relèves register."""
    est = Establishment.objects.select_for_update().get(pk=establishment.pk)
    role = require_role(actor, est, THRESHOLD_ROLES[est.jurisdiction])
    if preset:
        if preset not in VARIANCE_PRESETS:
            raise ValidationError({"preset": _("Réglage inconnu.")})
        chosen: dict[str, Any] = {"preset": preset}
    else:
        if amount is None and percent is None:
            raise ValidationError(_("Choisissez un réglage, ou un montant et/ou un pourcentage."))
        if (amount is not None and amount <= 0) or (percent is not None and percent <= 0):
            raise ValidationError(_("Le seuil est positif."))
        chosen = {
            "amount": str(amount) if amount is not None else None,
            "percent": str(percent) if percent is not None else None,
        }
    est.options = {**est.options, "SLOT-11": chosen}
    save_audited(est, actor=actor, reason="seuil d'écart des comptages (SLOT-11)")
    threshold = variance_threshold(est)
    shown = " / ".join(
        f"{threshold[k]} {unit}" for k, unit in (("percent", "%"), ("amount", "€")) if threshold[k] is not None
    )
    with register_language():
        payload = _line(
            None,
            event=_("Seuil d'écart des comptages"),
            at=timezone.now(),
            actor=actor,
            role=role,
            est=est,
            detail=f"{_('au-delà de')} {shown}",
            threshold={k: (str(v) if v is not None else None) for k, v in threshold.items()},
        )
    register = current_register(est, METER_READINGS.code)
    entry_append(register=register, actor=actor, role=_writer(register, role), payload=payload)
    establishment.options = est.options
    return threshold


def reconcile(
    expected: Decimal, counted: Decimal, threshold: dict[str, Decimal | None]
) -> tuple[Decimal, Decimal | None, bool]:
    """(variance, variance %, beyond): beyond the Direction's grading threshold when the amount or
    the percentage exceeds its limit."""
    variance = counted - expected
    percent = ((variance / expected) * 100).quantize(Decimal("0.01"), ROUND_HALF_UP) if expected else None
    over_amount = threshold.get("amount") is not None and abs(variance) > threshold["amount"]
    over_percent = threshold.get("percent") is not None and (
        abs(percent) > threshold["percent"] if percent is not None else variance != 0
    )
    return variance, percent, bool(over_amount or over_percent)


@transaction.atomic
def drop_count_record(*, releve: Releve, machine: Machine, counted: Decimal, actor: AbstractBaseUser) -> DropCount:
    """The counted drop of a machine for a relève against its meters' deltas (electronic meters of
    the boxes: receipts, bills, tickets in), with the variance in amount and percent: every
    difference flagged, graded against the Direction's threshold (SLOT-11)."""
    est = releve.establishment
    role = require_role(actor, est, COUNT_ROLES)
    if counted < 0:
        raise ValidationError({"counted": _("Montant négatif.")})
    if DropCount.objects.filter(releve=releve, machine=machine).exists():
        raise ValueError(_("Cette machine est déjà comptée pour la relève."))
    expected = selectors.expected_drop(releve, machine)
    threshold = variance_threshold(est)
    variance, percent, beyond = reconcile(expected, counted, threshold)
    now = timezone.now()
    shown = {k: (str(v) if v is not None else None) for k, v in threshold.items()}
    pct = f" ({percent} %)" if percent is not None else ""
    entry = _releve_line(
        releve,
        actor=actor,
        role=role,
        event=_("Comptage"),
        at=now,
        machine=machine,
        detail=f"{_('compté')} {counted} € — {_('compteurs')} {expected} € — {_('écart')} "
        f"{variance} €{pct}" + (f" — {_('AU-DELÀ DU SEUIL')}" if beyond else ""),
        threshold=shown,
    )
    return DropCount.objects.create(
        releve=releve,
        machine=machine,
        counted=counted,
        expected=expected,
        variance=variance,
        variance_percent=percent,
        flagged=variance != 0,
        threshold=shown,
        counted_at=now,
        counted_by=actor,
        entry=entry,
    )


# --- interventions (SLOT-14, 15, 53; INC-16) -----------------------------------------------------------


def _approval(est: Establishment, user: AbstractBaseUser, role: str, on: datetime.date) -> StaffApproval | None:
    """FR: the valid ministerial approval the technician needs (SLOT-50 casino staff, SLOT-53 SFM)."""
    if est.jurisdiction != "FR":
        return None
    kind = StaffApproval.Kind.SFM if role == Role.TECHNICIEN_SFM else StaffApproval.Kind.SLOT_STAFF
    approval = selectors.valid_approval(est, user, kind, on)
    if approval is None:
        raise RuleViolation(
            "SLOT-53" if kind == StaffApproval.Kind.SFM else "SLOT-50",
            _("%(who)s n'a pas d'agrément en cours de validité.") % {"who": display_name(user)},
        )
    return approval


@transaction.atomic
def intervention_open(
    *, machine: Machine, actor: AbstractBaseUser, reason: str, stopped_at: datetime.datetime | None = None
) -> Intervention:
    """A machine door opened by an identified mechanic (the signed-in user: the monitoring system's
    identification, SLOT-14), FR also an approved SFM technician (SLOT-53); anyone else is refused."""
    est = machine.establishment
    roles = INTERVENTION_ROLES[est.jurisdiction]
    if est.jurisdiction == "FR" and selectors.installed_count(est) > (est.setting("SET-43") or 75):
        roles = tuple(r for r in roles if r != Role.EMPLOYE_JEUX)
    role = _require(
        actor,
        est,
        roles,
        "SLOT-14" if est.jurisdiction == "MC" else "SLOT-53",
        _("Une machine n'est ouverte que par un mécanicien identifié (ou un technicien de la SFM)."),
    )
    if not reason.strip():
        raise RuleViolation("SLOT-14", _("Le motif de l'arrêt de la machine est obligatoire."))
    stopped_at = stopped_at or timezone.now()
    approval = _approval(est, actor, role, est.localtime(stopped_at).date())
    intervention = save_audited(
        Intervention(
            machine=machine,
            technician=actor,
            technician_role=role,
            approval=approval,
            stopped_at=stopped_at,
            reason=reason.strip(),
        ),
        actor=actor,
        reason="ouverture",
    )
    ref = f" — {_('agrément')} {approval.reference}" if approval else ""
    _append(
        TECHNICAL_KIND,
        machine,
        est,
        actor=actor,
        role=role,
        event=_("Ouverture de la machine"),
        at=stopped_at,
        detail=f"{_('Fiche')} n° {intervention.pk} — {intervention.reason}{ref}",
        intervention=intervention.pk,
    )
    return intervention


@transaction.atomic
def intervention_close(
    *, intervention: Intervention, actor: AbstractBaseUser, work_done: str, ended_at: datetime.datetime | None = None
) -> Intervention:
    """The technician closes the sheet with the work done (SLOT-14, SLOT-53); a sheet handed over in
    the day's envelope is never edited again (SLOT-15)."""
    intervention = Intervention.objects.select_for_update().get(pk=intervention.pk)
    machine = intervention.machine
    est = machine.establishment
    if intervention.transmittal_id is not None:
        raise RuleViolation(
            "SLOT-15", _("Cette fiche a été remise à la Direction de l'exploitation : elle ne peut plus être modifiée.")
        )
    if actor.pk != intervention.technician_id:
        raise RuleViolation("SLOT-14", _("La fiche est signée par le mécanicien qui a ouvert la machine."))
    role = intervention.technician_role
    if intervention.status != Intervention.Status.OPEN:
        raise ValueError(_("Cette intervention est déjà close."))
    if not work_done.strip():
        raise RuleViolation("SLOT-53", _("Indiquez les travaux effectués."))
    intervention.ended_at = ended_at or timezone.now()
    if intervention.ended_at < intervention.stopped_at:
        raise ValidationError({"ended_at": _("La fin précède l'arrêt de la machine.")})
    intervention.work_done, intervention.status = work_done.strip(), Intervention.Status.CLOSED
    save_audited(intervention, actor=actor, reason="clôture")
    _append(
        TECHNICAL_KIND,
        machine,
        est,
        actor=actor,
        role=role,
        event=_("Fin d'intervention"),
        at=intervention.ended_at,
        detail=f"{_('Fiche')} n° {intervention.pk} — {intervention.work_done}",
        intervention=intervention.pk,
    )
    return intervention


@transaction.atomic
def transmittal_hand_over(
    *, establishment: Establishment, date: datetime.date, actor: AbstractBaseUser, received_by: AbstractBaseUser
) -> DailyTransmittal:
    """At the closing the superviseur hands the day's original sheets in an envelope to the Direction
    de l'exploitation (SLOT-15, MC): every sheet of the day, none still open."""
    est = establishment
    if est.jurisdiction != "MC":
        raise ValueError(_("L'enveloppe quotidienne des fiches d'intervention est une règle monégasque."))
    role = _require(
        actor,
        est,
        (Role.SUPERVISEUR,),
        "SLOT-15",
        _("Le superviseur remet les fiches du jour à la Direction de l'exploitation."),
    )
    _require(
        received_by,
        est,
        (Role.DIRECTEUR_EXPLOITATION,),
        "SLOT-15",
        _("Les fiches sont remises à la Direction de l'exploitation."),
    )
    sheets = list(selectors.sheets_of_day(est, date).select_for_update())
    still_open = [s for s in sheets if s.status == Intervention.Status.OPEN]
    if still_open:
        raise RuleViolation("SLOT-15", _("La fiche n° %(n)s du jour n'est pas close.") % {"n": still_open[0].pk})
    if DailyTransmittal.objects.filter(establishment=est, date=date).exists():
        raise ValueError(_("Les fiches de ce jour ont déjà été remises."))
    now = timezone.now()
    entry = _append(
        TECHNICAL_KIND,
        None,
        est,
        actor=actor,
        role=role,
        event=_("Remise des fiches du jour"),
        at=now,
        detail=f"{date:%d/%m/%Y} — {len(sheets)} {_('fiches')} — {_('reçues par')} {display_name(received_by)}",
        sheets=[s.pk for s in sheets],
    )
    transmittal = DailyTransmittal.objects.create(
        establishment=est, date=date, handed_by=actor, handed_at=now, received_by=received_by, entry=entry
    )
    for sheet in sheets:
        sheet.transmittal = transmittal
        save_audited(sheet, actor=actor, reason="remise à la Direction")
    return transmittal


# --- SFM revision visits (SLOT-54) ---------------------------------------------------------------------

ACCEPTOR_MEDIA = frozenset({Medium.BANKNOTES, Medium.TITO, Medium.CARD})


@transaction.atomic
def sfm_visit_record(
    *,
    establishment: Establishment,
    machines: Sequence[Machine],
    actor: AbstractBaseUser,
    remarks: str,
    limits: dict[str, dict[str, Any]],
    visited_at: datetime.datetime | None = None,
) -> SfmVisit:
    """The SFM technician's revision visit: remarks and conclusions in modèle 26 (and each machine's
    fiche 34); every machine with a bill, ticket or card acceptor has its insertion and payment
    limits checked ({number: {"insertion_limit", "payment_limit"}}), compared with SLOT-25."""
    est = establishment
    if est.jurisdiction != "FR":
        raise ValueError(_("Les visites de révision de la SFM sont une règle française."))
    role = _require(
        actor, est, (Role.TECHNICIEN_SFM,), "SLOT-54", _("La visite de révision est faite par un technicien de la SFM.")
    )
    visited_at = visited_at or timezone.now()
    approval = _approval(est, actor, role, est.localtime(visited_at).date())
    if not machines or not remarks.strip():
        raise ValidationError(_("Indiquez les machines visitées et les remarques et conclusions."))
    checked = {}
    for machine in machines:
        if not ACCEPTOR_MEDIA & set(machine.media):
            continue
        seen = limits.get(machine.number)
        if not seen or seen.get("insertion_limit") in (None, "") or seen.get("payment_limit") in (None, ""):
            raise RuleViolation(
                "SLOT-54",
                _("Les limites d'insertion et de paiement de la machine %(m)s doivent être contrôlées.")
                % {"m": machine.number},
            )
        insertion, payment = Decimal(str(seen["insertion_limit"])), Decimal(str(seen["payment_limit"]))
        threshold = est.setting("SET-19")
        compliant = insertion <= payment and (threshold is None or payment <= Decimal(str(threshold)))
        checked[machine.number] = {
            "insertion_limit": str(insertion),
            "payment_limit": str(payment),
            "compliant": compliant,
        }
    entry = _append(
        TECHNICAL_KIND,
        None,
        est,
        actor=actor,
        role=role,
        event=_("Visite de révision de la SFM"),
        at=visited_at,
        detail=f"{', '.join(m.number for m in machines)} — {remarks.strip()}",
        limits=checked,
    )
    for machine in machines:
        fiche = _fiche(machine)
        entry_append(register=fiche, actor=actor, role=_writer(fiche, role), payload=entry.payload)
    visit = SfmVisit.objects.create(
        establishment=est,
        visited_at=visited_at,
        technician=actor,
        approval=approval,
        limits=checked,
        remarks=remarks.strip(),
        entry=entry,
    )
    visit.machines.set(machines)
    return visit


# --- jackpots and payments (SLOT-16 to 20, SLOT-35; INC-04, INC-05) -----------------------------------

PAY_ROLES = {"MC": (Role.SUPERVISEUR,), "FR": (Role.CAISSIER,)}


def _payment_line(
    machine: Machine,
    *,
    kind: Any,
    actor: AbstractBaseUser,
    role: str,
    event: Any,
    at: datetime.datetime,
    amount: Decimal,
    detail: str,
    **extra: Any,
) -> Entry:
    est = machine.establishment
    with register_language():
        payload = _line(
            machine, event=event, at=at, detail=detail, actor=actor, role=role, est=est, amount=str(amount), **extra
        )
    register = current_register(est, kind.code)
    return entry_append(register=register, actor=actor, role=_writer(register, role), payload=payload)


@transaction.atomic
def jackpot_threshold_set(
    *, establishment: Establishment, amount: Decimal, effective_from: datetime.datetime, actor: AbstractBaseUser
) -> JackpotThreshold:
    """A new identity threshold fixed by the Direction (SET-18), from its effective date; the past
    payments keep the threshold of their time."""
    role = require_role(actor, establishment, INVENTORY_ROLES[establishment.jurisdiction])
    if establishment.jurisdiction != "MC":  # AMB-28: the French texts set no identity threshold
        raise ValidationError(_("Le seuil d'identification des gagnants est une règle monégasque."))
    if amount <= 0:
        raise ValidationError({"amount": _("Montant positif attendu.")})
    with register_language():
        payload = _line(
            None,
            event=_("Seuil d'identification des gagnants"),
            at=effective_from,
            detail=f"{amount} €",
            actor=actor,
            role=role,
            est=establishment,
            amount=str(amount),
        )
    register = current_register(establishment, JACKPOTS.code)
    entry = entry_append(register=register, actor=actor, role=_writer(register, role), payload=payload)
    return JackpotThreshold.objects.create(
        establishment=establishment, amount=amount, effective_from=effective_from, set_by=actor, entry=entry
    )


@transaction.atomic
def jackpot_pay(
    *,
    machine: Machine,
    amount: Decimal,
    method: str,
    actor: AbstractBaseUser,
    station: int = 1,
    combination: str = "",
    id_type: str = "",
    id_number: str = "",
    pre_check: str = "",
    controller: AbstractBaseUser | None = None,
    paid_at: datetime.datetime | None = None,
) -> JackpotPayment:
    """A manual jackpot payment. MC: by the superviseur (SLOT-22), in cash, cheque or transfer
    (SLOT-17), the winner's identity document above the threshold in force (SLOT-16). FR: by the
    cashier at the cash desk, controlled and signed by a comité member, on a numbered bon de
    paiement (SLOT-35, REG-42); an amount not above the machine's automatic payment limit is
    flagged."""
    est = machine.establishment
    jur = est.jurisdiction
    role = _require(
        actor,
        est,
        PAY_ROLES[jur],
        "SLOT-22" if jur == "MC" else "SLOT-35",
        _("Seul un superviseur approuve un paiement manuel.")
        if jur == "MC"
        else _("Le paiement est fait à la caisse par le caissier."),
    )
    paid_at = paid_at or timezone.now()
    if amount <= 0:
        raise ValidationError({"amount": _("Montant positif attendu.")})
    if method not in PaymentMethod.values:
        raise RuleViolation("SLOT-17", _("Un jackpot est payé en espèces, par chèque ou par virement."))
    flags = []
    bon = None
    if jur == "MC":
        threshold = JackpotThreshold.objects.filter(establishment=est, effective_from__lte=paid_at).first()
        if threshold is not None and amount > threshold.amount and not (id_type.strip() and id_number.strip()):
            raise RuleViolation(
                "SLOT-16",
                _("Au-delà de %(t)s €, un gain n'est payé que sur présentation d'une pièce d'identité.")
                % {"t": threshold.amount},
            )
    else:
        if controller is None or controller.pk == actor.pk:
            raise RuleViolation("SLOT-35", _("Le paiement est contrôlé et signé par un membre du comité de direction."))
        _require(
            controller,
            est,
            (Role.COMITE,),
            "SLOT-35",
            _("Le paiement est contrôlé et signé par un membre du comité de direction."),
        )
        if machine.payment_limit is not None and amount <= machine.payment_limit:
            flags.append("SLOT-35")
        # Bons are numbered without gaps (REG-42, BP): the next number under the establishment's row lock.
        Establishment.objects.select_for_update().get(pk=est.pk)
        bon = (JackpotPayment.objects.filter(machine__establishment=est).aggregate(n=Max("bon_number"))["n"] or 0) + 1
    ident = f" — {id_type.strip()} {id_number.strip()}" if id_number.strip() else ""
    control = f" — {_('contrôlé par')} {display_name(controller)}" if controller else ""
    entry = _payment_line(
        machine,
        kind=JACKPOTS,
        actor=actor,
        role=role,
        event=_("Paiement manuel"),
        at=paid_at,
        amount=amount,
        detail=f"{combination.strip()}{ident} — {PaymentMethod(method).label}"
        f"{control}" + (f" — {_('bon')} n° {bon}" if bon else ""),
        station=station,
        flags=flags,
    )
    return JackpotPayment.objects.create(
        machine=machine,
        station=station,
        paid_at=paid_at,
        amount=amount,
        combination=combination.strip(),
        method=method,
        id_type=id_type.strip(),
        id_number=id_number.strip(),
        pre_check=pre_check.strip(),
        paid_by=actor,
        controlled_by=controller,
        bon_number=bon,
        flags=flags,
        entry=entry,
    )


@transaction.atomic
def dispute_decide(
    *,
    machine: Machine,
    claim: str,
    mechanic: AbstractBaseUser,
    mechanic_statement: str,
    decision: str,
    actor: AbstractBaseUser,
    amount_paid: Decimal = Decimal("0"),
) -> PaymentDispute:
    """The superviseur decides a payment dispute after hearing the mechanic (SLOT-18, INC-04)."""
    est = machine.establishment
    role = _require(
        actor, est, (Role.SUPERVISEUR,), "INC-04", _("Une contestation de paiement est tranchée par le superviseur.")
    )
    _require(mechanic, est, (Role.MECANICIEN,), "INC-04", _("Le superviseur entend un mécanicien."))
    if not mechanic_statement.strip():
        raise RuleViolation("INC-04", _("La décision suppose l'avis du mécanicien entendu."))
    if not claim.strip() or not decision.strip():
        raise ValidationError(_("La réclamation et la décision sont obligatoires."))
    now = timezone.now()
    entry = _payment_line(
        machine,
        kind=JACKPOTS,
        actor=actor,
        role=role,
        event=_("Contestation de paiement"),
        at=now,
        amount=amount_paid,
        detail=f"{claim.strip()} — {_('mécanicien')} {display_name(mechanic)} : "
        f"{mechanic_statement.strip()} — {_('décision')} : {decision.strip()}",
    )
    return PaymentDispute.objects.create(
        machine=machine,
        claim=claim.strip(),
        mechanic=mechanic,
        mechanic_statement=mechanic_statement.strip(),
        heard_at=now,
        decision=decision.strip(),
        amount_paid=amount_paid,
        decided_by=actor,
        decided_at=now,
        entry=entry,
    )


@transaction.atomic
def top_up_pay(
    *,
    machine: Machine,
    combination: str,
    amount_due: Decimal,
    paid_by_machine: Decimal,
    difference: Decimal,
    customer: str,
    mechanic_opinion: str,
    actor: AbstractBaseUser,
) -> TopUp:
    """The superviseur pays the difference between a winning combination and what the machine paid,
    written in the cahier des compléments (SLOT-20, REG-17)."""
    est = machine.establishment
    role = _require(actor, est, (Role.SUPERVISEUR,), "SLOT-20", _("Le superviseur paie le complément."))
    if not (combination.strip() and customer.strip() and mechanic_opinion.strip()):
        raise RuleViolation("SLOT-20", _("La combinaison, le client et l'avis du mécanicien sont obligatoires."))
    if difference != amount_due - paid_by_machine or difference <= 0:
        raise RuleViolation(
            "SLOT-20", _("Le complément est la différence, positive, entre le montant dû et ce que la machine a payé.")
        )
    now = timezone.now()
    entry = _payment_line(
        machine,
        kind=TOP_UPS,
        actor=actor,
        role=role,
        event=_("Complément de paiement"),
        at=now,
        amount=difference,
        detail=f"{combination.strip()} — {_('dû')} {amount_due} € — {_('payé par la machine')} "
        f"{paid_by_machine} € — {customer.strip()} — {mechanic_opinion.strip()}",
    )
    return TopUp.objects.create(
        machine=machine,
        paid_at=now,
        combination=combination.strip(),
        amount_due=amount_due,
        paid_by_machine=paid_by_machine,
        difference=difference,
        customer=customer.strip(),
        mechanic_opinion=mechanic_opinion.strip(),
        paid_by=actor,
        entry=entry,
    )


@transaction.atomic
def orphan_record(
    *,
    establishment: Establishment,
    kind: str,
    amount: Decimal,
    disposal: str,
    actor: AbstractBaseUser,
    machine: Machine | None = None,
    place: str = "",
    witness: AbstractBaseUser | None = None,
    payee: AbstractBaseUser | None = None,
    taken_by: str = "",
    found_at: datetime.datetime | None = None,
) -> Orphan:
    """An orphan found (SLOT-19): never paid to a member of staff; a customer who took it is excluded
    from the room at once (INC-05), recorded with it."""
    est = establishment
    role = require_role(actor, est, (Role.SUPERVISEUR, Role.CAISSIER, Role.CHANGEUR, Role.MECANICIEN))
    if kind not in Orphan.Kind.values or amount <= 0 or not disposal.strip():
        raise ValidationError(_("Nature, montant positif et suite donnée sont obligatoires."))
    if payee is not None and roles_of(payee, est):
        raise RuleViolation("SLOT-19", _("Un orphelin n'est jamais remis à un membre du personnel."))
    if machine is None and not place.strip():
        raise ValidationError(_("Indiquez la machine ou le lieu."))
    found_at = found_at or timezone.now()
    excluded_at = timezone.now() if taken_by.strip() else None
    exclusion = f" — {_('pris par')} {taken_by.strip()}, {_('exclu de la salle')}" if excluded_at else ""
    with register_language():
        payload = _line(
            machine,
            event=_("Orphelin"),
            at=found_at,
            actor=actor,
            role=role,
            est=est,
            amount=str(amount),
            detail=f"{Orphan.Kind(kind).label} — {place.strip() or machine} — {disposal.strip()}{exclusion}",
        )
    register = current_register(est, JACKPOTS.code)
    entry = entry_append(register=register, actor=actor, role=_writer(register, role), payload=payload)
    return Orphan.objects.create(
        establishment=est,
        kind=kind,
        machine=machine,
        place=place.strip(),
        amount=amount,
        found_at=found_at,
        found_by=actor,
        witness=witness,
        disposal=disposal.strip(),
        taken_by=taken_by.strip(),
        excluded_at=excluded_at,
        entry=entry,
    )


# --- the Secrétariat Général's copy of the slot files (SLOT-08) ----------------------------------------


@transaction.atomic
def files_copy_deliver(
    *, establishment: Establishment, actor: AbstractBaseUser, received_by: AbstractBaseUser
) -> FileCopy:
    """The Directeur de l'exploitation hands a copy of the slot files, as they stand, to the
    Secrétariat Général (SLOT-08): the copy is the slot-files register up to its head, whose hash
    identifies the version (its export: ``manage.py export_register``)."""
    est = establishment
    if est.jurisdiction != "MC":
        raise ValueError(_("La copie des fichiers au Secrétariat Général est une règle monégasque."))
    role = _require(
        actor,
        est,
        (Role.DIRECTEUR_EXPLOITATION,),
        "SLOT-08",
        _("Les fichiers sont tenus par le Directeur de l'exploitation."),
    )
    _require(
        received_by, est, (Role.SECRETARIAT_GENERAL,), "SLOT-08", _("La copie est déposée au Secrétariat Général.")
    )
    register = current_register(est, SLOT_FILES.code)
    covers_seq, covers_hash = register.head_seq, register.head_hash
    now = timezone.now()
    entry = _append(
        INVENTORY_KIND,
        None,
        est,
        actor=actor,
        role=role,
        event=_("Copie au Secrétariat Général"),
        at=now,
        detail=f"{_('entrées')} 1 → {covers_seq} — {covers_hash[:16]}… — {_('reçue par')} {display_name(received_by)}",
    )
    return FileCopy.objects.create(
        establishment=est,
        delivered_at=now,
        covers_seq=covers_seq,
        covers_hash=covers_hash,
        delivered_by=actor,
        received_by=received_by,
        entry=entry,
    )


# --- monitoring events matched against the records (SLOT-14, 24, 29, 53) ------------------------------


@dataclass(frozen=True)
class EventRow:
    machine: str
    kind: str
    occurred_at: datetime.datetime
    line: int = 0


# An event is explained by a record whose time window contains it, give or take this margin (the
# monitoring clock and the sheet's written time differ by minutes).
EVENT_MARGIN = datetime.timedelta(minutes=10)


def _key_out(event: EventRow, machine: Machine) -> KeyIssue | None:
    """The hand-over of a key serving the machine (door, parts, bill box) or its socle that was out
    when the event occurred, give or take the margin: who held the key that opened it."""
    refs = [machine.number] + ([machine.socle.number] if machine.socle_id else [])
    start, end = event.occurred_at - EVENT_MARGIN, event.occurred_at + EVENT_MARGIN
    return next(
        (issue for ref in refs for issue in holdings(machine.establishment, start=start, end=end, asset_ref=ref)), None
    )


def _explained(event: EventRow, machine: Machine) -> dict[str, Any]:
    """The record that explains an event, as MonitoringEvent fields, or its flag; an opening also
    gets the key hand-over it matches."""
    if event.kind == MonitoringEvent.Kind.RESET:
        return _record_of(event, machine)
    return {**_record_of(event, machine), "key_issue": _key_out(event, machine)}


def _record_of(event: EventRow, machine: Machine) -> dict[str, Any]:
    start, end = event.occurred_at + EVENT_MARGIN, event.occurred_at - EVENT_MARGIN
    if event.kind == MonitoringEvent.Kind.DOOR:
        sheet = (
            Intervention.objects.filter(machine=machine, stopped_at__lte=start)
            .filter(Q(ended_at__isnull=True) | Q(ended_at__gte=end))
            .first()
        )
        # A door opened with no intervention opened by the signed-in mechanic: KEY-06 (MC), and the
        # FR SLOT-29 flag of a door-open signal with no intervention record.
        flag = "SLOT-14" if machine.establishment.jurisdiction == "MC" else "SLOT-53"
        return {"intervention": sheet} if sheet else {"flag": flag}
    if event.kind == MonitoringEvent.Kind.RESET:
        clear = RamClear.objects.filter(machine=machine, performed_at__range=(end, start)).first()
        return {"ram_clear": clear} if clear else {"flag": "INC-12"}
    releve = (
        Releve.objects.filter(establishment=machine.establishment, started_at__lte=start)
        .filter(Q(closed_at__isnull=True) | Q(closed_at__gte=end))
        .first()
    )
    return {"releve": releve} if releve else {"flag": "SLOT-24"}


@transaction.atomic
def monitoring_events_import(
    *, establishment: Establishment, rows: Sequence[EventRow], actor: AbstractBaseUser
) -> list[MonitoringEvent]:
    """Events exported by the monitoring system, each matched against the interventions (door),
    the relèves (bill box, socle) and the RAM clears (reset), and an opening against the key
    hand-overs (who held a key of the machine or its socle then); unexplained ones are flagged with
    the requirement they break, naming the key holder if any. All rows or none; an event already
    imported is skipped."""
    est = establishment
    role = require_role(
        actor, est, (Role.SUPERVISEUR, Role.DIRECTEUR_EXPLOITATION, Role.COMITE, Role.DIRECTEUR_RESPONSABLE)
    )
    machines = {m.number: m for m in selectors.machines_of(est)}
    errors = [
        str(_("ligne %(n)s : machine ou événement inconnu.") % {"n": row.line or i})
        for i, row in enumerate(rows, start=1)
        if row.machine not in machines or row.kind not in MonitoringEvent.Kind.values
    ]
    if errors:
        raise ReadingErrors(errors)
    created = []
    for row in rows:
        machine = machines[row.machine]
        if MonitoringEvent.objects.filter(machine=machine, kind=row.kind, occurred_at=row.occurred_at).exists():
            continue
        created.append(
            MonitoringEvent.objects.create(
                machine=machine,
                kind=row.kind,
                occurred_at=row.occurred_at,
                imported_by=actor,
                **_explained(row, machine),
            )
        )
    flagged = [e for e in created if e.flag]
    with register_language():
        detail = str(_("%(n)s événements importés, %(f)s non expliqués") % {"n": len(created), "f": len(flagged)})
        payload = _line(
            None,
            event=_("Import des événements de surveillance"),
            at=timezone.now(),
            detail=detail,
            actor=actor,
            role=role,
            est=est,
            flags=[
                f"{e.machine.number} {e.kind} {est.localtime(e.occurred_at):%Y-%m-%d %H:%M} {e.flag}"
                + (f" — {_('clé')} {e.key_issue.key.code} : {display_name(e.key_issue.holder)}" if e.key_issue else "")
                for e in flagged
            ],
        )
    register = current_register(est, METER_READINGS.code)
    entry_append(register=register, actor=actor, role=_writer(register, role), payload=payload)
    return created
