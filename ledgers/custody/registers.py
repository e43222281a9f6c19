from django.utils.translation import gettext_lazy as _

from ledgers.core.roles import Role
from ledgers.registers.kinds import DIRECTORATE, Column, RegisterKind, register_kind

PURCHASE_ORDERS = register_kind(
    RegisterKind(
        code="bons_commande",
        title=_("Carnet des bons de commande"),
        purpose=_("Inscrire les bons de commande de cartes et de dés, leur visa et leur envoi."),
        columns=(
            Column("order", _("Bon n°"), 1.0),
            Column("event", _("Opération"), 1.2),
            Column("supplier", _("Fournisseur"), 1.8),
            Column("lines", _("Désignation et quantités"), 3.0),
            Column("visa", _("Visa"), 2.0),
        ),
        record_roles=(*DIRECTORATE, Role.SCJ, Role.POLICE),
        paraph_roles=(Role.DIRECTEUR_JEUX, Role.DIRECTEUR_RESPONSABLE),
        requirements=("CARD-07", "CARD-33", "DICE-16", "REG-07"),
        form="modèle 21",
    )
)
