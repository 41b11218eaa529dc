"""The deal form by keyboard and by screen reader, in a real Chromium: no field disappears
under the sticky score bar, and every -/+ button says which team it counts for."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import VIEWPORTS, LiveServer, table_js_ran
from playwright.sync_api import Browser, Page, expect
from test_table_browser import follow, new_game

from scorekeeper.services import games
from scorekeeper.services.games import TeamSpec

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
    table_js_ran(page)
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


def _step_names(page: Page, within: str) -> list[str]:
    """The accessible names of the -/+ buttons in ``within``, each checked to be what the
    browser itself names the button (not just an attribute)."""
    buttons = page.locator(f"{within} button.step")
    names = [str(buttons.nth(i).get_attribute("aria-label")) for i in range(buttons.count())]
    for i, name in enumerate(names):
        expect(buttons.nth(i)).to_have_accessible_name(name)
    return names


def test_each_step_button_names_its_team(live_server: LiveServer, page: Page) -> None:
    """A screen reader reads out a button on its own: two teams' buttons must not sound alike."""
    teams = ("Kit & O'Neil", "Lee & Max")
    game_id = new_game(live_server, ("Kit", "O'Neil", "Lee", "Max"))
    # The deal tracker on the game page, then the deal form.
    page.goto(live_server(f"/games/{game_id}"))
    for i, team in enumerate(teams):
        names = _step_names(page, f'.tracker-team[data-team="{i}"]')
        assert names and all(name.endswith(f", {team}") for name in names), names
    follow(page.get_by_role("link", name="Enter deal 1"))
    table_js_ran(page)
    page.evaluate("document.querySelectorAll('#deal-form details').forEach(d => d.open = true)")

    per_team = [_step_names(page, f"#team-{i}") for i in range(len(teams))]
    for team, names in zip(teams, per_team, strict=True):
        assert len(names) > 20
        assert all(name.endswith(f", {team}") for name in names), names
    expect(page.locator("#team-1 button.step-up").first).to_have_accessible_name(
        "One more: Clean books, Lee & Max"
    )
    # A card counted by kind says whether it was melded or left, as well.
    expect(
        page.locator("#t0-melded-group").get_by_role("button", name="One more: Jokers")
    ).to_have_accessible_name("One more: Jokers, Cards melded, Kit & O'Neil")
    everyone = [name for names in per_team for name in names]
    assert len(set(everyone)) == len(everyone), "two -/+ buttons have the same name"


# The score bar's height, its problems box and what it holds.
BAR_JS = """
() => {
  const bar = document.querySelector("#deal-preview");
  const box = bar.querySelector("[data-problems]");
  return {
    bar: bar.getBoundingClientRect().height,
    texts: [...box.querySelectorAll("li")].map(li => li.textContent),
    overflow: getComputedStyle(box).overflowY,
    scroll: box.scrollHeight,
    client: box.clientHeight,
    tabindex: box.getAttribute("tabindex"),
    live: box.getAttribute("aria-live"),
  };
}
"""

# Whether the last problem is inside the box's visible part.
LAST_SHOWN_JS = """
() => {
  const box = document.querySelector("[data-problems]");
  const last = box.querySelector("li:last-child").getBoundingClientRect();
  const seen = box.getBoundingClientRect();
  return last.top >= seen.top - 0.5 && last.bottom <= seen.bottom + 0.5;
}
"""


def test_a_step_says_the_new_number_and_the_subtotal_is_in_its_name(
    live_server: LiveServer, page: Page
) -> None:
    """The focus stays on the -/+ button, so the box's new number is said aloud with whose
    it is; the counted cards' subtotal is part of what their summary is called."""
    game_id = new_game(live_server, ("Kit", "Oli", "Lee", "Max"))
    page.goto(live_server(f"/games/{game_id}/deals/new"))
    table_js_ran(page)
    more = page.locator("#team-1 button.step-up").first
    more.click()
    more.click()
    said = page.locator("[data-step-said]")
    expect(said).to_have_attribute("role", "status")
    expect(said).to_have_text("Clean books, Lee & Max: 2")
    page.locator("#t1-melded-group").get_by_label("Count the cards").check()
    page.locator("#t1-melded-fours_to_sevens").fill("6")
    summary = page.locator("#t1-melded-group summary")
    expect(summary).to_have_accessible_name(re.compile(r"Points of the cards counted\s*30$"))
    # The running figures are not read out at each keystroke; the problems are.
    live = page.evaluate(
        "() => [...document.querySelectorAll('#deal-preview output')]"
        ".map(o => o.getAttribute('aria-live'))"
    )
    assert live and set(live) == {"off"}, live


def test_many_problems_leave_the_form_room(live_server: LiveServer, page: Page) -> None:
    """An impossible deal lists a problem for every figure; the bar stays a third of the
    screen at most, and every problem can still be read by scrolling the list."""
    page.goto(live_server(f"/games/{new_game(live_server)}/deals/new"))
    table_js_ran(page)
    page.evaluate("document.querySelectorAll('#deal-form details').forEach(d => d.open = true)")
    page.locator('label[for="went_out-1"]').tap()
    for team in (0, 1):
        for where in ("clean_books", "dirty_books", "red_threes", "melded-jokers", "left-twos"):
            page.locator(f"#t{team}-{where}").fill("30")
    expect(page.locator("[data-problems] li").nth(5)).to_be_attached()

    at = page.evaluate(BAR_JS)
    height = page.viewport_size["height"] if page.viewport_size else 0
    assert at["bar"] <= 0.35 * height, f"score bar {at['bar']:.0f} of {height} px"
    assert len(at["texts"]) >= 6 and all(at["texts"]), at["texts"]
    assert at["live"] == "polite"
    # The rest scrolls into view inside the bar, by finger and by keyboard.
    assert at["overflow"] == "auto" and at["scroll"] > at["client"], at
    assert at["tabindex"] == "0"
    assert not page.evaluate(LAST_SHOWN_JS)
    box = page.locator("[data-problems]")
    box.focus()
    page.keyboard.press("End")
    page.wait_for_function(LAST_SHOWN_JS)


CLEAR_OF_BAR_JS = """
() => {
  const el = document.activeElement;
  const box = el.getBoundingClientRect();
  const bar = document.querySelector("#deal-preview").getBoundingClientRect();
  return { id: el.id, top: box.top, bottom: box.bottom, barTop: bar.top };
}
"""


def test_a_refused_save_shows_what_went_wrong_clear_of_the_score_bar(
    live_server: LiveServer, page: Page
) -> None:
    """The server's "Nothing was saved" gets the focus; the bar, shown after it and grown
    with the deal's problems, must not cover it."""
    page.goto(live_server(f"/games/{new_game(live_server)}/deals/new"))
    table_js_ran(page)
    page.locator('label[for="went_out-1"]').tap()
    page.locator("#t1-clean_books").fill("0")
    page.get_by_role("button", name="Save deal 1").click()

    summary = page.locator("#form-errors")
    expect(summary).to_contain_text("Nothing was saved")
    expect(summary).to_be_focused()
    expect(page.locator("[data-problems]")).not_to_be_empty()  # the bar has grown
    page.wait_for_function(
        "() => { const s = document.activeElement.getBoundingClientRect();"
        " return s.bottom <= document.querySelector('#deal-preview')"
        ".getBoundingClientRect().top; }",
        timeout=5000,
    )
    at = page.evaluate(CLEAR_OF_BAR_JS)
    assert at["id"] == "form-errors"
    assert at["top"] >= 0 and at["bottom"] <= at["barTop"], at


MARKER_JS = """
(summary) => {
  const mark = getComputedStyle(summary, "::before");
  return { width: parseFloat(mark.borderLeftWidth), turned: mark.transform !== "none" };
}
"""


def test_counting_the_cards_opens_the_counters_and_puts_the_points_away(
    live_server: LiveServer, page: Page
) -> None:
    page.goto(live_server(f"/games/{new_game(live_server)}/deals/new"))
    table_js_ran(page)
    group = page.locator("#t0-melded-group")
    counters = group.locator("details.counts")
    points = group.locator(".points-input")
    summary = counters.locator("summary")
    expect(counters).not_to_have_attribute("open", "")
    expect(points).to_be_visible()
    closed = summary.evaluate(MARKER_JS)
    assert closed["width"] > 0 and not closed["turned"], closed  # an open/close marker

    group.get_by_label("Count the cards").check()
    expect(counters).to_have_attribute("open", "")
    expect(points).to_be_hidden()
    assert summary.evaluate(MARKER_JS)["turned"]
    page.locator("#t0-melded-eights_to_kings").fill("3")  # the counters are at hand
    expect(summary.locator("[data-subtotal]")).to_have_text("30")

    group.get_by_label("Total points").check()
    expect(points).to_be_visible()
    # Back to a total: the empty box takes the cards counted, and the deal keeps them.
    expect(page.locator("#t0-melded")).to_have_value("30")
    # Counted again: the total filled in before follows the recount.
    group.get_by_label("Count the cards").check()
    page.locator("#t0-melded-eights_to_kings").fill("5")
    group.get_by_label("Total points").check()
    expect(page.locator("#t0-melded")).to_have_value("50")
    # A total the table typed is its own, and stays as it was.
    page.locator("#t0-melded").fill("45")
    group.get_by_label("Count the cards").check()
    group.get_by_label("Total points").check()
    expect(page.locator("#t0-melded")).to_have_value("45")


def test_melded_black_threes_switch_to_counting_but_add_nothing_to_the_points(
    live_server: LiveServer, page: Page
) -> None:
    """Brouillette: each melded black 3 counts -5, taken off apart from the melded points (the
    points box leaves them out). Counting them still counts the cards, and the total the
    counters give the points box holds the other cards only."""
    with live_server.app.app_context():
        game_id = games.start_game(
            "brouillette", [TeamSpec("", ["Ann"]), TeamSpec("", ["Ben"]), TeamSpec("", ["Cid"])]
        ).id
    page.goto(live_server(f"/games/{game_id}/deals/new"))
    table_js_ran(page)
    group = page.locator("#t0-melded-group")
    group.locator("details.counts summary").click()
    page.locator("#t0-melded-black_threes").fill("7")
    page.locator("#t0-melded-black_threes").blur()
    expect(group.get_by_label("Count the cards")).to_be_checked()  # counting switched the mode
    page.locator("#t0-melded-eights_to_kings").fill("14")
    expect(group.locator("[data-subtotal]")).to_have_text("140")  # not 175: black 3s apart
    group.get_by_label("Total points").check()
    expect(page.locator("#t0-melded")).to_have_value("140")


def test_a_refused_count_leads_to_a_counter_in_sight(live_server: LiveServer, page: Page) -> None:
    """Counting puts the points box away, so the summary's link for a counted total goes
    to the counter filled in, which the player can see and type in at once."""
    page.goto(live_server(f"/games/{new_game(live_server)}/deals/new"))
    table_js_ran(page)
    group = page.locator("#t1-melded-group")
    group.get_by_label("Count the cards").check()
    page.locator("#t1-melded-fours_to_sevens").fill("1")  # one card is no meld
    page.get_by_role("button", name="Save deal 1").click()

    link = page.locator("#form-errors a", has_text="melded cards worth 5, but a meld has")
    expect(link).to_have_attribute("href", "#t1-melded-fours_to_sevens")
    expect(page.locator("#form-errors")).to_be_focused()  # app.js has run
    expect(group.locator(".points-input")).to_be_hidden()
    link.click()
    counter = page.locator("#t1-melded-fours_to_sevens")
    expect(counter).to_be_visible()
    expect(counter).to_be_in_viewport()
    # Closed again by hand, the counters open for the link, which focuses the counter.
    page.evaluate("document.querySelector('#t1-melded-group details').open = false")
    expect(counter).to_be_hidden()
    link.click()
    expect(counter).to_be_focused()
    expect(counter).to_be_in_viewport()


LABEL_IN_SIGHT_JS = """
(id) => {
  const label = document.querySelector(`label[for="${id}"]`).getBoundingClientRect();
  const bar = document.querySelector("#deal-preview").getBoundingClientRect();
  return { top: label.top, bottom: label.bottom, barTop: bar.top };
}
"""


def test_a_problem_link_focuses_its_field_with_the_label_in_sight(
    live_server: LiveServer, page: Page
) -> None:
    """A link to a group (who went out) gives the focus to its first choice, not to the
    page; a link to a box shows the box's label too, not the box alone at the top."""
    page.goto(live_server(f"/games/{new_game(live_server)}/deals/new"))
    table_js_ran(page)
    page.locator("#t1-melded").fill("5")  # a meld of one card, and nobody chosen as out
    page.get_by_role("button", name="Save deal 1").click()
    # The refused page's scripts have run (app.js focuses the summary, table.js adds the
    # steps): a link clicked before that takes the browser's own jump, not app.js's.
    expect(page.locator("#form-errors")).to_be_focused()
    table_js_ran(page)

    page.locator('#form-errors a[href="#went_out"]').click()
    expect(page.locator("#went_out-0")).to_be_focused()

    page.locator('#form-errors a[href="#t1-melded"]').first.click()
    expect(page.locator("#t1-melded")).to_be_focused()
    at = page.evaluate(LABEL_IN_SIGHT_JS, "t1-melded")
    assert at["top"] >= 0 and at["bottom"] <= at["barTop"], at


def _contrast(first: str, second: str) -> float:
    """WCAG contrast of two computed "rgb(r, g, b)" colours."""

    def luminance(colour: str) -> float:
        channels = [int(v) / 255 for v in re.findall(r"\d+", colour)[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_boxes_and_choices_are_outlined_clearly_and_their_zero_readable(
    live_server: LiveServer, page: Page, scheme: str
) -> None:
    """WCAG 1.4.11: a box's outline 3:1 against the card it sits on; 1.4.3: the "0" shown in
    an empty box 4.5:1."""
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    page.goto(live_server(f"/games/{new_game(live_server)}/deals/new"))
    colours = page.evaluate(
        """() => {
          const box = getComputedStyle(document.querySelector("#t1-melded"));
          const choice = getComputedStyle(document.querySelector('label[for="went_out-0"]'));
          return { box: box.borderTopColor, choice: choice.borderTopColor,
                   surface: box.backgroundColor,
                   zero: getComputedStyle(document.querySelector("#t1-melded"),
                                          "::placeholder").color };
        }"""
    )
    assert _contrast(colours["box"], colours["surface"]) >= 3, colours
    assert _contrast(colours["choice"], colours["surface"]) >= 3, colours
    assert _contrast(colours["zero"], colours["surface"]) >= 4.5, colours


def test_the_bar_names_the_box_and_the_team_of_a_number_out_of_bounds(
    live_server: LiveServer, page: Page
) -> None:
    page.goto(live_server(f"/games/{new_game(live_server)}/deals/new"))
    table_js_ran(page)
    problems = page.locator("[data-problems]")
    page.locator("#t1-left").fill("-50")
    expect(problems).to_have_text(
        "Cards left in hand and foot, Cid & Dee: from 0 to 20,000, not \u221250."
    )
    page.locator("#t1-left").fill("50")
    page.locator("#t0-clean_books").fill("99")
    expect(problems).to_have_text("Clean books, Ann & Ben: from 0 to 60, not 99.")
    # A number too long for JavaScript is said as typed, every digit of it.
    page.locator("#t0-clean_books").fill("1")
    page.locator("#t1-left").fill("99999999999999999999")
    expect(problems).to_have_text(
        "Cards left in hand and foot, Cid & Dee: from 0 to 20,000, not 99,999,999,999,999,999,999."
    )
    page.locator("#t0-clean_books").fill("99")
    # Several at once: each is said, the box that is no number first, not only the first.
    page.locator("#t1-left").fill("-50")
    page.locator("#t0-dirty_books").fill("2.5")
    expect(problems.locator("li")).to_have_text(
        [
            "Not a whole number: Dirty books, Ann & Ben.",
            "Clean books, Ann & Ben: from 0 to 60, not 99.",
            "Cards left in hand and foot, Cid & Dee: from 0 to 20,000, not \u221250.",
        ]
    )


def test_the_bar_of_seven_players_leaves_the_form_room(live_server: LiveServer, page: Page) -> None:
    """Three teams or more: a line each, the labels said once above them."""
    names = ("Annemarie", "Maëlle", "Benedikt", "Christiane", "Dominique", "Friederike", "Gisela")
    with live_server.app.app_context():
        game = games.start_game("standard", [TeamSpec("", [name]) for name in names])
        game_id = int(game.id)
    page.goto(live_server(f"/games/{game_id}/deals/new"))
    bar = page.locator("#deal-preview")
    expect(bar).to_be_visible()
    expect(bar.locator(".preview-legend")).to_be_visible()
    height = bar.evaluate("b => b.getBoundingClientRect().height")
    viewport = page.viewport_size
    assert viewport is not None
    assert height <= viewport["height"] * 0.25, height  # 368 px of 1024 before
    # Each name whole on its line, and every figure still named for a screen reader.
    for name in names:
        item = bar.locator("li", has_text=name)
        expect(item.locator(".team-name")).to_have_text(name)
        assert item.locator(".team-name").evaluate("n => n.scrollWidth <= n.clientWidth")
    expect(bar.locator(".preview-figure .label").first).to_have_text("Deal score")


@pytest.mark.parametrize(
    ("players", "at_most"),
    [(4, 0.4), (7, 0.6)],  # 62 % and 99 % of the screen before (tablet on its side)
)
@pytest.mark.parametrize("zoomed", ["portrait", "landscape"])
def test_the_bar_stays_small_on_a_tablet_zoomed_to_200_percent(
    live_server: LiveServer,
    browser: Browser,
    browser_context_args: dict[str, Any],
    players: int,
    at_most: float,
    zoomed: str,
) -> None:
    """At 200 % a tablet's page is half as wide and half as tall: the bar, a problem in it,
    takes a line per team and stays clear of most of the screen, with no sideways scroll."""
    names = ("Annemarie", "Maëlle", "Benedikt", "Christiane", "Dominique", "Friederike", "Gisela")
    with live_server.app.app_context():
        teams = (
            [TeamSpec("", list(names[:2])), TeamSpec("", list(names[2:4]))]
            if players == 4
            else [TeamSpec("", [name]) for name in names]
        )
        game_id = int(games.start_game("standard", teams).id)
    size = VIEWPORTS[zoomed]
    viewport = {"width": size["width"] // 2, "height": size["height"] // 2}
    context = browser.new_context(
        **{**browser_context_args, "viewport": viewport}, service_workers="block"
    )
    try:
        page = context.new_page()
        page.goto(live_server(f"/games/{game_id}/deals/new"))
        bar = page.locator("#deal-preview")
        expect(bar).to_be_visible()
        page.locator("#t0-melded").fill("35")
        expect(bar.locator("[data-problems] li").first).to_contain_text("less than the 50")
        height = bar.evaluate("b => b.getBoundingClientRect().height")
        assert height <= viewport["height"] * at_most, (height, viewport)
        assert bar.evaluate("b => getComputedStyle(b).position") == "sticky"
        assert page.evaluate(
            "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
        for name in names[:players] if players == 7 else ("Annemarie & Maëlle",):
            item = bar.locator("li", has_text=name)
            assert item.locator(".team-name").evaluate("n => n.scrollWidth <= n.clientWidth")
    finally:
        context.close()


def test_two_teams_keep_their_labelled_figures(live_server: LiveServer, page: Page) -> None:
    page.goto(live_server(f"/games/{new_game(live_server)}/deals/new"))
    bar = page.locator("#deal-preview")
    expect(bar).to_be_visible()
    expect(bar.locator(".preview-legend")).to_be_hidden()
    expect(bar.locator(".preview-figure .label").first).to_be_visible()


def test_going_back_after_a_save_brings_an_empty_form_not_the_saved_deal(
    live_server: LiveServer, page: Page
) -> None:
    """The browser must not fill the next deal's form with the deal just saved: one more
    tap on Save would record it twice."""
    game_id = new_game(live_server)
    page.goto(live_server(f"/games/{game_id}/deals/new"))
    table_js_ran(page)
    page.locator('label[for="went_out-0"]').tap()  # fills in the books going out needs
    page.locator("#t0-melded").fill("750")
    page.locator("#t1-clean_books").fill("1")
    page.locator("#t1-melded").fill("300")
    page.locator("#t1-left").fill("100")
    page.get_by_role("button", name="Save deal 1").click()
    expect(page).to_have_url(live_server(f"/games/{game_id}#deal-1"))
    page.wait_for_load_state("load")  # the sheet has loaded, scripts and all, before going back

    page.go_back()
    expect(page.get_by_role("button", name="Save deal 2")).to_be_visible()
    for box in ("#t0-melded", "#t1-melded", "#t1-left", "#t1-clean_books", "#t0-clean_books"):
        expect(page.locator(box)).not_to_have_value(re.compile("[1-9]"))
    expect(page.locator("#went_out-0")).not_to_be_checked()


def test_a_step_from_a_number_that_is_not_whole_goes_to_the_next_whole_one(
    live_server: LiveServer, page: Page
) -> None:
    """ "2.5" typed by mistake: + makes it 3 and - makes it 2, not 1 (counting from 0)."""
    game_id = new_game(live_server)
    page.goto(live_server(f"/games/{game_id}/deals/new"))
    books = page.locator("#t0-clean_books")
    up = page.locator("#team-0").get_by_role("button", name="One more: Clean books")
    down = page.locator("#team-0").get_by_role("button", name="One less: Clean books")
    expect(up).to_be_visible()  # table.js has run
    books.fill("2.5")
    up.click()
    expect(books).to_have_value("3")
    books.fill("2.5")
    down.click()
    expect(books).to_have_value("2")
    books.fill("-3")
    up.click()
    expect(books).to_have_value("0")


def test_the_bar_says_to_check_a_team_still_holding_cards_with_none_left(
    live_server: LiveServer, page: Page
) -> None:
    """Seed 001: every player who did not go out keeps a card. The bar says so while the
    deal is typed; it is a hint, not a refusal: the figures stand and the deal saves."""
    game_id = new_game(live_server)
    page.goto(live_server(f"/games/{game_id}/deals/new"))
    page.locator('[name="t1-melded"]').fill("220")
    # Before who went out (or nobody) is chosen, the deal has not ended: nothing to check.
    expect(page.locator("#deal-preview [data-deal-score]").nth(1)).to_have_text("220")
    expect(page.locator("#deal-preview [data-hints]")).to_be_hidden()
    page.locator("#went_out-0").check()
    for name, value in (
        ("t0-clean_books", "2"),
        ("t0-dirty_books", "2"),
        ("t0-wild_books", "1"),
        ("t0-melded", "555"),
        ("t0-left", "25"),
        ("t1-clean_books", "1"),
        ("t1-melded", "220"),
    ):
        page.locator(f'[name="{name}"]').fill(value)
    bar = page.locator("#deal-preview")
    hints = bar.locator("[data-hints]")
    expect(hints).to_have_text(
        "Check before saving: Cid & Dee did not go out, so each of their 2 players still holds "
        "at least one card in hand or foot, but no card is reported left."
    )
    # Outside the live region, so typing on never reads it out again; no problem either.
    expect(hints).not_to_have_attribute("aria-live", re.compile(".*"))
    expect(bar.locator("[data-problems]")).to_have_text("")
    expect(bar).to_have_class(re.compile(r"\bhas-hints\b"))
    expect(bar).not_to_have_class(re.compile(r"\bhas-problems\b"))
    # The figures stand: 220 + 500 for the clean book.
    expect(bar.locator('li[data-team="1"] [data-deal-score]')).to_have_text("720")
    page.locator('[name="t1-left"]').fill("35")
    expect(hints).to_be_hidden()
    expect(bar).not_to_have_class(re.compile(r"\bhas-hints\b"))
    expect(bar.locator('li[data-team="1"] [data-deal-score]')).to_have_text("685")
