"""What waits at the cash desks and the tables for each role: the changeur his bons not yet
served, the cashier the bons to serve and the counts where a second count is missing, the
caissier principal the bons to centralise and the days of modèle 12 to close, the certifiers
(FR directeur responsable and comité members, MC inspecteur and Direction des Jeux) the counts to
certify, the cagnottes to open and count and the days to visa; FR the cashiers and comité members
the bad beat jackpots to count, whose displayed amount the séance waits for (COUNT-24).

The main acts: the cashier hands each table its avance (the float, counted by denomination); the
croupier, the chef de table and the cashier count the encaisse of a partie ended; the changeur
writes his bon for the chips he needs at the table; FR the accounts close the registre
de contrôle's day and the month of the carnet des prélèvements."""

import datetime

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.core import hooks
from ledgers.core.authz import roles_of
from ledgers.core.dashboard import MainAct, Panel, dashboard_panel, main_acts, open_parties
from ledgers.core.models import Establishment, Seance, TableSession
from ledgers.core.roles import Role
from ledgers.core.selectors import open_seances

from . import selectors
from .models import SlipBook
from .services.cagnottes import CAGNOTTE_CONTROLLERS
from .services.common import CASHIERS
from .services.control import CONTROL_KEEPERS, CONTROL_VISAS
from .services.counts import CERTIFIERS
from .services.floats import FLOAT_SIGNERS, float_refusal
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
    certifies = bool(roles & set(CERTIFIERS[establishment.jurisdiction]))
    waiting = selectors.waiting_at_cash(
        establishment,
        counts=certifies or bool(roles & set(CASHIERS)),
        cagnottes=bool(roles & set(CAGNOTTE_CONTROLLERS[establishment.jurisdiction])),
        bad_beats=bool(roles & {Role.COMITE, *CASHIERS}),
    )
    counts = waiting.counts
    if roles & set(CASHIERS):
        items += [
            (
                str(_("Second comptage de la table %(table)s") % {"table": c.table_session.table.number}),
                reverse("cash:count", args=[c.table_session_id]),
            )
            for c in counts
            if c.status == "awaiting"
        ]
    if certifies:
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
                str(_("Cagnotte de la table %(table)s à ouvrir et compter") % {"table": s.table.number}),
                reverse("cash:cagnotte_count", args=[s.pk]),
            )
            for s in waiting.cagnottes
        ]
    if roles & {Role.COMITE, *CASHIERS}:
        items += [
            (
                str(
                    _("Bad beat jackpot de la table %(table)s à compter (montant affiché)") % {"table": s.table.number}
                ),
                reverse("cash:bad_beat", args=[s.pk]),
            )
            for s in waiting.bad_beats
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


SHOWN = 6  # tables offered as buttons on the home; the cash desk's page lists them all
# Whose home offers the blind counts: the table's own counters (MC COUNT-05: the croupier and the
# chef de table) and the cashiers.
COUNTERS_AT_HOME = frozenset({Role.CROUPIER, Role.CHEF_TABLE, Role.CAISSIER})


@main_acts
def cash_acts(request: HttpRequest, establishment: Establishment) -> list[MainAct]:
    roles, est = roles_of(request.user, establishment), establishment
    acts: list[MainAct] = []
    hands_floats = Role.CAISSIER in roles and Role.CAISSIER in FLOAT_SIGNERS[est.jurisdiction]
    counts = bool(roles & COUNTERS_AT_HOME)
    seances = list(open_seances(est)) if hands_floats or counts else []
    if hands_floats:
        acts += _float_acts(est, request.user, seances)
    if counts:
        acts += _count_acts(est, request.user, seances)
    if Role.CHANGEUR in roles:
        acts.append(_slip_act(est))
    if Role.COMPTABILITE in roles and est.jurisdiction == "FR":
        label = _("Arrêter la journée du registre de contrôle")
        day = selectors.day_to_close(est)
        if day is None:
            acts.append(
                MainAct(
                    label,
                    reason=_(
                        "Aucune journée dont toutes les tables ont leur comptée certifiée n'attend d'être arrêtée."
                    ),
                    code="COUNT-50",
                )
            )
        elif (waiting := selectors.days_awaiting_visas(est).filter(date__lt=day).first()) is not None:
            # The service would refuse the next day until the previous one has its two visas.
            reason = _("La journée du %(day)s n'a pas reçu ses deux visas : la journée suivante ne peut être reportée.")
            acts.append(MainAct(label, reason=reason % {"day": waiting}, code="COUNT-56"))
        else:
            acts.append(MainAct(label, url=reverse("cash:control")))
        label = _("Arrêter le mois au carnet des prélèvements")
        last = est.localtime().date().replace(day=1) - datetime.timedelta(days=1)
        if hooks.month_total(hooks.SLOT_STATEMENT_TOTAL, est, last.year, last.month) is None:
            reason = _("Le mois ne se clôt qu'avec le total du modèle 35 des machines à sous.")
            acts.append(MainAct(label, reason=reason, code="COUNT-57"))
        else:
            acts.append(MainAct(label, url=reverse("cash:levy_month")))
    return acts


def _count_acts(est: Establishment, user, seances: list[Seance]) -> list[MainAct]:
    """The encaisse of each partie ended with its avance, in the open ``seances``: counted first,
    then a second time by another counter (the certifier settles the rest)."""
    acts = []
    # The parties as the home reads them (by table number), séance after séance.
    order = {seance.pk: i for i, seance in enumerate(seances)}
    parties = sorted((s for s in open_parties(est) if s.seance_id in order), key=lambda s: order[s.seance_id])
    for session in (session for session in parties if selectors.uncounted(session)):
        count = getattr(session, "count", None)
        if session.status != TableSession.Status.CLOSED or (
            count is not None and (count.status != "awaiting" or count.first_by_id == user.pk)
        ):
            continue
        label = _("Comptée — table %(t)s") % {"t": session.table.number}
        acts.append(MainAct(label, url=reverse("cash:count", args=[session.pk]), order=15))
    return acts[:SHOWN]


def _float_acts(est: Establishment, user, seances: list[Seance]) -> list[MainAct]:
    """An avance to hand to each table-partie of the open ``seances`` that has none yet (MC: the
    cashier hands the somme mise en banque; FR the avance is signed by the Direction, COUNT-34)."""
    live = selectors.sessions_of(seances).exclude(status=TableSession.Status.CLOSED)  # every séance at once
    order = {seance.pk: i for i, seance in enumerate(seances)}
    waiting = sorted((session for session in live if not session.floats.all()), key=lambda s: order[s.seance_id])
    if not waiting:
        return [
            MainAct(
                _("Remettre une avance à une table"), reason=_("Aucune partie de table n'attend son avance."), order=10
            )
        ]
    acts = []
    for session in waiting:
        label = _("Avance — table %(t)s") % {"t": session.table.number}
        refusal = float_refusal(session, user)
        if refusal is not None:
            acts.append(MainAct(label, reason=refusal.message, code=refusal.code, order=10))
        else:
            acts.append(MainAct(label, url=reverse("cash:float", args=[session.pk]), order=10))
    # The avances that can be handed now first, then those a rule holds back.
    return sorted(acts, key=lambda act: not act.url)[:SHOWN]


def _slip_act(est: Establishment) -> MainAct:
    """The changeur's bon (MC COUNT-06, FR ravitaillement COUNT-29), written during a partie."""
    kind, code = (
        (SlipBook.Kind.CHANGEUR, "COUNT-06") if est.jurisdiction == "MC" else (SlipBook.Kind.RAVITAILLEMENT, "COUNT-29")
    )
    label = _("Rédiger un bon de ravitaillement pour une table")
    if not SlipBook.objects.filter(establishment=est, kind=kind).exists():
        return MainAct(label, reason=_("Aucun carnet de bons du changeur n'est en service."), code=code)
    if not TableSession.objects.filter(seance__establishment=est, status=TableSession.Status.OPEN).exists():
        return MainAct(label, reason=_("Un bon se rédige pendant la partie : aucune table n'est ouverte."), code=code)
    return MainAct(label, url=reverse("cash:slip_write"))
