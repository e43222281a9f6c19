"""Writes on the table cash. Every service checks the actor's role, applies the texts' rules
(``RuleViolation`` with the catalogue ID), saves through ``save_audited`` (or appends an
append-only row) and writes its register entry in the same transaction."""

import datetime
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ledgers.authority.displays import require_bbj_displays
from ledgers.core.authz import require_role, role_named_by_text, roles_of, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.games import Family
from ledgers.core.models import Establishment, GamingTable, Location, Seance, TableSession
from ledgers.core.roles import DIRECTORATE, Role
from ledgers.incidents.services import incident_open
from ledgers.registers.models import Entry, Register
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, register_language, visa_sign
from ledgers.slots.accounting import month_slot_total

from . import rules, selectors
from .models import (
    BadBeatCount,
    BadBeatStop,
    BadBeatTable,
    BoxHolderDesignation,
    CagnotteCount,
    ChangeurFloat,
    ControlDay,
    Orphan,
    Slip,
    SlipBook,
    TableBox,
    TableCount,
    TableFloat,
    TicketBook,
    TicketStamp,
)
from .registers import (
    BANQUE_TABLES,
    BONS_CAISSE,
    CAGNOTTES_MC,
    CARNET_AVANCES,
    CARNET_CAGNOTTES,
    CARNET_ORPHELINS,
    CARNET_PRELEVEMENTS,
    CARNETS_TICKETS,
    REGISTRE_BBJ,
    REGISTRE_CHANGE,
    REGISTRE_CONTROLE,
)

# FR: the avance and its top-ups are signed by the directeur responsable or a comité member
# (art. 43, COUNT-34); MC: the cash desk issues the somme mise en banque to the chef de table (art. 14).
FLOAT_SIGNERS = {"FR": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE), "MC": (Role.CAISSIER, Role.CAISSIER_PRINCIPAL)}
FLOAT_FIXERS = (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR)  # MC: the amount is fixed by the Direction des Jeux
COUNTERS = (Role.CROUPIER, Role.CHEF_TABLE, Role.CAISSIER, Role.CAISSIER_PRINCIPAL, Role.INSPECTEUR)
CASHIERS = (Role.CAISSIER, Role.CAISSIER_PRINCIPAL)
# FR: certified "exact" by the directeur responsable or a comité member (art. 43, 70); MC: the
# text names nobody, the inspecteur or the Direction des Jeux by default (AMB-16, BP).
CERTIFIERS = {
    "FR": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
    "MC": (Role.INSPECTEUR, Role.SOUS_DIRECTEUR, Role.DIRECTEUR_JEUX),
}
CERTIFICATION_WORDS = ("exact", "certifié exact")
BOOK_KEEPERS = (*DIRECTORATE, Role.CAISSIER_PRINCIPAL)
VOIDERS = (*DIRECTORATE, Role.INSPECTEUR, Role.CAISSIER_PRINCIPAL)
CONTROL_KEEPERS = (Role.CAISSIER_PRINCIPAL, Role.COMPTABILITE)
CONTROL_VISAS = (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)

# Per kind of slip: jurisdiction, requirement, who writes it, who signs it beside the writer, who serves it.
SLIP_RULES: dict[str, dict[str, Any]] = {
    SlipBook.Kind.CHANGE: {
        "jurisdiction": "MC",
        "code": "COUNT-04",
        "writers": (Role.CHEF_TABLE,),
        "supervisors": (Role.INSPECTEUR,),
        "servers": CASHIERS,
    },
    SlipBook.Kind.CHANGEUR: {
        "jurisdiction": "MC",
        "code": "COUNT-06",
        "writers": (Role.CHANGEUR,),
        "supervisors": (Role.INSPECTEUR,),
        "servers": CASHIERS,
    },
    SlipBook.Kind.RAVITAILLEMENT: {
        "jurisdiction": "FR",
        "code": "COUNT-29",
        "writers": (Role.CHANGEUR,),
        "supervisors": (Role.COMITE, Role.CHEF_PARTIE, Role.CHEF_TABLE),
        "servers": CASHIERS,
    },
}


def _session_fields(session: TableSession) -> dict[str, Any]:
    return {
        "date": session.seance.date.isoformat(),
        "seance": str(session.seance),
        "table": session.table.number,
        "table_session": session.pk,
    }


def _write(
    est: Establishment, kind: str, *, actor: AbstractBaseUser, role: str, payload: dict, qualifier: str = ""
) -> Entry:
    return entry_append(register=current_register(est, kind, qualifier), actor=actor, role=role, payload=payload)


def carnet_of(table: GamingTable) -> tuple[str, str]:
    """(kind, qualifier) of the volume a table's floats and counts go to: FR its own carnet
    d'avances numbered like the table (COUNT-49), MC the establishment's register."""
    if table.establishment.jurisdiction == "FR":
        return CARNET_AVANCES.code, table.number
    return BANQUE_TABLES.code, ""


def _carnet_entry(session: TableSession, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    kind, qualifier = carnet_of(session.table)
    with register_language():
        body = {**_session_fields(session), **payload, "signed_by": f"{display_name(actor)} ({Role(role).label})"}
    return _write(session.table.establishment, kind, actor=actor, role=role, payload=body, qualifier=qualifier)


# --- floats -----------------------------------------------------------------------------------


@transaction.atomic
def float_amount_fix(*, table: GamingTable, amount: Decimal, actor: AbstractBaseUser) -> Establishment:
    """MC: the Direction des Jeux fixes the somme mise en banque of a table (COUNT-01, SET-06)."""
    est = Establishment.objects.select_for_update().get(pk=table.establishment_id)
    require_role(actor, est, FLOAT_FIXERS)
    if est.jurisdiction != "MC":
        raise ValidationError(_("En France l'avance minimale résulte de l'article 49 : rien à fixer ici."))
    fixed = dict(est.options.get("SET-06") or {})
    fixed[table.number] = str(rules.money(amount))
    est.options = {**est.options, "SET-06": fixed}
    return save_audited(est, actor=actor, reason=f"somme mise en banque de la table {table.number}")


@transaction.atomic
def float_record(
    *,
    session: TableSession,
    breakdown: Iterable[dict],
    actor: AbstractBaseUser,
    kind: str = TableFloat.Kind.INITIAL,
    box_number: str = "",
    transport_box: str = "",
    counted_by: str = "",
    called_aloud: bool = False,
    receiver: AbstractBaseUser | None = None,
    carry_note: str = "",
    carnet_on_table: bool = False,
) -> TableFloat:
    """The float of a table-partie, with its nomenclature, written in the table's carnet. FR: the
    box holder who receives it is the chef de table or the employee designated for the partie
    (COUNT-13); at boule-type games the carnet stays on the table (COUNT-14)."""
    session = TableSession.objects.select_for_update().select_related("seance", "table").get(pk=session.pk)
    table, est = session.table, session.seance.establishment
    jurisdiction = est.jurisdiction
    if session.status == TableSession.Status.CLOSED:
        raise ValidationError(_("La partie de cette table est terminée."))
    lines = rules.clean_breakdown(breakdown)
    amount = rules.breakdown_total(lines)
    role = role_named_by_text(
        actor,
        est,
        FLOAT_SIGNERS[jurisdiction],
        "COUNT-34" if jurisdiction == "FR" else "COUNT-01",
        _("L'avance est signée par le directeur responsable ou un membre du comité de direction.")
        if jurisdiction == "FR"
        else _("La somme mise en banque est remise par la caisse."),
    )
    if rules.has_banknotes(lines):
        raise RuleViolation(
            "COUNT-34" if jurisdiction == "FR" else "COUNT-01",
            _("L'avance ne contient que des jetons et des plaques : aucun billet."),
        )
    initial = session.floats.filter(kind=TableFloat.Kind.INITIAL).first()
    if kind == TableFloat.Kind.INITIAL and initial is not None:
        raise ValidationError(_("L'avance initiale de cette partie est déjà inscrite."))
    if kind == TableFloat.Kind.TOP_UP and initial is None:
        raise ValidationError(_("Une avance complémentaire suppose l'avance initiale."))
    flags: list[str] = []
    if jurisdiction == "FR":
        required = _check_fr_avance(
            session,
            amount,
            kind=kind,
            initial=initial,
            box_number=box_number,
            counted_by=counted_by,
            called_aloud=called_aloud,
            flags=flags,
        )
        if table.game in rules.BOULE_GROUP and kind == TableFloat.Kind.INITIAL and not carnet_on_table:
            raise RuleViolation(
                "COUNT-14",
                _(
                    "Le carnet d'avances reste sur la table devant le chef de partie ou le "
                    "chef de table : confirmez-le à l'ouverture."
                ),
            )
        if (
            receiver is not None
            and Role.CHEF_TABLE not in roles_of(receiver, est)
            and not (BoxHolderDesignation.objects.filter(table_session=session, employee=receiver).exists())
        ):
            raise RuleViolation(
                "COUNT-13",
                _(
                    "La caisse est remise au chef de table ou, à défaut, à l'employé de jeux "
                    "désigné pour cette table et cette séance."
                ),
            )
    else:
        required = _check_mc_bank(session, amount, kind=kind, receiver=receiver)
    previous = selectors.previous_count(table, session) if kind == TableFloat.Kind.INITIAL else None
    if previous is not None and previous.encaisse != amount:
        # Each closing count is the next opening of the table: a difference is explained.
        if not carry_note.strip():
            raise ValidationError(
                {
                    "carry_note": _(
                        "L'avance (%(amount)s €) diffère de l'encaisse de la séance précédente (%(previous)s €) : "
                        "expliquez l'écart."
                    )
                    % {"amount": amount, "previous": previous.encaisse}
                }
            )
        flags.append(str(_("Écart avec la comptée précédente : %(note)s") % {"note": carry_note.strip()}))
    table_float = TableFloat.objects.create(
        table_session=session,
        kind=kind,
        amount=amount,
        breakdown=lines,
        required=required,
        box_number=box_number or table.number,
        transport_box=transport_box.strip(),
        counted_by=counted_by.strip(),
        called_aloud=called_aloud,
        carry_note=carry_note.strip(),
        recorded_at=timezone.now(),
        signed_by=actor,
        signed_role=role,
        received_by=receiver,
        flags=flags,
        carnet_on_table=carnet_on_table,
    )
    with register_language():
        event = TableFloat.Kind(kind).label if jurisdiction == "FR" else _("Somme mise en banque")
        payload = {
            "event": str(event),
            "amount": str(amount),
            "required": str(required),
            "breakdown": rules.breakdown_text(lines),
            "box": table_float.box_number,
            "transport_box": table_float.transport_box,
            "counted_by": table_float.counted_by,
            "called_aloud": called_aloud,
            "flags": flags,
            "received_by": display_name(receiver) if receiver else "",
            "carnet_on_table": carnet_on_table,
        }
    _carnet_entry(session, actor=actor, role=role, payload=payload)
    return table_float


@transaction.atomic
def table_box_record(
    *,
    table: GamingTable,
    box_id: str,
    key_reference: str,
    actor: AbstractBaseUser,
    banknotes_accepted: bool = False,
    coffret_id: str = "",
    coffret_key_reference: str = "",
) -> TableBox:
    """FR: the locked metal box built into a contrepartie table and, when the table accepts
    banknotes, the locked coffret inside it, written in the table's carnet (art. 49, COUNT-37)."""
    est = table.establishment
    if est.jurisdiction != "FR" or table.game_info.family != Family.CONTREPARTIE:
        raise ValidationError(_("La caisse incorporée est celle d'une table de contrepartie française."))
    role = require_role(actor, est, FLOAT_SIGNERS["FR"])
    if not box_id.strip() or not key_reference.strip():
        raise RuleViolation(
            "COUNT-37",
            _("La caisse métallique incorporée à la table se ferme à clé : indiquez son numéro et la clé du volet."),
        )
    if banknotes_accepted and (not coffret_id.strip() or not coffret_key_reference.strip()):
        raise RuleViolation(
            "COUNT-37",
            _("La table accepte les billets : un coffret à billets amovible fermant à clé est placé dans la caisse."),
        )
    box = TableBox.objects.create(
        table=table,
        box_id=box_id.strip(),
        key_reference=key_reference.strip(),
        banknotes_accepted=banknotes_accepted,
        coffret_id=coffret_id.strip() if banknotes_accepted else "",
        coffret_key_reference=coffret_key_reference.strip() if banknotes_accepted else "",
        recorded_by=actor,
        recorded_at=timezone.now(),
    )
    with register_language():
        coffret = (
            str(_("coffret à billets %(id)s, clé %(key)s") % {"id": box.coffret_id, "key": box.coffret_key_reference})
            if banknotes_accepted
            else str(_("pas de billets à la table"))
        )
        payload = {
            "date": timezone.localdate().isoformat(),
            "table": table.number,
            "event": str(_("Caisse incorporée à la table")),
            "breakdown": str(
                _("caisse %(id)s, clé %(key)s ; %(coffret)s")
                % {"id": box.box_id, "key": box.key_reference, "coffret": coffret}
            ),
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
        }
    kind, qualifier = carnet_of(table)
    _write(est, kind, actor=actor, role=role, payload=payload, qualifier=qualifier)
    return box


def _check_fr_avance(
    session: TableSession,
    amount: Decimal,
    *,
    kind: str,
    initial: TableFloat | None,
    box_number: str,
    counted_by: str,
    called_aloud: bool,
    flags: list[str],
) -> Decimal:
    """FR arts. 42, 43, 49: the rules of an avance; returns the art. 49 minimum."""
    table = session.table
    if box_number != table.number:
        raise RuleViolation(
            "COUNT-33",
            _("La caisse n° %(box)s ne porte pas le numéro de la table (%(table)s).")
            % {"box": box_number or "—", "table": table.number},
        )
    if not counted_by.strip() or not called_aloud:
        raise RuleViolation(
            "COUNT-34", _("L'avance est comptée par le croupier et annoncée à haute voix avant d'être inscrite.")
        )
    if kind == TableFloat.Kind.TOP_UP:
        if amount != initial.amount:
            raise RuleViolation(
                "COUNT-33",
                _("Une nouvelle avance est égale à l'avance initiale (%(initial)s €).") % {"initial": initial.amount},
            )
        return initial.required
    if not TableBox.objects.filter(table=table).exists():
        raise RuleViolation(
            "COUNT-37",
            _(
                "La table %(table)s n'entre en service qu'avec sa caisse métallique "
                "incorporée fermant à clé : inscrivez-la d'abord."
            )
            % {"table": table.number},
        )
    required = selectors.minimum_avance(session)
    if amount < required:
        raise RuleViolation(
            "COUNT-12",
            _(
                "Avance de %(amount)s € inférieure au minimum de l'article 49 : %(multiple)s × %(stake)s € = "
                "%(required)s €."
            )
            % {
                "amount": amount,
                "multiple": selectors.art_49_multiple(table),
                "stake": session.minimum_stake,
                "required": required,
            },
        )
    same_day = selectors.initial_floats_on(table.establishment, session.seance.date)
    earlier = same_day.filter(table_session__table=table).first()
    if earlier is not None and earlier.amount != amount:
        raise RuleViolation(
            "COUNT-33",
            _("L'avance de la table, fixée à %(fixed)s € à l'ouverture, ne peut varier dans la journée.")
            % {"fixed": earlier.amount},
        )
    if table.game in rules.BOULE_GROUP:
        other = same_day.filter(table_session__table__game=table.game).exclude(table_session__table=table).first()
        if other is not None and other.amount != amount:
            raise RuleViolation(
                "COUNT-14",
                _("Les avances de %(game)s sont uniformes pour toutes les caisses : %(fixed)s €.")
                % {"game": table.get_game_display(), "fixed": other.amount},
            )
    season_first = selectors.season_first_float(table, session.seance.date)
    if season_first is not None and season_first.required != required:
        flags.append(
            str(
                _("COUNT-37 : minimum d'avance modifié en cours d'exercice (%(before)s € → %(now)s €).")
                % {"before": season_first.required, "now": required}
            )
        )
    return required


def _check_mc_bank(session: TableSession, amount: Decimal, *, kind: str, receiver: AbstractBaseUser | None) -> Decimal:
    """MC art. 14: the amount fixed by the Direction des Jeux, received by the chef de table."""
    if kind != TableFloat.Kind.INITIAL:
        raise ValidationError(_("La somme mise en banque est remise une fois, au début de la séance."))
    fixed = selectors.fixed_bank(session.table)
    if fixed is None:
        raise RuleViolation(
            "COUNT-01",
            _("La Direction des Jeux n'a pas fixé la somme mise en banque de la table %(table)s.")
            % {"table": session.table.number},
        )
    if amount != fixed:
        raise RuleViolation(
            "COUNT-01",
            _("La nomenclature totalise %(amount)s € ; la somme fixée pour la table est de %(fixed)s €.")
            % {"amount": amount, "fixed": fixed},
        )
    if receiver is None:
        raise ValidationError({"receiver": _("Le chef de table qui reçoit la somme signe la remise.")})
    role_named_by_text(
        receiver,
        session.table.establishment,
        (Role.CHEF_TABLE,),
        "COUNT-01",
        _("La somme mise en banque est reçue par le chef de table."),
    )
    return fixed


# --- slips ------------------------------------------------------------------------------------


@transaction.atomic
def slip_book_open(
    *,
    establishment: Establishment,
    kind: str,
    number: str,
    first_number: int,
    last_number: int,
    actor: AbstractBaseUser,
) -> SlipBook:
    require_role(actor, establishment, BOOK_KEEPERS)
    if SLIP_RULES[kind]["jurisdiction"] != establishment.jurisdiction:
        raise ValidationError(_("Ce carnet de bons n'existe pas dans cette juridiction."))
    if not number.strip() or not 0 < first_number <= last_number:
        raise ValidationError(_("Indiquez le numéro du carnet et une série de bons croissante."))
    book = SlipBook(
        establishment=establishment,
        kind=kind,
        number=number.strip(),
        first_number=first_number,
        last_number=last_number,
        opened_at=timezone.now(),
    )
    return save_audited(book, actor=actor, reason="mise en service")


def _slip_payload(slip: Slip, event, **extra) -> dict[str, Any]:
    session = slip.table_session
    with register_language():
        return {
            "book": slip.book.number,
            "number": slip.number,
            "event": str(event),
            "table": session.table.number if session else "",
            "seance": str(session.seance) if session else "",
            "requested": rules.breakdown_text(slip.requested) if slip.requested else "",
            "handed": rules.breakdown_text(slip.handed) if slip.handed else "",
            "total": str(slip.total) if slip.total is not None else "",
            **extra,
        }


def _next_number(book: SlipBook) -> int:
    last = book.slips.aggregate(last=Max("number"))["last"]
    return book.first_number if last is None else last + 1


@transaction.atomic
def slip_write(
    *,
    book: SlipBook,
    number: int,
    session: TableSession,
    requested: Iterable[dict],
    handed: Iterable[dict],
    actor: AbstractBaseUser,
    supervisor: AbstractBaseUser | None,
    runner: str = "",
    currency: str = "EUR",
) -> Slip:
    """A numbered slip: chips and plaques requested against what is handed over, signed by its
    writer and by the supervisor the text names (COUNT-04, COUNT-06, COUNT-29). FR: no foreign
    currency changed at a table (COUNT-27); at a cercle table only its changeur, whose cash box is
    written in the carnet modèle 11, changes (COUNT-28)."""
    book = SlipBook.objects.select_for_update().get(pk=book.pk)
    est, spec = book.establishment, SLIP_RULES[book.kind]
    code = spec["code"]
    session = TableSession.objects.select_related("seance", "table").get(pk=session.pk)
    if session.seance.establishment_id != est.pk:
        raise ValidationError(_("Cette table n'appartient pas à l'établissement du carnet."))
    role = role_named_by_text(
        actor,
        est,
        spec["writers"],
        code,
        _("Ce bon est rédigé par %(roles)s.") % {"roles": ", ".join(str(Role(r).label) for r in spec["writers"])},
    )
    if session.status != TableSession.Status.OPEN:
        # No change at a table that is not working (art. 16); bons are written during the partie (art. 37).
        raise RuleViolation(
            "COUNT-02" if est.jurisdiction == "MC" else code,
            _("La table %(table)s n'est pas en jeu : aucun bon ne peut être rédigé.") % {"table": session.table.number},
        )
    if supervisor is None or supervisor.pk == actor.pk:
        raise RuleViolation(
            code,
            _("Le bon est contresigné par %(roles)s avant d'être servi.")
            % {"roles": ", ".join(str(Role(r).label) for r in spec["supervisors"])},
        )
    supervisor_role = role_named_by_text(
        supervisor, est, spec["supervisors"], code, _("Le contresignataire n'a pas la qualité que le texte exige.")
    )
    if not book.first_number <= number <= book.last_number:
        raise ValidationError(
            {
                "number": _("Le bon n° %(n)s n'appartient pas au carnet %(book)s (%(first)s à %(last)s).")
                % {"n": number, "book": book.number, "first": book.first_number, "last": book.last_number}
            }
        )
    if book.slips.filter(number=number).exists():
        raise RuleViolation(
            code, _("Le bon n° %(n)s du carnet %(book)s a déjà été utilisé.") % {"n": number, "book": book.number}
        )
    expected = _next_number(book)
    if number != expected:
        raise RuleViolation(
            code,
            _("Le prochain bon du carnet est le n° %(expected)s : annulez d'abord les numéros sautés (série continue).")
            % {"expected": expected},
        )
    requested, handed = rules.clean_breakdown(requested), rules.clean_breakdown(handed)
    if rules.has_banknotes(requested):
        raise RuleViolation(
            "COUNT-03" if est.jurisdiction == "MC" else "COUNT-27",
            _("Seuls des jetons et des plaques sont demandés à la caisse."),
        )
    total, handed_total = rules.breakdown_total(requested), rules.breakdown_total(handed)
    if total != handed_total:
        raise RuleViolation(
            code,
            _("Valeur demandée (%(requested)s €) différente de la valeur remise en échange (%(handed)s €).")
            % {"requested": total, "handed": handed_total},
        )
    if est.jurisdiction == "FR":
        if currency.strip().upper() != "EUR":
            raise RuleViolation("COUNT-27", _("Aucune opération de change de devises étrangères à table."))
        if (
            session.table.game_info.family == Family.CERCLE
            and not ChangeurFloat.objects.filter(table_session=session, changeur=actor).exists()
        ):
            raise RuleViolation(
                "COUNT-28",
                _(
                    "Seul le changeur de la table %(table)s, dont la caisse est inscrite au "
                    "carnet modèle 11, opère le change."
                )
                % {"table": session.table.number},
            )
    slip = save_audited(
        Slip(
            book=book,
            number=number,
            table_session=session,
            requested=requested,
            handed=handed,
            total=total,
            written_by=actor,
            written_at=timezone.now(),
            supervisor=supervisor,
            supervisor_role=supervisor_role,
            runner=runner.strip(),
        ),
        actor=actor,
        reason="rédaction",
    )
    signatures = [
        f"{display_name(actor)} ({Role(role).label})",
        f"{display_name(supervisor)} ({Role(supervisor_role).label})",
    ]
    _write(
        est,
        BONS_CAISSE.code,
        actor=actor,
        role=role,
        payload=_slip_payload(slip, _("Rédaction"), signatures=[str(s) for s in signatures]),
    )
    return slip


@transaction.atomic
def slip_serve(*, slip: Slip, desk: Location, actor: AbstractBaseUser) -> Slip:
    """The cashier serves a signed slip and signs it; FR: the exchange goes to the change
    register of the desk, which must be open (COUNT-26)."""
    slip = Slip.objects.select_for_update().select_related("book__establishment").get(pk=slip.pk)
    est, spec = slip.book.establishment, SLIP_RULES[slip.book.kind]
    role = role_named_by_text(actor, est, spec["servers"], spec["code"], _("Le bon est servi par un caissier."))
    if desk.establishment_id != est.pk:
        raise ValidationError(_("Cette caisse n'appartient pas à l'établissement."))
    if slip.status != Slip.Status.WRITTEN:
        raise ValidationError(_("Ce bon n'est pas à servir (%(status)s).") % {"status": slip.get_status_display()})
    slip.status, slip.served_by, slip.served_at, slip.desk = Slip.Status.SERVED, actor, timezone.now(), desk
    save_audited(slip, actor=actor, reason="service à la caisse")
    signer = f"{display_name(actor)} ({Role(role).label})"
    if est.jurisdiction == "FR":
        with register_language():
            change = {
                "at": est.localtime(slip.served_at).strftime("%Y-%m-%d %H:%M"),
                "operation": str(_("Ravitaillement du changeur")),
                "reference": str(slip),
                "given": rules.breakdown_text(slip.requested),
                "received": rules.breakdown_text(slip.handed),
                "total": str(slip.total),
                "cashier": signer,
            }
        _write(est, REGISTRE_CHANGE.code, actor=actor, role=role, payload=change, qualifier=desk.code)
    _write(
        est,
        BONS_CAISSE.code,
        actor=actor,
        role=role,
        payload=_slip_payload(slip, _("Servi à la caisse"), signatures=[signer], desk=desk.code),
    )
    return slip


@transaction.atomic
def slip_void(
    *, book: SlipBook, number: int, actor: AbstractBaseUser, cosigner: AbstractBaseUser | None, reason: str
) -> Slip:
    """Void a written slip, or an unused number of the series: two signatures, two persons."""
    book = SlipBook.objects.select_for_update().get(pk=book.pk)
    est = book.establishment
    role = require_role(actor, est, VOIDERS)
    if cosigner is None or cosigner.pk == actor.pk:
        raise ValidationError({"cosigner": _("L'annulation d'un bon porte deux signatures de deux personnes.")})
    cosigner_role = require_role(cosigner, est, VOIDERS)
    if not reason.strip():
        raise ValidationError({"reason": _("Indiquez le motif de l'annulation.")})
    slip = book.slips.filter(number=number).first()
    if slip is None:
        if not book.first_number <= number <= book.last_number:
            raise ValidationError({"number": _("Ce numéro n'appartient pas au carnet.")})
        slip = Slip(book=book, number=number, written_at=timezone.now())
    elif slip.status != Slip.Status.WRITTEN:
        raise ValidationError(_("Seul un bon non servi peut être annulé."))
    signatures = [
        f"{display_name(actor)} ({Role(role).label})",
        f"{display_name(cosigner)} ({Role(cosigner_role).label})",
    ]
    slip.status, slip.void_reason, slip.voided_by = Slip.Status.VOID, reason.strip(), [str(s) for s in signatures]
    save_audited(slip, actor=actor, reason="annulation")
    _write(
        est,
        BONS_CAISSE.code,
        actor=actor,
        role=role,
        payload=_slip_payload(slip, _("Annulé"), signatures=slip.voided_by, reason=slip.void_reason),
    )
    return slip


@transaction.atomic
def slips_centralise(*, seance: Seance, desk: Location, actor: AbstractBaseUser) -> int:
    """FR: the bons served during the séance are centralised in one desk at its end (art. 37)."""
    est = seance.establishment
    role = require_role(actor, est, CASHIERS)
    pending = list(selectors.uncentralised_slips(seance).select_for_update())
    now = timezone.now()
    for slip in pending:
        slip.centralised_at = now
        save_audited(slip, actor=actor, reason=f"centralisation à la caisse {desk.code}")
    if pending:
        with register_language():
            payload = {
                "book": "",
                "number": "",
                "event": str(_("Centralisation des bons de la séance")),
                "seance": str(seance),
                "table": "",
                "requested": "",
                "handed": "",
                "total": str(sum((s.total for s in pending), Decimal("0.00"))),
                "slips": [str(s) for s in pending],
                "desk": desk.code,
                "signatures": [f"{display_name(actor)} ({Role(role).label})"],
            }
        _write(est, BONS_CAISSE.code, actor=actor, role=role, payload=payload)
    return len(pending)


# --- end-of-séance count ----------------------------------------------------------------------


@transaction.atomic
def count_record(
    *,
    session: TableSession,
    breakdown: Iterable[dict],
    actor: AbstractBaseUser,
    tips: Decimal | None = None,
    present: Sequence[str] = (),
    called_aloud: bool = False,
    count_room: bool = False,
    cctv_reference: str = "",
) -> TableCount:
    """One of the two blind counts of a table's encaisse at the end of the partie. The second
    counter is another person; the totals are compared only when both are in, and a difference
    is escalated to the certifier. FR: the first count gives the table's tips, handled like the
    encaisse (COUNT-36); the count-room route needs the police's validation of the procedure
    (SET-44) and the CCTV recording reference (COUNT-35)."""
    session = TableSession.objects.select_for_update().select_related("seance", "table").get(pk=session.pk)
    est = session.seance.establishment
    require_role(actor, est, COUNTERS)
    if session.status != TableSession.Status.CLOSED:
        # The encaisse (and MC the banknote box) is counted only at the end of the partie (art. 17.2, 43).
        raise RuleViolation(
            "COUNT-15" if est.jurisdiction == "FR" else "COUNT-05",
            _("L'encaisse de la table %(table)s se compte à la fin de la partie.") % {"table": session.table.number},
        )
    if not session.floats.exists():
        raise ValidationError(_("Aucune avance n'a été inscrite pour cette partie."))
    lines = rules.clean_breakdown(breakdown)
    total = rules.breakdown_total(lines)
    count = TableCount.objects.select_for_update().filter(table_session=session).first()
    if count is None:
        if est.jurisdiction == "FR":
            _check_fr_count_route(est, tips=tips, count_room=count_room, cctv_reference=cctv_reference, lines=lines)
        count = TableCount(
            table_session=session,
            first_by=actor,
            first_breakdown=lines,
            first_total=total,
            tips=rules.money(tips or 0),
            present=[p.strip() for p in present if p.strip()],
            called_aloud=called_aloud,
            count_room=count_room,
            cctv_reference=cctv_reference.strip(),
        )
        return save_audited(count, actor=actor, reason="premier comptage")
    if count.status != TableCount.Status.AWAITING_SECOND:
        raise ValidationError(_("Les deux comptages de cette table sont déjà faits."))
    if count.first_by_id == actor.pk:
        raise ValidationError(_("Le second comptage est fait par une autre personne."))
    count.second_by, count.second_breakdown, count.second_total = actor, lines, total
    if total == count.first_total:
        count.status, count.encaisse = TableCount.Status.AGREED, total
    else:
        count.status = TableCount.Status.ESCALATED
    return save_audited(count, actor=actor, reason="second comptage")


def _check_fr_count_route(
    est: Establishment, *, tips: Decimal | None, count_room: bool, cctv_reference: str, lines: list[dict]
) -> None:
    if tips is None:
        raise RuleViolation(
            "COUNT-36",
            _("Les pourboires de la table sont comptés et inscrits avec l'encaisse (zéro s'il n'y en a pas)."),
        )
    if count_room:
        if not (est.setting("SET-44") or {}).get("reference"):
            raise RuleViolation(
                "COUNT-35",
                _(
                    "La comptée en salle de comptage suppose la validation préalable de la "
                    "procédure par le service de police judiciaire territorialement "
                    "compétent."
                ),
            )
        if not cctv_reference.strip():
            raise RuleViolation(
                "COUNT-35", _("Indiquez la caméra et l'enregistrement de vidéoprotection de la comptée.")
            )
        if not rules.has_banknotes(lines):
            # Art. 43 opens the route only "lorsque des espèces ont été changées à la table": the
            # banknotes of the coffret in the encaisse are that change's record.
            raise RuleViolation(
                "COUNT-35",
                _(
                    "La comptée en salle de comptage ne vaut que pour une table où des "
                    "espèces ont été changées pendant la séance : l'encaisse ne contient "
                    "aucun billet."
                ),
            )


@transaction.atomic
def count_room_validation_record(
    *, establishment: Establishment, reference: str, validated_on, service: str, actor: AbstractBaseUser
) -> Establishment:
    """FR: the territorial judicial police service's prior validation of the count-room procedure
    (art. 43, COUNT-35, SET-44), recorded by the directeur responsable."""
    est = Establishment.objects.select_for_update().get(pk=establishment.pk)
    require_role(actor, est, (Role.DIRECTEUR_RESPONSABLE,))
    if est.jurisdiction != "FR" or not reference.strip() or not service.strip():
        raise ValidationError(_("Indiquez la référence de la validation et le service qui l'a donnée."))
    est.options = {
        **est.options,
        "SET-44": {
            "reference": reference.strip(),
            "service": service.strip(),
            "validated_on": validated_on.isoformat(),
        },
    }
    return save_audited(est, actor=actor, reason="validation de la salle de comptage")


@transaction.atomic
def count_certify(
    *,
    count: TableCount,
    actor: AbstractBaseUser,
    words: str,
    resolution: str = "",
    encaisse: Decimal | None = None,
    insurance_premiums: Decimal | None = None,
) -> TableCount:
    """The certification of the encaisse, written in the carnet (COUNT-15, COUNT-50): FR "exact"
    by the directeur responsable or a comité member, in the presence of the table employees and
    a cashier. A difference between the two counts is settled here, with a note. MC trente et
    quarante: the refait insurance premiums are a table receipt, entered as a separate line of
    the table result (COUNT-10)."""
    count = (
        TableCount.objects.select_for_update()
        .select_related("table_session__seance", "table_session__table")
        .get(pk=count.pk)
    )
    session = count.table_session
    est = session.seance.establishment
    fr = est.jurisdiction == "FR"
    role = role_named_by_text(
        actor,
        est,
        CERTIFIERS[est.jurisdiction],
        "COUNT-15" if fr else "COUNT-05",
        _("L'encaisse est certifiée par le directeur responsable ou un membre du comité de direction.")
        if fr
        else _("La comptée est signée par l'inspecteur ou la Direction des Jeux."),
    )
    if count.status == TableCount.Status.AWAITING_SECOND:
        raise ValidationError(_("Le second comptage n'est pas encore fait."))
    if count.status == TableCount.Status.CERTIFIED:
        raise ValidationError(_("Cette encaisse est déjà certifiée."))
    if actor.pk in (count.first_by_id, count.second_by_id):
        raise ValidationError(_("Celui qui certifie n'est pas l'un des deux compteurs."))
    words = " ".join(words.lower().split())
    if fr:
        if words not in CERTIFICATION_WORDS:
            raise RuleViolation(
                "COUNT-50", _("La mention est « exact » (ou « certifié exact ») suivie de la signature.")
            )
        if not count.present or not count.called_aloud:
            raise RuleViolation(
                "COUNT-15",
                _(
                    "L'encaisse est annoncée à haute voix en présence des employés de la "
                    "table, dont les noms sont inscrits."
                ),
            )
        counters = [count.first_by, count.second_by]
        if not any(roles_of(user, est) & set(CASHIERS) for user in counters):
            raise RuleViolation(
                "COUNT-15", _("Un caissier assiste à la comptée : l'un des deux comptages est le sien.")
            )
    if count.status == TableCount.Status.ESCALATED:
        if not resolution.strip() or encaisse is None:
            raise ValidationError(
                {
                    "resolution": _(
                        "Les deux comptages diffèrent (%(first)s € / %(second)s €) : recomptez et indiquez l'encaisse "
                        "retenue et l'explication."
                    )
                    % {"first": count.first_total, "second": count.second_total}
                }
            )
        count.encaisse, count.resolution = rules.money(encaisse), resolution.strip()
    # GAME-24: the refait insurance premiums (1 % of the insured stakes) are a table receipt.
    refait = not fr and session.table.game == "trente_quarante"
    if refait and insurance_premiums is None:
        raise RuleViolation(
            "COUNT-10",
            _(
                "Les primes d'assurance refait (1 %) sont une recette de la table : "
                "inscrivez-les sur leur ligne (zéro s'il n'y en a pas)."
            ),
        )
    if not refait and insurance_premiums is not None:
        raise ValidationError(
            {"insurance_premiums": _("Seul le trente et quarante monégasque a des primes d'assurance refait.")}
        )
    count.insurance_premiums = rules.money(insurance_premiums) if refait else None
    floats = sum((f.amount for f in session.floats.all()), Decimal("0.00"))
    count.result = count.encaisse - floats
    count.status, count.certified_by, count.certified_role = TableCount.Status.CERTIFIED, actor, role
    count.certification, count.certified_at = words or "vu", timezone.now()
    save_audited(count, actor=actor, reason="certification")
    with register_language():
        payload = {
            "event": str(_("Encaisse de fin de séance")),
            "amount": str(count.encaisse),
            "breakdown": rules.breakdown_text(
                count.second_breakdown if count.encaisse == count.second_total else count.first_breakdown
            ),
            "avances": str(floats),
            "result": str(count.result),
            "tips": str(count.tips),
            "count_room": count.cctv_reference if count.count_room else "",
            "present": count.present,
            "counted_by": [display_name(u) for u in (count.first_by, count.second_by)],
            "certification": count.certification,
            "flags": [count.resolution] if count.resolution else [],
        }
    _carnet_entry(session, actor=actor, role=role, payload=payload)
    if refait:
        with register_language():
            line = {
                "event": str(_("Primes d'assurance refait (recette de la table)")),
                "amount": str(count.insurance_premiums),
                "breakdown": "",
            }
        _carnet_entry(session, actor=actor, role=role, payload=line)
    return count


# --- registre de contrôle (modèle 12) -----------------------------------------------------------


@transaction.atomic
def control_day_close(*, establishment: Establishment, date, actor: AbstractBaseUser) -> ControlDay:
    """Carry the day's certified results, table by table and séance by séance, to the registre de
    contrôle, with a running total, and close the day in words (COUNT-50, COUNT-56). No direct
    entry exists: every line comes from a certified carnet."""
    est = Establishment.objects.select_for_update().get(pk=establishment.pk)
    role = require_role(actor, est, CONTROL_KEEPERS)
    if est.jurisdiction != "FR":
        raise ValidationError(_("Le registre de contrôle est un registre français."))
    if ControlDay.objects.filter(establishment=est, date=date).exists():
        raise ValidationError(_("Cette journée est déjà arrêtée."))
    pending = ControlDay.objects.filter(establishment=est, date__lt=date, status=ControlDay.Status.CLOSED).first()
    if pending is not None:
        raise RuleViolation(
            "COUNT-56",
            _("La journée du %(day)s n'a pas reçu ses deux visas : la journée suivante ne peut être reportée.")
            % {"day": pending},
        )
    sessions = list(selectors.sessions_with_floats(est, date))
    cagnottes = list(selectors.cagnottes_on(est, date))
    devices = selectors.device_days_to_carry(est, date)
    cercle_devices = list(selectors.cercle_device_days_on(est, date))
    if not sessions and not cagnottes and not devices and not cercle_devices:
        raise ValidationError(_("Aucune table n'a joué ce jour-là."))
    unvisaed = [device.number for device, visaed in devices if visaed is None]
    if unvisaed:
        raise RuleViolation(
            "COUNT-51",
            _(
                "Registre de comptabilité modèle 10 bis non visé ce jour par un membre du "
                "comité de direction : %(devices)s."
            )
            % {"devices": ", ".join(unvisaed)},
        )
    uncertified_devices = [day.device.number for day in cercle_devices if day.certified_at is None]
    if uncertified_devices:
        raise RuleViolation(
            "COUNT-55",
            _("Carnet modèle 11 quater non certifié exact par un membre du comité de direction : %(devices)s.")
            % {"devices": ", ".join(uncertified_devices)},
        )
    uncertified = [s for s in sessions if not selectors.is_certified(s)]
    if uncertified:
        raise RuleViolation(
            "COUNT-50",
            _(
                "Résultats non certifiés au carnet d'avances : %(tables)s. Seul un carnet "
                "arrêté et certifié est reporté."
            )
            % {"tables": ", ".join(f"{s.table.number} ({s.seance})" for s in uncertified)},
        )
    uncounted = [c for c in cagnottes if c.status != CagnotteCount.Status.COUNTED]
    if uncounted:
        raise RuleViolation(
            "COUNT-53",
            _("Cagnottes non comptées au carnet modèle 11 : %(tables)s.")
            % {"tables": ", ".join(c.table_session.table.number for c in uncounted)},
        )
    # Contrepartie results from the carnets d'avances, cercle products from col. 15 of modèle 11,
    # each table on its own line: no compensation between them (art. 71, 72).
    lines = sorted(
        [(s, s.count.result) for s in sessions] + [(c.table_session, c.retained) for c in cagnottes],
        key=lambda line: (line[0].seance.opened_at, line[0].table.number),
    )
    register = current_register(est, REGISTRE_CONTROLE.code)
    totals = {Family.CONTREPARTIE: Decimal("0.00"), Family.CERCLE: Decimal("0.00")}
    carried = Decimal("0.00")
    with register_language():
        for session, result in lines:
            carried += result
            totals[session.table.game_info.family] += result
            entry_append(
                register=register,
                actor=actor,
                role=role,
                payload={
                    **_session_fields(session),
                    "game": str(session.table.get_game_display()),
                    "family": session.table.game_info.family,
                    "result": str(result),
                    "carried": str(carried),
                },
            )
        # Electronic contrepartie devices: the product of each visaed modèle 10 bis day (art. 70-1).
        for device, visaed in devices:
            carried += visaed.product
            totals[Family.CONTREPARTIE] += visaed.product
            entry_append(
                register=register,
                actor=actor,
                role=role,
                payload={
                    "date": date.isoformat(),
                    "table": device.number,
                    "game": device.game,
                    "family": Family.CONTREPARTIE,
                    "result": str(visaed.product),
                    "carried": str(carried),
                },
            )
        # Electronic cercle devices: the levies certified in carnet 11 quater (art. 71-1).
        for day in cercle_devices:
            carried += day.levies
            totals[Family.CERCLE] += day.levies
            entry_append(
                register=register,
                actor=actor,
                role=role,
                payload={
                    "date": date.isoformat(),
                    "table": day.device.number,
                    "game": day.device.game,
                    "family": Family.CERCLE,
                    "result": str(day.levies),
                    "carried": str(carried),
                },
            )
    total = carried
    previous = selectors.previous_control_day(est, date)
    season_total = total + (previous.season_total if previous else Decimal("0.00"))
    day = save_audited(
        ControlDay(
            establishment=est,
            date=date,
            contrepartie_total=totals[Family.CONTREPARTIE],
            cercle_total=totals[Family.CERCLE],
            total=total,
            total_words=rules.amount_in_words(total),
            season_total=season_total,
            closed_by=actor,
            closed_at=timezone.now(),
        ),
        actor=actor,
        reason="arrêté de la journée",
    )
    with register_language():
        entry_append(
            register=register,
            actor=actor,
            role=role,
            payload={
                "date": date.isoformat(),
                "event": str(_("Arrêté de la journée")),
                "result": str(total),
                "carried": str(season_total),
                "contrepartie": str(day.contrepartie_total),
                "cercle": str(day.cercle_total),
                "total_words": str(
                    _("Arrêté le présent registre à la somme de %(words)s.") % {"words": day.total_words}
                ),
            },
        )
    return day


@transaction.atomic
def control_day_visa(*, day: ControlDay, actor: AbstractBaseUser, statement: str = "") -> ControlDay:
    """One of the two daily visas: the directeur responsable (or the comité member replacing him)
    and another comité member, two different persons (art. 72, COUNT-56)."""
    day = ControlDay.objects.select_for_update().get(pk=day.pk)
    est = day.establishment
    role = role_named_by_text(
        actor,
        est,
        CONTROL_VISAS,
        "COUNT-56",
        _("Le registre de contrôle est visé par le directeur responsable et un autre membre du comité de direction."),
    )
    if day.status == ControlDay.Status.VISAED:
        raise ValidationError(_("Cette journée porte déjà ses deux visas."))
    if any(visa["user"] == actor.pk for visa in day.visas):
        raise RuleViolation("COUNT-56", _("Les deux visas sont donnés par deux personnes différentes."))
    register = current_register(est, REGISTRE_CONTROLE.code)
    entry = visa_sign(
        register=register,
        actor=actor,
        up_to_seq=register.head_seq,
        statement=statement or str(_("Vu, journée du %(day)s.") % {"day": day}),
    )
    day.visas = [*day.visas, {"user": actor.pk, "name": display_name(actor), "role": role, "seq": entry.seq}]
    if len(day.visas) == 2:
        day.status = ControlDay.Status.VISAED
    return save_audited(day, actor=actor, reason="visa")


# --- cagnottes and ticket books ------------------------------------------------------------------

# FR: only the employee who keeps the ticket books between séances puts them into service and
# date-stamps them (art. 56-1, COUNT-40, REG-32).
TICKET_KEEPERS = {"FR": (Role.GARDIEN_CARNETS,), "MC": (Role.CARTIER, Role.INSPECTEUR, *DIRECTORATE)}
KEEPER_ONLY = _(
    "Les timbres à date et traits bleus des carnets de tickets sont apposés, en dehors de la table, par "
    "l'employé chargé de conserver les carnets entre les séances."
)


def ticket_stamp_entry(stamp: TicketStamp, *, role: str) -> Entry:
    """The keeper's date stamp written in the register of the ticket books (REG-32)."""
    book = stamp.book
    with register_language():
        payload = {
            "date": stamp.stamped_on.isoformat(),
            "event": str(stamp.get_kind_display()),
            "table": book.table.number,
            "book": book.cover_number,
            "book_id": book.pk,
            "tickets": str(
                _("n° %(first)s (série %(from)s à %(to)s, %(value)s €)")
                % {
                    "first": stamp.first_ticket,
                    "from": book.first_number,
                    "to": book.last_number,
                    "value": book.ticket_value,
                }
            ),
            "detail": str(_("Trait au crayon bleu")) if stamp.blue_line else "",
            "signed_by": f"{display_name(stamp.keeper)} ({Role(role).label})",
        }
    return _write(book.establishment, CARNETS_TICKETS.code, actor=stamp.keeper, role=role, payload=payload)


# Who checks the tickets and opens the cagnotte: FR the directeur responsable or a comité member,
# never anyone else (art. 56-2, 71); MC the inspecteur or the Direction des Jeux, an SCJ agent
# possibly present (art. 11.7).
CAGNOTTE_CONTROLLERS = {
    "FR": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
    "MC": (Role.INSPECTEUR, Role.SOUS_DIRECTEUR, Role.DIRECTEUR_JEUX, Role.SCJ),
}


def _cagnotte_entry(session: TableSession, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    est = session.seance.establishment
    fr = est.jurisdiction == "FR"
    with register_language():
        body = {**_session_fields(session), **payload, "signed_by": f"{display_name(actor)} ({Role(role).label})"}
    return _write(
        est,
        CARNET_CAGNOTTES.code if fr else CAGNOTTES_MC.code,
        actor=actor,
        role=role,
        payload=body,
        qualifier=session.table.number if fr else "",
    )


@transaction.atomic
def ticket_book_register(
    *,
    table: GamingTable,
    cover_number: str,
    ticket_value: Decimal,
    first_number: int,
    last_number: int,
    actor: AbstractBaseUser,
) -> TicketBook:
    """A ticket book put into service at a cercle table: FR its cover bears the table number
    (COUNT-39); MC one active book per chemin de fer table (COUNT-07)."""
    est = table.establishment
    if est.jurisdiction == "FR":
        # The date stamp on the first ticket's stub is the keeper's, away from the table (art. 56-1).
        role = role_named_by_text(actor, est, TICKET_KEEPERS["FR"], "COUNT-40", KEEPER_ONLY)
    else:
        role = require_role(actor, est, TICKET_KEEPERS["MC"])
    if table.game_info.family != Family.CERCLE:
        raise ValidationError(_("Les carnets de tickets servent aux jeux de cercle."))
    cover_number = cover_number.strip()
    if est.jurisdiction == "FR" and cover_number != table.number:
        raise RuleViolation(
            "COUNT-39",
            _("Le carnet porte sur sa couverture le numéro de sa table (%(table)s).") % {"table": table.number},
        )
    active = TicketBook.objects.filter(table=table, finished_on__isnull=True)
    if est.jurisdiction == "MC" and any(book.next_number <= book.last_number for book in active):
        raise RuleViolation(
            "COUNT-07", _("La table %(table)s a déjà un carnet de tickets en service.") % {"table": table.number}
        )
    if not 0 < first_number <= last_number:
        raise ValidationError(_("Indiquez une série de tickets croissante."))
    book = save_audited(
        TicketBook(
            establishment=est,
            table=table,
            cover_number=cover_number,
            ticket_value=rules.money(ticket_value),
            first_number=first_number,
            last_number=last_number,
            next_number=first_number,
            put_in_service_at=timezone.now(),
        ),
        actor=actor,
        reason="mise en service",
    )
    if est.jurisdiction == "FR":
        stamp = TicketStamp.objects.create(
            book=book,
            kind=TicketStamp.Kind.IN_SERVICE,
            first_ticket=first_number,
            stamped_on=timezone.localdate(),
            keeper=actor,
            recorded_at=timezone.now(),
        )
        ticket_stamp_entry(stamp, role=role)
    if est.jurisdiction == "MC":
        with register_language():
            payload = {
                "date": timezone.localdate().isoformat(),
                "seance": "",
                "table": table.number,
                "event": str(_("Carnet de tickets mis en service")),
                "tickets": f"{cover_number} : n° {first_number} à {last_number} × {book.ticket_value} €",
                "signed_by": f"{display_name(actor)} ({Role(role).label})",
            }
        _write(est, CAGNOTTES_MC.code, actor=actor, role=role, payload=payload)
    return book


PLAY_LINES = {
    "interruption": _("Interruption du jeu"),
    "resumption": _("Reprise du jeu"),
    "new_book": _("Nouveau carnet de tickets"),
}


@transaction.atomic
def cagnotte_play_line(
    *, session: TableSession, line: str, actor: AbstractBaseUser, book: TicketBook | None = None
) -> Entry:
    """FR modèle 11 during play (art. 71, COUNT-52): the times of interruption and resumption, and
    the value and number of the first ticket of each new book put into use at the table."""
    session = TableSession.objects.select_for_update().select_related("seance", "table").get(pk=session.pk)
    est, table = session.seance.establishment, session.table
    if est.jurisdiction != "FR" or line not in PLAY_LINES:
        raise ValidationError(_("Ligne de carnet modèle 11 inconnue."))
    role = require_role(actor, est, CARNET_CAGNOTTES.record_roles)
    if session.status != TableSession.Status.OPEN:
        raise ValidationError(_("Ces lignes s'inscrivent pendant la partie."))
    lines = [
        e.payload["line"]
        for e in Entry.objects.filter(
            register__establishment=est,
            register__kind=CARNET_CAGNOTTES.code,
            payload__table_session=session.pk,
            payload__line__in=["interruption", "resumption"],
        ).order_by("register_id", "seq")
    ]
    interrupted = bool(lines) and lines[-1] == "interruption"
    if line != "new_book" and interrupted == (line == "interruption"):
        raise ValidationError(_("Le jeu est déjà interrompu.") if interrupted else _("Le jeu n'est pas interrompu."))
    tickets = ""
    if line == "new_book":
        if book is None:
            raise RuleViolation("COUNT-52", _("Indiquez le nouveau carnet : valeur et numéro de son premier ticket."))
        book = TicketBook.objects.get(pk=book.pk)
        if book.table_id != table.pk:
            raise RuleViolation("COUNT-39", _("Le carnet %(book)s est affecté à une autre table.") % {"book": book})
        tickets = f"{book.cover_number} : {book.ticket_value} € n° {book.next_number}"
    with register_language():
        payload = {
            "line": line,
            "event": str(PLAY_LINES[line]),
            "tickets": tickets,
            "certification": str(
                _("%(event)s à %(time)s") % {"event": PLAY_LINES[line], "time": est.localtime().strftime("%H:%M")}
            ),
        }
    return _cagnotte_entry(session, actor=actor, role=role, payload=payload)


@transaction.atomic
def cagnotte_compute(*, session: TableSession, detached: Sequence[dict], actor: AbstractBaseUser) -> CagnotteCount:
    """Before the cagnotte is opened, the tickets detached from each book (its next ticket up to
    ``last_number``) give the sum it must hold (col. 8): MC the ticket-book check (COUNT-08), FR
    cols. 4 to 8 on the carnet itself, before the directeur responsable or a comité member (COUNT-52)."""
    session = TableSession.objects.select_for_update().select_related("seance", "table").get(pk=session.pk)
    est, table = session.seance.establishment, session.table
    fr = est.jurisdiction == "FR"
    code = "COUNT-52" if fr else "COUNT-08"
    role = role_named_by_text(
        actor,
        est,
        CAGNOTTE_CONTROLLERS[est.jurisdiction],
        code,
        _(
            "Les tickets sont vérifiés et la cagnotte calculée en présence du directeur responsable ou d'un membre du "
            "comité de direction."
        )
        if fr
        else _("Le carnet de tickets est vérifié par l'inspecteur ou la Direction des Jeux."),
    )
    if session.status != TableSession.Status.CLOSED:
        raise ValidationError(_("La cagnotte se calcule à la fin de la partie."))
    if CagnotteCount.objects.filter(table_session=session).exists():
        raise ValidationError(_("La cagnotte de cette partie est déjà calculée."))
    if fr and table.game == "baccara_deux_tableaux" and not session.banker_segments.exists():
        raise RuleViolation(
            "COUNT-54", _("Baccara à deux tableaux : le nom du banquier est inscrit au carnet au début de la séance.")
        )
    if fr and selectors.uses_levy_machine(table):
        raise RuleViolation(
            "COUNT-41",
            _(
                "La table %(table)s enregistre ses retenues sur une machine agréée : la "
                "cagnotte calculée est le total de son historique."
            )
            % {"table": table.number},
        )
    tickets, computed = [], Decimal("0.00")
    for line in detached:
        book = TicketBook.objects.select_for_update().get(pk=getattr(line["book"], "pk", line["book"]))
        if book.table_id != table.pk:
            raise RuleViolation(
                "COUNT-39" if fr else "COUNT-07",
                _("Le carnet %(book)s est affecté à une autre table.") % {"book": book},
            )
        last = int(line["last_number"])
        if fr and last >= book.next_number and selectors.seance_stamp_missing(book):
            raise RuleViolation(
                "COUNT-40",
                _(
                    "Carnet %(book)s : le ticket n° %(first)s, premier de la séance, n'a pas reçu "
                    "le timbre à date et le "
                    "trait bleu de l'employé chargé des carnets."
                )
                % {"book": book, "first": book.next_number},
            )
        if not book.next_number - 1 <= last <= book.last_number:
            raise ValidationError(
                _("Carnet %(book)s : le dernier ticket détaché est entre le n° %(first)s et le n° %(last)s.")
                % {"book": book, "first": book.next_number - 1, "last": book.last_number}
            )
        count = last - book.next_number + 1
        amount = book.ticket_value * count
        tickets.append(
            {
                "book": book.cover_number,
                "value": str(book.ticket_value),
                "first": book.next_number,
                "last": last,
                "tickets": count,
                "amount": str(amount),
            }
        )
        computed += amount
        book.next_number = last + 1
        if book.next_number > book.last_number:
            book.finished_on = session.seance.date  # the only mention on the cover (art. 56-1)
        save_audited(book, actor=actor, reason="tickets détachés")
    if not tickets:
        raise ValidationError(_("Indiquez les tickets détachés de chaque carnet."))
    cagnotte = save_audited(
        CagnotteCount(
            table_session=session, tickets=tickets, computed=computed, computed_by=actor, computed_at=timezone.now()
        ),
        actor=actor,
        reason="calcul de la cagnotte",
    )
    with register_language():
        payload = {
            "event": str(_("Vérification des tickets et calcul de la cagnotte")),
            "col8": str(computed),
            "tickets": " ; ".join(
                f"{t['book']} n° {t['first']} à {t['last']} : {t['tickets']} × {t['value']} €" for t in tickets
            ),
        }
    _cagnotte_entry(session, actor=actor, role=role, payload=payload)
    return cagnotte


@transaction.atomic
def cagnotte_count(
    *,
    session: TableSession,
    breakdown: Iterable[dict],
    actor: AbstractBaseUser,
    words: str = "",
    balancing_ticket: int | None = None,
) -> CagnotteCount:
    """Open and count the cagnotte (col. 9), only once its computation exists (COUNT-08, COUNT-52),
    FR by the directeur responsable or a comité member who writes "certifié exact" (COUNT-43). A
    surplus is balanced by tickets detached (col. 13), a shortfall is borne by the casino's cash
    desk; the higher of cols. 8 and 9 is carried (col. 15), table by table (COUNT-53, INC-17)."""
    session = TableSession.objects.select_related("seance", "table").get(pk=session.pk)
    est = session.seance.establishment
    fr = est.jurisdiction == "FR"
    role = role_named_by_text(
        actor,
        est,
        CAGNOTTE_CONTROLLERS[est.jurisdiction],
        "COUNT-43" if fr else "COUNT-08",
        _(
            "Une cagnotte n'est ouverte et comptée qu'en présence du directeur responsable ou d'un membre du comité de "
            "direction."
        )
        if fr
        else _("La cagnotte est comptée sous le contrôle de l'inspecteur ou de la Direction des Jeux."),
    )
    cagnotte = CagnotteCount.objects.select_for_update().filter(table_session=session).first()
    # COUNT-09: the levies of the coups are evidenced by the detached tickets only, so the count
    # waits for their value, computed per book.
    if cagnotte is None:
        raise RuleViolation(
            "COUNT-52" if fr else "COUNT-08",
            _(
                "Aucune cagnotte n'est ouverte avant la vérification des tickets détachés et le "
                "calcul de la somme qu'elle "
                "doit contenir."
            ),
        )
    if cagnotte.status == CagnotteCount.Status.COUNTED:
        raise ValidationError(_("Cette cagnotte est déjà comptée."))
    words = " ".join(words.lower().split())
    if fr and words != "certifié exact":
        raise RuleViolation(
            "COUNT-43", _("Le comptage est certifié par la mention « certifié exact » suivie de la signature.")
        )
    lines = rules.clean_breakdown(breakdown)
    counted = rules.breakdown_total(lines)
    surplus = max(counted - cagnotte.computed, Decimal("0.00"))
    shortfall = max(cagnotte.computed - counted, Decimal("0.00"))
    if surplus and fr and balancing_ticket is None:
        raise RuleViolation(
            "COUNT-53",
            _(
                "Excédent de %(surplus)s € : détachez les tickets d'équilibre et inscrivez "
                "le numéro du dernier (col. 13)."
            )
            % {"surplus": surplus},
        )
    cagnotte.counted, cagnotte.breakdown, cagnotte.surplus, cagnotte.shortfall = counted, lines, surplus, shortfall
    cagnotte.balancing_ticket = balancing_ticket if surplus else None
    cagnotte.retained = max(counted, cagnotte.computed)
    cagnotte.status, cagnotte.counted_by, cagnotte.counted_at = CagnotteCount.Status.COUNTED, actor, timezone.now()
    cagnotte.certification = words or "vu"
    save_audited(cagnotte, actor=actor, reason="comptage de la cagnotte")
    if surplus or shortfall:
        _difference_incident(
            session,
            rules.CAGNOTTE_DIFFERENCE.code,
            actor=actor,
            text=_("Cagnotte de la table %(table)s : comptée %(counted)s €, calculée %(computed)s € (col. 9 ≠ col. 8).")
            % {"table": session.table.number, "counted": counted, "computed": cagnotte.computed},
        )
    with register_language():
        notes = []
        if shortfall:
            notes.append(
                str(_("Manquant de %(amount)s € supporté par la caisse de l'établissement.") % {"amount": shortfall})
            )
        payload = {
            "event": str(_("Comptage de la cagnotte")),
            "col8": str(cagnotte.computed),
            "col9": str(counted),
            "col10": str(surplus) if surplus else "",
            "col11": str(shortfall) if shortfall else "",
            "col13": balancing_ticket if surplus else None,
            "col15": str(cagnotte.retained),
            "difference": str(counted - cagnotte.computed),
            "breakdown": rules.breakdown_text(lines),
            "certification": " ".join([cagnotte.certification, *notes]),
        }
    _cagnotte_entry(session, actor=actor, role=role, payload=payload)
    return cagnotte


# --- bad beat jackpot --------------------------------------------------------------------------


@transaction.atomic
def bad_beat_activate(
    *, table: GamingTable, machine_approval: str, cagnotte_number: str, actor: AbstractBaseUser
) -> BadBeatTable:
    """Run the bad beat jackpot at a cercle table: only with an approved recording machine and a
    BBJ cagnotte built into the table (COUNT-46); from then on each séance's count and displayed
    amount are due before the séance closes (COUNT-24)."""
    est = table.establishment
    if est.jurisdiction != "FR" or table.game_info.family != Family.CERCLE:
        raise ValidationError(_("Le bad beat jackpot se joue aux tables de cercle françaises."))
    role = require_role(actor, est, (Role.DIRECTEUR_RESPONSABLE, Role.COMITE))
    if not machine_approval.strip() or not cagnotte_number.strip():
        raise RuleViolation(
            "COUNT-46",
            _("Chaque table du bad beat jackpot a sa machine agréée et sa cagnotte spécifique incorporée à la table."),
        )
    if BadBeatTable.objects.filter(table=table).exists():
        raise ValidationError(_("Le bad beat jackpot est déjà activé à cette table."))
    require_bbj_displays(table)  # REG-23, COUNT-45: the increment conditions and rate displayed first
    activation = BadBeatTable.objects.create(
        table=table,
        machine_approval=machine_approval.strip(),
        cagnotte_number=cagnotte_number.strip(),
        activated_by=actor,
        activated_at=timezone.now(),
    )
    with register_language():
        payload = {
            "date": timezone.localdate().isoformat(),
            "seance": "",
            "table": table.number,
            "difference": str(
                _("Activation : machine agréée %(approval)s, cagnotte n° %(cagnotte)s")
                % {"approval": activation.machine_approval, "cagnotte": activation.cagnotte_number}
            ),
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
        }
    _write(est, REGISTRE_BBJ.code, actor=actor, role=role, payload=payload)
    return activation


@transaction.atomic
def bad_beat_record(
    *,
    session: TableSession,
    counted: Decimal,
    statement: Decimal,
    displayed: Decimal,
    present: Sequence[str],
    actor: AbstractBaseUser,
    comite: AbstractBaseUser | None,
) -> BadBeatCount:
    """The BBJ cagnotte counted at the end of the partie before the table employees, the cashier
    and a comité member (COUNT-21); the cashier enters the retenue at once against the statement the
    comité member certifies (COUNT-22); the higher amount is retained, a surplus keyed into the
    machine, a shortfall borne by the cash desk (COUNT-23, INC-10); the amount displayed is entered
    and validated by the comité member (COUNT-24)."""
    session = TableSession.objects.select_related("seance", "table").get(pk=session.pk)
    est = session.seance.establishment
    if est.jurisdiction != "FR":
        raise ValidationError(_("Le bad beat jackpot est une règle française."))
    role = role_named_by_text(
        actor, est, CASHIERS, "COUNT-22", _("Le caissier inscrit la retenue au registre du bad beat jackpot.")
    )
    if comite is None or comite.pk == actor.pk:
        raise RuleViolation(
            "COUNT-21",
            _(
                "Le comptage se fait en présence d'un membre du comité de direction, qui "
                "certifie le relevé et valide le montant affiché."
            ),
        )
    role_named_by_text(
        comite,
        est,
        (Role.COMITE,),
        "COUNT-22",
        _("Le relevé informatique est certifié par un membre du comité de direction."),
    )
    present = [name.strip() for name in present if name.strip()]
    if not present:
        raise RuleViolation("COUNT-21", _("Inscrivez les employés de la table présents au comptage."))
    if session.status != TableSession.Status.CLOSED:
        raise RuleViolation("COUNT-21", _("La cagnotte du bad beat jackpot se compte à la fin de la partie."))
    if BadBeatCount.objects.filter(table_session=session).exists():
        raise ValidationError(_("Le bad beat jackpot de cette partie est déjà inscrit."))
    counted, statement, displayed = rules.money(counted), rules.money(statement), rules.money(displayed)
    retained = max(counted, statement)
    covering = selectors.stop_covering(session) if retained else None
    if covering is not None and covering.kind == BadBeatStop.Kind.BREAKDOWN:
        raise RuleViolation(
            "COUNT-47",
            _(
                "Le système du bad beat jackpot était en panne pendant toute la partie "
                "(INC-15) : aucune retenue d'incrémentation n'a pu être prélevée."
            ),
        )
    if covering is not None:
        raise RuleViolation(
            "COUNT-47",
            _(
                "Le bad beat jackpot était arrêté volontairement pendant toute la partie : "
                "aucune retenue d'incrémentation n'a pu être prélevée."
            ),
        )
    flags = []
    jackpot = getattr(session.table, "bad_beat_jackpot", None)  # the reverse one-to-one raises when there is none
    expected = selectors.expected_display(jackpot, retained=retained) if jackpot else None
    if expected is not None and expected["expected"] != displayed:
        with register_language():
            flags.append(
                str(
                    _(
                        "COUNT-24 : montant affiché %(displayed)s € ≠ %(previous)s € précédent + %(retained)s € "
                        "de retenues − %(paid)s € payés + %(restarted)s € de redémarrage = %(expected)s €."
                    )
                    % {"displayed": displayed, **expected}
                )
            )
    recorded_at = timezone.now()
    delay = est.setting("COUNT-22")
    if delay is not None and session.closed_at and recorded_at - session.closed_at > datetime.timedelta(minutes=delay):
        with register_language():
            flags.append(
                str(
                    _(
                        "COUNT-22 : retenue inscrite %(minutes)s min après la fin de la partie (délai "
                        "fixé : %(delay)s min)."
                    )
                    % {"minutes": int((recorded_at - session.closed_at).total_seconds() // 60), "delay": delay}
                )
            )
    record = BadBeatCount.objects.create(
        table_session=session,
        counted=counted,
        statement=statement,
        retained=retained,
        adjustment=max(counted - statement, Decimal("0.00")),
        contribution=max(statement - counted, Decimal("0.00")),
        displayed=displayed,
        present=present,
        flags=flags,
        cashier=actor,
        comite=comite,
        recorded_at=recorded_at,
    )
    with register_language():
        if record.adjustment:
            difference = str(
                _("INC-10 : excédent de %(amount)s € saisi en retenue complémentaire par le croupier.")
                % {"amount": record.adjustment}
            )
        elif record.contribution:
            difference = str(
                _("INC-10 : manquant de %(amount)s € supporté par la caisse de l'établissement.")
                % {"amount": record.contribution}
            )
        else:
            difference = ""
        payload = {
            **_session_fields(session),
            "counted": str(counted),
            "statement": str(statement),
            "retained": str(record.retained),
            "difference": difference,
            "displayed": str(displayed),
            "present": present,
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
            "comite": f"{display_name(comite)} ({Role(Role.COMITE).label})",
            "flags": flags,
        }
    _write(est, REGISTRE_BBJ.code, actor=actor, role=role, payload=payload)
    if counted != statement:
        # The comité member present at the count opens it: the cashier does not write the incidents register.
        _difference_incident(
            session,
            rules.BBJ_DIFFERENCE.code,
            actor=comite,
            text=_("Bad beat jackpot de la table %(table)s : cagnotte %(counted)s €, relevé certifié %(statement)s €.")
            % {"table": session.table.number, "counted": counted, "statement": statement},
        )
    return record


def _difference_incident(session: TableSession, category: str, *, actor: AbstractBaseUser, text: Any) -> None:
    """A count that differs from its computation opens an incident on the table-partie (INC-10, INC-17, INC-01)."""
    with register_language():
        description = str(text)
    incident_open(
        establishment=session.seance.establishment,
        category=category,
        actor=actor,
        description=description,
        table_session=session,
    )


# --- orphans (FR art. 41) ------------------------------------------------------------------------

ORPHAN_KEEPERS = (*CASHIERS, Role.DIRECTEUR_RESPONSABLE, Role.COMITE)


@transaction.atomic
def orphan_record(
    *,
    establishment: Establishment,
    category: str,
    amount: Decimal,
    place: str,
    found_by: str,
    paid_into: str,
    actor: AbstractBaseUser,
    witness: str = "",
    initial_stake: Decimal | None = None,
    winnings: Decimal | None = None,
) -> Orphan:
    """An orphan paid into the cash desk or a tirelire and written at once in carnet modèle 11 bis
    (COUNT-31); an abandoned stake gives its initial stake and cumulative winnings (COUNT-30)."""
    role = require_role(actor, establishment, ORPHAN_KEEPERS)
    if establishment.jurisdiction != "FR":
        raise ValidationError(_("Le carnet des orphelins est un registre français."))
    amount = rules.money(amount)
    if category == Orphan.Category.ABANDONED_STAKE:
        if initial_stake is None or winnings is None:
            raise RuleViolation(
                "COUNT-30",
                _(
                    "Une mise abandonnée s'inscrit avec la mise initiale oubliée et ses "
                    "gains cumulés jusqu'au constat de l'abandon."
                ),
            )
        initial_stake, winnings = rules.money(initial_stake), rules.money(winnings)
        if initial_stake + winnings != amount:
            raise RuleViolation(
                "COUNT-30",
                _("Le montant de la mise abandonnée est la mise initiale plus ses gains cumulés (%(total)s €).")
                % {"total": initial_stake + winnings},
            )
    if not place.strip() or not found_by.strip() or not paid_into.strip():
        raise ValidationError(_("Indiquez le lieu, qui l'a trouvé et où il est versé (caisse ou tirelire)."))
    found_at = timezone.now()
    with register_language():
        detail = (
            str(_("%(stake)s € + %(winnings)s € de gains") % {"stake": initial_stake, "winnings": winnings})
            if initial_stake is not None
            else ""
        )
        payload = {
            "found_at": establishment.localtime(found_at).strftime("%Y-%m-%d %H:%M"),
            "category": str(Orphan.Category(category).label),
            "place": place.strip(),
            "detail": detail,
            "paid_into": paid_into.strip(),
            "amount": str(amount),
            "found_by": found_by.strip(),
            "witness": witness.strip(),
            "col9": "",
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
        }
    entry = _write(establishment, CARNET_ORPHELINS.code, actor=actor, role=role, payload=payload)
    return save_audited(
        Orphan(
            establishment=establishment,
            category=category,
            place=place.strip(),
            amount=amount,
            initial_stake=initial_stake,
            winnings=winnings,
            found_by=found_by.strip(),
            witness=witness.strip(),
            found_at=found_at,
            paid_into=paid_into.strip(),
            entry_seq=entry.seq,
        ),
        actor=actor,
        reason="inscription",
    )


@transaction.atomic
def orphan_restitute(
    *, orphan: Orphan, amount: Decimal, name: str, address: str, proof: str, actor: AbstractBaseUser
) -> Orphan:
    """Return an orphan to its owner who proves his right beyond dispute; never an expired ticket;
    column 7 closed at the refund date, column 9 the owner, his proof and the original entry (COUNT-32)."""
    orphan = Orphan.objects.select_for_update().get(pk=orphan.pk)
    est = orphan.establishment
    role = require_role(actor, est, ORPHAN_KEEPERS)
    if orphan.category == Orphan.Category.EXPIRED_TICKET:
        raise RuleViolation("COUNT-32", _("Un ticket périmé n'est jamais remboursé."))
    if not (name.strip() and address.strip() and proof.strip()):
        raise RuleViolation(
            "COUNT-32", _("La restitution porte le nom et l'adresse du bénéficiaire et le justificatif de son droit.")
        )
    amount = rules.money(amount)
    if amount <= 0 or orphan.refunded + amount > orphan.amount:
        raise RuleViolation(
            "COUNT-32",
            _("La restitution ne peut dépasser le montant de l'orphelin (reste : %(left)s €).")
            % {"left": orphan.amount - orphan.refunded},
        )
    today = est.localtime().date().isoformat()
    orphan.refunded += amount
    orphan.restitutions = [
        *orphan.restitutions,
        {
            "date": today,
            "amount": str(amount),
            "name": name.strip(),
            "address": address.strip(),
            "proof": proof.strip(),
        },
    ]
    save_audited(orphan, actor=actor, reason="restitution")
    with register_language():
        payload = {
            "found_at": today,
            "category": str(pgettext_lazy("orphan", "Restitution")),
            "place": "",
            "detail": "",
            "paid_into": "",
            "amount": str(-amount),
            "col9": str(
                _("%(name)s, %(address)s — justificatif : %(proof)s — inscription n° %(seq)s")
                % {"name": name.strip(), "address": address.strip(), "proof": proof.strip(), "seq": orphan.entry_seq}
            ),
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
        }
    _write(est, CARNET_ORPHELINS.code, actor=actor, role=role, payload=payload)
    return orphan


def _orphan_events(est: Establishment, event: str):
    return Entry.objects.filter(register__establishment=est, register__kind=CARNET_ORPHELINS.code, payload__event=event)


@transaction.atomic
def tirelire_open(
    *, establishment: Establishment, tirelire: str, amount: Decimal, witnesses: Sequence[str], actor: AbstractBaseUser
) -> Entry:
    """Open an orphans' tirelire before witnesses and pay its content into the cash desk. Every sum
    in it was written in carnet 11 bis when it was dropped in (COUNT-31): an amount found above the
    sums posted since the last opening is refused until the missing orphans are written."""
    role = require_role(actor, establishment, ORPHAN_KEEPERS)
    if establishment.jurisdiction != "FR":
        raise ValidationError(_("Le carnet des orphelins est un registre français."))
    tirelire, witnesses = tirelire.strip(), [w.strip() for w in witnesses if w.strip()]
    if not tirelire or not witnesses:
        raise ValidationError(_("Indiquez la tirelire et les témoins de son ouverture."))
    amount = rules.money(amount)
    # Lock the carnet so that an orphan cannot be written while the tirelire is being opened.
    register = Register.objects.select_for_update().get(pk=current_register(establishment, CARNET_ORPHELINS.code).pk)
    last = (
        _orphan_events(establishment, "tirelire")
        .filter(register=register, payload__tirelire=tirelire)
        .aggregate(s=Max("seq"))["s"]
    )
    posted = Orphan.objects.filter(establishment=establishment, paid_into=tirelire, entry_seq__gt=last or 0).aggregate(
        s=Sum("amount")
    )["s"] or Decimal("0.00")
    if amount > posted:
        raise RuleViolation(
            "COUNT-31",
            _(
                "La tirelire %(tirelire)s contient %(amount)s € ; seuls %(posted)s € sont "
                "inscrits au carnet modèle 11 bis : inscrivez d'abord les orphelins "
                "manquants."
            )
            % {"tirelire": tirelire, "amount": amount, "posted": posted},
        )
    with register_language():
        shortfall = (
            str(_("Manquant de %(amount)s € sur les sommes inscrites.") % {"amount": posted - amount})
            if amount < posted
            else ""
        )
        payload = {
            "event": "tirelire",
            "tirelire": tirelire,
            "found_at": establishment.localtime().strftime("%Y-%m-%d %H:%M"),
            "category": str(_("Ouverture de la tirelire %(tirelire)s") % {"tirelire": tirelire}),
            "place": "",
            "detail": str(
                _("%(amount)s € trouvés, versés à la caisse ; témoins : %(witnesses)s")
                % {"amount": amount, "witnesses": ", ".join(witnesses)}
            ),
            "paid_into": str(_("caisse")),
            "amount": "",
            "col9": shortfall,
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
        }
    return entry_append(register=register, actor=actor, role=role, payload=payload)


@transaction.atomic
def orphans_season_clear(
    *, establishment: Establishment, season_start: datetime.date, account_balance: Decimal, actor: AbstractBaseUser
) -> Entry:
    """The season's clearing of the "orphelins" account: its credit balance equals the grand total
    of carnet 11 bis (orphans of the season less their restitutions), then it is cleared (COUNT-31)."""
    role = require_role(actor, establishment, (Role.DIRECTEUR_RESPONSABLE, Role.COMITE, Role.COMPTABLE_TRESOR))
    if establishment.jurisdiction != "FR":
        raise ValidationError(_("Le carnet des orphelins est un registre français."))
    start = rules.season_start(season_start)
    end = start.replace(year=start.year + 1)
    if establishment.localtime().date() < end:
        raise ValidationError(_("La saison du %(start)s n'est pas terminée.") % {"start": start.isoformat()})
    register = Register.objects.select_for_update().get(pk=current_register(establishment, CARNET_ORPHELINS.code).pk)
    if _orphan_events(establishment, "apurement").filter(payload__season=start.isoformat()).exists():
        raise ValidationError(_("Le compte « orphelins » de cette saison est déjà apuré."))
    orphans = [
        o
        for o in Orphan.objects.filter(establishment=establishment)
        if start <= establishment.localtime(o.found_at).date() < end
    ]
    total = sum((o.amount - o.refunded for o in orphans), Decimal("0.00"))
    balance = rules.money(account_balance)
    if balance != total:
        raise RuleViolation(
            "COUNT-31",
            _(
                "Le solde créditeur du compte « orphelins » (%(balance)s €) doit égaler le "
                "total général du carnet modèle 11 bis (%(total)s €)."
            )
            % {"balance": balance, "total": total},
        )
    with register_language():
        payload = {
            "event": "apurement",
            "season": start.isoformat(),
            "found_at": establishment.localtime().strftime("%Y-%m-%d %H:%M"),
            "category": str(
                _("Apurement du compte « orphelins » de la saison %(start)s – %(end)s")
                % {"start": start.isoformat(), "end": (end - datetime.timedelta(days=1)).isoformat()}
            ),
            "place": "",
            "detail": str(_("Total général du carnet : %(total)s €") % {"total": total}),
            "paid_into": "",
            "amount": "",
            "col9": "",
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
        }
    return entry_append(register=register, actor=actor, role=role, payload=payload)


# --- carnet des prélèvements (modèle 13) ----------------------------------------------------------------


@transaction.atomic
def levy_month_close(
    *, establishment: Establishment, year: int, month: int, slot_total: Decimal | None, actor: AbstractBaseUser
) -> int:
    """The month's sheet of modèle 13: one line per day generated from a closed and visaed modèle 12
    day, the month's slot total from modèle 35, the gross product since the start of the season
    (COUNT-57). Returns the sheet number."""
    est = Establishment.objects.select_for_update().get(pk=establishment.pk)
    role = require_role(actor, est, CONTROL_KEEPERS)
    if est.jurisdiction != "FR":
        raise ValidationError(_("Le carnet des prélèvements est un registre français."))
    # The slot total is carried from the certified modèle 35 (SLOT-56); a typed one must match it.
    certified = month_slot_total(est, year, month)
    slot_total = certified if slot_total is None else slot_total
    if slot_total is None:
        raise RuleViolation("COUNT-57", _("Le mois ne se clôt qu'avec le total du modèle 35 des machines à sous."))
    if certified is not None and slot_total != certified:
        raise RuleViolation(
            "COUNT-57", _("Le total des machines à sous est celui du modèle 35 certifié : %(t)s €.") % {"t": certified}
        )
    register = current_register(est, CARNET_PRELEVEMENTS.code)
    sheet = rules.season_sheet(month)
    if register.entries.filter(kind="record", payload__sheet=sheet, payload__year=year, payload__month=month).exists():
        raise ValidationError(_("Cette feuille est déjà arrêtée."))
    days = ControlDay.objects.filter(establishment=est, date__year=year, date__month=month).order_by("date")
    unvisaed = [day for day in days if day.status != ControlDay.Status.VISAED]
    if unvisaed:
        raise RuleViolation(
            "COUNT-57",
            _(
                "Journées du registre de contrôle non visées : %(days)s. Seule une journée "
                "arrêtée et visée est reportée."
            )
            % {"days": ", ".join(map(str, unvisaed))},
        )
    first_day = datetime.date(year, month, 1)
    before = ControlDay.objects.filter(
        establishment=est, date__gte=rules.season_start(first_day), date__lt=first_day
    ).aggregate(total=Sum("total"))["total"] or Decimal("0.00")
    slots_before = sum(
        (
            Decimal(e.payload["slots"])
            for e in register.entries.filter(
                kind="record", payload__event="month", payload__season=rules.season_start(first_day).isoformat()
            )
        ),
        Decimal("0.00"),
    )
    season_total = before + slots_before
    base = {"sheet": sheet, "year": year, "month": month, "season": rules.season_start(first_day).isoformat()}
    for day in days:
        season_total += day.total
        entry_append(
            register=register,
            actor=actor,
            role=role,
            payload={
                **base,
                "event": "day",
                "date": day.date.isoformat(),
                "contrepartie": str(day.contrepartie_total),
                "cercle": str(day.cercle_total),
                "slots": "",
                "total": str(day.total),
                "season_total": str(season_total),
            },
        )
    slot_total = rules.money(slot_total)
    season_total += slot_total
    month_total = sum((day.total for day in days), Decimal("0.00")) + slot_total
    entry_append(
        register=register,
        actor=actor,
        role=role,
        payload={
            **base,
            "event": "month",
            "date": "",
            "contrepartie": "",
            "cercle": "",
            "slots": str(slot_total),
            "total": str(month_total),
            "season_total": str(season_total),
        },
    )
    return sheet
