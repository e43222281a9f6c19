"""Floats (avances) of the tables and their cash boxes."""

from collections.abc import Iterable
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core import amounts
from ledgers.core.authz import refusal_of, require_role, role_named_by_text, roles_of
from ledgers.core.errors import RuleViolation
from ledgers.core.games import Family
from ledgers.core.models import Establishment, GamingTable, TableSession
from ledgers.core.readable import euros
from ledgers.core.roles import Role
from ledgers.core.services import establishment_setting_write, table_session_locked
from ledgers.registers.services import display_name, register_language

from .. import breakdowns, rules, selectors
from ..models import BoxHolderDesignation, TableBox, TableFloat
from .common import _carnet_entry, _carnet_write

# FR: the avance and its top-ups are signed by the directeur responsable or a comité member
# (art. 43, COUNT-34); MC: the cash desk issues the somme mise en banque to the chef de table (art. 14).
FLOAT_SIGNERS = {"FR": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE), "MC": (Role.CAISSIER, Role.CAISSIER_PRINCIPAL)}


FLOAT_FIXERS = (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR)  # MC: the amount is fixed by the Direction des Jeux


@transaction.atomic
def float_amount_fix(*, table: GamingTable, amount: Decimal, actor: AbstractBaseUser) -> Establishment:
    """MC: the Direction des Jeux fixes the somme mise en banque of a table (COUNT-01, SET-06),
    written in the main courante as every change of the establishment's settings."""
    est = Establishment.objects.select_for_update().get(pk=table.establishment_id)
    role = require_role(actor, est, FLOAT_FIXERS)
    if est.jurisdiction != "MC":
        raise ValidationError(_("En France l'avance minimale résulte de l'article 49 : rien à fixer ici."))
    fixed = dict(est.options.get("SET-06") or {})
    fixed[table.number] = str(amounts.money(amount))
    return establishment_setting_write(establishment=est, code="SET-06", value=fixed, actor=actor, role=role)


def float_signer_role(actor: AbstractBaseUser, est: Establishment) -> str:
    """The role in which ``actor`` hands a table its avance, else the texts' refusal: FR the
    directeur responsable or a comité member signs it (COUNT-34), MC the cash desk issues it (COUNT-01)."""
    if est.jurisdiction == "FR":
        return role_named_by_text(
            actor,
            est,
            FLOAT_SIGNERS["FR"],
            "COUNT-34",
            _("L'avance est signée par le directeur responsable ou un membre du comité de direction."),
        )
    return role_named_by_text(
        actor, est, FLOAT_SIGNERS["MC"], "COUNT-01", _("La somme mise en banque est remise par la caisse.")
    )


def float_refusal(session: TableSession, actor: AbstractBaseUser) -> RuleViolation | None:
    """Why ``actor`` may not hand this table-partie its avance at all (the refusals ``float_record``
    gives whatever the grid holds), None when they may: asked before the grid is offered."""
    est = session.seance.establishment
    return refusal_of(lambda: float_signer_role(actor, est)) or (
        refusal_of(lambda: _fixed_bank(session.table)) if est.jurisdiction == "MC" else None
    )


def _fixed_bank(table: GamingTable) -> Decimal:
    """MC: the somme mise en banque the Direction des Jeux fixed for ``table`` (COUNT-01)."""
    fixed = selectors.fixed_bank(table)
    if fixed is None:
        raise RuleViolation(
            "COUNT-01",
            _("La Direction des Jeux n'a pas fixé la somme mise en banque de la table %(table)s.")
            % {"table": table.number},
        )
    return fixed


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
    session = table_session_locked(session)
    table, est = session.table, session.seance.establishment
    jurisdiction = est.jurisdiction
    if session.status == TableSession.Status.CLOSED:
        raise ValidationError(_("La partie de cette table est terminée."))
    lines = breakdowns.clean_breakdown(breakdown)
    amount = breakdowns.breakdown_total(lines)
    role = float_signer_role(actor, est)
    if breakdowns.has_banknotes(lines):
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
                    % {"amount": euros(amount), "previous": euros(previous.encaisse)}
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
            "breakdown": breakdowns.breakdown_text(lines),
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
    _carnet_write(table, actor=actor, role=role, payload=payload)
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
                _("Une nouvelle avance est égale à l'avance initiale (%(initial)s €).")
                % {"initial": euros(initial.amount)},
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
                "amount": euros(amount),
                "multiple": selectors.art_49_multiple(table),
                "stake": euros(session.minimum_stake),
                "required": euros(required),
            },
        )
    same_day = selectors.initial_floats_on(table.establishment, session.seance.date)
    earlier = same_day.filter(table_session__table=table).first()
    if earlier is not None and earlier.amount != amount:
        raise RuleViolation(
            "COUNT-33",
            _("L'avance de la table, fixée à %(fixed)s € à l'ouverture, ne peut varier dans la journée.")
            % {"fixed": euros(earlier.amount)},
        )
    if table.game in rules.BOULE_GROUP:
        other = same_day.filter(table_session__table__game=table.game).exclude(table_session__table=table).first()
        if other is not None and other.amount != amount:
            raise RuleViolation(
                "COUNT-14",
                _("Les avances de %(game)s sont uniformes pour toutes les caisses : %(fixed)s €.")
                % {"game": table.get_game_display(), "fixed": euros(other.amount)},
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
    fixed = _fixed_bank(session.table)
    if amount != fixed:
        raise RuleViolation(
            "COUNT-01",
            _("La nomenclature totalise %(amount)s € ; la somme fixée pour la table est de %(fixed)s €.")
            % {"amount": euros(amount), "fixed": euros(fixed)},
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
