"""In a real browser, as the demo users of both casinos: each role signs in, finds its work on its
home and does its main act of the day from there, on a desktop (1366×900) and a phone (390×844).
Every page visited fits the screen's width (no horizontal scroll) and has no serious or critical
accessibility violation (axe-core).

``E2E_SCREENSHOTS=<dir>`` saves each role's home at both widths."""

import os
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from ledgers.core.demo import DEMO_FR, DEMO_MC, DEMO_PASSWORD, demo_username

CHROMIUM = "/usr/bin/chromium"
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
SIZES = {"desktop": (1366, 900), "phone": (390, 844)}

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.postgresql,
    pytest.mark.skipif(
        not shutil.which(CHROMIUM) and not os.environ.get("CI"),
        reason=f"no Chromium at {CHROMIUM} (apt-get install chromium); CI always runs this test",
    ),
]


@pytest.fixture
def browser(monkeypatch):
    # Playwright's sync API runs an event loop in this thread; the ORM calls of the test are not async.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        )
        yield browser
        browser.close()


def check(page, visited: list[str]) -> None:
    """The page fits the screen's width and axe finds nothing serious or critical on it."""
    visited.append(page.url)
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"horizontal scroll on {page.url}: {width[0]} px for {width[1]} px"
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".filter(v => ['serious', 'critical'].includes(v.impact))"
        ".map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))"
    )
    assert not found, f"accessibility violations on {page.url}: {found}"


def home(browser, demo_url: str, code: str, role: str, size: str):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR")
    context.set_default_timeout(120_000)  # a loaded machine serves slowly; nothing here is timed
    page = context.new_page()
    page.goto(demo_url + "/connexion/")
    page.fill("#id_username", demo_username(code, role))
    page.fill("#id_password", DEMO_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(demo_url + "/")
    shots = os.environ.get("E2E_SCREENSHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{shots}/{role}.{code}-{size}.png", full_page=True)
    return page


def open_group(page, title: str):
    """Open the home's line for ``title`` (a <details>) if it is closed."""
    group = page.locator("details.queue-group", has=page.locator(f"summary:has-text('{title}')"))
    if group.get_attribute("open") is None:
        group.locator("summary").click()
    return group


def visa(page, visited, submit: bool) -> None:
    group = open_group(page, "Registres à viser ou à coter et parapher")
    group.locator("li", has_text="Main courante").first.locator("a", has_text="Viser").click()
    page.wait_for_url("**/visa/")
    check(page, visited)
    assert page.locator("table.covered tbody tr").count() >= 1
    if not submit:
        return
    page.fill("#id_statement", "Vu lors du contrôle.")
    page.fill("#id_password", DEMO_PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_selector("text=Visa enregistré.")
    assert "Vu lors du contrôle." in page.locator("tr.visa").last.inner_text()


def cote_et_paraphe(page, visited, submit: bool) -> None:
    open_group(page, "Registres à viser ou à coter et parapher")
    page.locator("details.queue-group a[href$='/cote-et-paraphe/']").first.click()
    check(page, visited)
    if not submit:
        return
    page.fill("#id_paraphe", "C.O.")
    page.click("main form button[type=submit]")
    page.wait_for_selector("text=Registre coté et paraphé.")


def main_courante_fact(page, visited, submit: bool) -> None:
    open_group(page, "Main courante")
    page.click("text=Inscrire un fait")
    check(page, visited)
    page.fill("#id_subject", "Observation")
    page.fill("#id_text", "Ronde en salle, aucune observation.")
    page.click("main form button[type=submit]")
    page.wait_for_selector("text=Fait inscrit à la main courante.")


def first_area(page, visited, submit: bool) -> None:
    """The role's first working area from the menu (the home's first link after Accueil)."""
    toggler = page.locator(".navbar-toggler")
    if toggler.is_visible():
        toggler.click()
    links = page.locator("nav.mainnav a.nav-link")
    assert links.count() >= 2, "the menu offers nothing but the home"
    links.nth(1).click()
    page.wait_for_load_state()
    check(page, visited)


# (casino, role, main act from the home)
ROLES = [
    (DEMO_MC, "scj", visa),
    (DEMO_MC, "commissaire", cote_et_paraphe),
    (DEMO_MC, "directeur_jeux", main_courante_fact),
    (DEMO_MC, "inspecteur", main_courante_fact),
    (DEMO_MC, "sous_directeur", main_courante_fact),
    (DEMO_MC, "chef_partie", main_courante_fact),
    (DEMO_MC, "cartier", first_area),
    (DEMO_MC, "croupier", first_area),
    (DEMO_MC, "chef_table", first_area),
    (DEMO_MC, "caissier", first_area),
    (DEMO_MC, "changeur", first_area),
    (DEMO_MC, "superviseur", first_area),
    (DEMO_MC, "mecanicien", first_area),
    (DEMO_MC, "comptabilite", first_area),
    (DEMO_FR, "police", visa),
    (DEMO_FR, "directeur_responsable", main_courante_fact),
    (DEMO_FR, "comite", main_courante_fact),
    (DEMO_FR, "cartier", first_area),
    (DEMO_FR, "croupier", first_area),
    (DEMO_FR, "chef_table", first_area),
    (DEMO_FR, "caissier", first_area),
    (DEMO_FR, "changeur", first_area),
    (DEMO_FR, "superviseur", first_area),
    (DEMO_FR, "mecanicien", first_area),
    (DEMO_FR, "comptabilite", first_area),
]


def test_each_role_does_its_main_act_from_its_home(live_server, browser):
    """One test over every role (the demo is seeded once: seeding per role would take an hour);
    the failures are reported per role."""
    call_command("seed_demo", stdout=StringIO())
    failures = []
    # The act is done on the phone; on the desktop the test stops at its form (a visa or a cote
    # et paraphe is done once).
    for code, role, act in ROLES:
        for size in SIZES:
            visited: list[str] = []
            page = home(browser, live_server.url, code, role, size)
            try:
                check(page, visited)
                act(page, visited, submit=size == "phone")
            except Exception as exc:  # reported with its role: every role is tried
                failures.append(f"{role}.{code} at {size} ({' → '.join(visited)}): {exc}")
            finally:
                page.context.close()
    assert not failures, "\n".join(failures)
