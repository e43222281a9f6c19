import datetime
import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.db.models import DecimalField, F, Model, Q, QuerySet, TextField
from django.db.models.functions import Cast, JSONObject
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from ledgers.core.expressions import ArraySubquery
from ledgers.core.prepared import counts_sql

from .models import Establishment, GamingTable, Location, Membership, RolePeriod, Seance, StaffAccount

SESSION_KEY = "establishment_id"


M = TypeVar("M", bound=Model)


def counted_together(**querysets: QuerySet) -> dict[str, int]:
    """The number of rows of each queryset, read in one query (a home's counts cost one query, not one each)."""
    with connection.cursor() as cursor:
        cursor.execute(*counts_sql(querysets))
        return dict(zip(querysets, cursor.fetchone(), strict=True))


def rows_of(queryset: QuerySet, **extra: Any) -> ArraySubquery:
    """The rows of ``queryset`` (its model's columns, and the expressions ``extra``), in its order:
    an annotation that reads them within another query, made objects again by ``objects_of``."""
    return ArraySubquery(queryset.values(json=JSONObject(**_columns(queryset.model), **extra)))


@functools.cache
def _columns(model: type[Model]) -> dict[str, F | Cast]:
    """``rows_of``'s expressions of the columns of ``model``, built once (a query resolves copies)."""
    # Decimals as text: a JSON number would lose their scale (12.50 read back as 12.5).
    return {
        field.attname: Cast(field.attname, TextField()) if isinstance(field, DecimalField) else F(field.attname)
        for field in model._meta.concrete_fields
    }


def objects_of(model: type[M], rows: list[dict[str, Any]]) -> list[M]:
    """The objects of ``model`` whose rows ``rows_of`` read (their related objects not read), each
    with its ``extra`` values as attributes."""
    fields = model._meta.concrete_fields
    found = []
    for row in rows:
        found.append(object_read(model, {f.attname: f.to_python(row[f.attname]) for f in fields}))
        for name in row.keys() - {f.attname for f in fields}:
            setattr(found[-1], name, row[name])
    return found


def object_read(model: type[M], values: dict[str, Any]) -> M:
    """An object of ``model`` as read from the database with ``values`` (attname → value), the
    fields it lacks deferred (read if asked)."""
    present = [field.attname for field in model._meta.concrete_fields if field.attname in values]
    return model.from_db(None, present, [values[name] for name in present])


def establishments_for(user: AbstractBaseUser) -> QuerySet[Establishment]:
    if not user.is_authenticated:
        return Establishment.objects.none()
    return Establishment.objects.filter(memberships__user=user).distinct()


def my_establishments(request: HttpRequest) -> list[Establishment]:
    """The user's establishments, read once per request with the user's roles in each (one query):
    the current one is chosen among them, the menu's switcher lists them, and within
    ``roles_remembered`` the roles are remembered as ``roles_of`` would read them."""
    if not hasattr(request, "_my_establishments"):
        mine: dict[int, Establishment] = {}
        held: dict[int, set[str]] = {}
        if request.user.is_authenticated:
            memberships = Membership.objects.filter(user=request.user).select_related("establishment")
            for membership in memberships.order_by("establishment__name", "establishment_id"):
                mine.setdefault(membership.establishment_id, membership.establishment)
                held.setdefault(membership.establishment_id, set()).add(membership.role)
        remembered = getattr(request.user, "_remembered_roles", None)
        if remembered is not None:
            remembered.update({pk: frozenset(roles) for pk, roles in held.items()})
        request._my_establishments = list(mine.values())
    return request._my_establishments


def current_establishment(request: HttpRequest) -> Establishment | None:
    mine = my_establishments(request)
    chosen = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    return next((est for est in mine if est.pk == chosen), mine[0] if mine else None)


def depots(establishment: Establishment, kinds: Mapping[str, Iterable[str]]) -> QuerySet[Location]:
    """The active places of the establishment where a domain's objects may be kept when not at a
    table; ``kinds`` is the domain's ``depot_kinds`` (location kinds by jurisdiction)."""
    return Location.objects.filter(
        establishment=establishment, active=True, kind__in=kinds.get(establishment.jurisdiction, ())
    ).order_by("code")


def open_seances(establishment: Establishment) -> QuerySet[Seance]:
    return Seance.objects.filter(establishment=establishment, status=Seance.Status.OPEN)


def others_open_that_day(establishment: Any, date: Any, pk: Any) -> QuerySet[Seance]:
    """The establishment's séances open on ``date`` but séance ``pk`` (values, or ``OuterRef`` for
    a query on séances): while one is, closing that séance does not close the gaming day."""
    return Seance.objects.filter(establishment=establishment, status=Seance.Status.OPEN, date=date).exclude(pk=pk)


def establishment_of(obj: Model) -> Establishment | None:
    """The establishment a tracked object belongs to (``establishment`` field or property)."""
    if isinstance(obj, Establishment):
        return obj
    return getattr(obj, "establishment", None)


@dataclass(frozen=True)
class Change:
    field: str
    old: Any
    new: Any


@dataclass(frozen=True)
class HistoryRow:
    record: Any  # the historical record: history_date, history_user, history_type, history_change_reason
    changes: list[Change]


def _label(field) -> str:
    # A relation named after its model ("establishment") reads better with the model's own name.
    if field.is_relation and field.verbose_name == field.name.replace("_", " "):
        return str(field.related_model._meta.verbose_name)
    return str(field.verbose_name)


def _shown(field, value: Any) -> Any:
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return _("oui") if value else _("non")
    if field.choices:
        return dict(field.flatchoices).get(value, value)
    return value


def history_of(obj: Model) -> list[HistoryRow]:
    """Every history record of ``obj``, newest first, each with what changed since the one before."""
    records = list(obj.history.select_related("history_user").order_by("-history_date", "-history_id"))
    rows = []
    meta = type(obj)._meta
    for record, older in zip(records, [*records[1:], None], strict=True):
        if older is None:  # the creation: every value it was created with
            tracked = [f for f in meta.concrete_fields if not f.primary_key and hasattr(record, f.attname)]
            changes = [Change(_label(f), "—", _shown(f, getattr(record, f.name))) for f in tracked]
        else:
            delta = record.diff_against(older, foreign_keys_are_objs=True)
            changes = [
                Change(_label(field), _shown(field, c.old), _shown(field, c.new))
                for c in delta.changes
                for field in [meta.get_field(c.field)]
            ]
        rows.append(HistoryRow(record, changes))
    return rows


def seances_of(establishment: Establishment) -> QuerySet[Seance]:
    return Seance.objects.filter(establishment=establishment).order_by("-date", "-opened_at")


def unprepared_tables(seance: Seance) -> QuerySet[GamingTable]:
    """The establishment's tables in service that have no table-partie in this séance yet."""
    return (
        GamingTable.objects.filter(establishment=seance.establishment, active=True)
        .exclude(sessions__seance=seance)
        .select_related("room")
        .order_by("room__code", "number")
    )


# --- The people and their roles' history ---------------------------------------------------------


def staff_of(establishment: Establishment) -> QuerySet:
    """The accounts of the establishment's people: those created here and those who hold, or have
    held, a role here; by name."""
    return (
        get_user_model()
        .objects.filter(
            Q(pk__in=RolePeriod.objects.filter(establishment=establishment).values("user_id"))
            | Q(pk__in=StaffAccount.objects.filter(establishment=establishment).values("user_id"))
        )
        .order_by("last_name", "first_name", "username")
    )


def day_bounds(establishment: Establishment, day: datetime.date) -> tuple[datetime.datetime, datetime.datetime]:
    """The establishment's day ``day``, from its midnight to the next, on its clock."""
    zone = ZoneInfo(establishment.timezone)
    start = datetime.datetime.combine(day, datetime.time.min, tzinfo=zone)
    return start, datetime.datetime.combine(day + datetime.timedelta(days=1), datetime.time.min, tzinfo=zone)


def role_holders(establishment: Establishment, role: str, day: datetime.date) -> QuerySet:
    """Who held ``role`` here at any moment of ``day`` (the establishment's day): each period of
    that role which began before the day ended and had not ended when it began."""
    start, end = day_bounds(establishment, day)
    return (
        RolePeriod.objects.filter(establishment=establishment, role=role, valid_from__lt=end)
        .exclude(valid_until__lte=start)
        .select_related("user", "granted_by", "ended_by")
        .order_by("user__last_name", "user__first_name", "valid_from")
    )


def roles_held_by(establishment: Establishment, user: AbstractBaseUser) -> QuerySet:
    """Every role ``user`` has held here, when (from, until), granted and ended by whom."""
    return (
        RolePeriod.objects.filter(establishment=establishment, user=user)
        .select_related("user", "granted_by", "ended_by")
        .order_by("valid_from", "pk")
    )
