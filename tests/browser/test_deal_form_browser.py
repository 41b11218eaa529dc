"""The deal form by keyboard, in a real Chromium: no field disappears under the sticky
score bar."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import VIEWPORTS, LiveServer
from playwright.sync_api import Browser, Page, expect
from test_table_browser import new_game

pytestmark = pytest.mark.browser

RING = 6

# Where the focused control and the score bar are on the screen, or null once the focus
# has left the deal form.
FOCUS_JS = """
() => {
  const el = document.activeElement;
  if (!el || !el.closest("#deal-form")) return null;
  const box = el.getBoundingClientRect();
  const bar = document.querySelector("#deal-preview").getBoundingClientRect();
  const name = el.id || el.getAttribute("aria-label") || el.textContent.trim().slice(0, 30);
  return {
    name: `${el.tagName.toLowerCase()} ${name}`,
    top: box.top, bottom: box.bottom, left: box.left, right: box.right,
    barTop: bar.top, barBottom: bar.bottom, barLeft: bar.left, barRight: bar.right,
  };
}
"""


@pytest.fixture(params=["portrait", "landscape"])
def page(
    request: pytest.FixtureRequest, browser: Browser, browser_context_args: dict[str, Any]
) -> Iterator[Page]:
    """A fresh tablet (no unsaved draft in its storage), upright and on its side."""
    context = browser.new_context(
        **{**browser_context_args, "viewport": VIEWPORTS[request.param]}, service_workers="block"
    )
    yield context.new_page()
    context.close()


def _hidden_under_the_bar(page: Page) -> tuple[int, list[str]]:
    """Tab from the first control to the last; each one the bar covers, even partly."""
    page.locator("#went_out-0").focus()  # the first control
    reached, hidden = 0, []
    height = page.viewport_size["height"] if page.viewport_size else 0
    while (at := page.evaluate(FOCUS_JS)) is not None:
        reached += 1
        # The focus ring too: a 3 px outline, 3 px off the control (app.css).
        overlaps = (
            at["top"] - RING < at["barBottom"]
            and at["bottom"] + RING > at["barTop"]
            and at["left"] - RING < at["barRight"]
            and at["right"] + RING > at["barLeft"]
        )
        if overlaps or at["top"] < 0 or at["bottom"] > height + 0.5:
            hidden.append(
                f"{at['name']}: {at['top']:.0f}-{at['bottom']:.0f}, "
                f"bar {at['barTop']:.0f}-{at['barBottom']:.0f}"
            )
        page.keyboard.press("Tab")
    return reached, hidden


def test_tabbing_never_hides_a_field_under_the_score_bar(
    live_server: LiveServer, page: Page
) -> None:
    page.goto(live_server(f"/games/{new_game(live_server)}/deals/new"))
    bar = page.locator("#deal-preview")
    expect(bar).to_be_visible()
    expect(page.locator("button.step").first).to_be_visible()  # table.js has run
    # The cards counted by kind as well, so every control of the form is on the way.
    page.evaluate("document.querySelectorAll('#deal-form details').forEach(d => d.open = true)")

    reached, hidden = _hidden_under_the_bar(page)
    assert reached > 40, f"only {reached} controls reached by the Tab key"
    assert hidden == [], "\n".join(hidden)

    # A taller bar (a problem listed in it) pushes the fields up just as far.
    page.locator('label[for="went_out-1"]').tap()
    page.locator("#t1-clean_books").fill("0")
    expect(page.locator("[data-problems]")).not_to_be_empty()
    reached, hidden = _hidden_under_the_bar(page)
    assert hidden == [], "\n".join(hidden)
