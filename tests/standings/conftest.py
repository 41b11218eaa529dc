"""Fixtures of the standings tests: the hand-computed season of ``standings_support``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from standings_support import Season, play_season

from scorekeeper.services import standings


@pytest.fixture
def ctx(app: Flask) -> Iterator[Flask]:
    with app.app_context():
        yield app


@pytest.fixture
def season(app: Flask) -> Season:
    with app.app_context():
        played = play_season()
    # Each test starts from a cold cache, as a fresh process would.
    standings.clear_cache()
    return played
