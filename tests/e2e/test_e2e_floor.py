"""In a real browser, the floor roles of both casinos do their main act of the day from their
home, in one click (the primary button at the top of the home), at a desktop (1366×900), a tablet
(1024×768) and a phone (390×844) width: the cartier issues cards to a table (MC) or controls the
used cards of the cabinet (FR), the croupier controls the cards at his table, the cashier hands a
table its avance by denomination (MC) or pays a slot win at the cash desk (FR), the chef de table
opens a partie (MC) or ends it (FR), the changeur writes his bon, the slot superviseur opens a
relève of the meters, the mechanic opens a machine on an intervention sheet, the accounts take the
blind inventory of the keys. Each act is found recorded in the database; every page visited fits
the screen's width and has no serious or critical accessibility violation (axe-core); the form's
touch targets are at least 44 px high.

The Direction's part of the day (a partie prepared, its somme mise en banque fixed, a carnet of
bons put in service) is done through the services first, as the Direction's own pages would.

``E2E_SCREENSHOTS=<dir>`` saves each floor role's home and act form at every width."""

import os
from decimal import Decimal
from io import StringIO
from pathlib import Path

from django.core.management import call_command

from ledgers.cards.models import CardEvent, CardUnit
from ledgers.cash import services as cash
from ledgers.cash.models import Slip, TableFloat
from ledgers.core.demo import DEMO_FR, DEMO_MC, DEMO_PASSWORD, demo_user
from ledgers.core.models import Establishment, Seance, TableSession
from ledgers.core.services import table_session_prepare
from ledgers.keys.models import KeyInventory
from ledgers.slots.models import Intervention, JackpotPayment, Releve
from tests.e2e.test_e2e_roles import browser, check, home, pytestmark  # noqa: F401 (fixture and marks)

SIZES = ("desktop", "tablet", "phone")
MC_TABLES = ("TCP1", "UTH1", "SP1")  # prepared for the day: cards, avance, opening
MC_UNITS = ("MOH00021-1", "MOH00021-2", "MOH00022")  # one per table, as its game takes them


def shot(page, name: str) -> None:
    shots = os.environ.get("E2E_SCREENSHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{shots}/{name}.png", full_page=True)


def main_act(page, label: str) -> None:
    """One click from the home: the enabled primary button of the act."""
    page.locator("section.main-acts a.btn", has_text=label).first.click()
    page.wait_for_load_state()


def targets(page) -> None:
    """Every control of the page's form is at least 44 px high (a checkbox: its label)."""
    small = page.evaluate(
        """() => [...document.querySelectorAll(
            "main form input:not([type=hidden]), main form select, main form textarea, main form button, "
            + "main form .ts-control")]
          .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden")
          .filter((el) => el.classList.contains("ts-control") || !el.closest(".ts-control"))  // its box is measured
          .map((el) => {
            const box = el.type === "checkbox" || el.type === "radio"
              ? (el.closest("label") || document.querySelector(`label[for="${el.id}"]`) || el) : el;
            return [el.name || el.id || el.className, Math.round(box.getBoundingClientRect().height)];
          })
          .filter(([, height]) => height < 44)"""
    )
    assert not small, f"touch targets under 44 px on {page.url}: {small}"


def form(page, visited: list[str], name: str) -> None:
    check(page, visited)
    targets(page)
    shot(page, name)


def pick(page, field: str, text: str) -> None:
    """Choose in a searchable list by typing (or scanning) the number or name, then Enter."""
    control = page.locator(f"#{field}-ts-control")
    control.click()
    control.fill(text)
    page.locator(f"#{field}-ts-dropdown .option", has_text=text).first.wait_for()
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    control.blur()
    page.locator(f"#{field}-ts-dropdown").wait_for(state="hidden")


def submit(page) -> None:
    page.click("main form button[type=submit]")
    page.wait_for_load_state()


def success(page, text: str) -> None:
    page.wait_for_selector(f"text={text}")


# --- The acts -------------------------------------------------------------------------------------


def cartier_mc(page, visited, i: int, est) -> None:
    main_act(page, "Sortir des cartes pour une table")
    form(page, visited, f"act-cartier.{est.code}-{SIZES[i]}")
    page.select_option(
        "#id_table_session", label=next(o for o in options(page, "id_table_session") if MC_TABLES[i] in o)
    )
    pick(page, "id_units", MC_UNITS[i])
    pick(page, "id_received_by", "Bertrand")
    submit(page)
    success(page, "Cartes sorties pour la table.")
    check(page, visited)
    unit = CardUnit.objects.get(establishment=est, serial=MC_UNITS[i])
    assert unit.table_session.table.number == MC_TABLES[i]


def cartier_fr(page, visited, i: int, est) -> None:
    before = CardEvent.objects.filter(establishment=est, kind=CardEvent.Kind.FIRST_CONTROL).count()
    main_act(page, "Contrôler les cartes rentrées")
    form(page, visited, f"act-cartier.{est.code}-{SIZES[i]}")
    page.select_option("#id_unit", index=1)
    submit(page)
    success(page, "Contrôle inscrit.")
    check(page, visited)
    assert CardEvent.objects.filter(establishment=est, kind=CardEvent.Kind.FIRST_CONTROL).count() == before + 1


def croupier(page, visited, i: int, est) -> None:
    before = CardEvent.objects.filter(establishment=est, kind=CardEvent.Kind.SECOND_CONTROL).count()
    main_act(page, "Contrôler les cartes à ma table")
    form(page, visited, f"act-croupier.{est.code}-{SIZES[i]}")
    page.select_option("#id_unit", index=1)
    submit(page)
    success(page, "Contrôle à table inscrit.")
    check(page, visited)
    assert CardEvent.objects.filter(establishment=est, kind=CardEvent.Kind.SECOND_CONTROL).count() == before + 1


def caissier_mc(page, visited, i: int, est) -> None:
    main_act(page, f"Avance — table {MC_TABLES[i]}")
    form(page, visited, f"act-caissier.{est.code}-{SIZES[i]}")
    # The table's fixed sum is shown before typing; the running total follows the quantities.
    assert "20000,00" in "".join(page.locator(".denominations-expected").inner_text().split())
    page.fill("[name=breakdown__plaque__1000]", "20")
    page.wait_for_function("document.querySelector('.denominations-total').textContent.includes('20')")
    assert "égal" in page.locator(".denominations-gap").inner_text()
    pick(page, "id_receiver_username", "Marchetti")
    page.fill("#id_receiver_password", DEMO_PASSWORD)
    submit(page)
    success(page, "Avance inscrite au carnet.")
    check(page, visited)
    recorded = TableFloat.objects.get(table_session__table__number=MC_TABLES[i], table_session__seance__status="open")
    assert recorded.amount == Decimal(20_000)


def caissier_fr(page, visited, i: int, est) -> None:
    before = JackpotPayment.objects.filter(machine__establishment=est).count()
    main_act(page, "Payer un gain de machine à sous")
    form(page, visited, f"act-caissier.{est.code}-{SIZES[i]}")
    pick(page, "id_machine", "00")
    page.fill("#id_amount", "150")
    page.select_option("#id_method", index=0)
    pick(page, "id_controller_username", "Aubert")
    page.fill("#id_controller_password", DEMO_PASSWORD)
    submit(page)
    check(page, visited)
    assert JackpotPayment.objects.filter(machine__establishment=est).count() == before + 1


def chef_table_mc(page, visited, i: int, est) -> None:
    main_act(page, f"Ouvrir la partie — table {MC_TABLES[i]}")
    check(page, visited)
    shot(page, f"act-chef_table.{est.code}-{SIZES[i]}")
    page.click("main form button:has-text('Ouvrir la table')")
    page.wait_for_selector("main form button:has-text('Fin de partie')")
    check(page, visited)
    session = TableSession.objects.get(table__number=MC_TABLES[i], seance__status="open")
    assert session.status == TableSession.Status.OPEN


def chef_table_fr(page, visited, i: int, est) -> None:
    button = page.locator("section.main-acts a.btn", has_text="Fin de partie").first
    number = button.inner_text().rsplit(" ", 1)[-1]
    button.click()
    check(page, visited)
    shot(page, f"act-chef_table.{est.code}-{SIZES[i]}")
    page.click("main form button:has-text('Fin de partie')")
    page.wait_for_load_state()
    check(page, visited)
    session = TableSession.objects.get(table__number=number, seance__status="open", seance__establishment=est)
    assert session.status == TableSession.Status.CLOSED


def changeur(page, visited, i: int, est) -> None:
    before = Slip.objects.filter(book__establishment=est).count()
    main_act(page, "Rédiger un bon de ravitaillement pour une table")
    form(page, visited, f"act-changeur.{est.code}-{SIZES[i]}")
    page.select_option("#id_book", label=next(o for o in options(page, "id_book") if "BR-" in o))
    page.fill("#id_number", str(i + 1))
    page.select_option("#id_table_session", index=1)
    page.fill("[name=requested__jeton__100]", "10")
    page.fill("[name=handed__plaque__1000]", "1")
    pick(page, "id_supervisor_username", "Lanteri" if est.jurisdiction == "MC" else "Ciais")
    page.fill("#id_supervisor_password", DEMO_PASSWORD)
    submit(page)
    success(page, "Bon rédigé et contresigné.")
    check(page, visited)
    assert Slip.objects.filter(book__establishment=est).count() == before + 1


def superviseur(page, visited, i: int, est) -> None:
    before = Releve.objects.filter(establishment=est).count()
    main_act(page, "Relever les compteurs (nouvelle relève)")
    form(page, visited, f"act-superviseur.{est.code}-{SIZES[i]}")
    page.select_option("#id_room", index=1)
    submit(page)
    page.wait_for_url("**/releves/*/")
    check(page, visited)
    assert Releve.objects.filter(establishment=est).count() == before + 1


def mecanicien(page, visited, i: int, est) -> None:
    before = Intervention.objects.filter(machine__establishment=est).count()
    main_act(page, "Ouvrir une machine (fiche d'intervention)")
    form(page, visited, f"act-mecanicien.{est.code}-{SIZES[i]}")
    pick(page, "id_machine", f"00{i + 4}")  # machines without an open sheet
    page.fill("#id_reason", "Bourrage du lecteur de billets.")
    submit(page)
    page.wait_for_url("**/machines/*/")
    check(page, visited)
    assert Intervention.objects.filter(machine__establishment=est).count() == before + 1


def comptabilite(page, visited, i: int, est) -> None:
    before = KeyInventory.objects.filter(establishment=est).count()
    main_act(page, "Inventaire des clés")
    form(page, visited, f"act-comptabilite.{est.code}-{SIZES[i]}")
    for field in page.locator("main form input[name^=key_]").all():
        field.fill("1")
    page.fill("#id_password", DEMO_PASSWORD)
    submit(page)
    success(page, "Inventaire des clés enregistré.")
    check(page, visited)
    assert KeyInventory.objects.filter(establishment=est).count() == before + 1


def options(page, field: str) -> list[str]:
    return page.eval_on_selector(f"#{field}", "el => [...el.options].map((o) => o.textContent.trim())")


# (casino, role, act) in the order of the day: the cards reach the table and are controlled, the
# avance is handed, the partie opens, then the changeur's bon.
ROLES = [
    (DEMO_MC, "cartier", cartier_mc),
    (DEMO_MC, "croupier", croupier),
    (DEMO_MC, "caissier", caissier_mc),
    (DEMO_MC, "chef_table", chef_table_mc),
    (DEMO_MC, "changeur", changeur),
    (DEMO_MC, "superviseur", superviseur),
    (DEMO_MC, "mecanicien", mecanicien),
    (DEMO_MC, "comptabilite", comptabilite),
    (DEMO_FR, "cartier", cartier_fr),
    (DEMO_FR, "croupier", croupier),
    (DEMO_FR, "caissier", caissier_fr),
    (DEMO_FR, "chef_table", chef_table_fr),
    (DEMO_FR, "changeur", changeur),
    (DEMO_FR, "superviseur", superviseur),
    (DEMO_FR, "mecanicien", mecanicien),
    (DEMO_FR, "comptabilite", comptabilite),
]


def direction_prepares_the_day() -> None:
    """What the Direction did before the floor starts: MC three parties prepared with their somme
    mise en banque fixed and the changeur's carnet of bons; FR the changeur's carnet."""
    mc = Establishment.objects.get(code=DEMO_MC)
    director = demo_user(mc, "directeur_jeux")
    seance = Seance.objects.get(establishment=mc, status=Seance.Status.OPEN)
    for number in MC_TABLES:
        table = mc.tables.get(number=number)
        cash.float_amount_fix(table=table, amount=Decimal(20_000), actor=director)
        table_session_prepare(seance=seance, table=table, actor=director)
    cash.slip_book_open(
        establishment=mc, kind="changeur", number="BR-001", first_number=1, last_number=50, actor=director
    )
    fr = Establishment.objects.get(code=DEMO_FR)
    cash.slip_book_open(
        establishment=fr,
        kind="ravitaillement",
        number="BR-001",
        first_number=1,
        last_number=50,
        actor=demo_user(fr, "directeur_responsable"),
    )


def test_each_floor_role_does_its_main_act_in_one_click_from_its_home(live_server, browser):  # noqa: F811
    """One test over the floor roles (the demo is seeded once); the failures are reported per
    role and width."""
    call_command("seed_demo", stdout=StringIO())
    direction_prepares_the_day()
    failures = []
    for code, role, act in ROLES:
        est = Establishment.objects.get(code=code)
        for i, size in enumerate(SIZES):
            visited: list[str] = []
            page = home(browser, live_server.url, code, role, size)
            try:
                check(page, visited)
                shot(page, f"home-{role}.{code}-{size}")
                act(page, visited, i, est)
            except Exception as exc:  # reported with its role: every role is tried
                failures.append(f"{role}.{code} at {size} ({' → '.join(visited)}): {exc}")
            finally:
                page.context.close()
    assert not failures, "\n".join(failures)
