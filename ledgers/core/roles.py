"""Roles of the texts, as Django groups, and who may do what.

A user holds roles per establishment (``Membership``); services ask ``require_role`` for one of
the roles allowed for an act and record the role actually used in the register entry.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    # Operator staff
    CARTIER = "cartier", _("Cartier")
    DCC_STAFF = "dcc_staff", _("Personnel du Dépôt Central des Cartes")
    CROUPIER = "croupier", _("Croupier")
    CHEF_TABLE = "chef_table", _("Chef de table")
    CHEF_PARTIE = "chef_partie", _("Chef de partie")
    INSPECTEUR = "inspecteur", _("Inspecteur")
    SOUS_DIRECTEUR = "sous_directeur", _("Sous-directeur")
    DIRECTEUR_JEUX = "directeur_jeux", _("Directeur des jeux")
    DIRECTEUR_RESPONSABLE = "directeur_responsable", _("Directeur responsable")
    COMITE = "comite", _("Membre du comité de direction")
    EMPLOYE_RESPONSABLE = "employe_responsable", _("Employé responsable")
    CAISSIER = "caissier", _("Caissier")
    CAISSIER_PRINCIPAL = "caissier_principal", _("Caissier principal")
    COMPTABILITE = "comptabilite", _("Comptabilité")
    SUPERVISEUR = "superviseur", _("Superviseur")
    MECANICIEN = "mecanicien", _("Mécanicien")
    ENTRETIEN = "entretien", _("Personnel d'entretien")
    AGENT_SURVEILLANCE = "agent_surveillance", _("Agent de surveillance")
    CHANGEUR = "changeur", _("Changeur")
    RAVITAILLEUR = "ravitailleur", _("Ravitailleur")
    GARDIEN_CARNETS = "gardien_carnets", _("Employé chargé des carnets de tickets")
    EMPLOYE_JEUX = "employe_jeux", _("Employé de jeux (machines à sous)")
    DIRECTEUR_EXPLOITATION = "directeur_exploitation", _("Directeur de l'exploitation")
    SECRETARIAT_GENERAL = "secretariat_general", _("Secrétariat Général")
    # Outside the operator: the approved supply and maintenance company's technician (FR 68-6, 68-30)
    TECHNICIEN_SFM = "technicien_sfm", _("Technicien de la SFM")
    # Regulators
    COMMISSAIRE = "commissaire", _("Commissaire du Gouvernement")
    SCJ = "scj", _("Agent du Service de Contrôle des Jeux")
    POLICE = "police", _("Fonctionnaire de police des jeux")
    CHEF_POLICE = "chef_police", _("Chef du service territorial de police judiciaire")
    CONTROLE_INTERIEUR = "controle_interieur", _("Fonctionnaire du ministère de l'intérieur chargé du contrôle")
    AGENT_VERIFICATEUR = "agent_verificateur", _("Agent vérificateur")
    COMPTABLE_TRESOR = "comptable_tresor", _("Comptable du Trésor, chef de poste")


REGULATOR_ROLES = frozenset(
    {
        Role.COMMISSAIRE,
        Role.SCJ,
        Role.POLICE,
        Role.CHEF_POLICE,
        Role.CONTROLE_INTERIEUR,
        Role.AGENT_VERIFICATEUR,
        Role.COMPTABLE_TRESOR,
    }
)
# The role in which a platform administrator (a superuser holding no role in the establishment)
# signs what only they can do: the establishment's creation and its first director's grant. Not a
# role anyone is granted: the register of authorisations names who acted, and in what capacity.
ADMINISTRATOR_ROLE = "administrateur"


def role_label(code: str) -> str:
    """A role's name from its code (the code itself when it is no role, e.g. the system's)."""
    if code == ADMINISTRATOR_ROLE:
        return str(_("Administrateur de la plateforme"))
    return str(Role(code).label) if code in Role.values else code


# The games directorate: who manages the organisation and creates registers.
DIRECTORATE = (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR, Role.DIRECTEUR_RESPONSABLE, Role.COMITE)
