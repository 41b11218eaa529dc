"""In the browser: the colour-scheme switch, the installable app (manifest, service worker,
offline copy of the last game), the screen wake lock, and "Connect a tablet"."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import LiveServer, start_server
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scorekeeper.extensions import db

pytestmark = pytest.mark.browser

OFFLINE_TEXT = "showing the last saved copy, read-only"


@pytest.fixture
def fresh(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[BrowserContext]:
    """A context with the app's real CSP (no bypass): proves no inline script is needed."""
    context = browser.new_context(**browser_context_args, color_scheme="light")
    yield context
    context.close()


def _csp_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on(
        "console",
        lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return errors


def test_theme_switch_applies_and_is_remembered(
    live_server: LiveServer, fresh: BrowserContext
) -> None:
    page = fresh.new_page()
    csp = _csp_errors(page)
    page.goto(live_server("/"))
    html = page.locator("html")
    switch = page.get_by_label("Colours")
    expect(switch).to_be_visible()
    expect(switch).to_have_value("auto")
    expect(html).not_to_have_attribute("data-theme", "dark")

    switch.select_option("dark")
    expect(html).to_have_attribute("data-theme", "dark")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(20, 20, 23)"

    page.reload()  # remembered, and applied before the page shows (theme.js in <head>)
    expect(html).to_have_attribute("data-theme", "dark")
    expect(switch).to_have_value("dark")

    # Keyboard only: focus the switch and pick with the arrow keys.
    switch.focus()
    page.keyboard.press("ArrowUp")  # dark -> light
    expect(html).to_have_attribute("data-theme", "light")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == (
        "rgb(251, 250, 247)"
    )

    # Auto follows the device again: a dark device gives the dark palette.
    page.keyboard.press("ArrowUp")  # light -> auto
    expect(html).not_to_have_attribute("data-theme", "light")
    page.emulate_media(color_scheme="dark")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(20, 20, 23)"
    page.reload()
    expect(switch).to_have_value("auto")
    assert page.evaluate("document.documentElement.hasAttribute('data-theme')") is False
    assert csp == []


def test_manifest_is_valid_and_its_icons_load(
    live_server: LiveServer, fresh: BrowserContext
) -> None:
    page = fresh.new_page()
    page.goto(live_server("/"))
    href = page.locator("link[rel=manifest]").get_attribute("href")
    assert href
    response = page.request.get(live_server(href))
    assert response.ok
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["name"] and manifest["short_name"]
    assert manifest["theme_color"] and manifest["background_color"]
    sizes = set()
    for icon in manifest["icons"]:
        got = page.request.get(live_server(icon["src"]))
        assert got.ok, icon["src"]
        assert got.headers["content-type"].startswith(icon["type"]), icon["src"]
        if icon["type"] == "image/png":
            body = got.body()
            assert body[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", body[16:24])
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes


def test_service_worker_is_served_from_the_root(
    live_server: LiveServer, fresh: BrowserContext
) -> None:
    page = fresh.new_page()
    page.goto(live_server("/"))
    scope = page.evaluate(
        "navigator.serviceWorker.ready.then(r => r.scope)"
    )  # registered by app.js
    assert scope == live_server("/")
    response = page.request.get(live_server("/sw.js"))
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["service-worker-allowed"] == "/"


@pytest.fixture
def doomed_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server of its own, for the test that takes the server away."""
    server = start_server(tmp_path)
    yield server
    if server.thread.is_alive():
        server.stop()
    with server.app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_last_game_is_shown_read_only_when_the_server_is_gone(
    doomed_server: LiveServer, fresh: BrowserContext
) -> None:
    page = fresh.new_page()
    game_url = doomed_server(f"/games/{doomed_server.ids['game']}")
    page.goto(game_url)
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.reload()  # this visit goes through the worker, which keeps a copy
    banner = page.locator("#offline-banner")
    expect(banner).to_be_hidden()
    totals = page.locator(".totals").inner_text()

    doomed_server.stop()  # the laptop went to sleep: Wi-Fi is fine, the server is not
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-offline-copy", "")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(OFFLINE_TEXT)
    assert page.locator(".totals").inner_text() == totals
    # Nothing on the copy can be sent: every control of a POST form is disabled.
    live = page.locator("form[method=post] button:enabled, form[method=post] input:enabled")
    expect(live).to_have_count(0)
    # A page that was never stored is not made up.
    with pytest.raises(Exception, match="ERR_CONNECTION_REFUSED"):
        page.goto(doomed_server("/players"))


def test_going_offline_disables_saving_and_says_so(
    live_server: LiveServer, fresh: BrowserContext
) -> None:
    page = fresh.new_page()
    page.goto(live_server(f"/games/{live_server.ids['game']}/deals/new"))
    banner = page.locator("#offline-banner")
    save = page.locator("form[method=post] button[type=submit]").first
    expect(banner).to_be_hidden()
    expect(save).to_be_enabled()

    fresh.set_offline(True)
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(OFFLINE_TEXT)
    expect(save).to_be_disabled()
    # Disabled, not cleared: whatever was typed is still there when the connection is back.
    expect(page.locator("form[method=post] input:not([type=hidden])").first).to_be_disabled()

    fresh.set_offline(False)
    expect(banner).to_be_hidden()
    expect(save).to_be_enabled()


def test_wake_lock_is_requested_on_pages_that_ask(
    live_server: LiveServer, fresh: BrowserContext
) -> None:
    page = fresh.new_page()
    page.goto(live_server("/"))
    assert page.evaluate("document.body.hasAttribute('data-wake-lock-state')") is False
    # No page of this suite asks yet (the game page will): ask here, then run app.js again.
    page.evaluate(
        """() => new Promise(done => {
            document.body.setAttribute('data-wake-lock', '');
            const s = document.createElement('script');
            s.src = '/static/js/app.js';
            s.onload = done;
            document.head.append(s);
        })"""
    )
    page.wait_for_function("document.body.hasAttribute('data-wake-lock-state')")
    state = page.evaluate("document.body.getAttribute('data-wake-lock-state')")
    # Headless Chromium has the API; whether it grants the lock is the browser's call.
    assert state in {"active", "refused"}


def test_connect_page_shows_address_and_qr_code(
    live_server: LiveServer, fresh: BrowserContext
) -> None:
    page = fresh.new_page()
    page.goto(live_server("/"))
    page.get_by_role("link", name="Connect").tap()
    expect(page).to_have_url(live_server("/connect"))
    expect(page.get_by_role("heading", name="Connect a tablet")).to_be_visible()
    port = live_server.server.server_port
    qr = page.locator("svg.qr").first
    expect(qr).to_be_visible()
    label = qr.get_attribute("aria-label") or ""
    assert f":{port}/" in label
    url = label.rsplit(" ", 1)[-1]
    expect(page.get_by_role("link", name=url)).to_be_visible()
    box = qr.bounding_box()
    assert box is not None and box["width"] >= 250  # large enough to scan across a table
