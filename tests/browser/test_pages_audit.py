"""Every page, light and dark: axe-core (WCAG 2.1 AA), no sideways scrolling, big touch
targets, and screenshots of what the screen shows at the three viewports
(test-artifacts/screenshots/)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_support import SCHEMES, SCREENSHOTS, VIEWPORTS, LiveServer
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
AXE_SCRIPT = Axe().axe_script
BACKGROUND = {"light": "rgb(251, 250, 247)", "dark": "rgb(20, 20, 23)"}

# name -> path; {game}, {season}, {player} are the seeded ids (conftest._seed).
PAGES = {
    "home": "/",
    "rules": "/rules",
    "rules-standard": "/rules/standard",
    "house-rules-new": "/house-rules/new",
    "games": "/games",
    "games-new": "/games/new",
    "game": "/games/{game}",
    "deal-new": "/games/{game}/deals/new",
    "deal-edit": "/games/{game}/deals/1/edit",
    "corrections": "/games/{game}/corrections",
    "players": "/players",
    "player": "/players/{player}",
    "seasons": "/seasons",
    "season": "/seasons/{season}",
    "season-edit": "/seasons/{season}/edit",
    "season-delete": "/seasons/{season}/delete",
    "standings": "/standings",
    "game-started": "/games/{game}/start",
    "game-abandon": "/games/{game}/abandon",
    "game-what-if-refused": "/games/{game}/what-if",
    "player-rename": "/players/{player}/rename",
    "players-merge": "/players/merge",
    "player-games": "/players/{player}/games",
    "connect": "/connect",
    "settings": "/settings",
    "not-found": "/no-such-page",
}

# Pages that answer with an error on purpose (the game is still being played).
STATUS = {"not-found": 404, "game-what-if-refused": 409}

# Visible controls smaller than a fingertip (48 px high, the app's --touch; 44 px wide,
# WCAG 2.5.5), minus the exemptions WCAG makes: a link inside running text (a sentence,
# which would break apart if its links were padded out), and a checkbox or radio whose
# label (the real target) is big enough.
TOUCH_TARGETS_JS = """
() => {
  const inRunningText = (el, style) =>
    el.tagName === "A" && style.display === "inline" && el.closest("p") !== null;
  const small = [];
  for (const el of document.querySelectorAll("a[href], button, input, select, textarea")) {
    if (el.type === "hidden") continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") continue;
    let box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (el.classList.contains("skip-link") || el.closest(".visually-hidden")) continue;
    if (inRunningText(el, style)) continue;
    if (el.type === "checkbox" || el.type === "radio") {
      const label = el.closest("label")
        || (el.id && document.querySelector(`label[for="${el.id}"]`));
      if (label) box = label.getBoundingClientRect();
    }
    if (box.height < 47.5 || box.width < 43.5) {
      const text = (el.innerText || el.value || el.name || el.id || "").trim().slice(0, 40);
      const size = `${Math.round(box.width)}x${Math.round(box.height)}px`;
      small.push(`${el.tagName.toLowerCase()} "${text}" ${size} (at least 44x48)`);
    }
  }
  return small;
}
"""

OVERFLOW_JS = """
() => ({scroll: document.documentElement.scrollWidth, width: window.innerWidth})
"""


def _describe(violations: list[dict[str, Any]]) -> list[str]:
    lines = []
    for v in violations:
        targets = "; ".join(" ".join(map(str, n["target"])) for n in v["nodes"][:5])
        lines.append(f"axe {v['id']} ({v['impact']}): {v['help']} -> {targets}")
    return lines


def _axe(page: Page, *, only_colours: bool = False) -> list[dict[str, Any]]:
    """Violations on the page as it looks now (axe-core must be injected already).

    only_colours: the rules a colour scheme can change (the markup is the same in light
    and dark); the full WCAG set takes seconds on a long form.
    """
    if only_colours:
        run_only: dict[str, Any] = {"type": "rule", "values": COLOUR_RULES}
    else:
        run_only = {"type": "tag", "values": WCAG_TAGS}
    options = json.dumps({"runOnly": run_only})
    results: dict[str, Any] = page.evaluate(f"axe.run(document, {options})")
    return list(results["violations"])


@pytest.fixture(scope="module")
def page(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    """One page for all the audits (a context costs ~100 ms); the scheme is switched live.

    bypass_csp: axe-core is injected as a script, which the app's CSP rightly refuses.
    """
    context = browser.new_context(**browser_context_args, bypass_csp=True, service_workers="block")
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("name", list(PAGES))
def test_page(name: str, live_server: LiveServer, page: Page) -> None:
    page.set_viewport_size(VIEWPORTS["landscape"])
    page.emulate_media(color_scheme="light")
    response = page.goto(live_server(PAGES[name].format(**live_server.ids)))
    assert response is not None
    assert response.status == STATUS.get(name, 200)
    page.evaluate(AXE_SCRIPT)

    problems = []
    for scheme in SCHEMES:
        page.set_viewport_size(VIEWPORTS["landscape"])
        page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
        # The colour scheme really applies (the dark palette is not just declared).
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == BACKGROUND[scheme], scheme
        violations = _axe(page, only_colours=scheme != "light")
        problems += [f"{scheme}: {line}" for line in _describe(violations)]
        for label, viewport in VIEWPORTS.items():
            page.set_viewport_size(viewport)
            size = page.evaluate(OVERFLOW_JS)
            if size["scroll"] > size["width"]:
                problems.append(
                    f"{scheme} {label}: scrolls sideways ({size['scroll']} > {size['width']} px)"
                )
            problems += [f"{scheme} {label}: {small}" for small in page.evaluate(TOUCH_TARGETS_JS)]
            page.screenshot(
                path=SCREENSHOTS / f"{name}-{scheme}-{viewport['width']}x{viewport['height']}.png",
            )
    assert not problems, f"{PAGES[name]}:\n" + "\n".join(problems)


def test_the_audit_can_fail(live_server: LiveServer, page: Page) -> None:
    """The audit is not vacuous: a picture without a text alternative is caught."""
    page.goto(live_server("/"))
    page.evaluate(AXE_SCRIPT)
    assert _axe(page) == []
    page.evaluate(
        "document.querySelector('main').insertAdjacentHTML("
        "'beforeend', '<img src=\"/static/icons/icon-192.png\">')"
    )
    assert [v["id"] for v in _axe(page)] == ["image-alt"]


def test_totals_are_readable_at_arms_length(live_server: LiveServer, page: Page) -> None:
    page.set_viewport_size(VIEWPORTS["portrait"])
    page.goto(live_server(f"/games/{live_server.ids['game']}"))
    sizes = page.eval_on_selector_all(
        ".total", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert sizes, "no totals (.total) on the game page"
    assert min(sizes) >= 28, f"totals font sizes {sizes}"
