"""No sideways scrolling on an upright tablet (768 px), in every language and for every
seating of the standard rules: the game page (its sheet, tracker and checker), the deal
form and the correction log, with long names and big totals."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import VIEWPORTS, LiveServer
from playwright.sync_api import Browser, Page

from scorekeeper.rules import Cards, TeamTally
from scorekeeper.services import games
from scorekeeper.services.games import TeamSpec

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "de", "nl", "fr", "da")
# Every seating the standard rules allow (2 to 7 players).
SEATINGS = ((2, 1), (3, 1), (2, 2), (5, 1), (3, 2), (2, 3), (7, 1))
NAMES = ("Annemarie", "Maëlle", "Benedikt", "Christiane", "Dominique", "Friederike", "Gisela")

WIDEST_JS = """
() => {
  const wide = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (box.right > window.innerWidth + 0.5 && el.children.length === 0) {
      wide.push(`${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 30)}"`);
    }
  }
  return {scroll: document.documentElement.scrollWidth, width: window.innerWidth,
          wide: wide.slice(0, 5)};
}
"""


@pytest.fixture(scope="module")
def played(live_server: LiveServer) -> dict[str, int]:
    """A game of each seating, three deals in: everything a table sees during a game."""
    ids = {}
    with live_server.app.app_context():
        for teams, size in SEATINGS:
            specs = [TeamSpec("", list(NAMES[t * size : (t + 1) * size])) for t in range(teams)]
            game = games.start_game("standard", specs)
            out = TeamTally(
                clean_books=2, dirty_books=2, wild_books=1, melded=Cards(points=700), went_out=True
            )
            stay = TeamTally(clean_books=1, melded=Cards(points=300), left=Cards(points=55))
            for _ in range(3):
                games.record_deal(game.id, [out] + [stay] * (teams - 1))
            ids[f"{teams}x{size}"] = int(game.id)
    return ids


@pytest.fixture(scope="module", params=LANGUAGES)
def upright(
    request: pytest.FixtureRequest, browser: Browser, browser_context_args: dict[str, Any]
) -> Iterator[Page]:
    context = browser.new_context(
        **{**browser_context_args, "viewport": VIEWPORTS["portrait"]},
        extra_http_headers={"Accept-Language": request.param},
        service_workers="block",
    )
    yield context.new_page()
    context.close()


def test_no_page_of_a_game_scrolls_sideways(
    live_server: LiveServer, played: dict[str, int], upright: Page
) -> None:
    problems = []
    for seating, game_id in played.items():
        for url in (
            f"/games/{game_id}",
            f"/games/{game_id}/deals/new",
            f"/games/{game_id}/corrections",
        ):
            response = upright.goto(live_server(url))
            assert response is not None and response.status == 200, url
            size = upright.evaluate(WIDEST_JS)
            if size["scroll"] > size["width"]:
                problems.append(f"{seating} {url}: {size['scroll']} px wide, {size['wide']}")
    assert problems == []


def test_the_correct_buttons_keep_their_padding(
    live_server: LiveServer, played: dict[str, int], upright: Page
) -> None:
    """The standings' rule that pads links in row headers to a fingertip leaves buttons be."""
    upright.goto(live_server(f"/games/{played['2x2']}"))
    button = upright.locator(".deal-head .button").first
    padding = button.evaluate("b => parseFloat(getComputedStyle(b).paddingLeft)")
    assert padding >= 8


def test_a_long_season_name_does_not_push_the_seasons_list_sideways(
    live_server: LiveServer, upright: Page
) -> None:
    """A season name of 80 letters without a space breaks inside the name, as names do,
    instead of pushing the dates and games out of sight."""
    from scorekeeper.extensions import db
    from scorekeeper.models import Season
    from scorekeeper.services import players

    with live_server.app.app_context():
        if db.session.scalar(db.select(Season).filter_by(name="W" * 80)) is None:
            players.create_season("W" * 80)
    upright.goto(live_server("/seasons"))
    size = upright.evaluate(WIDEST_JS)
    assert size["scroll"] <= size["width"], size
    # Nor inside the list's own box: its dates and games stay on screen beside the name.
    wrap = upright.locator(".table-wrap").first
    inner, outer = wrap.evaluate("w => [w.scrollWidth, w.clientWidth]")
    assert inner <= outer, (inner, outer)
