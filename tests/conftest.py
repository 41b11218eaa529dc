from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import settings

from scorekeeper import create_app
from scorekeeper.extensions import db

# Property tests judge correctness, not speed: a busy 2-core machine must not fail them.
settings.register_profile("scorekeeper", deadline=None)
settings.load_profile("scorekeeper")


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # The developer's own settings must not leak into the tests.
    for name in ("DATABASE_URL", "SCOREKEEPER_SECRET_KEY", "SCOREKEEPER_BACKUP_DAILY", "PORT"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite'}",
            "WTF_CSRF_ENABLED": False,
        },
        instance_path=str(tmp_path / "instance"),
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
