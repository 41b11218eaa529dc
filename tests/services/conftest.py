"""Service tests: the app factory, a real SQLite file, one app context per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask


@pytest.fixture
def ctx(app: Flask) -> Iterator[Flask]:
    with app.app_context():
        yield app
