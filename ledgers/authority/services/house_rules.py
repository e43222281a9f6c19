"""GAME-07, REG-19: the règlement intérieur and the options it allows."""

import datetime
from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, role_named_by_text
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, GamingTable
from ledgers.core.roles import Role
from ledgers.registers.models import Entry, Register
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, register_language

from .. import selectors
from ..models import (
    HouseOption,
    HouseRulesVersion,
    TableOptionChange,
)
from ..registers import (
    HOUSE_RULES,
)
from .common import _require_fr, _required


def _write(register: Register, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    """Every line of the règlement intérieur register is written here."""
    return entry_append(register=register, actor=actor, role=role, payload=payload)


@transaction.atomic
def house_rules_publish(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser,
    effective_from: datetime.date,
    reference: str,
    options: Iterable[str],
) -> HouseRulesVersion:
    """A new version of the posted règlement intérieur, signed by the directeur responsable."""
    _require_fr(establishment, HOUSE_RULES.title)
    role = role_named_by_text(
        actor,
        establishment,
        (Role.DIRECTEUR_RESPONSABLE,),
        "REG-19",
        _("Le règlement intérieur est signé par le directeur responsable."),
    )
    options = sorted(set(options))
    if set(options) - set(HouseOption.values):
        raise ValidationError({"options": _("Option inconnue.")})
    fields = _required(reference=reference)
    Establishment.objects.select_for_update().get(pk=establishment.pk)
    last = HouseRulesVersion.objects.filter(establishment=establishment).order_by("-version").first()
    if last is not None and effective_from <= last.effective_from:
        raise ValidationError(
            {
                "effective_from": _("Une nouvelle version prend effet après la précédente (%(date)s).")
                % {"date": last.effective_from.strftime("%d/%m/%Y")}
            }
        )
    version = (last.version if last else 0) + 1
    register = current_register(establishment, HOUSE_RULES.code)
    with register_language():
        labels = [str(HouseOption(o).label) for o in options]
    entry = _write(
        register,
        actor=actor,
        role=role,
        payload={
            "version": version,
            "event": "version",
            "effective_from": effective_from.isoformat(),
            "table": None,
            "options": labels,
            "reference": fields["reference"],
            "signed_by": display_name(actor),
        },
    )
    rules = HouseRulesVersion(
        establishment=establishment,
        version=version,
        effective_from=effective_from,
        reference=fields["reference"],
        options=options,
        signed_by=actor,
        entry_seq=entry.seq,
    )
    rules.save()
    return rules


@transaction.atomic
def table_option_set(*, table: GamingTable, option: str, enabled: bool, actor: AbstractBaseUser) -> TableOptionChange:
    """Put a house-rule option in force at a table, or withdraw it. Refused unless the règlement
    intérieur in force writes it (GAME-07)."""
    est = table.establishment
    _require_fr(est, HOUSE_RULES.title)
    role = require_role(actor, est, (Role.DIRECTEUR_RESPONSABLE, Role.COMITE))
    if option not in HouseOption.values:
        raise ValidationError({"option": _("Option inconnue.")})
    rules = selectors.house_rules_in_force(est)
    if enabled and (rules is None or option not in rules.options):
        raise RuleViolation(
            "GAME-07",
            _(
                "L'option « %(option)s » n'est pas écrite dans le règlement intérieur en "
                "vigueur : elle ne peut pas être appliquée."
            )
            % {"option": HouseOption(option).label},
        )
    with register_language():
        label = str(HouseOption(option).label)
    _write(
        current_register(est, HOUSE_RULES.code),
        actor=actor,
        role=role,
        payload={
            "version": rules.version if rules else None,
            "event": "option appliquée" if enabled else "option retirée",
            "effective_from": None,
            "table": table.number,
            "options": [label],
            "signed_by": display_name(actor),
        },
    )
    change = TableOptionChange(table=table, option=option, enabled=enabled, rules=rules, changed_by=actor)
    change.save()
    return change
