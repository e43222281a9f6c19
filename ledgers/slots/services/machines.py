"""Writes on socles and machines: creation, registration, technical sheets, hopper lids and moves."""

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.authority.displays import require_machine_displays
from ledgers.core.authz import require_role, roles_of, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import Establishment, Room
from ledgers.core.readable import euros
from ledgers.core.roles import Role
from ledgers.incidents.services import (
    AuthorityRecipient,
    authority_notice_record,
    notice_lead_require,
)
from ledgers.registers.services import (
    display_name,
    register_create,
    register_open,
)

from .. import selectors
from ..locks import check_lock_keys
from ..models import (
    Machine,
    MachineMove,
    MachineMoveNotice,
    Medium,
    Meter,
    MeterCode,
    Place,
    SlotStaffing,
    Socle,
    TechnicalSheet,
)
from ..registers import INVENTORY_KIND, MACHINE_FICHE
from ..rules import FR_MIN_DIGITS, required_meters
from .common import INVENTORY_ROLES, _append, _signature
from .meters import MeterSpec, _declare_meters


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
        raise ValidationError(_("Cette salle n'est pas dans l'établissement."))
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
    drop_type: str = ""  # MC: cash box in the socle or pneumatic conveyor, written in the slot files


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
            % {"t": euros(threshold)},
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
        f"{machine.stations} {_('poste(s)')}"
        + (f" — {machine.get_drop_type_display()}" if machine.drop_type else "")
        # The inventory file also names where the machine is and its photograph (SLOT-04).
        + f" — {_('lieu')} : {machine.get_place_display()}"
        + (f" — {_('photographie')} {machine.photo.name}" if machine.photo else ""),
    )
    technical_sheet_record(
        machine=machine,
        actor=actor,
        characteristics=data.characteristics or machine.machine_type,
        rtp_percent=data.rtp_percent,
        levy_percent=data.levy_percent,
    )
    return machine


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
    machine.rtp_percent, machine.levy_percent, machine.rate_date = rtp_percent, levy_percent, est.localtime(now).date()
    save_audited(machine, actor=actor, reason="fiche technique")
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
    return sheet


@transaction.atomic
def hopper_lid_confirm(*, machine: Machine, actor: AbstractBaseUser) -> Machine:
    """The hopper's fixed lid, seen by a mechanic or a superviseur (SLOT-09)."""
    est = machine.establishment
    role = require_role(actor, est, (Role.MECANICIEN, Role.SUPERVISEUR, *INVENTORY_ROLES[est.jurisdiction]))
    if not machine.hopper:
        raise ValidationError(_("Cette machine n'a pas de trémie."))
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


def _pending_notice(machine: Machine) -> MachineMoveNotice | None:
    """The police notice given for the machine's next move, which no move has used yet."""
    return machine.move_notices.filter(move__isnull=True).first()


@transaction.atomic
def machine_move_notify(
    *, machine: Machine, service: str, channel: str, reference: str, actor: AbstractBaseUser
) -> MachineMoveNotice:
    """Record that the police service is told now of a machine's coming move from its location
    (SLOT-33), with its line in the AUTH-06 register: its time is the system's, never typed in, so
    the lead the move waits cannot be shortened by back-dating. It counts for the machine's next
    move only, so a second one is refused while it is unused."""
    machine = Machine.objects.select_for_update().select_related("establishment").get(pk=machine.pk)
    est = machine.establishment
    if est.jurisdiction != "FR":
        raise ValidationError(_("L'information de la police avant un déplacement est régie par l'arrêté de 2007."))
    role = require_role(actor, est, INVENTORY_ROLES["FR"])
    if machine.status != Machine.Status.IN_SERVICE:
        raise ValidationError(_("Seule une machine en service est déplacée après l'information de la police."))
    if not service.strip() or not reference.strip():
        raise ValidationError(_("Indiquez le service de police informé et la référence de l'information."))
    if _pending_notice(machine) is not None:
        raise impossible(_("La police est déjà informée du prochain déplacement de cette machine."))
    notice = MachineMoveNotice(machine=machine, service=service.strip(), channel=channel, reference=reference.strip())
    return authority_notice_record(
        notice,
        establishment=est,
        recipient=AuthorityRecipient.POLICE,
        subject=str(
            _("Déplacement de la machine %(machine)s depuis le socle %(socle)s")
            % {"machine": _identity(machine), "socle": machine.socle.number if machine.socle else "—"}
        ),
        requirement="SLOT-33",
        actor=actor,
        role=role,
        detail=f"{notice.service} — {notice.get_channel_display()}",
    )


@transaction.atomic
def machine_move(
    *,
    machine: Machine,
    to_place: str,
    actor: AbstractBaseUser,
    reason: str,
    moved_at: datetime.datetime | None = None,
    to_socle: Socle | None = None,
    observations: str = "",
    signers: Sequence[AbstractBaseUser] = (),
    replaced_by: Machine | None = None,
    replacing: Machine | None = None,
) -> MachineMove:
    """Move a machine between the floor (on a socle), the store and the workshop, with a snapshot of
    its meters (SLOT-04). Onto the floor it must be fit for operation; FR: a planned move needs
    the police notice the system recorded, the SLOT-33 lead before both now and the move's time
    (which may be typed), and uses it up; a breakdown or incident its reason; the move is the
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
        raise ValidationError(_("Cette machine est sortie du parc."))
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
    notice = None
    if est.jurisdiction == "FR" and machine.status == Machine.Status.IN_SERVICE:
        # whatever the move's reason, the notice given for the machine's next move is used by it
        notice = _pending_notice(machine)
        if reason == MachineMove.Reason.PLANNED:
            notice_lead_require(
                establishment=est,
                notified_at=notice.notified_at if notice else None,
                lead=datetime.timedelta(minutes=(est.setting("SLOT-33") or {}).get("notice_lead_minutes", 0)),
                requirement="SLOT-33",
                rule=_(
                    "Aucune machine ne peut être déplacée de son emplacement initial avant "
                    "que le service de police compétent en ait été informé."
                ),
                at=moved_at,
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
        f" — {_('police informée le')} {est.localtime(notice.notified_at):%d/%m/%Y %H:%M} "
        f"({notice.service}, {notice.reference})"
        if notice
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
        police_notice=notice,
        police_informed_at=notice.notified_at if notice else None,
        police_reference=notice.reference if notice else "",
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
    """FR: a removal for repair or a return is countersigned by "le membre du comité spécialisé"
    (AMB-55: the comité member the day's slot staffing assigns to the control of the games, art.
    68-27; any comité member on a day with no staffing written, when the room cannot open, SLOT-50)
    and the mechanic, or the employee in charge where ≤ SET-43 machines run, and by the SFM
    technician who took part (SLOT-34). Returns the signatures, actor first."""
    if est.jurisdiction != "FR" or reason not in COUNTERSIGNED_MOVES:
        return []
    day = SlotStaffing.objects.filter(establishment=est, date=est.localtime().date()).first()
    if day is not None and day.comite_id not in {user.pk for user in (actor, *signers)}:
        raise RuleViolation(
            "SLOT-34",
            _("Le membre du comité spécialisé de la journée, %(name)s, contresigne ce déplacement (art. 68-19, 68-27).")
            % {"name": display_name(day.comite)},
        )
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
