"""Migrations on a filled database: every row survives, and the models match the schema.

SQLite rebuilds a table to alter it (Alembic's batch mode): it copies the table, drops the
original and renames the copy. With foreign keys ON, dropping a parent table deletes every
child row through ON DELETE CASCADE. ``migrations/env.py`` switches foreign keys off around a
migration; these tests fill a database through the services, migrate it, and count.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flask_migrate
import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.operations import Operations
from alembic.script import ScriptDirectory
from database_support import database_url
from flask import Flask

from scorekeeper import PROJECT_ROOT, create_app
from scorekeeper.extensions import db
from scorekeeper.rules import Cards, TeamTally
from scorekeeper.services import games, players, rulesets
from scorekeeper.services.games import TeamSpec

MIGRATIONS = PROJECT_ROOT / "migrations"
# Tables whose rows hang off a game: batch-altering "game" must not touch them.
CHILDREN = ("team", "team_member", "deal", "deal_result", "correction")

# Tables that hold no data, only a hint: which games the latest steps of the standings stamp
# changed. Going down past the revision that made it and up again leaves it empty, and a
# cache of standings older than its first row computes them all (as before it existed).
HINTS = ("standings_change",)

Rows = dict[str, list[tuple[Any, ...]]]


def _app(tmp_path: Path, name: str = "migrated.sqlite") -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path / name),
            "WTF_CSRF_ENABLED": False,
        },
        instance_path=str(tmp_path / "instance"),
    )


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """An app on an empty database file: only migrations create its tables."""
    app = _app(tmp_path)
    with app.app_context():
        yield app
        db.session.remove()
        db.engine.dispose()


def revisions(directory: Path) -> list[str]:
    """The revisions from the first to head (one branch)."""
    script = ScriptDirectory(str(directory))
    return [rev.revision for rev in reversed(list(script.walk_revisions()))]


def probe_migrations(tmp_path: Path, upgrade: str, downgrade: str = "pass") -> Path:
    """A copy of the project's migrations with one more revision on top of head."""
    directory = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, directory, ignore=shutil.ignore_patterns("__pycache__"))
    head = revisions(MIGRATIONS)[-1]
    body = (
        '"""probe: a change to a parent table, as a real migration would make"""\n\n'
        "import sqlalchemy as sa\n"
        "from alembic import op\n\n"
        'revision = "9999"\n'
        f"down_revision = {head!r}\n"
        "branch_labels = None\n"
        "depends_on = None\n\n\n"
        "def upgrade():\n"
        f"{textwrap.indent(textwrap.dedent(upgrade).strip(), '    ')}\n\n\n"
        "def downgrade():\n"
        f"{textwrap.indent(textwrap.dedent(downgrade).strip(), '    ')}\n"
    )
    (directory / "versions" / "9999_probe.py").write_text(body)
    return directory


# recreate="always": SQLite could add a column in place; a real migration (a changed
# constraint, a dropped column) rebuilds the table, and that rebuild is the trap. PostgreSQL
# alters tables in place (batch mode's "auto"), as every real migration there does.
ADD_PROBE_COLUMN = """
recreate = "always" if op.get_bind().dialect.name == "sqlite" else "auto"
with op.batch_alter_table("game", recreate=recreate) as batch_op:
    batch_op.add_column(sa.Column("probe", sa.Integer(), nullable=True))
"""
DROP_PROBE_COLUMN = """
recreate = "always" if op.get_bind().dialect.name == "sqlite" else "auto"
with op.batch_alter_table("game", recreate=recreate) as batch_op:
    batch_op.drop_column("probe")
"""


def fill() -> None:
    """A little of everything, written the one way the app writes: through the services."""
    season = players.create_season("Spring")
    house = rulesets.create_house_rules("Our table", "standard", {"going_out_bonus": 200})
    out = TeamTally(
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        red_threes=1,
        melded=Cards(points=750),
        left=Cards(points=20),
        went_out=True,
    )
    stay = TeamTally(clean_books=1, melded=Cards(points=260), left=Cards(points=135))
    teams = [TeamSpec("", ["Ann", "Ben"]), TeamSpec("Us", ["Cy", "Di"])]
    first = games.start_game("standard", teams, season_id=season.id)
    second = games.start_game(house.slug, teams)
    third = games.start_game("simpson", [TeamSpec("", [n]) for n in ("Ann", "Eve", "Fay")])
    for _ in range(4):
        games.record_deal(first.id, [out, stay])
    games.record_deal(second.id, [stay, out])
    games.correct_deal(first.id, 2, 1, [out, TeamTally(clean_books=1, melded=Cards(points=300))])
    games.correct_deal(second.id, 1, 1, [TeamTally(), out])
    games.undo_last_correction(second.id)
    games.delete_game(third.id)
    players.rename_player(players.all_players()[-1].id, "Fay R.")


def rows() -> Rows:
    """Every row of every table the database has now (not what the models say), sorted."""
    with db.engine.connect() as connection:
        reflected = sa.MetaData()
        reflected.reflect(bind=connection)
        return {
            name: sorted(
                (tuple(row._mapping.items()) for row in connection.execute(sa.select(table))),
                key=repr,
            )
            for name, table in reflected.tables.items()
            if name != "alembic_version"
        }


def project(snapshot: Rows, like: Rows) -> Rows:
    """``snapshot`` cut down to the tables and columns ``like`` has."""
    result: Rows = {}
    for name, table_rows in like.items():
        columns = {column for column, _ in table_rows[0]} if table_rows else set()
        result[name] = sorted(
            (tuple(item for item in row if item[0] in columns) for row in snapshot.get(name, [])),
            key=repr,
        )
    return result


def without(snapshot: Rows, name: str) -> Rows:
    return {table: table_rows for table, table_rows in snapshot.items() if table != name}


def count(snapshot: Rows) -> dict[str, int]:
    return {name: len(table_rows) for name, table_rows in snapshot.items()}


def on_sqlite() -> bool:
    return bool(db.engine.dialect.name == "sqlite")


def broken_foreign_keys() -> list[Any]:
    """Rows whose parent is missing (SQLite can hold them; PostgreSQL never does)."""
    if not on_sqlite():
        return []
    return list(db.session.execute(sa.text("PRAGMA foreign_key_check")).all())


def foreign_keys_on_everywhere() -> bool:
    """Every connection the app's pool hands out enforces foreign keys."""
    if not on_sqlite():
        # PostgreSQL always does; check that it refuses an orphan all the same.
        with db.engine.connect() as connection:
            try:
                connection.exec_driver_sql(
                    "INSERT INTO team (game_id, position, name) VALUES (-1, 0, 'orphan')"
                )
            except sa.exc.IntegrityError:
                return True
            finally:
                connection.rollback()
        return False
    connections = [db.engine.connect() for _ in range(3)]
    try:
        return all(c.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1 for c in connections)
    finally:
        for connection in connections:
            connection.close()


def check_round_trips(tmp_path: Path, directory: Path) -> int:
    """For every revision below head: fill at head, go down to it and up again, compare.

    Returns how many revisions were checked. A downgrade may drop what its migration added,
    so rows are compared on the columns the lower revision has; no row may go missing.
    """
    below_head = revisions(directory)[:-1]
    for checked, target in enumerate(below_head, start=1):
        app = _app(tmp_path, f"round-trip-{checked}.sqlite")
        with app.app_context():
            flask_migrate.upgrade(directory=str(directory))
            fill()
            filled = rows()
            assert all(filled[name] for name in CHILDREN)

            flask_migrate.downgrade(directory=str(directory), revision=target)
            lowered = rows()
            assert count(lowered) == count(project(filled, lowered))
            assert lowered == project(filled, lowered)

            flask_migrate.upgrade(directory=str(directory))
            again = rows()
            for name in HINTS:
                if name not in lowered:
                    assert filled[name] and again[name] == []
                    filled, again = without(filled, name), without(again, name)
            assert count(again) == count(filled)
            assert project(again, lowered) == project(filled, lowered)
            assert foreign_keys_on_everywhere()
            db.session.remove()
            db.engine.dispose()
    return len(below_head)


# ---------------------------------------------------------------------------
# The project's own migrations


def test_the_migrations_are_one_line_from_the_first_table(app: Flask) -> None:
    script = ScriptDirectory(str(MIGRATIONS))

    assert len(script.get_heads()) == 1
    assert len(script.get_bases()) == 1
    assert revisions(MIGRATIONS)[0] == "0001"


def test_down_to_nothing_and_up_again_gives_empty_tables(app: Flask) -> None:
    flask_migrate.upgrade(directory=str(MIGRATIONS))
    fill()
    assert all(rows()[name] for name in CHILDREN)

    flask_migrate.downgrade(directory=str(MIGRATIONS), revision="base")
    assert rows() == {}

    flask_migrate.upgrade(directory=str(MIGRATIONS))
    emptied = rows()
    assert set(emptied) == {table.name for table in db.metadata.sorted_tables}
    assert all(table_rows == [] for table_rows in emptied.values())
    fill()  # and the app works on it again
    assert count(rows())["deal"] == 5
    assert foreign_keys_on_everywhere()


def test_every_revision_keeps_every_row_down_and_up(tmp_path: Path) -> None:
    # With the first migration alone there is nothing below head but an empty database;
    # the probe revision below runs the same check on a parent-table rebuild.
    assert check_round_trips(tmp_path, MIGRATIONS) == len(revisions(MIGRATIONS)) - 1


def test_the_models_match_the_migrated_schema(app: Flask) -> None:
    """What ``flask db check`` asks: a model changed without a migration fails here."""
    flask_migrate.upgrade(directory=str(MIGRATIONS))

    with db.engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "render_as_batch": True}
        )
        assert compare_metadata(context, db.metadata) == []

        # The comparison is not blind: one column more in the models is a difference.
        changed = sa.MetaData(naming_convention=db.metadata.naming_convention)
        for table in db.metadata.sorted_tables:
            table.to_metadata(changed)
        changed.tables["game"].append_column(sa.Column("venue", sa.String(80), nullable=True))
        diff = compare_metadata(context, changed)
    assert [(d[0], d[2], d[3].name) for d in diff] == [("add_column", "game", "venue")]


def test_special_books_of_games_played_before_0006_are_summed(app: Flask) -> None:
    """Migration 0006 adds the special books to the team totals of games already played,
    as the write path would have kept them; a deal result changed by hand counts none."""
    flask_migrate.upgrade(directory=str(MIGRATIONS))
    fill()
    special = {"special_books": [{"id": "sevens", "name": "Sevens", "bonus": 1000}]}
    house = rulesets.create_house_rules("Sevens", "standard", special)
    out = TeamTally(
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        special_books={"sevens": 2},
        melded=Cards(points=1500),
        went_out=True,
    )
    stay = TeamTally(clean_books=1, special_books={"sevens": 1}, melded=Cards(points=300))
    game = games.start_game(house.slug, [TeamSpec("", ["Ann", "Ben"]), TeamSpec("", ["Cy", "Di"])])
    games.record_deal(game.id, [out, stay])
    games.record_deal(game.id, [stay, out])
    kept = rows()["team_total"]
    by_team = {dict(row)["team_id"]: dict(row)["special_books"] for row in kept}
    assert sorted(by_team.values()) == [0] * (len(kept) - 2) + [3, 3]

    flask_migrate.downgrade(directory=str(MIGRATIONS), revision="0005")
    assert "special_books" not in dict(rows()["team_total"][0])
    # Changed by hand while at 0005: not a mapping of whole counts; it counts none.
    damaged = db.session.execute(
        sa.text(
            "SELECT id, team_id, CAST(special_books AS TEXT) AS special_books"
            " FROM deal_result WHERE CAST(special_books AS TEXT) LIKE '%sevens%' ORDER BY id"
        )
    ).first()
    assert damaged is not None
    lost = sum(json.loads(damaged.special_books).values())
    db.session.execute(
        sa.text("UPDATE deal_result SET special_books = '[1, 2]' WHERE id = :id"),
        {"id": damaged.id},
    )
    db.session.commit()

    flask_migrate.upgrade(directory=str(MIGRATIONS))
    again = {dict(row)["team_id"]: dict(row)["special_books"] for row in rows()["team_total"]}
    assert again == {**by_team, damaged.team_id: by_team[damaged.team_id] - lost}


# ---------------------------------------------------------------------------
# The foreign-key trap, on a revision that rebuilds the parent of every game row


def test_rebuilding_a_parent_table_keeps_every_child_row(app: Flask, tmp_path: Path) -> None:
    directory = probe_migrations(tmp_path, ADD_PROBE_COLUMN, DROP_PROBE_COLUMN)
    flask_migrate.upgrade(directory=str(directory), revision=revisions(MIGRATIONS)[-1])
    fill()
    before = rows()

    flask_migrate.upgrade(directory=str(directory))

    after = rows()
    assert "probe" in {column for column, _ in after["game"][0]}
    assert count(after) == count(before)
    assert project(after, before) == before
    assert broken_foreign_keys() == []
    assert foreign_keys_on_everywhere()
    # The app goes on writing with foreign keys enforced.
    games.record_deal(2, [TeamTally(), TeamTally()])
    with pytest.raises(sa.exc.IntegrityError):
        db.session.execute(
            sa.text("INSERT INTO team (game_id, position, name) VALUES (99, 0, 'x')")
        )
    db.session.rollback()


def test_the_probe_revision_keeps_every_row_down_and_up(tmp_path: Path) -> None:
    directory = probe_migrations(tmp_path, ADD_PROBE_COLUMN, DROP_PROBE_COLUMN)

    assert check_round_trips(tmp_path, directory) == len(revisions(MIGRATIONS))


@pytest.mark.sqlite_only(reason="the trap is SQLite's table rebuild with foreign keys on")
def test_the_trap_is_real_without_the_protection(app: Flask) -> None:
    """The same rebuild with foreign keys ON deletes the children: what env.py prevents."""
    flask_migrate.upgrade(directory=str(MIGRATIONS))
    fill()
    assert all(rows()[name] for name in CHILDREN)

    with db.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        operations = Operations(MigrationContext.configure(connection))
        with operations.batch_alter_table("game", recreate="always") as batch_op:
            batch_op.add_column(sa.Column("probe", sa.Integer(), nullable=True))
        connection.commit()

    after = rows()
    assert after["game"]
    assert all(after[name] == [] for name in CHILDREN)


def test_a_failed_migration_leaves_foreign_keys_on(app: Flask, tmp_path: Path) -> None:
    directory = probe_migrations(tmp_path, ADD_PROBE_COLUMN + 'raise RuntimeError("boom")\n')
    flask_migrate.upgrade(directory=str(directory), revision=revisions(MIGRATIONS)[-1])
    fill()

    with pytest.raises(SystemExit):
        flask_migrate.upgrade(directory=str(directory))

    # The migration's connection goes back to the app's pool: it must enforce foreign keys.
    assert foreign_keys_on_everywhere()


def test_a_failed_migration_changes_nothing(app: Flask, tmp_path: Path) -> None:
    directory = probe_migrations(tmp_path, ADD_PROBE_COLUMN + 'raise RuntimeError("boom")\n')
    flask_migrate.upgrade(directory=str(directory), revision=revisions(MIGRATIONS)[-1])
    fill()
    before = rows()

    with pytest.raises(SystemExit):
        flask_migrate.upgrade(directory=str(directory))

    # Half a migration would leave a column the version table knows nothing about, and
    # running the upgrade again would then fail on it.
    assert rows() == before


def test_a_migration_that_breaks_foreign_keys_is_undone(app: Flask, tmp_path: Path) -> None:
    directory = probe_migrations(
        tmp_path, "op.execute(\"INSERT INTO team (game_id, position, name) VALUES (99, 0, 'x')\")"
    )
    head = revisions(MIGRATIONS)[-1]
    flask_migrate.upgrade(directory=str(directory), revision=head)
    fill()
    before = rows()

    # SQLite: env.py's foreign-key check refuses it; PostgreSQL: the insert itself fails.
    with pytest.raises((SystemExit, sa.exc.IntegrityError)):
        flask_migrate.upgrade(directory=str(directory))
    db.session.rollback()

    assert rows() == before
    assert broken_foreign_keys() == []
    version = db.session.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    assert version == head
