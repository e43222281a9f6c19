"""The demo's pages as people read them: every GET page each demo role reaches from its home, in
French and for the authorities in English, shows no Python repr, code, slug, login, ISO date or
amount written the programmer's way; and the authorities' home stays at one cost as history grows."""

import gettext
import io
import re
from collections import defaultdict
from collections.abc import Callable
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Min
from django.test import Client
from django.urls import Resolver404, resolve, reverse
from pypdf import PdfReader

from ledgers.core.demo import DEMO_FR, DEMO_MC, demo_logins, demo_username
from ledgers.core.models import Location, Room
from ledgers.dice.registers import DICE_SERVICE, RAMPO_REGISTER
from ledgers.keys.models import Key
from ledgers.keys.registers import REGISTRE_CLES
from ledgers.registers.models import Register
from ledgers.registers.printing import render_register
from ledgers.registers.services import entry_append, register_create
from tests.core.test_translations import english_catalogues
from tests.demo import seed_demo

AUTHORITIES = ((DEMO_MC, "scj"), (DEMO_MC, "commissaire"), (DEMO_FR, "police"), (DEMO_FR, "chef_police"))
# Not pages: files, the API, the admin, signing out.
NOT_PAGES = re.compile(r"^/(admin|api|i18n|static|media|deconnexion)/|\.(csv|xlsx|pdf|json|zip)$|/export|/imprimer")
# Text inside these elements is not read as prose: a form's own values, scripts, and identifiers
# shown as identifiers (``mono``: numbers, hashes, the login sealed in an entry). On an English
# page, text marked French (``lang="fr"``: what the entries of a register say, written in French
# whatever the reader's language) is left to the French reading.
SKIPPED = {"script", "style", "textarea", "select", "option", "code"}
USERNAME = re.compile(r"\b[a-z_]+\.(?:" + "|".join(re.escape(code) for code in (DEMO_MC, DEMO_FR)) + r")\b")
PATTERNS = {
    "Python list": re.compile(r"\['|\[\]|\[[\w-]+(?:, ?[\w-]+)*\]"),
    "Python dict": re.compile(r"\{'"),
    "None": re.compile(r"(?:^|\s)None\b"),
    "boolean": re.compile(r"^\s*(?:True|False)\s*$"),
    "ISO date": re.compile(r"\b\d{4}-\d{2}-\d{2}\b"),
    "slug in a title": re.compile(r"— (?:[a-z0-9]+(?:[-_][a-z0-9]+)+|cards|dice|shoes|des)\b(?![ ’'\w])"),
    "code": re.compile(r"\b(?:in|out|[a-z]+_[a-z_]+):[a-z]+\b"),
    "login": USERNAME,
}
FRENCH_ONLY = {"amount with a point": re.compile(r"\d+\.\d{2}\s?€")}
# The chrome of a page: its menus, headings, labels, buttons, column heads and term names; what an
# English reader must not find French in (the entries of the registers are French by law, and
# marked so, the names the operator gave are its own: neither is chrome).
CHROME = {"nav", "h1", "h2", "h3", "h4", "h5", "h6", "label", "button", "th", "summary", "legend", "caption", "dt"}
FRENCH_CHROME = re.compile(
    r"\b(?:Séances?|séances?|[Cc]hefs? de table|[Rr]egistres?|Enregistrer|Inscrire|Valider|Annuler|Filtrer|"
    r"Effacer|Exporter|Imprimer|Télécharger|Retour|Ouvrir|Fermer|Clés|Caisses?|Oui|Non|jeux|Mes|"
    r"Rechercher|Afficher|Entrées|Statut|Montant|Inscrit|Remise|Rentrée|Journée|Salle|Graphiques|Rapports?|"
    r"Inspecteur|Cartier|Cash box)\b"
)


class Reader(HTMLParser):
    """The text a reader sees, and the links to follow."""

    def __init__(self, language: str = "fr") -> None:
        super().__init__()
        self.language = language
        self.texts: list[str] = []
        self.chrome: list[str] = []  # the texts read inside the page's chrome
        self.links: list[str] = []
        self._open: list[bool] = []  # per open element: is its text skipped
        self._chrome: list[bool] = []  # per open element: is it (in) chrome

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag in {"br", "img", "input", "meta", "link", "hr", "wbr", "source"}:
            return
        self._chrome.append(tag in CHROME or (bool(self._chrome) and self._chrome[-1]))
        skipped = (
            tag in SKIPPED
            or "mono" in (attrs.get("class") or "").split()
            or attrs.get("lang", self.language) != self.language
        )
        self._open.append(skipped or (bool(self._open) and self._open[-1]))

    def handle_endtag(self, tag):
        if self._open:
            self._open.pop()
            self._chrome.pop()

    def handle_data(self, data):
        if data.strip() and not (self._open and self._open[-1]):
            self.texts.append(data.strip())
            if self._chrome and self._chrome[-1]:
                self.chrome.append(data.strip())


def problems(url: str, texts: list[str], language: str) -> list[tuple[str, str, str]]:
    patterns = {**PATTERNS, **FRENCH_ONLY} if language == "fr" else PATTERNS
    return [(name, url, text[:160]) for text in texts for name, pattern in patterns.items() if pattern.search(text)]


def crawl(client: Client, seen_views: set[str], read: Callable[[str, str], list[str]]) -> None:
    """Every page reachable from the home by links, one per view not seen yet (a view's pages are
    alike), and the home itself: ``read(url, html)`` takes each page and returns its links."""
    queue, visited = ["/"], set()
    while queue:
        url = queue.pop(0)
        if url in visited:
            continue
        visited.add(url)
        try:
            view = resolve(urlsplit(url).path).view_name
        except Resolver404:
            continue
        if url != "/" and view in seen_views:
            continue
        seen_views.add(view)
        response = client.get(url)
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        for href in read(url, response.content.decode()):
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or not parts.path.startswith("/") or NOT_PAGES.search(parts.path):
                continue
            queue.append(parts.path + (f"?{parts.query}" if parts.query else ""))


def read_pages(
    client: Client, seen_views: set[str], language: str = "fr", *, chrome: bool = False
) -> tuple[list[tuple[str, str, str]], list[tuple[str, list[str]]]]:
    """The crawl read as people read: (problems found, (url, texts) of each page); ``chrome``: the
    texts of each page's chrome only."""
    found, pages = [], []

    def read(url: str, html: str) -> list[str]:
        reader = Reader(language)
        reader.feed(html)
        found.extend(problems(url, reader.texts, language))
        pages.append((url, reader.chrome if chrome else reader.texts))
        return reader.links

    crawl(client, seen_views, read)
    return found, pages


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, demo_dir):
    """The full demo, seeded once for the module and rolled back after it."""
    with django_db_blocker.unblock(), transaction.atomic():
        seed_demo(demo_dir)
        yield
        transaction.set_rollback(True)


def as_user(username: str, language: str = "fr") -> Client:
    client = Client(headers={"accept-language": language})
    client.cookies["django_language"] = language
    client.force_login(get_user_model().objects.get(username=username))
    return client


def test_every_page_of_every_role_reads_as_people_write(demo, db):
    seen_views: set[str] = set()
    found = []
    for username, _role, _establishment in demo_logins():
        found += read_pages(as_user(username), seen_views)[0]
    assert len(seen_views) > 100  # the crawl reached the pages, not only the homes
    by_pattern = defaultdict(list)
    for name, url, text in found:
        by_pattern[name].append(f"{url}: {text}")
    assert dict(by_pattern) == {}


def french_only() -> set[str]:
    """The French strings the catalogues translate into something else."""
    strings = set()
    for mo in english_catalogues():
        with mo.open("rb") as handle:
            strings |= {
                msgid
                for msgid, msgstr in gettext.GNUTranslations(handle)._catalog.items()
                if isinstance(msgid, str) and len(msgid) > 3 and msgstr != msgid and "%" not in msgid
            }
    return strings


def test_the_authorities_read_their_pages_in_english_and_the_same_way(demo, db):
    french = french_only()
    # Names the operator gave its rooms and places are data, in the language they were given in.
    named = set(Location.objects.values_list("name", flat=True)) | set(Room.objects.values_list("name", flat=True))
    seen_views: set[str] = set()
    untranslated, found = set(), []
    for code, role in AUTHORITIES:
        problems_found, pages = read_pages(as_user(demo_username(code, role), "en"), seen_views, "en")
        found += problems_found
        untranslated |= {(url, text) for url, texts in pages for text in texts if text in french and text not in named}
    assert found == []
    assert sorted(untranslated) == []


def test_every_page_of_every_role_in_english_has_no_french_chrome(demo, db):
    """Each page the demo's people reach, read once in English: no French word of the menus,
    headings, labels, buttons or column heads (the operator's names for its rooms and places aside)."""
    named = set(Location.objects.values_list("name", flat=True)) | set(Room.objects.values_list("name", flat=True))
    unnamed = re.compile("|".join(re.escape(name) for name in sorted(named, key=len, reverse=True)))
    seen_views: set[str] = set()
    french = set()
    for username, _role, _establishment in demo_logins():
        for url, texts in read_pages(as_user(username, "en"), seen_views, "en", chrome=True)[1]:
            french |= {(url, text[:120]) for text in texts if FRENCH_CHROME.search(unnamed.sub("", text))}
    assert len(seen_views) > 100
    assert not french, "\n".join(f"{url}: {text}" for url, text in sorted(french))


def home_queries(client: Client, assert_max, bound: int) -> int:
    with assert_max(bound) as captured:
        response = client.get(reverse("dashboard"))
    assert response.status_code == 200
    return len(captured)


def test_the_authorities_home_costs_the_same_as_history_grows(demo, db, django_assert_max_num_queries):
    clients = [as_user(demo_username(code, role)) for code, role in AUTHORITIES]
    for client in clients:  # caches warm (content types, session)
        client.get(reverse("dashboard"))
    before = [home_queries(client, django_assert_max_num_queries, 60) for client in clients]

    # A month more of history: more entries awaiting a visa in every open register the demo
    # writes to, and new volumes awaiting their cote et paraphe.
    users = get_user_model().objects
    for code in (DEMO_MC, DEMO_FR):
        director = users.get(
            username=demo_username(code, "directeur_jeux" if code == DEMO_MC else "directeur_responsable")
        )
        role = director.memberships.get().role
        main = Register.objects.get(establishment__code=code, kind="main_courante", status=Register.Status.OPEN)
        for n in range(60):
            entry_append(register=main, actor=director, role=role, payload={"subject": f"Ronde {n}"})
        for qualifier in ("a", "b", "c"):
            register_create(establishment=main.establishment, kind="main_courante", actor=director, qualifier=qualifier)
    after = [
        home_queries(client, django_assert_max_num_queries, bound)
        for client, bound in zip(clients, before, strict=True)
    ]
    assert after == before
    assert "depuis" in clients[0].get(reverse("dashboard")).content.decode()


# What a printed register must not show: codes of meters, boxes, kinds and roles ("in:em",
# "cash_box", "main_courante"), Python values, and (in French) amounts the programmer's way.
PRINTED = {
    "code": re.compile(r"\b[a-z]+(?:_[a-z]+)*:em\b|\b[a-z]+_[a-z]+(?:_[a-z]+)*\b"),
    "Python value": re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|\['|\{'"),
}


def printed_text(register: Register, lang: str) -> str:
    out = io.BytesIO()
    render_register(register, out, lang=lang)
    return " ".join(page.extract_text() for page in PdfReader(out).pages)


def test_printed_registers_of_every_kind_read_as_people_write(demo, db):
    """The smallest volume in use of each kind the demo keeps, in French and in English."""
    smallest = (
        Register.objects.exclude(status=Register.Status.AWAITING_OPENING).values("kind").annotate(head=Min("head_seq"))
    )
    samples = [
        Register.objects.filter(kind=row["kind"], head_seq=row["head"]).order_by("number").first() for row in smallest
    ]
    assert len(samples) > 40
    # The wheel's segments, written into the equipment register as Python text: pending with the
    # equipment services (the entries already written keep it).
    pending = {("materiel_jeu", "Python value")}
    found = []
    for register in samples:
        for lang in ("fr", "en"):
            text = printed_text(register, lang)
            found += [
                (register.number, lang, name, match.group())
                for name, pattern in PRINTED.items()
                if (register.kind, name) not in pending
                for match in pattern.finditer(text)
            ]
    assert found == []


def test_the_keys_and_dice_registers_print_what_their_pages_show(demo, db):
    """Every keys and dice register of the demo printed: places by their names, people by theirs,
    dates and amounts as the reader writes them; an entry the key services wrote with the place's
    code in brackets (stored as it was, hashed) reads with the place's name, on its page and printed."""
    cabinet = Key.objects.get(code="MC-DEP-01")
    place = Location.objects.get(establishment=cabinet.establishment, code="depot-principal")
    register = Register.objects.get(
        establishment=cabinet.establishment, kind=REGISTRE_CLES.code, status=Register.Status.OPEN
    )
    admin = get_user_model().objects.get(username=demo_username(DEMO_MC, "directeur_jeux"))
    stored = f"{cabinet.code} — Armoire à cartes — {cabinet.opens} [depot-principal]"
    written = entry_append(
        register=register,
        actor=admin,
        role="directeur_jeux",
        payload={"event": "Remise de la clé", "at": "2026-10-27 21:15", "key": stored, "signatures": []},
    )
    readable = f"{cabinet.code} — Armoire à cartes — {cabinet.opens} ({place.name})"
    page = as_user(admin.username).get(reverse("registers:entry", args=[register.number, written.seq]))
    assert readable in page.content.decode()
    written.refresh_from_db()
    assert written.payload["key"] == stored

    kinds = (REGISTRE_CLES.code, DICE_SERVICE.code, RAMPO_REGISTER.code)
    registers = Register.objects.filter(kind__in=kinds).exclude(status=Register.Status.AWAITING_OPENING)
    assert {r.kind for r in registers} == set(kinds)
    found = []
    for printed in registers:
        for lang in ("fr", "en"):
            text = " ".join(printed_text(printed, lang).split())
            found += [(lang, *problem) for problem in problems(printed.number, [text], lang)]
            if printed == register:
                assert readable in text
    assert found == []
