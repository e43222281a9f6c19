"""The séance's closing checklist (REG-25).

The table-level records the texts require are what each domain's table closing checks enforce
(cards and sabots returned, shufflers emptied, dice checked, lids locked…): core reports every
refusal they would give for each table-partie still open, so no domain repeats its rule here.
Core's own séance closing check (``hooks.table_parties_closable``) reports those refusals;
domains with records that are not tied to a table-partie's end (count room, slots) register
their own ``hooks.on_seance_closing`` check.
"""

from dataclasses import dataclass

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .models import TableSession


@dataclass(frozen=True)
class Record:
    """One mandatory record of REG-25: the requirement behind it per jurisdiction."""

    what: str | Promise
    codes: dict[str, str]  # jurisdiction → requirement ID


# The REG-25 row, item by item, with the requirement behind each item in each jurisdiction.
REG_25_RECORDS = (
    Record(_("Cartes rentrées au dépôt sous la surveillance de l'inspecteur"), {"MC": "CARD-18"}),
    Record(_("Cartes contrôlées après la partie et rentrées à l'armoire"), {"FR": "CARD-37"}),
    Record(_("Sabots rentrés au dépôt ou à l'armoire"), {"MC": "SHOE-02", "FR": "SHOE-09"}),
    Record(_("Mélangeurs vidés, capot ouvert, en fin de séance"), {"FR": "SHUF-13"}),
    Record(_("Dés contrôlés en fin de séance"), {"MC": "DICE-11", "FR": "DICE-25"}),
    Record(_("Cylindre recouvert de son couvercle fermé à clé"), {"MC": "WHEEL-02"}),
    Record(_("Boîte à billets comptée"), {"MC": "COUNT-05"}),
    Record(_("Encaisse comptée et inscrite au carnet d'avances"), {"FR": "COUNT-15"}),
    Record(_("Pourboires de la table comptés"), {"FR": "COUNT-36"}),
    Record(_("Cagnottes comptées et certifiées au modèle 11"), {"FR": "COUNT-43"}),
    Record(_("Montant du bad beat jackpot inscrit et validé"), {"FR": "COUNT-24"}),
    Record(_("Fiches d'intervention des machines remises"), {"MC": "SLOT-15"}),
)


def checklist(jurisdiction: str) -> list[tuple[str, str | Promise]]:
    """(requirement ID, record) of every REG-25 item that applies in the jurisdiction."""
    return [(r.codes[jurisdiction], r.what) for r in REG_25_RECORDS if jurisdiction in r.codes]


def table_session_url(session: TableSession) -> str:
    return reverse("seance-table", kwargs={"pk": session.pk})
