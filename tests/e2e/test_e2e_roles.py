"""In a real browser, as the demo users of both casinos: each role signs in, finds its work on its
home and does its main act of the day from there, on a desktop (1366×900) and a phone (390×844).
Every page visited fits the screen's width (no horizontal scroll) and has no serious or critical
accessibility violation (axe-core). The floor roles' acts are in test_e2e_floor.py."""

from ledgers.core.demo import DEMO_FR, DEMO_MC, DEMO_PASSWORD
from tests.demo import seed_demo

from .browser import MARKS, SIZES, check, home, open_group

pytestmark = MARKS


def visa(page, visited, submit: bool) -> None:
    group = open_group(page, "Registres à viser ou à coter et parapher")
    kind = group.locator("details.kind-group", has=page.locator("summary:has-text('Main courante')")).first
    if kind.get_attribute("open") is None:
        kind.locator("summary").click()
    kind.locator("a", has_text="Viser").first.click()
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
    group = open_group(page, "Registres à viser ou à coter et parapher")
    kind = group.locator("details.kind-group", has=page.locator("a[href$='/cote-et-paraphe/']")).first
    if kind.get_attribute("open") is None:
        kind.locator("summary").click()
    kind.locator("a[href$='/cote-et-paraphe/']").first.click()
    page.wait_for_url("**/cote-et-paraphe/")
    check(page, visited)
    if not submit:
        return
    page.fill("#id_paraphe", "C.O.")
    page.fill("#id_password", DEMO_PASSWORD)  # the cote et paraphe is signed as a visa is
    page.click("main form button[type=submit]")
    page.wait_for_selector("text=Registre coté et paraphé.")


def main_courante_fact(page, visited, submit: bool) -> None:
    open_group(page, "Main courante")
    page.click("text=Inscrire un fait")
    page.wait_for_url("**/inscrire/")
    check(page, visited)
    page.fill("#id_subject", "Observation")
    page.fill("#id_text", "Ronde en salle, aucune observation.")
    page.click("main form button[type=submit]")
    page.wait_for_selector("text=Fait inscrit à la main courante.")


# (casino, role, main act from the home); the floor roles are test_e2e_floor.py's
ROLES = [
    (DEMO_MC, "scj", visa),
    (DEMO_MC, "commissaire", cote_et_paraphe),
    (DEMO_MC, "directeur_jeux", main_courante_fact),
    (DEMO_MC, "inspecteur", main_courante_fact),
    (DEMO_MC, "sous_directeur", main_courante_fact),
    (DEMO_MC, "chef_partie", main_courante_fact),
    (DEMO_FR, "police", visa),
    (DEMO_FR, "directeur_responsable", main_courante_fact),
    (DEMO_FR, "comite", main_courante_fact),
]


def test_each_role_does_its_main_act_from_its_home(live_server, browser, demo_dir):
    """One test over every role (the demo is seeded once: seeding per role would take an hour);
    the failures are reported per role."""
    seed_demo(demo_dir)
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
