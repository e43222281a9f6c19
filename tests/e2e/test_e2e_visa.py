"""In a real browser: an SCJ agent signs in, opens the main courante, signs a visa with
re-authentication and finds it in the register."""

import re

import pytest
from django.urls import reverse

from ledgers.registers.models import EntryKind
from tests.factories import DEFAULT_PASSWORD
from tests.registers.ui_setup import main_courante, monaco_cast

from .browser import MARKS, open_group, open_kind

pytestmark = MARKS


@pytest.fixture
def browser_page(browser):
    return browser.new_page(locale="fr-FR")


def test_scj_agent_signs_a_visa_in_the_browser(live_server, mc, user_in, browser_page):
    cast = monaco_cast(mc, user_in)
    register = main_courante(mc, cast, entries=6)
    page = browser_page

    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", cast.visa.username)
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(live_server.url + "/")
    assert "Registres à viser ou à coter et parapher" in page.content()

    group = open_group(page, "Registres à viser ou à coter et parapher")
    open_kind(group, page.locator(f"text={register.number}")).locator(f"text={register.number}").click()
    page.wait_for_url(f"**/registres/{register.number}/")
    page.click("text=Viser")
    assert page.input_value("#id_up_to_seq") == "7"
    # What the visa signs is shown before the password: the entries and the head's digest.
    covered = page.locator("table.covered tbody tr")
    assert covered.count() == 7 and register.head_hash in page.content()

    page.fill("#id_up_to_seq", "5")
    page.fill("#id_statement", "Vu lors du contrôle inopiné.")
    page.fill("#id_password", "pas le bon")
    page.click("main button[type=submit]")
    page.wait_for_selector("text=Mot de passe incorrect")  # the form first asks whether a passkey signs
    assert page.input_value("#id_statement") == "Vu lors du contrôle inopiné."

    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("main button[type=submit]")
    # Back on the register, on the page that ends with the visa.
    page.wait_for_url(re.compile(rf"/registres/{register.number}/\?before=9#e8$"))
    visa_row = page.locator("tr.visa")
    assert "Vu lors du contrôle inopiné." in visa_row.inner_text() and "1 à 5" in visa_row.inner_text()
    assert "Visa enregistré." in page.content()

    visa = register.entries.get(kind=EntryKind.VISA)
    assert visa.actor_user == cast.visa and visa.payload["covers_seq"] == 5
