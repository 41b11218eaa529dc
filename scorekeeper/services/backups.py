"""Backups of the whole SQLite database, and restoring one.

A backup is a copy made with SQLite's online backup API (``sqlite3.Connection.backup``): it
reads one consistent snapshot while the app goes on writing (in WAL mode a reader never
blocks the scorer), into ``instance/backups/scorekeeper-YYYYMMDD-HHMMSS[-kind].sqlite``.
It is written under a temporary name and renamed when complete, so a backup file is never
half-written.

Restoring first checks the file (``PRAGMA integrity_check`` and the scorekeeper tables and
columns; a backup of an older version of the app is checked, then a copy of it migrated to
this version's schema and restored instead), takes a backup of the current database (kind
``before-restore``), then copies the file into the live database with the same backup API
in reverse: every connection sees either the old or the new database, never a mix. The
engine's pool is disposed and the cached standings dropped.

Daily backups: the first write of a day (any POST/PUT/PATCH/DELETE request, through
:func:`daily_backup_if_due`, called before the request reaches its service) makes a backup
of kind ``daily`` when today has none yet; only the newest ``BACKUP_KEEP`` (default 14)
daily backups are kept. Manual and before-restore backups are never deleted automatically.

PostgreSQL has its own tools: backing up or restoring one is refused with a pointer to
``pg_dump`` / ``pg_restore``.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

from flask import current_app
from sqlalchemy.engine import URL

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.rules.i18n import N_

from . import games, standings, summaries
from .errors import Conflict, Invalid, NotFound

BACKUP_DIR = "backups"
DEFAULT_KEEP = 14
_NAME = re.compile(r"scorekeeper-(\d{8})-(\d{6})(?:-(\d+))?(?:-([a-z-]+))?\.sqlite")
KINDS = ("manual", "daily", "before-restore")
_lock = threading.Lock()
# The day each database last had its daily backup checked, so later writes skip the disk.
_checked: dict[str, date] = {}


@dataclass(frozen=True)
class Backup:
    name: str
    path: Path
    size: int
    taken_at: datetime
    kind: str


def backup_dir() -> Path:
    return Path(current_app.instance_path) / BACKUP_DIR


def database_path(url: URL | None = None) -> Path:
    """The SQLite file of the app's database (or of ``url``); Conflict for anything else."""
    url = url or db.engine.url
    if url.get_backend_name() != "sqlite":
        raise Conflict.say(
            N_(
                "Backups from the app work with SQLite only. This database is %(engine)s: "
                "back it up with pg_dump and restore it with pg_restore."
            ),
            field="database",
            engine=url.get_backend_name(),
        )
    if not url.database or url.database == ":memory:" or url.database.startswith("file::"):
        raise Conflict.say(N_("An in-memory database cannot be backed up."), field="database")
    return Path(url.database)


def _name(now: datetime, kind: str, n: int = 0) -> str:
    stamp = now.strftime("%Y%m%d-%H%M%S")
    extra = f"-{n}" if n else ""
    return f"scorekeeper-{stamp}{extra}{'' if kind == 'manual' else '-' + kind}.sqlite"


def _parse(path: Path) -> Backup | None:
    match = _NAME.fullmatch(path.name)
    if match is None:
        return None
    taken = datetime.strptime(match[1] + match[2], "%Y%m%d%H%M%S").replace(tzinfo=UTC)
    kind = match[4] or "manual"
    return Backup(path.name, path, path.stat().st_size, taken, kind)


def list_backups() -> list[Backup]:
    """Every backup in instance/backups, newest first."""
    folder = backup_dir()
    if not folder.is_dir():
        return []
    found = [b for p in folder.iterdir() if p.is_file() and (b := _parse(p)) is not None]
    return sorted(found, key=lambda b: (b.taken_at, b.name), reverse=True)


def _copy(source: sqlite3.Connection, target: Path) -> None:
    """Copy ``source`` into a new file ``target`` through a temporary file, then rename."""
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        dest = sqlite3.connect(tmp)
        try:
            # All pages in one step: one consistent snapshot, however busy the writers are.
            source.backup(dest)
            dest.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            dest.close()
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def make_backup(kind: str = "manual") -> Backup:
    """Back up the whole database now; safe while the app is writing."""
    database = database_path()
    folder = backup_dir()
    folder.mkdir(parents=True, exist_ok=True)
    with _lock:
        now = datetime.now(UTC)
        n = 0
        while (folder / _name(now, kind, n)).exists():
            n += 1
        target = folder / _name(now, kind, n)
        source = sqlite3.connect(database, timeout=30)
        try:
            _copy(source, target)
        finally:
            source.close()
    found = _parse(target)
    assert found is not None
    return found


def find_backup(name: str) -> Backup:
    """A backup of instance/backups by its file name (never a path elsewhere)."""
    for backup in list_backups():
        if backup.name == name:
            return backup
    raise NotFound.say(N_("There is no backup called %(name)s."), field="backup", name=name)


def check_database(path: Path, *, every_column: bool = True, called: str = "") -> None:
    """Invalid unless ``path`` is a sound SQLite file holding a scorekeeper database (with
    every table and column of this version unless ``every_column`` is off: a backup of an
    older version, which is then brought up to date). The refusals name the file ``called``
    (the backup a migrated copy was made from), else by its own name."""
    name = called or path.name
    if not path.is_file():
        raise NotFound.say(N_("There is no file %(name)s."), field="file", name=str(path))
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        raise Invalid.say(N_("%(name)s cannot be opened."), field="file", name=name) from None
    try:
        try:
            result = [row[0] for row in conn.execute("PRAGMA integrity_check")]
            tables = {
                table: {row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')}
                for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
        except sqlite3.DatabaseError:
            raise Invalid.say(
                N_("%(name)s is not an SQLite database."), field="file", name=name
            ) from None
    finally:
        conn.close()
    if result != ["ok"]:
        raise Invalid.say(
            N_("%(name)s is damaged: %(reason)s"),
            field="file",
            name=name,
            reason="; ".join(result[:3]),
        )
    if not every_column:
        return
    missing = []
    for table in db.metadata.sorted_tables:
        columns = tables.get(table.name)
        if columns is None:
            missing.append(table.name)
        else:
            missing += [f"{table.name}.{c.name}" for c in table.columns if c.name not in columns]
    if missing:
        raise Invalid.say(
            N_(
                "%(name)s is not a scorekeeper database of this version (it lacks %(missing)s); "
                "nothing was changed."
            ),
            field="file",
            name=name,
            missing=", ".join(missing[:5]),
        )


def _revision_of(path: Path) -> str | None:
    """The schema revision a database file was last migrated to; None if it tells none."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    return str(row[0]) if row else None


def _revisions() -> tuple[str | None, set[str]]:
    """This version's schema: its head revision and every revision before it."""
    from alembic.script import ScriptDirectory

    from scorekeeper.extensions import MIGRATIONS_DIR

    script = ScriptDirectory(MIGRATIONS_DIR)
    return script.get_current_head(), {rev.revision for rev in script.walk_revisions()}


def check_restorable(path: Path) -> bool:
    """Invalid unless ``path`` can be restored (see :func:`check_database`); True when it is a
    backup of an older version of the app, which is brought up to date as it is restored. A
    file from a newer version is refused: this version cannot know what its tables mean."""
    revision = _revision_of(path)  # none for a file that is missing or no database
    if revision is not None:
        head, known = _revisions()
        if revision != head:
            if revision not in known:
                raise Invalid.say(
                    N_(
                        "%(name)s comes from a newer version of the scorekeeper; update this "
                        "one first. Nothing was changed."
                    ),
                    field="file",
                    name=path.name,
                )
            check_database(path, every_column=False)
            return True
    check_database(path)
    return False


@contextlib.contextmanager
def _up_to_date(path: Path) -> Iterator[Path]:
    """``path``, or a copy of it brought up to this version's schema when it is a backup of
    an older version of the app (migrated as ``flask db upgrade`` would); the copy is removed
    afterwards and the backup itself is never changed."""
    from alembic import command

    from scorekeeper import create_app
    from scorekeeper.extensions import init_migrate

    if not check_restorable(path):
        yield path
        return
    folder = backup_dir()
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / f".upgrading-{os.getpid()}-{threading.get_ident()}.sqlite"
    try:
        source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            _copy(source, copy)
        finally:
            source.close()
        older = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{copy}",
                "TESTING": current_app.testing,
                # This app's own key: the copy's app must not make one of its own.
                "SECRET_KEY": current_app.secret_key,
                "BACKUP_DAILY": False,
            },
            instance_path=current_app.instance_path,
        )
        with older.app_context():
            # Alembic itself, not flask_migrate.upgrade, which turns a failure into
            # sys.exit(1): that would end the request with no answer at all.
            config = init_migrate(older).migrate.get_config()
            config.attributes["configure_logger"] = False
            try:
                command.upgrade(config, "head")
            except Exception as error:  # whatever stopped it, the live database is untouched
                current_app.logger.exception("bringing %s up to date failed", path.name)
                raise Invalid.say(
                    N_(
                        "%(name)s could not be brought up to this version of the "
                        "scorekeeper; nothing was changed."
                    ),
                    field="file",
                    name=path.name,
                ) from error
            finally:
                db.session.remove()
                db.engine.dispose()
        settled = sqlite3.connect(copy)
        try:
            settled.execute("PRAGMA journal_mode=DELETE")  # one self-contained file again
        finally:
            settled.close()
        check_database(copy, called=path.name)
        yield copy
    finally:
        for leftover in (
            copy,
            copy.with_name(copy.name + "-wal"),
            copy.with_name(copy.name + "-shm"),
        ):
            leftover.unlink(missing_ok=True)


def restore(path: Path) -> Backup:
    """Replace the whole database by the backup at ``path``; returns the safety backup taken.

    A backup of an older version of the app is restored as that version's data brought up to
    this version's schema (see :func:`_up_to_date`)."""
    with _up_to_date(path) as current:
        return _restore(current)


def _restore(path: Path) -> Backup:
    """Restore ``path``, checked and at this version's schema."""
    database = database_path()
    safety = make_backup("before-restore")
    db.session.remove()
    db.engine.dispose()
    with _lock:
        source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        target = sqlite3.connect(database, timeout=30)
        try:
            replaced = _stamp_of(target)
            # The backup API in reverse: the live file takes the backup's pages under
            # SQLite's own locks, so other connections see the old or the new database.
            source.backup(target)
        finally:
            source.close()
            target.close()
    db.engine.dispose()
    # Other processes' standings caches are keyed on the stamp, which the restored file may
    # share with the database it replaced: move it past both so every process recomputes.
    summaries.move_past(replaced)
    db.session.commit()
    standings.clear_cache()
    games.forget_scored_deals()
    _checked.clear()
    return safety


def _stamp_of(connection: sqlite3.Connection) -> int:
    """The standings stamp of the database behind ``connection``; 0 if it has none."""
    try:
        row = connection.execute("SELECT version FROM standings_stamp WHERE id = 1").fetchone()
    except sqlite3.Error:
        return 0
    return int(row[0]) if row else 0


def restore_named(name: str) -> Backup:
    return restore(find_backup(name).path)


def keep_count() -> int:
    return max(0, int(current_app.config.get("BACKUP_KEEP", DEFAULT_KEEP)))


def daily_enabled() -> bool:
    """On unless BACKUP_DAILY is false; off in tests unless a test turns it on."""
    setting = current_app.config.get("BACKUP_DAILY")
    if setting is None:
        return not current_app.testing
    return bool(setting)


def prune_daily(keep: int | None = None) -> list[str]:
    """Delete all but the newest ``keep`` daily backups; returns the names deleted."""
    keep = keep_count() if keep is None else keep
    daily = [b for b in list_backups() if b.kind == "daily"]
    gone = []
    for backup in daily[keep:]:
        with contextlib.suppress(FileNotFoundError):
            backup.path.unlink()
        gone.append(backup.name)
    return gone


def daily_backup_if_due(today: date | None = None) -> Backup | None:
    """Today's daily backup, made now if it is the first check of the day and none exists."""
    if not daily_enabled() or keep_count() == 0:
        return None
    url = db.engine.url
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    if not Path(url.database).exists():
        return None
    today = today or datetime.now(UTC).date()
    key = str(url)
    if _checked.get(key) == today:
        return None
    stamp = today.strftime("%Y%m%d")
    if any(b.kind == "daily" and b.name[12:20] == stamp for b in list_backups()):
        _checked[key] = today
        return None
    # A database with no table yet (before `flask db upgrade`) has nothing to keep.
    try:
        db.session.scalar(db.select(Game.id).limit(1))
    except Exception:
        db.session.rollback()
        return None
    backup = make_backup("daily")
    _checked[key] = today
    prune_daily()
    return backup
