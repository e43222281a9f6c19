import pytest

from .browser import CHROMIUM


@pytest.fixture
def browser(monkeypatch):
    """A headless Chromium driven by Playwright."""
    # Playwright's sync API runs an event loop in this thread; the ORM calls of the test are not async.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        )
        yield browser
        browser.close()
