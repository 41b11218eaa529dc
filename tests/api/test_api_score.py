"""POST /api/score and GET /api/rulesets: the stateless calculator and the rules it knows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from api_support import Api
from flask import Flask

from scorekeeper.rules import BREAKDOWN_KEYS, PRESETS, read_teams, score_deal
from scorekeeper.services import rulesets

# The German seed's worked example (RULES.md): team 1 goes out with 2 clean, 2 dirty and
# 1 wild book and a red three; team 2 has one clean book, a red three and cards left.
GERMAN_POINTS = [
    {
        "name": "Team 1",
        "clean_books": 2,
        "dirty_books": 2,
        "wild_books": 1,
        "red_threes": 1,
        "melded": 555,
        "went_out": True,
    },
    {"name": "Team 2", "clean_books": 1, "red_threes": 1, "melded": 220, "left": 205},
]
GERMAN_COUNTS = [
    {
        "name": "Team 1",
        "clean_books": 2,
        "dirty_books": 2,
        "wild_books": 1,
        "red_threes": 1,
        "melded": {
            "jokers": 5,
            "twos": 4,
            "aces": 0,
            "eights_to_kings": 16,
            "fours_to_sevens": 13,
            "black_threes": 0,
        },
        "went_out": True,
    },
    {
        "name": "Team 2",
        "clean_books": 1,
        "red_threes": 1,
        "melded": {"aces": 7, "eights_to_kings": 3, "jokers": 1},
        "left": {
            "jokers": 1,
            "twos": 0,
            "aces": 3,
            "eights_to_kings": 7,
            "fours_to_sevens": 5,
            "black_threes": 0,
        },
    },
]


def score(api: Api, teams: Any, **body: Any) -> Any:
    return api.post("/api/score", {"ruleset": "standard", "deal": 1, "teams": teams, **body})


def error_fields(response: Any) -> list[str]:
    return [error["field"] for error in response.get_json()["errors"]]


# ---------------------------------------------------------------------------
# Scoring


@pytest.mark.parametrize("teams", [GERMAN_POINTS, GERMAN_COUNTS], ids=["points", "counts"])
def test_german_example_scores_3855_and_615(api: Api, teams: list[dict[str, Any]]) -> None:
    response = score(api, teams, decks=5)
    assert response.status_code == 200
    body = response.get_json()
    assert body["ruleset"] == "standard"
    assert body["deal"] == 1
    assert body["opening_minimum"] == 50
    assert body["decks"] == 5
    assert [team["name"] for team in body["teams"]] == ["Team 1", "Team 2"]
    assert [team["score"] for team in body["teams"]] == [3855, 615]
    for team in body["teams"]:
        assert sum(team["breakdown"].values()) == team["score"]
        assert tuple(team["breakdown"]) == BREAKDOWN_KEYS
    winners, losers = body["teams"]
    assert winners["breakdown"]["books"] == 2 * 500 + 2 * 300 + 1500
    assert winners["breakdown"]["melded"] == 555
    assert losers["breakdown"]["left"] == -205


def test_a_team_still_holding_cards_with_none_left_is_hinted_at_not_refused(api: Api) -> None:
    # Seed 001: every player who did not go out keeps at least one card.
    assert score(api, GERMAN_POINTS).get_json()["hints"] == []
    # The seed's own example leaves out what Ben's partner still held: with the seating
    # told, that is hinted at (and still scored 3855).
    body = score(api, GERMAN_POINTS, players=[2, 2]).get_json()
    assert [team["score"] for team in body["teams"]] == [3855, 615]
    assert body["hints"] == [
        {
            "team": 0,
            "field": "left",
            "message": "Team 1 went out, but their player who did not go out still holds at least "
            "one card in hand or foot, and no card is reported left.",
        }
    ]
    forgot = [{**GERMAN_POINTS[0], "left": 25}, {**GERMAN_POINTS[1], "left": 0}]
    response = score(api, forgot, players=[2, 2])
    assert response.status_code == 200
    body = response.get_json()
    assert body["hints"] == [
        {
            "team": 1,
            "field": "left",
            "message": "Team 2 did not go out, so each of their 2 players still holds at least "
            "one card in hand or foot, but no card is reported left.",
        }
    ]
    # Scored all the same: the hint says, the table decides.
    assert body["teams"][1]["breakdown"]["left"] == 0


def test_a_team_that_melded_nothing_is_hinted_at_for_its_unplayed_hands_and_feet(
    api: Api,
) -> None:
    # Nobody of Team 2 emptied a hand (seed 001: "Da du zwei ziehst und eine ablegst, wächst
    # deine Hand"), so both its hands and both its feet of 13 cards are still held, worth at
    # least 5 each.
    out = {**GERMAN_POINTS[0], "left": 25}
    nothing = {"name": "Team 2", "left": 60}
    response = score(api, [out, nothing], players=[2, 2])
    assert response.status_code == 200
    body = response.get_json()
    assert body["hints"] == [
        {
            "team": 1,
            "field": "left",
            "message": "Team 2 melded nothing, so none of their 2 players emptied a hand or "
            "picked up a foot: their hands and feet hold at least 52 cards besides any red "
            "three caught, worth at least 260, but cards worth 60 are reported left.",
        }
    ]
    assert body["teams"][1]["breakdown"]["left"] == -60
    # In German, the same hint in the team's own words.
    german = api.post(
        "/api/score",
        {"ruleset": "standard", "deal": 1, "teams": [out, nothing], "players": [2, 2]},
        headers={"Accept-Language": "de"},
    )
    assert german.get_json()["hints"][0]["message"].startswith(
        "Team 2: nichts ausgelegt, also hat keiner der 2 Spieler der Partei eine Hand geleert "
        "oder einen Fuß aufgenommen"
    )
    # Cards worth what the hands and feet hold: nothing to say.
    enough = score(api, [out, {**nothing, "left": 260}], players=[2, 2])
    assert enough.get_json()["hints"] == []


def test_decks_default_to_the_rulesets_for_the_teams(api: Api) -> None:
    # Two partnerships of two: four players, five decks in the standard rules.
    assert score(api, GERMAN_POINTS).get_json()["decks"] == 5


def test_a_team_without_a_name_is_called_by_its_letter(api: Api) -> None:
    teams = [
        {**GERMAN_POINTS[0], "name": ""},
        {k: v for k, v in GERMAN_POINTS[1].items() if k != "name"},
    ]
    body = score(api, teams).get_json()
    assert [team["name"] for team in body["teams"]] == ["Team A", "Team B"]


@pytest.mark.parametrize("deal", [1, 2, 3, 4])
def test_each_deal_answers_with_its_opening_minimum(api: Api, deal: int) -> None:
    body = score(api, GERMAN_POINTS, deal=deal).get_json()
    assert body["deal"] == deal
    assert body["opening_minimum"] == PRESETS["standard"].deal(deal).opening_minimum


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_scores_a_simple_deal(api: Api, preset: str) -> None:
    teams = [{"clean_books": 1, "dirty_books": 1, "melded": 400}, {"left": 60}]
    response = api.post("/api/score", {"ruleset": preset, "deal": 1, "teams": teams})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    rules = PRESETS[preset]
    expected = score_deal(rules, read_teams(teams))
    assert body["ruleset"] == preset
    assert body["opening_minimum"] == rules.deal(1).opening_minimum
    assert [team["score"] for team in body["teams"]] == [s.score for s in expected]
    assert [team["breakdown"] for team in body["teams"]] == [dict(s.breakdown) for s in expected]
    assert body["teams"][1]["score"] == -60


def test_a_whole_ruleset_object_scores_by_its_own_values(api: Api) -> None:
    rules = PRESETS["standard"].to_dict() | {"id": "big-books", "clean_book_bonus": 1000}
    body = api.post("/api/score", {"ruleset": rules, "deal": 1, "teams": GERMAN_POINTS}).get_json()
    assert body["ruleset"] == "big-books"
    assert body["teams"][0]["score"] == 3855 + 2 * 500
    assert body["teams"][1]["score"] == 615 + 500


def test_every_listed_ruleset_scores_when_sent_back_as_listed(api: Api, app: Flask) -> None:
    with app.app_context():
        rulesets.create_house_rules("Big books", "standard", {"clean_book_bonus": 1000})
    listed = api.get("/api/rulesets").get_json()["rulesets"]
    assert {entry["house"] for entry in listed} == {True, False}
    scored = set()
    for entry in listed:
        by_id = api.post("/api/score", {"ruleset": entry["id"], "deal": 1, "teams": GERMAN_POINTS})
        as_listed = api.post("/api/score", {"ruleset": entry, "deal": 1, "teams": GERMAN_POINTS})
        # The same answer, the German example's score or why these rules refuse it.
        assert (as_listed.status_code, as_listed.get_json()) == (
            by_id.status_code,
            by_id.get_json(),
        ), entry["id"]
        if as_listed.status_code == 200:
            scored.add(entry["id"])
    assert {"standard", "big-books"} <= scored


def test_a_house_flag_that_is_not_true_or_false_is_not_a_rule(api: Api) -> None:
    rules = PRESETS["standard"].to_dict() | {"house": "yes"}
    response = api.post("/api/score", {"ruleset": rules, "deal": 1, "teams": GERMAN_POINTS})
    assert response.status_code == 422
    assert error_fields(response) == ["house"]


def test_a_ruleset_object_that_makes_no_sense_is_422(api: Api) -> None:
    rules = PRESETS["standard"].to_dict() | {"id": "Not A Slug", "book_size": 99}
    response = api.post("/api/score", {"ruleset": rules, "deal": 1, "teams": GERMAN_POINTS})
    assert response.status_code == 422
    assert {"id", "book_size"} <= set(error_fields(response))


def test_an_unknown_ruleset_id_is_400_naming_the_ruleset(api: Api) -> None:
    response = score(api, GERMAN_POINTS, ruleset="no-such-rules")
    assert response.status_code == 400
    assert error_fields(response) == ["ruleset"]
    assert "no-such-rules" in response.get_json()["errors"][0]["message"]


@pytest.mark.parametrize("ref", ["99", 99, "99999999999999999999999", 10**30, "²", 0, -1])
def test_impossible_house_rules_numbers_are_400(api: Api, ref: Any) -> None:
    response = score(api, GERMAN_POINTS, ruleset=ref)
    assert response.status_code == 400
    assert error_fields(response) == ["ruleset"]


def test_saved_house_rules_score_by_their_id_and_their_number(api: Api, app: Flask) -> None:
    with app.app_context():
        house = rulesets.create_house_rules("Kitchen table", "standard", {"red_three_bonus": 300})
        slug, number = house.slug, house.id
    for ref in (slug, number, str(number)):
        body = score(api, GERMAN_POINTS, ruleset=ref).get_json()
        assert body["ruleset"] == slug
        assert body["teams"][0]["breakdown"]["red_threes"] == 300


# ---------------------------------------------------------------------------
# 422: well formed, impossible under the rules


def test_two_teams_going_out_is_422(api: Api) -> None:
    teams = [GERMAN_POINTS[0], {**GERMAN_POINTS[0], "name": "Team 2"}]
    response = score(api, teams)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert {"team": None, "field": "went_out"} in [
        {"team": e["team"], "field": e["field"]} for e in errors
    ]


def test_going_out_without_the_required_books_is_422(api: Api) -> None:
    teams = [{**GERMAN_POINTS[0], "wild_books": 0, "melded": 295}, GERMAN_POINTS[1]]
    response = score(api, teams)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    wild = [e for e in errors if e["field"] == "wild_books"]
    assert wild and wild[0]["team"] == 0
    assert "cannot go out" in wild[0]["message"]


def test_an_opening_below_the_minimum_is_422(api: Api) -> None:
    teams = [{"clean_books": 1, "melded": 300, "opening_meld": 80}, {}]
    response = score(api, teams, deal=2)  # deal 2 needs 90
    assert response.status_code == 422
    (error,) = response.get_json()["errors"]
    assert (error["team"], error["field"]) == (0, "opening_meld")
    assert "90" in error["message"]


def test_the_same_opening_is_fine_in_deal_one(api: Api) -> None:
    teams = [{"clean_books": 1, "melded": 300, "opening_meld": 80}, {}]
    assert score(api, teams, deal=1).status_code == 200


def test_more_red_threes_than_the_decks_hold_is_422(api: Api) -> None:
    # Two decks hold four red threes.
    response = score(api, [{"red_threes": 3}, {"red_threes": 3}], decks=2)
    assert response.status_code == 422
    assert "red_threes" in error_fields(response)


# ---------------------------------------------------------------------------
# 400: malformed

ONE_TEAM = [GERMAN_POINTS[0]]
BAD_BODIES: list[tuple[str, Any, str | None]] = [
    ("missing teams", {"ruleset": "standard", "deal": 1}, "teams"),
    ("teams not a list", {"ruleset": "standard", "deal": 1, "teams": {"a": 1}}, "teams"),
    ("one team", {"ruleset": "standard", "deal": 1, "teams": ONE_TEAM}, "teams"),
    ("nine teams", {"ruleset": "standard", "deal": 1, "teams": [{}] * 9}, "teams"),
    ("missing deal", {"ruleset": "standard", "teams": GERMAN_POINTS}, "deal"),
    ("missing ruleset", {"deal": 1, "teams": GERMAN_POINTS}, "ruleset"),
    ("deal 0", {"ruleset": "standard", "deal": 0, "teams": GERMAN_POINTS}, "deal"),
    ("deal 5", {"ruleset": "standard", "deal": 5, "teams": GERMAN_POINTS}, "deal"),
    ("deal -1", {"ruleset": "standard", "deal": -1, "teams": GERMAN_POINTS}, "deal"),
    ("deal as text", {"ruleset": "standard", "deal": "1", "teams": GERMAN_POINTS}, "deal"),
    ("deal as bool", {"ruleset": "standard", "deal": True, "teams": GERMAN_POINTS}, "deal"),
    ("deal 1.5", {"ruleset": "standard", "deal": 1.5, "teams": GERMAN_POINTS}, "deal"),
    ("deal null", {"ruleset": "standard", "deal": None, "teams": GERMAN_POINTS}, "deal"),
    ("decks 0", {"ruleset": "standard", "deal": 1, "decks": 0, "teams": GERMAN_POINTS}, "decks"),
    ("decks 21", {"ruleset": "standard", "deal": 1, "decks": 21, "teams": GERMAN_POINTS}, "decks"),
    (
        "decks text",
        {"ruleset": "standard", "deal": 1, "decks": "5", "teams": GERMAN_POINTS},
        "decks",
    ),
    ("ruleset list", {"ruleset": ["standard"], "deal": 1, "teams": GERMAN_POINTS}, "ruleset"),
    ("ruleset bool", {"ruleset": True, "deal": 1, "teams": GERMAN_POINTS}, "ruleset"),
    ("unknown field", {"ruleset": "standard", "deal": 1, "teams": GERMAN_POINTS, "x": 1}, "x"),
]
BAD_TEAMS: list[tuple[str, dict[str, Any], str]] = [
    ("negative books", {"clean_books": -1}, "clean_books"),
    ("absurd books", {"clean_books": 10**30}, "clean_books"),
    ("books as text", {"clean_books": "2"}, "clean_books"),
    ("books as bool", {"clean_books": True}, "clean_books"),
    ("books as float", {"clean_books": 1.5}, "clean_books"),
    ("books as null", {"dirty_books": None}, "dirty_books"),
    ("melded as text", {"melded": "555"}, "melded"),
    ("melded negative", {"melded": -5}, "melded"),
    ("melded absurd", {"melded": 10**9}, "melded"),
    ("unknown card class", {"melded": {"kings": 3}}, "melded.kings"),
    ("negative card count", {"left": {"aces": -1}}, "left.aces"),
    ("went_out as text", {"went_out": "yes"}, "went_out"),
    ("went_out as 1", {"went_out": 1}, "went_out"),
    ("opening as text", {"opening_meld": "90"}, "opening_meld"),
    ("name as number", {"name": 7}, "name"),
    ("name too long", {"name": "x" * 81}, "name"),
    ("unknown team field", {"hands": 3}, "hands"),
    ("special books not an object", {"special_books": [1]}, "special_books"),
]


@pytest.mark.parametrize(
    ("body", "field"), [(b, f) for _, b, f in BAD_BODIES], ids=[n for n, _, _ in BAD_BODIES]
)
def test_malformed_bodies_are_400_naming_the_field(api: Api, body: Any, field: str) -> None:
    response = api.post("/api/score", body)
    assert response.status_code == 400
    assert field in error_fields(response)


@pytest.mark.parametrize(
    ("team", "field"), [(t, f) for _, t, f in BAD_TEAMS], ids=[n for n, _, _ in BAD_TEAMS]
)
def test_malformed_team_fields_are_400_naming_team_and_field(
    api: Api, team: dict[str, Any], field: str
) -> None:
    response = score(api, [GERMAN_POINTS[0], team])
    assert response.status_code == 400
    errors = response.get_json()["errors"]
    assert {"team": 1, "field": field} in [{"team": e["team"], "field": e["field"]} for e in errors]


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"not json",
        b'{"ruleset": "standard",',
        b"[]",
        b"[1, 2]",
        b"null",
        b'"standard"',
        b"42",
        b"\xff\xfe\x00",
        b'{"ruleset": "standard", "deal": NaN, "teams": []}',
        b'{"ruleset": "standard", "deal": Infinity, "teams": []}',
        b'{"ruleset": "\\ud800", "deal": 1, "teams": []}',
        b"[" * 100_000,
        b'{"deal": ' + b"9" * 5000 + b"}",
    ],
    ids=[
        "empty",
        "not-json",
        "truncated",
        "array",
        "list",
        "null",
        "string",
        "number",
        "bad-utf8",
        "nan",
        "infinity",
        "lone-surrogate",
        "deep",
        "huge-number",
    ],
)
def test_what_is_not_one_json_object_is_400(api: Api, raw: bytes) -> None:
    response = api.post("/api/score", data=raw, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["message"]


# ---------------------------------------------------------------------------
# 415: not application/json


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        ("ruleset=standard&deal=1", "application/x-www-form-urlencoded"),
        ('{"ruleset": "standard", "deal": 1, "teams": []}', "text/plain"),
        ('{"ruleset": "standard", "deal": 1, "teams": []}', "multipart/form-data; boundary=x"),
        ('{"ruleset": "standard", "deal": 1, "teams": []}', None),
        ('{"ruleset": "standard", "deal": 1, "teams": []}', "application/jsonx"),
    ],
    ids=["form", "text-plain", "multipart", "no-content-type", "lookalike"],
)
def test_a_body_that_is_not_application_json_is_415(
    api: Api, data: str, content_type: str | None
) -> None:
    response = api.post("/api/score", data=data, content_type=content_type)
    assert response.status_code == 415
    assert response.get_json()["errors"][0]["field"] == ""


def test_application_json_with_a_charset_is_json(api: Api) -> None:
    import json

    response = api.post(
        "/api/score",
        data=json.dumps({"ruleset": "standard", "deal": 1, "teams": GERMAN_POINTS}),
        content_type="application/json; charset=utf-8",
    )
    assert response.status_code == 200


# ---------------------------------------------------------------------------
# The calculator writes nothing


def test_scoring_writes_nothing(
    api: Api, app: Flask, row_counts: Callable[[], dict[str, int]]
) -> None:
    with app.app_context():
        rulesets.create_house_rules("Kitchen table", "standard", {})
    before = row_counts()
    assert before["house_rules"] == 1
    for teams in (GERMAN_POINTS, GERMAN_COUNTS):
        assert score(api, teams).status_code == 200
        assert score(api, teams, ruleset="kitchen-table").status_code == 200
    assert score(api, [GERMAN_POINTS[0]] * 2).status_code == 422
    assert score(api, ONE_TEAM).status_code == 400
    assert api.get("/api/rulesets").status_code == 200
    assert row_counts() == before


# ---------------------------------------------------------------------------
# GET /api/rulesets


def test_rulesets_lists_every_preset_with_its_data(api: Api) -> None:
    body = api.get("/api/rulesets").get_json()
    listed = {entry["id"]: entry for entry in body["rulesets"]}
    assert list(listed)[: len(PRESETS)] == list(PRESETS)
    for preset_id, rules in PRESETS.items():
        entry = listed[preset_id]
        assert entry["house"] is False
        assert {k: v for k, v in entry.items() if k != "house"} == rules.to_dict()


def test_rulesets_lists_saved_house_rules_after_the_presets(api: Api, app: Flask) -> None:
    with app.app_context():
        rulesets.create_house_rules("Grandma's rules", "simpson", {"going_out_bonus": 250})
    body = api.get("/api/rulesets").get_json()
    entries = body["rulesets"]
    assert len(entries) == len(PRESETS) + 1
    house = entries[-1]
    assert house["id"] == "grandma-s-rules"
    assert house["name"] == "Grandma's rules"
    assert house["house"] is True
    assert house["going_out_bonus"] == 250
    assert house["based_on"] == "simpson"


def test_players_seated_alone_go_out_with_nothing_left(api: Api) -> None:
    # Three at a standard table play alone: the one who went out has no partner's hand.
    out = {"clean_books": 2, "dirty_books": 2, "wild_books": 1, "melded": 600, "went_out": True}
    body = {"ruleset": "standard", "deal": 1, "teams": [{**out, "left": 10}, {}, {}]}
    assert api.post("/api/score", body).status_code == 200  # three partnerships of two
    alone = api.post("/api/score", {**body, "players": [1, 1, 1]})
    assert alone.status_code == 422
    assert alone.get_json()["errors"] == [
        {
            "team": 0,
            "field": "left",
            "message": "Team A went out, so no cards can be left in hand or foot, but cards "
            "worth 10 are reported left.",
        }
    ]
    paired = api.post("/api/score", {**body, "players": [2, 2, 2]})
    assert paired.status_code == 200
    assert paired.get_json()["decks"] == 7
    nothing_left = {**body, "teams": [out, {}, {}], "players": [1, 1, 1]}
    scored = api.post("/api/score", nothing_left)
    assert scored.status_code == 200
    assert scored.get_json()["decks"] == 4  # three players: decks as the rules say, 3 + 1


@pytest.mark.parametrize(
    ("ruleset", "players", "message"),
    [
        ("standard", [2, 1, 1], "With 4 players these rules need 2 teams of 2."),
        ("standard", [3, 2, 1], "With 6 players these rules need 3 teams of 2 or 2 teams of 3."),
        ("brouillette-partners", [1, 1, 1], "These rules are for 4 to 6 players, not 3."),
    ],
)
def test_a_table_the_rules_cannot_seat_is_422(
    api: Api, ruleset: str, players: list[int], message: str
) -> None:
    """Seated as no game of these rules could be, a deal has no verdict: refused as starting
    that game would be, in the same words."""
    teams: list[dict[str, Any]] = [{} for _ in players]
    response = api.post(
        "/api/score", {"ruleset": ruleset, "deal": 1, "teams": teams, "players": players}
    )
    assert response.status_code == 422
    assert response.get_json()["errors"] == [{"team": None, "field": "players", "message": message}]
    names = [[f"P{t}{i}" for i in range(count)] for t, count in enumerate(players)]
    start = api.post("/api/games", {"ruleset": ruleset, "teams": [{"players": n} for n in names]})
    assert start.status_code == 422
    assert [e["message"] for e in start.get_json()["errors"]] == [message]


@pytest.mark.parametrize(
    ("players", "field"),
    [
        ([1, 1], "players"),
        ("three", "players"),
        ([1, 0, 1], "players[1]"),
        ([1, 5, 1], "players[1]"),
    ],
)
def test_players_that_do_not_fit_the_teams_are_400(api: Api, players: Any, field: str) -> None:
    body = {"ruleset": "standard", "deal": 1, "teams": [{}, {}, {}], "players": players}
    response = api.post("/api/score", body)
    assert response.status_code == 400
    assert [error["field"] for error in response.get_json()["errors"]] == [field]


def test_the_eleven_card_game_counts_five_to_six_decks(api: Api) -> None:
    """The French text plays with five to six decks: two players alone have the ten jokers of
    five decks, not the six of three (players + 1)."""
    seven_jokers = {"dirty_books": 2, "melded": {"jokers": 7, "aces": 8, "eights_to_kings": 4}}
    body = {"ruleset": "eleven-card", "deal": 1, "teams": [seven_jokers, {}], "players": [1, 1]}
    scored = api.post("/api/score", body)
    assert scored.status_code == 200, scored.get_json()
    assert scored.get_json()["decks"] == 5
    seven_players = api.post("/api/score", {**body, "teams": [{}] * 7, "players": [1] * 7})
    assert seven_players.get_json()["decks"] == 6
    game = api.post(
        "/api/games",
        {"ruleset": "eleven-card", "teams": [{"players": ["Ann"]}, {"players": ["Bob"]}]},
    )
    assert game.status_code == 201 and game.get_json()["decks"] == 5


def test_teams_the_rules_seat_one_way_only_are_seated_that_way(api: Api) -> None:
    """Not told how many play in each team, five teams at a standard table are five players
    alone (RULES: two, three or five each play alone): 6 decks, not the 11 of ten players,
    and the one who went out has no partner holding cards."""
    out = {"clean_books": 2, "dirty_books": 2, "wild_books": 1, "melded": 555, "went_out": True}
    five = {"ruleset": "standard", "deal": 1, "teams": [out, {}, {}, {}, {}]}
    scored = api.post("/api/score", five)
    assert scored.status_code == 200 and scored.get_json()["decks"] == 6
    left = api.post("/api/score", {**five, "teams": [{**out, "left": 50}, {}, {}, {}, {}]})
    assert left.status_code == 422 and left.get_json()["errors"][0]["field"] == "left"
    # Three teams may be three alone or three partnerships: as before, partnerships.
    three = api.post("/api/score", {**five, "teams": [{}, {}, {}]})
    assert three.get_json()["decks"] == 7
    # Eleven-card is played by teams or individuals (002): four teams are four players alone.
    eleven = {"ruleset": "eleven-card", "deal": 1, "teams": [{"red_threes": 1}, {}, {}, {}]}
    four = api.post("/api/score", eleven)
    assert four.status_code == 200 and four.get_json()["decks"] == 5


@pytest.mark.parametrize(
    ("ruleset", "teams", "message"),
    [
        ("standard", 4, "These rules seat 2, 3, 5 or 7 teams, not 4."),
        ("standard", 8, "These rules seat 2, 3, 5 or 7 teams, not 8."),
        ("brouillette-partners", 4, "These rules seat 2 or 3 teams, not 4."),
    ],
)
def test_teams_the_rules_cannot_seat_are_422(
    api: Api, ruleset: str, teams: int, message: str
) -> None:
    body = {"ruleset": ruleset, "deal": 1, "teams": [{"red_threes": 1}] + [{}] * (teams - 1)}
    response = api.post("/api/score", body)
    assert response.status_code == 422
    assert response.get_json()["errors"] == [{"team": None, "field": "teams", "message": message}]


@pytest.mark.parametrize(
    ("ruleset", "decks", "players", "message"),
    [
        ("eleven-card", 4, None, "These rules play with 5 to 6 decks, not 4."),
        ("eleven-card", 8, [1, 1], "These rules play with 5 to 6 decks, not 8."),
        ("standard", 1, [2, 2], "1 deck holds 54 cards, too few to deal 4 players 26 cards each."),
        (
            "standard",
            3,
            [1] * 7,
            "3 decks hold 162 cards, too few to deal 7 players 26 cards each.",
        ),
    ],
)
def test_decks_the_rules_do_not_play_with_are_422(
    api: Api, ruleset: str, decks: int, players: list[int] | None, message: str
) -> None:
    teams: list[dict[str, Any]] = [{} for _ in players or [1, 1]]
    body = {"ruleset": ruleset, "deal": 1, "teams": teams, "decks": decks, "players": players}
    response = api.post("/api/score", body)
    assert response.status_code == 422
    assert response.get_json()["errors"] == [{"team": None, "field": "decks", "message": message}]
    # Within them, the decks given are the decks in play.
    fine = api.post("/api/score", {**body, "decks": 6})
    assert fine.status_code == 200 and fine.get_json()["decks"] == 6
