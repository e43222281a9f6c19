"""What waits at the cash desks and the tables for each role: the changeur his bons not yet
served, the cashier the bons to serve and the counts where a second count is missing, the
caissier principal the bons to centralise and the days of modèle 12 to close, the certifiers
(FR directeur responsable and comité members, MC inspecteur and Direction des Jeux) the counts to
certify, the cagnottes to open and count and the days to visa; FR the cashiers and comité members
the bad beat jackpots to count, whose displayed amount the séance waits for (COUNT-24)."""

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.dashboard import Panel, dashboard_panel
from ledgers.core.models import Establishment
from ledgers.core.roles import Role

from . import selectors
from .services.cagnottes import CAGNOTTE_CONTROLLERS
from .services.common import CASHIERS
from .services.control import CONTROL_KEEPERS, CONTROL_VISAS
from .services.counts import CERTIFIERS
from .services.plaques import PLAQUE_KEEPERS, censuses_due


@dashboard_panel
def cash_waiting(request: HttpRequest, establishment: Establishment) -> Panel | None:
    roles = roles_of(request.user, establishment)
    items: list[tuple[str, str]] = []
    if roles & {Role.CHANGEUR, *CASHIERS}:
        for slip in selectors.slips_to_serve(establishment):
            items.append(
                (
                    str(
                        _("Bon %(slip)s à servir (table %(table)s)")
                        % {"slip": slip, "table": slip.table_session.table.number}
                    ),
                    reverse("cash:slip_serve", args=[slip.pk]),
                )
            )
    counts = list(selectors.counts_waiting(establishment))
    if roles & set(CASHIERS):
        items += [
            (
                str(_("Second comptage de la table %(table)s") % {"table": c.table_session.table.number}),
                reverse("cash:count", args=[c.table_session_id]),
            )
            for c in counts
            if c.status == "awaiting"
        ]
    if roles & set(CERTIFIERS[establishment.jurisdiction]):
        # A difference between the two blind counts is escalated to the certifier, who settles it.
        escalated, agreed = (
            _("Écart entre les deux comptages de la table %(table)s à trancher"),
            _("Encaisse de la table %(table)s à certifier"),
        )
        items += [
            (
                str((escalated if c.status == "escalated" else agreed) % {"table": c.table_session.table.number}),
                reverse("cash:certify", args=[c.table_session_id]),
            )
            for c in counts
            if c.status != "awaiting"
        ]
    if roles & set(CAGNOTTE_CONTROLLERS[establishment.jurisdiction]):
        items += [
            (
                str(_("Cagnotte de la table %(table)s à ouvrir et compter") % {"table": c.table_session.table.number}),
                reverse("cash:cagnotte_count", args=[c.table_session_id]),
            )
            for c in selectors.cagnottes_waiting(establishment)
        ]
    if roles & {Role.COMITE, *CASHIERS}:
        items += [
            (
                str(
                    _("Bad beat jackpot de la table %(table)s à compter (montant affiché)") % {"table": s.table.number}
                ),
                reverse("cash:bad_beat", args=[s.pk]),
            )
            for s in selectors.bad_beat_waiting(establishment)
        ]
    if establishment.jurisdiction == "FR":
        day = selectors.day_to_close(establishment) if roles & set(CONTROL_KEEPERS) else None
        if day is not None:
            items.append(
                (
                    str(_("Registre de contrôle : journée du %(day)s à arrêter") % {"day": f"{day:%d/%m/%Y}"}),
                    reverse("cash:control"),
                )
            )
        if roles & set(CASHIERS):
            items += [
                (
                    str(_("Séance %(seance)s : bons à centraliser") % {"seance": seance}),
                    reverse("cash:centralise", args=[seance.pk]),
                )
                for seance in selectors.seances_with_uncentralised_slips(establishment)
            ]
        if roles & set(CONTROL_VISAS):
            items += [
                (
                    str(_("Registre de contrôle du %(day)s à viser") % {"day": day}),
                    reverse("cash:control_visa", args=[day.pk]),
                )
                for day in selectors.days_to_visa(establishment, request.user)
            ]
    if not items:
        return None
    return Panel(_("Caisses des jeux"), "cash/_panel_waiting.html", {"waiting": items}, order=50)


@dashboard_panel
def chip_census_due(request: HttpRequest, establishment: Establishment) -> Panel | None:
    """FR modèle 16: the start or mid-season census whose date has come (COUNT-58, SET-45)."""
    if not roles_of(request.user, establishment) & set(PLAQUE_KEEPERS):
        return None
    items = [
        (
            str(
                _("Recensement des plaques, jetons et cartes de paiement du %(day)s (COUNT-58)")
                % {"day": f"{day:%d/%m/%Y}"}
            ),
            reverse("cash:plaques"),
        )
        for day, _period in censuses_due(establishment)
    ]
    if not items:
        return None
    return Panel(_("Plaques et jetons (modèle 16)"), "cash/_panel_waiting.html", {"waiting": items}, order=51)
