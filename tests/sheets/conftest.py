"""Sheet tests: every test starts with empty sheet caches."""

from __future__ import annotations

import pytest

from scorekeeper import sheets


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    # The cache lives as long as the process; one test's sheets must not serve another's.
    sheets.blank_cache.clear()
    sheets.game_cache.clear()
