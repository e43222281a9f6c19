"""The steps a house's day zero plays in a real browser, in either jurisdiction, with pages alone:
the administrator creates the house, the director invites the outside officials (who choose their
own password from the mailed link), the registers to open are created and coted and paraphed by
their authorities from their homes, the existing stock is taken over, the first séance opens and
closes, and ``verify_ledgers`` passes.

Each step is timed: ``Walk.step`` prints its duration as it ends and ``Walk.report`` the whole
list. ``E2E_SCREENSHOTS=<dir>`` saves every page a step shows, named after the jurisdiction, the
step's number and the page, with the timings in ``<dir>/<prefix>-timings.txt``. The walk is done at
1366 px, or on the screen ``E2E_SIZE`` names (``phone``: 390 px, every page still checked)."""

import io
import os
import re
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from django.core import mail
from django.core.management import call_command
from django.urls import reverse

from tests.factories import DEFAULT_PASSWORD

from .browser import VIEWPORTS, check, screenshot

_width, _height = VIEWPORTS[os.environ.get("E2E_SIZE", "desktop")]
SCREEN = {"width": _width, "height": _height}


@dataclass
class Walk:
    browser: object
    url: str
    prefix: str  # "fr", "mc": the screenshots' and the timings' prefix
    visited: list[str] = field(default_factory=list)
    timings: list[tuple[str, float]] = field(default_factory=list)

    @contextmanager
    def step(self, title: str):
        started = time.monotonic()
        yield
        seconds = time.monotonic() - started
        self.timings.append((title, seconds))
        print(f"[{self.prefix}] {len(self.timings):02d} {title}: {seconds:.1f} s", flush=True)

    def shot(self, page, name: str) -> None:
        screenshot(page, f"{self.prefix}-{len(self.timings) + 1:02d}-{name}")

    def page(self, username: str, password: str = DEFAULT_PASSWORD):
        """A new browser on the walk's screen, signed in as ``username``."""
        context = self.browser.new_context(viewport=SCREEN, locale="fr-FR")
        context.set_default_timeout(120_000)  # a loaded machine serves slowly; the steps' durations say how much
        page = context.new_page()
        page.goto(self.url + reverse("login"))
        page.fill("#id_username", username)
        page.fill("#id_password", password)
        page.click("main button[type=submit]")
        page.wait_for_load_state()
        return page

    def visit(self, page, name: str, *args, shot: str = "") -> None:
        """Go to the page named ``name``; it fits the screen and passes axe."""
        page.goto(self.url + reverse(name, args=args))
        check(page, self.visited)
        if shot:
            self.shot(page, shot)

    def report(self) -> str:
        total = sum(seconds for _title, seconds in self.timings)
        lines = [f"{n:02d}  {seconds:7.1f} s  {title}" for n, (title, seconds) in enumerate(self.timings, start=1)]
        lines.append(f"    {total:7.1f} s  total ({total / 60:.1f} min)")
        text = "\n".join(lines)
        print(f"\n[{self.prefix}] day zero, step by step:\n{text}", flush=True)
        shots = os.environ.get("E2E_SCREENSHOTS")
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            Path(shots, f"{self.prefix}-timings.txt").write_text(text + "\n", encoding="utf-8")
        return text


def submit(form) -> None:
    form.locator("button[type=submit]").last.click()
    form.page.wait_for_load_state()


def create_house(walk: Walk, *, code: str, name: str, jurisdiction: str, director: str) -> None:
    """The administrator, led to the creation page at their first sign-in, creates the house and
    names its first director."""
    page = walk.page("admin")
    page.wait_for_url("**/etablissement/creation/")
    check(page, walk.visited)
    page.fill("#id_code", code)
    page.fill("#id_name", name)
    page.select_option("#id_jurisdiction", jurisdiction)
    page.fill("#id_director", director)
    walk.shot(page, "creation")
    submit(page.locator("main form"))
    page.wait_for_selector(f"text=Établissement {name} créé")
    walk.shot(page, "cree")
    page.context.close()


def invite(walk: Walk, page, *, username: str, first_name: str, last_name: str, email: str, role: str) -> str:
    """On the staff page, the director creates an account with its name and role and invites its
    holder; the link mailed to them."""
    walk.visit(page, "staff")
    create = page.locator(f"main form[action='{reverse('staff')}']")
    create.locator("[name=username]").fill(username)
    create.locator("[name=first_name]").fill(first_name)
    create.locator("[name=last_name]").fill(last_name)
    create.locator("[name=email]").fill(email)
    create.locator("[name=roles]").select_option(role)
    submit(create)
    page.wait_for_selector(f"text={last_name}")
    invitation = page.locator(f"main form[action='{reverse('staff-invite')}']")
    invitation.locator("[name=person]").select_option(label=f"{first_name} {last_name} ({username})", force=True)
    submit(invitation)
    walk.shot(page, f"personnel-{username}")
    (message,) = [message for message in mail.outbox if email in message.to]
    return re.search(r"https?://\S+/invitation/\S+", message.body).group(0)


def choose_password(walk: Walk, link: str, password: str) -> None:
    """The invited official opens their link and chooses their password (nobody else sees it)."""
    context = walk.browser.new_context(viewport=SCREEN, locale="fr-FR")
    context.set_default_timeout(120_000)
    page = context.new_page()
    page.goto(walk.url + urlsplit(link).path)
    check(page, walk.visited)
    page.fill("#id_new_password1", password)
    page.fill("#id_new_password2", password)
    walk.shot(page, "invitation")
    submit(page.locator("main form"))
    context.close()


def create_registers_to_open(walk: Walk, page) -> None:
    """The list of the registers the house must open, and its one act creating the missing ones."""
    walk.visit(page, "registers:to_open", shot="registres-a-ouvrir")
    page.locator(f"main a[href='{reverse('registers:to_open_create')}']").first.click()
    page.wait_for_load_state()
    check(page, walk.visited)
    walk.shot(page, "registres-a-creer")
    submit(page.locator("main form"))
    page.wait_for_selector("text=ils attendent leur cote et leur paraphe")
    walk.shot(page, "registres-crees")


def cote_et_paraphe(walk: Walk, page, *, paraphe: str, password: str = DEFAULT_PASSWORD) -> int:
    """From their home, the authority cotes and paraphs every volume that awaits them; how many."""
    done = 0
    while True:
        page.goto(walk.url + "/")
        links = page.locator("main a[href$='/cote-et-paraphe/']")
        if not links.count():
            return done
        if not done:
            check(page, walk.visited)
            walk.shot(page, "accueil-a-coter")
        page.goto(walk.url + links.first.get_attribute("href"))  # the link, though its line be folded
        page.fill("#id_paraphe", paraphe)
        page.fill("#id_password", password)
        if not done:
            check(page, walk.visited)
            walk.shot(page, "cote-et-paraphe")
        submit(page.locator("main form"))
        page.wait_for_selector("text=Registre coté et paraphé.")
        done += 1


def take_over(walk: Walk, page, *, domain: str, paper_register: str, lines: str, name: str) -> str:
    """From the take-over page, a new inventory of ``domain`` typed, previewed, established and
    signed by the director; the inventory's address."""
    walk.visit(page, "takeover:list", shot=f"reprise-{name}")
    page.locator(f"main a[href$='{reverse('takeover:create')}?domain={domain}']").click()
    page.wait_for_load_state()
    page.fill("#id_paper_register", paper_register)
    page.fill("#id_lines", lines)
    page.click("main button[name=preview]")
    page.wait_for_selector("text=Toutes les lignes sont acceptées par les règles du domaine.")
    check(page, walk.visited)
    walk.shot(page, f"reprise-{name}-apercu")
    page.click("main form button[type=submit]:not([name=preview])")
    page.wait_for_selector("text=Inventaire établi")
    inventory = page.url
    page.locator(f"main a[href$='{urlsplit(inventory).path}signature/']").click()
    page.wait_for_load_state()
    page.check("#id_confirm")
    page.fill("#id_password", DEFAULT_PASSWORD)
    check(page, walk.visited)
    walk.shot(page, f"reprise-{name}-signature")
    submit(page.locator("main form"))
    page.wait_for_selector("text=Inventaire signé.")
    return inventory


def post_inventory(walk: Walk, page, inventory: str, *, name: str) -> None:
    """The director posts a signed (and, where the texts ask it, visaed) inventory."""
    page.goto(inventory)
    check(page, walk.visited)
    page.locator(f"main a[href$='{urlsplit(inventory).path}report/']").click()
    page.wait_for_load_state()
    page.check("#id_confirm")
    submit(page.locator("main form"))
    page.wait_for_selector("text=Inventaire reporté")
    walk.shot(page, f"reprise-{name}-reportee")


def open_and_close_seance(walk: Walk, page, today: str, *, before_closing=None) -> None:
    """The director opens the first séance and closes it; ``before_closing(page)`` plays what
    happens in between, from the séance's page."""
    walk.visit(page, "seances")
    page.fill("#id_date", today)
    submit(page.locator("main form:has([name=period])"))
    page.wait_for_url(re.compile(r"/seances/\d+/$"))
    check(page, walk.visited)
    walk.shot(page, "seance-ouverte")
    seance = page.url
    if before_closing is not None:
        before_closing(page)
        page.goto(seance)
    page.locator("main form[action$='/cloture/'] button").click()
    page.wait_for_load_state()
    if page.locator("main form button[type=submit]").count():  # the closing page asks once
        submit(page.locator("main form"))
    page.wait_for_selector("text=Séance clôturée.")
    walk.shot(page, "seance-close")


def verify_ledgers() -> str:
    out = io.StringIO()
    call_command("verify_ledgers", stdout=out)
    assert "ÉCHEC" not in out.getvalue(), out.getvalue()
    return out.getvalue()


def play_table_partie(walk: Walk, page, table: str) -> None:
    """On the séance's page, the director prepares ``table``, opens it (confirming by name what
    nothing records yet: its staff, its limits) and writes its fin de partie."""
    prepare = page.locator("main form[action$='/tables/']")
    choice = prepare.locator("select[name=table]")
    choice.select_option(choice.locator("option", has_text=table).get_attribute("value"), force=True)
    submit(prepare)
    page.wait_for_url(re.compile(r"/seances/tables/\d+/"))
    check(page, walk.visited)
    opening = page.locator("main form#ouvrir")
    if opening.locator("[name=confirm_missing]").count():
        opening.locator("[name=confirm_missing]").check()
    walk.shot(page, "table-a-ouvrir")
    opening.locator("button[type=submit]").click()
    confirm(walk, page, "table-ouverture")
    page.wait_for_selector(f"text=Table {table} ouverte.")
    page.locator("main form[action$='/fin-de-partie/'] button").first.click()
    confirm(walk, page, "table-fin-de-partie")
    page.wait_for_selector(f"text=Fin de partie de la table {table} inscrite.")
    walk.shot(page, "table-fermee")


def confirm(walk: Walk, page, name: str) -> None:
    """The dialog that asks before an irreversible act, read and accepted."""
    dialog = page.locator("#confirm-act")
    dialog.wait_for(state="visible")
    walk.shot(page, name)
    dialog.locator("button.confirm-ok").click()
    page.wait_for_load_state()
