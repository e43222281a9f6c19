"""At the table: unsealing, controls, PAE preparation and confirmation."""

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role
from ledgers.core.errors import RuleViolation
from ledgers.core.models import LocationKind
from ledgers.core.roles import Role
from ledgers.custody.models import (
    ItemStatus,
)

from ..domains import rule_id
from ..models import (
    CardUnit,
    ShuffleMethod,
)
from .common import (
    TABLE_STAFF,
    Kind,
    _Act,
    _anomaly,
    _findings,
    _live_session,
    _lock,
    _person,
    _quarantined,
    _set,
    _write,
)


@transaction.atomic
def cards_unseal(
    *,
    unit: CardUnit,
    actor: AbstractBaseUser,
    seal_intact: bool,
    video_camera: str = "",
    video_reference: str = "",
    notes: str = "",
) -> CardUnit:
    """New decks are unsealed only at the table (CARD-13); FR: under CCTV, seal band checked
    (CARD-35). A broken seal band quarantines the unit and opens an incident."""
    est = unit.establishment
    role = require_role(actor, est, TABLE_STAFF)
    (unit,) = _lock([unit], est)
    session = _live_session(unit, est, "CARD-13", "CARD-35")
    if not unit.is_new:
        raise ValidationError({"unit": _("%(unit)s a déjà été décacheté.") % {"unit": unit}})
    if est.jurisdiction == "FR" and not (video_camera.strip() and video_reference.strip()):
        raise RuleViolation(
            "CARD-35", _("Indiquez la caméra et la référence de l'enregistrement de vidéoprotection du décachetage.")
        )
    _set(unit, actor=actor, reason="décachetage", is_new=False)
    if unit.parent_id:
        _set(unit.parent, actor=actor, reason="décachetage d'un jeu", follow=False, is_new=False)
    incident = None
    if not seal_intact:
        incident = _anomaly(
            est,
            actor=actor,
            units=[unit],
            session=session,
            custody_check=True,
            text=str(_("Bande de contrôle non intacte au décachetage de %(u)s.") % {"u": unit}),
            circumstances=notes,
        )
    result = str(_("bande de contrôle intacte")) if seal_intact else str(_("bande de contrôle NON intacte"))
    if video_reference.strip():
        result += f" — {_('vidéo')} {video_camera.strip()} / {video_reference.strip()}"
    _write(
        _Act(
            est,
            Kind.UNSEALING,
            actor,
            role,
            [unit],
            session,
            result=result,
            persons=[_person(actor, role)],
            incident=incident,
            ok=seal_intact,
            details={
                "seal_intact": seal_intact,
                "video_camera": video_camera.strip(),
                "video_reference": video_reference.strip(),
                "notes": notes.strip(),
            },
        )
    )
    return unit


@transaction.atomic
def cards_table_control(
    *,
    unit: CardUnit,
    actor: AbstractBaseUser,
    complete: bool,
    order_intact: bool,
    witnesses: str = "",
    notes: str = "",
) -> CardUnit:
    """Second control at the table (MC, CARD-15) / comptée et vérification (FR, CARD-36): cards
    spread face up, checked in the manufacturer's order. A failure opens an incident."""
    est = unit.establishment
    role = require_role(actor, est, TABLE_STAFF)
    (unit,) = _lock([unit], est)
    session = _live_session(unit, est, "CARD-15", "CARD-36")
    if any(d.is_new for d in unit.decks()):
        raise RuleViolation(
            rule_id(est, "CARD-13", "CARD-35"),
            _("Les jeux neufs de %(unit)s doivent d'abord être décachetés à table.") % {"unit": unit},
        )
    if unit.pae:
        raise ValidationError(
            {"unit": _("Un jeu prêt à l'emploi reçoit à table le second brassage et le second mélange.")}
        )
    ok = complete and order_intact
    now = timezone.now()
    _set(
        unit,
        actor=actor,
        reason="contrôle à table",
        complete=unit.complete and complete,
        completeness_checked_at=now,
        completeness_checked_by=actor,
    )
    incident = None
    if not ok:
        incident = _anomaly(
            est,
            actor=actor,
            units=[unit],
            session=session,
            text=str(
                _("Contrôle à table non conforme de %(u)s : %(f)s.")
                % {"u": unit, "f": _findings(complete, order_intact)}
            ),
            circumstances=notes,
        )
    persons = [_person(actor, role)] + (
        [str(_("en présence de %(w)s") % {"w": witnesses.strip()})] if witnesses.strip() else []
    )
    _write(
        _Act(
            est,
            Kind.SECOND_CONTROL,
            actor,
            role,
            [unit],
            session,
            result=_findings(complete, order_intact),
            persons=persons,
            incident=incident,
            ok=ok,
            details={
                "complete": complete,
                "order_intact": order_intact,
                "witnesses": witnesses.strip(),
                "notes": notes.strip(),
            },
        )
    )
    return unit


@transaction.atomic
def cards_pae_prepare(
    *,
    units: Sequence[CardUnit],
    actor: AbstractBaseUser,
    checked_by: str,
    shuffled_by: str,
    method: str,
    video_camera: str,
    video_reference: str,
    shuffler: str = "",
    complete: bool = True,
    order_intact: bool = True,
) -> list[CardUnit]:
    """Prêt-à-l'emploi preparation at the Dépôt Central des Cartes under video (CARD-20): checked
    in the manufacturer's order, then pre-shuffled by hand or with a shuffler. MC only."""
    est = units[0].establishment if units else None
    if est is None:
        raise ValidationError({"units": _("Choisissez au moins une unité de cartes.")})
    if est.jurisdiction != "MC":
        raise RuleViolation(
            "CARD-24", _("Les jeux prêts à l'emploi n'existent pas en France (pas de Dépôt Central des Cartes).")
        )
    role = require_role(actor, est, (Role.DCC_STAFF,))
    if not (video_camera.strip() and video_reference.strip()):
        raise RuleViolation(
            "CARD-20",
            _("La préparation se fait sous couverture vidéo : indiquez la caméra et la référence de l'enregistrement."),
        )
    if method not in ShuffleMethod.values:
        raise ValidationError({"method": _("Mode de mélange inconnu.")})
    if method == ShuffleMethod.SHUFFLER and not shuffler.strip():
        raise ValidationError({"shuffler": _("Indiquez le mélangeur utilisé.")})
    if not (checked_by.strip() and shuffled_by.strip()):
        raise ValidationError(_("Indiquez qui a vérifié et qui a mélangé les cartes."))
    units = _lock(units, est)
    for unit in units:
        if unit.location is None or unit.location.kind != LocationKind.DCC or unit.status != ItemStatus.IN_STOCK:
            raise RuleViolation(
                "CARD-20", _("%(unit)s n'est pas en stock au Dépôt Central des Cartes.") % {"unit": unit}
            )
        if _quarantined(unit):
            raise RuleViolation("CARD-19", _("%(unit)s fait l'objet d'un incident ouvert.") % {"unit": unit})
    ok = complete and order_intact
    for unit in units:
        if ok:
            _set(unit, actor=actor, reason="préparation prêt à l'emploi", pae=True, is_new=False)
        else:
            _set(unit, actor=actor, reason="préparation prêt à l'emploi", complete=unit.complete and complete)
    incident = None
    if not ok:
        incident = _anomaly(
            est,
            actor=actor,
            units=units,
            text=str(_("Vérification au DCC non conforme : %(f)s.") % {"f": _findings(complete, order_intact)}),
        )
    how = str(_("à la main")) if method == ShuffleMethod.HAND else str(_("mélangeur %(s)s") % {"s": shuffler.strip()})
    _write(
        _Act(
            est,
            Kind.PAE_PREPARATION,
            actor,
            role,
            units,
            result=f"{_findings(complete, order_intact)} — {_('pré-mélange')} {how} — {_('vidéo')} "
            f"{video_camera.strip()} / {video_reference.strip()}",
            persons=[
                _person(actor, role),
                str(_("vérifié par %(n)s") % {"n": checked_by.strip()}),
                str(_("mélangé par %(n)s") % {"n": shuffled_by.strip()}),
            ],
            incident=incident,
            ok=ok,
            details={
                "checked_by": checked_by.strip(),
                "shuffled_by": shuffled_by.strip(),
                "method": method,
                "shuffler": shuffler.strip(),
                "video_camera": video_camera.strip(),
                "video_reference": video_reference.strip(),
                "complete": complete,
                "order_intact": order_intact,
            },
        )
    )
    return units


@transaction.atomic
def cards_pae_confirm(*, unit: CardUnit, actor: AbstractBaseUser, shuffler: str = "", notes: str = "") -> CardUnit:
    """At the table, the gaming staff do the second mix face down and the second shuffle of a PAE
    deck (CARD-22); required before the table opens."""
    est = unit.establishment
    role = require_role(actor, est, TABLE_STAFF)
    (unit,) = _lock([unit], est)
    session = _live_session(unit, est, "CARD-22", "CARD-24")
    if not unit.pae:
        raise ValidationError({"unit": _("%(unit)s n'est pas un jeu prêt à l'emploi.") % {"unit": unit}})
    result = str(_("second brassage et second mélange effectués"))
    if shuffler.strip():
        result += f" ({_('mélangeur')} {shuffler.strip()})"
    _write(
        _Act(
            est,
            Kind.PAE_CONFIRMATION,
            actor,
            role,
            [unit],
            session,
            result=result,
            persons=[_person(actor, role)],
            ok=True,
            details={"shuffler": shuffler.strip(), "notes": notes.strip()},
        )
    )
    return unit
