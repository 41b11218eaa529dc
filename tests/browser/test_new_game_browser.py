"""The new-game form in a real Chromium: the first dealer is chosen by name as soon as the
names are typed, and without JavaScript by seat."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import VIEWPORTS, LiveServer
from playwright.sync_api import Browser, BrowserContext, expect
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Game

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


def test_choosing_other_rules_sets_the_table_at_once_and_keeps_the_names(
    live_server: LiveServer, tablet: BrowserContext
) -> None:
    """The game starts with the rules the list shows, even when "Set the table" was not
    pressed, and nothing typed is lost on the way."""
    page = tablet.new_page()
    page.goto(live_server("/games/new"))
    expect(page.locator("[data-sets-the-table]")).to_be_visible()
    for box, name in (("t0-p0", "Ann"), ("t0-p1", "Ben"), ("t1-p0", "Cid"), ("t1-p1", "Dee")):
        page.locator(f"#{box}").fill(name)
    page.locator("#t1-name").fill("The Foxes")
    page.locator("#season").select_option("")

    page.locator("#choose-ruleset").select_option("no-wild-books")
    page.wait_for_url("**ruleset=no-wild-books**")
    expect(page.locator("#players")).to_contain_text("Easier going out (no wild books)")
    for box, name in (("t0-p0", "Ann"), ("t0-p1", "Ben"), ("t1-p0", "Cid"), ("t1-p1", "Dee")):
        expect(page.locator(f"#{box}")).to_have_value(name)
    expect(page.locator("#t1-name")).to_have_value("The Foxes")
    expect(page.locator("#choose-ruleset")).to_be_focused()  # the keyboard where it was

    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/start")
    with live_server.app.app_context():
        game = db.session.scalars(select(Game).order_by(Game.id.desc())).first()
        assert game is not None
        assert game.ruleset_id == "no-wild-books"
        assert [team.name for team in game.teams][1] == "The Foxes"


def test_other_seats_take_the_names_in_the_order_they_were_typed(
    live_server: LiveServer, tablet: BrowserContext
) -> None:
    page = tablet.new_page()
    page.goto(live_server("/games/new"))
    for box, name in (("t0-p0", "Ann"), ("t0-p1", "Ben"), ("t1-p0", "Cid"), ("t1-p1", "Dee")):
        page.locator(f"#{box}").fill(name)
    page.locator("#t0-name").fill("Foxes")  # a team that is no more once all play alone
    page.locator("#choose-seating").select_option("3x1")  # three players alone
    page.wait_for_url("**seating=3x1**")
    expect(page.locator("#choose-seating")).to_be_focused()
    for box, name in (("t0-p0", "Ann"), ("t1-p0", "Ben"), ("t2-p0", "Cid")):
        expect(page.locator(f"#{box}")).to_have_value(name)
    expect(page.locator("#t0-p1")).to_have_count(0)  # no fourth seat for Dee
    expect(page.locator("#t0-name")).to_have_count(0)  # Ann is not called "Foxes"
    expect(page.locator("#left-out")).to_have_text(
        "No seat at this table for Dee: choose more players above to seat them again."
    )
    # A fourth seat again: Dee is back where she was, nobody is left out.
    page.locator("#choose-seating").select_option("2x2")
    page.wait_for_url("**seating=2x2**")
    for box, name in (("t0-p0", "Ann"), ("t0-p1", "Ben"), ("t1-p0", "Cid"), ("t1-p1", "Dee")):
        expect(page.locator(f"#{box}")).to_have_value(name)
    expect(page.locator("#left-out")).to_have_count(0)


def test_stepping_through_the_rules_with_the_keyboard_sets_the_table_once(
    live_server: LiveServer, tablet: BrowserContext
) -> None:
    """Arrow keys change a list at every step: the table is set when the choice is made
    (Enter, or leaving the list), not at each step on the way."""
    page = tablet.new_page()
    page.goto(live_server("/games/new"))
    rules = page.eval_on_selector_all("#choose-ruleset option", "all => all.map(o => o.value)")
    assert len(rules) >= 4
    page.locator("#t0-p0").fill("Ann")
    page.evaluate("window.stillHere = true")
    page.locator("#choose-ruleset").focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#choose-ruleset")).to_have_value(rules[2])
    assert page.evaluate("window.stillHere === true")  # not sent at each step
    page.keyboard.press("Enter")
    page.wait_for_url(f"**ruleset={rules[2]}**")
    expect(page.locator("#choose-ruleset")).to_be_focused()
    expect(page.locator("#t0-p0")).to_have_value("Ann")

    # Stepped on once more and left with Tab: the table is set, the keyboard goes on.
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Tab")
    page.wait_for_url(f"**ruleset={rules[3]}**")
    expect(page.locator("#choose-seating")).to_be_focused()
    expect(page.locator("#t0-p0")).to_have_value("Ann")
    # On to the button beside the lists: the keyboard lands on it.
    seats = page.eval_on_selector_all("#choose-seating option", "all => all.map(o => o.value)")
    after = seats[seats.index(page.locator("#choose-seating").input_value()) + 1]
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Tab")
    page.wait_for_url(f"**seating={after}**")
    expect(page.locator("#set-the-table")).to_be_focused()
    # Back out of the form (Shift+Tab to the page's header): the keyboard comes back to the
    # list rather than to nothing.
    page.locator("#choose-ruleset").focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Shift+Tab")
    page.wait_for_url(f"**ruleset={rules[2]}**")
    expect(page.locator("#choose-ruleset")).to_be_focused()
