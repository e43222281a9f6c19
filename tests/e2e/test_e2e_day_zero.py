"""In a real browser, from an empty database to a closed first séance of a Monaco house, with pages
alone: the platform's administrator creates the house and directs it; as director they create the
Commissaire du Gouvernement's account and invite them (the Commissaire chooses their own password
from the link, which nobody else sees), then create every register the house must open; the
Commissaire cotes and paraphs the main courante from their home; the director adds a room, the
card depot and a table, and the Commissaire cotes and paraphs the registers the table needs; the
existing card stock is taken over (the SCJ's visa is possible there, not required: CARD-06); the
director opens and closes the first séance. ``verify_ledgers`` passes after it, and the register
of authorisations holds every act on the staff.

Each step's duration is printed (``-s``); ``E2E_SCREENSHOTS=<dir>`` saves its pages."""

from django.contrib.auth import get_user_model
from django.urls import reverse

from ledgers.cards.models import CardUnit
from ledgers.core.models import Establishment, GamingTable, Seance
from ledgers.registers.kinds import AUTHORISATIONS, MAIN_COURANTE
from ledgers.registers.models import Register
from ledgers.takeover.models import Inventory
from tests.factories import DEFAULT_PASSWORD

from . import dayzero
from .browser import MARKS, check, screenshot

pytestmark = MARKS

OFFICIAL_PASSWORD = "Paraphe-du-Rocher-2026"
DECKS = ";".join(f"{{serial}}-{n}:{'rouge' if n <= 3 else 'bleu'}" for n in range(1, 7))
CARDS = "\n".join(
    [
        "page;unit_type;serial;supplier;decks;location;status;new",
        *(
            f'{page};sixain;{serial};Cartes Grimaud;"{DECKS.format(serial=serial)}";principal;in_stock;oui'
            for page, serial in ((23, "M301"), (23, "M302"))
        ),
    ]
)


def test_day_zero_of_a_monaco_house_to_its_closed_first_seance(live_server, browser):
    get_user_model().objects.create_superuser(
        username="admin", password=DEFAULT_PASSWORD, email="", first_name="Claire", last_name="Grimaldi"
    )
    walk = dayzero.Walk(browser, live_server.url, "mc")

    with walk.step("Administrateur : création de l'établissement"):
        dayzero.create_house(walk, code="casino-mc", name="Casino du Rocher", jurisdiction="MC", director="admin")
    est = Establishment.objects.get(code="casino-mc")

    with walk.step("Direction : compte et invitation du Commissaire"):
        page = walk.page("admin")
        link = dayzero.invite(
            walk,
            page,
            username="commissaire",
            first_name="Louis",
            last_name="Notari",
            email="commissaire@gouv.mc",
            role="commissaire",
        )

    with walk.step("Direction : registres de la maison"):
        dayzero.create_registers_to_open(walk, page)
        dayzero.cote_et_paraphe(walk, page, paraphe="C.G.")
    main_courante = Register.objects.get(establishment=est, kind=MAIN_COURANTE.code)
    assert main_courante.status == Register.Status.AWAITING_OPENING

    with walk.step("Commissaire : mot de passe, cote et paraphe de la main courante"):
        dayzero.choose_password(walk, link, OFFICIAL_PASSWORD)
        commissaire = walk.page("commissaire", OFFICIAL_PASSWORD)
        assert main_courante.number in commissaire.content()  # the home lists what awaits the cote et paraphe
        assert dayzero.cote_et_paraphe(walk, commissaire, paraphe="L.N.", password=OFFICIAL_PASSWORD) == 1
    main_courante.refresh_from_db()
    assert main_courante.status == Register.Status.OPEN

    with walk.step("Direction : salle, dépôt des cartes et table"):
        walk.visit(page, "setup-rooms")
        page.fill("#id_code", "europe")
        page.fill("#id_name", "Salle Europe")
        dayzero.submit(page.locator("main form"))
        page.wait_for_selector("text=Salle ajoutée")
        walk.visit(page, "setup-locations")
        page.fill("#id_code", "principal")
        page.fill("#id_name", "Dépôt principal des cartes")
        page.select_option("#id_kind", "depot_principal")
        dayzero.submit(page.locator("main form"))
        page.wait_for_selector("text=Emplacement ajouté")
        walk.visit(page, "gaming-tables")
        page.select_option("#id_room", label="Salle Europe")
        page.fill("#id_number", "PB1")
        page.select_option("#id_game", "punto_banco")
        page.locator("main form button[type=submit]").first.click()
        page.wait_for_selector("text=Table mise en service.")
        walk.shot(page, "table")
    assert GamingTable.objects.filter(establishment=est, number="PB1", active=True).exists()

    with walk.step("Direction : registres de la table"):
        dayzero.create_registers_to_open(walk, page)
        dayzero.cote_et_paraphe(walk, page, paraphe="C.G.")

    with walk.step("Commissaire : cote et paraphe des registres de la table"):
        assert dayzero.cote_et_paraphe(walk, commissaire, paraphe="L.N.", password=OFFICIAL_PASSWORD)
        commissaire.context.close()
    walk.visit(page, "registers:to_open", shot="registres-ouverts")
    assert "En attente de cote et paraphe" not in page.locator("main table").inner_text()

    # The take-over register was on the list: the take-over page no longer warns.
    walk.visit(page, "takeover:list")
    assert not page.locator("main .violation[role=alert]").count()

    with walk.step("Direction : fabricant de cartes"):
        walk.visit(page, "cards:supplier-create")
        page.fill("#id_name", "Cartes Grimaud")
        dayzero.submit(page.locator("main form"))
        page.wait_for_selector("text=Fabricant enregistré.")

    with walk.step("Reprise : cartes établies, signées et reportées"):
        cards = dayzero.take_over(
            walk,
            page,
            domain="cards",
            paper_register="Registre de prise en charge des sixains, volume 2",
            lines=CARDS,
            name="cartes",
        )
        dayzero.post_inventory(walk, page, cards, name="cartes")  # the SCJ's visa is possible, not required
    assert CardUnit.objects.filter(establishment=est, unit_type="sixain").count() == 2
    assert Inventory.objects.get(establishment=est).status == Inventory.Status.POSTED

    with walk.step("Direction : première séance ouverte et close"):
        dayzero.open_and_close_seance(walk, page, est.localtime().date().isoformat())
    assert Seance.objects.get(establishment=est).status == Seance.Status.CLOSED
    page.context.close()

    with walk.step("Direction : les pages de la mise en place sur un téléphone"):
        # They fit and read as on a desk.
        phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR", is_mobile=True)
        phone.set_default_timeout(120_000)
        page = phone.new_page()
        page.goto(live_server.url + reverse("login"))
        page.fill("#id_username", "admin")
        page.fill("#id_password", DEFAULT_PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_load_state()
        for name in (
            "setup",
            "staff",
            "staff-history",
            "registers:to_open",
            "takeover:list",
            "profile",
            "password-change",
        ):
            page.goto(live_server.url + reverse(name))
            check(page, walk.visited)
            screenshot(page, f"mc-phone-{name.replace(':', '-')}")
        phone.close()

    authorisations = Register.objects.get(establishment=est, kind=AUTHORISATIONS.code)
    subjects = [entry.payload.get("subject") for entry in authorisations.entries.order_by("seq")[1:]]
    assert subjects[0] == "Création de l'établissement" and "Attribution d'un rôle" in subjects
    with walk.step("verify_ledgers"):
        dayzero.verify_ledgers()
    walk.report()
