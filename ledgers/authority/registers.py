"""The registers the police keep with the casino (FR-2007 art. 92, 92-1): coté, paraphé and visé
by the chief of the territorial DCPJ service (SET-26, SET-49)."""

from collections.abc import Iterator

from django.utils.translation import gettext_lazy as _

from ledgers.core.roles import Role
from ledgers.registers.kinds import Column, RegisterKind, register_kind
from ledgers.registers.opening import Need, games_played, opening_needs

# The writers of each register; the services check who writes what.
OBSERVATION_WRITERS = (Role.POLICE, Role.CHEF_POLICE)
FOLLOW_UP_WRITERS = (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)  # the comité member only where SET-41 allows it

# REG-44: the police surveillance agents write each visit, its operations and their observations,
# instructions or injunctions; the directeur responsable writes the follow-up opposite, within 8 days.
OBSERVATIONS = register_kind(
    RegisterKind(
        code="observations_police",
        title=_("Registre spécial d'observations"),
        purpose=_(
            "Inscrire chaque visite de vérification des agents de surveillance, leurs observations, "
            "instructions ou injonctions, et la suite que leur réserve le directeur responsable."
        ),
        columns=(
            Column("observation", _("Observation n°"), 0.7),
            Column("visited_at", _("Jour et heure de la visite"), 1.1),
            Column("agents", _("Agents"), 1.3),
            Column("operations", _("Nature des opérations"), 2.0),
            Column("nature", _("Nature"), 0.9),
            Column("text", _("Observations, instructions ou injonctions"), 2.8),
            Column("follow_up", _("Suite réservée"), 2.6),
        ),
        record_roles=(*OBSERVATION_WRITERS, *FOLLOW_UP_WRITERS),
        jurisdictions=("FR",),
        visa_roles=(Role.CHEF_POLICE,),
        paraph_roles=(Role.CHEF_POLICE,),
        paraph_requirement="REG-44",
        requirements=("REG-44",),
        form="modèle 20",  # 16 in the quoted art. 92, probably 20 in the text in force (AMB-46, SET-48)
    )
)

# REG-45: the directeur responsable's questions to the territorial DCPJ service, and its answers.
LIAISON = register_kind(
    RegisterKind(
        code="registre_liaison",
        title=_("Registre de liaison"),
        purpose=_(
            "Inscrire les demandes de précisions et les questions du directeur responsable au service "
            "de police judiciaire territorialement compétent, et ses réponses."
        ),
        columns=(
            Column("question", _("Question n°"), 0.7),
            Column("event", _("Inscription"), 0.9),
            Column("subject", _("Objet"), 1.6),
            Column("text", _("Texte"), 4.4),
            Column("signed_by", _("Signature"), 1.3),
        ),
        record_roles=(Role.DIRECTEUR_RESPONSABLE, Role.CHEF_POLICE, Role.POLICE),
        jurisdictions=("FR",),
        visa_roles=(Role.CHEF_POLICE,),
        paraph_roles=(Role.CHEF_POLICE,),
        paraph_requirement="REG-45",
        requirements=("REG-45",),
    )
)

# AUTH-01, AUTH-02: the prior declarations sent to the Ministry of the Interior (DLPAJ), the SCCJ
# and the territorial judicial police, and their follow-up (implied register, SET-26: not stated).
DECLARATIONS = register_kind(
    RegisterKind(
        code="declarations_prealables",
        title=_("Registre des déclarations préalables"),
        purpose=_(
            "Inscrire chaque déclaration préalable détaillée, sa date d'envoi aux trois destinataires, sa "
            "date de mise en œuvre et la suite donnée (modification de l'arrêté d'autorisation)."
        ),
        columns=(
            Column("declaration", _("Déclaration n°"), 0.7),
            Column("event", _("Inscription"), 0.9),
            Column("operation", _("Opération"), 2.2),
            Column("details", _("Détail"), 2.8),
            Column("sent_on", _("Envoyée le"), 0.9),
            Column("implementation_date", _("Mise en œuvre le"), 0.9),
            Column("follow_up", _("Suite"), 1.6),
        ),
        record_roles=(Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE,),
        requirements=("AUTH-01", "AUTH-02"),
    )
)

# AUTH-01 to AUTH-04: the arrêtés d'autorisation of the games (003 art. 4, 5, 7) and each FR table
# set up under them: added, given another game, put in or out of service, with the prior declaration
# that allowed it where one was needed. Implied register (SET-26: not stated), kept by the directeur
# responsable.
AUTHORISATIONS = register_kind(
    RegisterKind(
        code="autorisations_jeux",
        title=_("Registre des autorisations de jeux"),
        purpose=_(
            "Inscrire chaque arrêté d'autorisation (tables autorisées par jeu, mises minimales, nombre "
            "total de tables) et chaque table mise en service, changée de jeu ou mise hors service sous "
            "l'arrêté en vigueur, avec la déclaration préalable qui le permet."
        ),
        columns=(
            Column("arrete", _("Arrêté n°"), 0.7),
            Column("event", _("Inscription"), 1.1),
            Column("table", _("Table"), 0.6),
            Column("detail", _("Détail"), 4.0),
            Column("declaration", _("Déclaration préalable"), 1.0),
            Column("signed_by", _("Signature"), 1.3),
        ),
        record_roles=(Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE,),
        requirements=("AUTH-01", "AUTH-02", "AUTH-03", "AUTH-04"),
    )
)

# MC GAME-20, REG-18: the complex called bets handed in writing, visaed by the direction des jeux,
# kept with the table-partie records (000 art. 8.3). No text names who cotes it (SET-26).
CALLED_BETS = register_kind(
    RegisterKind(
        code="annonces_complexes",
        title=_("Registre des annonces marquées complexes"),
        purpose=_(
            "Conserver chaque annonce complexe remise par écrit, le visa de la direction des jeux, "
            "l'information du Service de Contrôle des Jeux et l'inspecteur présent."
        ),
        columns=(
            Column("bet", _("Annonce n°"), 0.6),
            Column("event", _("Inscription"), 0.9),
            Column("table", _("Table"), 0.6),
            Column("seance", _("Séance"), 1.1),
            Column("content", _("Annonce"), 2.8),
            Column("player", _("Joueur"), 0.9),
            Column("inspecteur", _("Inspecteur présent"), 1.2),
            Column("scj", _("SCJ informé"), 1.3),
            Column("signed_by", _("Signature"), 1.2),
        ),
        record_roles=(Role.CHEF_TABLE, Role.INSPECTEUR, Role.CROUPIER, Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR),
        jurisdictions=("MC",),
        paraph_roles=(Role.DIRECTEUR_JEUX,),
        requirements=("REG-18", "GAME-20"),
    )
)

# FR GAME-07, REG-19: the règlement intérieur's versions (blackjack options, lucky ladies
# restrictions: 001 art. 55-4) and the options enabled at each table under the version in force.
HOUSE_RULES = register_kind(
    RegisterKind(
        code="reglement_interieur",
        title=_("Registre du règlement intérieur et des options de jeu"),
        purpose=_(
            "Inscrire chaque version du règlement intérieur affiché, sa date d'effet et les options qu'il "
            "prévoit, puis chaque option mise en œuvre ou retirée à une table."
        ),
        columns=(
            Column("version", _("Version"), 0.6),
            Column("event", _("Inscription"), 1.0),
            Column("effective_from", _("En vigueur le"), 0.9),
            Column("table", _("Table"), 0.6),
            Column("options", _("Options"), 3.6),
            Column("signed_by", _("Signature"), 1.3),
        ),
        record_roles=(Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE,),
        requirements=("REG-19", "GAME-07"),
    )
)

# FR REG-23, SET-32 (and COUNT-20, COUNT-45, SLOT-29): the display checklist of each table and
# slot machine. Implied register (the texts name none); kept by the Direction, coted by it.
DISPLAYS = register_kind(
    RegisterKind(
        code="affichages_reglementaires",
        title=_("Registre des affichages réglementaires"),
        purpose=_(
            "Inscrire, par table et par machine à sous, chaque affichage que les textes imposent et chaque "
            "dispositif obligatoire des machines : la date de sa mise en place et qui l'a vérifié."
        ),
        columns=(
            Column("subject", _("Table ou machine"), 1.0),
            Column("item", _("Affichage"), 3.4),
            Column("posted_on", _("Affiché le"), 0.9),
            Column("requirement", _("Exigence"), 0.8),
            Column("signed_by", _("Vérifié par"), 1.5),
        ),
        record_roles=(Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE,),
        requirements=("REG-23", "SLOT-29", "COUNT-20", "COUNT-45"),
    )
)

# MC GAME-04 (000 art. 5.2 8°): the Split Aces progressive's configurations (SET-22), its amounts at
# each séance's opening and closing, and the jackpots paid. Implied register (SET-26: not stated).
SPLIT_ACES = register_kind(
    RegisterKind(
        code="progressif_split_aces",
        title=_("Registre du jackpot progressif Split Aces"),
        purpose=_(
            "Inscrire chaque configuration du progressif approuvée par la Direction des Jeux, le montant du "
            "progressif à l'ouverture et à la clôture de chaque séance et chaque jackpot payé."
        ),
        columns=(
            Column("event", _("Inscription"), 1.0),
            Column("seance", _("Séance"), 1.0),
            Column("table", _("Table"), 0.6),
            Column("detail", _("Détail"), 3.4),
            Column("amount", _("Montant"), 0.9),
            Column("signed_by", _("Signature"), 1.2),
            Column("flags", _("Signalements"), 1.4),
        ),
        record_roles=(Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR, Role.INSPECTEUR, Role.CHEF_TABLE),
        jurisdictions=("MC",),
        paraph_roles=(Role.DIRECTEUR_JEUX,),
        requirements=("GAME-04",),
    )
)

# MC GAME-31 (000 art. 12.3): the register of the bankers the Direction approves for banque à tout va.
BANKERS = register_kind(
    RegisterKind(
        code="banquiers_agrees",
        title=_("Registre des banquiers agréés (banque à tout va)"),
        purpose=_(
            "Inscrire l'identité de chaque banquier agréé par la Direction, la date de son agrément, "
            "l'officier qui l'a agréé et le retrait de l'agrément."
        ),
        columns=(
            Column("banker", _("Banquier n°"), 0.6),
            Column("event", _("Inscription"), 0.9),
            Column("identity", _("Identité"), 3.0),
            Column("date", _("Date"), 0.9),
            Column("signed_by", _("Signature"), 1.4),
        ),
        record_roles=(Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR),
        jurisdictions=("MC",),
        paraph_roles=(Role.DIRECTEUR_JEUX,),
        requirements=("GAME-31",),
    )
)


@opening_needs
def authority_registers(establishment) -> Iterator[Need]:
    """France: the arrêté d'autorisation recorded before any table is set up (AUTH-04), the prior
    declarations (AUTH-01), the police's observations at every visit (REG-44) and the liaison
    register (REG-45); with tables, their displays (REG-23) and, at blackjack, the posted house
    rules (REG-19). Monaco: the called bets of the roulette tables (REG-18) and the bankers of the
    banque à tout va (GAME-31)."""
    games = games_played(establishment)
    if establishment.jurisdiction == "FR":
        yield Need(AUTHORISATIONS.code, requirement="AUTH-04")
        yield Need(DECLARATIONS.code, requirement="AUTH-01")
        yield Need(OBSERVATIONS.code, requirement="REG-44")
        yield Need(LIAISON.code, requirement="REG-45")
        if games:
            yield Need(DISPLAYS.code, requirement="REG-23")
        if "blackjack" in games:
            yield Need(HOUSE_RULES.code, requirement="REG-19")
        return
    if games & {"roulette", "roulette_americaine"}:
        yield Need(CALLED_BETS.code, requirement="REG-18")
    if "banque_tout_va" in games:
        yield Need(BANKERS.code, requirement="GAME-31")
