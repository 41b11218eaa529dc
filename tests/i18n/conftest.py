"""Translation tests: the compiled catalogues must be current, and a game with a deal to show."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

import pytest
from flask import Flask

sys.path.insert(0, str(Path(__file__).parent))

from i18n_support import GERMAN_DEAL, LANGUAGES, ONE_DEAL, TEAMS, TRANSLATIONS

from scorekeeper import sheets
from scorekeeper.services import games, players


@pytest.fixture(autouse=True)
def _compiled_catalogues(request: pytest.FixtureRequest) -> None:
    """Pages read the .mo files that `make translations` builds from the .po catalogues.

    The catalogue tests read the .po files themselves, so that after `make messages` they
    list what is left to translate before anything is compiled.
    """
    if request.module.__name__.endswith("test_catalogues"):
        return
    stale = []
    for lang in LANGUAGES:
        po = TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            stale.append(str(mo))
    if stale:
        pytest.fail(f"run `make translations` first; missing or older than their .po: {stale}")


@pytest.fixture(autouse=True)
def _empty_sheet_cache() -> None:
    sheets.blank_cache.clear()
    sheets.game_cache.clear()


@pytest.fixture
def game_id(app: Flask) -> int:
    """A standard game of the season "Winter" with the German seed's deal entered."""
    with app.app_context():
        season = players.create_season("Winter", date(2026, 11, 1), date(2027, 2, 28))
        game = games.start_game(
            "standard",
            TEAMS,
            season_id=season.id,
            played_on=date(2026, 11, 29),
        )
        games.record_deal(game.id, GERMAN_DEAL)
        return game.id


@pytest.fixture
def finished_game_id(app: Flask, game_id: int) -> int:
    """The same game played to its last deal, so that the season has standings."""
    with app.app_context():
        for _ in range(3):
            games.record_deal(game_id, GERMAN_DEAL)
        return game_id


@pytest.fixture
def one_deal_game_id(app: Flask) -> int:
    """A game of one deal (`ONE_DEAL`) with that deal, the German seed's, entered: it is over."""
    with app.app_context():
        game_id = games.start_game(ONE_DEAL, TEAMS).id
        games.record_deal(game_id, GERMAN_DEAL)
        return game_id
