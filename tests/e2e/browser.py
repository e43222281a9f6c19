"""What the browser tests of the demo share: a signed-in page at a screen size, the check every
page visited passes (it fits the screen's width, axe-core finds nothing serious or critical on
it), and the home's groups.

``E2E_SCREENSHOTS=<dir>`` saves each role's home at each size."""

import os
import shutil
from pathlib import Path

import pytest

from ledgers.core.demo import DEMO_PASSWORD, demo_username

CHROMIUM = "/usr/bin/chromium"
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
VIEWPORTS = {"desktop": (1366, 900), "phone": (390, 844), "tablet": (1024, 768)}
SIZES = ("desktop", "phone")  # every role; the floor roles working at a tablet have "tablet" too

MARKS = [
    pytest.mark.e2e,
    pytest.mark.postgresql,
    pytest.mark.skipif(
        not shutil.which(CHROMIUM) and not os.environ.get("CI"),
        reason=f"no Chromium at {CHROMIUM} (apt-get install chromium); CI always runs this test",
    ),
]


def screenshot(page, name: str) -> None:
    shots = os.environ.get("E2E_SCREENSHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{shots}/{name}.png", full_page=True)


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
    """The home of the demo user ``role`` of casino ``code``, signed in on a ``size`` screen."""
    width, height = VIEWPORTS[size]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR")
    context.set_default_timeout(120_000)  # a loaded machine serves slowly; nothing here is timed
    page = context.new_page()
    page.goto(demo_url + "/connexion/")
    page.fill("#id_username", demo_username(code, role))
    page.fill("#id_password", DEMO_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(demo_url + "/")
    screenshot(page, f"{role}.{code}-{size}")
    return page


def open_group(page, title: str):
    """Open the home's line for ``title`` (a <details>) if it is closed."""
    group = page.locator("details.queue-group", has=page.locator(f"summary:has-text('{title}')"))
    if group.get_attribute("open") is None:
        group.locator("summary").click()
    return group


def open_kind(group, has):
    """Open, within a home's line, the register kind's line holding ``has`` if it is closed."""
    kind = group.locator("details.kind-group", has=has).first
    if kind.get_attribute("open") is None:
        kind.locator("summary").click()
    return kind
