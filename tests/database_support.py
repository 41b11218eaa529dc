"""Which database the tests run on: a SQLite file (the default) or a real PostgreSQL server.

``SCOREKEEPER_TEST_DATABASE_URL=postgresql+psycopg://user:pass@host/db`` runs the suite on
PostgreSQL (``make test`` does so in its second pass, ``scripts/postgres.sh`` starts the server).
Every database a test asks for is then a schema of its own in that database, made on the spot
and dropped when the test ends: tests stay isolated, and nothing needs a server per test.
"""

from __future__ import annotations

import contextlib
import os
import re
import uuid
import weakref
from pathlib import Path
from typing import Any

import sqlalchemy as sa

TEST_DATABASE_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL", "").strip()
# Set to anything but one PostgreSQL URL, the suite would run on SQLite and call it a
# PostgreSQL pass: refuse it instead.
if TEST_DATABASE_URL and not re.fullmatch(r"postgresql(\+\w+)?://\S+", TEST_DATABASE_URL):
    raise RuntimeError(
        "SCOREKEEPER_TEST_DATABASE_URL is not a PostgreSQL URL "
        f"(postgresql+psycopg://user:password@host:port/database): {TEST_DATABASE_URL!r}"
    )
ON_POSTGRES = bool(TEST_DATABASE_URL)
DIALECT = "postgresql" if ON_POSTGRES else "sqlite"

# tmp_path-based file path -> the URL handed out for it, so two apps a test builds on the
# same "file" share one database, as they would on SQLite.
_handed_out: dict[str, str] = {}
_schemas: list[str] = []
_session_schemas: list[str] = []
_admin: sa.Engine | None = None
# Every engine a test's apps opened, so their pooled connections are closed when the test
# ends even where a test never disposes of its app (psycopg warns about a connection that is
# garbage-collected open, and the run treats warnings as errors).
_engines: weakref.WeakSet[sa.Engine] = weakref.WeakSet()


@sa.event.listens_for(sa.Engine, "engine_connect")
def _remember(connection: sa.Connection) -> None:
    _engines.add(connection.engine)


def close_engines() -> None:
    for engine in list(_engines):
        if engine is not _admin:
            engine.dispose()


def _admin_engine() -> sa.Engine:
    global _admin
    if _admin is None:
        _admin = sa.create_engine(
            TEST_DATABASE_URL, poolclass=sa.pool.NullPool, isolation_level="AUTOCOMMIT"
        )
    return _admin


def database_url(path: Path | str, *, session: bool = False) -> str:
    """A URL for a fresh database standing in for the SQLite file ``path``.

    It is dropped when the test ends, or with ``session=True`` when the whole run ends.
    """
    if not ON_POSTGRES:
        return f"sqlite:///{path}"
    key = str(path)
    if key not in _handed_out:
        stem = re.sub(r"[^a-z0-9]+", "_", Path(key).stem.lower())[:20]
        schema = f"t_{uuid.uuid4().hex[:12]}_{stem}"
        with _admin_engine().connect() as connection:
            connection.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        (_session_schemas if session else _schemas).append(schema)
        url = sa.make_url(TEST_DATABASE_URL).update_query_dict(
            {"options": f"-csearch_path={schema}"}
        )
        _handed_out[key] = url.render_as_string(hide_password=False)
    return _handed_out[key]


def drop_handed_out(*, session: bool = False) -> None:
    """Drop the schemas of the test that ended (or, at the end, of the whole run)."""
    schemas = _session_schemas if session else _schemas
    if ON_POSTGRES:
        close_engines()
    for key in [key for key, url in _handed_out.items() if any(s in url for s in schemas)]:
        del _handed_out[key]
    if not schemas:
        return
    with _admin_engine().connect() as connection:
        # A connection a test forgot to close must not hang the run: leave that schema be.
        connection.exec_driver_sql("SET lock_timeout = '5s'")
        while schemas:
            schema = schemas.pop()
            with contextlib.suppress(sa.exc.OperationalError):
                connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def dispose() -> None:
    drop_handed_out(session=True)
    if _admin is not None:
        _admin.dispose()


def all_rows(app: Any) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the app's database, in key order: before/after snapshots."""
    from scorekeeper.extensions import db

    with app.app_context():
        rows = {
            table.name: [
                tuple(row)
                for row in db.session.execute(sa.select(table).order_by(*table.primary_key))
            ]
            for table in db.metadata.sorted_tables
        }
        db.session.remove()
    return rows
