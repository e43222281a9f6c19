"""Bulk set-up from a spreadsheet (CSV or XLSX): one row, one act of the same service the page
calls, so that an imported row obeys every rule a typed one does.

A domain declares what it imports with a ``RowSpec`` (its columns, and ``write``: the row's cells
read into the service's arguments, then the service called) in its ``imports`` module, which its
``AppConfig.ready()`` imports. ``import_rows`` runs every row in one transaction, each in its own
savepoint so that one refused row does not hide the next one's problem; a preview (``commit=False``)
or any refused row rolls the whole transaction back: nothing is written unless every row is
accepted. A problem names its row (the spreadsheet's line, the headings being line 1), its column
and what is wrong."""

import csv
import datetime
import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import PurePath
from typing import Any

import tablib
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Model, QuerySet
from django.utils.encoding import force_str
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .errors import RuleViolation
from .models import Establishment
from .registry import CodeRegistry

FORMATS = ("csv", "xlsx")
MAX_ROWS = 5000
MAX_BYTES = 5 * 1024 * 1024
FIRST_ROW = 2  # the headings are the spreadsheet's line 1

Row = dict[str, str]


@dataclass(frozen=True)
class Column:
    """A column of the file: its heading (``name``, lower case), what it holds, whether a row must
    fill it."""

    name: str
    label: str | Promise
    required: bool = False


@dataclass(frozen=True)
class RowSpec:
    """What a domain imports: ``write(establishment=, actor=, row=)`` reads the row's cells (a
    ``RowErrors`` naming each bad cell) and calls the domain's service, which returns the object
    made. ``fields`` names the column of each service argument a refusal may name; ``count`` says
    how many the establishment has, ``add_url`` names the page that adds one by hand."""

    code: str
    label: str | Promise
    columns: tuple[Column, ...]
    write: Callable[..., Model]
    fields: dict[str, str] = field(default_factory=dict)
    jurisdictions: tuple[str, ...] = ("MC", "FR")
    order: int = 100
    count: Callable[[Establishment], int] | None = None
    add_url: str = ""

    def column_of(self, argument: str) -> str:
        names = {column.name for column in self.columns}
        column = self.fields.get(argument, argument)
        return column if column in names else ""


IMPORTS: CodeRegistry[RowSpec] = CodeRegistry("import")


def declare(spec: RowSpec) -> RowSpec:
    return IMPORTS.declare(spec)


def specs_for(establishment: Establishment) -> list[RowSpec]:
    return sorted((spec for spec in IMPORTS if establishment.jurisdiction in spec.jurisdictions), key=lambda s: s.order)


@dataclass(frozen=True)
class Problem:
    """Why a row is refused: its line in the file, its column ("" for the row as a whole), the
    message (a rule's refusal names its catalogue ID and article)."""

    row: int
    column: str
    message: str
    code: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"row": self.row, "column": self.column, "message": self.message, "code": self.code}


@dataclass
class Outcome:
    spec: RowSpec
    rows: int
    problems: list[Problem]
    made: list[str]  # each row's object, in words, when every row is accepted
    written: bool

    @property
    def accepted(self) -> bool:
        return not self.problems


class RowErrors(ValidationError):
    """The bad cells of one row, by column."""


class _Undo(Exception):
    pass


# --- reading the file ---------------------------------------------------------------------------


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime):
        return value.date().isoformat() if value.time() == datetime.time() else value.isoformat(sep=" ")
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value).strip()


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def read_rows(*, name: str, data: bytes, spec: RowSpec) -> list[Row]:
    """The rows of an uploaded file, each a mapping of the spec's column names to the cell's text;
    a file that cannot be read, or whose headings are not the spec's, is refused whole
    (ValidationError) before any row is tried."""
    suffix = PurePath(name or "").suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise ValidationError(_("Fichier CSV ou XLSX attendu."))
    if len(data) > MAX_BYTES:
        raise ValidationError(_("Fichier trop volumineux (5 Mo au plus)."))
    try:
        if suffix == "csv":
            text = _decode(data)
            delimiter = ";" if text.split("\n", 1)[0].count(";") > text.split("\n", 1)[0].count(",") else ","
            sheet = [list(line) for line in csv.reader(io.StringIO(text), delimiter=delimiter)]
        else:
            loaded = tablib.Dataset().load(io.BytesIO(data), format="xlsx", headers=False)
            sheet = [list(line) for line in loaded]
    except Exception as exc:  # a broken file, whatever the library says about it
        raise ValidationError(_("Fichier illisible : %(error)s") % {"error": exc}) from exc
    sheet = [[_text(cell) for cell in line] for line in sheet]
    while sheet and not any(sheet[-1]):
        sheet.pop()
    if not sheet:
        raise ValidationError(_("Le fichier est vide."))
    headings = [heading.lower() for heading in sheet[0]]
    names = [column.name for column in spec.columns]
    unknown = [heading for heading in headings if heading and heading not in names]
    missing = [column.name for column in spec.columns if column.required and column.name not in headings]
    if unknown or missing:
        raise ValidationError(
            _("En-têtes attendus : %(expected)s (inconnus : %(unknown)s ; manquants : %(missing)s).")
            % {
                "expected": ", ".join(names),
                "unknown": ", ".join(unknown) or "—",
                "missing": ", ".join(missing) or "—",
            }
        )
    if len(sheet) - 1 > MAX_ROWS:
        raise ValidationError(_("%(n)s lignes au plus par fichier.") % {"n": MAX_ROWS})
    rows = []
    for line in sheet[1:]:
        cells = dict(zip(headings, line, strict=False))
        rows.append({name: cells.get(name, "") for name in names})
    return rows


# --- reading a cell -----------------------------------------------------------------------------


class Cells:
    """A row's cells read into typed values; each bad cell is noted by column, and ``check()``
    raises them all at once (``RowErrors``)."""

    def __init__(self, row: Row) -> None:
        self.row = row
        self.errors: dict[str, list[str]] = {}

    def bad(self, column: str, message: str | Promise) -> None:
        self.errors.setdefault(column, []).append(force_str(message))

    def text(self, column: str, *, required: bool = False) -> str:
        value = self.row.get(column, "").strip()
        if required and not value:
            self.bad(column, _("Ce champ est obligatoire."))
        return value

    def integer(self, column: str, *, default: int | None = None, minimum: int | None = None) -> int | None:
        value = self.text(column)
        if not value:
            return default
        try:
            number = int(value)
        except ValueError:
            self.bad(column, _("Nombre entier attendu."))
            return default
        if minimum is not None and number < minimum:
            self.bad(column, _("Au moins %(n)s.") % {"n": minimum})
        return number

    def decimal(self, column: str) -> Decimal | None:
        value = self.text(column).replace(",", ".").replace(" ", "")
        if not value:
            return None
        try:
            return Decimal(value)
        except InvalidOperation:
            self.bad(column, _("Nombre attendu."))
            return None

    def date(self, column: str, *, required: bool = False) -> datetime.date | None:
        value = self.text(column, required=required)
        if not value:
            return None
        for parse in (datetime.date.fromisoformat, lambda v: datetime.datetime.strptime(v, "%d/%m/%Y").date()):
            try:
                return parse(value[:10])
            except ValueError:
                continue
        self.bad(column, _("Date attendue (AAAA-MM-JJ ou JJ/MM/AAAA)."))
        return None

    def boolean(self, column: str) -> bool:
        value = self.text(column).lower()
        if value in ("", "0", "non", "no", "false", "faux", "n"):
            return False
        if value in ("1", "oui", "yes", "true", "vrai", "o", "y", "x"):
            return True
        self.bad(column, _("Oui ou non attendu."))
        return False

    def choice(self, column: str, choices: Iterable[tuple[str, Any]], *, required: bool = False) -> str:
        """A code of ``choices``, given as the code or its label (any case)."""
        value = self.text(column, required=required)
        if not value:
            return ""
        for code, label in choices:
            if value.lower() in (str(code).lower(), force_str(label).lower()):
                return str(code)
        self.bad(
            column,
            _("Valeur inconnue « %(value)s » (attendu : %(choices)s).")
            % {"value": value, "choices": ", ".join(str(code) for code, _label in choices)},
        )
        return ""

    def choices(self, column: str, choices: Sequence[tuple[str, Any]]) -> list[str]:
        """Several codes of ``choices``, separated by commas."""
        picked = []
        for part in filter(None, (p.strip() for p in self.text(column).split(","))):
            code = Cells({column: part}).choice(column, choices)
            if code:
                picked.append(code)
            else:
                self.bad(column, _("Valeur inconnue « %(value)s ».") % {"value": part})
        return picked

    def lookup(self, column: str, queryset: QuerySet, *, by: str = "code", required: bool = False) -> Any:
        """The object of ``queryset`` whose ``by`` is the cell's value, None when the cell is
        empty and not required."""
        value = self.text(column, required=required)
        if not value:
            return None
        found = queryset.filter(**{by: value}).first()
        if found is None:
            self.bad(column, _("« %(value)s » introuvable dans l'établissement.") % {"value": value})
        return found

    def check(self) -> None:
        if self.errors:
            raise RowErrors(self.errors)


# --- running the rows ---------------------------------------------------------------------------


def _problems(spec: RowSpec, number: int, exc: Exception) -> list[Problem]:
    if isinstance(exc, RuleViolation):
        return [Problem(number, "", str(exc), exc.code)]
    if isinstance(exc, ValidationError):
        if hasattr(exc, "error_dict"):
            return [
                Problem(number, spec.column_of(name) if name != "__all__" else "", force_str(message))
                for name, errors in exc.error_dict.items()
                for error in errors
                for message in error.messages
            ]
        return [Problem(number, "", force_str(message)) for message in exc.messages]
    if isinstance(exc, IntegrityError):
        return [Problem(number, "", force_str(_("Ces données contredisent celles déjà enregistrées.")))]
    return [Problem(number, "", str(exc))]


def import_rows(
    *, spec: RowSpec, establishment: Establishment, actor: AbstractBaseUser, rows: Sequence[Row], commit: bool
) -> Outcome:
    """Every row through ``spec.write`` in one transaction: kept only when ``commit`` and every
    row is accepted; otherwise rolled back whole, with every refused row's problems. An actor who
    may not do the act at all is refused whole (PermissionDenied), as on the page."""
    if establishment.jurisdiction not in spec.jurisdictions:
        raise ValidationError(_("Cet import ne concerne pas cet établissement."))
    problems: list[Problem] = []
    made: list[str] = []
    if not rows:
        raise ValidationError(_("Le fichier ne contient aucune ligne."))
    try:
        with transaction.atomic():
            for index, row in enumerate(rows):
                number = index + FIRST_ROW
                try:
                    with transaction.atomic():
                        made.append(str(spec.write(establishment=establishment, actor=actor, row=row)))
                except PermissionDenied:
                    raise
                except (RuleViolation, ValidationError, ValueError, IntegrityError) as exc:
                    problems.extend(_problems(spec, number, exc))
            if problems or not commit:
                raise _Undo
    except _Undo:
        pass
    written = commit and not problems
    return Outcome(spec=spec, rows=len(rows), problems=problems, made=made if not problems else [], written=written)


# --- what core imports: rooms, places, gaming tables -------------------------------------------
# (at the end: the declarations use the framework above)

from .games import games_for  # noqa: E402
from .models import GamingTable, Location, LocationKind, Room  # noqa: E402
from .services import gaming_table_create, location_create, room_create  # noqa: E402


def _write_room(*, establishment, actor, row):
    cells = Cells(row)
    code, name = cells.text("code", required=True), cells.text("nom", required=True)
    cells.check()
    return room_create(establishment=establishment, code=code, name=name, actor=actor)


def _write_location(*, establishment, actor, row):
    cells = Cells(row)
    code, name = cells.text("code", required=True), cells.text("nom", required=True)
    kind = cells.choice("type", LocationKind.choices, required=True)
    room = cells.lookup("salle", Room.objects.filter(establishment=establishment))
    cells.check()
    return location_create(establishment=establishment, code=code, name=name, kind=kind, room=room, actor=actor)


def _write_table(*, establishment, actor, row):
    cells = Cells(row)
    room = cells.lookup("salle", Room.objects.filter(establishment=establishment), required=True)
    number = cells.text("numero", required=True)
    game = cells.choice("jeu", [(g.code, g.label) for g in games_for(establishment.jurisdiction)], required=True)
    seats = cells.integer("places", default=7, minimum=1)
    super_prive = cells.boolean("super_prive")
    cells.check()
    return gaming_table_create(room=room, number=number, game=game, seats=seats, super_prive=super_prive, actor=actor)


ROOMS = declare(
    RowSpec(
        code="salles",
        label=_("Salles"),
        columns=(Column("code", _("code de la salle"), required=True), Column("nom", _("nom"), required=True)),
        write=_write_room,
        fields={"code": "code", "name": "nom"},
        order=10,
        count=lambda est: Room.objects.filter(establishment=est).count(),
        add_url="setup-rooms",
    )
)
LOCATIONS = declare(
    RowSpec(
        code="emplacements",
        label=_("Emplacements"),
        columns=(
            Column("code", _("code de l'emplacement"), required=True),
            Column("nom", _("nom"), required=True),
            Column("type", _("type (code ou libellé : depot_principal, dcc, card_cabinet, coffre…)"), required=True),
            Column("salle", _("code de la salle, s'il est dans une salle")),
        ),
        write=_write_location,
        fields={"code": "code", "name": "nom", "kind": "type", "room": "salle"},
        order=20,
        count=lambda est: Location.objects.filter(establishment=est).count(),
        add_url="setup-locations",
    )
)
TABLES = declare(
    RowSpec(
        code="tables",
        label=_("Tables de jeu"),
        columns=(
            Column("salle", _("code de la salle"), required=True),
            Column("numero", _("numéro de la table"), required=True),
            Column("jeu", _("jeu (code ou libellé)"), required=True),
            Column("places", _("places (7 par défaut)")),
            Column("super_prive", _("salon super privé (oui ou non)")),
        ),
        write=_write_table,
        fields={"room": "salle", "number": "numero", "game": "jeu", "seats": "places", "super_prive": "super_prive"},
        order=30,
        count=lambda est: GamingTable.objects.filter(establishment=est).count(),
        add_url="gaming-tables",
    )
)


# --- the staff: accounts with their roles ---------------------------------------------------------

from .accounts import account_create  # noqa: E402
from .passwords import account_invite  # noqa: E402
from .roles import REGULATOR_ROLES, Role  # noqa: E402
from .selectors import staff_of  # noqa: E402


def _write_staff(*, establishment, actor, row):
    """An account created with its roles (each a line of the register of authorisations), then,
    when the row gives an address, the person invited to choose their own password; without one,
    the directorate gives a provisional password from the staff page."""
    cells = Cells(row)
    data = {
        "username": cells.text("identifiant", required=True),
        "first_name": cells.text("prenom", required=True),
        "last_name": cells.text("nom", required=True),
        "email": cells.text("courriel"),
        "roles": cells.choices("roles", Role.choices),
        "since": cells.date("depuis"),
    }
    if REGULATOR_ROLES.intersection(data["roles"]) and not data["email"]:
        cells.bad(
            "courriel",
            _(
                "Un fonctionnaire de l'autorité choisit son mot de passe par le lien envoyé à son adresse : "
                "elle est obligatoire."
            ),
        )
    cells.check()
    user = account_create(establishment=establishment, actor=actor, **data)
    if user.email:
        account_invite(establishment=establishment, user=user, actor=actor)
    return user


STAFF = declare(
    RowSpec(
        code="personnel",
        label=_("Personnel et rôles"),
        columns=(
            Column("identifiant", _("identifiant de connexion"), required=True),
            Column("prenom", _("prénom"), required=True),
            Column("nom", _("nom"), required=True),
            Column("courriel", _("adresse électronique (l'invitation à choisir son mot de passe y est envoyée)")),
            Column("roles", _("rôles (codes ou libellés séparés par des virgules)")),
            Column("depuis", _("en poste depuis le (AAAA-MM-JJ ou JJ/MM/AAAA ; aujourd'hui par défaut)")),
        ),
        write=_write_staff,
        fields={
            "username": "identifiant",
            "first_name": "prenom",
            "last_name": "nom",
            "email": "courriel",
            "roles": "roles",
            "since": "depuis",
        },
        order=5,
        count=lambda est: staff_of(est).count(),
        add_url="staff",
    )
)
