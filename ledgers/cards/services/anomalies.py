"""Anomalies reported on cards."""

import datetime
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.custody.models import (
    ItemStatus,
)
from ledgers.incidents.models import Incident

from ..models import (
    Anomaly,
    CardUnit,
    Condition,
)
from .common import REPORTERS, Kind, _Act, _anomaly, _lock, _person, _set, _to_main_depot, _write


@transaction.atomic
def cards_anomaly_report(
    *,
    units: Sequence[CardUnit],
    anomaly: str,
    cards: str,
    circumstances: str,
    actor: AbstractBaseUser,
    found_at: datetime.datetime | None = None,
) -> Incident:
    """A missing, surplus, marked or foreign card, found at any time, reported at once: the units
    are quarantined and a card-anomaly incident is opened (CARD-19 / INC-02, CARD-38 / INC-13);
    the incident's notices (inspecteur, directeur des jeux, SCJ / police) are then recorded."""
    est = units[0].establishment if units else None
    if est is None:
        raise ValidationError({"units": _("Choisissez au moins une unité de cartes.")})
    role = require_role(actor, est, REPORTERS)
    if anomaly not in Anomaly.values:
        raise ValidationError({"anomaly": _("Type d'anomalie inconnu.")})
    if not cards.strip():
        raise ValidationError({"cards": _("Indiquez la ou les cartes concernées.")})
    units = _lock(units, est)
    sessions = {u.table_session_id for u in units if u.table_session_id}
    session = units[0].table_session if len(sessions) == 1 else None
    label = Anomaly(anomaly).label
    incident = _anomaly(
        est,
        actor=actor,
        units=units,
        session=session,
        text=f"{label} — {cards.strip()}",
        circumstances=circumstances.strip(),
    )
    if found_at is not None:
        incident.found_at = found_at
        save_audited(incident, actor=actor, reason="heure de constatation")
    now = timezone.now()
    for unit in units:
        if anomaly == Anomaly.MARKED:
            _set(
                unit,
                actor=actor,
                reason="carte marquée",
                status=ItemStatus.MARKED,
                condition=Condition.IMPERFECT,
                withdrawn_at=now,
                withdrawal_reason=f"{label} — {cards.strip()}",
            )
        elif anomaly == Anomaly.MISSING:
            _set(
                unit,
                actor=actor,
                reason="carte manquante",
                follow=False,
                complete=False,
                completeness_checked_at=now,
                completeness_checked_by=actor,
            )
    if anomaly == Anomaly.MARKED:
        _to_main_depot([u for u in units if not u.table_session_id], est, actor)
    _write(
        _Act(
            est,
            Kind.ANOMALY,
            actor,
            role,
            units,
            session,
            result=f"{label} : {cards.strip()}",
            persons=[_person(actor, role)],
            ok=False,
            incident=incident,
            details={"anomaly": anomaly, "cards": cards.strip()},
        )
    )
    return incident
