"""Tablet layout in a real Chromium, upright and on its side: words stay whole in tables,
wide tables show that they scroll, and nothing at the table is squashed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from browser_support import VIEWPORTS, LiveServer, going_out, staying
from playwright.sync_api import Browser, Page
from test_pages_audit import OVERFLOW_JS
from test_table_browser import new_game

from scorekeeper.rules import Cards, TeamTally
from scorekeeper.services import games
from scorekeeper.services.games import TeamSpec

pytestmark = pytest.mark.browser

# Every word in the elements matching the selector that the browser laid out over more
# than one line (a word broken in its middle). Elements matching `names` are left out:
# a player's name may be 80 letters without a space and may break anywhere.
SPLIT_WORDS_JS = """
([selector, names]) => {
  const split = [];
  for (const root of document.querySelectorAll(selector)) {
    if (names && root.closest(names)) continue;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (names && node.parentElement.closest(names)) continue;
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set(
          [...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))
        );
        if (lines.size > 1) split.push(word[0]);
      }
    }
  }
  return split;
}
"""

# The tops of the lines an element's text was laid out on.
RECTS_JS = "e => [...e.getClientRects()].filter(r => r.width > 0).map(r => ({y: r.top}))"


@pytest.fixture(params=["portrait", "landscape"])
def viewport(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _tablet(
    viewport: str, browser: Browser, browser_context_args: dict[str, Any], locale: str
) -> Iterator[Page]:
    context = browser.new_context(
        **{**browser_context_args, "viewport": VIEWPORTS[viewport]},
        locale=locale,
        service_workers="block",
    )
    yield context.new_page()
    context.close()


@pytest.fixture
def german(viewport: str, browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    """A tablet whose browser asks for German, the language with the longest words."""
    yield from _tablet(viewport, browser, browser_context_args, "de")


def _corrected_game(server: LiveServer) -> int:
    """A game whose first deal was corrected in many fields, undone, and corrected again:
    a long log, its dates marked as undone, a longer team name."""
    game_id = new_game(server, ("Annemarie", "Benedikt", "Cid", "Dee"))
    out, stay = going_out(), staying()
    more = TeamTally(
        clean_books=3,
        dirty_books=4,
        wild_books=2,
        red_threes=2,
        melded=Cards(points=950),
        left=Cards(points=120),
        went_out=True,
    )
    other = TeamTally(
        clean_books=2, dirty_books=1, red_threes=1, melded=Cards(points=460), left=Cards(points=35)
    )
    with server.app.app_context():
        games.record_deal(game_id, [out, stay])
        deal = games.load_game(game_id).deals[0]
        games.correct_deal(game_id, 1, deal.version, [more, other])
        games.undo_last_correction(game_id)
        deal = games.load_game(game_id).deals[0]
        changed = replace(out, dirty_books=5)
        games.correct_deal(game_id, 1, deal.version, [changed, stay])
    return game_id


def test_the_correction_log_keeps_its_words_whole(live_server: LiveServer, german: Page) -> None:
    """'Gemischte Bücher', 'Ausgelegte Karten', 'Punkte' were cut as 'Gemischt / e'."""
    german.goto(live_server(f"/games/{_corrected_game(live_server)}/corrections"))
    assert german.get_by_role("cell", name="Gemischte Bücher").count() > 0
    split = german.evaluate(SPLIT_WORDS_JS, [".corrections th, .corrections td", ".name"])
    assert split == [], f"words broken across lines: {split}"
    size = german.evaluate(OVERFLOW_JS)
    assert size["scroll"] <= size["width"], size


def test_the_trackers_checkboxes_keep_their_size(live_server: LiveServer, german: Page) -> None:
    """On its side, the tracker's column squashed "We opened" ("Wir haben eröffnet") to a
    box 13 px wide beside its words."""
    german.goto(live_server(f"/games/{new_game(live_server)}"))
    boxes = german.locator(".tracker .choice input[type=checkbox]")
    assert boxes.count() >= 4
    for i in range(boxes.count()):
        box = boxes.nth(i).bounding_box()
        assert box is not None
        assert box["width"] >= 26 and abs(box["width"] - box["height"]) < 1, box
    split = german.evaluate(SPLIT_WORDS_JS, [".tracker", ""])
    assert split == [], f"words broken across lines: {split}"


@pytest.mark.parametrize("path", ["/standings", "/seasons/{season}"])
def test_wide_standings_show_that_they_scroll(
    path: str, viewport: str, live_server: LiveServer, german: Page
) -> None:
    """The tables are wider than a tablet: they scroll inside a labelled tab stop, the
    names stay in view, and the links above them are not stretched into tall boxes."""
    german.goto(live_server(path.format(**live_server.ids)))
    wraps = german.locator(".table-wrap:has(.standings-table)")
    assert wraps.count() >= 2
    for i in range(wraps.count()):
        wrap = wraps.nth(i)
        assert wrap.get_attribute("tabindex") == "0"
        caption = wrap.locator("caption").inner_text().strip()
        assert caption and wrap.get_attribute("role") == "region"
        assert german.get_by_role("region", name=caption).count() == 1
        wrap.focus()
        for _ in range(3):
            german.keyboard.press("ArrowRight")  # the arrow keys scroll the table
        german.wait_for_function("w => w.scrollLeft > 0", arg=wrap.element_handle())
        # At its right-hand end the names are still there, at the left edge.
        wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")
        name = wrap.locator("tbody th[scope=row]").first.bounding_box()
        edge = wrap.bounding_box()
        assert name and edge and abs(name["x"] - edge["x"]) < 1.5, (name, edge)
    for link in german.locator(".standings-nav > a").all():
        box = link.bounding_box()
        assert box and box["height"] < 70, box
    size = german.evaluate(OVERFLOW_JS)
    assert size["scroll"] <= size["width"], size


def test_long_names_do_not_widen_the_score_sheet(live_server: LiveServer, german: Page) -> None:
    """Team names of 40 letters without a space held the score sheet's columns at their
    full width (a stylesheet of the standings kept table headings from breaking inside a
    word): 1325 px on a tablet 768 px wide, and the whole page scrolled sideways."""
    names = [letter * 80 for letter in "KLMN"]
    with live_server.app.app_context():
        game = games.start_game(
            "standard",
            [TeamSpec("Q" * 40, names[:2]), TeamSpec("R" * 40, names[2:])],
        )
        game_id = int(game.id)
        games.record_deal(game_id, [going_out(), staying()])
    german.goto(live_server(f"/games/{game_id}"))
    assert german.get_by_role("columnheader", name="Q" * 40, exact=False).count() == 1
    size = german.evaluate(OVERFLOW_JS)
    assert size["scroll"] <= size["width"], size
    sheet = german.locator(".score-sheet").bounding_box()
    assert sheet and sheet["width"] <= size["width"], sheet


@pytest.fixture
def dutch(viewport: str, browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    """A tablet whose browser asks for Dutch, whose dates are written with hyphens."""
    yield from _tablet(viewport, browser, browser_context_args, "nl")


def test_dates_in_the_correction_log_stay_on_one_line(live_server: LiveServer, dutch: Page) -> None:
    """Dutch dates ("04-12-2026, 14:05") broke at their hyphens in the log's narrow column."""
    dutch.goto(live_server(f"/games/{_corrected_game(live_server)}/corrections"))
    split = dutch.evaluate(SPLIT_WORDS_JS, [".corrections td", ".name"])
    assert split == [], f"words broken across lines: {split}"
    dates = dutch.locator(".corrections time")
    assert dates.count() >= 4  # when each change was made, and when one was undone
    for i in range(dates.count()):
        assert dates.nth(i).get_attribute("datetime")
        assert len({round(r["y"]) for r in dates.nth(i).evaluate(RECTS_JS)}) == 1
