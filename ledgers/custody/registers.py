import functools

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from ledgers.core.roles import Role
from ledgers.registers.kinds import DIRECTORATE, Column, RegisterKind, qualifier_labels, register_kind

from .domains import all_domains

PURCHASE_ORDERS = register_kind(
    RegisterKind(
        code="bons_commande",
        title=_("Carnet des bons de commande"),
        purpose=_(
            "Inscrire les fabricants et fournisseurs de cartes et de dés avec leur agrément, les bons de "
            "commande, leur visa et leur envoi."
        ),
        columns=(
            Column("order", _("Bon n°"), 1.0),
            Column("date", _("Date du bon"), 0.9),
            Column("event", _("Opération"), 1.2),
            Column("supplier", _("Fournisseur"), 1.8),
            # The supplier's approval each order is checked against (CARD-32, DICE-15), and its
            # registration or change, lines of their own.
            Column("approval", _("Agrément du fournisseur"), 1.8),
            Column("lines", _("Désignation et quantités"), 3.0),
            Column("visa", _("Visa"), 2.0),
        ),
        record_roles=(*DIRECTORATE, Role.SCJ, Role.POLICE),
        paraph_roles=(Role.DIRECTEUR_JEUX, Role.DIRECTEUR_RESPONSABLE),
        requirements=("CARD-07", "CARD-32", "CARD-33", "DICE-15", "DICE-16", "REG-07"),
        form="modèle 21",
    )
)

INTAKE_COLUMNS = (
    Column("movement", _("Mouvement"), 0.8),
    Column("category", _("Catégorie"), 1.4),
    Column("quantity", _("Qté"), 0.5),
    Column("serials", _("Numéros d'ordre"), 2.4),
    # Per-object particulars the texts ask to copy (decks of a sixain; dice: sigle and colour, DICE-17).
    Column("details", _("Détail"), 2.4),
    Column("supplier", _("Fournisseur"), 1.4),
    Column("order", _("Bon de commande"), 1.2),
    Column("reason", _("Motif de sortie"), 1.4),
    # The destruction and neutralisation minutes (CARD-10, CARD-11, DICE-07, REG-24).
    Column("minutes", _("Procès-verbal"), 2.2),
)
KEEPERS = (Role.CARTIER, Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR)

# MC: one intake register per category of cards, and one for dice, coté et paraphé by the
# Commissaire du Gouvernement (CARD-04, DICE-03, REG-01, REG-02). Qualifier: "<domain>-<category>".
PRISE_EN_CHARGE = register_kind(
    RegisterKind(
        code="prise_en_charge",
        title=_("Registre de prise en charge"),
        purpose=_("Enregistrer toutes les entrées et sorties définitives du matériel de jeu."),
        columns=INTAKE_COLUMNS,
        record_roles=(*KEEPERS, Role.DIRECTEUR_JEUX),
        jurisdictions=("MC",),
        # REG-24: the OUT entries of a destruction or neutralisation are its minutes, with the prior
        # SCJ notification (CARD-10, CARD-11, DICE-07).
        requirements=("REG-01", "REG-02", "REG-24", "CARD-04", "DICE-03"),
        # The dice register (qualifier "des"): coté et paraphé by the Commissaire du Gouvernement (REG-02).
        extra={"paraph_requirement_by_qualifier": {"des": "REG-02"}},
    )
)

# FR: the carnet de prise en charge modèle 19, visaed by the police, with separate sections
# (qualifier) for cards, sabots (reserved pages, SHOE-11) and dice (REG-06).
CARNET_19 = register_kind(
    RegisterKind(
        code="carnet_19",
        title=_("Carnet de prise en charge (modèle 19)"),
        purpose=_("Inscrire les numéros d'ordre à la réception, l'inventaire des sabots et toute sortie définitive."),
        columns=INTAKE_COLUMNS,
        record_roles=(Role.DIRECTEUR_RESPONSABLE, Role.COMITE, Role.EMPLOYE_RESPONSABLE),
        jurisdictions=("FR",),
        requirements=("REG-06", "CARD-26", "CARD-27", "SHOE-11", "DICE-17"),
        form="modèle 19",
    )
)

# MC: the daily subsidiary ledger of movements between the main and the annex depots
# (CARD-05, DICE-04, REG-03). Qualifier: the domain.
COMPTABILITE_ANNEXE = register_kind(
    RegisterKind(
        code="comptabilite_annexe",
        title=_("Comptabilité annexe des dépôts"),
        purpose=_("Retracer quotidiennement les mouvements entre le dépôt principal et les dépôts annexes."),
        columns=(
            Column("date", _("Journée"), 0.9),
            Column("operation", _("Opération"), 0.9),
            Column("from", _("Dépôt (d'origine)"), 1.4),
            Column("to", _("Dépôt de destination"), 1.4),
            Column("quantities", _("Catégories et quantités"), 1.8),
            Column("serials", _("Numéros d'ordre"), 2.4),
            Column("received_by", _("Reçu par"), 1.0),
        ),
        record_roles=KEEPERS,
        jurisdictions=("MC",),
        # The Direction des Jeux, or the Commissaire where SET-26 annex_ledger_paraphe asks for it.
        paraph_roles=(Role.DIRECTEUR_JEUX, Role.COMMISSAIRE),
        requirements=("REG-03", "CARD-05", "DICE-04"),
    )
)

# Both jurisdictions: objects taken out of a depot for use at a table and put back at the end of
# the partie (MC: CARD-12, CARD-18, SHOE-02; FR: the allocation of the séance and the return to
# the cabinet, CARD-37, SHOE-09). Qualifier: the domain.
TABLE_MOVEMENTS = register_kind(
    RegisterKind(
        code="sorties_tables",
        title=_("Registre des sorties en table et des rentrées"),
        purpose=_("Inscrire chaque sortie de matériel vers une table de jeu et sa rentrée au dépôt en fin de partie."),
        columns=(
            Column("movement", _("Mouvement"), 0.8),
            Column("date", _("Journée"), 0.9),
            Column("table", _("Table"), 0.8),
            Column("seance", _("Séance"), 1.2),
            Column("serials", _("Numéros"), 2.2),
            Column("from", _("Dépôt d'origine"), 1.3),
            Column("to", _("Dépôt de rentrée"), 1.3),
            Column("handled_by", _("Remis / rentré par"), 1.2),
            Column("received_by", _("Reçu par"), 1.1),
            Column("signed_by", _("Signature"), 1.1),
        ),
        record_roles=(
            *KEEPERS,
            Role.INSPECTEUR,
            Role.CHEF_TABLE,
            Role.CHEF_PARTIE,
            Role.DIRECTEUR_RESPONSABLE,
            Role.COMITE,
            Role.EMPLOYE_RESPONSABLE,
        ),
        paraph_roles=(Role.DIRECTEUR_JEUX, Role.DIRECTEUR_RESPONSABLE),
        requirements=("CARD-12", "CARD-18", "SHOE-02"),
    )
)


@qualifier_labels
def domain_qualifiers() -> dict:
    """The intake and annex registers are qualified by a domain's code ("cards") or by one of its
    categories ("des", "cards-sixain"): their titles name them as the domain does."""
    return _domain_qualifiers(translation.get_language())


@functools.cache
def _domain_qualifiers(language: str | None) -> dict:
    """``domain_qualifiers`` in ``language`` (the active one): the domains are declared at start-up,
    and every register title of a page asks."""
    labels = {}
    for domain in all_domains():
        labels[domain.code] = domain.label
        with translation.override("fr"):  # the sections of the carnet modèle 19 ("sabots")
            labels[str(domain.label).lower()] = domain.label
        for code, label in domain.categories():
            labels[code] = labels[f"{domain.code}-{code}"] = label
    return labels
