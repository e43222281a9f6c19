from django import template
from django.utils.translation import gettext as _

from ledgers.slots.models import MeterCode

register = template.Library()


@register.filter
def meter_label(key: str) -> str:
    """A meter's key (``code[:em][:label]``) as the texts name it: "Entrées (crédits joués),
    électromécanique"."""
    code, *rest = str(key).split(":")
    electromechanical = rest[:1] == ["em"]
    label = rest[-1] if rest and rest[-1] != "em" else ""
    parts = [str(MeterCode(code).label) if code in MeterCode.values else code]
    if label:
        parts.append(label)
    if electromechanical:
        parts.append(_("électromécanique"))
    return ", ".join(parts)
