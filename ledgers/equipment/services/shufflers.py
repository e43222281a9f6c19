"""Shufflers: registration, commissioning, mounting, use at the tables, pauses and malfunctions."""

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import Establishment, GamingTable, TableSession
from ledgers.core.roles import Role
from ledgers.incidents.categories import CARD_ANOMALY, SHUFFLER_MALFUNCTION
from ledgers.incidents.models import Incident
from ledgers.incidents.selectors import has_open_incident
from ledgers.incidents.services import incident_open
from ledgers.registers.models import Entry

from ..models import (
    ApprovedModel,
    AssetStatus,
    MachineType,
    Shuffler,
    ShufflerUse,
    Socle,
)
from ..specs import (
    PAUSE_GAMES_MC,
    SHUFFLER_DECKS_FR,
    SHUFFLER_DISPLAY_FR,
    normalise_display,
)
from .approved_models import require_current_approval
from .common import MANAGERS, TABLE_STAFF, _equipment_entry, _fr, _live_session


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


def shuffler_identity_check(
    *, establishment: Establishment, number: str, serial: str, model: ApprovedModel, numbers: Sequence[str] = ()
) -> None:
    """What a shuffler entering the register answers to, whatever brings it in (its registration,
    the take-over from paper): a shuffler model of the house, an inventory number not given twice
    (nor among ``numbers``, those entered alongside), a serial number (SHUF-04). Writes nothing."""
    if model.establishment_id != establishment.pk or model.kind != ApprovedModel.Kind.SHUFFLER:
        raise ValidationError({"model": _("Ce modèle n'est pas un modèle de mélangeur de cet établissement.")})
    if not number.strip():
        raise ValidationError({"number": _("Le numéro d'inventaire est obligatoire.")})
    if not serial.strip():
        raise ValidationError({"serial": _("Le numéro de série est obligatoire.")})
    taken = Shuffler.objects.filter(establishment=establishment, number=number.strip()).exists()
    if taken or number.strip() in {n.strip() for n in numbers}:
        raise ValidationError({"number": _("Ce numéro d'inventaire est déjà attribué.")})


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
    shuffler_identity_check(establishment=establishment, number=number, serial=serial, model=model)
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
        # The type is what the register keeps of SHUF-04: it decides the games the machine may serve.
        details=f"{_fr(MachineType(machine_type).label)} {model} — {_fr(_('série'))} {shuffler.serial}",
    )
    return shuffler


def shuffler_commission_check(
    *, establishment: Establishment, model: ApprovedModel, card_access_protection: bool, malfunction_signal: bool
) -> None:
    """What a shuffler in service answers to, whether put into service here or taken over in
    service: an approved model (SHUF-01, SHUF-11, AMB-29) whose approval has not expired (AUTH-06)
    and, in Monaco, the protection against access to the cards (SHUF-02) and the malfunction
    signal (SHUF-03). Writes nothing."""
    est = establishment
    if not model.is_approved:
        raise RuleViolation(
            _shuffler_approval_rule(est),
            _("Le modèle %(model)s n'a pas de référence d'agrément : mise en service impossible.") % {"model": model},
        )
    require_current_approval(model, est)
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
    shuffler_commission_check(
        establishment=est,
        model=shuffler.model,
        card_access_protection=card_access_protection,
        malfunction_signal=malfunction_signal,
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


def shuffler_socle_check(shuffler: Shuffler, socle: Socle, socles: Sequence[Socle] = ()) -> None:
    """A shuffler is fixed on a socle of its house that carries no other (nor among ``socles``,
    those taken alongside), at a table whose game allows its type (SHUF-05, SHUF-08, SHUF-09)."""
    if socle.table.establishment_id != shuffler.establishment_id:
        raise ValidationError(_("Ce socle n'appartient pas à cet établissement."))
    if Shuffler.objects.filter(socle=socle).exists() or socle.pk in {s.pk for s in socles}:
        raise ValidationError(_("Ce socle porte déjà un mélangeur."))
    check_shuffler_eligible(shuffler, socle.table)


@transaction.atomic
def shuffler_take_over(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser,
    number: str,
    serial: str,
    model: ApprovedModel,
    machine_type: str,
    embout: bool = False,
    in_service: bool = False,
    card_access_protection: bool = False,
    malfunction_signal: bool = False,
    socle: Socle | None = None,
    source: str,
) -> Shuffler:
    """A shuffler the house already runs, entered from its paper register in its real state:
    registered (SHUF-04), in service after the checks of a putting into service (SHUF-01 to
    SHUF-03, SHUF-11, AUTH-06), fixed on its table's socle (SHUF-05, SHUF-08, SHUF-09). One line of
    the register of the equipment, citing the paper register and page (``source``)."""
    est = establishment
    role = require_role(actor, est, MANAGERS[est.jurisdiction])
    shuffler_identity_check(establishment=est, number=number, serial=serial, model=model)
    if in_service:
        shuffler_commission_check(
            establishment=est,
            model=model,
            card_access_protection=card_access_protection,
            malfunction_signal=malfunction_signal,
        )
    shuffler = Shuffler(
        establishment=est,
        number=number.strip(),
        serial=serial.strip(),
        model=model,
        machine_type=machine_type,
        embout=embout,
        status=AssetStatus.IN_SERVICE if in_service else AssetStatus.REGISTERED,
        card_access_protection=card_access_protection,
        malfunction_signal=malfunction_signal,
    )
    if socle is not None:
        shuffler_socle_check(shuffler, socle)
        shuffler.socle = socle
    save_audited(shuffler, actor=actor, reason="reprise de l'existant")
    yes_no = {True: _("oui"), False: _("non")}
    details = [
        f"{_fr(MachineType(machine_type).label)} {model} — {_fr(_('série'))} {shuffler.serial}",
        _fr(shuffler.get_status_display()),
        *([_fr(socle)] if socle is not None else []),
        *(
            [
                _fr(_("Protection d'accès aux cartes : %(v)s") % {"v": yes_no[card_access_protection]}),
                _fr(_("Signal de dysfonctionnement : %(v)s") % {"v": yes_no[malfunction_signal]}),
            ]
            if in_service
            else []
        ),
        source,
    ]
    _equipment_entry(
        est,
        actor=actor,
        role=role,
        event=_("Reprise de l'existant"),
        equipment=shuffler,
        details=details,
        table_number=socle.table.number if socle is not None else "",
    )
    return shuffler


@transaction.atomic
def shuffler_mount(*, shuffler: Shuffler, socle: Socle, actor: AbstractBaseUser) -> Shuffler:
    """Fix a shuffler on the socle of a table whose game allows its type (SHUF-05, SHUF-08,
    SHUF-09); FR: the table then uses a shuffler from this date (SHUF-11)."""
    shuffler = Shuffler.objects.select_for_update().get(pk=shuffler.pk)
    est = shuffler.establishment
    role = require_role(actor, est, MANAGERS[est.jurisdiction])
    if shuffler.status == AssetStatus.WITHDRAWN:
        raise ValidationError(_("Ce mélangeur est retiré."))
    if shuffler.socle_id is not None:
        raise ValidationError(_("Ce mélangeur est déjà fixé sur un socle : déposez-le d'abord."))
    shuffler_socle_check(shuffler, socle)
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
