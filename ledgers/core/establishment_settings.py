"""The establishment's settings that change after its set-up (``Establishment.options``, read by
``Establishment.setting``): each with its label in words, what its value is made of and the
jurisdictions that read it. ``establishment_setting_change`` changes those that have no ``act``;
the others are set by that act alone, which has rules of its own. A setting not declared here is
the texts' (its jurisdiction's default, ``jurisdictions.PROFILES``) or held in the code
(``requirements.SETTINGS_HELD``).

A setting's value is one part, or a mapping of parts by key (a game, a séance period, a named
figure): a key left out keeps the jurisdiction's default (``Establishment.setting`` overrides key
by key)."""

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.functional import Promise
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from . import amounts
from .games import Equipment, games_for
from .models import Establishment, SeancePeriod

WHOLE, AMOUNT, CHOICE, TEXT, DATE, CLOSING = "whole", "amount", "choice", "text", "date", "closing"


# The least notice of a Monaco destruction the SCJ can be given (CARD-11, DICE-07): the text wants
# it able to attend what it is told of, so no setting goes below an hour.
SCJ_NOTICE_FLOOR_MINUTES = 60


@dataclass(frozen=True)
class Part:
    """One value of a setting: its key in the setting's mapping ("" for a setting of one value),
    its label and its kind; a whole number is at least ``minimum``."""

    key: str
    label: str | Promise
    kind: str
    choices: tuple[tuple[str, str | Promise], ...] = ()
    minimum: int = 0

    def parse(self, value: Any) -> Any:
        """The value as stored (an amount as its decimal text, a closing time as [HH:MM, days
        after the séance's date]); bad input raises ValidationError."""
        if self.kind == WHOLE:
            if isinstance(value, bool) or not isinstance(value, int | str) or not str(value).strip().isdigit():
                raise self._invalid(_("nombre entier attendu"))
            if int(value) < self.minimum:
                raise self._invalid(_("au moins %(n)s") % {"n": self.minimum})
            return int(value)
        if self.kind == AMOUNT:
            amount = amounts.money(value)
            if amount <= 0:
                raise self._invalid(_("montant positif attendu"))
            return str(amounts.within_money_limit(amount))
        if self.kind == CHOICE:
            if not isinstance(value, str) or value not in dict(self.choices):
                raise self._invalid(_("choix inconnu"))
            return value
        if self.kind == TEXT:
            if not isinstance(value, str) or not value.strip():
                raise self._invalid(_("texte attendu"))
            return value.strip()[:200]
        if self.kind == DATE:
            try:
                return datetime.date.fromisoformat(str(value)).isoformat()
            except ValueError as exc:
                raise self._invalid(_("date attendue (AAAA-MM-JJ)")) from exc
        return self._closing(value)

    def _closing(self, value: Any) -> list:
        if not isinstance(value, list | tuple) or len(value) != 2 or value[1] not in (0, 1):
            raise self._invalid(_("heure et jour attendus : [« HH:MM », 0 le jour même ou 1 le lendemain]"))
        try:
            at = datetime.datetime.strptime(str(value[0]), "%H:%M").strftime("%H:%M")
        except ValueError as exc:
            raise self._invalid(_("heure attendue au format HH:MM")) from exc
        return [at, int(value[1])]

    def _invalid(self, why: str | Promise) -> ValidationError:
        text = _("%(part)s : %(why)s.") % {"part": self.label, "why": why} if self.label else f"{capfirst(why)}."
        return ValidationError({"value": text})

    def describe(self, value: Any) -> str:
        """A stored value in words, in the active language (an amount as "1500.00 €", which pages
        and printed registers show in the reader's format)."""
        if self.kind == AMOUNT:
            return f"{value} €"
        if self.kind == CHOICE:
            return str(dict(self.choices).get(value, value))
        if self.kind == DATE:
            return datetime.date.fromisoformat(value).strftime("%d/%m/%Y")
        if self.kind == CLOSING:
            at, days = value
            return str(_("%(at)s le lendemain") % {"at": at}) if days else at
        return str(value)


Parts = Callable[[Establishment], tuple[Part, ...]]


@dataclass(frozen=True)
class Setting:
    """A setting (SET-xx): its parts in an establishment (``keyed``: its value maps their keys,
    stored under ``under`` when given; else it is its one part's value), the jurisdictions that read
    it, and ``act``: the act that sets it, when ``establishment_setting_change`` does not."""

    code: str
    label: str | Promise
    parts: Parts
    jurisdictions: tuple[str, ...] = ("MC", "FR")
    keyed: bool = True
    under: str = ""
    act: str | Promise = ""

    def parse(self, value: Any, establishment: Establishment) -> Any:
        """``value`` as stored, each part checked; a part given empty keeps its default."""
        parts = self.parts(establishment)
        if not self.keyed:
            return parts[0].parse(value)
        mapping = value.get(self.under) if self.under and isinstance(value, dict) else value
        if not isinstance(mapping, dict) or (self.under and set(value) != {self.under}):
            raise ValidationError({"value": _("Valeur attendue : une valeur par élément du réglage.")})
        by_key = {part.key: part for part in parts}
        unknown = sorted(set(mapping) - set(by_key))
        if unknown:
            raise ValidationError(
                {"value": _("Élément inconnu de ce réglage : %(keys)s.") % {"keys": ", ".join(unknown)}}
            )
        parsed = {key: part.parse(mapping[key]) for key, part in by_key.items() if mapping.get(key) not in (None, "")}
        return {self.under: parsed} if self.under else parsed

    def describe(self, value: Any, establishment: Establishment) -> str:
        """The value in words, in the active language."""
        if value in (None, {}):
            return str(_("non fixé"))
        parts = self.parts(establishment)
        if not self.keyed:
            return parts[0].describe(value)
        mapping = (value.get(self.under) or {}) if self.under else value
        described = [f"{part.label} : {part.describe(mapping[part.key])}" for part in parts if part.key in mapping]
        return " ; ".join(described) or str(_("non fixé"))

    def changed_here(self) -> bool:
        return not self.act


def _parts(*parts: Part) -> Parts:
    return lambda establishment: parts


def _one(kind: str, label: str | Promise = "", **options: Any) -> Parts:
    return _parts(Part("", label, kind, **options))


def _per_game(kind: str, equipment: str = "", **options: Any) -> Parts:
    """A part per game played in the jurisdiction (with ``equipment``: per game that uses it)."""
    return lambda establishment: tuple(
        Part(game.code, game.label, kind, **options)
        for game in games_for(establishment.jurisdiction)
        if not equipment or equipment in game.equipment
    )


def _per_table(kind: str) -> Parts:
    return lambda establishment: tuple(
        Part(table.number, _("Table %(number)s") % {"number": table.number}, kind)
        for table in establishment.tables.order_by("number")
    )


def _signing_roles(establishment: Establishment) -> tuple[Part, ...]:
    from .authenticators import FACTORS, SIGNING_ROLES
    from .roles import Role

    return tuple(Part(str(role), Role(role).label, CHOICE, choices=FACTORS) for role in SIGNING_ROLES)


def _closing_times(establishment: Establishment) -> tuple[Part, ...]:
    return tuple(Part(code, label, CLOSING) for code, label in SeancePeriod.choices)


# Declared in the catalogue's order.
_SETTINGS = (
    Setting(
        "SET-02",
        _("Nombre de jeux de cartes par jeu, fixé par la Direction"),
        _per_game(WHOLE, Equipment.CARDS, minimum=1),
        jurisdictions=("MC",),
    ),
    Setting(
        "SET-04",
        _("Portée des jeux de cartes prêts à l'emploi"),
        _one(
            CHOICE,
            choices=(
                ("restrictive", _("Restrictive : punto banco des salons super privés seulement")),
                ("general", _("Générale : tout jeu, préparation au Dépôt Central des Cartes sous vidéo")),
            ),
        ),
        jurisdictions=("MC",),
        keyed=False,
    ),
    Setting(
        "SET-05",
        _("Destructions et sorties du dépôt : préavis, délais et périodicité"),
        lambda establishment: (
            *(
                (
                    Part(
                        "scj_notice_minutes",
                        _("Préavis minimal au Service de Contrôle des Jeux (minutes)"),
                        WHOLE,
                        minimum=SCJ_NOTICE_FLOOR_MINUTES,
                    ),
                )
                if establishment.jurisdiction == "MC"
                else ()
            ),
            Part("issue_lead_minutes", _("Délai de sortie avant l'ouverture de la partie (minutes)"), WHOLE),
            Part("destruction_period_days", _("Périodicité des destructions (jours)"), WHOLE, minimum=1),
        ),
    ),
    Setting(
        "SET-06",
        _("Somme mise en banque par table"),
        _per_table(AMOUNT),
        jurisdictions=("MC",),
        act=_("Fixation de la somme mise en banque d'une table (caisse)"),
    ),
    Setting("SET-08", _("Mises minimales autorisées par jeu (euros)"), _per_game(AMOUNT)),
    Setting(
        "SET-10",
        _("Nombre maximal de tables par chef de table, par jeu"),
        _per_game(WHOLE, minimum=1),
        jurisdictions=("MC",),
    ),
    Setting(
        "SET-12",
        _("Dotations complémentaires de dés en cours de séance"),
        _parts(
            Part(
                "supplementary",
                _("Dotation complémentaire"),
                CHOICE,
                choices=(("flag", _("admise et signalée")), ("refuse", _("refusée"))),
            )
        ),
        jurisdictions=("MC",),
    ),
    Setting(
        "SET-13",
        _("Dés de la séance précédente : portée"),
        _one(
            CHOICE,
            choices=(
                ("any_table", _("Séance précédente de toute table")),
                ("same_table", _("Séance précédente de la même table")),
            ),
        ),
        keyed=False,
    ),
    Setting(
        "SET-14",
        _("Nombre maximal de paires de dés détenues"),
        _parts(
            Part("max_pairs", _("Paires au plus"), WHOLE, minimum=1),
            Part("reference", _("Décision ministérielle"), TEXT),
        ),
        jurisdictions=("FR",),
        act=_("Enregistrement de la décision du ministre (dés)"),
    ),
    Setting(
        "SET-17",
        _("Cagnotte de poker : ordre du plafond et de l'arrondi"),
        _one(
            CHOICE,
            choices=(
                ("cap_last", _("Arrondi à 0,50 € puis plafond")),
                ("round_last", _("Plafond puis arrondi à 0,50 €")),
            ),
        ),
        jurisdictions=("FR",),
        keyed=False,
    ),
    Setting(
        "SET-19",
        _("Seuil de la contribution sociale (paiements manuels des machines à sous)"),
        _one(AMOUNT),
        jurisdictions=("FR",),
        keyed=False,
    ),
    Setting(
        "SET-20",
        _("Rotation des sabots : séances sans réattribution à la même table"),
        _one(WHOLE),
        keyed=False,
    ),
    Setting(
        "SET-23",
        _("Trente et quarante : mise minimale assurable contre le refait"),
        _one(AMOUNT),
        jurisdictions=("MC",),
        keyed=False,
        act=_("Fixation du seuil de l'assurance contre le refait (caisse)"),
    ),
    Setting("SET-25", _("Heures de fermeture des séances"), _closing_times, under="closing"),
    Setting(
        "SET-SIGNATURE",
        _(
            "Second facteur exigé pour signer, par rôle (non fixé : un code ou une clé d'accès des rôles "
            "signataires, hors mode développement)"
        ),
        _signing_roles,
    ),
    Setting(
        "SET-42",
        _("Délais dans lesquels le ministre de l'intérieur est informé avant l'acte"),
        _parts(
            Part(
                "bbj_final_stop_hours",
                _("Dans les heures qui précèdent l'arrêt définitif d'un bad beat jackpot"),
                WHOLE,
                minimum=1,
            ),
            Part(
                "progressive_notice_days",
                _("Dans les jours qui précèdent l'arrêt ou le transfert d'un progressif"),
                WHOLE,
                minimum=1,
            ),
        ),
        jurisdictions=("FR",),
    ),
    Setting(
        "SET-44",
        _("Comptée en salle de comptage : validation de la police"),
        _parts(
            Part("reference", _("Référence de la validation"), TEXT),
            Part("service", _("Service qui l'a donnée"), TEXT),
            Part("validated_on", _("Validée le"), DATE),
        ),
        jurisdictions=("FR",),
        act=_("Enregistrement de la validation de la police (caisse)"),
    ),
)
SETTINGS: dict[str, Setting] = {setting.code: setting for setting in _SETTINGS}


def settings_of(establishment: Establishment) -> list[Setting]:
    """The settings its jurisdiction reads, in the catalogue's order."""
    return [setting for setting in _SETTINGS if establishment.jurisdiction in setting.jurisdictions]


def changeable(establishment: Establishment, code: str) -> Setting:
    """The setting ``code`` as ``establishment_setting_change`` may change it here; else bad input."""
    setting = SETTINGS.get(code)
    if setting is None or establishment.jurisdiction not in setting.jurisdictions:
        raise ValidationError({"code": _("Réglage inconnu dans cet établissement : %(code)s.") % {"code": code}})
    if not setting.changed_here():
        raise ValidationError({"code": _("Ce réglage se fixe par son propre acte : %(act)s.") % {"act": setting.act}})
    return setting
