"""The log of the table-parties: staffing with reliefs, seats and stakes.

No text names a register for them: Section 7 of the catalogue implies "the staffing log …
per table and séance: positions, persons, start and end times, and reliefs" (GAME-02, 10, 13,
15, 17…) and the limits records of GAME-18, 25, 33, 35, 38 and 41 (who fixed which stakes, when).
No existing register carries them (the FR carnet d'avances, modèle 10, records the avance and the
encaisse, not the staff), so they get one register of their own, kept and coted by the Direction."""

from collections.abc import Iterator

from django.utils.translation import gettext_lazy as _

from ledgers.core.roles import Role
from ledgers.registers.kinds import Column, RegisterKind, register_kind
from ledgers.registers.opening import Need, opening_needs, tables_in_service

TABLE_LOG = register_kind(
    RegisterKind(
        code="parties_de_table",
        title=_("Registre des parties de table : personnel, relèves et limites"),
        purpose=_(
            "Inscrire, par table et par séance, le personnel de la table (postes, personnes, heures de "
            "début et de fin, relèves), le nombre de places et les mises minimale et maximale fixées à "
            "l'ouverture et leurs changements."
        ),
        columns=(
            Column("event", _("Opération"), 1.2),
            Column("date", _("Date"), 0.8),
            Column("seance", _("Séance"), 0.9),
            Column("table", _("Table n°"), 0.6),
            Column("time", _("Heure"), 0.55),
            Column("detail", _("Poste, personne, limites"), 3.2),
            Column("signature", _("Nom et qualité"), 1.6),
            Column("flags", _("Signalements"), 1.6),
        ),
        record_roles=(
            Role.CHEF_TABLE,
            Role.CHEF_PARTIE,
            Role.INSPECTEUR,
            Role.SOUS_DIRECTEUR,
            Role.DIRECTEUR_JEUX,
            Role.DIRECTEUR_RESPONSABLE,
            Role.COMITE,
        ),
        paraph_roles=(Role.DIRECTEUR_JEUX, Role.DIRECTEUR_RESPONSABLE),
        requirements=(
            "GAME-02",
            "GAME-03",
            "GAME-13",
            "GAME-15",
            "GAME-17",
            "GAME-18",
            "GAME-25",
            "GAME-33",
            "GAME-35",
            "AUTH-05",
        ),
    )
)


@opening_needs
def table_log_needed(establishment) -> Iterator[Need]:
    """Each table-partie's staff and limits are lines of the table log (GAME-02)."""
    if tables_in_service(establishment):
        yield Need(TABLE_LOG.code, requirement="GAME-02")
