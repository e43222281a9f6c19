"""REG-23, SET-32, SLOT-29: the display checklists."""

import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import role_named_by_text
from ledgers.core.models import Establishment, GamingTable
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, register_language

from .. import displays
from ..models import (
    DisplayItem,
    RulesDisplay,
)
from ..registers import (
    DISPLAYS,
)
from .common import _require_fr

DISPLAY_CHECKERS = (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)


@transaction.atomic
def display_post(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser,
    item: str,
    posted_on: datetime.date,
    table: GamingTable | None = None,
    machine: Model | None = None,
) -> RulesDisplay:
    """An item of a table's or a machine's display checklist (REG-23), checked by the directeur
    responsable or a comité member (SLOT-29: a comité member, BP): what, posted on which date."""
    _require_fr(establishment, DISPLAYS.title)
    role = role_named_by_text(
        actor,
        establishment,
        DISPLAY_CHECKERS,
        "REG-23",
        _(
            "Les affichages et les dispositifs obligatoires sont vérifiés par le directeur responsable ou un membre du "
            "comité de direction."
        ),
    )
    if (table is None) == (machine is None):
        raise ValidationError(_("Indiquez une table ou une machine, et une seule."))
    subject = table or machine
    if subject.establishment_id != establishment.pk:
        raise ValidationError(_("Cette table ou cette machine n'est pas de l'établissement."))
    applicable = displays.table_items(table, with_bbj=True) if table else displays.machine_items(machine)
    required = next((r for r in applicable if r.item == item), None)
    if required is None:
        raise ValidationError({"item": _("Cet affichage ne concerne pas cette table ou cette machine.")})
    if posted_on > establishment.localtime(timezone.now()).date():
        raise ValidationError({"posted_on": _("La date d'affichage ne peut pas être dans le futur.")})
    label = _("Table %(n)s") % {"n": table.number} if table else _("Machine %(n)s") % {"n": machine.number}
    with register_language():
        payload = {
            "subject": str(label),
            "item": str(DisplayItem(item).label),
            "posted_on": posted_on.isoformat(),
            "requirement": required.code,
            "signed_by": display_name(actor),
        }
    entry = entry_append(
        register=current_register(establishment, DISPLAYS.code), actor=actor, role=role, payload=payload
    )
    line = RulesDisplay(
        establishment=establishment,
        table=table,
        machine=machine,
        item=item,
        posted_on=posted_on,
        checked_by=actor,
        entry_seq=entry.seq,
    )
    line.save()
    return line
