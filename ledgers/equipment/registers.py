"""Register kinds of sabots, shufflers and wheels. Columns are what the printed register shows:
dotted keys reach nested payload values, lists print joined."""

from collections.abc import Iterator

from django.utils.translation import gettext_lazy as _

from ledgers.core.games import Equipment
from ledgers.core.roles import Role
from ledgers.registers.kinds import DIRECTORATE, Column, RegisterKind, register_kind
from ledgers.registers.opening import Need, games_played, opening_needs, tables_in_service

# Both jurisdictions: the life of each sabot, shuffler and wheel outside the intake registers —
# registration, putting into service, socle mounting, use at a table, malfunctions, withdrawal.
MATERIEL_JEU = register_kind(
    RegisterKind(
        code="materiel_jeu",
        title=_("Registre du matériel de jeu (sabots, mélangeurs, cylindres et roues)"),
        purpose=_(
            "Suivre chaque matériel de jeu : enregistrement, mise en service, installation, utilisation, "
            "dysfonctionnements et retrait."
        ),
        columns=(
            Column("event", _("Opération"), 1.4),
            Column("equipment", _("Matériel"), 1.6),
            Column("table", _("Table"), 0.7),
            Column("seance", _("Séance"), 1.1),
            Column("details", _("Constatations"), 3.2),
            Column("signed_by", _("Signature"), 1.2),
        ),
        record_roles=(
            *DIRECTORATE,
            Role.INSPECTEUR,
            Role.CARTIER,
            Role.CROUPIER,
            Role.CHEF_TABLE,
            Role.CHEF_PARTIE,
            Role.ENTRETIEN,
            Role.MECANICIEN,
            Role.EMPLOYE_RESPONSABLE,
        ),
        paraph_roles=(Role.DIRECTEUR_JEUX, Role.DIRECTEUR_RESPONSABLE),
        # SHUF-04: each machine is entered with its type; SHUF-07: the pause with the cover fitted.
        requirements=(
            "SHUF-01",
            "SHUF-02",
            "SHUF-03",
            "SHUF-04",
            "SHUF-05",
            "SHUF-07",
            "SHUF-11",
            "SHUF-13",
            "SHOE-03",
            "WHEEL-01",
        ),
    )
)

# The FR carnets d'avances (modèle 10) and d'enregistrement des cagnottes (modèle 11) are kept by
# ledgers.cash: the sabot allocation of punto banco and blackjack (SHOE-06), and of baccara in
# column 3 of modèle 11 (SHOE-13), is one of their entries.

# MC: the checks of roulettes, boule and grande roue before each séance by the maintenance staff
# with an inspecteur (WHEEL-06, REG-12), and the lid locked at the end of the partie (WHEEL-02).
VERIFICATIONS_MATERIEL = register_kind(
    RegisterKind(
        code="verifications_materiel",
        title=_("Registre des vérifications du matériel de roulette, de boule et de grande roue"),
        purpose=_("Consigner la vérification avant chaque séance et la fermeture à clé du cylindre en fin de partie."),
        columns=(
            Column("date", _("Date"), 0.8),
            Column("seance", _("Séance"), 1.0),
            Column("table", _("Table"), 0.6),
            Column("wheel", _("Matériel"), 1.4),
            Column("event", _("Opération"), 1.2),
            Column("points", _("Points vérifiés"), 2.2),
            Column("result", _("Résultat"), 0.8),
            Column("observations", _("Observations"), 1.6),
            Column("technician", _("Personnel d'entretien / fermé par"), 1.3),
            Column("inspecteur", _("Inspecteur / clé remise à"), 1.3),
        ),
        record_roles=(Role.ENTRETIEN, Role.INSPECTEUR, Role.CHEF_TABLE, Role.CROUPIER),
        jurisdictions=("MC",),
        paraph_roles=(Role.DIRECTEUR_JEUX,),
        requirements=("REG-12", "WHEEL-06", "WHEEL-02", "KEY-08"),
    )
)

# FR: the main courante of the roue de la chance checks before each séance (WHEEL-08, REG-11).
MAIN_COURANTE_ROUE = register_kind(
    RegisterKind(
        code="main_courante_roue",
        title=_("Main courante de la roue de la chance"),
        purpose=_("Consigner avant chaque séance la vérification du bon fonctionnement de la roue."),
        columns=(
            Column("date", _("Date"), 0.8),
            Column("seance", _("Séance"), 1.0),
            Column("table", _("Table"), 0.6),
            Column("wheel", _("Roue"), 1.2),
            Column("points", _("Vérifications"), 2.4),
            Column("result", _("Résultat"), 0.8),
            Column("observations", _("Observations"), 1.6),
            Column("comite", _("Membre du comité de direction"), 1.3),
            Column("croupier", _("Croupier"), 1.2),
        ),
        record_roles=(Role.COMITE, Role.CROUPIER),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE,),
        requirements=("REG-11", "WHEEL-08"),
    )
)

# MC roulette and boule: the ordre de roulement set by the Direction des Jeux for each table and
# séance, and the launch and relief log kept by the chef de table, with what it flagged (WHEEL-09).
ROULEMENT_LANCEURS = register_kind(
    RegisterKind(
        code="roulement_lanceurs",
        title=_("Registre des ordres de roulement et des relèves au lancement (roulette et boule)"),
        purpose=_(
            "Consigner l'ordre de roulement établi par la Direction des Jeux pour chaque table et chaque "
            "séance, puis le lanceur de chaque tour et les relèves."
        ),
        columns=(  # the author (Direction des Jeux or chef de table) is printed with every entry
            Column("seance", _("Séance"), 1.1),
            Column("table", _("Table"), 0.7),
            Column("event", _("Opération"), 1.2),
            Column("order", _("Ordre de roulement"), 2.4),
            Column("launcher", _("Lanceur"), 1.3),
            Column("since", _("Depuis"), 0.7),
            Column("flags", _("Signalements"), 2.6),
            Column("observations", _("Observations"), 1.3),
        ),
        record_roles=(Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR, Role.CHEF_TABLE, Role.CHEF_PARTIE),
        jurisdictions=("MC",),
        paraph_roles=(Role.DIRECTEUR_JEUX,),
        requirements=("WHEEL-09",),
    )
)

# Monaco: the games dealt from a sabot kept in the card depots (SHOE-02).
SHOE_GAMES_MC = frozenset(
    {"blackjack", "punto_banco", "trente_quarante", "chemin_de_fer", "banque_tout_va", "baccara_deux_tableaux"}
)


@opening_needs
def equipment_registers(establishment) -> Iterator[Need]:
    """The equipment's registers the house's tables need: the life of each sabot, shuffler and wheel;
    the sabots' intake (MC SHOE-02, FR modèle 19 reserved pages SHOE-11) and movements; the wheels'
    pre-séance checks (MC WHEEL-06, FR WHEEL-08) and the MC launch rotation (WHEEL-09). The French
    carnet where a table's sabot allocation is written (SHOE-06, SHOE-13) is the table's own carnet
    of the table cash (ledgers.cash)."""
    from ledgers.custody.registers import CARNET_19, COMPTABILITE_ANNEXE, PRISE_EN_CHARGE, TABLE_MOVEMENTS

    from .specs import CHECK_RULES, ROTATION_GAMES, SHOE_GAMES_FR

    mc = establishment.jurisdiction == "MC"
    tables = tables_in_service(establishment)
    games = {game for _number, game in tables}
    if games & (games_played(establishment, Equipment.CARDS) | games_played(establishment, Equipment.WHEEL)):
        yield Need(MATERIEL_JEU.code)
    if games & (SHOE_GAMES_MC if mc else set(SHOE_GAMES_FR)):
        yield Need(TABLE_MOVEMENTS.code, "shoes", requirement="SHOE-02" if mc else "SHOE-09")
        if mc:
            yield Need(PRISE_EN_CHARGE.code, "sabots", requirement="SHOE-02")
            yield Need(COMPTABILITE_ANNEXE.code, "shoes", requirement="SHOE-02")
        else:
            yield Need(CARNET_19.code, "sabots", requirement="SHOE-11")
    if games & set(CHECK_RULES[establishment.jurisdiction]):
        yield Need(VERIFICATIONS_MATERIEL.code if mc else MAIN_COURANTE_ROUE.code)
    if games & ROTATION_GAMES[establishment.jurisdiction]:
        yield Need(ROULEMENT_LANCEURS.code, requirement="WHEEL-09")
