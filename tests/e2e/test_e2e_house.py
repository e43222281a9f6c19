"""In a real browser, from an empty database: the administrator signs in and is led to create a
French house with its directeur responsable; the director opens the set-up area, adds a room, a
depot and a gaming table, then imports places from a spreadsheet: a file with one bad row is
refused with that row's line and column and nothing is written, the corrected file is previewed,
confirmed and written. Every page visited fits the screen and passes axe-core.

``E2E_SCREENSHOTS=<dir>`` saves each step."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.urls import reverse

from ledgers.core.models import Establishment, GamingTable, Location, Room
from tests.factories import DEFAULT_PASSWORD, record_arrete

from .browser import MARKS, check, screenshot

pytestmark = MARKS

BAD = "code;nom;type;salle\ncoffre;Coffre d'exploitation;coffre;\ncaisse;Caisse centrale;guichet;europe\n"
GOOD = "code;nom;type;salle\ncoffre;Coffre d'exploitation;coffre;\ncaisse;Caisse centrale;caisse_centrale;europe\n"


def sign_in(browser, url: str, username: str):
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="fr-FR")
    context.set_default_timeout(120_000)
    page = context.new_page()
    page.goto(url + reverse("login"))
    page.fill("#id_username", username)
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("main button[type=submit]")
    return page


def submit(page) -> None:
    page.locator("main form button[type=submit]").last.click()
    page.wait_for_load_state()


def test_day_zero_of_a_french_house(live_server, browser, tmp_path):
    users = get_user_model().objects
    users.create_superuser(username="admin", password=DEFAULT_PASSWORD, email="")
    users.create_user(username="dupont", password=DEFAULT_PASSWORD, first_name="Jean", last_name="Dupont")
    visited: list[str] = []

    page = sign_in(browser, live_server.url, "admin")
    page.wait_for_url("**/etablissement/creation/")
    check(page, visited)
    page.fill("#id_code", "casino-nice")
    page.fill("#id_name", "Casino de Nice")
    page.select_option("#id_jurisdiction", "FR")
    page.fill("#id_director", "dupont")
    screenshot(page, "01-creation")
    submit(page)
    page.wait_for_selector("text=Établissement Casino de Nice créé")
    est = Establishment.objects.get(code="casino-nice")
    assert est.timezone == "Europe/Paris"
    page.context.close()

    page = sign_in(browser, live_server.url, "dupont")
    page.wait_for_url(live_server.url + "/")
    page.goto(live_server.url + reverse("setup"))
    check(page, visited)
    assert "Aucune salle." in page.content()
    screenshot(page, "02-mise-en-place-vide")

    page.locator("main a[href$='/mise-en-place/salles/']").first.click()
    page.wait_for_url("**/mise-en-place/salles/")
    page.fill("#id_code", "europe")
    page.fill("#id_name", "Salle Europe")
    submit(page)
    page.wait_for_selector("text=Salle ajoutée")
    check(page, visited)
    screenshot(page, "03-salle")

    page.goto(live_server.url + reverse("setup-locations"))
    page.fill("#id_code", "armoire")
    page.fill("#id_name", "Armoire dépôt des cartes")
    page.select_option("#id_kind", "card_cabinet")
    page.select_option("#id_room", label="Salle Europe")
    submit(page)
    page.wait_for_selector("text=Emplacement ajouté")
    check(page, visited)
    screenshot(page, "04-depot")

    # The arrêté d'autorisation, in its own register (the authorities' pages), allows one table.
    record_arrete(est, {"blackjack": 1}, actor=users.get(username="dupont"))
    page.goto(live_server.url + reverse("gaming-tables"))
    page.select_option("#id_room", label="Salle Europe")
    page.fill("#id_number", "BJ1")
    page.select_option("#id_game", "blackjack")
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_selector("text=Table mise en service.")
    check(page, visited)
    screenshot(page, "05-table")
    assert GamingTable.objects.filter(establishment=est, number="BJ1").exists()

    page.goto(live_server.url + reverse("setup-import", kwargs={"code": "emplacements"}))
    check(page, visited)
    bad = tmp_path / "emplacements.csv"
    bad.write_text(BAD, encoding="utf-8")
    page.set_input_files("#id_file", str(bad))
    submit(page)
    page.wait_for_selector("table.problems")
    check(page, visited)
    problems = page.locator("table.problems tbody tr")
    assert problems.count() == 1
    assert problems.first.inner_text().split("\t")[:2] == ["3", "type"]
    assert "rien n'a été enregistré" in page.content()
    screenshot(page, "06-import-refuse")
    assert set(Location.objects.filter(establishment=est).values_list("code", flat=True)) == {"armoire"}

    good = Path(tmp_path / "emplacements-corrige.csv")
    good.write_text(GOOD, encoding="utf-8")
    page.set_input_files("#id_file", str(good))
    submit(page)
    page.wait_for_selector("text=Confirmer l'import")
    check(page, visited)
    screenshot(page, "07-import-apercu")
    assert Location.objects.filter(establishment=est).count() == 1
    page.click("text=Confirmer l'import")
    page.wait_for_url("**/mise-en-place/")
    page.wait_for_selector("text=2 lignes importées")
    check(page, visited)
    screenshot(page, "08-mise-en-place")
    assert set(Location.objects.filter(establishment=est).values_list("code", flat=True)) == {
        "armoire",
        "coffre",
        "caisse",
    }
    assert Room.objects.get(establishment=est).name == "Salle Europe"
