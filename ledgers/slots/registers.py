"""The slot registers. MC: the slot files (socle file, inventory, technical sheets: REG-15) kept by
the Directeur de l'exploitation, and the intervention sheets (REG-16). FR: the registre de
contrôle technique modèle 26 (REG-38) and one fiche modèle 34 per machine (REG-39, qualifier: the
machine's casino number). Both: the meter readings of each relève.

Who cotes and paraphs (Section 12 matrix): the texts name nobody for these registers ("—" or "not
stated"), so the keeper opens them: MC the Directeur de l'exploitation, FR the directeur
responsable or a comité member (as for the other FR registers of the casino); the police may
also cote modèle 26 and visa it (BP). The modèles 29, 32 and 35 (Interior ministry control
officials, art. 69) belong to the slot accounting."""

from collections.abc import Iterator

from django.utils.translation import gettext_lazy as _

from ledgers.core.roles import DIRECTORATE, Role
from ledgers.registers.kinds import Column, RegisterKind, key_labels, register_kind
from ledgers.registers.opening import Need, opening_needs

from .models import MeterCode
from .templatetags.slots_labels import meter_label

_LINE = (
    Column("event", _("Opération"), 1.4),
    Column("at", _("Date et heure"), 1.0),
    Column("machine", _("Machine"), 1.0),
)

SLOT_FILES = register_kind(
    RegisterKind(
        code="slot_fichiers",
        title=_("Fichiers des machines à sous (socles, inventaire, fiches techniques)"),
        purpose=_(
            "Tenir à jour le fichier des socles, l'inventaire des machines, leurs fiches techniques et "
            "leurs déplacements."
        ),
        columns=(*_LINE, Column("detail", _("Détail"), 4.0), Column("signature", _("Signature"), 1.4)),
        record_roles=(Role.DIRECTEUR_EXPLOITATION, *DIRECTORATE, Role.SUPERVISEUR, Role.MECANICIEN),
        jurisdictions=("MC",),
        paraph_roles=(Role.DIRECTEUR_EXPLOITATION,),
        requirements=("REG-15", "SLOT-03", "SLOT-04", "SLOT-07", "SLOT-08", "SLOT-10"),
    )
)

INTERVENTION_SHEETS = register_kind(
    RegisterKind(
        code="slot_interventions",
        title=_("Fiches d'intervention sur les machines à sous"),
        purpose=_(
            "Inscrire les ouvertures de machines par les mécaniciens, l'heure d'arrêt, le motif, les "
            "travaux, les remises à zéro et la remise quotidienne des fiches à la Direction de "
            "l'exploitation."
        ),
        columns=(*_LINE, Column("detail", _("Motif, travaux"), 4.0), Column("signature", _("Signature"), 1.4)),
        record_roles=(Role.MECANICIEN, Role.SUPERVISEUR, Role.DIRECTEUR_EXPLOITATION),
        jurisdictions=("MC",),
        paraph_roles=(Role.DIRECTEUR_EXPLOITATION,),
        requirements=("REG-16", "SLOT-14", "SLOT-15"),
    )
)

TECHNICAL_CONTROL = register_kind(
    RegisterKind(
        code="slot_controle_technique",
        title=_("Registre de contrôle technique des machines à sous"),
        purpose=_(
            "Inscrire jour par jour les déplacements de machines, incidents techniques, réparations, "
            "entretiens, remises à zéro, interventions et visites de la SFM."
        ),
        columns=(*_LINE, Column("detail", _("Nature, motif, travaux"), 4.0), Column("signature", _("Signatures"), 1.6)),
        record_roles=(
            Role.COMITE,
            Role.DIRECTEUR_RESPONSABLE,
            Role.MECANICIEN,
            Role.EMPLOYE_JEUX,
            Role.TECHNICIEN_SFM,
            Role.SUPERVISEUR,
        ),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE, Role.COMITE, Role.POLICE),
        requirements=("REG-38", "SLOT-33", "SLOT-34", "SLOT-51", "SLOT-53", "SLOT-54"),
        form="modèle 26",
    )
)

MACHINE_FICHE = register_kind(
    RegisterKind(
        code="slot_fiche_34",
        title=_("Fiche technique d'inventaire de la machine"),
        purpose=_(
            "Retracer toutes les opérations ayant affecté la machine, de sa mise en service à la fin de "
            "son exploitation."
        ),
        columns=(*_LINE, Column("detail", _("Opération"), 4.0), Column("signature", _("Signature"), 1.4)),
        record_roles=(
            Role.DIRECTEUR_RESPONSABLE,
            Role.COMITE,
            Role.MECANICIEN,
            Role.EMPLOYE_JEUX,
            Role.TECHNICIEN_SFM,
            Role.SUPERVISEUR,
        ),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
        visa_roles=(Role.DIRECTEUR_RESPONSABLE, Role.COMITE, Role.POLICE),
        requirements=("REG-39", "SLOT-52"),
        form="modèle 34",
    )
)

METER_READINGS = register_kind(
    RegisterKind(
        code="slot_releves",
        title=_("Relevés des compteurs des machines à sous"),
        purpose=_(
            "Inscrire à chaque relève les compteurs de chaque poste de chaque machine, les boîtes retirées "
            "et remplacées et le rapprochement avec le comptage."
        ),
        columns=(
            *_LINE,
            Column("station", _("Poste"), 0.5),
            Column("meters", _("Compteurs"), 4.0),
            Column("detail", _("Écarts, boîtes"), 1.8),
        ),
        record_roles=(
            Role.SUPERVISEUR,
            Role.EMPLOYE_JEUX,
            Role.COMITE,
            Role.DIRECTEUR_RESPONSABLE,
            Role.DIRECTEUR_EXPLOITATION,
        ),
        paraph_roles=(Role.DIRECTEUR_EXPLOITATION, Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
        requirements=("SLOT-05", "SLOT-06", "SLOT-24", "SLOT-30", "SLOT-31", "SLOT-32"),
    )
)

# Where inventory events (machines, socles, sheets, moves) and technical events (interventions,
# RAM clears, SFM visits) go, per jurisdiction.
INVENTORY_KIND = {"MC": SLOT_FILES, "FR": TECHNICAL_CONTROL}
TECHNICAL_KIND = {"MC": INTERVENTION_SHEETS, "FR": TECHNICAL_CONTROL}

# MC: manual payments, disputes and orphans (SLOT-16 to 19), an orphan's line naming the customer
# who took it and his exclusion (INC-05); FR: the registre des jackpots et gains cumulés (REG-37),
# written by the cashier and signed with the comité member.
JACKPOTS = register_kind(
    RegisterKind(
        code="slot_jackpots",
        title=_("Registre des jackpots et gains cumulés"),
        purpose=_("Inscrire les paiements manuels de jackpots et gains cumulés, les contestations et les orphelins."),
        columns=(
            *_LINE,
            Column("amount", _("Montant"), 0.9),
            Column("detail", _("Combinaison, identité, décision"), 3.4),
            Column("signature", _("Signatures"), 1.8),
        ),
        record_roles=(Role.SUPERVISEUR, Role.CAISSIER, Role.COMITE, Role.MECANICIEN, Role.CHANGEUR),
        paraph_roles=(Role.DIRECTEUR_EXPLOITATION, Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
        requirements=("REG-37", "SLOT-16", "SLOT-17", "SLOT-18", "SLOT-19", "SLOT-35", "INC-05"),
    )
)

TOP_UPS = register_kind(
    RegisterKind(
        code="slot_complements",
        title=_("Cahier des compléments de paiement"),
        purpose=_(
            "Inscrire les compléments payés par le superviseur lorsqu'une machine a moins payé que la "
            "combinaison gagnante."
        ),
        columns=(
            *_LINE,
            Column("amount", _("Complément"), 0.9),
            Column("detail", _("Combinaison, dû, payé par la machine, client, avis du mécanicien"), 3.4),
            Column("signature", _("Signature"), 1.4),
        ),
        record_roles=(Role.SUPERVISEUR,),
        jurisdictions=("MC",),
        paraph_roles=(Role.DIRECTEUR_EXPLOITATION,),
        requirements=("REG-17", "SLOT-20"),
    )
)

# FR: one carnet de comptabilité modèle 29 per machine (qualifier: its casino number), each line
# visaed by the cashier and a comité member (SLOT-55, REG-41), coté et paraphé by the Interior
# ministry control officials (REG-26, art. 69).
ACCOUNTING_29 = register_kind(
    RegisterKind(
        code="slot_comptabilite_29",
        title=_("Carnet de comptabilité de la machine"),
        purpose=_(
            "Inscrire jour par jour les avances à la machine, les tickets émis et les gains payés à la "
            "caisse et, à chaque comptage, les comptages physique et électronique, les gains non réclamés "
            "et le produit réel des jeux."
        ),
        columns=(
            *_LINE,
            Column("amount", _("Montant"), 0.9),
            Column("detail", _("Détail"), 3.4),
            Column("signature", _("Visas"), 1.8),
        ),
        record_roles=(Role.CAISSIER,),
        jurisdictions=("FR",),
        paraph_roles=(Role.CONTROLE_INTERIEUR,),
        visa_roles=(Role.CONTROLE_INTERIEUR, Role.AGENT_VERIFICATEUR),
        requirements=("REG-26", "REG-41", "SLOT-55", "SLOT-42"),
        form="modèle 29",
    )
)

# FR: the état récapitulatif mensuel modèle 35 (SLOT-56), certified by the casino director and a
# comité member, coté et paraphé by the control officials (REG-26).
STATEMENT_35 = register_kind(
    RegisterKind(
        code="slot_recapitulatif_35",
        title=_("État récapitulatif mensuel du produit des machines à sous"),
        purpose=_(
            "Récapituler chaque dernier jour du mois, machine par machine, les résultats du carnet de "
            "comptabilité et le produit réel des jeux, total reporté au carnet des prélèvements."
        ),
        columns=(
            Column("event", _("Opération"), 1.4),
            Column("at", _("Date et heure"), 1.0),
            Column("amount", _("Montant"), 0.9),
            Column("detail", _("Détail"), 4.0),
            Column("signature", _("Signatures"), 1.8),
        ),
        record_roles=(Role.DIRECTEUR_RESPONSABLE,),
        jurisdictions=("FR",),
        paraph_roles=(Role.CONTROLE_INTERIEUR,),
        visa_roles=(Role.CONTROLE_INTERIEUR, Role.AGENT_VERIFICATEUR),
        requirements=("REG-26", "REG-41", "SLOT-56"),
        form="modèle 35",
    )
)

# FR: the état mensuel du relevé des compteurs modèle 32 (SLOT-47), certified by the comité member
# and the gaming employee, coté et paraphé by the control officials (REG-26).
METER_STATEMENT_32 = register_kind(
    RegisterKind(
        code="slot_releve_32",
        title=_("État mensuel du relevé des compteurs"),
        purpose=_(
            "Inscrire au comptage de fin de mois les compteurs de chaque machine du parc du mois, y compris "
            "les machines sorties du parc pendant le mois."
        ),
        columns=(
            Column("event", _("Opération"), 1.4),
            Column("at", _("Date et heure"), 1.0),
            Column("detail", _("Détail"), 4.8),
            Column("signature", _("Signatures"), 1.8),
        ),
        record_roles=(Role.EMPLOYE_JEUX,),
        jurisdictions=("FR",),
        paraph_roles=(Role.CONTROLE_INTERIEUR,),
        visa_roles=(Role.CONTROLE_INTERIEUR, Role.AGENT_VERIFICATEUR),
        requirements=("REG-26", "REG-41", "SLOT-47"),
        form="modèle 32",
    )
)

# The slot count sessions (SLOT-46): opened and closed with their type and the machines covered;
# each machine's count is its line in modèle 29 (FR) or its reconciled drop (MC, SLOT-11).
SLOT_COUNTS = register_kind(
    RegisterKind(
        code="slot_comptees",
        title=_("Comptées des machines à sous"),
        purpose=_(
            "Inscrire l'ouverture et la clôture de chaque comptée des boîtes des machines à sous, son type "
            "et les machines comptées."
        ),
        columns=(
            Column("event", _("Opération"), 1.4),
            Column("at", _("Date et heure"), 1.0),
            Column("detail", _("Détail"), 4.8),
            Column("signature", _("Signature"), 1.4),
        ),
        record_roles=(
            Role.COMITE,
            Role.CAISSIER,
            Role.DIRECTEUR_RESPONSABLE,
            Role.SUPERVISEUR,
            Role.COMPTABILITE,
            Role.DIRECTEUR_EXPLOITATION,
        ),
        paraph_roles=(Role.DIRECTEUR_EXPLOITATION, Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
        requirements=("SLOT-46",),
    )
)

# The change points of the slot room and who works them each séance (MC SLOT-21: register of change
# points and itinerant changeurs' assignments; FR SLOT-48, 49: the cash-desk register of the slot
# desk, secondary desks and itinerant changers with their fixed sum, the encaisse and its restoring,
# and the TITO tickets issued and paid that justify it, art. 68-26, SLOT-44).
CHANGE_POINTS = register_kind(
    RegisterKind(
        code="slot_caisse",
        title=_("Registre de la caisse et des points de change des machines à sous"),
        purpose=_(
            "Inscrire les points de change, les affectations de chaque séance, les changes, les tickets "
            "émis et payés, les justifications de l'encaisse et sa reconstitution après chaque séance, le "
            "coffret des fausses pièces et leur destruction."
        ),
        columns=(
            Column("event", _("Opération"), 1.4),
            Column("at", _("Date et heure"), 1.0),
            Column("amount", _("Montant"), 0.9),
            Column("detail", _("Détail"), 3.9),
            Column("signature", _("Signature"), 1.4),
        ),
        record_roles=(
            Role.CAISSIER,
            Role.CAISSIER_PRINCIPAL,
            Role.CHANGEUR,
            Role.SUPERVISEUR,
            Role.DIRECTEUR_EXPLOITATION,
            *DIRECTORATE,
        ),
        paraph_roles=(Role.DIRECTEUR_EXPLOITATION, Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
        requirements=("SLOT-21", "SLOT-48", "SLOT-49", "SLOT-45", "SLOT-50", "SLOT-44"),
    )
)

# FR: the registre des jackpots progressifs (REG-37, SLOT-36), filled every day at the close of play
# with the displayed amount of each progressive, with the stops and transfers of SLOT-37. The text
# names no paraphing authority: the keeper opens it, as the registre des jackpots et gains cumulés.
PROGRESSIVES = register_kind(
    RegisterKind(
        code="slot_jackpots_progressifs",
        title=_("Registre des jackpots progressifs"),
        purpose=_(
            "Inscrire chaque jour, à la fermeture des jeux, le montant affiché de chaque jackpot progressif, "
            "et ses arrêts et transferts."
        ),
        columns=(
            Column("event", _("Opération"), 1.3),
            Column("at", _("Date et heure"), 1.0),
            Column("jackpot", _("Jackpot"), 1.0),
            Column("machines", _("Machines"), 1.6),
            Column("amount", _("Montant"), 0.9),
            Column("detail", _("Détail"), 2.2),
            Column("signature", _("Rédacteur"), 1.4),
        ),
        record_roles=(Role.CAISSIER, Role.COMITE, Role.DIRECTEUR_RESPONSABLE, Role.EMPLOYE_JEUX),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
        requirements=("REG-37", "SLOT-36", "SLOT-37"),
    )
)

# FR: the registre du relevé des jackpots progressifs multisites modèle 28 S "JPM" (REG-40): the
# daily relevé before the opening, each win's annotation with its bons d'incrémentation, the
# SCCJ transmissions, the stops and withdrawals (SLOT-38 to SLOT-41).
JPM_28S = register_kind(
    RegisterKind(
        code="slot_jpm_28s",
        title=_("Registre du relevé des jackpots progressifs multisites"),
        purpose=_(
            "Inscrire chaque jour, avant l'ouverture, le montant affiché du JPM et le compteur « entrées » de "
            "chaque machine reliée ; annoter chaque gain et ses bons d'incrémentation."
        ),
        columns=(
            Column("event", _("Opération"), 1.3),
            Column("at", _("Date et heure"), 1.0),
            Column("jackpot", _("Jackpot"), 0.9),
            Column("amount", _("Montant"), 0.9),
            Column("meters", _("Compteurs « entrées »"), 2.6),
            Column("detail", _("Détail"), 1.8),
            Column("signature", _("Signatures"), 1.4),
        ),
        record_roles=(Role.CAISSIER, Role.COMITE, Role.DIRECTEUR_RESPONSABLE, Role.EMPLOYE_JEUX),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
        requirements=("REG-40", "REG-42", "SLOT-38", "SLOT-39", "SLOT-40", "SLOT-41"),
        form="modèle 28 S",
    )
)

# FR: the état de rapprochement modèle 31 (SLOT-43, REG-41), drawn up by the cashier at each meter
# reading; not in the art. 69 paraphe list (the Section 12 matrix: "not stated").
RECONCILIATION_31 = register_kind(
    RegisterKind(
        code="slot_rapprochement_31",
        title=_("État de rapprochement des compteurs et des paiements"),
        purpose=_(
            "Rapprocher à chaque relevé, machine par machine, les compteurs de jackpots et de gains cumulés des "
            "paiements à la caisse inscrits au carnet de comptabilité."
        ),
        columns=(
            Column("event", _("Opération"), 1.2),
            Column("at", _("Date et heure"), 1.0),
            Column("amount", _("Montant"), 0.9),
            Column("detail", _("Détail"), 4.4),
            Column("signature", _("Signatures"), 1.6),
        ),
        record_roles=(Role.CAISSIER,),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
        visa_roles=(Role.CONTROLE_INTERIEUR, Role.AGENT_VERIFICATEUR),
        requirements=("REG-41", "SLOT-43"),
        form="modèle 31",
    )
)


@key_labels
def meter_keys(key: str) -> str | None:
    """The meters of a relevé ("in", "cash_box:em") as the texts name them."""
    return meter_label(key) if key.split(":")[0] in MeterCode.values else None


@opening_needs
def slot_registers(establishment) -> Iterator[Need]:
    """A house with slot machines: MC the slot files (REG-15), the intervention sheets (REG-16), the
    payment top-ups (REG-17); FR the technical control (REG-38), the reconciliation and the monthly
    statements (REG-41); both the meter readings, the jackpots, the cash desk and the counts. The
    per-machine volumes (fiche modèle 34, carnet modèle 29) are created with the machine."""
    from .selectors import has_machines

    if not has_machines(establishment):
        return
    common = (METER_READINGS, JACKPOTS, CHANGE_POINTS, SLOT_COUNTS)
    if establishment.jurisdiction == "MC":
        kinds = (SLOT_FILES, INTERVENTION_SHEETS, TOP_UPS, *common)
    else:
        kinds = (TECHNICAL_CONTROL, *common, RECONCILIATION_31, METER_STATEMENT_32, STATEMENT_35)
    for kind in kinds:
        yield Need(kind.code)
