"""The house-rules editor in a real Chromium: a name left out or a number out of range is
answered by the app's own messages beside the fields, not by the browser's pop-ups."""

from __future__ import annotations

import pytest
from browser_support import LiveServer
from playwright.sync_api import BrowserContext, expect

pytestmark = pytest.mark.browser


def test_the_editor_answers_a_bad_entry_in_its_own_words(
    live_server: LiveServer, context: BrowserContext
) -> None:
    page = context.new_page()
    page.goto(live_server("/house-rules/new"))
    page.locator("#name").fill("")
    page.locator("#deals-0-opening_minimum").fill("-5")
    page.get_by_role("button", name="Save house rules").click()

    # The form went to the app, which refused it and said why beside each field.
    summary = page.locator(".form-errors")
    expect(summary).to_contain_text("Nothing was saved")
    # The keyboard starts at what went wrong, as on every refused form.
    expect(summary).to_be_focused()
    expect(page.locator("#name-error")).to_have_text("House rules need a name.")
    expect(page.locator("#deals-0-opening_minimum-error")).to_be_visible()
    # What was typed is still there to put right.
    expect(page.locator("#deals-0-opening_minimum")).to_have_value("-5")
