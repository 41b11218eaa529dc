"""Write tests/fixtures/schema_<revision>.sql: a filled database at the current head schema.

Run it once per released schema, at the commit that releases it (the services must write that
schema): ``.venv/bin/python scripts/make_fixture_db.py``. The test in
tests/test_fixture_databases.py loads every such file into an empty database migrated to its
revision, migrates it to the head of the day, and checks every row and every score.

The file holds the rows only, as portable INSERT statements (booleans TRUE/FALSE, JSON as
text, one statement a line), so the same dump loads into SQLite and PostgreSQL; the tables
come from the migrations themselves. A JSON file beside it keeps each game's totals.
"""

from __future__ import annotations

import json
import sys
import tempfile
from datetime import date, datetime
from pathlib import Path
from typing import Any

import flask_migrate
import sqlalchemy as sa

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Game  # noqa: E402
from scorekeeper.services import games, players, rulesets  # noqa: E402

FIXTURES = PROJECT / "tests" / "fixtures"
PAIRS = [games.TeamSpec("Ann & Ben", ["Ann", "Ben"]), games.TeamSpec("", ["Cy", "Di"])]
DEALS: list[list[dict[str, Any]]] = [
    [{"clean_books": 1, "melded": 300, "opening_meld": 60}, {"left": 40}],
    [{"melded": 100}, {"clean_books": 1, "melded": 400, "left": 15}],
    [{"dirty_books": 1, "melded": 250}, {"melded": 130, "red_threes": 1}],
    [
        {
            "clean_books": 2,
            "dirty_books": 2,
            "wild_books": 1,
            "red_threes": 1,
            "melded": 555,
            "went_out": True,
        },
        {"clean_books": 1, "red_threes": 1, "melded": 220, "left": 205},
    ],
]
COUNTED_DEAL = [
    {"clean_books": 1, "melded": {"eights_to_kings": 10, "aces": 3}, "opening_meld": 120},
    {"left": {"aces": 2, "black_threes": 1}, "red_threes_caught": 1},
]


def literal(value: Any) -> str:
    """A SQL literal both SQLite and PostgreSQL read the same way."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, datetime | date):
        value = value.isoformat(sep=" ") if isinstance(value, datetime) else value.isoformat()
    elif isinstance(value, dict | list):
        value = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return "'" + str(value).replace("'", "''") + "'"


def fill() -> dict[str, list[int]]:
    """Games of every kind a season holds; returns each game's totals."""
    season = players.create_season("Winter 2026", date(2026, 11, 1), date(2027, 2, 28))
    club = rulesets.create_house_rules("Club night", "standard", {})
    finished = games.start_game("standard", PAIRS, season_id=season.id, played_on=date(2026, 11, 5))
    for deal in DEALS:
        games.record_deal(finished.id, games.tallies_from_mapping(deal))
    corrected = games.start_game(club.slug, PAIRS, season_id=season.id)
    for deal in DEALS[:3]:
        games.record_deal(corrected.id, games.tallies_from_mapping(deal))
    first = games.load_game(corrected.id).deals[0]
    games.correct_deal(
        corrected.id,
        1,
        first.version,
        games.tallies_from_mapping([{**DEALS[0][0], "melded": 350}, DEALS[0][1]]),
    )
    second = games.load_game(corrected.id).deals[1]
    games.correct_deal(
        corrected.id,
        2,
        second.version,
        games.tallies_from_mapping([DEALS[1][0], {**DEALS[1][1], "left": 35}]),
    )
    games.undo_last_correction(corrected.id)
    counted = games.start_game("standard", PAIRS, played_on=date(2026, 11, 12))
    games.record_deal(counted.id, games.tallies_from_mapping(COUNTED_DEAL))
    abandoned = games.start_game("standard", PAIRS)
    games.record_deal(abandoned.id, games.tallies_from_mapping(DEALS[0]))
    games.abandon_game(abandoned.id)
    deleted = games.start_game("standard", [games.TeamSpec("", ["Éva", "Zoë"]), *PAIRS[1:]])
    games.record_deal(deleted.id, games.tallies_from_mapping(DEALS[0]))
    games.delete_game(deleted.id)
    ids = (finished.id, corrected.id, counted.id, abandoned.id, deleted.id)
    # Straight from the rows: load_game() rightly refuses a deleted game.
    return {str(i): games.view_game(db.session.get(Game, i)).totals for i in ids}


def dump(engine: sa.Engine) -> list[str]:
    tables = sa.MetaData()
    tables.reflect(engine)
    lines = []
    with engine.connect() as connection:
        for table in tables.sorted_tables:
            if table.name == "alembic_version":
                continue
            columns = ", ".join(f'"{c.name}"' for c in table.columns)
            for row in connection.execute(sa.select(table).order_by(*table.primary_key)):
                values = ", ".join(literal(v) for v in row)
                lines.append(f'INSERT INTO "{table.name}" ({columns}) VALUES ({values});')
    return lines


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/fixture.sqlite"},
            instance_path=f"{tmp}/instance",
        )
        with app.app_context():
            flask_migrate.upgrade(directory=str(PROJECT / "migrations"))
            revision = db.session.execute(
                sa.text("SELECT version_num FROM alembic_version")
            ).scalar_one()
            totals = fill()
            db.session.remove()
            lines = dump(db.engine)
            db.engine.dispose()
    FIXTURES.mkdir(exist_ok=True)
    sql = FIXTURES / f"schema_{revision}.sql"
    header = [
        f"-- alembic revision: {revision}",
        "-- Rows of a filled database at that schema, written by scripts/make_fixture_db.py.",
        "-- Load into an empty database migrated to that revision; never edit by hand.",
    ]
    sql.write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    (FIXTURES / f"schema_{revision}.json").write_text(
        json.dumps({"totals": totals}, indent=2) + "\n", encoding="utf-8"
    )
    print(f"wrote {sql.relative_to(PROJECT)}: {len(lines)} rows")


if __name__ == "__main__":
    main()
