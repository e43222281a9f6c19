"""A table opens with the staff its text fixes, once a staffing log is kept for it, and in France
within the opening hours declared; the table-partie page shows the staff, the reliefs and the
limits, with their forms; the partie's preparation, opening and end are lines of the table-partie
log, which gives its start and end times."""

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.authority.displays import require_table_displays
from ledgers.authority.models import Declaration
from ledgers.authority.selectors import declaration_implemented
from ledgers.core.authz import roles_of
from ledgers.core.errors import RuleViolation
from ledgers.core.hooks import (
    TABLE_CLOSED,
    TABLE_OPENED,
    TABLE_PREPARED,
    Missing,
    on_table_opening,
    on_table_opening_gap,
    on_table_page,
    per_session,
    records,
)
from ledgers.core.models import Establishment, TableSession
from ledgers.core.services import TABLE_MANAGERS

from . import rules, selectors, services
from .forms import AssignForm, BankerForm, ExtensionForm, LimitsForm, ReliefForm
from .models import StaffAssignment


def _staffed(pks: list[int]) -> dict[int, bool]:
    """Which table-parties have their staff logged."""
    return dict.fromkeys(
        StaffAssignment.objects.filter(table_session_id__in=pks).values_list("table_session_id", flat=True), True
    )


@on_table_opening
def staffed_as_the_text_says(session: TableSession) -> None:
    """REQUIRE the composition of the game (GAME-02, 13, 15, 17…) for a table whose staff is
    logged. A table opened with no staff logged is reported (``selectors.exceptions``)."""
    if not per_session("tables.staffed", session, _staffed, False):
        return
    gaps = selectors.composition_gaps(session)
    if gaps:
        staffing = rules.staffing_for(session.table, selectors.seats_of(session))
        raise RuleViolation(
            staffing.code,
            _("La table %(table)s ne peut ouvrir : personnel incomplet (%(gaps)s).")
            % {"table": session.table.number, "gaps": " ; ".join(gaps)},
        )


@on_table_opening_gap
def staff_and_limits_missing(session: TableSession) -> list[Missing]:
    """A table whose text fixes a composition and whose staff nobody logged, or whose limits the
    texts ask for and nobody fixed, opens only once the person opening confirms it."""
    gaps = []
    staffing = rules.staffing_for(session.table, selectors.seats_of(session))
    if staffing is not None and not selectors.staff_of(session).exists():
        wanted = ", ".join(
            f"{low if low == high else f'{low}–{high}'} {rules.Position(p).label.lower()}"
            for p, (low, high) in staffing.positions.items()
        )
        gaps.append(Missing(_("personnel inscrit (%(wanted)s)") % {"wanted": wanted}, staffing.code))
    limits = rules.LIMITS.get((session.seance.establishment.jurisdiction, session.table.game))
    if limits is not None and not selectors.limits_of(session).exists():
        gaps.append(Missing(_("limites de mise fixées"), limits.code))
    return gaps


@on_table_opening
def enough_players_seated(session: TableSession) -> None:
    """MC chemin de fer begins only with at least 4 seated players (GAME-26), as recorded with the
    limits at opening."""
    rule = rules.MIN_PLAYERS.get((session.seance.establishment.jurisdiction, session.table.game))
    if rule is None:
        return
    latest = selectors.limits_of(session).last()
    if latest is None:
        return
    code, minimum = rule
    if (latest.players or 0) < minimum:
        raise RuleViolation(code, _("La partie ne commence qu'avec au moins %(n)s joueurs assis.") % {"n": minimum})


@on_table_opening
def two_seances_a_day(session: TableSession) -> None:
    """MC banque à tout va: two séances a day (afternoon and evening), GAME-30: a table-partie of
    the game does not open in a third séance of the day. (The new sixain per séance is the cards'
    allocation; "new" cannot be read from numbering, AMB-05.)"""
    seance = session.seance
    if (seance.establishment.jurisdiction, session.table.game) not in rules.SEANCES_PER_DAY:
        return
    code, most = rules.SEANCES_PER_DAY[(seance.establishment.jurisdiction, session.table.game)]
    others = (
        TableSession.objects.filter(
            seance__establishment=seance.establishment,
            seance__date=seance.date,
            table__game=session.table.game,
            opened_at__isnull=False,
        )
        .exclude(seance=seance)
        .values("seance")
        .distinct()
        .count()
    )
    if others >= most:
        raise RuleViolation(code, _("Ce jeu se joue en %(n)s séances par jour au plus.") % {"n": most})


@on_table_opening
def displays_posted(session: TableSession) -> None:
    """FR: the game is activated at a table only once its rules displays, rake rate and BBJ
    increment conditions are posted on its checklist (REG-23, COUNT-20, COUNT-45)."""
    require_table_displays(session.table)


def _hours(establishment: Establishment, options: dict) -> dict:
    """The opening-hour limits (SET-25 closing times) that ``options`` give the establishment."""
    fixed = options["SET-25"] if "SET-25" in options else establishment.profile.settings.get("SET-25")
    return (fixed or {}).get("closing") or {}


@on_table_opening
def opening_hours_declared(session: TableSession) -> None:
    """FR: opening-hour limits changed since the establishment last played, on an earlier day, are
    applied only once their prior declaration (003 art. 7, 9 bis 6°) is implemented, after that
    day (AUTH-01); the change of the minimum stakes is checked where they are set."""
    est = session.seance.establishment
    if est.jurisdiction != "FR":
        return
    previous = (
        TableSession.objects.filter(
            seance__establishment=est, seance__date__lt=session.seance.date, opened_at__isnull=False
        )
        .select_related("seance")
        .order_by("-opened_at")
        .first()
    )
    if previous is None:
        return
    then = Establishment.history.as_of(previous.opened_at).filter(pk=est.pk).first()
    if then is None or _hours(est, then.options) == _hours(est, est.options):
        return
    since = previous.seance.date
    if declaration_implemented(est, Declaration.Operation.DISTRIBUTION, on=session.seance.date, after=since) is None:
        raise RuleViolation(
            "AUTH-01",
            _(
                "Les limites horaires d'ouverture ont changé depuis la séance du %(date)s : ce changement exige "
                "une déclaration préalable (6°) dont la date de mise en œuvre est atteinte."
            )
            % {"date": since.strftime("%d/%m/%Y")},
        )


@on_table_page
def staff_and_limits_panel(request: HttpRequest, session: TableSession) -> str:
    est = session.seance.establishment
    live = session.status != TableSession.Status.CLOSED
    can_staff = live and bool(roles_of(request.user, est) & set(TABLE_MANAGERS))
    can_limit = live and bool(roles_of(request.user, est) & set(rules.LIMIT_SETTERS[est.jurisdiction]))
    staffing = rules.staffing_for(session.table, selectors.seats_of(session))
    composition = (
        [(rules.Position(p).label, low, high) for p, (low, high) in staffing.positions.items()] if staffing else []
    )
    return render_to_string(
        "tables/_panel.html",
        {
            "session": session,
            "staff": selectors.staff_of(session),
            "limits": selectors.limits_of(session),
            "staffing": staffing,
            "composition": composition,
            "gaps": selectors.composition_gaps(session),
            "limit_rule": rules.LIMITS.get((est.jurisdiction, session.table.game)),
            "seat_rule": rules.SEATS.get((est.jurisdiction, session.table.game)),
            "assign_form": AssignForm(establishment=est, prefix="assign") if can_staff else None,
            "relief_form": ReliefForm(establishment=est, session=session, prefix="relief") if can_staff else None,
            "limits_form": LimitsForm(session=session, prefix="limits") if can_limit else None,
            "mc_game": session.table.game if est.jurisdiction == "MC" else "",
            "extensions": selectors.extensions_of(session),
            "banker": selectors.banker_of(session),
            "closing_time": selectors.closing_time(session.seance),
            "extension_form": ExtensionForm(prefix="extension") if can_staff else None,
            "banker_form": BankerForm(session=session, prefix="banker") if can_staff else None,
        },
        request=request,
    )


@records(TABLE_PREPARED)
def partie_prepared(*, session: TableSession, actor: AbstractBaseUser, role: str) -> None:
    services.partie_act_record(session, actor=actor, role=role, event=_("Préparation de la partie"), at=timezone.now())


@records(TABLE_OPENED)
def partie_opened(*, session: TableSession, actor: AbstractBaseUser, role: str) -> None:
    services.partie_act_record(session, actor=actor, role=role, event=_("Début de partie"), at=session.opened_at)


@records(TABLE_CLOSED)
def partie_closed(*, session: TableSession, actor: AbstractBaseUser, role: str) -> None:
    services.partie_act_record(session, actor=actor, role=role, event=_("Fin de partie"), at=session.closed_at)
