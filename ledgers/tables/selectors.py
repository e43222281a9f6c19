import datetime
from zoneinfo import ZoneInfo

from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import Establishment, Seance, TableSession

from .models import ClosingExtension, PartieBanker, StaffAssignment, TableLimits
from .rules import Position, staffing_for


def staff_of(session: TableSession) -> QuerySet[StaffAssignment]:
    return StaffAssignment.objects.filter(table_session=session).select_related("person", "relief_of__person")


def on_duty(session: TableSession, position: str | None = None) -> QuerySet[StaffAssignment]:
    """Who is on duty at the table now (at one position, or at any)."""
    duty = StaffAssignment.objects.filter(table_session=session, ended_at__isnull=True)
    return duty.filter(position=position) if position else duty


def on_duty_at(session: TableSession, position: str, moment: datetime.datetime) -> QuerySet[StaffAssignment]:
    """Who held ``position`` at the table at ``moment`` (e.g. the inspecteur a called bet needs, GAME-20)."""
    return (
        staff_of(session)
        .filter(position=position, started_at__lte=moment)
        .filter(Q(ended_at__isnull=True) | Q(ended_at__gt=moment))
    )


def limits_of(session: TableSession) -> QuerySet[TableLimits]:
    return TableLimits.objects.filter(table_session=session).select_related("set_by").order_by("set_at", "pk")


def seats_of(session: TableSession) -> int:
    latest = limits_of(session).last()
    return latest.seats if latest is not None else session.table.seats


def with_seats(sessions: QuerySet[TableSession]) -> QuerySet[TableSession]:
    """``sessions`` annotated with ``limits_seats``: the seats of their latest limits (None where
    none were fixed, the table's own seats then apply, as in ``seats_of``), in the same query."""
    latest = TableLimits.objects.filter(table_session=OuterRef("pk")).order_by("-set_at", "-pk").values("seats")[:1]
    return sessions.annotate(limits_seats=Subquery(latest))


def exceptions(
    establishment: Establishment, days: int = 90, latest: int | None = None
) -> list[tuple[str, str, TableSession]]:
    """FLAG rows for the exceptions list, (requirement, what, table-partie), over the séances of
    the last ``days`` days: flagged assignments and reliefs (GAME-10, 15, 42), and table-parties
    opened with no staff logged although their text fixes a composition. A fixed number of
    queries, whatever the history. With ``latest``, only the ``latest`` rows of the most recent
    séances, oldest first, each source read from the most recent down until it has given as many."""
    since = establishment.localtime().date() - datetime.timedelta(days=days)
    sessions = (
        TableSession.objects.filter(seance__establishment=establishment, seance__date__gte=since)
        .filter(opened_at__isnull=False)
        .select_related("table__establishment", "seance")
        .order_by("-seance__date", "-opened_at", "-pk")
    )
    duties = (
        StaffAssignment.objects.filter(table_session__seance__establishment=establishment)
        .filter(table_session__seance__date__gte=since)
        .exclude(flags=[])
        .select_related("table_session__table", "table_session__seance", "person")
        .order_by("-table_session__seance__date", "-table_session__opened_at", "-pk")
    )
    rows = [
        (flag["code"], f"{duty} — {flag['text']}", duty.table_session)
        for duty in (duties[:latest] if latest else duties)
        for flag in duty.flags
    ]
    # The parties opened with no staff logged and the banks à tout va with no banker, read in one scan.
    unstaffed, banks = [], []
    bank = Q(table__game="banque_tout_va") & ~Exists(PartieBanker.objects.filter(table_session=OuterRef("pk")))
    lacking = with_seats(sessions).annotate(
        no_staff=~Exists(StaffAssignment.objects.filter(table_session=OuterRef("pk"))),
        no_banker=ExpressionWrapper(bank, output_field=BooleanField()),
    )
    for session in lacking.filter(Q(no_staff=True) | Q(no_banker=True)).iterator(chunk_size=100):
        staffing = staffing_for(session.table, session.limits_seats) if session.no_staff else None
        if staffing is not None and not (latest and len(unstaffed) == latest):
            # Named by its game: each composition's flag says which tables it is about.
            what = _("%(game)s : table ouverte sans personnel inscrit") % {"game": session.table.get_game_display()}
            unstaffed.append((staffing.code, str(what), session))
        if session.no_banker and not (latest and len(banks) == latest):
            banks.append(("GAME-31", str(_("Banque à tout va ouverte sans banquier agréé désigné")), session))
        if latest and len(unstaffed) == len(banks) == latest:
            break
    rows += unstaffed
    rows += [
        ("GAME-29", str(_("Partie fermée après l'heure de fermeture sans prolongation inscrite")), session)
        for session in closed_late_without_extension(establishment, days=days, latest=latest)
    ]
    rows += banks
    if not latest:
        return rows
    rows.sort(key=lambda row: (row[2].seance.date, row[2].opened_at.timestamp() if row[2].opened_at else 0, row[2].pk))
    return rows[-latest:]


def closing_time(seance: Seance) -> datetime.datetime | None:
    """The closing time the house fixes for the séance (SET-25: period → ["HH:MM", days after the
    séance's date]), or None where none is set."""
    fixed = ((seance.establishment.setting("SET-25") or {}).get("closing") or {}).get(seance.period)
    if not fixed:
        return None
    at, days = fixed
    local = datetime.datetime.combine(seance.date + datetime.timedelta(days=days), datetime.time.fromisoformat(at))
    return local.replace(tzinfo=ZoneInfo(seance.establishment.timezone))


def closed_late_without_extension(
    establishment: Establishment, days: int = 90, latest: int | None = None
) -> list[TableSession]:
    """MC table-parties closed after their séance's closing time (SET-25) with no extension
    decision reaching their end (GAME-29 FLAG), over the last ``days`` days; with ``latest``, the
    most recent ones only, read from the most recent down until that many are found."""
    if establishment.jurisdiction != "MC":
        return []
    late = []
    since = establishment.localtime().date() - datetime.timedelta(days=days)
    # Each partie with the latest end its extensions give it, read with it (not every extension of the period).
    extended_to = ClosingExtension.objects.filter(table_session=OuterRef("pk")).order_by("-new_end").values("new_end")
    closed = (
        TableSession.objects.filter(
            seance__establishment=establishment, closed_at__isnull=False, seance__date__gte=since
        )
        .select_related("seance__establishment", "table")
        .annotate(extended_to=Subquery(extended_to[:1]))
    )
    for session in closed.order_by("-seance__date", "-closed_at", "-pk").iterator(chunk_size=100):
        closing = closing_time(session.seance)
        if (
            closing is not None
            and session.closed_at > closing
            and not (session.extended_to is not None and session.closed_at <= session.extended_to)
        ):
            late.append(session)
            if latest and len(late) == latest:
                break
    late.reverse()
    return late


def banker_of(session: TableSession) -> PartieBanker | None:
    return PartieBanker.objects.filter(table_session=session).select_related("banker").order_by("named_at", "pk").last()


def extensions_of(session: TableSession):
    return ClosingExtension.objects.filter(table_session=session).select_related("decided_by")


def composition_gaps(session: TableSession) -> list[str]:
    """What the staff on duty lacks, or has too much of, against the table's composition."""
    staffing = staffing_for(session.table, seats_of(session))
    if staffing is None:
        return []
    gaps = []
    for position, (low, high) in staffing.positions.items():
        n = on_duty(session, position).count()
        if not low <= n <= high:
            wanted = str(low) if low == high else f"{low}–{high}"
            gaps.append(f"{Position(position).label} : {n} / {wanted}")
    return gaps
