"""Fixtures of the browser suite: the live server and Debian's Chromium via Playwright.

The browser suite never skips: without Chromium it fails and says how to get it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import CHROMIUM, CHROMIUM_ARGS, VIEWPORTS, LiveServer, start_server

from scorekeeper.extensions import db


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: drives Debian's Chromium against the app on a local port"
    )


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not Path(CHROMIUM).is_file():
        pytest.fail(
            f"Chromium not found at {CHROMIUM}. The browser tests need it: run `make test` "
            "(it installs Debian's chromium), or set CHROMIUM_PATH to a Chromium binary.",
            pytrace=False,
        )
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    # A landscape tablet with touch, so .tap() works.
    return {**browser_context_args, "viewport": VIEWPORTS["landscape"], "has_touch": True}


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = start_server(tmp_path_factory.mktemp("live"))
    yield server
    server.stop()
    with server.app.app_context():
        db.session.remove()
        db.engine.dispose()
