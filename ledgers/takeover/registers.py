"""The register of the take-over from paper: each opening inventory's preparation, signature,
visa and posting, and the paper volume each register continues."""

from collections.abc import Iterator

from django.utils.translation import gettext_lazy as _

from ledgers.core.roles import DIRECTORATE, Role
from ledgers.registers.kinds import Column, RegisterKind, register_kind
from ledgers.registers.opening import Need, opening_needs

PREPARERS = (*DIRECTORATE, Role.CARTIER, Role.EMPLOYE_RESPONSABLE)

TAKEOVER = register_kind(
    RegisterKind(
        code="reprise_existant",
        title=_("Registre de reprise de l'existant"),
        purpose=_(
            "Inscrire l'inventaire d'ouverture de chaque domaine repris des registres papier : son établissement, "
            "sa signature par la direction, le visa de l'autorité et son report aux registres, ainsi que le "
            "volume papier et la dernière page de chaque registre que l'établissement poursuit."
        ),
        columns=(
            Column("at", _("Date et heure"), 1.0),
            Column("operation", _("Opération"), 1.4),
            Column("inventory", _("Inventaire n°"), 0.7),
            Column("domain", _("Domaine"), 1.0),
            Column("paper_register", _("Registre papier"), 1.8),
            Column("pages", _("Pages"), 0.8),
            Column("summary", _("Contenu"), 2.6),
            Column("statement", _("Mention"), 1.6),
        ),
        record_roles=(*PREPARERS, Role.POLICE, Role.SCJ),
        paraph_roles=(Role.DIRECTEUR_JEUX, Role.DIRECTEUR_RESPONSABLE),
        requirements=("REG-20",),
    )
)


@opening_needs
def takeover_register(establishment) -> Iterator[Need]:
    """A house that starts with stock, keys, machines and paper registers of its own takes them
    over in this register before its first séance (REG-20): every house has it on its list."""
    yield Need(TAKEOVER.code, requirement="REG-20")
