"""Incidents the slot room's staff must report, through the incidents app (its register, notices and
closing): MC the sworn surveillance agents report any incident to their hierarchy and to the
superviseur responsible for operations (AM 88-384 art. 23-2, INC-06); FR the SFM's staff inform the
police of any anomaly of the machines or approved systems, without delay when urgent, otherwise by
written report (FR-2007 art. 68-30, INC-16). The incident closes only once the required notices
are recorded (``ledgers.incidents.selectors.missing_notices``); an urgent anomaly whose police
information comes later than the establishment's INC-16 setting after it was found (or has not come
by then) is flagged on the incidents list and page (``late_notices``)."""

import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import role_named_by_text
from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.incidents.models import Incident
from ledgers.incidents.services import incident_open

from ..models import Machine
from ..rules import ANOMALY, SURVEILLANCE_INCIDENT, URGENT_ANOMALY


def surveillance_incident_report(
    *,
    establishment: Establishment,
    description: str,
    actor: AbstractBaseUser,
    machine: Machine | None = None,
    circumstances: str = "",
    found_at: datetime.datetime | None = None,
) -> Incident:
    """MC: a sworn surveillance agent reports an incident; it closes only once both his hierarchy
    and the superviseur are recorded as informed (INC-06)."""
    if establishment.jurisdiction != "MC":
        raise ValidationError(_("Ce compte rendu des agents de surveillance est prévu à Monaco."))
    role_named_by_text(
        actor,
        establishment,
        (Role.AGENT_SURVEILLANCE,),
        "INC-06",
        _("Ce compte rendu est fait par un agent de surveillance assermenté."),
    )
    return incident_open(
        establishment=establishment,
        category=SURVEILLANCE_INCIDENT.code,
        description=description,
        actor=actor,
        subjects=[machine] if machine else [],
        circumstances=circumstances,
        found_at=found_at,
    )


def anomaly_report(
    *,
    establishment: Establishment,
    description: str,
    urgent: bool,
    actor: AbstractBaseUser,
    machine: Machine | None = None,
    system: str = "",
    found_at: datetime.datetime | None = None,
) -> Incident:
    """FR: an anomaly of a machine or an approved computer system found by the SFM's staff; it
    closes only once the police's information is recorded: urgent, at once by any channel,
    otherwise by a written report (INC-16)."""
    if establishment.jurisdiction != "FR":
        raise ValidationError(_("L'information de la police par la SFM est prévue en France."))
    role_named_by_text(
        actor, establishment, (Role.TECHNICIEN_SFM,), "INC-16", _("Ce signalement est fait par le personnel de la SFM.")
    )
    if machine is None and not system.strip():
        raise ValidationError(_("Indiquez la machine ou le système informatique agréé concerné."))
    if machine is not None and machine.establishment_id != establishment.pk:
        raise ValidationError(_("Machine inconnue."))
    category = URGENT_ANOMALY if urgent else ANOMALY
    return incident_open(
        establishment=establishment,
        category=category.code,
        description=description,
        actor=actor,
        subjects=[machine] if machine else [],
        circumstances=system.strip(),
        found_at=found_at,
    )
