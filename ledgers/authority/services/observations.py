"""REG-44: the registre spécial d'observations and its follow-up."""

import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import role_named_by_text, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.registers.models import Entry, Register
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, entry_seq_next, register_language

from ..models import (
    Observation,
)
from ..registers import (
    OBSERVATION_WRITERS,
    OBSERVATIONS,
)
from .common import _local, _require_fr, _required


def _write(register: Register, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    """Every line of the police observations register is written here."""
    return entry_append(register=register, actor=actor, role=role, payload=payload)


def follow_up_days(establishment: Establishment) -> int:
    return int((establishment.setting("SET-41") or {}).get("days", 8))


@transaction.atomic
def observation_record(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser,
    visited_at: datetime.datetime,
    agents: str,
    operations: str,
    nature: str,
    text: str = "",
) -> Observation:
    """A verification visit written by a police surveillance agent: day and time, the nature of
    the operations, and any observations, instructions or injunctions (art. 92). Those call for a
    follow-up by the directeur responsable within SET-41 days."""
    _require_fr(establishment, OBSERVATIONS.title)
    role = role_named_by_text(
        actor,
        establishment,
        OBSERVATION_WRITERS,
        "REG-44",
        _(
            "Seuls les agents chargés de la surveillance inscrivent leurs visites et observations au registre spécial "
            "d'observations."
        ),
    )
    fields = _required(agents=agents, operations=operations)
    if nature not in Observation.Nature.values:
        raise ValidationError({"nature": _("Nature inconnue.")})
    text = text.strip()
    if nature != Observation.Nature.VISIT and not text:
        raise ValidationError({"text": _("Écrivez l'observation, l'instruction ou l'injonction.")})
    if visited_at > timezone.now():
        raise ValidationError({"visited_at": _("La visite ne peut pas être dans le futur.")})
    register = current_register(establishment, OBSERVATIONS.code)
    Establishment.objects.select_for_update().get(pk=establishment.pk)  # one number per observation
    number = Observation.objects.filter(establishment=establishment).count() + 1
    due_on = None
    if nature != Observation.Nature.VISIT:
        due_on = establishment.localtime(visited_at).date() + datetime.timedelta(days=follow_up_days(establishment))
    with register_language():
        payload = {
            "observation": number,
            "event": "observation",
            "visited_at": _local(establishment, visited_at),
            "agents": fields["agents"],
            "operations": fields["operations"],
            "nature": str(Observation.Nature(nature).label),
            "text": text,
            "follow_up_due": due_on.isoformat() if due_on else None,
            "signed_by": display_name(actor),
        }
    observation = Observation(
        establishment=establishment,
        register=register,
        number=number,
        visited_at=visited_at,
        agents=fields["agents"],
        operations=fields["operations"],
        nature=nature,
        text=text,
        written_by=actor,
        entry_seq=entry_seq_next(register),
        due_on=due_on,
    )
    save_audited(observation, actor=actor, reason="inscription")
    _write(register, actor=actor, role=role, payload=payload)
    return observation


@transaction.atomic
def observation_follow_up(*, observation: Observation, actor: AbstractBaseUser, text: str) -> Observation:
    """The follow-up the directeur responsable (or a replacement allowed by SET-41) gives to an
    observation, written opposite it. Late ones are accepted and flagged (REG-44)."""
    observation = Observation.objects.select_for_update().select_related("establishment").get(pk=observation.pk)
    est = observation.establishment
    allowed = (Role.DIRECTEUR_RESPONSABLE, *((est.setting("SET-41") or {}).get("replacements") or ()))
    role = role_named_by_text(
        actor,
        est,
        allowed,
        "REG-44",
        _("La suite réservée aux observations est mentionnée par le directeur responsable."),
    )
    if observation.due_on is None:
        raise ValidationError(_("Cette visite ne comporte aucune observation appelant une suite."))
    if observation.follow_up_seq:
        raise RuleViolation(
            "REG-44",
            _("La suite de l'observation n° %(n)s est déjà inscrite et signée : elle ne se modifie plus.")
            % {"n": observation.number},
        )
    fields = _required(text=text)
    now = timezone.now()
    late = est.localtime(now).date() > observation.due_on
    with register_language():
        payload = {
            "observation": observation.number,
            "event": "suite",
            "refers_to_seq": observation.entry_seq,
            "follow_up": fields["text"],
            "late": late,
            "signed_by": display_name(actor),
            "flags": [
                {
                    "code": "REG-44",
                    "text": str(
                        _("Suite mentionnée après le délai de %(days)s jours.") % {"days": follow_up_days(est)}
                    ),
                }
            ]
            if late
            else [],
        }
    observation.follow_up, observation.follow_up_by, observation.follow_up_at = fields["text"], actor, now
    observation.follow_up_seq = entry_seq_next(observation.register)
    save_audited(observation, actor=actor, reason="suite réservée")
    _write(observation.register, actor=actor, role=role, payload=payload)
    return observation
