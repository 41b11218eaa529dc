"""Seasons and standings through the JSON API: shapes, order and refusals."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from standings_support import G1_DEALS, Season, play

from scorekeeper.extensions import db
from scorekeeper.models import Season as SeasonRow
from scorekeeper.services import standings

LINE_KEYS = {
    "rank",
    "games",
    "wins",
    "win_pct",
    "points",
    "average_per_game",
    "average_per_deal",
    "average_margin",
    "rating",
    "deals",
    "books_per_game",
    "going_out_rate",
    "red_threes_per_game",
    "red_threes_caught",
    "stock_outs",
    "best_game",
    "worst_game",
    "rules",
}


def seasons_in_db(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(SeasonRow)) or 0


def test_list_seasons(client: FlaskClient, season: Season) -> None:
    body = client.get("/api/seasons").get_json()
    assert body == {
        "seasons": [
            {
                "id": season.season_id,
                "name": "Winter",
                "starts_on": "2025-01-01",
                "ends_on": "2025-03-31",
                "games": 3,
            }
        ]
    }


def test_create_a_season(app: Flask, client: FlaskClient) -> None:
    response = client.post("/api/seasons", json={"name": "Spring", "starts_on": "2025-04-01"})
    assert response.status_code == 201
    body = response.get_json()
    assert body == {
        "id": body["id"],
        "name": "Spring",
        "starts_on": "2025-04-01",
        "ends_on": None,
        "games": 0,
    }
    assert response.headers["Location"] == f"/api/seasons/{body['id']}/standings"
    assert client.get(response.headers["Location"]).status_code == 200
    assert seasons_in_db(app) == 1


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({}, 400, "name"),
        ({"name": 5}, 400, "name"),
        ({"name": "A", "colour": "red"}, 400, "colour"),
        ({"name": "A", "starts_on": "1 April"}, 400, "starts_on"),
        ({"name": "A", "ends_on": "2025-02-30"}, 400, "ends_on"),
        ({"name": "   "}, 422, "name"),
        ({"name": "A", "starts_on": "2025-05-01", "ends_on": "2025-04-01"}, 422, "ends_on"),
        ({"name": "x" * 81}, 422, "name"),
    ],
)
def test_refused_seasons_change_nothing(
    app: Flask, client: FlaskClient, body: dict[str, Any], status: int, field: str
) -> None:
    response = client.post("/api/seasons", json=body)
    assert response.status_code == status
    errors = response.get_json()["errors"]
    assert field in [error["field"] for error in errors]
    assert all(error["message"] for error in errors)
    assert seasons_in_db(app) == 0


def test_a_season_name_is_taken_once(app: Flask, client: FlaskClient) -> None:
    assert client.post("/api/seasons", json={"name": "Spring"}).status_code == 201
    response = client.post("/api/seasons", json={"name": "spring"})
    assert response.status_code == 409
    assert response.get_json()["errors"][0]["field"] == "name"
    assert seasons_in_db(app) == 1


@pytest.mark.parametrize(
    ("data", "content_type", "status"),
    [
        ('{"name": "Spring"}', "text/plain", 415),
        ("name=Spring", "application/x-www-form-urlencoded", 415),
        ('{"name": ', "application/json", 400),
        ('["Spring"]', "application/json", 400),
    ],
)
def test_the_body_must_be_a_json_object(
    app: Flask, client: FlaskClient, data: str, content_type: str, status: int
) -> None:
    response = client.post("/api/seasons", data=data, content_type=content_type)
    assert response.status_code == status
    assert response.get_json()["errors"]
    assert seasons_in_db(app) == 0


def test_season_standings_shape(client: FlaskClient, season: Season) -> None:
    body = client.get(f"/api/seasons/{season.season_id}/standings").get_json()
    assert body["season"]["name"] == "Winter"
    assert body["games"] == 3
    assert body["sort"] == "wins"
    ann = next(line for line in body["players"] if line["name"] == "Ann")
    assert set(ann) == LINE_KEYS | {"id", "name"}
    assert ann["games"] == 3
    assert ann["wins"] == 1.5
    assert ann["win_pct"] == 50.0
    assert ann["points"] == 18330
    assert ann["average_per_game"] == 6110.0
    assert ann["average_per_deal"] == 1527.5
    assert ann["average_margin"] == -1226.7
    assert ann["books_per_game"] == {
        "clean": 4.33,
        "dirty": 4.0,
        "wild": 1.0,
        "black_three": 0.0,
        "special": 0.0,
    }
    assert ann["stock_outs"] == 3
    assert ann["best_game"] == 8070
    assert ann["rules"] == [
        {"id": "standard", "games": 2, "points": 13060, "average_per_game": 6530.0},
        {"id": "no-wild-books", "games": 1, "points": 5270, "average_per_game": 5270.0},
    ]
    assert isinstance(ann["rating"], int)
    pair = next(p for p in body["partnerships"] if p["players"] == ["Ann", "Ben"])
    assert set(pair) == LINE_KEYS | {"players", "player_ids"}
    assert (pair["games"], pair["wins"], pair["points"]) == (2, 1.0, 13060)


def test_standings_are_best_first(client: FlaskClient, season: Season) -> None:
    body = client.get("/api/standings").get_json()
    assert body["season"] is None
    keys = [(p["wins"], p["rating"]) for p in body["players"]]
    assert keys == sorted(keys, reverse=True)
    # A place is one more than the lines ahead: lines level on both share it.
    assert [p["rank"] for p in body["players"]] == [
        1 + sum(other > key for other in keys) for key in keys
    ]
    pairs = [(p["wins"], p["rating"]) for p in body["partnerships"]]
    assert pairs == sorted(pairs, reverse=True)


def test_players_level_on_everything_share_their_place(app: Flask, client: FlaskClient) -> None:
    # Two pairs who always play together: partners have the very same line, and share a
    # place on the API, the page and each one's own page (1, 1, 3, 3).
    with app.app_context():
        play("standard", [["Ann", "Ben"], ["Cleo", "Dan"]], G1_DEALS)
        play("standard", [["Ann", "Ben"], ["Cleo", "Dan"]], G1_DEALS)
    body = client.get("/api/standings").get_json()
    assert [(p["rank"], p["name"]) for p in body["players"]] == [
        (1, "Ann"),
        (1, "Ben"),
        (3, "Cleo"),
        (3, "Dan"),
    ]
    page = client.get("/standings").get_data(as_text=True)
    table = page[page.index('id="players"') :]
    assert re.findall(r'<td class="num">(\d+)</td>\s*<th scope="row">', table)[:4] == [
        "1",
        "1",
        "3",
        "3",
    ]
    ben = body["players"][1]["id"]
    own = client.get(f"/players/{ben}").get_data(as_text=True)
    assert re.search(r"<dt>Place</dt><dd class=\"num\">1</dd>", own)
    # Sorted by name, the places are the rows.
    by_name = client.get("/api/standings?sort=name").get_json()
    assert [p["rank"] for p in by_name["players"]] == [1, 2, 3, 4]


def test_standings_sorted_by_points(client: FlaskClient, season: Season) -> None:
    body = client.get(f"/api/seasons/{season.season_id}/standings?sort=points").get_json()
    assert [p["name"] for p in body["players"]][:1] == ["Cleo"]
    points = [p["points"] for p in body["players"]]
    assert points == sorted(points, reverse=True)


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/api/standings?sort=luck", 400),
        ("/api/seasons/999/standings", 404),
        ("/api/seasons/99999999999999999999999/standings", 404),
        ("/api/seasons/abc/standings", 404),
    ],
)
def test_standings_refusals(client: FlaskClient, season: Season, path: str, status: int) -> None:
    response = client.get(path)
    assert response.status_code == status
    assert response.get_json()["errors"][0]["message"]


def test_standings_are_read_only(client: FlaskClient) -> None:
    response = client.post("/api/standings", json={})
    assert response.status_code == 405
    assert response.get_json()["errors"]


def test_empty_standings(client: FlaskClient) -> None:
    body = client.get("/api/standings").get_json()
    assert body == {"season": None, "games": 0, "sort": "wins", "players": [], "partnerships": []}


def test_answers_match_their_openapi_description(client: FlaskClient, season: Season) -> None:
    from jsonschema import Draft202012Validator

    from scorekeeper.api import standings as api_standings

    schemas = api_standings.openapi_schemas()
    paths = api_standings.openapi_paths()

    def check(path: str, template: str, method: str, status: int, body: Any = None) -> None:
        response = client.open(path, method=method, json=body)
        assert response.status_code == status
        schema = paths[template][method.lower()]["responses"][str(status)]
        ref = schema["content"]["application/json"]["schema"]
        validator = Draft202012Validator({**ref, "components": {"schemas": schemas}})
        validator.validate(response.get_json())

    check("/api/seasons", "/api/seasons", "GET", 200)
    check("/api/seasons", "/api/seasons", "POST", 201, {"name": "Spring", "ends_on": None})
    check("/api/standings", "/api/standings", "GET", 200)
    check(
        f"/api/seasons/{season.season_id}/standings",
        "/api/seasons/{season_id}/standings",
        "GET",
        200,
    )
    # The request schema refuses what the endpoint refuses.
    request_schema = Draft202012Validator(schemas["SeasonRequest"])
    assert not request_schema.is_valid({"name": "A", "colour": "red"})
    assert request_schema.is_valid({"name": "A", "starts_on": "2025-04-01"})


def test_lines_level_on_books_per_game_share_a_place_despite_float_noise() -> None:
    # 1 clean and 2 dirty books in 10 games, against 3 clean: 0.1 + 0.2 is not 0.3 in
    # floating point, but both lines show 0.3 books a game and share the place.
    mixed = standings.Line(players=(1,), names=("Ann",), games=10, clean_books=1, dirty_books=2)
    clean = standings.Line(players=(2,), names=("Ben",), games=10, clean_books=3)
    lines = standings.sort_lines([mixed, clean], "books")
    assert [line.name for line in lines] == ["Ann", "Ben"]  # then by name
    assert standings.places(lines, "books") == [1, 1]
