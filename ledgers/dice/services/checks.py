"""The end-of-séance check of the dice."""

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import Establishment, Location, TableSession
from ledgers.core.roles import Role
from ledgers.custody.models import ItemStatus
from ledgers.custody.services import (
    check_location,
)
from ledgers.registers.services import register_language

from ..domains import DICE
from ..models import DiceCheck, Die
from ..rules import FR_SIDE_MM, rule
from ..selectors import dice_at_table, regular_allocation
from .common import _anomaly, _require_dice_table, _serials, _service_entry, _signatory, _signature, service_register


class Result:
    OK = "ok"
    ANOMALY = "anomaly"
    MISSING = "missing"
    CHOICES = ((OK, _("Conforme")), (ANOMALY, _("Anomalie (abîmé, suspect)")), (MISSING, _("Manquant")))


@dataclass(frozen=True)
class DieResult:
    """The check of one die. MC: ``result``. FR: the micrometer reading (mm), the square and the
    balancing caliper results (DICE-24); ``result`` "missing" when the die is not there."""

    die: Die
    result: str = Result.OK
    micrometer: str = ""
    square_ok: bool | None = None
    balance_ok: bool | None = None
    remark: str = ""


def _fr_result(die: Die, result: DieResult) -> dict:
    if result.result == Result.MISSING:
        return {"passed": False, "micrometer": "", "square": None, "balance": None}
    try:
        measured = Decimal(result.micrometer.replace(",", ".").strip())
    except (InvalidOperation, AttributeError):
        measured = None
    if measured is None or result.square_ok is None or result.balance_ok is None:
        raise RuleViolation(
            "DICE-24",
            _(
                "Le dé n° %(die)s doit être contrôlé au micromètre, à l'équerre et au "
                "« balancing caliper » : les trois résultats sont obligatoires."
            )
            % {"die": die.designation},
        )
    low, high = FR_SIDE_MM
    passed = low <= measured <= high and result.square_ok and result.balance_ok and result.result == Result.OK
    return {
        "passed": bool(passed),
        "micrometer": f"{measured}",
        "square": result.square_ok,
        "balance": result.balance_ok,
    }


def _mark(value: bool | None) -> str:
    return "—" if value is None else ("✓" if value else "✗")


def _verdict(row: dict, labels: dict) -> str:
    if row["passed"]:
        return str(_("conforme"))
    return str(labels[row["result"]]) if row["result"] != Result.OK else str(_("non conforme"))


def end_check_signer_role(actor: AbstractBaseUser, est: Establishment) -> str:
    """The role in which ``actor`` does and signs the end-of-séance check, among those SET-15
    names (MC DICE-11, FR DICE-25), else the text's refusal."""
    allowed = (est.setting("SET-15") or {}).get("end_check", ())
    role = _signatory(actor, est, allowed)
    if role is None:
        raise RuleViolation(
            rule("end_check", est.jurisdiction),
            _("Le contrôle de fin de séance est effectué et signé par : %(roles)s.")
            % {"roles": ", ".join(str(Role(r).label) for r in allowed)},
        )
    return role


@transaction.atomic
def dice_end_check(
    *,
    session: TableSession,
    results: Sequence[DieResult],
    actor: AbstractBaseUser,
    return_to: Location,
    observations: str = "",
    cosigner: AbstractBaseUser | None = None,
    instruments: dict[str, str] | None = None,
) -> DiceCheck:
    """The end-of-séance check of every die at the table, written in the dice-in-service register.

    MC: done and signed by the sous-directeur, with a result per die and his observations
    (DICE-11); the checked dice become used and join the destruction queue (DICE-08). FR:
    micrometer, square and balancing-caliper results per die with the instruments used (DICE-24),
    signed by the directeur responsable or a comité member (``actor``) and the chef de table
    (``cosigner``, authenticated by the caller) (DICE-25); dice that pass go back to the cabinet.
    A failed or missing die opens a dice anomaly (INC-09); failed dice are set to damaged."""
    session = (
        TableSession.objects.select_for_update().select_related("seance__establishment", "table").get(pk=session.pk)
    )
    est = session.seance.establishment
    jurisdiction = est.jurisdiction
    _require_dice_table(session)
    if session.status == TableSession.Status.CLOSED:
        raise impossible(_("Cette table est fermée."))
    if DiceCheck.objects.filter(table_session=session).exists():
        raise RuleViolation(
            "DICE-11" if jurisdiction == "MC" else "DICE-25", _("Les dés de cette table ont déjà été contrôlés.")
        )
    if regular_allocation(session) is None:
        raise ValidationError(_("Aucun dé n'a été alloué à cette table."))
    signatories = est.setting("SET-15") or {}
    role = end_check_signer_role(actor, est)
    signatures = [_signature(actor, role)]
    cosigner_role = ""
    instruments = {key: (value or "").strip() for key, value in (instruments or {}).items()}
    if jurisdiction == "FR":
        if cosigner is None or cosigner.pk == actor.pk:
            raise RuleViolation(
                "DICE-25",
                _(
                    "Le contrôle porte les noms et signatures du chef de table et du "
                    "directeur ou du membre du comité de direction."
                ),
            )
        cosigner_role = _signatory(cosigner, est, signatories.get("end_check_table", ())) or ""
        if not cosigner_role:
            raise RuleViolation("DICE-25", _("La seconde signature est celle du chef de table."))
        signatures.append(_signature(cosigner, cosigner_role))
        if not all(instruments.get(key) for key in ("micrometer", "square", "balance")):
            raise RuleViolation("DICE-24", _("Indiquez le micromètre, l'équerre et le « balancing caliper » utilisés."))
    check_location(DICE, return_to)
    at_table = {die.pk: die for die in dice_at_table(session).select_for_update(of=("self",))}
    given = {result.die.pk: result for result in results}
    if len(given) != len(results) or set(given) - set(at_table):
        raise ValidationError(
            {"results": _("Les résultats portent sur les dés en service à cette table, une fois chacun.")}
        )
    unchecked = [die for pk, die in at_table.items() if pk not in given]
    if unchecked:
        raise RuleViolation(
            rule("end_results", jurisdiction),
            _("Chaque dé en service est contrôlé ; sans résultat : %(dice)s.")
            % {"dice": ", ".join(_serials(unchecked))},
        )
    rows, failed, missing = [], [], []
    for pk, die in sorted(at_table.items(), key=lambda item: (item[1].pair_id or 0, item[1].serial)):
        result = given[pk]
        if result.result not in (Result.OK, Result.ANOMALY, Result.MISSING):
            raise ValidationError({"results": _("Résultat inconnu pour le dé n° %(die)s.") % {"die": die.designation}})
        row = {
            "serial": die.serial,
            "sigle": die.sigle,
            "colour": die.colour,
            "result": result.result,
            "remark": result.remark.strip(),
        }
        row.update(_fr_result(die, result) if jurisdiction == "FR" else {"passed": result.result == Result.OK})
        rows.append(row)
        if result.result == Result.MISSING:
            missing.append(die)
        elif not row["passed"]:
            failed.append(die)
    register = service_register(est)
    with register_language():  # what is written in the registers is written in French
        now = timezone.now()
        incident = None
        if failed or missing:
            incident = _anomaly(
                est=est,
                actor=actor,
                dice=failed + missing,
                session=session,
                circumstances=observations,
                description=str(
                    _(
                        "Contrôle de fin de séance à la table %(table)s : dés non conformes %(failed)s ; dés "
                        "manquants %(missing)s."
                    )
                    % {
                        "table": session.table.number,
                        "failed": ", ".join(_serials(failed)) or "—",
                        "missing": ", ".join(_serials(missing)) or "—",
                    }
                ),
            )
        used_status = ItemStatus.OUT_OF_USE if jurisdiction == "MC" else ItemStatus.IN_STOCK
        for die in at_table.values():
            if die in missing:
                continue  # stays recorded at the table it was last seen at; the incident quarantines it
            if die in failed or die.status == ItemStatus.DAMAGED:
                die.status = ItemStatus.DAMAGED
            else:
                die.status = used_status
            die.location, die.table_session, die.play_role = return_to, None, ""
            save_audited(die, actor=actor, reason="contrôle de fin de séance")
        result_labels = dict(Result.CHOICES)
        if jurisdiction == "FR":
            detail = str(
                _("micromètre %(m)s, équerre %(s)s, balancing caliper %(b)s")
                % {"m": instruments["micrometer"], "s": instruments["square"], "b": instruments["balance"]}
            )
            lines = [
                str(
                    _("%(die)s : %(mm)s mm, équerre %(square)s, équilibre %(balance)s — %(verdict)s")
                    % {
                        "die": f"{r['serial']} / {r['sigle']} / {r['colour']}",
                        "mm": r["micrometer"] or "—",
                        "square": _mark(r["square"]),
                        "balance": _mark(r["balance"]),
                        "verdict": _verdict(r, result_labels),
                    }
                )
                for r in rows
            ]
        else:
            detail = str(_("%(ok)s conformes sur %(n)s") % {"ok": sum(r["passed"] for r in rows), "n": len(rows)})
            # The result of each die with its remark, as the register prints it (DICE-11).
            lines = [
                f"{r['serial']} / {r['sigle']} : {result_labels[r['result']]}"
                + (f" ({r['remark']})" if r["remark"] else "")
                for r in rows
            ]
        entry = _service_entry(
            register,
            session,
            actor=actor,
            role=role,
            event=str(_("Contrôle de fin de séance")),
            at=now,
            dice=lines,
            detail=detail,
            signatures=signatures,
            observations=observations.strip(),
            results=rows,
            instruments=instruments,
            incident=incident.pk if incident else None,
            returned_to=return_to.name,
        )
        return DiceCheck.objects.create(
            establishment=est,
            table_session=session,
            checked_at=now,
            checker=actor,
            checker_role=role,
            cosigner=cosigner if jurisdiction == "FR" else None,
            cosigner_role=cosigner_role,
            results=rows,
            instruments=instruments,
            observations=observations.strip(),
            incident=incident,
            entry=entry,
        )
