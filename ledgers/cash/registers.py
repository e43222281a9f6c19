"""Register kinds of the table cash. Columns are what the printed register shows: dotted keys
reach nested payload values, lists print joined."""

from collections.abc import Iterator

from django.utils.translation import gettext_lazy as _

from ledgers.core.roles import Role
from ledgers.registers.kinds import Column, RegisterKind, register_kind
from ledgers.registers.opening import Need, opening_needs, places_in_service, tables_in_service

FLOAT_COLUMNS = (
    Column("date", _("Date"), 0.8),
    Column("seance", _("Séance"), 1.0),
    Column("table", _("Table n°"), 0.6),
    Column("event", _("Opération"), 1.2),
    Column("sabot.number", _("Sabot n°"), 0.6),
    Column("amount", _("Montant"), 0.9),
    Column("breakdown", _("Nomenclature"), 2.4),
    # The end-of-séance encaisse is written with the tips and certified (art. 43, 70; COUNT-15, COUNT-36).
    Column("tips", _("Pourboires"), 0.7),
    Column("certification", _("Certification"), 0.9),
    Column("signed_by", _("Signature"), 1.3),
    Column("flags", _("Observations"), 1.8),
)

# Who may make one of the two blind counts of a table's encaisse (services/common.COUNTERS).
BLIND_COUNTERS = (Role.CROUPIER, Role.CHEF_TABLE, Role.CAISSIER, Role.CAISSIER_PRINCIPAL, Role.INSPECTEUR)

# FR carnet d'avances (modèle 10), one per table cash box and numbered like it (qualifier: the
# table number, COUNT-49): the avance and its top-ups signed by the directeur responsable or a
# comité member (COUNT-34), the sabot allocation of punto banco and blackjack (SHOE-06, AMB-49,
# written by ledgers.equipment), the encaisse certified "exact" (COUNT-15, COUNT-50). Coté et
# paraphé by the Interior ministry control officials (art. 69, REG-26), who may also visa it (art. 70).
CARNET_AVANCES = register_kind(
    RegisterKind(
        code="carnet_avances",
        title=_("Carnet d'avances"),
        purpose=_("Inscrire par séance l'avance de la table, ses compléments, l'affectation du sabot et l'encaisse."),
        columns=FLOAT_COLUMNS,
        # The counters write the line of each blind count, without its amount (COUNT-15).
        record_roles=(Role.DIRECTEUR_RESPONSABLE, Role.COMITE, Role.EMPLOYE_RESPONSABLE, *BLIND_COUNTERS),
        jurisdictions=("FR",),
        paraph_roles=(Role.CONTROLE_INTERIEUR,),
        visa_roles=(Role.CONTROLE_INTERIEUR,),
        requirements=(
            "REG-09",
            "REG-26",
            "COUNT-12",
            "COUNT-15",
            "COUNT-34",
            "COUNT-49",
            "COUNT-50",
            "SHOE-06",
            "COUNT-16",
            "AMB-49",
        ),
        form="modèle 10",
        one_open_volume="COUNT-49",  # one open carnet per box, numbered like it (art. 70)
    )
)

# MC: the sums placed in the bank of each table (art. 14) and the end-of-séance counts of the
# table and its banknote box (art. 17.2). The text names no register; one volume per establishment.
BANQUE_TABLES = register_kind(
    RegisterKind(
        code="banque_tables",
        title=_("Registre des sommes mises en banque et des comptées"),
        purpose=_("Inscrire par séance la somme mise en banque de chaque table et la comptée de fin de séance."),
        columns=FLOAT_COLUMNS,
        record_roles=(
            Role.CAISSIER,
            Role.CAISSIER_PRINCIPAL,
            Role.INSPECTEUR,
            Role.SOUS_DIRECTEUR,
            Role.DIRECTEUR_JEUX,
            Role.CROUPIER,  # with the chef de table, the counters of a blind count (COUNT-05)
            Role.CHEF_TABLE,
        ),
        jurisdictions=("MC",),
        paraph_roles=(Role.DIRECTEUR_JEUX,),
        requirements=("COUNT-01", "COUNT-05"),
    )
)

# Slips between the tables (or changeurs) and the cash desks: MC change slips and changeur
# replenishment slips (REG-14), FR ravitaillement bons (REG-33). One volume per establishment.
BONS_CAISSE = register_kind(
    RegisterKind(
        code="bons_caisse",
        title=_("Registre des bons de change et de ravitaillement"),
        purpose=_("Suivre chaque bon numéroté : rédaction, signatures, service à la caisse, annulation."),
        columns=(
            Column("book", _("Carnet"), 0.7),
            Column("number", _("Bon n°"), 0.5),
            Column("event", _("Opération"), 1.0),
            Column("table", _("Table"), 0.6),
            Column("seance", _("Séance"), 1.0),
            Column("requested", _("Demandé"), 2.0),
            Column("handed", _("Remis en échange"), 2.0),
            Column("total", _("Total"), 0.7),
            Column("signatures", _("Signatures"), 2.0),
        ),
        record_roles=(
            Role.CHEF_TABLE,
            Role.CHANGEUR,
            Role.CAISSIER,
            Role.CAISSIER_PRINCIPAL,
            Role.INSPECTEUR,
            Role.DIRECTEUR_JEUX,
            Role.SOUS_DIRECTEUR,
            Role.DIRECTEUR_RESPONSABLE,
            Role.COMITE,
        ),
        paraph_roles=(Role.DIRECTEUR_JEUX, Role.DIRECTEUR_RESPONSABLE),
        requirements=("REG-14", "REG-33", "COUNT-04", "COUNT-06", "COUNT-29"),
    )
)

# FR registre de change, one per gaming cash desk and numbered like it (qualifier: the desk code,
# COUNT-26), coté et paraphé before use by the comptable du Trésor (quoted art. 36, AMB-48, SET-26).
REGISTRE_CHANGE = register_kind(
    RegisterKind(
        code="registre_change",
        title=_("Registre de change"),
        purpose=_("Enregistrer les échanges de plaques, jetons et espèces de la caisse de jeux."),
        columns=(
            Column("at", _("Date et heure"), 1.0),
            Column("operation", _("Opération"), 1.4),
            Column("reference", _("Pièce"), 0.9),
            Column("given", _("Remis"), 2.0),
            Column("received", _("Reçu"), 2.0),
            Column("total", _("Montant"), 0.8),
            Column("cashier", _("Caissier"), 1.2),
        ),
        record_roles=(Role.CAISSIER, Role.CAISSIER_PRINCIPAL),
        jurisdictions=("FR",),
        paraph_roles=(Role.COMPTABLE_TRESOR,),
        requirements=("REG-29", "COUNT-26"),
        one_open_volume="COUNT-26",  # one register per gaming cash desk, numbered like it (art. 36)
    )
)

# FR registre de contrôle (modèle 12): one line per table and séance carried from the certified
# carnets, without blank lines, totalled and closed in words each day, visaed by the directeur
# responsable (or the comité member replacing him) and another comité member (art. 72, COUNT-56).
REGISTRE_CONTROLE = register_kind(
    RegisterKind(
        code="registre_controle",
        title=_("Registre de contrôle"),
        purpose=_("Reporter chaque jour les résultats des tables, les totaliser et les arrêter en toutes lettres."),
        columns=(
            Column("date", _("Date"), 0.8),
            Column("seance", _("Séance"), 1.0),
            Column("table", _("Table n°"), 0.6),
            Column("game", _("Jeu"), 1.2),
            Column("result", _("Résultat"), 0.9),
            Column("carried", _("Report"), 0.9),
            Column("total_words", _("Arrêté en toutes lettres"), 3.0),
        ),
        record_roles=(Role.CAISSIER_PRINCIPAL, Role.COMPTABILITE),
        jurisdictions=("FR",),
        paraph_roles=(Role.CONTROLE_INTERIEUR,),
        visa_roles=(Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
        requirements=("REG-34", "REG-26", "COUNT-56"),
        form="modèle 12",
    )
)

# FR carnet d'enregistrement des cagnottes (modèle 11), one per cercle table, numbered like it
# (qualifier: the table number, COUNT-52): column 3 the croupiers and changeurs and, at baccara, the
# sabot allocated for the séance (SHOE-13, AMB-49, written by ledgers.equipment); columns 4 to 8
# the tickets detached and the cagnotte computed, column 9 the cagnotte counted, 10 / 11 the
# surplus or shortfall, 13 the last balancing ticket, 15 the amount carried to modèle 12; the count
# "certifié exact" by the directeur responsable or a comité member (COUNT-43, COUNT-53). Coté et
# paraphé by the Interior ministry control officials (art. 69, REG-26).
CARNET_CAGNOTTES = register_kind(
    RegisterKind(
        code="carnet_cagnottes",
        title=_("Carnet d'enregistrement des cagnottes"),
        purpose=_("Inscrire par séance le personnel de la table, le sabot affecté et les cagnottes."),
        columns=(
            Column("date", _("Col. 1 — Date"), 0.8),
            Column("seance", _("Séance"), 1.0),
            Column("col2", _("Col. 2 — Heure d'ouverture"), 0.5),
            Column("table", _("Table n°"), 0.5),
            Column("col3.bankers", _("Col. 3 — Banquiers (baccara à deux tableaux)"), 1.0),
            Column("col3.names", _("Col. 3 (3 bis au baccara à deux tableaux) — Croupiers et changeurs"), 1.6),
            Column("col3.sabot", _("Col. 3 — Sabot n°"), 0.6),
            Column("tickets", _("Col. 4 à 7 — Tickets détachés"), 2.0),
            Column("col8", _("Col. 8 — Cagnotte calculée"), 0.8),
            Column("col9", _("Col. 9 — Cagnotte comptée"), 0.8),
            Column("col10", _("Col. 10 — Excédent"), 0.6),
            Column("col11", _("Col. 11 — Manquant"), 0.6),
            Column("col13", _("Col. 13 — Dernier ticket d'équilibre"), 0.7),
            Column("col15", _("Col. 15 — Report au modèle 12"), 0.8),
            Column("certification", _("Observations"), 1.4),
        ),
        # The counters write the line of each blind count, without its amount (COUNT-15).
        record_roles=(Role.DIRECTEUR_RESPONSABLE, Role.COMITE, Role.EMPLOYE_RESPONSABLE, *BLIND_COUNTERS),
        jurisdictions=("FR",),
        paraph_roles=(Role.CONTROLE_INTERIEUR,),
        visa_roles=(Role.CONTROLE_INTERIEUR,),
        requirements=("REG-30", "REG-26", "COUNT-43", "COUNT-52", "COUNT-53", "SHOE-13", "AMB-49"),
        form="modèle 11",
    )
)

# FR poker (texas hold'em, omaha): the rake of each pot of a table-partie, at the rate posted at the
# table and within the cap of the partie's buy-in (art. 57-2, 57-4-3, COUNT-18, COUNT-19), with the
# time, the pot, the rake taken into the table's cagnotte and the gain paid, as art. 56-1 has an
# approved machine trace them; the cagnotte's count is checked against their sum. The text names no
# register: nobody is named to cote and paraph it (SET-26), the directeur responsable.
RETENUES_POTS = register_kind(
    RegisterKind(
        code="retenues_pots",
        title=_("Relevé des retenues par pot"),
        purpose=_(
            "Inscrire, par table et par partie, chaque pot, la retenue opérée au profit de la cagnotte "
            "et le gain versé."
        ),
        columns=(
            Column("date", _("Date"), 0.8),
            Column("seance", _("Séance"), 1.0),
            Column("table", _("Table n°"), 0.5),
            Column("pot_number", _("Pot n°"), 0.4),
            Column("time", _("Heure"), 0.5),
            Column("pot", _("Montant du pot"), 0.8),
            Column("cave", _("Cave initiale"), 0.7),
            Column("rate", _("Taux affiché"), 0.5),
            Column("allowed", _("Retenue due"), 0.7),
            Column("taken", _("Retenue opérée"), 0.7),
            Column("gain", _("Gain versé"), 0.8),
            Column("flags", _("Observations"), 1.6),
            Column("signed_by", _("Croupier"), 1.2),
        ),
        record_roles=(Role.CROUPIER, Role.CHEF_TABLE),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE,),
        requirements=("COUNT-18", "COUNT-19"),
    )
)

# MC chemin de fer: the ticket books of each table and the check of the tickets detached before
# the cagnotte is opened, then its count (art. 11.7, REG-13). The text names no register.
CAGNOTTES_MC = register_kind(
    RegisterKind(
        code="cagnottes_mc",
        title=_("Registre des carnets de tickets et des cagnottes"),
        purpose=_("Inscrire les carnets de tickets de chaque table, leur vérification et le comptage des cagnottes."),
        columns=(
            Column("date", _("Date"), 0.8),
            Column("seance", _("Séance"), 1.0),
            Column("table", _("Table n°"), 0.5),
            Column("event", _("Opération"), 1.2),
            Column("tickets", _("Tickets détachés"), 2.0),
            Column("col8", _("Cagnotte calculée"), 0.8),
            Column("col9", _("Cagnotte comptée"), 0.8),
            Column("difference", _("Écart"), 0.7),
            Column("signed_by", _("Signature"), 1.3),
        ),
        record_roles=(Role.INSPECTEUR, Role.SOUS_DIRECTEUR, Role.DIRECTEUR_JEUX, Role.SCJ, Role.CARTIER),
        jurisdictions=("MC",),
        paraph_roles=(Role.DIRECTEUR_JEUX,),
        requirements=("REG-13", "COUNT-07", "COUNT-08"),
    )
)

# FR registre du bad beat jackpot (modèle 8 quater): per table and séance the BBJ cagnotte counted,
# the computer statement certified by the comité member, the amount retained, the adjustment or
# the casino's contribution, and the amount displayed validated by the comité member (art. 56-3-1,
# COUNT-21 to COUNT-24); the BBJ's conditions, its stops and each win with its payment bons, signed by
# the cashier and the comité member (COUNT-45, COUNT-47, COUNT-48). Nobody is named to cote and
# paraph it (SET-26): the directeur responsable.
REGISTRE_BBJ = register_kind(
    RegisterKind(
        code="registre_bbj",
        title=_("Registre du bad beat jackpot"),
        purpose=_("Inscrire par séance et par table la retenue du bad beat jackpot et le montant affiché."),
        columns=(
            Column("date", _("Date"), 0.8),
            Column("seance", _("Séance"), 1.0),
            Column("table", _("Table n°"), 0.5),
            Column("counted", _("Cagnotte comptée"), 0.8),
            Column("statement", _("Relevé informatique certifié"), 0.9),
            Column("retained", _("Retenue inscrite"), 0.8),
            Column("difference", _("Écart et traitement"), 1.8),
            Column("displayed", _("Montant affiché (validé)"), 0.9),
            Column("event", _("Opération"), 2.0),  # conditions, stops, wins (COUNT-45, COUNT-47, COUNT-48)
            Column("flags", _("Observations"), 1.4),
            Column("signed_by", _("Caissier"), 1.1),
            Column("comite", _("Membre du comité de direction"), 1.2),
        ),
        # The cashier writes the counts; the directeur responsable or a comité member the activations.
        record_roles=(Role.CAISSIER, Role.CAISSIER_PRINCIPAL, Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE,),
        requirements=(
            "REG-10",
            "COUNT-21",
            "COUNT-22",
            "COUNT-23",
            "COUNT-24",
            "COUNT-25",
            "COUNT-44",
            "COUNT-45",
            "COUNT-47",
            "COUNT-48",
            "INC-15",
        ),
        form="modèle 8 quater",
    )
)

# FR carnet d'enregistrement des orphelins (modèle 11 bis): every orphan paid into the cash desk or
# a tirelire, and each restitution (column 7 closed at its date, column 9 the owner, the proof and
# the original entry) (art. 41, COUNT-30 to COUNT-32). Nobody is named to cote and paraph it (SET-26).
CARNET_ORPHELINS = register_kind(
    RegisterKind(
        code="carnet_orphelins",
        title=_("Carnet d'enregistrement des orphelins"),
        purpose=_("Inscrire chaque orphelin versé à la caisse ou dans une tirelire, et ses restitutions."),
        columns=(
            Column("found_at", _("Date et heure"), 0.9),
            Column("category", _("Nature"), 1.2),
            Column("place", _("Lieu"), 0.9),
            Column("detail", _("Mise initiale et gains cumulés"), 1.3),
            Column("found_by", _("Trouvé par"), 0.9),
            Column("witness", _("Témoin"), 0.9),
            Column("paid_into", _("Versé à"), 0.9),
            Column("amount", _("Col. 7 — Montant"), 0.8),
            Column("col9", _("Col. 9 — Restitution : bénéficiaire, justificatif, inscription d'origine"), 2.4),
            Column("signed_by", _("Inscrit par"), 1.1),
        ),
        record_roles=(Role.CAISSIER, Role.CAISSIER_PRINCIPAL, Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE,),
        requirements=("REG-31", "COUNT-30", "COUNT-31", "COUNT-32"),
        form="modèle 11 bis",
    )
)

# FR carnet des prélèvements (modèle 13): one sheet per month numbered from the start of the season
# (November = 1), the daily results of the closed modèle 12 days, the month's slot total (modèle 35)
# and the gross gaming product since 1 November (art. 75, COUNT-57). Nobody is named to cote and
# paraph it (SET-26).
CARNET_PRELEVEMENTS = register_kind(
    RegisterKind(
        code="carnet_prelevements",
        title=_("Carnet des prélèvements"),
        purpose=_(
            "Reporter chaque mois, feuille par feuille, les résultats journaliers et le produit brut des jeux "
            "de la saison."
        ),
        columns=(
            Column("sheet", _("Feuille n°"), 0.5),
            Column("date", _("Date"), 0.8),
            Column("contrepartie", _("Jeux de contrepartie"), 1.0),
            Column("cercle", _("Jeux de cercle"), 1.0),
            Column("slots", _("Machines à sous (modèle 35)"), 1.0),
            Column("total", _("Total"), 0.9),
            Column("season_total", _("Produit brut depuis le 1er novembre"), 1.2),
        ),
        record_roles=(Role.CAISSIER_PRINCIPAL, Role.COMPTABILITE),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE,),
        requirements=("REG-35", "COUNT-57"),
        form="modèle 13",
    )
)

# FR registre des plaques, jetons et cartes de paiement (modèle 16): the series put into service,
# their description, manufacturer, values and number per value, the series in the general reserve
# and in service, and the census at the start and in the middle of each season with the amount held
# by players against the account balance (art. 81, COUNT-58, REG-36). Modèle 16 is not in the art. 69
# list and the text names nobody to cote and paraph it (SET-26): the directeur responsable.
REGISTRE_PLAQUES = register_kind(
    RegisterKind(
        code="registre_plaques",
        title=_("Registre des plaques, jetons et cartes de paiement"),
        purpose=_(
            "Inscrire les séries mises en service, leur répartition entre la réserve générale et le service, "
            "et les recensements de début et de mi-saison."
        ),
        columns=(
            Column("date", _("Date"), 0.8),
            Column("event", _("Opération"), 1.2),
            Column("kind", _("Nature"), 0.8),
            Column("description", _("Description sommaire et fabricant"), 2.0),
            Column("series", _("Séries : total, réserve, en service"), 1.2),
            Column("pieces", _("Valeurs et nombre par valeur"), 2.2),
            Column("amounts", _("Pris en charge, recensé, conservé par les joueurs"), 1.8),
            Column("flags", _("Observations"), 1.6),
            Column("signed_by", _("Signature"), 1.2),
        ),
        record_roles=(Role.DIRECTEUR_RESPONSABLE, Role.COMITE, Role.CAISSIER_PRINCIPAL, Role.COMPTABILITE),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE,),
        requirements=("REG-36", "COUNT-58", "SET-45"),
        form="modèle 16",
    )
)

# FR carnets de tickets of the cercle cagnottes (REG-32): the card-table number series of the
# season (COUNT-39), the books put into service and the date stamps and blue lines the keeper
# applies before each cagnotte séance (COUNT-40), and the approved levy machines (COUNT-41). The
# books' covers bear their table's number; no authority paraphs them (SET-26): the directeur responsable.
CARNETS_TICKETS = register_kind(
    RegisterKind(
        code="carnets_tickets",
        title=_("Registre des carnets de tickets et des tables de cartes"),
        purpose=_(
            "Inscrire la série des numéros des tables de cartes, la mise en service des carnets de tickets, "
            "les timbres à date et traits bleus de chaque séance, et les machines de retenue agréées."
        ),
        columns=(
            Column("date", _("Date"), 0.8),
            Column("event", _("Opération"), 1.6),
            Column("table", _("Table n°"), 0.6),
            Column("book", _("Carnet"), 0.8),
            Column("tickets", _("Tickets"), 1.6),
            Column("detail", _("Observations"), 2.0),
            Column("signed_by", _("Signature"), 1.3),
        ),
        record_roles=(Role.GARDIEN_CARNETS, Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE,),
        requirements=("REG-32", "COUNT-38", "COUNT-39", "COUNT-40", "COUNT-41"),
    )
)

# FR registre de comptabilité (modèle 10 bis), one per electronic contrepartie device and numbered
# like it (qualifier: the device number): day by day and station by station the avances, the
# physical and electronic counts, the tickets issued and the product; visaed every day by a comité
# member before the device's product is carried to modèle 12 (art. 69 b, 70-1, COUNT-51). Coté et
# paraphé by the Interior ministry control officials (art. 69, REG-26).
REGISTRE_10_BIS = register_kind(
    RegisterKind(
        code="registre_10_bis",
        title=_("Registre de comptabilité des jeux de contrepartie électroniques"),
        purpose=_(
            "Inscrire au jour le jour, poste par poste, les avances, les comptées physique et électronique, les "
            "tickets émis et le produit de l'appareil."
        ),
        columns=(
            Column("date", _("Date"), 0.8),
            Column("station", _("Poste"), 0.5),
            Column("avances", _("Avances"), 0.8),
            Column("physical", _("Comptée physique"), 0.9),
            Column("electronic", _("Comptée électronique"), 1.4),
            Column("tickets", _("Tickets émis"), 0.8),
            Column("product", _("Produit"), 0.8),
            Column("signed_by", _("Signature"), 1.2),
        ),
        record_roles=(Role.CAISSIER, Role.CAISSIER_PRINCIPAL, Role.COMPTABILITE),
        jurisdictions=("FR",),
        paraph_roles=(Role.CONTROLE_INTERIEUR,),
        visa_roles=(Role.COMITE,),
        requirements=("COUNT-51", "REG-26"),
        form="modèle 10 bis",
        one_open_volume="COUNT-51",  # one register per device, numbered like it (art. 70-1)
    )
)

# FR état journalier (modèle 7), one per electronic cercle table (qualifier: the device number):
# the day's parties and levies (art. 69 c). Modèle 7 is not in the art. 69 list (REG-26): the
# directeur responsable cotes and paraphs it (SET-26).
ETAT_JOURNALIER_7 = register_kind(
    RegisterKind(
        code="etat_journalier_7",
        title=_("État journalier des jeux de cercle électroniques"),
        purpose=_("Inscrire chaque jour les parties et les retenues de la table de jeu électronique."),
        columns=(
            Column("date", _("Date"), 0.8),
            Column("device", _("Appareil n°"), 0.7),
            Column("game", _("Jeu"), 1.2),
            Column("parties", _("Parties"), 0.6),
            Column("levies", _("Retenues"), 0.9),
            Column("signed_by", _("Signature"), 1.3),
        ),
        record_roles=(Role.CAISSIER, Role.CAISSIER_PRINCIPAL, Role.COMPTABILITE),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE,),
        requirements=("COUNT-55",),
        form="modèle 7",
    )
)

# FR carnet d'enregistrement des cagnottes (modèle 11 quater), one per electronic cercle device and
# numbered like it, the game on its first page: the levies, then "certifié exact" signed by the
# comité member in the observation column before the amount is carried to modèle 12 (art. 71-1,
# COUNT-55). Coté et paraphé by the Interior ministry control officials (art. 69, REG-26).
CARNET_11_QUATER = register_kind(
    RegisterKind(
        code="carnet_11_quater",
        title=_("Carnet d'enregistrement des cagnottes des jeux de cercle électroniques"),
        purpose=_("Inscrire chaque jour les retenues au profit de la cagnotte de l'appareil et leur certification."),
        columns=(
            Column("date", _("Date"), 0.8),
            Column("device", _("Appareil n°"), 0.7),
            Column("game", _("Jeu"), 1.2),
            Column("event", _("Opération"), 1.2),
            Column("levies", _("Retenues"), 0.9),
            Column("certification", _("Observations"), 1.6),
            Column("signed_by", _("Signature"), 1.3),
        ),
        record_roles=(Role.CAISSIER, Role.CAISSIER_PRINCIPAL, Role.COMPTABILITE, Role.COMITE),
        jurisdictions=("FR",),
        paraph_roles=(Role.CONTROLE_INTERIEUR,),
        requirements=("COUNT-55", "REG-30", "REG-26"),
        form="modèle 11 quater",
        one_open_volume="COUNT-55",  # one carnet per device, numbered like it (art. 71-1)
    )
)

# FR état mensuel du relevé des compteurs des jeux électroniques (modèle 33), one per establishment:
# each month a line per contrepartie device (its stations' units in and out, unit stake, electronic
# count, and the product of its visaed modèle 10 bis days), then the month's total signed by the
# cash desk and the comité member (art. 69 b, COUNT-51). Coté et paraphé by the Interior ministry
# control officials (art. 69, REG-26).
ETAT_MENSUEL_33 = register_kind(
    RegisterKind(
        code="etat_mensuel_33",
        title=_("État mensuel du relevé des compteurs des jeux électroniques"),
        purpose=_(
            "Relever chaque mois les compteurs des postes de chaque appareil de jeu de contrepartie "
            "électronique et le produit de ses journées visées."
        ),
        columns=(
            Column("month", _("Mois"), 0.6),
            Column("device", _("Appareil n°"), 0.7),
            Column("game", _("Jeu"), 1.1),
            Column("meters", _("Compteurs des postes : unités entrées / sorties × mise unitaire"), 3.0),
            Column("electronic", _("Comptée électronique"), 0.9),
            Column("product", _("Produit"), 0.9),
            Column("signed_by", _("Signatures"), 1.6),
        ),
        record_roles=(Role.CAISSIER, Role.CAISSIER_PRINCIPAL, Role.COMPTABILITE),
        jurisdictions=("FR",),
        paraph_roles=(Role.CONTROLE_INTERIEUR,),
        visa_roles=(Role.CONTROLE_INTERIEUR,),
        requirements=("COUNT-51", "REG-26"),
        form="modèle 33",
    )
)


# Monaco: the tables whose somme mise en banque the Direction fixes (COUNT-01).
BANKED_GAMES_MC = frozenset({"blackjack", "blackjack_one_deck", "punto_banco", "trente_quarante"})


@opening_needs
def cash_registers(establishment) -> Iterator[Need]:
    """The table cash of the house's tables. France: a carnet d'avances per table cash box of a
    contrepartie table (REG-09, COUNT-49), a carnet des cagnottes per cercle table (REG-30), the
    registre de contrôle (REG-34), a registre de change per gaming cash desk (REG-29), the changeurs'
    bons (REG-33). Monaco: the sommes mises en banque (COUNT-01), the change slips (REG-14) and the
    chemin de fer cagnottes (REG-13)."""
    from ledgers.core.games import GAMES, Family
    from ledgers.core.models import LocationKind

    tables = tables_in_service(establishment)
    if not tables:
        return
    games = {game for _number, game in tables}
    yield Need(BONS_CAISSE.code, requirement="REG-14" if establishment.jurisdiction == "MC" else "REG-33")
    if establishment.jurisdiction == "MC":
        if games & BANKED_GAMES_MC:
            yield Need(BANQUE_TABLES.code, requirement="COUNT-01")
        if "chemin_de_fer" in games:
            yield Need(CAGNOTTES_MC.code, requirement="REG-13")
        return
    yield Need(REGISTRE_CONTROLE.code, requirement="REG-34")
    for desk, name in places_in_service(establishment, LocationKind.CAISSE_CENTRALE):
        yield Need(REGISTRE_CHANGE.code, desk, requirement="REG-29", label=name)
    for number, game in tables:
        if GAMES[game].family == Family.CERCLE:
            yield Need(CARNET_CAGNOTTES.code, number, requirement="REG-30", table=number)
        else:
            yield Need(CARNET_AVANCES.code, number, requirement="REG-09", table=number)
