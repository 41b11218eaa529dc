"""The standings pages run a fixed number of SQL queries, however many games there are."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sql_support import watch_sql
from standings_support import G1_DEALS, G2_DEALS, play

from scorekeeper.extensions import db
from scorekeeper.services import standings
from scorekeeper.services.players import create_season

PAGES = (
    "/standings",
    "/api/standings",
    "/seasons/{season}",
    "/api/seasons/{season}/standings",
    "/players/{player}",
    "/players/{player}/games",
)


@contextmanager
def counted(app: Flask) -> Iterator[list[str]]:
    with app.app_context():
        engine = db.engine
    with watch_sql(engine) as seen:
        yield seen


def play_games(app: Flask, count: int, season_id: int, start: int = 0) -> None:
    names = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn"]
    with app.app_context():
        for i in range(start, start + count):
            # Partners and opponents rotate, so the partnerships grow with the games.
            seats = names[i % 6 :] + names[: i % 6]
            play(
                "standard" if i % 2 else "no-wild-books",
                [seats[0:2], seats[2:4]],
                G1_DEALS if i % 2 else G2_DEALS,
                season_id=season_id,
                played_on=date(2025, 1, 1) + timedelta(days=i),
            )


def queries(app: Flask, client: FlaskClient, path: str) -> int:
    standings.clear_cache()
    with counted(app) as statements:
        response = client.get(path)
    assert response.status_code == 200, response.data[:500]
    return len(statements)


@pytest.mark.parametrize("page", PAGES)
def test_query_count_does_not_grow_with_games(app: Flask, client: FlaskClient, page: str) -> None:
    with app.app_context():
        season = create_season("Long season").id
    play_games(app, 5, season)
    with app.app_context():
        player = standings.standings(None).players[0].players[0]
    path = page.format(season=season, player=player)
    few = queries(app, client, path)
    play_games(app, 35, season, start=5)
    many = queries(app, client, path)
    assert few == many
    # And a page served again from the cache needs no more than a cold one.
    with counted(app) as statements:
        client.get(path)
    assert len(statements) <= many
