from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment

from .kinds import get_kind
from .models import Register


def open_registers(establishment: Establishment, kind: str) -> QuerySet[Register]:
    return Register.objects.filter(establishment=establishment, kind=kind, status=Register.Status.OPEN)


def current_register(establishment: Establishment, kind: str, qualifier: str = "") -> Register:
    """The open volume of a register kind (and qualifier) where entries go now.

    Refused when there is none: entries may only go into a volume the authority has coted and
    paraphed (REG-01 / REG-26), so nothing can be recorded "on loose sheets"."""
    register = open_registers(establishment, kind).filter(qualifier=qualifier).order_by("-created_at").first()
    if register is None:
        info = get_kind(kind)
        code = next((r for r in info.requirements if r.startswith("REG-")), "REG-20")
        raise RuleViolation(
            code,
            _("Aucun registre « %(title)s »%(qualifier)s ouvert (coté et paraphé) dans cet établissement.")
            % {"title": info.title, "qualifier": f" — {qualifier}" if qualifier else ""},
        )
    return register
