"""The standings in a real Chromium: a row whose points came from many rules stays low, opens
by touch or keyboard, and prints every rules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import VIEWPORTS, LiveServer, going_out, start_server, staying
from playwright.sync_api import Browser, BrowserContext, expect

from scorekeeper.extensions import db
from scorekeeper.services import games, rulesets
from scorekeeper.services.games import TeamSpec

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def many_rules(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server of its own: its players played under four rules."""
    server = start_server(tmp_path_factory.mktemp("many-rules"))
    with server.app.app_context():
        for name in ("Monday", "Tuesday", "Wednesday"):
            house = rulesets.create_house_rules(name, "standard", {"deal_count": 1})
            game = games.start_game(
                house.slug, [TeamSpec("", ["Bo", "Els"]), TeamSpec("", ["Jo", "Ty"])]
            )
            games.record_deal(int(game.id), [going_out(), staying()])
    yield server
    server.stop()
    with server.app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def tablet(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[BrowserContext]:
    context = browser.new_context(
        **{**browser_context_args, "viewport": VIEWPORTS["portrait"]}, service_workers="block"
    )
    yield context
    context.close()


def test_the_other_rules_open_by_keyboard_and_all_of_them_print(
    many_rules: LiveServer, tablet: BrowserContext
) -> None:
    page = tablet.new_page()
    page.goto(many_rules("/standings"))
    row = page.locator("#players-play tbody tr").filter(has_text="Bo").first
    others = row.locator("details.rules-more")
    expect(others.locator("summary")).to_contain_text("and 3 other rules")
    expect(others.locator(".rules-list")).to_be_hidden()
    height = row.bounding_box()
    assert height is not None and height["height"] < 130, height

    others.locator("summary").focus()
    page.keyboard.press("Enter")
    expect(others.locator(".rules-list")).to_be_visible()
    expect(others.locator(".rules-list li")).to_have_count(3)
    page.keyboard.press("Enter")
    expect(others.locator(".rules-list")).to_be_hidden()

    # Printing opens every closed list, and closes it again after.
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    expect(page.locator("details.rules-more:not([open])")).to_have_count(0)
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    expect(others.locator(".rules-list")).to_be_hidden()


def test_the_rating_charts_last_date_is_not_cut_off(
    many_rules: LiveServer, browser: Browser, browser_context_args: dict[str, Any]
) -> None:
    """The x axis of a player's rating chart ends on a date ("03/12/2026" in French): the
    chart leaves room for half of it past the last tick."""
    from scorekeeper.models import Player

    with many_rules.app.app_context():
        bo = db.session.scalar(db.select(Player.id).filter_by(name="Bo"))
    for language in ("fr", "nl", "da", "en"):
        context = browser.new_context(
            **{**browser_context_args, "viewport": VIEWPORTS["portrait"]},
            extra_http_headers={"Accept-Language": language},
            service_workers="block",
        )
        page = context.new_page()
        page.goto(many_rules(f"/players/{bo}"))
        overflow = page.evaluate(
            """language => [...document.querySelectorAll("svg")].flatMap(svg => {
                const frame = svg.getBoundingClientRect();
                return [...svg.querySelectorAll(".x-axis text")]
                    .map(t => t.getBoundingClientRect())
                    .filter(b => b.right > frame.right + 0.5 || b.left < frame.left - 0.5)
                    .map(b => [language, b.left, b.right, frame.left, frame.right]);
            })""",
            language,
        )
        context.close()
        assert overflow == [], overflow
