"""The new-game form in a real Chromium: the first dealer is chosen by name as soon as the
names are typed, and without JavaScript by seat."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import VIEWPORTS, LiveServer
from playwright.sync_api import Browser, BrowserContext, expect

pytestmark = pytest.mark.browser

SEATS = [
    "Seat 1: team 1, player 1",
    "Seat 2: team 2, player 1",
    "Seat 3: team 1, player 2",
    "Seat 4: team 2, player 2",
]


@pytest.fixture
def tablet(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[BrowserContext]:
    context = browser.new_context(
        **{**browser_context_args, "viewport": VIEWPORTS["portrait"]}, service_workers="block"
    )
    yield context
    context.close()


def test_the_first_dealer_is_chosen_by_the_names_typed(
    live_server: LiveServer, tablet: BrowserContext
) -> None:
    page = tablet.new_page()
    page.goto(live_server("/games/new"))
    dealers = page.locator("#first_dealer option")
    expect(dealers).to_have_text(SEATS)

    # Renamed key by key, while the name is typed; the seats still empty keep their place.
    page.locator("#t0-p0").press_sequentially("Ki")
    expect(dealers.nth(0)).to_have_text("Seat 1: Ki, team 1")
    page.locator("#t0-p0").press_sequentially("m")
    page.locator("#t1-p0").fill("Max & $& Co")  # no replacement pattern in a name
    page.locator("#t0-p1").fill("  Lou ")
    expect(dealers).to_have_text(
        [
            "Seat 1: Kim, team 1",
            "Seat 2: Max & $& Co, team 2",
            "Seat 3: Lou, team 1",
            "Seat 4: team 2, player 2",
        ]
    )
    # A name taken back gives the seat its place again.
    page.locator("#t1-p0").fill("")
    expect(dealers.nth(1)).to_have_text(SEATS[1])

    # The choice is still the seat's number.
    page.locator("#t1-p0").fill("Nia")
    page.locator("#t1-p1").fill("Ola")
    page.locator("#first_dealer").select_option(label="Seat 3: Lou, team 1")
    assert page.locator("#first_dealer").input_value() == "2"


def test_without_javascript_the_seats_are_named_by_the_server(
    browser: Browser, browser_context_args: dict[str, Any], live_server: LiveServer
) -> None:
    """By their place at first; by their names once the form comes back with a problem."""
    context = browser.new_context(
        **browser_context_args, java_script_enabled=False, service_workers="block"
    )
    try:
        page = context.new_page()
        page.goto(live_server("/games/new"))
        for seat, name in (("t0-p0", "Pia"), ("t0-p1", "Rex"), ("t1-p0", "Sue")):
            page.locator(f"#{seat}").fill(name)
        dealers = page.locator("#first_dealer option")
        expect(dealers).to_have_text(SEATS)
        page.locator("#first_dealer").select_option("1")
        page.get_by_role("button", name="Start the game").click()

        expect(page.locator("#form-errors")).to_be_visible()  # a player is missing
        expect(dealers).to_have_text(
            [
                "Seat 1: Pia, team 1",
                "Seat 2: Sue, team 2",
                "Seat 3: Rex, team 1",
                "Seat 4: team 2, player 2",
            ]
        )
        expect(page.locator("#first_dealer")).to_have_value("1")
        page.locator("#t1-p1").fill("Tom")
        page.get_by_role("button", name="Start the game").click()
        expect(page.locator("dt", has_text="Dealer").locator("+ dd")).to_have_text("Sue")
    finally:
        context.close()
