"""German, with its long words (and Dutch, French, Danish), at a portrait tablet's 768 px:
nothing scrolls sideways and every control stays a fingertip's size. The language switch
works in a real browser."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import SCREENSHOTS, VIEWPORTS, LiveServer
from playwright.sync_api import Browser, Page
from test_pages_audit import OVERFLOW_JS, PAGES, STATUS, TOUCH_TARGETS_JS

pytestmark = pytest.mark.browser

# The pages with the most and the longest words, and the forms with the longest labels.
WORDY_PAGES = [
    "home",
    "rules-standard",
    "house-rules-new",
    "games-new",
    "game",
    "deal-new",
    "corrections",
    "season",
    "standings",
    "player",
]


@pytest.fixture(scope="module", params=["de", "nl", "fr", "da"])
def tablet(
    request: pytest.FixtureRequest, browser: Browser, browser_context_args: dict[str, Any]
) -> Iterator[tuple[str, Page]]:
    """A portrait tablet whose browser asks for the language first."""
    lang: str = request.param
    context = browser.new_context(
        **{**browser_context_args, "viewport": VIEWPORTS["portrait"]},
        locale=lang,
        service_workers="block",
    )
    yield lang, context.new_page()
    context.close()


@pytest.mark.parametrize("name", WORDY_PAGES)
def test_each_language_fits_a_portrait_tablet(
    name: str, live_server: LiveServer, tablet: tuple[str, Page]
) -> None:
    """German has the longest words; Dutch, French and Danish must fit as well."""
    lang, page = tablet
    response = page.goto(live_server(PAGES[name].format(**live_server.ids)))
    assert response is not None and response.status == STATUS.get(name, 200)
    assert page.evaluate("document.documentElement.lang") == lang
    size = page.evaluate(OVERFLOW_JS)
    assert size["scroll"] <= size["width"], f"scrolls sideways: {size}"
    assert page.evaluate(TOUCH_TARGETS_JS) == []
    page.screenshot(path=SCREENSHOTS / f"{lang}-{name}-768x1024.png", full_page=True)


def test_switching_language_by_tapping_is_remembered(
    browser: Browser, browser_context_args: dict[str, Any], live_server: LiveServer
) -> None:
    context = browser.new_context(**browser_context_args, locale="en-GB", service_workers="block")
    page = context.new_page()
    try:
        page.goto(live_server("/rules/standard"))
        assert page.evaluate("document.documentElement.lang") == "en"
        with page.expect_navigation():
            page.get_by_role("navigation", name="Language").get_by_role("link", name="Dansk").tap()
        assert page.url == live_server("/rules/standard")
        assert page.evaluate("document.documentElement.lang") == "da"
        assert page.get_by_role("heading", level=1).inner_text() == "Standard med makkere"
        # Another page, later: still Danish although the browser asks for English.
        page.goto(live_server("/games"))
        assert page.evaluate("document.documentElement.lang") == "da"
        current = page.get_by_role("navigation", name="Sprog").get_by_role("link", name="Dansk")
        assert current.get_attribute("aria-current") == "true"
    finally:
        context.close()
