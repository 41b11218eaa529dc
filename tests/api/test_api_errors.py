"""Every refusal of the JSON API is a JSON 4xx in one shape: never a 500, never an HTML page."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from api_support import FIRST_DEAL, Api, standard_game_body
from database_support import database_url
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.exc import IntegrityError

from scorekeeper import create_app
from scorekeeper.api import scoring
from scorekeeper.api.inputs import MAX_BODY_BYTES
from scorekeeper.extensions import db
from scorekeeper.rules import BOUNDS, PRESETS, CardClass
from scorekeeper.services import games as service_games

TEAM_KEYS = [
    "name",
    "clean_books",
    "dirty_books",
    "wild_books",
    "black_three_books",
    "special_books",
    "red_threes",
    "red_threes_caught",
    "melded",
    "left",
    "went_out",
    "opening_meld",
    "exact_draws",
]


def write_urls(api: Api, new_game: Callable[..., int]) -> list[tuple[str, str]]:
    """Every write of the API, against a game with one deal played."""
    game_id = new_game()
    assert api.post(f"/api/games/{game_id}/deals", {"teams": FIRST_DEAL}).status_code == 201
    return [
        ("POST", "/api/score"),
        ("POST", "/api/games"),
        ("POST", f"/api/games/{game_id}/deals"),
        ("PUT", f"/api/games/{game_id}/deals/1"),
        ("POST", f"/api/games/{game_id}/corrections/undo"),
    ]


# ---------------------------------------------------------------------------
# Addresses and methods


@pytest.mark.parametrize("url", ["/api/nothing", "/api", "/api/games/1/nothing", "/api/games/x"])
def test_unknown_api_addresses_are_json_404(api: Api, url: str) -> None:
    response = api.get(url)
    assert response.status_code == 404
    assert response.get_json()["errors"][0]["message"]


@pytest.mark.parametrize(
    ("method", "url", "allowed"),
    [
        ("DELETE", "/api/score", {"POST"}),
        ("GET", "/api/score", {"POST"}),
        ("PATCH", "/api/games", {"GET", "POST"}),
        ("DELETE", "/api/games/1", {"GET"}),
        ("POST", "/api/rulesets", {"GET"}),
    ],
)
def test_wrong_methods_are_json_405_saying_what_is_allowed(
    api: Api, method: str, url: str, allowed: set[str]
) -> None:
    response = api.call(method, url)
    assert response.status_code == 405
    allow = {m.strip() for m in response.headers["Allow"].split(",")}
    assert allowed <= allow
    assert method not in allow
    assert method in response.get_json()["errors"][0]["message"]


def test_pages_outside_the_api_keep_their_own_404(client: FlaskClient) -> None:
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response.mimetype != "application/json"


def test_a_body_larger_than_the_limit_is_413(api: Api) -> None:
    body = {"ruleset": "standard", "deal": 1, "teams": [{"name": "x" * MAX_BODY_BYTES}, {}]}
    response = api.post("/api/score", body)
    assert response.status_code == 413
    assert response.get_json()["errors"][0]["message"]


# ---------------------------------------------------------------------------
# Never a 500

NASTY_RAW: list[bytes] = [
    b"",
    b" ",
    b"{",
    b"}",
    b"[]",
    b"null",
    b"true",
    b"0",
    b'"x"',
    b"{}",
    b'{"teams": null}',
    b'{"teams": {}}',
    b'{"teams": [null, null]}',
    b'{"teams": [[], []]}',
    b'{"teams": [{}, {}], "ruleset": {}}',
    b'{"teams": [{}, {}], "ruleset": {"id": []}, "deal": 1}',
    b'{"teams": [{}, {}], "ruleset": 1e999, "deal": 1}',
    b'{"teams": [{"melded": {"aces": 1e999}}, {}], "ruleset": "standard", "deal": 1}',
    b'{"teams": [{"special_books": {"x": -1}}, {}], "ruleset": "standard", "deal": 1}',
    b'{"teams": [{"special_books": {"x": 1}}, {}], "ruleset": "standard", "deal": 1}',
    b'{"teams": [{"name": "\\u0000"}, {}], "ruleset": "standard", "deal": 1}',
    b'{"teams": [{"players": ["\\u0000"]}, {"players": ["b"]}], "ruleset": "standard"}',
    b'{"teams": [{"players": ["\\ud83d"]}, {"players": ["b"]}], "ruleset": "standard"}',
    b'{"version": 1e308, "teams": []}',
    b'{"version": -1e308, "teams": []}',
    b'{"version": 9223372036854775808, "teams": [{}, {}]}',
    b'{"season": 9223372036854775807, "ruleset": "standard", "teams": []}',
    b'{"ruleset": "18446744073709551616", "deal": 1, "teams": [{}, {}]}',
    b'{"ruleset": "' + b"1" * 400 + b'", "deal": 1, "teams": [{}, {}]}',
    b'{"ruleset": {"deals": [1, 2, 3], "id": "x", "name": "x"}, "deal": 1, "teams": [{}, {}]}',
    b'{"ruleset": {"deals": [{"go_out": []}], "id": "x", "name": "x"}, "teams": [{}, {}]}',
    b'{"ruleset": {"special_books": [{"counts_as": []}]}, "deal": 1, "teams": [{}, {}]}',
    b'{"ruleset": {"play_style": {}}, "deal": 1, "teams": [{}, {}]}',
    b'{"ruleset": {"opening_minimums": "abc"}, "deal": 1, "teams": [{}, {}]}',
    b'{"ruleset": "standard", "deal": 1, "teams": ' + json.dumps([{}] * 1000).encode() + b"}",
    b'{"played_on": "9999-12-31", "ruleset": "standard", "teams": []}',
    b'{"played_on": "0000-01-01", "ruleset": "standard", "teams": []}',
    '{"teams": [{"name": "Zoë & Åsa 🃏"}, {}], "ruleset": "standard", "deal": 1}'.encode(),
    b"\xef\xbb\xbf{}",
    b"\x00\x00\x00{",
    b'{"a": 1, "a": 2}',
]


@pytest.fixture
def writes(api: Api, new_game: Callable[..., int]) -> list[tuple[str, str]]:
    return write_urls(api, new_game)


@pytest.mark.parametrize("raw", NASTY_RAW, ids=range(len(NASTY_RAW)))
def test_nasty_bodies_never_get_a_500(api: Api, writes: list[tuple[str, str]], raw: bytes) -> None:
    for method, url in writes:
        # api.call fails the test on any 5xx and on any answer the OpenAPI document denies.
        response = api.call(method, url, data=raw, content_type="application/json")
        assert response.status_code in (200, 201, 400, 404, 409, 413, 415, 422), (method, url)


@pytest.mark.parametrize(
    "content_type",
    [None, "text/plain", "application/x-www-form-urlencoded", "text/json", "application/xml"],
)
def test_every_write_needs_application_json(
    api: Api, writes: list[tuple[str, str]], content_type: str | None
) -> None:
    for method, url in writes:
        response = api.call(method, url, data=b"{}", content_type=content_type)
        assert response.status_code == 415, (method, url)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
team_like = st.dictionaries(st.sampled_from(TEAM_KEYS), json_values, max_size=6)
ruleset_like = st.sampled_from([*PRESETS, "nope", "1", 1, 0]) | json_values
bodies = (
    st.fixed_dictionaries(
        {"ruleset": ruleset_like, "teams": st.lists(team_like, max_size=4)},
        optional={
            "deal": json_values | st.integers(0, 6),
            "decks": json_values,
            "version": json_values | st.integers(0, 3),
            "season": json_values,
            "played_on": json_values | st.dates().map(str),
        },
    )
    | json_values
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(body=bodies)
def test_random_json_never_gets_a_500(api: Api, writes: list[tuple[str, str]], body: Any) -> None:
    for method, url in writes:
        api.call(method, url, body)


# ---------------------------------------------------------------------------
# The last resort


def test_an_unexpected_error_is_logged_and_answered_in_json(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*_args: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(scoring, "score_deal", broken)
    body = {"ruleset": "standard", "deal": 1, "teams": [{}, {}]}
    response = client.post("/api/score", json=body)
    assert response.status_code == 500
    assert response.mimetype == "application/json"
    (error,) = response.get_json()["errors"]
    assert error["team"] is None and "nothing was saved" in error["message"]
    assert "a bug" not in response.get_data(as_text=True)
    assert any("Unexpected error" in r.message for r in caplog.records)


# ---------------------------------------------------------------------------
# CSRF and CORS


@pytest.fixture
def csrf_client(tmp_path: Path) -> Iterator[FlaskClient]:
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path / "csrf.sqlite"),
            "WTF_CSRF_ENABLED": True,
        },
        instance_path=str(tmp_path / "instance"),
    )
    with app.app_context():
        db.create_all()
    yield app.test_client()
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_with_csrf_on_json_writes_need_no_token(csrf_client: FlaskClient) -> None:
    body = {"ruleset": "standard", "deal": 1, "teams": [{}, {}]}
    assert csrf_client.post("/api/score", json=body).status_code == 200
    created = csrf_client.post("/api/games", json=standard_game_body())
    assert created.status_code == 201
    game_id = created.get_json()["id"]
    deal = csrf_client.post(f"/api/games/{game_id}/deals", json={"teams": FIRST_DEAL})
    assert deal.status_code == 201


def test_with_csrf_on_a_forged_form_post_is_still_refused(csrf_client: FlaskClient) -> None:
    # What a page on another site can send without a preflight: a form or text/plain.
    for content_type in ("application/x-www-form-urlencoded", "text/plain", "multipart/form-data"):
        response = csrf_client.post(
            "/api/games",
            data=json.dumps(standard_game_body()),
            content_type=content_type,
            headers={"Origin": "https://evil.example"},
        )
        assert response.status_code == 415
    assert csrf_client.get("/api/games").get_json()["total"] == 0


def test_no_cors_headers_are_ever_sent(client: FlaskClient) -> None:
    origin = {"Origin": "https://evil.example"}
    preflight = client.options(
        "/api/score", headers={**origin, "Access-Control-Request-Method": "POST"}
    )
    answers = [
        preflight,
        client.get("/api/rulesets", headers=origin),
        client.post("/api/score", json={"ruleset": "standard"}, headers=origin),
    ]
    for response in answers:
        assert not any(name.lower().startswith("access-control-") for name, _ in response.headers)


def test_special_books_beyond_the_bounds_are_400(api: Api) -> None:
    high = BOUNDS["special_books"][1]
    teams = [{"special_books": {"sevens": high + 1}}, {}]
    response = api.post("/api/score", {"ruleset": "standard", "deal": 1, "teams": teams})
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["field"] == "special_books.sevens"


def test_card_counts_may_name_each_class(api: Api) -> None:
    counts = {card.value: 0 for card in CardClass} | {"aces": 3}
    teams = [{"melded": counts}, {}]
    response = api.post("/api/score", {"ruleset": "standard", "deal": 1, "teams": teams})
    assert response.status_code == 200
    assert response.get_json()["teams"][0]["score"] == 60


@pytest.mark.parametrize(
    "url",
    [
        "/api/games/9223372036854775808",
        "/api/games/99999999999999999999999999/corrections",
        "/api/games/1/deals/99999999999999999999999999",
    ],
)
def test_ids_no_database_can_hold_are_404(api: Api, new_game: Callable[..., int], url: str) -> None:
    assert new_game() == 1
    assert api.get(url).status_code == 404
    assert api.put(url, {"version": 1, "teams": FIRST_DEAL}).status_code in (404, 405)


def test_a_write_that_loses_a_race_in_the_database_is_409(
    api: Api,
    new_game: Callable[..., int],
    monkeypatch: pytest.MonkeyPatch,
    row_counts: Callable[[], dict[str, int]],
) -> None:
    # Two tablets recording the same deal at once: the later INSERT breaks a unique rule.
    game_id = new_game()

    def raced(*_args: Any) -> Any:
        raise IntegrityError("INSERT INTO deal ...", {}, Exception("UNIQUE constraint failed"))

    monkeypatch.setattr(service_games, "record_deal", raced)
    before = row_counts()
    response = api.post(f"/api/games/{game_id}/deals", {"teams": FIRST_DEAL})
    assert response.status_code == 409
    assert "Someone else saved" in response.get_json()["errors"][0]["message"]
    assert row_counts() == before
