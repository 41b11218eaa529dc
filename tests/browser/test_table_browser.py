"""At the table, in a real Chromium: taps counted, a whole game played by tapping, the deal
tracker, the opening-meld checker, an unsaved deal surviving a reload, two tablets at once."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urljoin

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_support import SCREENSHOTS, VIEWPORTS, LiveServer, table_js_ran
from playwright.sync_api import (
    APIResponse,
    Browser,
    BrowserContext,
    Locator,
    Page,
    Route,
    expect,
)
from playwright.sync_api import Error as PlaywrightError

from scorekeeper.rules import Cards, TeamTally
from scorekeeper.services import games, rulesets
from scorekeeper.services.games import TeamSpec

pytestmark = pytest.mark.browser

AXE_SCRIPT = Axe().axe_script
WCAG = '{"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}'


class Taps:
    """Drives the page as a player would, counting every tap and every keystroke."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def tap(self, target: Locator) -> None:
        target.tap()
        self.count += 1

    def follow(self, link: Locator) -> None:
        """Tap a link, as :func:`follow` does."""
        follow(link)
        self.count += 1

    def type(self, target: Locator, text: str) -> None:
        """Tap the box, then type: one tap plus one keystroke per character."""
        self.tap(target)
        self.page.keyboard.type(text)
        self.count += len(text)


def follow(link: Locator) -> None:
    """Tap a link and wait until the page it opens has loaded.

    The pages' scripts are deferred: a tap made as soon as the new page is shown can beat
    them, and what they do (filling in the books of a team going out) would not happen.
    """
    page = link.page
    target = urljoin(page.url, link.get_attribute("href") or "")
    link.tap()
    page.wait_for_url(target, wait_until="load")


def new_game(
    server: LiveServer, names: tuple[str, str, str, str] = ("Ann", "Ben", "Cid", "Dee")
) -> int:
    with server.app.app_context():
        game = games.start_game(
            "standard",
            [TeamSpec("", list(names[:2])), TeamSpec("", list(names[2:]))],
        )
        return int(game.id)


def record(server: LiveServer, game_id: int, melded: int = 300) -> None:
    """A deal saved by another tablet (straight through the service)."""
    out = TeamTally(
        clean_books=2, dirty_books=2, wild_books=1, melded=Cards(points=750), went_out=True
    )
    stay = TeamTally(clean_books=1, melded=Cards(points=melded), left=Cards(points=100))
    with server.app.app_context():
        games.record_deal(game_id, [out, stay])


@pytest.fixture
def tablet(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[BrowserContext]:
    """A portrait tablet with the app's real CSP."""
    context = browser.new_context(
        **{**browser_context_args, "viewport": VIEWPORTS["portrait"]}, service_workers="block"
    )
    yield context
    context.close()


def in_view(page: Page, target: Locator) -> bool:
    box = target.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def test_the_german_example_takes_at_most_20_taps(
    live_server: LiveServer, tablet: BrowserContext
) -> None:
    """RULES.md's worked example, 3855 / 615, from the game page, counted."""
    game_id = new_game(live_server)
    page = tablet.new_page()
    page.goto(live_server(f"/games/{game_id}"))
    taps = Taps(page)

    taps.follow(page.get_by_role("link", name="Enter deal 1"))
    # Team 1 went out: the books going out needs (2 clean, 2 dirty, 1 wild) fill in.
    taps.tap(page.locator('label[for="went_out-0"]'))
    expect(page.locator("#t0-clean_books")).to_have_value("2")
    expect(page.locator("#t0-wild_books")).to_have_value("1")
    taps.tap(page.get_by_role("button", name="One more: Red threes laid").first)
    taps.type(page.locator("#t0-melded"), "555")
    taps.tap(page.get_by_role("button", name="One more: Clean books").nth(1))
    taps.tap(page.get_by_role("button", name="One more: Red threes laid").nth(1))
    taps.type(page.locator("#t1-melded"), "220")
    taps.type(page.locator("#t1-left"), "205")

    totals = page.locator("[data-new-total]")
    expect(totals.nth(0)).to_have_text("3855")
    expect(totals.nth(1)).to_have_text("615")
    # Both new totals are on screen where the last tap left the page: no scrolling needed.
    assert in_view(page, totals.nth(0)) and in_view(page, totals.nth(1))
    page.screenshot(path=SCREENSHOTS / "table-german-example-768x1024.png")

    taps.tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".standing-card .totals")).to_contain_text("3855")
    expect(page.locator(".standing-card .totals")).to_contain_text("615")
    assert taps.count <= 20, f"{taps.count} taps and keystrokes"


def test_the_tracker_and_checker_answer_while_the_deal_is_played(
    live_server: LiveServer, tablet: BrowserContext
) -> None:
    game_id = new_game(live_server)
    page = tablet.new_page()
    page.goto(live_server(f"/games/{game_id}"))
    tracker = page.locator("#tracker")
    expect(tracker).to_be_visible()
    team = tracker.locator('.tracker-team[data-team="0"]')
    status = team.locator("[data-go-out]")
    # Before anything: what going out needs, from the server.
    expect(status).to_contain_text("2 clean, 2 dirty and 1 wild book to go")

    team.get_by_label("We opened").check()
    team.get_by_label("Opening meld (points)").fill("40")
    expect(team.locator("[data-opening-status]")).to_contain_text("Not enough: 40 points")
    team.get_by_label("Opening meld (points)").fill("60")
    expect(team.locator("[data-opening-status]")).to_contain_text("Enough: 60 points")
    # Points no cards count (on the way to 120) replace the last verdict, never keep it.
    team.get_by_label("Opening meld (points)").fill("12")
    expect(team.locator("[data-opening-status]")).to_have_text(
        "No opening counts 12 points: every card counts a multiple of 5."
    )
    expect(team.locator("[data-opening-status]")).not_to_have_class(re.compile(r"\benough\b"))
    # Beyond any opening's bounds (a 400): said, not the last verdict either.
    team.get_by_label("Opening meld (points)").fill("60")
    expect(team.locator("[data-opening-status]")).to_contain_text("Enough: 60 points")
    team.get_by_label("Opening meld (points)").fill("50000")
    expect(team.locator("[data-opening-status]")).not_to_contain_text("Enough")
    expect(team.locator("[data-opening-status]")).to_have_text(
        "Opening meld (points): from 0 to 5000, not 50000."
    )
    team.get_by_label("Opening meld (points)").fill("60")
    expect(team.locator("[data-opening-status]")).to_contain_text("Enough: 60 points")

    for name, times in (("Clean books", 2), ("Dirty books", 1), ("Wild books", 1)):
        for _ in range(times):
            team.get_by_role("button", name=f"One more: {name}").tap()
    expect(status).to_contain_text("1 dirty book to go")
    expect(status).to_contain_text("2 players still have to play from the foot")
    team.get_by_role("button", name="One more: Dirty books").tap()
    team.get_by_label("Ann", exact=True).check()
    team.get_by_label("Ben", exact=True).check()
    expect(status).to_have_text("Ready to go out (ask the partner first).")

    # The opening-meld checker: the seeds' example A A joker in deal 1.
    checker = page.locator("#opening-checker")
    checker.locator("summary").tap()
    for rank in ("A", "A", "Joker"):
        checker.locator(f'button.card-key[data-rank="{rank}"]').tap()
    expect(checker.locator("[data-verdict]")).to_contain_text("Enough: 90 points")
    checker.get_by_role("button", name="Take back the last card").tap()
    # Two aces are worth 40 points but make no meld.
    expect(checker.locator("[data-verdict]")).to_contain_text(
        "no melds yet. These cards, 40 points"
    )
    # With a pickup: the first card is the top discard, the rest come from the hand.
    checker.get_by_label("Opening with a pickup of the discard pile").check()
    expect(checker.locator("[data-picked]")).to_have_text("Top discard: A; from the hand: A")
    # A pickup needs two aces from the hand beside the top one: A A is short of that.
    expect(checker.locator("[data-verdict]")).to_contain_text(
        "picking up the discard pile needs two natural cards of the top discard's rank"
    )
    checker.locator('button.card-key[data-rank="A"]').tap()
    expect(checker.locator("[data-verdict]")).to_contain_text("Enough: 60 points")
    checker.get_by_label("Opening with a pickup of the discard pile").uncheck()
    # K Q J 10 9 are worth 50 points, but five ranks make no meld; K K K and a 2 do.
    checker.get_by_role("button", name="Clear", exact=True).tap()
    for rank in ("K", "Q", "J", "10", "9"):
        checker.locator(f'button.card-key[data-rank="{rank}"]').tap()
    expect(checker.locator("[data-picked]")).to_have_text("K Q J 10 9")
    expect(checker.locator("[data-verdict]")).to_contain_text(
        "no melds yet. These cards, 50 points"
    )
    checker.get_by_role("button", name="Clear", exact=True).tap()
    for rank in ("K", "K", "K", "2"):
        checker.locator(f'button.card-key[data-rank="{rank}"]').tap()
    expect(checker.locator("[data-verdict]")).to_contain_text("Enough: 50 points")
    # A joker on top of the pile is picked up with two more jokers (seed 003), into a wild book.
    checker.get_by_role("button", name="Clear", exact=True).tap()
    checker.get_by_label("Opening with a pickup of the discard pile").check()
    for rank in ("Joker", "Joker", "2"):
        checker.locator(f'button.card-key[data-rank="{rank}"]').tap()
    expect(checker.locator("[data-verdict]")).to_contain_text(
        "picking up a wild card from the discard pile needs two more of the same"
    )
    checker.get_by_role("button", name="Take back the last card").tap()
    checker.locator('button.card-key[data-rank="Joker"]').tap()
    expect(checker.locator("[data-verdict]")).to_contain_text("Enough: 150 points")
    checker.get_by_label("Opening with a pickup of the discard pile").uncheck()

    page.evaluate(AXE_SCRIPT)
    violations = page.evaluate(f"axe.run(document, {WCAG})")["violations"]
    assert violations == [], violations
    page.screenshot(path=SCREENSHOTS / "table-tracker-768x1024.png", full_page=True)

    # What was ticked survives a reload, and fills in the deal form.
    page.reload()
    expect(status).to_have_text("Ready to go out (ask the partner first).")
    follow(page.get_by_role("link", name="Enter deal 1"))
    expect(page.locator("#restored")).to_contain_text("Filled in from the deal tracker")
    expect(page.locator("#t0-clean_books")).to_have_value("2")
    expect(page.locator("#t0-dirty_books")).to_have_value("2")
    expect(page.locator("#t0-opening_meld")).to_have_value("60")


def test_the_checker_shows_the_answer_to_the_latest_cards_in_whatever_order_answers_come(
    live_server: LiveServer, tablet: BrowserContext
) -> None:
    """On a slow network an answer can arrive after the answer to a later question: the
    verdict stays the one about the cards now picked, and no answer at all clears it."""
    game_id = new_game(live_server)
    page = tablet.new_page()
    page.goto(live_server(f"/games/{game_id}"))
    checker = page.locator("#opening-checker")
    verdict = checker.locator("[data-verdict]")
    checker.locator("summary").tap()
    held: list[tuple[Route, APIResponse]] = []

    def hold_the_first(route: Route) -> None:
        if held:
            route.continue_()
        else:  # the real answer about one ace, kept back
            held.append((route, route.fetch()))

    page.route("**/api/opening", hold_the_first)
    for _ in range(3):
        checker.locator('button.card-key[data-rank="A"]').tap()
    expect(verdict).to_contain_text("Enough: 60 points")
    route, answer = held[0]
    with page.expect_response("**/api/opening") as late:
        route.fulfill(response=answer)
    assert late.value.json()["enough"] is False  # the answer about one ace alone
    page.wait_for_timeout(300)  # time for the page to take the late answer in
    expect(verdict).to_contain_text("Enough: 60 points")
    expect(verdict).to_have_class(re.compile(r"\benough\b"))

    # No answer (the server out of reach): no verdict, never the one about other cards.
    page.unroute("**/api/opening")
    page.route("**/api/opening", lambda route: route.abort())
    checker.get_by_role("button", name="Take back the last card").tap()
    expect(verdict).to_have_text("")
    expect(verdict).not_to_have_class(re.compile(r"\benough\b"))


def test_the_tracker_counts_a_black_three_book_as_a_clean_book(
    live_server: LiveServer, tablet: BrowserContext
) -> None:
    """Brouillette (seed 003): a black-three book is a clean meld, one of the clean books
    going out needs; the tracker counts it and fills it in on the deal form."""
    with live_server.app.app_context():
        # Three players, four decks: eight black 3s, enough for a book of seven.
        seats = [TeamSpec("", [name]) for name in ("Ann", "Ben", "Cid")]
        game_id = int(games.start_game("brouillette", seats).id)
    page = tablet.new_page()
    page.goto(live_server(f"/games/{game_id}"))
    team = page.locator('#tracker .tracker-team[data-team="0"]')
    status = team.locator("[data-go-out]")
    expect(status).to_contain_text("1 clean and 1 dirty book to go")
    team.get_by_role("button", name="One more: Dirty books").tap()
    team.get_by_role("button", name="One more: Black-three books").tap()
    # One meld of each rank: one black-three book at most.
    expect(team.get_by_label("Black-three books", exact=True)).to_have_attribute("max", "1")
    team.get_by_label("Ann", exact=True).check()
    expect(status).to_have_text(re.compile(r"^Ready to go out"))
    follow(page.get_by_role("link", name="Enter deal 1"))
    expect(page.locator("#t0-black_three_books")).to_have_value("1")
    expect(page.locator("#t0-dirty_books")).to_have_value("1")
    expect(page.locator("#t0-clean_books")).to_have_value("")
    # Ann went out: the black-three book stands for the clean book, none is added.
    page.locator('label[for="went_out-0"]').tap()
    expect(page.locator("#t0-clean_books")).to_have_value("")
    # The other way round: going out first fills in a clean book, which the black-three
    # book counted afterwards takes back.
    page.locator("#team-0").get_by_role("button", name="One less: Black-three books").tap()
    page.locator('label[for="went_out-1"]').tap()
    page.locator('label[for="went_out-0"]').tap()
    expect(page.locator("#t0-clean_books")).to_have_value("1")
    page.locator("#team-0").get_by_role("button", name="One more: Black-three books").tap()
    expect(page.locator("#t0-clean_books")).to_have_value("")
    page.locator("#t0-melded").fill("400")
    page.locator("#t1-melded").fill("100")
    page.locator("#t2-melded").fill("100")
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator(".standing-card")).to_contain_text("Leader")
    with live_server.app.app_context():
        ann = games.load_game(game_id).deals[0].results[0].tally()
    assert (ann.clean_books, ann.black_three_books, ann.went_out) == (0, 1, True)


def test_an_unsaved_deal_survives_a_reload_and_goes_once_saved(
    live_server: LiveServer, tablet: BrowserContext
) -> None:
    game_id = new_game(live_server)
    page = tablet.new_page()
    page.goto(live_server(f"/games/{game_id}/deals/new"))
    page.locator("#t1-melded").fill("315")
    page.get_by_role("button", name="One more: Clean books").first.tap()
    page.reload()
    expect(page.locator("#restored")).to_contain_text("Your unsaved entry")
    expect(page.locator("#t1-melded")).to_have_value("315")
    expect(page.locator("#t0-clean_books")).to_have_value("1")

    page.locator('label[for="went_out-none"]').tap()
    page.locator("#t0-melded").fill("120")
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator(".standing-card")).to_contain_text("Leader")
    # Saved: the copy is gone, and the next deal starts empty.
    # (The game page's script forgets it once loaded: waited for, on a busy machine.)
    page.wait_for_function(
        "() => !Object.keys(localStorage).some(k => k.includes(':draft:'))", timeout=5000
    )
    follow(page.get_by_role("link", name="Enter deal 2"))
    expect(page.locator("#restored")).to_be_hidden()
    expect(page.locator("#t1-melded")).to_have_value("")


def send_and_lose(page: Page, address: str, button: str) -> None:
    """Tap ``button`` and lose its POST to ``address`` with the connection."""

    def lose_the_save(route: Route) -> None:
        if route.request.method == "POST":
            route.abort()
        else:
            route.continue_()

    page.route(address, lose_the_save)
    with contextlib.suppress(PlaywrightError):
        page.get_by_role("button", name=button).tap()
        page.wait_for_url("chrome-error://**", timeout=5000)
    page.unroute(address)


def test_a_save_lost_with_the_connection_keeps_the_entry_after_the_game_page(
    live_server: LiveServer, tablet: BrowserContext
) -> None:
    """Issue 4: an unsaved deal survives a lost connection. The save never reached the
    server; the game page, opened next, shows the deal unplayed and must not forget it."""
    game_id = new_game(live_server)
    page = tablet.new_page()
    page.goto(live_server(f"/games/{game_id}/deals/new"))
    page.locator("#t1-melded").fill("315")
    send_and_lose(page, "**/deals/new", "Save deal 1")
    page.goto(live_server(f"/games/{game_id}"))
    expect(page.get_by_role("link", name="Enter deal 1")).to_be_visible()
    page.wait_for_load_state("load")
    follow(page.get_by_role("link", name="Enter deal 1"))
    expect(page.locator("#restored")).to_contain_text("Your unsaved entry")
    expect(page.locator("#t1-melded")).to_have_value("315")


def correcting_deal_1(live_server: LiveServer, tablet: BrowserContext) -> tuple[int, Page]:
    """A new game whose deal 1 is entered on its form, then corrected (not yet sent)."""
    game_id = new_game(live_server)
    page = tablet.new_page()
    page.goto(live_server(f"/games/{game_id}/deals/new"))
    page.locator('label[for="went_out-none"]').tap()
    page.locator("#t0-melded").fill("120")
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator(".standing-card")).to_contain_text("Leader")
    page.wait_for_load_state("load")  # the game page's table.js forgets the saved draft
    page.goto(live_server(f"/games/{game_id}/deals/1/edit"))
    page.locator("#t1-melded").fill("90")
    return game_id, page


def test_a_correction_lost_with_the_connection_keeps_its_copy_after_the_game_page(
    live_server: LiveServer, tablet: BrowserContext
) -> None:
    """A correction sent but never arrived: the game page, opened next, shows the deal as it
    was, so its copy stays for the form. One found unchanged leaves no copy either."""
    game_id, page = correcting_deal_1(live_server, tablet)
    send_and_lose(page, "**/deals/1/edit", "Save the correction")
    # Another game's page first (no deal 1 there): it decides nothing about this copy.
    page.goto(live_server(f"/games/{new_game(live_server)}"))
    expect(page.locator(".standing-card")).to_be_visible()
    page.wait_for_load_state("load")
    page.goto(live_server(f"/games/{game_id}"))
    expect(page.locator("#deal-1")).to_be_visible()
    page.wait_for_load_state("load")
    page.goto(live_server(f"/games/{game_id}/deals/1/edit"))
    expect(page.locator("#restored")).to_contain_text("Your unsaved entry")
    expect(page.locator("#t1-melded")).to_have_value("90")

    # Typed back to what the deal holds and sent: nothing changed, and the copy goes.
    page.locator("#t1-melded").fill("")
    page.get_by_role("button", name="Save the correction").tap()
    expect(page.locator(".flash-unchanged-1")).to_contain_text("Nothing changed in deal 1.")
    page.wait_for_function(
        "() => !Object.keys(localStorage).some(k => k.includes(':draft:'))", timeout=5000
    )


def test_a_saved_correction_leaves_no_copy_and_a_later_deals_copy_goes_with_the_game(
    live_server: LiveServer, tablet: BrowserContext
) -> None:
    """A correction saved: its form opens as the deal is, not with "Your unsaved entry".
    And a copy typed for a deal the game has gone back from (deal 2 of a game undone to
    none) does not come back on that deal later: the next deal's form forgets it."""
    game_id, page = correcting_deal_1(live_server, tablet)
    page.get_by_role("button", name="Save the correction").tap()
    expect(page.locator(".standing-card")).to_be_visible()
    page.wait_for_load_state("load")
    page.goto(live_server(f"/games/{game_id}/deals/1/edit"))
    expect(page.locator("#t1-melded")).to_have_value("90")
    expect(page.locator("#restored")).to_be_hidden()

    # Copies left from before the game went back (a backup restored): of deal 3, and of
    # corrections to deals 2 and 3: gone once deal 2 is entered afresh.
    stale = [f"scorekeeper:draft:{game_id}:{key}" for key in ("3:new", "2:1", "3:2")]
    for key in stale:
        page.evaluate(
            f"""() => localStorage.setItem(
                "{key}", JSON.stringify({{values: {{"t1-melded": "999"}}, at: Date.now()}}))"""
        )
    page.goto(live_server(f"/games/{game_id}/deals/new"))
    table_js_ran(page)
    assert [key for key in stale if page.evaluate(f"() => localStorage.getItem('{key}')")] == []


def test_the_score_bar_reads_a_special_book_whose_id_has_hyphens(
    live_server: LiveServer, tablet: BrowserContext
) -> None:
    """House rules name their books as they like; the id made of "Book of sevens" has
    hyphens, and the bar scores it as the server does."""
    with live_server.app.app_context():
        house = rulesets.create_house_rules(
            "Sevens night",
            "standard",
            {
                "special_books": [
                    {
                        "id": "book-of-sevens",
                        "name": "Book of sevens",
                        "bonus": 1000,
                        "min_points": 35,
                        "counts_as": "clean",
                    }
                ]
            },
        )
        game = games.start_game(
            house.slug, [TeamSpec("", ["Ann", "Ben"]), TeamSpec("", ["Cid", "Dee"])]
        )
        game_id = int(game.id)
    page = tablet.new_page()
    page.goto(live_server(f"/games/{game_id}/deals/new"))
    page.locator('label[for="went_out-0"]').tap()  # fills in 2 clean, 2 dirty, 1 wild
    page.locator("#t0-clean_books").fill("1")  # the sevens are the other clean book
    page.locator("#t0-special_books-book-of-sevens").fill("1")
    page.locator("#t0-red_threes").fill("1")
    page.locator("#t0-melded").fill("555")
    page.locator("#t0-left").fill("20")  # what Ben's partner still holds
    page.locator("#t1-clean_books").fill("1")
    page.locator("#t1-red_threes").fill("1")
    page.locator("#t1-melded").fill("220")
    page.locator("#t1-left").fill("205")
    # RULES.md's example, the sevens earning 1000 instead of a clean book's 500, less the
    # partner's 20 (the bar would otherwise say to check them).
    expect(page.locator("[data-new-total]").nth(0)).to_have_text("4335")
    expect(page.locator("[data-problems]")).to_be_empty()
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator(".standing-card .totals")).to_contain_text("4335")


def test_an_unsaved_count_comes_back_counted(
    live_server: LiveServer, tablet: BrowserContext
) -> None:
    page = tablet.new_page()
    page.goto(live_server(f"/games/{new_game(live_server)}/deals/new"))
    group = page.locator("#t1-left-group")
    group.get_by_label("Count the cards").check()
    page.locator("#t1-left-eights_to_kings").fill("3")
    page.locator("#t1-left-eights_to_kings").blur()
    page.reload()
    expect(page.locator("#restored")).to_contain_text("Your unsaved entry")
    # Restored as it was left: counting, the counters open, the points box put away.
    expect(group.get_by_label("Count the cards")).to_be_checked()
    expect(group.locator("details.counts")).to_have_attribute("open", "")
    expect(group.locator(".points-input")).to_be_hidden()
    expect(group.locator("[data-subtotal]")).to_have_text("30")


def test_choosing_another_team_that_went_out_takes_back_the_books_filled_in(
    live_server: LiveServer, tablet: BrowserContext
) -> None:
    # A mistap on "Who went out?" filled in the wrong team's books, and they stayed: a deal
    # with book bonuses nobody earned passed every check and was saved.
    game_id = new_game(live_server)
    page = tablet.new_page()
    page.goto(live_server(f"/games/{game_id}/deals/new"))
    books = ("clean_books", "dirty_books", "wild_books")

    def values(team: int) -> dict[str, str]:
        return {f: page.locator(f"#t{team}-{f}").input_value() for f in books}

    empty = values(0)
    page.locator('label[for="went_out-0"]').tap()
    # Checked and changed in one event: once the choice shows, table.js has answered it.
    expect(page.locator("#went_out-0")).to_be_checked()
    required = values(0)
    assert required != empty  # going out takes books, and they were filled in
    page.locator('label[for="went_out-1"]').tap()
    expect(page.locator("#went_out-1")).to_be_checked()
    assert values(0) == empty
    assert values(1) == required
    # A count changed by hand since is the table's own: only the rest is taken back.
    page.locator("#t1-clean_books").fill("5")
    page.locator('label[for="went_out-none"]').tap()
    expect(page.locator("#went_out-none")).to_be_checked()
    assert values(1) == {**empty, "clean_books": "5"}
    # The keyboard walks the choices with the arrow keys: each team it passes gets its
    # books filled in and taken back again.
    page.locator("#went_out-0").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#went_out-0")).not_to_be_checked()
    assert values(0) == empty and values(1) == {**empty, "clean_books": "5"}


def test_the_score_bar_writes_totals_as_the_game_page_does(
    live_server: LiveServer, tablet: BrowserContext
) -> None:
    # The bar wrote "11750" where the game page writes "11,750" (German 11.750).
    game_id = new_game(live_server)
    for _ in range(3):
        record(live_server, game_id)
    with live_server.app.app_context():
        before = games.read_game(game_id).totals
    assert before[0] >= 10_000 > before[1]
    page = tablet.new_page()
    page.goto(live_server(f"/games/{game_id}/deals/new"))
    totals = page.locator("[data-new-total]")
    expect(totals.nth(0)).to_have_text(f"{before[0]:,}")
    page.locator('label[for="went_out-none"]').tap()
    page.locator("#t0-left").fill("100")
    expect(totals.nth(0)).to_have_text(f"{before[0] - 100:,}")  # written by the script
    expect(page.locator("[data-deal-score]").nth(0)).to_have_text("\u2212100")  # a minus sign
    expect(totals.nth(1)).to_have_text(str(before[1]))  # four digits stay together
    page.goto(live_server(f"/language/de?next=/games/{game_id}/deals/new"))
    page.locator('label[for="went_out-none"]').tap()
    page.locator("#t0-left").fill("100")
    expect(totals.nth(0)).to_have_text(f"{before[0] - 100:,}".replace(",", "."))


def test_two_tablets_see_each_others_saves_without_disturbing_a_form(
    live_server: LiveServer, tablet: BrowserContext
) -> None:
    game_id = new_game(live_server)
    sheet = tablet.new_page()
    sheet.goto(live_server(f"/games/{game_id}"))
    form = tablet.new_page()
    form.goto(live_server(f"/games/{game_id}/deals/new"))
    form.locator("#t0-melded").fill("255")

    record(live_server, game_id, melded=345)  # saved on a third tablet

    expect(sheet.locator("#deal-1")).to_be_visible(timeout=10_000)
    expect(sheet.locator(".next-deal h3")).to_have_text("Deal 2 of 4")
    expect(sheet.locator("#tracker")).to_have_attribute("data-deal", "2")
    expect(form.locator("#elsewhere")).to_be_visible(timeout=10_000)
    expect(form.locator("#t0-melded")).to_have_value("255")


def test_a_whole_game_by_tapping(
    live_server: LiveServer, browser: Browser, browser_context_args: dict[str, Any]
) -> None:
    context = browser.new_context(**browser_context_args, service_workers="block")
    page = context.new_page()
    try:
        _play(page, live_server)
    finally:
        context.close()


def _play(page: Page, live_server: LiveServer) -> None:
    # Start a game with the new-game form.
    page.goto(live_server("/games/new"))
    for name, player in (("t0-p0", "Kim"), ("t0-p1", "Lou"), ("t1-p0", "Max"), ("t1-p1", "Nia")):
        page.locator(f"#{name}").fill(player)
    page.get_by_role("button", name="Start the game").tap()
    follow(page.get_by_role("link", name="To the score sheet"))
    expect(page.locator(".next-deal h3")).to_have_text("Deal 1 of 4")

    # Deal 1: the tracker while playing, then the form with the card counters.
    team = page.locator('.tracker-team[data-team="1"]')
    team.get_by_role("button", name="One more: Clean books").tap()
    team.get_by_role("button", name="One more: Red threes laid").tap()
    follow(page.get_by_role("link", name="Enter deal 1"))
    expect(page.locator("#t1-clean_books")).to_have_value("1")
    # Team 2 counted its melded cards: 7 kings and 3 aces.
    melded = page.locator("#t1-melded-group")
    melded.locator("summary").tap()
    for _ in range(7):
        melded.get_by_role("button", name="One more: 8, 9, 10, J, Q, K").tap()
    for _ in range(3):
        melded.get_by_role("button", name="One more: Aces").tap()
    expect(page.locator("#t1-melded-group [data-subtotal]")).to_have_text("130")
    expect(page.locator("#t1-melded_mode-counts")).to_be_checked()

    # A mistake: Team 2 cannot go out with one clean book. The preview says so at once...
    page.locator('label[for="went_out-1"]').tap()
    page.locator("#t1-clean_books").fill("1")
    page.locator("#t1-dirty_books").fill("0")
    page.locator("#t1-wild_books").fill("0")
    expect(page.locator("[data-problems]")).to_contain_text("cannot go out")
    # ...and so does the server when it is saved anyway.
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("#form-errors")).to_contain_text("Nothing was saved")
    # The keyboard (and a screen reader's cursor) starts at what went wrong.
    expect(page.locator("#form-errors")).to_be_focused()
    expect(page.locator("#t1-melded-eights_to_kings")).to_have_value("7")
    table_js_ran(page)
    # Fixed: nobody went out.
    page.locator('label[for="went_out-none"]').tap()
    page.locator("#t0-melded").fill("200")
    page.locator("#t0-left").fill("50")
    expect(page.locator("[data-new-total]").nth(0)).to_have_text("150")
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("#deal-1")).to_be_visible()

    # Deals 2 to 4.
    for number in (2, 3, 4):
        follow(page.get_by_role("link", name=f"Enter deal {number}"))
        page.locator('label[for="went_out-0"]').tap()
        page.locator("#t0-melded").fill("700")
        page.locator("#t1-melded").fill("300")
        page.locator("#t1-clean_books").fill("1")
        page.get_by_role("button", name=f"Save deal {number}").tap()
        expect(page.locator(f"#deal-{number}")).to_be_visible()

    # Correct deal 1, then the game is over with a winner.
    follow(page.get_by_role("link", name="Correct deal 1"))
    page.locator("#t0-melded").fill("250")
    page.get_by_role("button", name="Save the correction").tap()
    expect(page.locator("#deal-1 .mark-corrected")).to_be_visible()
    expect(page.locator("#standing")).to_contain_text("Winner: Kim & Lou")
    expect(page.locator("#tracker")).to_have_count(0)
    page.screenshot(path=SCREENSHOTS / "table-whole-game-1024x768.png", full_page=True)
