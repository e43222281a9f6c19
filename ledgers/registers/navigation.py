"""The menu of each role, derived from who the register kinds let record, visa or paraph.

An area is one app's pages. A role that records in one of the app's register kinds works there;
a role that only visas or paraphs them (the authorities) reads there. Nothing here restates a
rule: the kinds declared in ``<app>/registers.py`` and the services' role tuples are the source.
Hiding an area only trims the menu; the pages stay at their URLs and refuse what a role may not do.
"""

from dataclasses import dataclass
from functools import cache
from importlib import import_module

from django.apps import apps
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ledgers.core.roles import REGULATOR_ROLES
from ledgers.core.services import SEANCE_MANAGERS, TABLE_MANAGERS

from .kinds import RegisterKind


@dataclass(frozen=True)
class Area:
    url_name: str
    label: str | Promise
    apps: tuple[str, ...] = ()  # whose register kinds say who works and who reads here
    acting: tuple[str, ...] = ()  # roles the services of the area let act besides the kinds' ones
    reading: tuple[str, ...] = ()
    everyone: bool = False


AREAS = (
    Area("dashboard", _("Accueil"), everyone=True),
    Area("seances", _("Séances"), apps=("tables",), acting=TABLE_MANAGERS + SEANCE_MANAGERS),
    Area("cards:day", _("Cartes"), apps=("cards", "custody")),
    Area("dice:day", _("Dés"), apps=("dice",)),
    Area("equipment:overview", _("Matériel"), apps=("equipment",)),
    Area("slots:machines", _("Machines à sous"), apps=("slots",)),
    Area("keys:list", _("Clés"), apps=("keys",)),
    Area("cash:day", _("Caisses des jeux"), apps=("cash",)),
    Area("incidents:list", _("Incidents"), apps=("incidents",)),
    Area("registers:list", _("Registres"), everyone=True),
    Area("reports:list", _("Rapports"), everyone=True),
    Area("authority:index", _("Autorités"), apps=("authority",), reading=tuple(REGULATOR_ROLES)),
    Area("establishment", _("Établissement"), everyone=True),
    Area("takeover:list", _("Reprise de l'existant"), apps=("takeover",)),
)


@dataclass(frozen=True)
class MenuItem:
    url: str
    label: str | Promise
    read_only: bool


def kinds_of(app_label: str, jurisdiction: str) -> list:
    """The register kinds an app declares in its ``registers`` module, for this jurisdiction."""
    module = import_module(f"{apps.get_app_config(app_label).name}.registers")
    return [k for k in vars(module).values() if isinstance(k, RegisterKind) and jurisdiction in k.jurisdictions]


@cache
def area_roles(area: Area, jurisdiction: str) -> tuple[frozenset[str], frozenset[str]]:
    """(roles that act in the area, roles that only read it) in this jurisdiction."""
    acting, reading = set(area.acting), set(area.reading)
    for app_label in area.apps:
        for kind in kinds_of(app_label, jurisdiction):
            acting.update(kind.record_roles)
            reading.update(kind.visa_roles_for(jurisdiction))
            reading.update(kind.paraph_roles_for(jurisdiction))
    acting = {str(r) for r in acting}
    return frozenset(acting), frozenset(str(r) for r in reading) - acting


def acts_in(roles: set[str], url_name: str, jurisdiction: str) -> bool:
    """Whether these roles act in the area whose first page is ``url_name`` (what waits there is
    theirs to do)."""
    area = next(area for area in AREAS if area.url_name == url_name)
    return area.everyone or bool(roles & area_roles(area, jurisdiction)[0])


def menu_for(roles: set[str], jurisdiction: str) -> list[MenuItem]:
    """The areas these roles act in or read, in menu order."""
    items = []
    for area in AREAS:
        if area.everyone:
            items.append(MenuItem(reverse(area.url_name), area.label, read_only=False))
            continue
        acting, reading = area_roles(area, jurisdiction)
        if roles & acting:
            items.append(MenuItem(reverse(area.url_name), area.label, read_only=False))
        elif roles & reading:
            items.append(MenuItem(reverse(area.url_name), area.label, read_only=True))
    return items
