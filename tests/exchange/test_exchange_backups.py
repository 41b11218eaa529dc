"""Backups with SQLite's online backup API, restoring one, and the automatic daily backups."""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import flask_migrate
import pytest
from exchange_support import close, fresh_app, table_counts
from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.engine import make_url
from standings_support import OUT_STD, STAY_A, Season

from scorekeeper import PROJECT_ROOT, create_app
from scorekeeper.extensions import db
from scorekeeper.models import Deal, Game, TeamTotal
from scorekeeper.services import backups, games, standings
from scorekeeper.services.errors import Conflict, Invalid, NotFound

OUT = OUT_STD
STAY = STAY_A


def sqlite_counts(path: Path) -> dict[str, int]:
    conn = sqlite3.connect(path)
    try:
        names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {n: conn.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0] for n in names}
    finally:
        conn.close()


def integrity(path: Path) -> tuple[list[str], list[tuple[object, ...]]]:
    conn = sqlite3.connect(path)
    try:
        checked = [row[0] for row in conn.execute("PRAGMA integrity_check")]
        keys = conn.execute("PRAGMA foreign_key_check").fetchall()
        return checked, keys
    finally:
        conn.close()


@pytest.mark.sqlite_only(reason="the app's backups are SQLite files; PostgreSQL uses pg_dump")
def test_a_backup_is_a_complete_copy_in_instance_backups(app: Flask, season: Season) -> None:
    with app.app_context():
        made = backups.make_backup()
        database = backups.database_path()
        listed = backups.list_backups()
    assert made.path.parent == Path(app.instance_path) / "backups"
    assert made.name.startswith("scorekeeper-") and made.kind == "manual"
    assert [b.name for b in listed] == [made.name]
    assert integrity(made.path) == (["ok"], [])
    assert sqlite_counts(made.path) == sqlite_counts(database)
    # A self-contained file: no write-ahead log beside it.
    assert not made.path.with_name(made.name + "-wal").exists()


@pytest.mark.sqlite_only(reason="the app's backups are SQLite files; PostgreSQL uses pg_dump")
def test_a_backup_taken_while_deals_are_written_restores_consistently(
    app: Flask, season: Season
) -> None:
    stop = threading.Event()
    committed: list[int] = []  # ids of deals whose commit has returned
    failures: list[BaseException] = []

    def writer() -> None:
        try:
            with app.app_context():
                while not stop.is_set():
                    game = games.start_game(
                        "standard",
                        [games.TeamSpec("", ["Ann", "Ben"]), games.TeamSpec("", ["Cleo", "Dan"])],
                    )
                    for n in range(4):
                        deal = games.record_deal(game.id, [OUT, STAY] if n % 2 else [STAY, OUT])
                        committed.append(deal.id)
        except BaseException as error:  # reported by the test below
            failures.append(error)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        while len(committed) < 12 and thread.is_alive():
            threading.Event().wait(0.01)
        before = list(committed)
        with app.app_context():
            made = backups.make_backup()
        while len(committed) < len(before) + 8 and thread.is_alive():
            threading.Event().wait(0.01)
    finally:
        stop.set()
        thread.join(timeout=60)
    assert not failures, failures
    assert len(committed) > len(before)  # the writer really went on during and after

    assert integrity(made.path) == (["ok"], [])
    conn = sqlite3.connect(made.path)
    try:
        in_backup = {row[0] for row in conn.execute("SELECT id FROM deal")}
        # Every deal has its two teams' results, and a game with four deals is finished.
        partial = conn.execute(
            "SELECT count(*) FROM deal WHERE (SELECT count(*) FROM deal_result r"
            " WHERE r.deal_id = deal.id) != 2"
        ).fetchone()[0]
        unfinished = conn.execute(
            "SELECT count(*) FROM game WHERE finished_at IS NULL AND"
            " (SELECT count(*) FROM deal d WHERE d.game_id = game.id) = 4"
        ).fetchone()[0]
    finally:
        conn.close()
    assert set(before) <= in_backup
    assert partial == 0 and unfinished == 0

    # Restored, the database is exactly the backup again, and the app reads it.
    with app.app_context():
        # Deals written after the backup are in the database now, and go away on restore.
        assert set(committed) - in_backup
        safety = backups.restore(made.path)
        ids = set(backups.db.session.scalars(backups.db.select(Deal.id)))
        assert ids == in_backup
        assert standings.standings().players  # no stale cache, no stale connection
        database = backups.database_path()
    assert integrity(database) == (["ok"], [])
    # The database as it was before the restore is kept, with every deal written.
    assert safety.kind == "before-restore"
    assert sqlite_counts(safety.path)["deal"] >= len(set(committed))


@pytest.mark.sqlite_only(reason="the app's backups are SQLite files; PostgreSQL uses pg_dump")
def test_restore_puts_back_the_data_and_drops_cached_standings(app: Flask, season: Season) -> None:
    with app.app_context():
        made = backups.make_backup()
        before = standings.standings()
        games.delete_game(season.g1)
        assert standings.standings().games == before.games - 1
        backups.restore_named(made.name)
        after = standings.standings()
        assert [(line.name, line.games, line.points) for line in after.players] == [
            (line.name, line.games, line.points) for line in before.players
        ]
        assert backups.db.session.get(Game, season.g1).deleted_at is None


@pytest.mark.sqlite_only(reason="the app's backups are SQLite files; PostgreSQL uses pg_dump")
def test_a_restore_reaches_the_standings_another_process_has_cached(
    app: Flask, season: Season
) -> None:
    # `flask restore` from a shell while the server runs: the server's cache is not the
    # restoring process's to clear, and the restored file brings back an older stamp.
    with app.app_context():
        made = backups.make_backup()
        games.delete_game(season.g1)
        shown = standings.standings()
        server_cache = dict(standings._cache)  # what the running server holds
        backups.restore_named(made.name)
        standings._cache.update(server_cache)
        assert standings.standings().games == shown.games + 1
        # And the next change is not applied on top of the server's stale lines either.
        games.delete_game(season.g2)
        assert standings.standings().games == shown.games
        standings.clear_cache()
        assert standings.standings().games == shown.games


@pytest.mark.sqlite_only(reason="the app's backups are SQLite files; PostgreSQL uses pg_dump")
@pytest.mark.parametrize(
    "content",
    [b"", b"not a database at all", b"SQLite format 3\x00" + b"\x00" * 200],
    ids=["empty", "text", "damaged header"],
)
def test_restore_refuses_a_file_that_is_not_a_sound_database(
    app: Flask, season: Season, tmp_path: Path, content: bytes
) -> None:
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(content)
    before = table_counts(app)
    with app.app_context(), pytest.raises(Invalid):
        backups.restore(bad)
    assert table_counts(app) == before
    assert not (Path(app.instance_path) / "backups").exists()  # not even a safety backup


@pytest.mark.sqlite_only(reason="the app's backups are SQLite files; PostgreSQL uses pg_dump")
def test_restore_refuses_a_database_that_is_not_a_scorekeeper_one(
    app: Flask, season: Season, tmp_path: Path
) -> None:
    other = tmp_path / "other.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE recipe (id INTEGER PRIMARY KEY, name TEXT)")
    conn.commit()
    conn.close()
    before = table_counts(app)
    with app.app_context(), pytest.raises(Invalid) as refused:
        backups.restore(other)
    assert "not a scorekeeper database" in refused.value.problems[0].message
    assert table_counts(app) == before


@pytest.mark.sqlite_only(reason="the app's backups are SQLite files; PostgreSQL uses pg_dump")
def test_a_damaged_database_is_refused_by_its_integrity_check(
    app: Flask, season: Season, tmp_path: Path
) -> None:
    with app.app_context():
        made = backups.make_backup()
    damaged = tmp_path / "damaged.sqlite"
    shutil.copy(made.path, damaged)
    data = bytearray(damaged.read_bytes())
    page = 4096
    # Scribble over the middle of the second-to-last page (a table or index page).
    start = len(data) - 2 * page + 100
    data[start : start + 1500] = b"\x7f" * 1500
    damaged.write_bytes(bytes(data))
    before = table_counts(app)
    with app.app_context(), pytest.raises(Invalid):
        backups.restore(damaged)
    assert table_counts(app) == before


FIXTURES = Path(__file__).parent.parent / "fixtures"


def older_backup(tmp_path: Path, revision: str, *changes: str) -> Path:
    """A database file as an older version of the app left it: its schema at ``revision``
    and the rows of ``tests/fixtures/schema_<revision>.sql`` (a released version's data);
    then the SQL ``changes``, made by hand (foreign keys off)."""
    path = tmp_path / f"older-{revision}.sqlite"
    older = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"},
        instance_path=str(tmp_path / "instance-older"),
    )
    dump = (FIXTURES / f"schema_{revision}.sql").read_text(encoding="utf-8")
    with older.app_context():
        flask_migrate.upgrade(directory=str(PROJECT_ROOT / "migrations"), revision=revision)
        with db.engine.begin() as connection:
            for statement in dump.splitlines():
                if statement and not statement.startswith("--"):
                    connection.exec_driver_sql(statement)
        db.session.remove()
        db.engine.dispose()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA foreign_keys=OFF")
    for change in changes:
        conn.execute(change)
    conn.commit()
    conn.close()
    return path


def refused_restore(app: Flask, path: Path) -> str:
    """The words restoring ``path`` is refused with; nothing changed and no copy left."""
    before = table_counts(app)
    with app.app_context(), pytest.raises(Invalid) as refused:
        backups.restore(path)
    assert table_counts(app) == before
    folder = Path(app.instance_path) / "backups"
    assert not folder.exists() or not [p for p in folder.iterdir() if p.name.startswith(".")]
    return refused.value.problems[0].message


@pytest.mark.sqlite_only(reason="the app's backups are SQLite files; PostgreSQL uses pg_dump")
def test_a_backup_of_an_older_version_is_brought_up_to_date_and_restored(
    app: Flask, season: Season, tmp_path: Path
) -> None:
    old = older_backup(tmp_path, "0005")
    as_made = old.read_bytes()
    totals = json.loads((FIXTURES / "schema_0005.json").read_text(encoding="utf-8"))["totals"]
    with app.app_context():
        safety = backups.restore(old)
        assert safety.kind == "before-restore"
        restored = {
            str(game.id): [
                sum(r.score for deal in game.deals for r in deal.results if r.team_id == team.id)
                for team in game.teams
            ]
            for game in backups.db.session.scalars(select(Game)).all()
        }
        assert restored == totals
        # The columns this version added are there, filled as the write path keeps them.
        assert standings.standings().games > 0
        kept = backups.db.session.scalars(select(TeamTotal)).all()
        assert kept and all(row.special_books == 0 for row in kept)
        # And the app goes on writing on it.
        game = games.start_game(
            "standard", [games.TeamSpec("", ["Ann", "Ben"]), games.TeamSpec("", ["Cy", "Di"])]
        )
        games.record_deal(game.id, [OUT, STAY])
    assert old.read_bytes() == as_made  # the backup itself is never changed
    leftovers = [p.name for p in (Path(app.instance_path) / "backups").iterdir()]
    assert not [name for name in leftovers if name.startswith(".")]


@pytest.mark.sqlite_only(reason="the app's backups are SQLite files; PostgreSQL uses pg_dump")
def test_an_older_backup_is_restored_from_anywhere_and_leaves_the_logging_alone(
    app: Flask, season: Season, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server started from another folder (a service), and its own logging kept: the
    migrations are found beside the code, and alembic.ini's logging is not applied."""
    old = older_backup(tmp_path, "0005")
    monkeypatch.chdir(tmp_path)
    root = logging.getLogger()
    before = (list(root.handlers), root.level)
    with app.app_context():
        backups.restore(old)
        assert db.session.scalar(select(func.count()).select_from(Game)) == 5
    assert (list(root.handlers), root.level) == before


@pytest.mark.sqlite_only(reason="the app's backups are SQLite files; PostgreSQL uses pg_dump")
def test_an_older_backup_that_cannot_be_migrated_is_refused_in_words(
    app: Flask, season: Season, tmp_path: Path
) -> None:
    """The migration's own refusal (foreign keys broken in the file) is said, never an exit
    of the process: nothing changes, no copy is left."""
    # The player's seats stay, pointing at nobody.
    old = older_backup(tmp_path, "0005", "DELETE FROM player WHERE id = 1")
    assert refused_restore(app, old) == (
        f"{old.name} could not be brought up to this version of the scorekeeper; "
        "nothing was changed."
    )


@pytest.mark.sqlite_only(reason="the app's backups are SQLite files; PostgreSQL uses pg_dump")
def test_an_older_backup_still_lacking_a_table_is_refused_by_its_own_name(
    app: Flask, season: Season, tmp_path: Path
) -> None:
    """Checked again once migrated: the refusal names the backup, not the copy migrated."""
    # No migration after 0005 makes the table again.
    old = older_backup(tmp_path, "0005", "DROP TABLE standings_change")
    message = refused_restore(app, old)
    assert message.startswith(f"{old.name} is not a scorekeeper database of this version")
    assert "standings_change" in message


@pytest.mark.sqlite_only(reason="the app's backups are SQLite files; PostgreSQL uses pg_dump")
def test_flask_restore_brings_an_older_backup_up_to_date_too(
    app: Flask, season: Season, tmp_path: Path
) -> None:
    old = older_backup(tmp_path, "0005")
    result = app.test_cli_runner().invoke(args=["restore", str(old), "--yes"])
    assert result.exit_code == 0, result.output
    assert f"Restored {old}." in result.output
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 5


@pytest.mark.sqlite_only(reason="the app's backups are SQLite files; PostgreSQL uses pg_dump")
def test_a_backup_of_a_newer_version_is_refused_and_changes_nothing(
    app: Flask, season: Season, tmp_path: Path
) -> None:
    newer = older_backup(tmp_path, "0005", "UPDATE alembic_version SET version_num = 'later'")
    assert "comes from a newer version of the scorekeeper" in refused_restore(app, newer)
    assert not (Path(app.instance_path) / "backups").exists()  # not even a safety backup


def test_an_unknown_backup_name_is_not_found(app: Flask) -> None:
    with app.app_context(), pytest.raises(NotFound):
        backups.restore_named("../scorekeeper.sqlite")


def test_postgresql_is_refused_with_a_pointer_to_pg_dump(app: Flask) -> None:
    with app.app_context(), pytest.raises(Conflict) as refused:
        backups.database_path(make_url("postgresql+psycopg://sk:sk@127.0.0.1:5432/sk"))
    assert "pg_dump" in refused.value.problems[0].message


# ---------------------------------------------------------------------------
# Daily backups


def _old_daily(app: Flask, source: Path, days_ago: int) -> Path:
    day = datetime.now(UTC) - timedelta(days=days_ago)
    path = Path(app.instance_path) / "backups" / f"scorekeeper-{day:%Y%m%d}-030000-daily.sqlite"
    path.parent.mkdir(exist_ok=True)
    shutil.copy(source, path)
    return path


def test_the_first_write_of_a_day_makes_a_daily_backup_keeping_the_last_n(
    tmp_path: Path,
) -> None:
    app = fresh_app(tmp_path, "daily", BACKUP_DAILY=True, BACKUP_KEEP=3)
    client = app.test_client()
    try:
        with app.app_context():
            manual = backups.make_backup()
        old = [_old_daily(app, manual.path, days) for days in (1, 2, 3, 4, 5)]

        assert client.get("/games").status_code == 200  # reading makes no backup
        # Nor do the calculators, which write nothing.
        deal = {"ruleset": "standard", "deal": 1, "teams": [{}, {}]}
        assert client.post("/api/score", json=deal).status_code == 200
        assert len(backups_of(app, "daily")) == 5
        response = client.post("/api/seasons", json={"name": "Spring"})
        assert response.status_code == 201

        daily = backups_of(app, "daily")
        today = datetime.now(UTC).strftime("%Y%m%d")
        assert len(daily) == 3
        assert daily[0].startswith(f"scorekeeper-{today}-")
        assert daily[1:] == [old[0].name, old[1].name]
        assert backups_of(app, "manual") == [manual.name]  # made by hand: kept

        # Later writes of the same day make no more.
        assert client.post("/api/seasons", json={"name": "Summer"}).status_code == 201
        assert len(backups_of(app, "daily")) == 3
        with app.app_context():
            assert backups.daily_backup_if_due() is None
    finally:
        close(app)


def test_daily_backups_are_off_in_tests_unless_asked(app: Flask, client: object) -> None:
    assert app.test_client().post("/api/seasons", json={"name": "Spring"}).status_code == 201
    assert not (Path(app.instance_path) / "backups").exists()


def backups_of(app: Flask, kind: str) -> list[str]:
    with app.app_context():
        return [b.name for b in backups.list_backups() if b.kind == kind]


def test_the_environment_can_switch_daily_backups_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_BACKUP_DAILY", "0")
    app = fresh_app(tmp_path, "no-daily", TESTING=False, SECRET_KEY="x")
    try:
        with app.app_context():
            assert not backups.daily_enabled()
            assert backups.daily_backup_if_due() is None
    finally:
        close(app)
    monkeypatch.setenv("SCOREKEEPER_BACKUP_DAILY", "1")
    app = fresh_app(tmp_path, "daily-on")
    try:
        with app.app_context():
            assert backups.daily_enabled()
    finally:
        close(app)
