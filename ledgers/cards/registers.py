"""The register of cards in service: what the texts make the card room and the tables record
besides the intake registers (CARD-12 to CARD-23, CARD-34 to CARD-37). The intake registers and
the daily annex ledger are the shared kinds of ``ledgers.custody.registers``."""

from collections.abc import Iterator

from django.utils.translation import gettext_lazy as _

from ledgers.core.games import Equipment
from ledgers.core.roles import Role
from ledgers.registers.kinds import Column, RegisterKind, register_kind
from ledgers.registers.opening import Need, games_played, opening_needs

# Who writes a line: the card room, the table staff, the inspecteur, the Direction; FR the
# holder of the single key of the card cabinet (directeur responsable or comité member).
WRITERS = (
    Role.CARTIER,
    Role.DCC_STAFF,
    Role.CROUPIER,
    Role.CHEF_TABLE,
    Role.CHEF_PARTIE,
    Role.INSPECTEUR,
    Role.SOUS_DIRECTEUR,
    Role.DIRECTEUR_JEUX,
    Role.DIRECTEUR_RESPONSABLE,
    Role.COMITE,
    Role.EMPLOYE_RESPONSABLE,
)

CARDS_IN_SERVICE = register_kind(
    RegisterKind(
        code="cartes_service",
        title=_("Registre des cartes en service"),
        purpose=_(
            "Inscrire les sorties de cartes pour les tables, les décachetages, les contrôles, la préparation des "
            "jeux prêts à l'emploi, les échanges de cartes détériorées, les rentrées au dépôt et les retraits."
        ),
        columns=(
            Column("at", _("Date et heure"), 1.0),
            Column("operation", _("Opération"), 1.4),
            Column("table", _("Table"), 1.1),
            Column("seance", _("Séance"), 1.1),
            Column("units", _("Numéros d'ordre"), 1.8),
            Column("result", _("Constatations"), 2.2),
            Column("persons", _("Intervenants"), 1.5),
            Column("flags", _("Exceptions"), 1.3),
        ),
        record_roles=WRITERS,
        visa_roles=(
            Role.INSPECTEUR,
            Role.SOUS_DIRECTEUR,
            Role.DIRECTEUR_JEUX,
            Role.DIRECTEUR_RESPONSABLE,
            Role.COMITE,
            Role.SCJ,
            Role.COMMISSAIRE,
            Role.POLICE,
        ),
        paraph_roles=(Role.DIRECTEUR_JEUX, Role.DIRECTEUR_RESPONSABLE),
        requirements=(
            "REG-20",
            "CARD-12",
            "CARD-13",
            "CARD-14",
            "CARD-15",
            "CARD-16",
            "CARD-18",
            "CARD-20",
            "CARD-22",
            "CARD-23",
            "CARD-34",
            "CARD-35",
            "CARD-36",
            "CARD-37",
            "INC-03",
        ),
    )
)


@opening_needs
def card_registers(establishment) -> Iterator[Need]:
    """A house whose tables play with cards: the cards in service (MC CARD-12, FR CARD-34), the
    intake registers (MC one per category, CARD-04; FR the "cartes" section of modèle 19, REG-06),
    the purchase orders (CARD-07, CARD-33), the movements to the tables and back (CARD-12,
    CARD-37) and, in Monaco, the daily annex ledger of the depots (CARD-05)."""
    from ledgers.custody.registers import COMPTABILITE_ANNEXE, PURCHASE_ORDERS, TABLE_MOVEMENTS

    from .domains import CARDS

    if not games_played(establishment, Equipment.CARDS):
        return
    mc = establishment.jurisdiction == "MC"
    yield Need(CARDS_IN_SERVICE.code, requirement="CARD-12" if mc else "CARD-34")
    for kind, qualifier in sorted(CARDS.intake_registers(establishment)):
        yield Need(kind, qualifier, requirement="CARD-04" if mc else "REG-06")
    yield Need(PURCHASE_ORDERS.code, CARDS.code, requirement="CARD-07" if mc else "REG-07")
    yield Need(TABLE_MOVEMENTS.code, CARDS.code, requirement="CARD-12" if mc else "CARD-37")
    if mc:
        yield Need(COMPTABILITE_ANNEXE.code, CARDS.code, requirement="CARD-05")
