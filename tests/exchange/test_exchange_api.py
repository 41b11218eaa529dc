"""GET /api/export.json and POST /api/import, checked against the OpenAPI document."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from api_support import DOC, FIRST_DEAL, Api, standard_game_body
from exchange_support import (
    close,
    damage,
    fresh_app,
    standings_facts,
    stored_rules,
    table_counts,
)
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text
from standings_support import Season

from scorekeeper import auth
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.rules import Cards, TeamTally
from scorekeeper.services import games, rulesets
from scorekeeper.services.games import TeamSpec

PASSCODE = "hand-and-foot"
EXCHANGE_PATHS = ("/api/export.json", "/api/import")


@pytest.fixture
def api(client: FlaskClient) -> Api:
    return Api(client)


@pytest.fixture
def other(tmp_path: Path) -> Any:
    app = fresh_app(tmp_path, "api-other")
    yield app
    close(app)


def documented(paths: tuple[str, ...]) -> set[tuple[str, str, str]]:
    return {
        (path, method, code)
        for path in paths
        for method, operation in DOC["paths"][path].items()
        for code in operation["responses"]
        if code != "default"
    }


def test_export_then_import_elsewhere_gives_the_same_standings(
    app: Flask, api: Api, season: Season, other: Flask
) -> None:
    exported = api.get("/api/export.json")
    assert exported.status_code == 200
    document = exported.get_json()
    assert len(document["games"]) == 7

    other_api = Api(other.test_client())
    first = other_api.post("/api/import", document)
    assert first.status_code == 200
    assert first.get_json() == {
        "imported": {"players": 5, "seasons": 1, "house_rules": 0, "games": 7},
        "skipped": {"players": 0, "seasons": 0, "house_rules": 0, "games": 0},
    }
    assert standings_facts(other) == standings_facts(app)
    counts = table_counts(other)
    second = other_api.post("/api/import", document).get_json()
    assert second["imported"]["games"] == 0 and second["skipped"]["games"] == 7
    assert table_counts(other) == counts


def test_a_database_from_before_the_new_rules_exports_and_imports_whole(
    app: Flask, api: Api, other: Flask
) -> None:
    # A game stored before one_meld_per_rank, alone_when_unpaired, min_decks and max_decks
    # existed, of three players
    # alone under the standard rules, whose first deal the app then accepted with cards left
    # by the player who went out: its export matches the document, and imports whole.
    with app.app_context():
        game = games.start_game("standard", [TeamSpec("", [name]) for name in ("Al", "Bo", "Cy")])
        out = TeamTally(
            clean_books=2, dirty_books=2, wild_books=1, melded=Cards(points=600), went_out=True
        )
        games.record_deal(game.id, [out, TeamTally(), TeamTally()])
        stored = json.loads(stored_rules(app, game.id))
        for added in ("one_meld_per_rank", "alone_when_unpaired", "min_decks", "max_decks"):
            del stored[added]
        db.session.execute(
            text("UPDATE game SET ruleset = :ruleset WHERE id = :id"),
            {"ruleset": json.dumps(stored), "id": game.id},
        )
        db.session.commit()
    exported = api.get("/api/export.json")  # checked against the OpenAPI document
    assert exported.status_code == 200
    document = exported.get_json()
    (entry,) = document["games"]
    assert "one_meld_per_rank" not in entry["ruleset"] and "min_decks" not in entry["ruleset"]
    first = entry["deals"][0]["teams"][0]
    first["left"], first["score"] = 10, first["score"] - 10
    entry["totals"][0] -= 10
    imported = Api(other.test_client()).post("/api/import", document)
    assert imported.status_code == 200, imported.get_json()
    assert imported.get_json()["imported"]["games"] == 1


def test_one_season_and_refusals_of_the_export(api: Api, season: Season) -> None:
    winter = api.get(f"/api/export.json?season={season.season_id}").get_json()
    assert winter["season"] == "Winter" and len(winter["games"]) == 6
    assert api.get("/api/export.json?season=abc").status_code == 400
    assert api.get("/api/export.json?season=0").status_code == 400
    assert api.get("/api/export.json?season=99").status_code == 404


def test_a_broken_document_is_refused_whole_with_every_problem_named(
    app: Flask, api: Api, season: Season, other: Flask
) -> None:
    document = api.get("/api/export.json").get_json()
    document["games"][3]["deals"][0]["teams"][0]["clean_books"] = -1
    document["games"][4]["ruleset"] = "house-of-cards"
    document["games"][2]["deals"][0]["number"] = True  # not 1, though Python says true == 1
    # One deck for four players: every deal of the game would be refused on the tablet.
    document["games"][1]["decks"] = 1
    other_api = Api(other.test_client())
    before = table_counts(other)

    refused = other_api.post("/api/import", document)

    assert refused.status_code == 422
    fields = {e["field"]: e["message"] for e in refused.get_json()["errors"]}
    assert "must be between" in fields["games[3].deals[0].teams[0].clean_books"]
    assert "no rules called house-of-cards" in fields["games[4].ruleset"]
    assert fields["games[2].deals[0].number"] == "games[2].deals[0].number must be 1."
    assert fields["games[1].decks"] == (
        "1 deck holds 54 cards, too few to deal 4 players 26 cards each."
    )
    assert table_counts(other) == before


def test_import_refuses_what_is_not_a_json_export(api: Api, app: Flask) -> None:
    before = table_counts(app)
    assert api.post("/api/import", data="{", content_type="application/json").status_code == 400
    assert api.post("/api/import", data="a=1", content_type="text/plain").status_code == 415
    wrong = api.post("/api/import", {"format": "scorekeeper-export", "version": 2})
    assert wrong.status_code == 422
    assert "format version 2" in wrong.get_json()["errors"][0]["message"]
    app.config["IMPORT_MAX_BYTES"] = 100
    assert api.post("/api/import", {"padding": "x" * 200}).status_code == 413
    assert table_counts(app) == before


def test_every_documented_answer_of_export_and_import_is_given(
    app: Flask, api: Api, season: Season
) -> None:
    document = api.get("/api/export.json").get_json()
    api.get("/api/export.json?season=x")
    api.get("/api/export.json?season=99")
    api.post("/api/import", document)
    api.post("/api/import", {"format": "nothing"})
    api.post("/api/import", data="{", content_type="application/json")
    api.post("/api/import", data="x", content_type="text/plain")
    # 409: a game of the file names house rules by id, and this database's are damaged.
    with app.app_context():
        rulesets.create_house_rules("Ours", "standard", {})
        db.session.execute(text("UPDATE house_rules SET ruleset = '[]' WHERE slug = 'ours'"))
        db.session.commit()
    document["games"][0]["ruleset"] = "ours"
    assert api.post("/api/import", document).status_code == 409
    app.config["IMPORT_MAX_BYTES"] = 10
    api.post("/api/import", {"format": "scorekeeper-export"})
    damage(app, [season.g6], "not rules")
    api.get("/api/export.json")  # 409: a game's rules cannot be read
    assert {seen for seen in api.seen if seen[0] in EXCHANGE_PATHS} == documented(EXCHANGE_PATHS)


def test_import_needs_the_passcode_as_a_bearer_token(
    app: Flask, api: Api, season: Season, other: Flask
) -> None:
    document = api.get("/api/export.json").get_json()
    with other.app_context():
        auth.set_passcode(PASSCODE)
    other_api = Api(other.test_client())
    before = table_counts(other)

    # Reading needs nothing; writing needs the passcode.
    assert other_api.get("/api/export.json").status_code == 200
    refused = other_api.post("/api/import", document)
    assert refused.status_code == 401 and refused.headers["WWW-Authenticate"].startswith("Bearer")
    wrong = other_api.post("/api/import", document, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401
    assert table_counts(other) == before

    right = other_api.post("/api/import", document, headers={"Authorization": f"Bearer {PASSCODE}"})
    assert right.status_code == 200 and right.get_json()["imported"]["games"] == 7


def test_the_standings_endpoints_are_in_the_openapi_document(api: Api) -> None:
    served = api.get("/api/openapi.json").get_json()
    for path in ("/api/seasons", "/api/seasons/{season_id}/standings", "/api/standings"):
        assert path in served["paths"], path
    for schema in ("Standings", "Season", "ExportDocument", "ImportResult"):
        assert schema in served["components"]["schemas"], schema
    assert re.fullmatch(r"3\.1\.\d+", served["openapi"])


def test_standings_answers_are_checked_against_the_served_document(
    api: Api, season: Season
) -> None:
    assert api.get("/api/standings").status_code == 200
    assert api.get(f"/api/seasons/{season.season_id}/standings").status_code == 200
    assert api.get("/api/seasons").status_code == 200


def _exported_with_one_correction(api: Api) -> dict[str, Any]:
    """This database's export: one game, its first deal corrected once (melded 300 to 310)."""
    game = api.post("/api/games", standard_game_body())
    game_id = game.get_json()["id"]
    deals = f"/api/games/{game_id}/deals"
    assert api.post(deals, {"teams": FIRST_DEAL}).status_code == 201
    teams = [{**FIRST_DEAL[0], "melded": 310}, FIRST_DEAL[1]]
    assert api.put(f"{deals}/1", {"version": 1, "teams": teams}).status_code == 200
    document: dict[str, Any] = api.get("/api/export.json").get_json()
    (correction,) = document["games"][0]["corrections"]
    assert (correction["team"], correction["field"]) == (0, "melded")
    # The same game under a new uid: imported as another game, not skipped as already there.
    document["games"][0]["uid"] = "f" * 32
    return document


def test_an_imported_correction_log_undo_can_put_back_is_taken(app: Flask, api: Api) -> None:
    document = _exported_with_one_correction(api)

    imported = api.post("/api/import", document)

    assert imported.status_code == 200
    assert imported.get_json()["imported"]["games"] == 1
    with app.app_context():
        copy = db.session.scalar(db.select(Game.id).filter_by(uid="f" * 32))
    assert api.post(f"/api/games/{copy}/corrections/undo", {}).get_json() == {"undone_deal": 1}
    assert api.get(f"/api/games/{copy}/deals/1").get_json()["teams"][0]["melded"] == 300


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        ({"field": "clean_books", "old": "abc"}, "old", "clean_books must be a whole number."),
        ({"field": "clean_books", "old": None}, "old", "clean_books must be a whole number."),
        ({"field": "clean_books", "old": -5}, "old", "clean_books must be between 0 and 60."),
        ({"old": 10**30}, "old", "melded must be between 0 and 20000."),
        ({"old": {"jokers": "x"}}, "old", "melded.jokers must be a whole number."),
        ({"field": "went_out", "new": "yes"}, "new", "went_out must be true or false."),
        ({"team": 7}, "team", "must be a whole number from 0 to 1."),
        ({"team": None}, "team", "must be a whole number from 0 to 1."),
        ({"deal": 2}, "deal", "must be a whole number from 1 to 1."),
    ],
    ids=[
        "text",
        "null",
        "negative",
        "huge",
        "card-count-text",
        "went-out-yes",
        "no-such-team",
        "no-team",
        "deal-not-played",
    ],
)
def test_an_imported_correction_undo_could_not_put_back_is_refused_whole(
    app: Flask, api: Api, change: dict[str, Any], where: str, words: str
) -> None:
    document = _exported_with_one_correction(api)
    document["games"][0]["corrections"][0].update(change)
    before = table_counts(app)

    refused = api.post("/api/import", document)

    assert refused.status_code == 422
    errors = {e["field"]: e["message"] for e in refused.get_json()["errors"]}
    path = f"games[0].corrections[0].{where}"
    assert path in errors, errors
    assert errors[path].startswith(path)  # says which game and which correction
    assert words in errors[path]
    assert table_counts(app) == before


def test_a_game_its_rules_cannot_seat_is_refused_in_the_words_of_a_game_start(
    app: Flask, api: Api
) -> None:
    document = _exported_with_one_correction(api)
    teams = document["games"][0]["teams"]
    teams[0]["players"].append(teams[1]["players"].pop())  # three and one at a standard table
    before = table_counts(app)

    refused = api.post("/api/import", document)

    assert refused.status_code == 422
    assert refused.get_json()["errors"] == [
        {
            "team": None,
            "field": "games[0].teams",
            "message": "With 4 players these rules need 2 teams of 2.",
        }
    ]
    assert table_counts(app) == before


def test_a_correction_of_a_game_with_no_deals_is_refused(app: Flask, api: Api) -> None:
    document = _exported_with_one_correction(api)
    game = document["games"][0]
    game["deals"], game["totals"] = [], [0, 0]
    before = table_counts(app)

    refused = api.post("/api/import", document)

    # Undoing it answered "Deal 1 has not been played yet": it is not taken in the first place.
    assert refused.status_code == 422
    assert refused.get_json()["errors"] == [
        {
            "team": None,
            "field": "games[0].corrections[0].deal",
            "message": "games[0].corrections[0].deal corrects a deal of a game with none.",
        }
    ]
    assert table_counts(app) == before
