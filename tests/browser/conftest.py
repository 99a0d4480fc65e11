"""Playwright driving Debian's Chromium (Playwright's own browser download cannot work here)."""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def browser():  # type: ignore[no-untyped-def]
    executable = shutil.which("chromium")
    if executable is None:
        if os.environ.get("PACG_REQUIRE_BROWSER") == "1":
            pytest.fail("chromium is not installed (apt-get install chromium)")
        pytest.skip("needs Debian's chromium (apt-get install chromium)")
    # Playwright's sync API runs its own event loop; Django must allow sync DB calls beside it.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server, bundled_cards):  # type: ignore[no-untyped-def]
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15000)
    # The tests wait with expect(locator), as long as the page's own waits: page.wait_for_function
    # evaluates its string with eval(), which the Content-Security-Policy rightly refuses.
    from playwright.sync_api import expect

    expect.set_options(timeout=15000)
    # Chromium reports what the Content-Security-Policy blocked on the console: a page whose
    # script or style was refused fails its test even if what the test checks still shows.
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    yield page
    context.close()
    refused = [text for text in console if "Content Security Policy" in text]
    assert not refused, refused


def log_in(page, username: str, then: str = "/") -> None:  # type: ignore[no-untyped-def]
    """Log in through the real form (UserFactory's password), landing on `then`."""
    page.goto(f"/accounts/login/?next={then}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "a-long-test-password")
    page.click("button:has-text('Log in')")
    page.wait_for_url(f"**{then}")
