"""In a real browser, as the floor staff of both demo casinos: each signs in and does the act of
the day the home's "Mon travail" block offers, as the person would (the cartier takes cards out
for a table, the croupier counts the encaisse of the partie just ended, the chef de table ends
a partie, the caissier hands a table its avance or counts an encaisse with the denomination grid,
the changeur writes his bon, the superviseur opens a relève and records a box exchange, the
mécanicien opens an intervention sheet, the comptabilité its act, the inspecteur and the police
officer visa the register that waits longest), on a desktop, a phone and, for those who work
standing at the tables or the machines, a tablet. The act is submitted at every
size, on its own table or machine: what one size did never stops the next. Every page visited
fits the screen's width and passes axe-core.

The clicks from the home to the act done are held to ``MOST_CLICKS`` and printed per role and size
(``-rP`` shows them)."""

from collections import defaultdict
from dataclasses import dataclass, field

from ledgers.core.demo import DEMO_FR, DEMO_MC, DEMO_PASSWORD
from tests.demo import seed_demo

from .browser import MARKS, SIZES, check, home, screenshot

pytestmark = MARKS
TABLET = ("tablet",)


@dataclass
class Visit:
    """One person's way from the home to the act done: the pages seen and the clicks made."""

    page: object
    code: str  # the casino's
    name: str
    visited: list[str] = field(default_factory=list)
    clicks: int = 0

    def click(self, target) -> None:
        self.clicks += 1
        (self.page.locator(target) if isinstance(target, str) else target).click()

    def check(self) -> None:
        check(self.page, self.visited)

    def act(self, label: str) -> None:
        """Open the home's main act ``label`` (its button in "Mon travail")."""
        self.click(self.page.locator("section.main-acts a.btn", has_text=label).first)
        self.page.wait_for_load_state()
        self.check()
        screenshot(self.page, f"{self.name}-form")

    def choose(self, field_id: str, text: str) -> None:
        """Pick the option containing ``text`` in a select, a plain one or a searchable one."""
        select = self.page.locator(f"#{field_id}")
        if select.is_visible():
            value = select.locator("option", has_text=text).first.get_attribute("value")
            self.clicks += 1
            select.select_option(value)
            return
        self.click(f"#{field_id}-ts-control")
        self.page.keyboard.type(text)
        self.click(self.page.locator(f"#{field_id}-ts-dropdown .option", has_text=text).first)

    def submit(self, message: str) -> None:
        """Send the form and wait for ``message``, on the page it leads to."""
        self.click("main form button[type=submit]")
        self.page.wait_for_selector(f"text={message}")
        self.check()
        screenshot(self.page, f"{self.name}-done")


def table_of(visit: Visit, label: str) -> str:
    """The table number ending the label of the home's first main act starting with ``label``."""
    return visit.page.locator("section.main-acts a.btn", has_text=label).first.inner_text().rsplit(" ", 1)[-1]


def grid(visit: Visit, prefix: str, quantities: dict[str, int]) -> None:
    """Type quantities in a denomination grid (``{"plaque_1000": 40}``); its total follows."""
    for name, quantity in quantities.items():
        visit.page.fill(f"#id_{prefix}_{name}", str(quantity))
    assert visit.page.locator(".denominations-total").first.inner_text().strip() not in ("", "0,00 €")


def cards_out(visit: Visit, n: int) -> None:
    """MC cartier: cards out of the depot for a table whose partie is prepared, one table a size:
    a deck for the poker tables, a sixain for the super privé punto banco."""
    table, unit = CARD_TABLES[n]
    visit.act("Sortir des cartes pour une table")
    visit.choose("id_table_session", f"n° {table}")
    visit.choose("id_units", unit)
    visit.choose("id_received_by", "Marchetti")
    visit.submit("Cartes sorties pour la table.")
    assert table in visit.page.locator("main").inner_text()


def first_control(visit: Visit, n: int) -> None:
    """FR cartier: a used sixain back in the cabinet controlled before it serves again, one a size."""
    page = visit.page
    visit.act("Contrôler les cartes rentrées")
    unit = page.locator("#id_unit option").nth(n + 1).get_attribute("value")
    visit.clicks += 1
    page.select_option("#id_unit", unit)
    visit.submit("Contrôle inscrit.")
    # The unit's history shows the control (its page, as from the list of units).
    page.goto(f"{page.url.split('/cartes/')[0]}/cartes/unites/{unit}/")
    visit.check()
    assert "Premier contrôle" in page.locator("main").inner_text()


def blind_count(visit: Visit, n: int) -> None:
    """One of the two blind counts of a partie ended, with the denomination grid."""
    table = table_of(visit, "Comptée — table")
    visit.act("Comptée — table")
    grid(visit, "breakdown", {"plaque_10000": 7, "plaque_1000": 5})
    visit.page.fill("#id_tips", "0")
    visit.choose("id_present", "Chef de table")
    visit.submit("Comptage enregistré.")
    row = visit.page.locator("main tr", has_text=f"n° {table}").first
    assert "attente" in row.inner_text().lower() or "compt" in row.inner_text().lower()


def end_partie(visit: Visit, n: int) -> None:
    """Chef de table: the end of a partie in play whose equipment is back."""
    page = visit.page
    table = table_of(visit, "Fin de partie — table")
    visit.act("Fin de partie — table")
    visit.click("main form button:has-text('Fin de partie')")
    # Irreversible: asked once, saying what it writes.
    dialog = page.locator("#confirm-act")
    dialog.wait_for(state="visible")
    assert "La table ne rouvre pas" in dialog.inner_text()
    visit.check()
    dialog.locator("button.confirm-ok").click()
    page.wait_for_selector(f"text=Fin de partie de la table {table} inscrite.")
    visit.check()
    assert page.locator("h1 .status-closed").count() == 1


def avance(visit: Visit, n: int) -> None:
    """MC caissier: the somme mise en banque handed to a table, counted by denomination and
    received by the chef de table, who signs at the desk."""
    table = table_of(visit, "Avance — table")
    visit.act("Avance — table")
    grid(visit, "breakdown", {"plaque_10000": 4})
    # Where the table played last night, its encaisse went back to the caisse centrale.
    visit.page.fill("#id_carry_note", "Encaisse de la séance précédente remise à la caisse centrale.")
    visit.choose("id_receiver_username", "Marchetti")
    visit.page.fill("#id_receiver_password", DEMO_PASSWORD)
    visit.submit("Avance inscrite au carnet.")
    row = visit.page.locator("main tr", has_text=f"n° {table}").first
    assert "40" in row.inner_text()


def bon(visit: Visit, n: int) -> None:
    """The changeur's bon for the chips he needs at a table in play, countersigned there."""
    page = visit.page
    visit.act("Rédiger un bon de ravitaillement pour une table")
    number = page.input_value("#id_number")
    visit.choose("id_table_session", "Soirée")
    grid(visit, "requested", {"jeton_100": 50})
    grid(visit, "handed", {"plaque_5000": 1})
    visit.choose("id_supervisor_username", SUPERVISORS[visit.code])
    page.fill("#id_supervisor_password", DEMO_PASSWORD)
    visit.submit("Bon rédigé et contresigné.")
    assert number in page.locator("main").inner_text()


def releve(visit: Visit, n: int) -> None:
    """Superviseur: a relève of the slot room opened, and a box exchanged during it."""
    page = visit.page
    visit.act("Relever les compteurs (nouvelle relève)")
    visit.choose("id_room", "machines")
    visit.submit("Enregistré.")
    visit.click("main a:has-text('Échange de boîte')")
    page.wait_for_load_state()
    visit.check()
    page.locator("#id_machine").select_option(index=n + 1)
    visit.clicks += 1
    page.fill("#id_removed", f"B-{n}1")
    page.fill("#id_replaced_by", f"B-{n}2")
    visit.submit("Enregistré.")
    assert f"B-{n}1" in page.locator("main").inner_text()


def intervention(visit: Visit, n: int) -> None:
    """Mécanicien: a machine opened on its intervention sheet, one machine a size."""
    page = visit.page
    visit.act("Ouvrir une machine (fiche d'intervention)")
    machine = page.locator("#id_machine option").nth(n + 2).inner_text()
    visit.choose("id_machine", machine)
    page.fill("#id_reason", "Accepteur de billets bloqué.")
    visit.submit("Enregistré.")
    assert "Accepteur de billets bloqué." in page.locator("main").inner_text()


def key_inventory(visit: Visit) -> None:
    """The blind inventory of the keys: each key's copies counted, signed with the password."""
    page = visit.page
    visit.act("Inventaire des clés")
    for count in page.locator("main form input[type=number]").all():
        count.fill("1")
    page.fill("#id_password", DEMO_PASSWORD)
    visit.submit("Inventaire des clés enregistré.")


def slot_count(visit: Visit, n: int) -> None:
    """MC comptabilité: the comptée of the boxes of the day's relève opened (the cashier then counts
    the machines in it); once it is open, the day's other act, the key inventory."""
    page = visit.page
    if n > 0:
        assert page.locator("section.main-acts a.btn", has_text="Continuer la comptée des machines").count() == 1
        key_inventory(visit)
        return
    visit.act("Ouvrir une comptée des machines")
    visit.choose("id_releve", "Relève")
    visit.submit("Enregistré.")
    # Comptabilité opens and closes the comptée; the machines are counted by those who count the drop.
    main = page.locator("main").inner_text()
    assert "Clôture de la comptée" in main and "Machine comptée" not in main


def control_day(visit: Visit, n: int) -> None:
    """FR comptabilité: last night's day carried to the registre de contrôle and closed; once it
    is, tonight's waits for its counts: the day's other act, the key inventory."""
    page = visit.page
    if n > 0:
        assert page.locator("section.main-acts button[disabled]", has_text="Arrêter la journée").count() == 1
        key_inventory(visit)
        return
    visit.act("Arrêter la journée du registre de contrôle")
    visit.submit("Journée reportée et arrêtée au registre de contrôle.")
    assert page.locator("main table tr").count() > 1


def visa(visit: Visit, n: int) -> None:
    """Inspecteur, police officer: the visa of the register that waits longest, from the home's
    line of registers to visa, signed with the password (no login typed). The first size leaves
    the last entry for the next one."""
    page = visit.page
    group = page.locator("details.queue-group", has=page.locator("summary:has-text('Registres à viser')"))
    if group.get_attribute("open") is None:
        visit.click(group.locator("summary").first)
    visit.click(group.locator("a[href$='/visa/']:visible").first)
    page.wait_for_load_state()
    visit.check()
    if n == 0:
        page.fill("#id_up_to_seq", str(int(page.input_value("#id_up_to_seq")) - 1))
    page.fill("#id_password", DEMO_PASSWORD)
    visit.submit("Visa enregistré.")


CARD_TABLES = (("TCP1", "Jeu"), ("UTH1", "Jeu"), ("SP1", "Sixain"))
SUPERVISORS = {DEMO_MC: "Lanteri", DEMO_FR: "Ciais"}  # who countersigns the changeur's bon

# (casino, role, daily act, sizes besides the desktop and the phone)
ROLES = [
    (DEMO_MC, "cartier", cards_out, TABLET),
    (DEMO_MC, "croupier", blind_count, TABLET),
    (DEMO_MC, "caissier", avance, TABLET),
    (DEMO_MC, "changeur", bon, ()),
    (DEMO_MC, "chef_table", end_partie, ()),
    (DEMO_MC, "superviseur", releve, TABLET),
    (DEMO_MC, "mecanicien", intervention, TABLET),
    (DEMO_MC, "comptabilite", slot_count, ()),
    (DEMO_MC, "inspecteur", visa, ()),
    (DEMO_FR, "cartier", first_control, TABLET),
    (DEMO_FR, "croupier", blind_count, TABLET),
    (DEMO_FR, "caissier", blind_count, TABLET),
    (DEMO_FR, "changeur", bon, ()),
    (DEMO_FR, "chef_table", end_partie, ()),
    (DEMO_FR, "superviseur", releve, TABLET),
    (DEMO_FR, "mecanicien", intervention, TABLET),
    (DEMO_FR, "comptabilite", control_day, ()),
    (DEMO_FR, "police", visa, ()),
]
MOST_CLICKS = 10  # from the home to the act done, at any size


def test_each_floor_role_does_its_daily_act_from_its_home(live_server, browser, demo_dir):
    """One test over every floor role (the demo is seeded once: seeding per role would take an
    hour); the failures are reported per role and size."""
    seed_demo(demo_dir)
    failures, clicks = [], defaultdict(dict)
    for code, role, act, extra in ROLES:
        for n, size in enumerate((*SIZES, *extra)):
            page = home(browser, live_server.url, code, role, size)
            visit = Visit(page, code, f"{role}.{code}-{size}")
            try:
                visit.check()
                act(visit, n)
                clicks[f"{role}.{code}"][size] = visit.clicks
                assert visit.clicks <= MOST_CLICKS, f"{visit.clicks} clicks"
            except Exception as exc:  # reported with its role: every role is tried
                failures.append(f"{role}.{code} at {size} ({' → '.join(visit.visited)}): {exc}")
            finally:
                page.context.close()
    for who, sizes in clicks.items():
        print(who, ", ".join(f"{size} {n} clics" for size, n in sizes.items()))
    assert not failures, "\n".join(failures)
