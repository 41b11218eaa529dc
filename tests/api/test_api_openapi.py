"""GET /api/openapi.json: a valid OpenAPI 3.1 document that says what the API really does."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from api_support import DOC, FIRST_DEAL, Api, component, standard_game_body
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st
from openapi_spec_validator import validate
from sqlalchemy import text

from scorekeeper.api.inputs import MAX_BODY_BYTES
from scorekeeper.api.openapi import document
from scorekeeper.extensions import db
from scorekeeper.rules import BOUNDS, PRESETS, CardClass, TallyError, read_team
from scorekeeper.rules.tally import COUNT_FIELDS, NAME_LONGEST
from scorekeeper.services import rulesets

CARD_CLASSES = {card.value for card in CardClass}


def test_the_document_is_valid_openapi_3_1() -> None:
    assert DOC["openapi"].startswith("3.1")
    validate(document())


def test_the_document_is_served(api: Api) -> None:
    response = api.get("/api/openapi.json")
    assert response.status_code == 200
    assert response.get_json() == document()


# The modules of the scoring and games API; other API modules document their own
# endpoints through scorekeeper.api.openapi.describe().
CORE_MODULES = {
    "scorekeeper.api.scoring",
    "scorekeeper.api.games",
    "scorekeeper.api.openapi",
    "scorekeeper.api.play",
}


def api_routes(app: Flask) -> dict[str, tuple[str, set[str]]]:
    """Every route of the api blueprint as an OpenAPI path: (view module, methods)."""
    routes: dict[str, tuple[str, set[str]]] = {}
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("api."):
            path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
            module = app.view_functions[rule.endpoint].__module__
            methods = routes.setdefault(path, (module, set()))[1]
            methods.update(m.lower() for m in rule.methods or () if m not in ("HEAD", "OPTIONS"))
    return routes


def test_every_scoring_and_games_route_is_documented_with_its_methods(app: Flask) -> None:
    documented = {
        path: {m for m in item if m in ("get", "put", "post", "delete", "patch")}
        for path, item in DOC["paths"].items()
    }
    routes = api_routes(app)
    core = {path: methods for path, (module, methods) in routes.items() if module in CORE_MODULES}
    assert len(core) == 12
    for path, methods in core.items():
        assert documented.get(path) == methods, path
    # Nothing documented that is not there.
    for path, methods in documented.items():
        assert path in routes and routes[path][1] == methods, path


# ---------------------------------------------------------------------------
# The team tally's schema is the code's


def test_team_numbers_have_the_bounds_of_the_code() -> None:
    tally = DOC["components"]["schemas"]["TeamTally"]
    for field in COUNT_FIELDS:
        schema = tally["properties"][field]
        assert (schema["minimum"], schema["maximum"]) == BOUNDS[field], field
    opening = tally["properties"]["opening_meld"]
    assert (opening["minimum"], opening["maximum"]) == BOUNDS["opening_meld"]
    special = tally["properties"]["special_books"]["additionalProperties"]
    assert (special["minimum"], special["maximum"]) == BOUNDS["special_books"]
    assert tally["properties"]["name"]["maxLength"] == NAME_LONGEST
    assert tally["additionalProperties"] is False


@pytest.mark.parametrize("field", ["melded", "left"])
@pytest.mark.parametrize("counts", ["CardCounts", "CardCountsStored"])
def test_cards_are_a_point_total_or_exactly_the_six_card_classes(field: str, counts: str) -> None:
    schemas = DOC["components"]["schemas"]
    owner = "TeamTally" if counts == "CardCounts" else "DealTeam"
    points, by_class = schemas[owner]["properties"][field]["oneOf"]
    assert points["type"] == "integer"
    assert (points["minimum"], points["maximum"]) == BOUNDS["points"]
    assert by_class == {"$ref": f"#/components/schemas/{counts}"}
    card_counts = schemas[counts]
    assert card_counts["type"] == "object"
    assert set(card_counts["properties"]) == CARD_CLASSES
    assert card_counts["additionalProperties"] is False
    for schema in card_counts["properties"].values():
        assert (schema["minimum"], schema["maximum"]) == BOUNDS["cards"]


def test_stored_card_counts_always_name_all_six_classes() -> None:
    assert set(DOC["components"]["schemas"]["CardCountsStored"]["required"]) == CARD_CLASSES


def test_a_deal_has_between_the_bounds_of_teams() -> None:
    teams = DOC["components"]["schemas"]["ScoreRequest"]["properties"]["teams"]
    assert (teams["minItems"], teams["maxItems"]) == BOUNDS["teams"]
    decks = DOC["components"]["schemas"]["ScoreRequest"]["properties"]["decks"]
    assert (decks["minimum"], decks["maximum"]) == BOUNDS["decks"]


# Values near every edge the reader cares about: bounds, types, floats, null, lists, maps.
_edges = sorted({n for low, high in BOUNDS.values() for n in (low - 1, low, high, high + 1)})
team_values = st.recursive(
    st.none()
    | st.booleans()
    | st.sampled_from(_edges)
    | st.integers(-5, 5)
    | st.sampled_from([1.0, 2.5, 1e20, -0.0])
    | st.text(max_size=3)
    | st.just("x" * (NAME_LONGEST + 1)),
    lambda inner: (
        st.lists(inner, max_size=2)
        | st.dictionaries(st.sampled_from([*CARD_CLASSES, "kings"]), inner, max_size=3)
    ),
    max_leaves=6,
)
team_keys = st.sampled_from(
    ["name", *COUNT_FIELDS, "special_books", "melded", "left", "went_out", "opening_meld", "hands"]
)


@settings(max_examples=400, deadline=None)
@given(team=st.dictionaries(team_keys, team_values, max_size=4))
def test_the_schema_accepts_exactly_the_teams_the_code_reads(team: dict[str, Any]) -> None:
    try:
        read_team(team)
        readable = True
    except TallyError:
        readable = False
    assert component("TeamTally").is_valid(team) == readable


def test_the_issues_example_request_matches_the_schema() -> None:
    example = {
        "ruleset": "standard",
        "deal": 1,
        "decks": 5,
        "teams": [
            {
                "name": "Ann & Ben",
                "clean_books": 2,
                "dirty_books": 2,
                "wild_books": 1,
                "black_three_books": 0,
                "red_threes": 1,
                "red_threes_caught": 0,
                "melded": 555,
                "left": {
                    "jokers": 0,
                    "twos": 0,
                    "aces": 1,
                    "eights_to_kings": 1,
                    "fours_to_sevens": 1,
                    "black_threes": 0,
                },
                "went_out": True,
                "opening_meld": 90,
                "exact_draws": 0,
            },
            {},
        ],
    }
    assert component("ScoreRequest").is_valid(example)
    assert not component("ScoreRequest").is_valid({**example, "teams": example["teams"][:1]})
    assert not component("ScoreRequest").is_valid({**example, "deal": "1"})


# ---------------------------------------------------------------------------
# Rulesets


def test_the_ruleset_schema_names_every_field_of_a_ruleset() -> None:
    schema = DOC["components"]["schemas"]["RuleSet"]
    assert set(schema["properties"]) == set(PRESETS["standard"].to_dict())
    # A stored copy of rules from before a rule existed lacks it; every other key is there.
    added = {
        "alone_when_unpaired",
        "alone_by_choice",
        "one_meld_per_rank",
        "min_decks",
        "max_decks",
    }
    assert set(schema["required"]) == set(schema["properties"]) - added
    listed = DOC["components"]["schemas"]["RulesetEntry"]
    assert set(listed["required"]) == set(schema["properties"]) | {"house"}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_matches_the_ruleset_schemas(preset: str) -> None:
    data = PRESETS[preset].to_dict()
    assert component("RuleSet").is_valid(data)
    assert component("RuleSetInput").is_valid(data)
    assert component("GameRequest").is_valid(standard_game_body(ruleset=data))


# ---------------------------------------------------------------------------
# Every documented answer is real, and every real answer is documented


def documented_answers(app: Flask, modules: set[str]) -> set[tuple[str, str, str]]:
    """Every documented (path, method, status) of the routes the view ``modules`` serve."""
    routes = api_routes(app)
    return {
        (path, method, code)
        for path, item in DOC["paths"].items()
        if routes[path][0] in modules
        for method, operation in item.items()
        for code in operation["responses"]
        if code != "default"
    }


def test_every_documented_answer_is_given_and_matches_its_schema(
    api: Api, app: Flask, new_game: Callable[..., int]
) -> None:
    big = {"teams": [{"name": "x" * MAX_BODY_BYTES}]}
    form = {"data": "a=1", "content_type": "application/x-www-form-urlencoded"}
    score = {"ruleset": "standard", "deal": 1, "teams": [{}, {}]}

    api.get("/api/rulesets")
    api.get("/api/players")
    api.get("/api/openapi.json")

    api.post("/api/score", score)
    api.post("/api/score", {**score, "deal": 0})
    api.post("/api/score", big)
    api.post("/api/score", **form)
    api.post("/api/score", {**score, "teams": [{"went_out": True}, {"went_out": True}]})

    bad_rules = {**PRESETS["standard"].to_dict(), "deals": []}
    for path, body in (
        ("/api/opening", {"ruleset": "standard", "deal": 2, "points": 90}),
        ("/api/go-out", {"ruleset": "standard", "deal": 1, "teams": [{}]}),
    ):
        api.post(path, body)
        api.post(path, {**body, "deal": 0})
        api.post(path, {**body, "ruleset": bad_rules})
        api.post(path, big)
        api.post(path, **form)

    game_id = new_game()
    game = f"/api/games/{game_id}"
    api.get("/api/games")
    api.get("/api/games?page=0")
    api.post("/api/games", {"ruleset": "standard"})
    api.post("/api/games", big)
    api.post("/api/games", **form)
    api.post("/api/games", standard_game_body(season=404))
    api.get(game)
    api.get("/api/games/404")

    deals = f"{game}/deals"
    api.post(deals, {"teams": [{}]})
    api.post(deals, big)
    api.post(deals, **form)
    api.post(deals, {"teams": [{"opening_meld": 5}, {}]})
    api.post("/api/games/404/deals", {"teams": FIRST_DEAL})
    for _ in range(4):
        assert api.post(deals, {"teams": [{}, {}]}).status_code == 201
    api.post(deals, {"teams": [{}, {}]})  # 409: the game is over

    api.get(f"{deals}/1")
    api.get(f"{deals}/9")
    teams = [{"melded": 310}, {}]
    api.put(f"{deals}/1", {"version": 1, "teams": teams})
    api.put(f"{deals}/1", {"version": 1, "teams": teams})  # 409: stale
    api.put(f"{deals}/1", {"version": 2, "teams": [{"opening_meld": 5}, {}]})
    api.put(f"{deals}/1", {"teams": teams})
    api.put(f"{deals}/1", big)
    api.put(f"{deals}/1", **form)
    api.put(f"{deals}/9", {"version": 1, "teams": teams})

    api.get(f"{game}/corrections")
    api.get("/api/games/404/corrections")
    api.post(f"{game}/corrections/undo", {})
    api.post(f"{game}/corrections/undo", {"x": 1})
    api.post(f"{game}/corrections/undo", big)
    api.post(f"{game}/corrections/undo", **form)
    api.post("/api/games/404/corrections/undo", {})

    # 409: rules kept in the database that no longer read, a game's own copy and house rules.
    damaged = new_game()
    assert api.post(f"/api/games/{damaged}/deals", {"teams": FIRST_DEAL}).status_code == 201
    assert (
        api.put(f"/api/games/{damaged}/deals/1", {"version": 1, "teams": teams}).status_code == 200
    )
    with app.app_context():
        house = rulesets.create_house_rules("Ours", "standard", {}).slug
        broken = {"broken": '{"id": "standard", "deals": "four"}'}
        db.session.execute(
            text("UPDATE game SET ruleset = :broken WHERE id = :id"), {**broken, "id": damaged}
        )
        db.session.execute(
            text("UPDATE house_rules SET ruleset = :broken WHERE slug = :slug"),
            {**broken, "slug": house},
        )
        db.session.commit()
    damaged_game = f"/api/games/{damaged}"
    api.get("/api/rulesets")
    api.post("/api/score", {**score, "ruleset": house})
    api.post("/api/opening", {"ruleset": house, "deal": 1, "points": 90})
    api.post("/api/go-out", {"ruleset": house, "deal": 1, "teams": [{}, {}]})
    api.post("/api/games", standard_game_body(ruleset=house))
    api.get("/api/games")
    api.get(damaged_game)
    api.post(f"{damaged_game}/deals", {"teams": [{}, {}]})
    api.get(f"{damaged_game}/deals/1")
    api.put(f"{damaged_game}/deals/1", {"version": 2, "teams": [{}, {}]})
    api.get(f"{damaged_game}/corrections")
    api.post(f"{damaged_game}/corrections/undo", {})

    assert api.seen == documented_answers(app, CORE_MODULES)
