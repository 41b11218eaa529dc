"""A game whose stored rules are damaged: the export is refused before its first byte.

The export scores every deal again with its game's rules while it is sent. A copy of the
rules that cannot be read used to end the download halfway, after a 200 and the games
before it: a file that looked whole. Every copy is read before anything is sent now.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from exchange_support import damage
from flask import Flask
from standings_support import Season

from scorekeeper.extensions import db
from scorekeeper.services import exchange
from scorekeeper.services.errors import Conflict

DOWNLOADS = ["/api/export.json", "/settings/export.json", "/settings/export.zip"]


HOW = [
    # PostgreSQL's json column refuses text that is not JSON: only SQLite can hold it.
    pytest.param("not JSON", marks=pytest.mark.sqlite_only(reason="json columns check")),
    "not an object",
    "not rules",
]


def checked_out(app: Flask) -> int:
    with app.app_context():
        count: int = db.engine.pool.checkedout()  # type: ignore[attr-defined]
    return count


@pytest.mark.parametrize("how", HOW)
def test_damaged_rules_are_refused_before_the_first_byte(
    app: Flask, season: Season, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    # A piece for every game, and the last game played damaged: the old export sent 200 and
    # the six games before it, then stopped.
    monkeypatch.setattr(exchange, "_CHUNK", 1)
    damage(app, [season.g6], how)
    for url in DOWNLOADS:
        with app.test_request_context(url):
            # The response as the server gets it: its status decided, nothing of it sent yet.
            response = app.full_dispatch_request()
        assert response.status_code == 409, url
        assert not response.is_streamed, url
        assert "Content-Disposition" not in response.headers, url
        body = response.get_data()
        response.close()
        assert b'"uid"' not in body and b"PK" not in body[:2], url
        assert checked_out(app) == 0, url


def test_the_api_says_which_game_and_which_rules(app: Flask, season: Season) -> None:
    damage(app, [season.g2], "not rules")
    response = app.test_client().get("/api/export.json")
    assert response.status_code == 409
    assert response.mimetype == "application/json"
    assert response.get_json() == {
        "errors": [
            {
                "team": None,
                "field": "",
                "message": f"The rules kept with game {season.g2} (no-wild-books) are damaged "
                "and cannot be read; the export needs them to score its deals.",
            }
        ]
    }


def test_several_games_with_the_same_damaged_copy_are_named_once(
    app: Flask, season: Season
) -> None:
    damage(app, [season.g3, season.g1], "not an object")
    messages = [e["message"] for e in app.test_client().get("/api/export.json").json["errors"]]
    first = min(season.g1, season.g3)
    assert messages == [
        f"The rules kept with 2 games (standard, the first of them game {first}) are damaged "
        "and cannot be read; the export needs them to score their deals."
    ]


@pytest.mark.parametrize("url", ["/settings/export.json", "/settings/export.zip"])
def test_the_settings_page_says_why_there_is_no_download(
    app: Flask, season: Season, url: str
) -> None:
    damage(app, [season.g6], "not rules")
    client = app.test_client()
    response = client.get(url)
    assert response.status_code == 409
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert "Nothing was exported." in page
    assert f"The rules kept with game {season.g6} (standard) are damaged" in page
    # The settings page itself, as ever: the buttons to export, import and back up.
    assert 'action="/settings/export.json"' in page
    # In the table's language.
    german = client.get(url, headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Nothing was exported." not in german
    assert f"The rules kept with game {season.g6}" not in german
    assert f"{season.g6}" in german and "(standard)" in german


def test_a_season_without_the_damaged_game_still_exports(app: Flask, season: Season) -> None:
    # g7 was played outside the season: the season's export never reads its rules.
    with app.app_context():
        before = exchange.export_json(season.season_id)
    damage(app, [season.g7], "not rules")
    client = app.test_client()
    response = client.get(f"/settings/export.json?season={season.season_id}")
    assert response.status_code == 200
    data = response.get_data(as_text=True)
    exported: dict[str, Any] = json.loads(data)
    assert len(exported["games"]) == 6
    # The same text but its moment of export.
    stamp = json.loads(before)["exported_at"]
    assert data == before.replace(stamp, exported["exported_at"], 1)
    assert client.get("/settings/export.json").status_code == 409


def test_the_command_and_the_service_refuse_too(app: Flask, season: Season) -> None:
    damage(app, [season.g6], "not rules")
    with app.app_context():
        with pytest.raises(Conflict):
            exchange.open_export()
        with pytest.raises(Conflict):
            exchange.export_csv()
        assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]
    result = app.test_cli_runner().invoke(args=["export"])
    assert result.exit_code == 1
    assert f"The rules kept with game {season.g6} (standard) are damaged" in result.output
    assert '"games"' not in result.output
