"""The register kind registry (in code, not in the database).

A kind says what a register is for, which columns it prints, who records in it, who visas it
and who cotes and paraphs it. Domain apps declare their kinds in ``<app>/registers.py`` and
register them when the app is ready.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ledgers.core.registry import CodeRegistry
from ledgers.core.roles import ADMINISTRATOR_ROLE, DIRECTORATE, Role


@dataclass(frozen=True)
class Column:
    key: str  # payload key (dotted for nested values)
    label: str | Promise
    width: float  # relative width on the printed page
    # For a column whose entries wrote codes the reader cannot read (a place's code): given the
    # register's establishment, the function that reads a stored value; made once per page or
    # document, the payload itself never changes.
    reading: Callable[[Any], Callable[[Any], Any]] | None = None

    def value(self, payload: Any) -> Any:
        """This column's value in an entry's payload (None when absent)."""
        for part in self.key.split("."):
            payload = payload.get(part) if isinstance(payload, dict) else None
        return payload


def column_readers(columns: tuple[Column, ...], establishment: Any) -> dict[str, Callable[[Any], Any]]:
    """For each column, by key, how its stored values read in ``establishment``'s registers."""
    return {
        column.key: column.reading(establishment) if column.reading else (lambda value: value) for column in columns
    }


@dataclass(frozen=True)
class RegisterKind:
    code: str
    title: str | Promise
    purpose: str | Promise
    columns: tuple[Column, ...]
    record_roles: tuple[str, ...]
    jurisdictions: tuple[str, ...] = ("MC", "FR")
    # None: the jurisdiction profile's authorities (see ledgers.core.jurisdictions).
    visa_roles: tuple[str, ...] | None = None
    paraph_roles: tuple[str, ...] | None = None
    requirements: tuple[str, ...] = ()
    form: str = ""  # official form number, e.g. "modèle 19"
    extra: dict = field(default_factory=dict)
    # The catalogue row that names the paraphing authority: another role's attempt is refused
    # citing it (REG-26 for the art. 69 forms of the profile's SET-26, which wins over paraph_roles).
    paraph_requirement: str = ""
    # The catalogue row that allows one open volume per qualifier (desk, box, table): opening a
    # second one while the first is open is refused citing it (COUNT-26, COUNT-49).
    one_open_volume: str = ""

    def visa_roles_for(self, jurisdiction: str) -> tuple[str, ...]:
        from ledgers.core.jurisdictions import PROFILES

        return self.visa_roles if self.visa_roles is not None else PROFILES[jurisdiction].visa_roles

    def paraph_roles_for(self, jurisdiction: str) -> tuple[str, ...]:
        from ledgers.core.jurisdictions import PROFILES

        by_form = (PROFILES[jurisdiction].settings.get("SET-26") or {}).get("by_form", {})
        if self.form in by_form:
            return by_form[self.form]
        if self.paraph_roles is not None:
            return self.paraph_roles
        return (PROFILES[jurisdiction].paraphing_role,)

    def paraph_requirement_for(self, jurisdiction: str, qualifier: str = "") -> str:
        """The row that fixes who cotes and paraphs this kind here ("" when no text fixes it); a
        kind shared by several domains may name a row per qualifier (``extra["paraph_requirement_by_qualifier"]``,
        e.g. the MC dice intake register, REG-02)."""
        from ledgers.core.jurisdictions import PROFILES

        if self.form in (PROFILES[jurisdiction].settings.get("SET-26") or {}).get("by_form", {}):
            return "REG-26"
        return self.extra.get("paraph_requirement_by_qualifier", {}).get(qualifier, self.paraph_requirement)

    def missing_rule(self, jurisdiction: str) -> tuple[str, str]:
        """The catalogue row, and its article in ``jurisdiction``'s texts, that refuses an act when
        no volume of this kind is open there: the kind's first REG row of that jurisdiction, else
        REG-20 (every entry in a register that guarantees its traceability)."""
        from ledgers.core.catalogue import REQUIREMENTS

        code = next(
            (
                code
                for code in self.requirements
                if code.startswith("REG-") and jurisdiction in REQUIREMENTS[code].jurisdiction.split("/")
            ),
            "REG-20",
        )
        return code, article_in(REQUIREMENTS[code].article, jurisdiction)


# How each jurisdiction's texts are cited in the catalogue's articles.
TEXTS_OF = {"MC": ("AM ",), "FR": ("Arrêté du ",)}


def article_in(article: str, jurisdiction: str) -> str:
    """The parts of a catalogue article (``"Arrêté du … ; AM 88-384 art. 19.4"``) citing the texts of
    ``jurisdiction``; the article as it is when none does."""
    parts = [part.strip() for part in article.split(";")]
    own = [part for part in parts if part.startswith(TEXTS_OF.get(jurisdiction, ()))]
    return " ; ".join(own) or article


KINDS: CodeRegistry[RegisterKind] = CodeRegistry("register kind")
register_kind = KINDS.declare
get_kind = KINDS.get


# Where the labels of qualifiers that are codes come from (a custody domain, a category of its
# items: "cards-sixain"); each source is declared by the app that owns the codes and read when a
# title is made. Other qualifiers (a table, a desk, a machine) read as they are.
QualifierLabels = Callable[[], Mapping[str, str | Promise]]
_qualifier_sources: list[QualifierLabels] = []


def qualifier_labels(source: QualifierLabels) -> QualifierLabels:
    """Declare a source of qualifier labels (usable as a decorator; declaring twice is harmless)."""
    if source not in _qualifier_sources:
        _qualifier_sources.append(source)
    return source


def qualifier_label(qualifier: str) -> str:
    for source in _qualifier_sources:
        label = source().get(qualifier)
        if label is not None:
            return str(label)
    return qualifier


# Labels of payload keys that are codes (a slot machine's meters: "in:em"), declared by the app
# whose entries write them: pages and printed registers show the label. None: not a key it knows.
KeyLabel = Callable[[str], str | None]
_key_sources: list[KeyLabel] = []


def key_labels(source: KeyLabel) -> KeyLabel:
    """Declare a source of payload key labels (usable as a decorator; declaring twice is harmless)."""
    if source not in _key_sources:
        _key_sources.append(source)
    return source


def key_label(key: str) -> str:
    for source in _key_sources:
        label = source(key)
        if label is not None:
            return label
    return key


def labelled(value: Any) -> Any:
    """A payload value with the keys of its mappings labelled, at any depth."""
    if isinstance(value, dict):
        return {key_label(key): labelled(item) for key, item in value.items()}
    if isinstance(value, list):
        return [labelled(item) for item in value]
    return value


def default_title(kind: RegisterKind, qualifier: str) -> str:
    """The title a volume gets when none is given: its kind's, with its qualifier's label."""
    return str(kind.title) + (f" — {qualifier_label(qualifier)}" if qualifier else "")


def all_kinds() -> list[RegisterKind]:
    return list(KINDS)


def kind_choices() -> list[tuple[str, str]]:
    return [(k.code, str(k.title)) for k in all_kinds()]


MAIN_COURANTE = register_kind(
    RegisterKind(
        code="main_courante",
        title=_("Main courante de la direction des jeux"),
        purpose=_("Journal chronologique des faits de la séance : ouvertures, fermetures, observations."),
        columns=(
            Column("event_at", _("Date et heure du fait"), 1.2),
            Column("subject", _("Objet"), 1.6),
            Column("text", _("Relation des faits"), 4.0),
        ),
        record_roles=(*DIRECTORATE, Role.INSPECTEUR, Role.CHEF_PARTIE),
    )
)


def people_by_login(establishment: Any) -> Callable[[Any], Any]:
    """How a login written in a line reads: the person's name (their login when they have none,
    or when the login is no account's). The names are read once per page or document."""
    from django.contrib.auth import get_user_model

    names = {
        login: f"{first} {last}".strip() or login
        for login, first, last in get_user_model().objects.values_list("username", "first_name", "last_name")
    }
    return lambda login: names.get(login, login) if isinstance(login, str) else login


# No text names this register: the authority relies on who signed as what, so who may act in which
# role, from when, on whose decision, is kept as every other line is (chained, never edited). The
# first volume is opened with the establishment, by the system (``authorisations_register``).
AUTHORISATIONS = register_kind(
    RegisterKind(
        code="habilitations",
        title=_("Registre des habilitations et de la mise en place"),
        purpose=_(
            "Qui peut agir en quelle qualité, depuis quand, sur la décision de qui : rôles attribués et "
            "retirés, comptes, mise en place de l'établissement."
        ),
        columns=(
            Column("event_at", _("Date et heure"), 1.2),
            Column("subject", _("Acte"), 1.6),
            Column("person", _("Personne"), 1.2, reading=people_by_login),
            Column("text", _("Relation"), 3.4),
        ),
        record_roles=(*DIRECTORATE, ADMINISTRATOR_ROLE),
        paraph_roles=DIRECTORATE,
    )
)
