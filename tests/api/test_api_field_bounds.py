"""One set of bounds for every number a team reports: the rules core's BOUNDS.

The deal form's inputs (HTML min/max), the OpenAPI document's minimum/maximum and what the API
accepts must all say the same: a change in ``scorekeeper/rules/tally.py`` reaches them all, and
nothing repeats a bound by hand.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from api_support import DOC, FIRST_DEAL, standard_game_body
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.rules import BOUNDS, CardClass
from scorekeeper.rules.presets import PRESETS as RULES
from scorekeeper.services import games
from scorekeeper.web.game_forms import MAX_TEAMS

SCHEMAS = DOC["components"]["schemas"]
INPUT = re.compile(r"<input\b[^>]*>")
ATTRIBUTE = re.compile(r'([a-z_-]+)="([^"]*)"')
# Between them these presets show every field a team can report: wild books (standard),
# black-three books (brouillette), exact draws (simpson).
PRESETS = ("standard", "brouillette", "simpson")
SEATING = {
    "standard": [games.TeamSpec("", ["Ann", "Ben"]), games.TeamSpec("", ["Cy", "Di"])],
    "brouillette": [games.TeamSpec("", ["Ann"]), games.TeamSpec("", ["Cy"])],
    "simpson": [games.TeamSpec("", ["Ann"]), games.TeamSpec("", ["Cy"])],
}


def bounds_key(where: str) -> str:
    """The BOUNDS entry of a form field: ``melded`` → points, ``left.jokers`` → cards."""
    head, _dot, rest = where.partition(".")
    if head in ("melded", "left"):
        return "cards" if rest else "points"
    return head


def form_bounds(client: FlaskClient, game_id: int) -> dict[str, set[tuple[int, int]]]:
    """Every number input of team 0 on the deal form: its BOUNDS key and min/max."""
    html = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    found: dict[str, set[tuple[int, int]]] = {}
    for tag in INPUT.findall(html):
        attributes = dict(ATTRIBUTE.findall(tag))
        name = attributes.get("name", "")
        if attributes.get("type") != "number" or not name.startswith("t0-"):
            continue
        where = name.removeprefix("t0-").replace("-", ".", 1)
        bounds = (int(attributes["min"]), int(attributes["max"]))
        found.setdefault(bounds_key(where), set()).add(bounds)
    return found


def test_the_deal_form_uses_the_rules_bounds(app: Flask, client: FlaskClient) -> None:
    seen: dict[str, set[tuple[int, int]]] = {}
    with app.app_context():
        ids = [games.start_game(preset, SEATING[preset]).id for preset in PRESETS]
        db.session.remove()
    for game_id in ids:
        for key, bounds in form_bounds(client, game_id).items():
            seen.setdefault(key, set()).update(bounds)
    for key, bounds in seen.items():
        if key == "exact_draws":
            # One a player at the most: the team's players, within the bounds.
            low, high = BOUNDS[key]
            assert all(b[0] == low and 1 <= b[1] <= high for b in bounds), bounds
            continue
        assert bounds == {BOUNDS[key]}, key
    # Every number a team reports is on some form (special books need house rules; decks and
    # teams are not per-team numbers).
    assert set(seen) == set(BOUNDS) - {"special_books", "decks", "teams"}
    assert BOUNDS["teams"][1] == MAX_TEAMS


def integer_bounds(schema: dict[str, Any]) -> tuple[int, int]:
    if "oneOf" in schema:
        schema = next(s for s in schema["oneOf"] if "minimum" in s)
    return schema["minimum"], schema["maximum"]


def test_the_openapi_document_uses_the_rules_bounds() -> None:
    tally = SCHEMAS["TeamTally"]["properties"]
    documented = {
        name: integer_bounds(schema)
        for name, schema in tally.items()
        if name not in ("name", "went_out", "special_books")
    }
    expected = {
        name: BOUNDS[bounds_key(name)] for name in documented if name not in ("melded", "left")
    }
    expected.update(melded=BOUNDS["points"], left=BOUNDS["points"])
    assert documented == expected
    special = tally["special_books"]["additionalProperties"]
    assert integer_bounds(special) == BOUNDS["special_books"]
    for card in CardClass:
        assert integer_bounds(SCHEMAS["CardCounts"]["properties"][card.value]) == BOUNDS["cards"]
    score = SCHEMAS["ScoreRequest"]["properties"]
    assert integer_bounds(score["decks"]) == BOUNDS["decks"]
    assert (score["teams"]["minItems"], score["teams"]["maxItems"]) == BOUNDS["teams"]
    assert set(BOUNDS) <= {*expected, "special_books", "cards", "decks", "teams", "points"}


# (field, a team's report with the value at the bound), for the API's edges.
def reports(key: str, value: int) -> dict[str, Any]:
    if key == "points":
        return {"melded": value}
    if key == "cards":
        return {"left": {"jokers": value}}
    if key == "special_books":
        return {"special_books": {"sevens": value}}
    return {key: value}


TEAM_FIELDS = [key for key in BOUNDS if key not in ("decks", "teams")]


@pytest.mark.parametrize("key", TEAM_FIELDS)
def test_the_api_refuses_just_past_each_bound_as_out_of_bounds(
    client: FlaskClient, key: str
) -> None:
    low, high = BOUNDS[key]
    for value, malformed in ((low, False), (high, False), (low - 1, True), (high + 1, True)):
        body = {"ruleset": "standard", "deal": 1, "teams": [reports(key, value), {}]}
        response = client.post("/api/score", json=body)
        assert response.status_code < 500
        problems = response.get_json().get("errors", []) if response.status_code >= 400 else []
        # The refusal names the field; a value inside the bounds may still be impossible at
        # the table (60 books), but is never refused for its size.
        bound = f"must be between {low} and {high}."
        out_of_bounds = [p for p in problems if p["message"].endswith(bound)]
        assert bool(out_of_bounds) == malformed, (key, value, problems)


def test_the_api_refuses_decks_and_teams_past_their_bounds(client: FlaskClient) -> None:
    low, high = BOUNDS["decks"]
    for decks, ok in ((low, True), (high, True), (low - 1, False), (high + 1, False)):
        body = {"ruleset": "standard", "deal": 1, "decks": decks, "teams": [{}, {}]}
        assert (client.post("/api/score", json=body).status_code == 200) == ok, decks
    low, high = BOUNDS["teams"]
    # Rules that seat up to ten players alone: eight teams sit down, as two do.
    rules = {**RULES["simpson"].to_dict(), "id": "ten", "max_players": 10}
    for count, ok in ((low, True), (high, True), (low - 1, False), (high + 1, False)):
        body = {"ruleset": rules, "deal": 1, "teams": [{}] * count}
        response = client.post("/api/score", json=body)
        assert (response.status_code == 200) == ok, (count, response.get_json())
        if not ok:
            assert response.status_code == 400  # malformed, not a seating refused


def test_a_game_deal_past_a_bound_is_refused_and_nothing_saved(client: FlaskClient) -> None:
    game_id = client.post("/api/games", json=standard_game_body()).get_json()["id"]
    too_many = [{**FIRST_DEAL[0], "clean_books": BOUNDS["clean_books"][1] + 1}, FIRST_DEAL[1]]
    refused = client.post(f"/api/games/{game_id}/deals", json={"teams": too_many})
    assert refused.status_code == 400
    assert client.get(f"/api/games/{game_id}").get_json()["deals"] == []
