"""The séance closes only when every table-partie that received a float has its certified
end-of-séance count: FR COUNT-15 ("refuse closing the table's séance without a certified
entry"), MC COUNT-05 (the banknote box leaves the table only at the count); FR also when every
ravitaillement bon is centralised (COUNT-29) and every cagnotte computed is counted (COUNT-43,
MC COUNT-08), and at each bad beat jackpot table once its displayed amount is entered and
validated (COUNT-24: "refuse closing the séance without it"). REG-25 lists them on the closing page,
with the flag of a table-partie played without its float (FR COUNT-34, MC COUNT-01). A FR cercle
table opens for play only with its own cagnotte in service (COUNT-17, COUNT-19, COUNT-42)."""

from collections.abc import Iterator
from operator import attrgetter

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.core.hooks import SHOE_ALLOCATED, Missing, on_seance_closing, on_table_opening, records, seance_parties
from ledgers.core.models import Seance, TableSession

from . import selectors
from .services.sabots import shoe_allocation_write
from .services.table_cagnottes import keeps_own_cagnotte, require_in_service


@on_table_opening
def cercle_cagnotte_in_service(session: TableSession) -> None:
    """FR: each baccara, écarté, texas hold'em and omaha table has its own cagnotte receiving the
    levies (56-1, 57-2, 57-4-3): without one in service the table's levies have nowhere to go, so it
    does not open."""
    if keeps_own_cagnotte(session.seance.establishment.jurisdiction, session.table.game):
        require_in_service(session.table)


@on_seance_closing
def counts_certified(seance: Seance) -> Iterator[Missing]:
    code = "COUNT-15" if seance.establishment.jurisdiction == "FR" else "COUNT-05"
    sessions = seance_parties(seance)
    for session in (session for session in sessions if selectors.uncounted(session)):
        yield Missing(
            _("comptée certifiée de la table %(table)s") % {"table": session.table.number},
            code,
            reverse("cash:count", args=[session.pk]),
        )
    cagnottes = sorted(
        (session for session in sessions if session.cagnotte_to_count), key=attrgetter("cagnotte_to_count")
    )
    for session in cagnottes:  # in the order they were computed
        yield Missing(
            _("cagnotte de la table %(table)s à compter") % {"table": session.table.number},
            "COUNT-43" if seance.establishment.jurisdiction == "FR" else "COUNT-08",
            reverse("cash:day"),
        )
    if any(session.slips_waiting for session in sessions):
        yield Missing(_("bons de ravitaillement à centraliser"), "COUNT-29", reverse("cash:day"))
    for session in (session for session in sessions if session.bad_beat_waiting):
        yield Missing(
            _("montant affiché du bad beat jackpot de la table %(table)s") % {"table": session.table.number},
            "COUNT-24",
            reverse("cash:bad_beat", args=[session.pk]),
        )


@on_seance_closing(flags_only=True)
def avances_missing(seance: Seance) -> Iterator[Missing]:
    for session in selectors.played_without_float(seance):
        # FLAG, not a refusal: the text forbids play before the signed avance (COUNT-34), which the
        # float entry on the open partie cannot prevent; the closing page names the table instead.
        yield Missing(
            _("avance de la table %(table)s non inscrite au carnet") % {"table": session.table.number},
            "COUNT-34" if seance.establishment.jurisdiction == "FR" else "COUNT-01",
            reverse("cash:float", args=[session.pk]),
            flag=True,
        )


# FR: the sabot allocations the equipment app records are lines of the table's carnet (SHOE-06, SHOE-13).
records(SHOE_ALLOCATED)(shoe_allocation_write)
