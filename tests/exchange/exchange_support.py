"""Helpers of the export, import and backup tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import func, select, text

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.services import standings


def fresh_app(tmp_path: Path, name: str, **config: Any) -> Flask:
    """Another app on its own empty database file (and its own instance folder)."""
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / (name + '.sqlite')}",
            "WTF_CSRF_ENABLED": False,
            **config,
        },
        instance_path=str(tmp_path / f"instance-{name}"),
    )
    with app.app_context():
        db.create_all()
    return app


def table_counts(app: Flask) -> dict[str, int]:
    """Rows in every table."""
    with app.app_context():
        return {
            table.name: db.session.scalar(select(func.count()).select_from(table)) or 0
            for table in db.metadata.sorted_tables
        }


def close(app: Flask) -> None:
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def line_facts(line: standings.Line) -> tuple[Any, ...]:
    return (
        line.name,
        line.games,
        line.win_units,
        line.points,
        line.deals,
        line.margin,
        line.clean_books,
        line.dirty_books,
        line.wild_books,
        line.red_threes,
        line.went_out,
        line.stock_outs,
        line.best,
        line.worst,
        tuple(sorted((k, v.games, v.points) for k, v in line.rules.items())),
        line.rating,
    )


def standings_facts(app: Flask) -> dict[str, Any]:
    """Every figure of the all-time and every season's standings, by names (never ids)."""
    with app.app_context():
        standings.clear_cache()
        facts: dict[str, Any] = {}
        scopes: list[tuple[str, int | None]] = [("all time", None)]
        scopes += [(s.season.name, s.season.id) for s in standings.seasons()]
        for label, season_id in scopes:
            table = standings.standings(season_id)
            names = table.names
            facts[label] = {
                "players": [line_facts(line) for line in table.players],
                "partnerships": [line_facts(line) for line in table.partnerships],
                "history": {
                    names[player]: [
                        (index, point.played_on, point.mu, point.sigma) for index, point in points
                    ]
                    for player, points in table.ratings.history.items()
                },
            }
        return facts


def stored_rules(app: Flask, game_id: int) -> str:
    with app.app_context():
        found: str = db.session.execute(
            text("SELECT CAST(ruleset AS TEXT) FROM game WHERE id = :id"), {"id": game_id}
        ).scalar_one()
    return found


def damage(app: Flask, game_ids: list[int], how: str) -> None:
    """Write damaged rules over the games' own copy, straight into the database."""
    good = json.loads(stored_rules(app, game_ids[0]))
    if how == "not JSON":
        broken = json.dumps(good)[:40]
    elif how == "not an object":
        broken = json.dumps(["standard"])
    else:  # JSON, but not rules this app can play
        broken = json.dumps({**good, "min_players": "many"})
    with app.app_context():
        for game_id in game_ids:
            db.session.execute(
                text("UPDATE game SET ruleset = :ruleset WHERE id = :id"),
                {"ruleset": broken, "id": game_id},
            )
        db.session.commit()
