from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from database_support import DIALECT, ON_POSTGRES, database_url, dispose, drop_handed_out
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import settings

from scorekeeper import create_app
from scorekeeper.extensions import db

# Property tests judge correctness, not speed: a busy 2-core machine must not fail them.
settings.register_profile("scorekeeper", deadline=None)
settings.load_profile("scorekeeper")


def pytest_report_header() -> str:
    return f"scorekeeper test database: {DIALECT}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # On PostgreSQL, tests of SQLite's own machinery (file, pragmas, WAL) are deselected,
    # not skipped: they were never meant to run there.
    if not ON_POSTGRES:
        return
    kept = [item for item in items if item.get_closest_marker("sqlite_only") is None]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # The developer's own settings must not leak into the tests.
    for name in (
        "DATABASE_URL",
        "SCOREKEEPER_SECRET_KEY",
        "SCOREKEEPER_INSTANCE_PATH",
        "SCOREKEEPER_PROXIES",
        "SCOREKEEPER_BACKUP_DAILY",
        "PORT",
        "FLASK_DEBUG",
    ):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def _drop_test_databases() -> Iterator[None]:
    yield
    drop_handed_out()


@pytest.fixture(scope="session", autouse=True)
def _close_database_admin() -> Iterator[None]:
    yield
    dispose()


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path / "test.sqlite"),
            "WTF_CSRF_ENABLED": False,
        },
        instance_path=str(tmp_path / "instance"),
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.session.rollback()
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
