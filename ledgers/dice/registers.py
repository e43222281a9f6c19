"""The registers of the dice in service. Receipts and definitive exits go to the shared intake
registers (MC prise en charge "des", FR carnet modèle 19 section "des"), depot movements to the
MC comptabilité annexe (qualifier "dice") and orders to the bons de commande (custody)."""

from collections.abc import Iterator

from django.utils.translation import gettext_lazy as _

from ledgers.core.games import Equipment
from ledgers.core.roles import Role
from ledgers.registers.kinds import Column, RegisterKind, register_kind
from ledgers.registers.opening import Need, games_played, opening_needs

# Payload keys shared by both kinds: what a printed page shows, one line per operation.
# "dice" and "signatures" are lists (joined when printed).
_COMMON = (
    Column("event", _("Opération"), 1.3),
    Column("date", _("Date"), 0.8),
    Column("seance", _("Séance"), 0.9),
    Column("table", _("Table n°"), 0.6),
    Column("time", _("Heure"), 0.55),
)

# MC: "un registre prévu à cet effet" (000 art. 2): allocation, swaps and end-of-séance check,
# signed by the sous-directeur. SET-26 (AMB-36) decides whether the Commissaire du Gouvernement
# cotes and paraphs it (recommended, default on); the dice services enforce the setting.
DICE_SERVICE = register_kind(
    RegisterKind(
        code="des_en_service",
        title=_("Registre des dés en service aux tables de craps"),
        purpose=_(
            "Inscrire les numéros et sigles des dés en service à chaque table de craps, la dotation signée "
            "par le sous-directeur, les changements de dés et le contrôle de fin de séance."
        ),
        columns=(
            *_COMMON,
            Column("dice", _("Dés (numéro d'ordre / sigle)"), 3.0),
            Column("detail", _("Motif, résultats"), 2.2),
            Column("signatures", _("Nom et signature"), 1.6),
            Column("observations", _("Observations"), 1.8),
        ),
        record_roles=(Role.CARTIER, Role.CHEF_TABLE, Role.INSPECTEUR, Role.SOUS_DIRECTEUR, Role.DIRECTEUR_JEUX),
        jurisdictions=("MC",),
        paraph_roles=(Role.COMMISSAIRE, Role.DIRECTEUR_JEUX),
        requirements=("REG-05", "DICE-09", "DICE-10", "DICE-11", "DICE-12"),
    )
)

# FR: "un registre spécial" (55-22): the four dice of each rampo table with their colours, the
# allocation signed by the directeur responsable or a comité member, the end-of-séance check with
# the instruments and both signatures. No text names who cotes it (SET-26).
RAMPO_REGISTER = register_kind(
    RegisterKind(
        code="rampo_special",
        title=_("Registre spécial des dés en service au rampo"),
        purpose=_(
            "Inscrire les numéros, sigles et couleurs des dés en service à chaque table de rampo, la dotation "
            "signée, les changements de dés et le contrôle de fin de séance au micromètre, à l'équerre et au "
            "« balancing caliper »."
        ),
        columns=(
            *_COMMON,
            Column("dice", _("Dés (numéro d'ordre / sigle / couleur)"), 3.2),
            Column("detail", _("Motif, instruments, résultats"), 2.4),
            Column("signatures", _("Noms et signatures"), 1.8),
            Column("observations", _("Observations"), 1.6),
        ),
        record_roles=(Role.CHEF_TABLE, Role.DIRECTEUR_RESPONSABLE, Role.COMITE, Role.EMPLOYE_RESPONSABLE),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE, Role.COMITE, Role.POLICE),
        requirements=("REG-08", "DICE-22", "DICE-23", "DICE-24", "DICE-25", "DICE-26"),
    )
)

SERVICE_KIND = {"MC": DICE_SERVICE, "FR": RAMPO_REGISTER}


@opening_needs
def dice_registers(establishment) -> Iterator[Need]:
    """A house whose tables play with dice: the dice in service (MC REG-05, FR REG-08), their intake
    (MC REG-02, FR the "des" section of modèle 19, DICE-17), the purchase orders (MC DICE-05, FR
    DICE-16) and, in Monaco, the annex ledger of the depots (DICE-04)."""
    from ledgers.custody.registers import COMPTABILITE_ANNEXE, PURCHASE_ORDERS

    from .domains import DICE

    if not games_played(establishment, Equipment.DICE):
        return
    mc = establishment.jurisdiction == "MC"
    yield Need(SERVICE_KIND[establishment.jurisdiction].code, requirement="REG-05" if mc else "REG-08")
    for kind, qualifier in sorted(DICE.intake_registers(establishment)):
        yield Need(kind, qualifier, requirement="REG-02" if mc else "DICE-17")
    yield Need(PURCHASE_ORDERS.code, DICE.code, requirement="DICE-05" if mc else "DICE-16")
    if mc:
        yield Need(COMPTABILITE_ANNEXE.code, DICE.code, requirement="DICE-04")
