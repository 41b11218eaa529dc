"""Fixtures of the export, import and backup tests."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask

# The hand-computed season of the standings tests is the data these tests move around.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "standings"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "api"))

from exchange_support import table_counts
from standings_support import Season, play_season

from scorekeeper.services import standings


@pytest.fixture
def season(app: Flask) -> Season:
    with app.app_context():
        played = play_season()
    standings.clear_cache()
    return played


@pytest.fixture
def counts(app: Flask) -> Callable[[], dict[str, int]]:
    return lambda: table_counts(app)
