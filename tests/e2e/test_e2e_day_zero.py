"""In a real browser, from an empty database to a closed first séance of a Monaco house, with pages
alone: the platform's administrator creates the house and directs it; as director they create the
Commissaire du Gouvernement's account and invite them (the Commissaire chooses their own password
from the link, which nobody else sees), then create every register the house must open; the
Commissaire cotes and paraphs the main courante from their home; the director opens and closes the
first séance. ``verify_ledgers`` passes after it, and the register of authorisations holds every
act on the staff.

``E2E_SCREENSHOTS=<dir>`` saves each step."""

import io
import re
from urllib.parse import urlsplit

from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.urls import reverse

from ledgers.core.models import Establishment, Seance
from ledgers.registers.kinds import AUTHORISATIONS, MAIN_COURANTE
from ledgers.registers.models import Register
from tests.factories import DEFAULT_PASSWORD

from .browser import MARKS, check, screenshot

pytestmark = MARKS

OFFICIAL_PASSWORD = "Paraphe-du-Rocher-2026"


def sign_in(browser, url: str, username: str, password: str = DEFAULT_PASSWORD):
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="fr-FR")
    context.set_default_timeout(120_000)
    page = context.new_page()
    page.goto(url + reverse("login"))
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    return page


def submit(form) -> None:
    form.locator("button[type=submit]").last.click()
    form.page.wait_for_load_state()


def test_day_zero_of_a_monaco_house_to_its_closed_first_seance(live_server, browser):
    get_user_model().objects.create_superuser(
        username="admin", password=DEFAULT_PASSWORD, email="", first_name="Claire", last_name="Grimaldi"
    )
    visited: list[str] = []

    # The administrator creates the house and directs it.
    page = sign_in(browser, live_server.url, "admin")
    page.wait_for_url("**/etablissement/creation/")
    check(page, visited)
    page.fill("#id_code", "casino-mc")
    page.fill("#id_name", "Casino du Rocher")
    page.select_option("#id_jurisdiction", "MC")
    page.fill("#id_director", "admin")
    screenshot(page, "mc-01-creation")
    submit(page.locator("main form"))
    page.wait_for_selector("text=Établissement Casino du Rocher créé")
    est = Establishment.objects.get(code="casino-mc")

    # The director creates the Commissaire's account, with their name, and invites them.
    page.goto(live_server.url + reverse("staff"))
    check(page, visited)
    create = page.locator(f"main form[action='{reverse('staff')}']")
    create.locator("[name=username]").fill("commissaire")
    create.locator("[name=first_name]").fill("Louis")
    create.locator("[name=last_name]").fill("Notari")
    create.locator("[name=email]").fill("commissaire@gouv.mc")
    create.locator("[name=roles]").select_option("commissaire")
    submit(create)
    page.wait_for_selector("text=Notari")
    screenshot(page, "mc-02-personnel")
    invite = page.locator(f"main form[action='{reverse('staff-invite')}']")
    invite.locator("[name=person]").select_option(label="Louis Notari (commissaire)", force=True)
    submit(invite)
    (message,) = [message for message in mail.outbox if "commissaire@gouv.mc" in message.to]
    link = re.search(r"https?://\S+/invitation/\S+", message.body).group(0)

    # Every register the house must open, created in one act.
    page.goto(live_server.url + reverse("registers:to_open"))
    check(page, visited)
    screenshot(page, "mc-03-registres-a-ouvrir")
    page.goto(live_server.url + reverse("registers:to_open_create"))
    submit(page.locator("main form"))
    main_courante = Register.objects.get(establishment=est, kind=MAIN_COURANTE.code)
    assert main_courante.status == Register.Status.AWAITING_OPENING
    page.context.close()

    # The Commissaire chooses their password from the link, then cotes and paraphs the main courante.
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="fr-FR")
    context.set_default_timeout(120_000)
    page = context.new_page()
    page.goto(live_server.url + urlsplit(link).path)
    check(page, visited)
    page.fill("#id_new_password1", OFFICIAL_PASSWORD)
    page.fill("#id_new_password2", OFFICIAL_PASSWORD)
    screenshot(page, "mc-04-invitation")
    submit(page.locator("main form"))
    context.close()
    page = sign_in(browser, live_server.url, "commissaire", OFFICIAL_PASSWORD)
    check(page, visited)
    assert main_courante.number in page.content()  # the home lists what awaits the cote et paraphe
    page.goto(live_server.url + reverse("registers:open", args=[main_courante.number]))
    page.fill("#id_paraphe", "L.N.")
    page.fill("#id_password", OFFICIAL_PASSWORD)
    screenshot(page, "mc-05-cote-et-paraphe")
    submit(page.locator("main form"))
    page.wait_for_selector("text=Registre coté et paraphé.")
    main_courante.refresh_from_db()
    assert main_courante.status == Register.Status.OPEN
    page.context.close()

    # The director opens the first séance and closes it.
    page = sign_in(browser, live_server.url, "admin")
    page.goto(live_server.url + reverse("seances"))
    check(page, visited)
    page.fill("#id_date", est.localtime().date().isoformat())
    submit(page.locator("main form:has([name=period])"))
    screenshot(page, "mc-06-seance-ouverte")
    assert Seance.objects.filter(establishment=est).exists(), page.locator("main").inner_text()[:1500]
    seance = Seance.objects.get(establishment=est)
    page.goto(live_server.url + reverse("seance", args=[seance.pk]))
    check(page, visited)
    page.locator(f"form[action='{reverse('seance-close', args=[seance.pk])}'] button").click()
    page.wait_for_load_state()
    if page.locator("main form button[type=submit]").count():  # the closing page asks once
        submit(page.locator("main form"))
    screenshot(page, "mc-06-seance-close")
    seance.refresh_from_db()
    assert seance.status == Seance.Status.CLOSED

    page.context.close()

    # The set-up and staff pages the director used, on a phone: they fit and read as on a desk.
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR", is_mobile=True)
    phone.set_default_timeout(120_000)
    page = phone.new_page()
    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", "admin")
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    for name in ("setup", "staff", "staff-history", "registers:to_open", "takeover:list", "profile", "password-change"):
        page.goto(live_server.url + reverse(name))
        check(page, visited)
        screenshot(page, f"mc-phone-{name.replace(':', '-')}")
    phone.close()

    authorisations = Register.objects.get(establishment=est, kind=AUTHORISATIONS.code)
    subjects = [entry.payload.get("subject") for entry in authorisations.entries.order_by("seq")[1:]]
    assert subjects[0] == "Création de l'établissement" and "Attribution d'un rôle" in subjects
    out = io.StringIO()
    call_command("verify_ledgers", stdout=out)
    assert "ÉCHEC" not in out.getvalue()
