from django.utils.translation import gettext_lazy as _

from ledgers.core.roles import Role
from ledgers.registers.kinds import DIRECTORATE, Column, RegisterKind, register_kind

INCIDENT_REGISTER = register_kind(
    RegisterKind(
        code="incidents",
        title=_("Registre des incidents"),
        purpose=_("Relater les incidents de jeu et de garde, leur signalement, la décision et la clôture."),
        columns=(
            Column("incident", _("Incident n°"), 0.8),
            Column("event", _("Événement"), 1.2),
            Column("category", _("Catégorie"), 1.6),
            Column("text", _("Relation / décision"), 4.0),
            Column("notice", _("Information de"), 1.4),
        ),
        record_roles=(
            *DIRECTORATE,
            Role.INSPECTEUR,
            Role.CARTIER,
            Role.CHEF_TABLE,
            Role.CHEF_PARTIE,
            Role.CROUPIER,
            Role.DCC_STAFF,
            Role.EMPLOYE_RESPONSABLE,
            Role.AGENT_SURVEILLANCE,
            Role.ENTRETIEN,
            Role.MECANICIEN,
            Role.SUPERVISEUR,
            # SFM staff report the anomalies of machines and approved systems to the police (INC-16).
            Role.TECHNICIEN_SFM,
            # The authorities record what they find at a verification or a destruction (INC-11, INC-14).
            Role.SCJ,
            Role.POLICE,
        ),
        paraph_roles=(Role.DIRECTEUR_JEUX, Role.DIRECTEUR_RESPONSABLE),
        requirements=("INC-01", "REG-20"),
    )
)
