"""The end-of-séance count of a table, its count-room validation and its certification."""

from collections.abc import Iterable, Sequence
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core import amounts
from ledgers.core.authz import require_role, role_named_by_text, roles_of, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, TableSession
from ledgers.core.readable import euros
from ledgers.core.roles import Role
from ledgers.core.services import establishment_setting_write, table_session_locked
from ledgers.registers.services import display_name, register_language

from .. import breakdowns
from ..models import TableCount
from ..rules import REFAIT_PREMIUM_RATE
from .common import CASHIERS, COUNTERS, _carnet_entry

# FR: certified "exact" by the directeur responsable or a comité member (art. 43, 70); MC: the
# text names nobody, the inspecteur or the Direction des Jeux by default (AMB-16, BP).
CERTIFIERS = {
    "FR": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
    "MC": (Role.INSPECTEUR, Role.SOUS_DIRECTEUR, Role.DIRECTEUR_JEUX),
}


CERTIFICATION_WORDS = ("exact", "certifié exact")


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
    session = table_session_locked(session)
    est = session.seance.establishment
    role = require_role(actor, est, COUNTERS)
    if session.status != TableSession.Status.CLOSED:
        # The encaisse (and MC the banknote box) is counted only at the end of the partie (art. 17.2, 43).
        raise RuleViolation(
            "COUNT-15" if est.jurisdiction == "FR" else "COUNT-05",
            _("L'encaisse de la table %(table)s se compte à la fin de la partie.") % {"table": session.table.number},
        )
    if not session.floats.exists():
        raise ValidationError(_("Aucune avance n'a été inscrite pour cette partie."))
    lines = breakdowns.clean_breakdown(breakdown)
    total = breakdowns.breakdown_total(lines)
    count = TableCount.objects.select_for_update().filter(table_session=session).first()
    if count is None:
        if est.jurisdiction == "FR":
            _check_fr_count_route(est, tips=tips, count_room=count_room, cctv_reference=cctv_reference, lines=lines)
        count = TableCount(
            table_session=session,
            first_by=actor,
            first_breakdown=lines,
            first_total=total,
            tips=amounts.money(tips or 0),
            present=[p.strip() for p in present if p.strip()],
            called_aloud=called_aloud,
            count_room=count_room,
            cctv_reference=cctv_reference.strip(),
        )
        save_audited(count, actor=actor, reason="premier comptage")
        _count_entry(count, number=1, actor=actor, role=role)
        return count
    if count.status != TableCount.Status.AWAITING_SECOND:
        raise ValidationError(_("Les deux comptages de cette table sont déjà faits."))
    if count.first_by_id == actor.pk:
        raise ValidationError(_("Le second comptage est fait par une autre personne."))
    count.second_by, count.second_breakdown, count.second_total = actor, lines, total
    if total == count.first_total:
        count.status, count.encaisse = TableCount.Status.AGREED, total
    else:
        count.status = TableCount.Status.ESCALATED
    save_audited(count, actor=actor, reason="second comptage")
    _count_entry(count, number=2, actor=actor, role=role)
    return count


def _count_entry(count: TableCount, *, number: int, actor: AbstractBaseUser, role: str) -> None:
    """The line of one blind count in the table's carnet: who counted and which count it was,
    never the amount, which the other counter must not read before counting (the amounts and
    the breakdown are written at the certification)."""
    with register_language():
        payload = {
            "event": str(_("Comptage n° %(number)s de l'encaisse, à l'aveugle (montant inscrit à la certification)"))
            % {"number": number},
            "amount": "",
            "breakdown": "",
            "table_count": count.pk,
            "count_number": number,
            "counted_by": [display_name(actor)],
        }
    _carnet_entry(count.table_session, actor=actor, role=role, payload=payload)


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
        if not breakdowns.has_banknotes(lines):
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
    (art. 43, COUNT-35, SET-44), recorded by the directeur responsable in the main courante, as
    every change of the establishment's settings."""
    est = Establishment.objects.select_for_update().get(pk=establishment.pk)
    role = require_role(actor, est, (Role.DIRECTEUR_RESPONSABLE,))
    if est.jurisdiction != "FR" or not reference.strip() or not service.strip():
        raise ValidationError(_("Indiquez la référence de la validation et le service qui l'a donnée."))
    validation = {"reference": reference.strip(), "service": service.strip(), "validated_on": validated_on.isoformat()}
    return establishment_setting_write(establishment=est, code="SET-44", value=validation, actor=actor, role=role)


REFAIT_THRESHOLD_FIXERS = (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR)


def refait_threshold(est: Establishment) -> Decimal | None:
    """The stake from which the Direction des Jeux lets a trente et quarante stake be insured
    against the refait (SET-23); None until it has fixed one."""
    fixed = est.setting("SET-23")
    return None if fixed is None else Decimal(str(fixed))


@transaction.atomic
def refait_threshold_fix(*, establishment: Establishment, amount: Decimal, actor: AbstractBaseUser) -> Establishment:
    """MC: the Direction des Jeux fixes the stake from which the refait insurance is offered at
    trente et quarante (000 art. 9, GAME-24, SET-23), written in the main courante as every change
    of the establishment's settings."""
    est = Establishment.objects.select_for_update().get(pk=establishment.pk)
    role = require_role(actor, est, REFAIT_THRESHOLD_FIXERS)
    if est.jurisdiction != "MC":
        raise ValidationError(_("L'assurance contre le refait est une règle du trente et quarante monégasque."))
    if amount <= 0:
        raise ValidationError({"amount": _("Montant positif attendu.")})
    threshold = str(amounts.money(amount))
    return establishment_setting_write(establishment=est, code="SET-23", value=threshold, actor=actor, role=role)


def _check_refait_premiums(est: Establishment, premiums: Decimal) -> None:
    """Premiums are paid only on stakes insured at or above the threshold the Direction des Jeux
    fixed (SET-23), each premium 1 % of its stake: none without the threshold, and any at all at
    least 1 % of it (GAME-24)."""
    threshold = refait_threshold(est)
    if threshold is None:
        raise RuleViolation(
            "GAME-24",
            _(
                "La Direction des Jeux n'a pas fixé le montant à partir duquel une mise peut être assurée "
                "contre le refait : aucune prime d'assurance ne peut être encaissée."
            ),
        )
    least = amounts.money(threshold * REFAIT_PREMIUM_RATE)
    if premiums < least:
        raise RuleViolation(
            "GAME-24",
            _(
                "Seules les mises d'au moins %(threshold)s € sont assurées contre le refait, pour 1 %% de la "
                "mise : les primes encaissées ne peuvent être inférieures à %(least)s €."
            )
            % {"threshold": euros(threshold), "least": euros(least)},
        )


def certifier_role(actor: AbstractBaseUser, est: Establishment) -> str:
    """The role in which ``actor`` certifies an encaisse, else the texts' refusal: FR the
    directeur responsable or a comité member (COUNT-15), MC the inspecteur or the Direction (COUNT-05)."""
    fr = est.jurisdiction == "FR"
    return role_named_by_text(
        actor,
        est,
        CERTIFIERS[est.jurisdiction],
        "COUNT-15" if fr else "COUNT-05",
        _("L'encaisse est certifiée par le directeur responsable ou un membre du comité de direction.")
        if fr
        else _("La comptée est signée par l'inspecteur ou la Direction des Jeux."),
    )


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
    the table result (COUNT-10), taken only on stakes from the Direction's threshold (GAME-24)."""
    count = (
        TableCount.objects.select_for_update()
        .select_related("table_session__seance", "table_session__table")
        .get(pk=count.pk)
    )
    session = count.table_session
    est = session.seance.establishment
    fr = est.jurisdiction == "FR"
    role = certifier_role(actor, est)
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
                    % {"first": euros(count.first_total), "second": euros(count.second_total)}
                }
            )
        count.encaisse, count.resolution = amounts.money(encaisse), resolution.strip()
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
    if refait and insurance_premiums:
        _check_refait_premiums(est, amounts.money(insurance_premiums))
    count.insurance_premiums = amounts.money(insurance_premiums) if refait else None
    floats = sum((f.amount for f in session.floats.all()), Decimal("0.00"))
    count.result = count.encaisse - floats
    count.status, count.certified_by, count.certified_role = TableCount.Status.CERTIFIED, actor, role
    count.certification, count.certified_at = words or "vu", timezone.now()
    save_audited(count, actor=actor, reason="certification")
    with register_language():
        payload = {
            "event": str(_("Encaisse de fin de séance")),
            "amount": str(count.encaisse),
            "breakdown": breakdowns.breakdown_text(
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
