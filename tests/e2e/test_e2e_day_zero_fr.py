"""In a real browser, from an empty database to a closed first séance of a French house, with
pages alone: the platform's administrator creates the house and directs it; as directeur
responsable they invite the police des jeux, the chef du service territorial de police judiciaire
and the ministry's controller, who choose their own password; they add a room and the card
cabinet, create the registers the house must open and cote and paraph those the texts give them;
they record the arrêté d'autorisation in its register, set up the table it authorises, and create
the registers the table needs; each official cotes and paraphs theirs from their home; the
existing card stock is taken over (signed by the director, visaed by the police, CARD-27) and so
is the paper volume of the main courante; the director opens the first séance, plays a
table-partie and closes the séance. ``verify_ledgers`` passes after it.

Each step's duration is printed (``-s``); ``E2E_SCREENSHOTS=<dir>`` saves its pages."""

from django.contrib.auth import get_user_model

from ledgers.cards.models import CardUnit
from ledgers.core.models import Establishment, GamingTable, Seance, TableSession
from ledgers.registers.models import Entry
from ledgers.takeover.models import Inventory
from tests.factories import DEFAULT_PASSWORD

from . import dayzero
from .browser import MARKS, check

pytestmark = MARKS

OFFICIALS = (
    ("police", "Marc", "Lefort", "marc.lefort@interieur.gouv.fr", "police", "M.L."),
    ("chefpj", "Anne", "Rivière", "anne.riviere@interieur.gouv.fr", "chef_police", "A.R."),
    ("controleur", "Paul", "Mercier", "paul.mercier@interieur.gouv.fr", "controle_interieur", "P.M."),
)
PASSWORD = "Cote-et-paraphe-2026"
DECKS = ";".join(f"{{serial}}-{n}:{'rouge' if n <= 3 else 'bleu'}" for n in range(1, 7))
CARDS = "\n".join(
    [
        "page;unit_type;serial;supplier;decks;location;status;new",
        *(
            f'{page};sixain;{serial};Cartes Grimaud;"{DECKS.format(serial=serial)}";armoire;in_stock;oui'
            for page, serial in ((41, "S2041"), (41, "S2042"), (42, "S2043"))
        ),
    ]
)
VOLUMES = "kind;qualifier;volume;page\nmain_courante;;12;187"


def test_day_zero_of_a_french_house_to_its_closed_first_seance(live_server, browser):
    get_user_model().objects.create_superuser(
        username="admin", password=DEFAULT_PASSWORD, email="", first_name="Hélène", last_name="Marchand"
    )
    walk = dayzero.Walk(browser, live_server.url, "fr")

    with walk.step("Administrateur : création de l'établissement"):
        dayzero.create_house(walk, code="casino-fr", name="Casino de la Plage", jurisdiction="FR", director="admin")
    est = Establishment.objects.get(code="casino-fr")
    assert est.timezone == "Europe/Paris"

    with walk.step("Direction : comptes et invitations des autorités"):
        page = walk.page("admin")
        links = [
            dayzero.invite(walk, page, username=u, first_name=f, last_name=n, email=e, role=r)
            for u, f, n, e, r, _p in OFFICIALS
        ]
        page.context.close()

    with walk.step("Autorités : choix du mot de passe"):
        for link in links:
            dayzero.choose_password(walk, link, PASSWORD)

    with walk.step("Direction : salle et armoire à cartes"):
        page = walk.page("admin")
        walk.visit(page, "setup", shot="mise-en-place")
        walk.visit(page, "setup-rooms")
        page.fill("#id_code", "plage")
        page.fill("#id_name", "Salle de la Plage")
        dayzero.submit(page.locator("main form"))
        page.wait_for_selector("text=Salle ajoutée")
        walk.visit(page, "setup-locations")
        page.fill("#id_code", "armoire")
        page.fill("#id_name", "Armoire « dépôt des cartes »")
        page.select_option("#id_kind", "card_cabinet")
        page.select_option("#id_room", label="Salle de la Plage")
        dayzero.submit(page.locator("main form"))
        page.wait_for_selector("text=Emplacement ajouté")
        walk.shot(page, "armoire")

    with walk.step("Direction : registres de la maison, cotés et paraphés par la direction"):
        dayzero.create_registers_to_open(walk, page)
        assert dayzero.cote_et_paraphe(walk, page, paraphe="H.M.") >= 1  # the register of authorisations

    with walk.step("Direction : arrêté d'autorisation et table"):
        today = est.localtime().date().isoformat()
        walk.visit(page, "authority:arretes", shot="arretes")
        page.fill("#id_reference", "Arrêté du ministre de l'intérieur n° 2026-117")
        page.fill("#id_signed_on", today)
        page.fill("#id_effective_from", today)
        page.fill("#id_total_tables", "1")
        page.fill("#id_tables_bataille", "1")
        dayzero.submit(page.locator("main form"))
        page.wait_for_selector("text=Arrêté d'autorisation inscrit.")
        walk.shot(page, "arrete-inscrit")
        walk.visit(page, "gaming-tables")
        page.select_option("#id_room", label="Salle de la Plage")
        page.fill("#id_number", "BA1")
        page.select_option("#id_game", "bataille")
        page.locator("main form button[type=submit]").first.click()
        page.wait_for_selector("text=Table mise en service.")
        walk.shot(page, "table")
    assert GamingTable.objects.filter(establishment=est, number="BA1", active=True).exists()

    with walk.step("Direction : registres de la table, cotés et paraphés par la direction"):
        dayzero.create_registers_to_open(walk, page)
        dayzero.cote_et_paraphe(walk, page, paraphe="H.M.")
        page.context.close()

    with walk.step("Autorités : cote et paraphe depuis leur accueil"):
        for username, *_name, paraphe in OFFICIALS:
            page = walk.page(username, PASSWORD)
            assert dayzero.cote_et_paraphe(walk, page, paraphe=paraphe, password=PASSWORD), username
            page.context.close()
    page = walk.page("admin")
    walk.visit(page, "registers:to_open", shot="registres-ouverts")
    assert "En attente de cote et paraphe" not in page.locator("main table").inner_text()

    # The take-over register was on the list: the take-over page no longer warns.
    walk.visit(page, "takeover:list")
    assert not page.locator("main .violation[role=alert]").count()

    with walk.step("Direction : fabricant de cartes agréé"):
        walk.visit(page, "cards:supplier-create")
        page.fill("#id_name", "Cartes Grimaud")
        page.fill("#id_approval_reference", "Agrément n° 2019-04")
        dayzero.submit(page.locator("main form"))
        page.wait_for_selector("text=Fabricant enregistré.")

    with walk.step("Reprise : inventaire des cartes établi et signé"):
        cards = dayzero.take_over(
            walk,
            page,
            domain="cards",
            paper_register="Carnet de prise en charge modèle 19, volume 4",
            lines=CARDS,
            name="cartes",
        )

    with walk.step("Police : visa de l'inventaire des cartes (CARD-27)"):
        police = walk.page("police", PASSWORD)
        check(police, walk.visited)
        walk.shot(police, "accueil-police")
        visa = police.locator(f"main a[href$='{cards.removeprefix(live_server.url)}visa/']")  # on their home
        police.goto(live_server.url + visa.get_attribute("href"))
        check(police, walk.visited)
        police.fill("#id_password", PASSWORD)
        walk.shot(police, "visa-police")
        dayzero.submit(police.locator("main form"))
        police.wait_for_selector("text=Inventaire visé.")
        police.context.close()

    with walk.step("Direction : report des cartes aux registres"):
        dayzero.post_inventory(walk, page, cards, name="cartes")
    assert CardUnit.objects.filter(establishment=est, unit_type="sixain").count() == 3

    with walk.step("Reprise : volume papier de la main courante"):
        volumes = dayzero.take_over(
            walk,
            page,
            domain="registers",
            paper_register="Main courante papier, volume 12",
            lines=VOLUMES,
            name="volumes",
        )
        dayzero.post_inventory(walk, page, volumes, name="volumes")
    assert not Inventory.objects.filter(establishment=est).exclude(status=Inventory.Status.POSTED).exists()
    continued = Entry.objects.get(register__establishment=est, payload__operation="Registre poursuivi")
    assert continued.payload["summary"].endswith("suite du volume papier 12, dernière page écrite 187")

    with walk.step("Direction : première séance, une table-partie, clôture"):
        dayzero.open_and_close_seance(
            walk,
            page,
            est.localtime().date().isoformat(),
            before_closing=lambda page: dayzero.play_table_partie(walk, page, "BA1"),
        )
    seance = Seance.objects.get(establishment=est)
    assert seance.status == Seance.Status.CLOSED
    assert seance.table_sessions.get().status == TableSession.Status.CLOSED
    page.context.close()

    with walk.step("verify_ledgers"):
        dayzero.verify_ledgers()
    walk.report()
