"""Fixtures of the JSON API tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from api_support import Api, standard_game_body
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.extensions import db


@pytest.fixture
def api(client: FlaskClient) -> Api:
    return Api(client)


@pytest.fixture
def row_counts(app: Flask) -> Callable[[], dict[str, int]]:
    """Rows in every table: a refused or read-only request must leave them all as they were."""

    def counts() -> dict[str, int]:
        with app.app_context():
            return {
                table.name: db.session.scalar(select(func.count()).select_from(table)) or 0
                for table in db.metadata.sorted_tables
            }

    return counts


@pytest.fixture
def new_game(api: Api) -> Callable[..., int]:
    """Start a game through the API and return its id."""

    def start(**more: Any) -> int:
        response = api.post("/api/games", standard_game_body(**more))
        assert response.status_code == 201, response.get_json()
        game_id: int = response.get_json()["id"]
        return game_id

    return start
