"""REG-22: who may verify what at any time, per jurisdiction (the catalogue's REG-22 row, with the
rows it draws on), and which pages count as a regulator's read or print of the registers."""

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ledgers.core.roles import Role


@dataclass(frozen=True)
class Verifier:
    role: str
    what: str | Promise
    source: str


# REG-22: who may verify what, per jurisdiction.
VERIFIERS: dict[str, tuple[Verifier, ...]] = {
    "MC": (
        Verifier(
            Role.SCJ,
            _(
                "Vérifie à tout moment les stocks de cartes et de dés, vise les registres concernés et "
                "les bons de commande."
            ),
            "000 art. 1 al. 1, 2",
        ),
        Verifier(
            Role.SCJ,
            _(
                "Peut assister aux destructions et neutralisations, et au contrôle des carnets de "
                "tickets de la cagnotte."
            ),
            "000 art. 1.1, 2, 11.7",
        ),
        Verifier(
            Role.COMMISSAIRE,
            _("Cote et paraphe les registres de prise en charge des cartes et des dés."),
            "000 art. 1 al. 1, 2",
        ),
    ),
    "FR": (
        Verifier(
            Role.POLICE,
            _(
                "Vise le carnet modèle 19 et les bons de commande modèle 21 (cartes et dés), assiste "
                "aux destructions et les vise ; peut exiger à tout moment l'ouverture de l'armoire "
                "des cartes."
            ),
            "FR-2007 art. 39 ; 003 art. 28 (55-22)",
        ),
        Verifier(
            Role.POLICE,
            _("Inscrit chaque visite de vérification au registre spécial d'observations."),
            "FR-2007 art. 92",
        ),
        Verifier(
            Role.CHEF_POLICE,
            _(
                "Cote, paraphe et vise le registre spécial d'observations et le registre de "
                "liaison ; répond aux questions du directeur responsable."
            ),
            "FR-2007 art. 92, 92-1",
        ),
        Verifier(
            Role.AGENT_VERIFICATEUR,
            _(
                "Consulte tous les documents de comptabilité de l'année courante et des "
                "dix années précédentes et leurs pièces justificatives ; peut se faire "
                "justifier les fonds en caisse."
            ),
            "FR-2007 art. 80",
        ),
        Verifier(
            Role.CONTROLE_INTERIEUR,
            _("Cote et paraphe les registres et carnets de l'article 69 ; peut viser les carnets d'avances."),
            "FR-2007 art. 69, 70",
        ),
        Verifier(
            Role.COMPTABLE_TRESOR, _("Cote et paraphe les registres de change (version citée)."), "FR-2007 art. 36"
        ),
    ),
}

# The pages and API endpoints that show or hand out register content: (URL name, action).
READ, PRINT, EXPORT = "read", "print", "export"
LOGGED_VIEWS: dict[str, str] = {
    "registers:detail": READ,
    "registers:entry": READ,
    "register-detail": READ,
    "entry-list": READ,
    "entry-detail": READ,
    "reports:job_file": PRINT,
    "api-report-file": PRINT,
    "authority:archive_file": EXPORT,
    "authority-archive-file": EXPORT,
}
