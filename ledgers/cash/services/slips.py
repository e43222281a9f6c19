"""Cash slips (bons de caisse): books, writing, serving, voiding and centralising."""

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import refusal_of, require_role, role_named_by_text, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.games import Family
from ledgers.core.models import Establishment, Location, Seance, TableSession
from ledgers.core.readable import euros
from ledgers.core.roles import DIRECTORATE, Role
from ledgers.registers.models import Entry
from ledgers.registers.services import display_name, entry_write, register_language

from .. import breakdowns, selectors
from ..models import ChangeurFloat, Slip, SlipBook
from ..registers import (
    BONS_CAISSE,
    REGISTRE_CHANGE,
)
from .common import CASHIERS

BOOK_KEEPERS = (*DIRECTORATE, Role.CAISSIER_PRINCIPAL)


VOIDERS = (*DIRECTORATE, Role.INSPECTEUR, Role.CAISSIER_PRINCIPAL)


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


def slip_writer_role(actor: AbstractBaseUser, est: Establishment, kind: str) -> str:
    """The role in which ``actor`` writes a slip of ``kind``, else the text's refusal (COUNT-04,
    COUNT-06, COUNT-29: who writes it is the rule)."""
    spec = SLIP_RULES[kind]
    writers = ", ".join(str(Role(r).label) for r in spec["writers"])
    return role_named_by_text(
        actor, est, spec["writers"], spec["code"], _("Ce bon est rédigé par %(roles)s.") % {"roles": writers}
    )


def slip_write_refusal(actor: AbstractBaseUser, est: Establishment) -> RuleViolation | None:
    """Why ``actor`` writes no kind of slip here (the refusal of the first kind), None when they
    write one: asked before the slip form is offered."""
    refusals = [
        refusal_of(lambda kind=kind: slip_writer_role(actor, est, kind))
        for kind, spec in SLIP_RULES.items()
        if spec["jurisdiction"] == est.jurisdiction
    ]
    return None if None in refusals else refusals[0]


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
    role = require_role(actor, establishment, BOOK_KEEPERS)
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
    save_audited(book, actor=actor, reason="mise en service")
    with register_language():
        event = _("Carnet mis en service : bons n° %(first)s à %(last)s") % {"first": first_number, "last": last_number}
        payload = {
            "book": book.number,
            "number": "",
            "event": str(event),
            "table": "",
            "seance": "",
            "requested": "",
            "handed": "",
            "total": "",
            "signatures": [f"{display_name(actor)} ({Role(role).label})"],
        }
    _bons_write(establishment, actor=actor, role=role, payload=payload)
    return book


def _bons_write(est: Establishment, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    """Every line of the registre des bons de caisse is written here."""
    return entry_write(establishment=est, kind=BONS_CAISSE.code, actor=actor, role=role, payload=payload)


def _slip_payload(slip: Slip, event, **extra) -> dict[str, Any]:
    session = slip.table_session
    with register_language():
        return {
            "book": slip.book.number,
            "number": slip.number,
            "event": str(event),
            "table": session.table.number if session else "",
            "seance": str(session.seance) if session else "",
            "requested": breakdowns.breakdown_text(slip.requested) if slip.requested else "",
            "handed": breakdowns.breakdown_text(slip.handed) if slip.handed else "",
            "total": str(slip.total) if slip.total is not None else "",
            **extra,
        }


def next_number(book: SlipBook) -> int:
    """The number the book's next slip carries (the series is continuous)."""
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
    role = slip_writer_role(actor, est, book.kind)
    if session.status != TableSession.Status.OPEN:
        # No change at a table that is not working (art. 16); bons are written during the partie (art. 37).
        raise RuleViolation(
            "COUNT-02" if est.jurisdiction == "MC" else code,
            _("La table %(table)s n'est pas en jeu : aucun bon ne peut être rédigé.") % {"table": session.table.number},
        )
    if book.kind == SlipBook.Kind.CHANGE and session.table.game_info.family == Family.CERCLE:
        # Art. 17.2: at the cercle games the seated players' change is the changeur's alone (AMB-32).
        raise RuleViolation(
            "COUNT-06",
            _(
                "La table %(table)s est un jeu de cercle : le change s'y fait par le changeur, sur son bon de "
                "ravitaillement, non par un bon du chef de table."
            )
            % {"table": session.table.number},
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
    expected = next_number(book)
    if number != expected:
        raise RuleViolation(
            code,
            _("Le prochain bon du carnet est le n° %(expected)s : annulez d'abord les numéros sautés (série continue).")
            % {"expected": expected},
        )
    requested, handed = breakdowns.clean_breakdown(requested), breakdowns.clean_breakdown(handed)
    if breakdowns.has_banknotes(requested):
        raise RuleViolation(
            "COUNT-03" if est.jurisdiction == "MC" else "COUNT-27",
            _("Seuls des jetons et des plaques sont demandés à la caisse."),
        )
    total, handed_total = breakdowns.breakdown_total(requested), breakdowns.breakdown_total(handed)
    if total != handed_total:
        raise RuleViolation(
            code,
            _("Valeur demandée (%(requested)s €) différente de la valeur remise en échange (%(handed)s €).")
            % {"requested": euros(total), "handed": euros(handed_total)},
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
    _bons_write(
        est,
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
                "given": breakdowns.breakdown_text(slip.requested),
                "received": breakdowns.breakdown_text(slip.handed),
                "total": str(slip.total),
                "cashier": signer,
            }
        entry_write(
            establishment=est, kind=REGISTRE_CHANGE.code, actor=actor, role=role, payload=change, qualifier=desk.code
        )
    _bons_write(
        est,
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
    _bons_write(
        est,
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
        _bons_write(est, actor=actor, role=role, payload=payload)
    return len(pending)
