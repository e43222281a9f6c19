from collections.abc import Iterator

from django.utils.translation import gettext_lazy as _

from ledgers.core.roles import Role
from ledgers.registers.kinds import DIRECTORATE, Column, RegisterKind, register_kind
from ledgers.registers.opening import Need, opening_needs

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

# FR: the one register of the notices given to the Minister of the Interior and to the police
# (FR-2007 art. 40, 56-3-2, 68-19, 68-20-1, 68-20-2, 68-30; 003 art. 7 (9 bis); AUTH-06). Each act
# that notifies writes its line here, beside its own register: the BBJ final stop (COUNT-47), a
# progressive's transfer or final stop and a JPM's stop or withdrawal (SLOT-37, SLOT-41), the
# monthly JPM figures to the SCCJ (SLOT-39), a machine's move (SLOT-33), the police informed of an
# incident (card anomalies INC-13, BBJ breakdown INC-15, SFM anomalies INC-16), the prior
# declarations (AUTH-01). The acts check who may do them; the text names nobody to cote and paraph
# it (SET-26): the directeur responsable.
AUTHORITY_NOTICES = register_kind(
    RegisterKind(
        code="informations_autorites",
        title=_("Registre des informations du ministre de l'intérieur et de la police"),
        purpose=_(
            "Inscrire chaque information donnée au ministre de l'intérieur, au SCCJ et aux services de police : "
            "destinataire, date, objet, référence et article qui l'exige."
        ),
        columns=(
            Column("notified_at", _("Informé le"), 0.9),
            Column("recipient", _("Destinataire"), 1.4),
            Column("subject", _("Objet"), 2.2),
            Column("reference", _("Référence"), 1.0),
            Column("requirement", _("Exigence"), 0.8),
            Column("article", _("Article"), 1.2),
            Column("signed_by", _("Signature"), 1.2),
        ),
        record_roles=tuple(Role),
        jurisdictions=("FR",),
        paraph_roles=(Role.DIRECTEUR_RESPONSABLE,),
        requirements=("AUTH-06",),
    )
)


@opening_needs
def incident_registers(establishment) -> Iterator[Need]:
    """Any act may find an incident (INC-01); in France, the police and the minister informed
    (AUTH-06)."""
    yield Need(INCIDENT_REGISTER.code, requirement="INC-01")
    if establishment.jurisdiction == "FR":
        yield Need(AUTHORITY_NOTICES.code, requirement="AUTH-06")
