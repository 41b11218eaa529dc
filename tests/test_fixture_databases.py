"""A filled database from every released schema migrates to head with every row and score.

``tests/fixtures/schema_<revision>.sql`` holds the rows of a database at that schema
(``scripts/make_fixture_db.py`` writes one per release). Each is loaded into an empty database
migrated to its revision, migrated to today's head, and checked: every row of every table
is still there with the same values (columns a later migration adds aside), every game
still adds up to the totals it had, and the app can go on writing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flask_migrate
import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from database_support import database_url
from flask import Flask

from scorekeeper import PROJECT_ROOT, create_app
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services import games

FIXTURES = Path(__file__).parent / "fixtures"
MIGRATIONS = str(PROJECT_ROOT / "migrations")
DUMPS = sorted(FIXTURES.glob("schema_*.sql"))
REVISION = re.compile(r"^-- alembic revision: (\S+)$", re.M)


def test_there_is_a_fixture_for_every_schema() -> None:
    # A new migration comes with the dump of its schema (scripts/make_fixture_db.py at head).
    revisions = [s.revision for s in ScriptDirectory(MIGRATIONS).walk_revisions()]
    assert sorted(dump.stem for dump in DUMPS) == sorted(f"schema_{r}" for r in revisions)
    for dump in DUMPS:
        found = REVISION.search(dump.read_text(encoding="utf-8"))
        assert found is not None
        assert dump.stem == f"schema_{found.group(1)}"


@pytest.fixture
def empty_app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path / "fixture.sqlite"),
            "WTF_CSRF_ENABLED": False,
        },
        instance_path=str(tmp_path / "instance"),
    )
    with app.app_context():
        yield app
        db.session.remove()
        db.engine.dispose()


def every_row(engine: sa.Engine) -> dict[str, dict[Any, dict[str, Any]]]:
    """Every row of every table (as the database has it now), by primary key."""
    tables = sa.MetaData()
    tables.reflect(engine)
    rows: dict[str, dict[Any, dict[str, Any]]] = {}
    with engine.connect() as connection:
        for table in tables.sorted_tables:
            if table.name == "alembic_version":
                continue
            key = [c.name for c in table.primary_key]
            rows[table.name] = {
                tuple(row[k] for k in key): dict(row)
                for row in connection.execute(sa.select(table)).mappings()
            }
    return rows


def load(dump: Path) -> str:
    """Migrate the empty database to the dump's revision and insert its rows."""
    text = dump.read_text(encoding="utf-8")
    found = REVISION.search(text)
    assert found, f"{dump.name} names no revision"
    revision = found.group(1)
    flask_migrate.upgrade(directory=MIGRATIONS, revision=revision)
    statements = [line for line in text.splitlines() if line and not line.startswith("--")]
    assert statements, f"{dump.name} holds no rows"
    with db.engine.begin() as connection:
        for statement in statements:
            connection.exec_driver_sql(statement)
        if connection.dialect.name == "postgresql":
            # As any restore must: move each id sequence past the ids the dump brought (the
            # summaries' tables are keyed by their team or have one row: no sequence).
            inspector = sa.inspect(connection)
            for table in inspector.get_table_names():
                if "id" in {column["name"] for column in inspector.get_columns(table)}:
                    connection.execute(
                        sa.text(
                            "SELECT setval(pg_get_serial_sequence(:t, 'id'), "
                            f'COALESCE((SELECT MAX(id) FROM "{table}"), 0) + 1, false)'
                        ),
                        {"t": table},
                    )
    return revision


@pytest.mark.parametrize("dump", DUMPS, ids=[d.stem for d in DUMPS])
def test_a_released_schema_migrates_to_head_keeping_every_row_and_score(
    empty_app: Flask, dump: Path
) -> None:
    load(dump)
    before = every_row(db.engine)
    assert sum(len(rows) for rows in before.values()) == len(
        [
            line
            for line in dump.read_text(encoding="utf-8").splitlines()
            if line.startswith("INSERT")
        ]
    )

    flask_migrate.upgrade(directory=MIGRATIONS)
    after = every_row(db.engine)

    for table, rows in before.items():
        assert table in after, f"table {table} is gone"
        assert set(after[table]) == set(rows), f"rows of {table} lost or added"
        for key, row in rows.items():
            kept = {
                column: after[table][key][column] for column in row if column in after[table][key]
            }
            assert kept == row, (table, key)

    expected = json.loads(dump.with_suffix(".json").read_text(encoding="utf-8"))["totals"]
    for game_id, totals in expected.items():
        game = db.session.get(Game, int(game_id))
        assert game is not None
        assert games.view_game(game).totals == totals, game_id
    db.session.remove()

    # The migrated database takes new games and deals (ids continue past the old ones).
    client = empty_app.test_client()
    started = client.post(
        "/api/games",
        json={
            "ruleset": "standard",
            "teams": [{"players": ["Ann", "Ben"]}, {"players": ["Ny", "Zed"]}],
        },
    )
    assert started.status_code == 201, started.get_json()
    game_id = started.get_json()["id"]
    assert game_id > max(int(i) for i in expected)
    deal = client.post(
        f"/api/games/{game_id}/deals",
        json={"teams": [{"clean_books": 1, "melded": 300, "opening_meld": 60}, {"left": 40}]},
    )
    assert deal.status_code == 201, deal.get_json()
    # And corrections of an old game's deal (the correction log's ids continue too).
    version = client.get("/api/games/2/deals/1").get_json()["version"]
    teams = [{"clean_books": 1, "melded": 320, "opening_meld": 60}, {"left": 40}]
    correction = client.put("/api/games/2/deals/1", json={"version": version, "teams": teams})
    assert correction.status_code == 200, correction.get_json()
