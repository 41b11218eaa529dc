"""Games through the JSON API: start, deals, finish, corrections, conflicts, house rules."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import pytest
from api_support import FIRST_DEAL, Api, standard_game_body
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.models import Correction
from scorekeeper.rules import PRESETS
from scorekeeper.services import games, players, rulesets

# Four valid deals of a standard game (minimums 50, 90, 120, 150). Team 0 goes out in the
# last one with the two clean, two dirty and one wild book the standard rules require.
GAME_DEALS: list[list[dict[str, Any]]] = [
    FIRST_DEAL,
    [{"melded": 100}, {"clean_books": 1, "melded": 400, "left": 15}],
    [{"dirty_books": 1, "melded": 250}, {"melded": 130, "red_threes": 1}],
    [
        {
            "clean_books": 2,
            "dirty_books": 2,
            "wild_books": 1,
            "red_threes": 1,
            "melded": 555,
            "went_out": True,
        },
        {"clean_books": 1, "red_threes": 1, "melded": 220, "left": 205},
    ],
]


def deal_url(game_id: int, number: int | None = None) -> str:
    base = f"/api/games/{game_id}/deals"
    return base if number is None else f"{base}/{number}"


def play(api: Api, game_id: int, deals: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    out = []
    for teams in deals:
        response = api.post(deal_url(game_id), {"teams": teams})
        assert response.status_code == 201, response.get_json()
        out.append(response.get_json())
    return out


# ---------------------------------------------------------------------------
# Starting a game


def test_starting_a_game_answers_201_with_the_game_and_where_it_lives(api: Api) -> None:
    response = api.post("/api/games", standard_game_body(played_on="2026-11-29"))
    assert response.status_code == 201
    game = response.get_json()
    assert response.headers["Location"] == f"/api/games/{game['id']}"
    assert game["ruleset_id"] == "standard"
    assert game["ruleset"] == PRESETS["standard"].to_dict()
    assert game["played_on"] == "2026-11-29"
    assert game["season"] is None
    assert game["decks"] == 5
    assert [(t["name"], t["players"]) for t in game["teams"]] == [
        ("Ann & Ben", ["Ann", "Ben"]),
        ("Cy & Di", ["Cy", "Di"]),
    ]
    assert game["deals"] == []
    assert game["totals"] == [0, 0]
    assert game["finished"] is False
    assert game["winner"] is None
    assert game["winners"] == []
    # Partners sit apart: Ann, Cy, Ben, Di around the table; Ann deals first.
    assert game["next_deal"] == {
        "number": 1,
        "opening_minimum": 50,
        "opening_needs_concealed_book": False,
        "go_out": {"clean": 2, "dirty": 2, "wild": 1},
        "dealer": "Ann",
    }
    assert api.get(response.headers["Location"]).get_json() == game


def test_a_game_is_dated_today_unless_told(api: Api) -> None:
    game = api.post("/api/games", standard_game_body()).get_json()
    assert game["played_on"] == date.today().isoformat()


def test_a_game_is_not_dated_in_the_years_to_come(
    api: Api, row_counts: Callable[[], dict[str, int]]
) -> None:
    before = row_counts()
    later = (date.today() + timedelta(days=2)).isoformat()
    response = api.post("/api/games", standard_game_body(played_on=later))
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {
            "team": None,
            "field": "played_on",
            "message": "That date is still to come: give the day the game is played.",
        }
    ]
    assert row_counts() == before
    # Tomorrow is allowed: a tablet's midnight may come before the server's.
    tomorrow = (date.today() + timedelta(days=1)).isoformat()
    assert api.post("/api/games", standard_game_body(played_on=tomorrow)).status_code == 201


def test_team_names_default_to_the_players(api: Api) -> None:
    body = {
        "ruleset": "standard",
        "teams": [{"players": ["Ann", "Ben"]}, {"players": ["Cy", "Di"]}],
    }
    game = api.post("/api/games", body).get_json()
    assert [t["name"] for t in game["teams"]] == ["Ann & Ben", "Cy & Di"]


def test_players_are_remembered_once_each(api: Api) -> None:
    api.post("/api/games", standard_game_body())
    api.post("/api/games", standard_game_body())
    names = [p["name"] for p in api.get("/api/players").get_json()["players"]]
    assert names == ["Ann", "Ben", "Cy", "Di"]


def test_a_game_can_belong_to_a_season(api: Api, app: Flask) -> None:
    with app.app_context():
        season = players.create_season("Winter").id
    game = api.post("/api/games", standard_game_body(season=season)).get_json()
    assert game["season"] == season


def test_a_game_can_use_a_whole_ruleset_object(api: Api) -> None:
    rules = PRESETS["standard"].to_dict() | {"id": "three-deals", "opening_minimums": [50, 90, 120]}
    del rules["deals"]
    game = api.post("/api/games", standard_game_body(ruleset=rules)).get_json()
    assert game["ruleset_id"] == "three-deals"
    assert len(game["ruleset"]["deals"]) == 3


def test_a_game_starts_with_a_listed_ruleset_sent_back_as_listed(api: Api, app: Flask) -> None:
    with app.app_context():
        slug = rulesets.create_house_rules("Our table", "standard", {"clean_book_bonus": 700}).slug
    listed = {r["id"]: r for r in api.get("/api/rulesets").get_json()["rulesets"]}
    for ruleset_id in ("standard", slug):
        response = api.post("/api/games", standard_game_body(ruleset=listed[ruleset_id]))
        assert response.status_code == 201, response.json
        game = response.get_json()
        assert game["ruleset_id"] == ruleset_id
        assert game["ruleset"] == {k: v for k, v in listed[ruleset_id].items() if k != "house"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"teams": standard_game_body()["teams"]}, "ruleset"),
        ({"ruleset": "standard"}, "teams"),
        (standard_game_body(ruleset="no-such-rules"), "ruleset"),
        (standard_game_body(ruleset=None), "ruleset"),
        ({"ruleset": "standard", "teams": "Ann, Ben"}, "teams"),
        # Fewer than two teams or more than eight, as in the scoring API (issues 2 and 3).
        ({"ruleset": "standard", "teams": []}, "teams"),
        ({"ruleset": "standard", "teams": [{"players": ["Ann", "Ben"]}]}, "teams"),
        ({"ruleset": "standard", "teams": [{"players": [f"P{i}"]} for i in range(9)]}, "teams"),
        ({"ruleset": "standard", "teams": ["Ann", "Ben"]}, "teams[0]"),
        ({"ruleset": "standard", "teams": [{"name": "A"}, {"players": ["B"]}]}, "teams[0].players"),
        (
            {"ruleset": "standard", "teams": [{"players": "Ann"}, {"players": ["B"]}]},
            "teams[0].players",
        ),
        (
            {"ruleset": "standard", "teams": [{"players": [1]}, {"players": ["B"]}]},
            "teams[0].players",
        ),
        (
            {"ruleset": "standard", "teams": [{"players": ["A"], "name": 5}, {"players": ["B"]}]},
            "teams[0].name",
        ),
        (
            {"ruleset": "standard", "teams": [{"players": ["A"], "x": 1}, {"players": ["B"]}]},
            "teams[0].x",
        ),
        (standard_game_body(played_on="29.11.2026"), "played_on"),
        (standard_game_body(played_on="2026-02-30"), "played_on"),
        (standard_game_body(played_on="20261129"), "played_on"),
        (standard_game_body(played_on=20261129), "played_on"),
        (standard_game_body(season="winter"), "season"),
        (standard_game_body(season=10**30), "season"),
        (standard_game_body(first_dealer_seat=-1), "first_dealer_seat"),
        (standard_game_body(colour="red"), "colour"),
    ],
)
def test_malformed_games_are_400_and_store_nothing(
    api: Api, row_counts: Callable[[], dict[str, int]], body: dict[str, Any], field: str
) -> None:
    before = row_counts()
    response = api.post("/api/games", body)
    assert response.status_code == 400
    assert field in [e["field"] for e in response.get_json()["errors"]]
    assert row_counts() == before


@pytest.mark.parametrize(
    ("teams", "field"),
    [
        ([{"players": ["Ann", "Ben"]}, {"players": ["Cy"]}], "teams"),
        ([{"players": ["Ann", "Ben"]}, {"players": ["ann", "Di"]}], "teams[1].players"),
        ([{"players": ["Ann", "Ben"]}, {"players": ["  "]}], "teams[1].players"),
        ([{"name": "Us", "players": ["A", "B"]}, {"name": "us", "players": ["C", "D"]}], "teams"),
    ],
    ids=["uneven", "same-player", "blank-player", "same-name"],
)
def test_impossible_tables_are_422_and_store_nothing(
    api: Api, row_counts: Callable[[], dict[str, int]], teams: list[Any], field: str
) -> None:
    before = row_counts()
    response = api.post("/api/games", {"ruleset": "standard", "teams": teams})
    assert response.status_code == 422, response.get_json()
    assert field in [e["field"] for e in response.get_json()["errors"]]
    assert row_counts() == before


def test_rules_whose_decks_cannot_deal_the_table_start_no_game(
    api: Api, row_counts: Callable[[], dict[str, int]]
) -> None:
    # Hands and feet of 30 with a deck a player and no more: 4 decks, 216 cards for 240.
    rules = {
        **PRESETS["standard"].to_dict(),
        "id": "big-hands",
        "name": "Big hands",
        "hand_cards": 30,
        "foot_cards": 30,
        "extra_decks": 0,
    }
    before = row_counts()
    response = api.post("/api/games", standard_game_body(ruleset=rules))
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {
            "team": None,
            "field": "decks",
            "message": "4 decks hold 216 cards, too few to deal 4 players 60 cards each.",
        }
    ]
    assert row_counts() == before


def test_an_unknown_season_is_422(api: Api) -> None:
    response = api.post("/api/games", standard_game_body(season=42))
    assert response.status_code == 422
    assert [e["field"] for e in response.get_json()["errors"]] == ["season"]


# ---------------------------------------------------------------------------
# A whole game


def test_a_whole_four_deal_game(
    api: Api, new_game: Callable[..., int], row_counts: Callable[[], dict[str, int]]
) -> None:
    game_id = new_game()
    minimums = []
    for number, teams in enumerate(GAME_DEALS, start=1):
        before = api.get(f"/api/games/{game_id}").get_json()
        assert before["finished"] is False
        minimums.append(before["next_deal"]["opening_minimum"])
        response = api.post(deal_url(game_id), {"teams": teams})
        assert response.status_code == 201, response.get_json()
        deal = response.get_json()
        assert response.headers["Location"] == deal_url(game_id, number)
        assert deal["number"] == number
        assert deal["version"] == 1
        assert [t["name"] for t in deal["teams"]] == ["Ann & Ben", "Cy & Di"]
        for team in deal["teams"]:
            assert sum(team["breakdown"].values()) == team["score"]
    assert minimums == [50, 90, 120, 150]

    before = row_counts()
    fifth = api.post(deal_url(game_id), {"teams": FIRST_DEAL})
    assert fifth.status_code == 409
    assert fifth.get_json()["errors"][0]["field"] == "game"
    assert row_counts() == before

    game = api.get(f"/api/games/{game_id}").get_json()
    assert game["finished"] is True
    assert game["next_deal"] is None
    assert len(game["deals"]) == 4
    sums = [sum(deal["teams"][i]["score"] for deal in game["deals"]) for i in range(2)]
    assert game["totals"] == sums
    assert game["deals"][-1]["running"] == sums
    # Team 0: 800 + 100 + 550 + 3855; team 1: -40 + 885 + 230 + 615.
    assert sums == [5305, 1690]
    assert game["winner"] == 0
    assert game["winners"] == [0]
    assert game["deals"][3]["stock_out"] is False
    assert game["deals"][0]["stock_out"] is True


def test_the_game_list_shows_totals_and_the_finished_game(
    api: Api, new_game: Callable[..., int]
) -> None:
    game_id = new_game()
    play(api, game_id, GAME_DEALS)
    (summary,) = api.get("/api/games").get_json()["games"]
    assert summary["id"] == game_id
    assert summary["ruleset"] == "standard"
    assert summary["finished"] is True
    assert summary["totals"] == [5305, 1690]
    assert summary["teams"][1]["players"] == ["Cy", "Di"]


def test_a_tie_has_no_single_winner(api: Api, new_game: Callable[..., int]) -> None:
    game_id = new_game()
    same = [{"melded": 0}, {"melded": 0}]
    play(api, game_id, [same] * 4)
    game = api.get(f"/api/games/{game_id}").get_json()
    assert game["finished"] is True
    assert game["winner"] is None
    assert game["winners"] == [0, 1]


def test_an_abandoned_game_takes_no_deals(
    api: Api, app: Flask, new_game: Callable[..., int]
) -> None:
    game_id = new_game()
    with app.app_context():
        games.abandon_game(game_id)
    assert api.post(deal_url(game_id), {"teams": FIRST_DEAL}).status_code == 409


# ---------------------------------------------------------------------------
# Refused deals change nothing


IMPOSSIBLE_DEALS = {
    "two-go-out": [GAME_DEALS[3][0], {**GAME_DEALS[3][0]}],
    "short-of-books": [{"clean_books": 1, "melded": 300, "went_out": True}, {}],
    "opening-too-low": [{"clean_books": 1, "melded": 300, "opening_meld": 40}, {}],
}


@pytest.mark.parametrize("teams", IMPOSSIBLE_DEALS.values(), ids=IMPOSSIBLE_DEALS.keys())
def test_an_impossible_deal_is_422_and_changes_nothing(
    api: Api,
    new_game: Callable[..., int],
    row_counts: Callable[[], dict[str, int]],
    teams: list[dict[str, Any]],
) -> None:
    game_id = new_game()
    play(api, game_id, [FIRST_DEAL])
    before, game_before = row_counts(), api.get(f"/api/games/{game_id}").get_json()
    response = api.post(deal_url(game_id), {"teams": teams})
    assert response.status_code == 422
    assert response.get_json()["errors"]
    assert row_counts() == before
    assert api.get(f"/api/games/{game_id}").get_json() == game_before


@pytest.mark.parametrize(
    "body",
    [
        {"teams": [FIRST_DEAL[0]]},
        {"teams": [*FIRST_DEAL, {}]},
        {"teams": [{"clean_books": -1}, {}]},
        {"teams": "all"},
        {},
        {"teams": FIRST_DEAL, "deal": 1},
    ],
    ids=["too-few", "too-many", "negative", "not-a-list", "no-teams", "extra-field"],
)
def test_a_malformed_deal_is_400_and_changes_nothing(
    api: Api,
    new_game: Callable[..., int],
    row_counts: Callable[[], dict[str, int]],
    body: dict[str, Any],
) -> None:
    game_id = new_game()
    before = row_counts()
    assert api.post(deal_url(game_id), body).status_code == 400
    assert row_counts() == before


def test_deals_of_an_unknown_game_are_404(api: Api) -> None:
    assert api.post(deal_url(999), {"teams": FIRST_DEAL}).status_code == 404
    assert api.get("/api/games/999").status_code == 404
    assert api.get("/api/games/99999999999999999999999999").status_code == 404
    assert api.get(deal_url(999, 1)).status_code == 404
    assert api.put(deal_url(999, 1), {"version": 1, "teams": FIRST_DEAL}).status_code == 404
    assert api.get("/api/games/999/corrections").status_code == 404
    undo = api.post("/api/games/999/corrections/undo", {})
    assert undo.status_code == 404


def test_a_deal_not_played_yet_is_404(api: Api, new_game: Callable[..., int]) -> None:
    game_id = new_game()
    play(api, game_id, [FIRST_DEAL])
    assert api.get(deal_url(game_id, 2)).status_code == 404
    assert api.get(deal_url(game_id, 0)).status_code == 404
    response = api.put(deal_url(game_id, 2), {"version": 1, "teams": FIRST_DEAL})
    assert response.status_code == 404


# ---------------------------------------------------------------------------
# Correcting a deal


def corrected(teams: list[dict[str, Any]], **changes: Any) -> list[dict[str, Any]]:
    return [{**teams[0], **changes}, teams[1]]


def test_a_stale_version_is_409_with_the_deal_as_stored_then_the_right_one_is_200(
    api: Api, new_game: Callable[..., int], row_counts: Callable[[], dict[str, int]]
) -> None:
    game_id = new_game()
    play(api, game_id, [FIRST_DEAL])
    read = api.get(deal_url(game_id, 1)).get_json()
    assert read["version"] == 1

    # The first tablet saves a correction...
    first = api.put(
        deal_url(game_id, 1), {"version": 1, "teams": corrected(FIRST_DEAL, melded=350)}
    )
    assert first.status_code == 200
    assert first.get_json()["version"] == 2
    assert first.get_json()["teams"][0]["melded"] == 350

    # ...the second, still holding version 1, is refused and shown what is stored now.
    before = row_counts()
    stale = api.put(
        deal_url(game_id, 1), {"version": 1, "teams": corrected(FIRST_DEAL, melded=400)}
    )
    assert stale.status_code == 409
    body = stale.get_json()
    assert body["errors"][0]["field"] == "version"
    assert "Someone else changed deal 1" in body["errors"][0]["message"]
    assert body["current"]["version"] == 2
    assert body["current"]["teams"][0]["melded"] == 350
    assert row_counts() == before

    again = api.put(
        deal_url(game_id, 1), {"version": 2, "teams": corrected(FIRST_DEAL, melded=400)}
    )
    assert again.status_code == 200
    assert again.get_json()["version"] == 3
    assert again.get_json()["teams"][0]["score"] == 400 + 500


def test_a_deal_read_from_the_api_can_be_sent_back_corrected(
    api: Api, new_game: Callable[..., int]
) -> None:
    game_id = new_game()
    play(api, game_id, [FIRST_DEAL])
    deal = api.get(deal_url(game_id, 1)).get_json()
    deal["teams"][1]["left"] = {
        "jokers": 0,
        "twos": 0,
        "aces": 1,
        "eights_to_kings": 0,
        "fours_to_sevens": 0,
        "black_threes": 0,
    }
    response = api.put(deal_url(game_id, 1), {"version": deal["version"], "teams": deal["teams"]})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["teams"][1]["score"] == -20


def test_an_impossible_correction_is_422_and_changes_nothing(
    api: Api, new_game: Callable[..., int], row_counts: Callable[[], dict[str, int]]
) -> None:
    game_id = new_game()
    play(api, game_id, [FIRST_DEAL])
    before, game_before = row_counts(), api.get(f"/api/games/{game_id}").get_json()
    response = api.put(
        deal_url(game_id, 1), {"version": 1, "teams": corrected(FIRST_DEAL, opening_meld=45)}
    )
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "opening_meld"
    assert row_counts() == before
    assert api.get(f"/api/games/{game_id}").get_json() == game_before


@pytest.mark.parametrize(
    "body",
    [
        {"teams": FIRST_DEAL},
        {"version": "1", "teams": FIRST_DEAL},
        {"version": True, "teams": FIRST_DEAL},
        {"version": 0, "teams": FIRST_DEAL},
        {"version": None, "teams": FIRST_DEAL},
        {"version": 1},
        {"version": 1, "teams": [{"melded": "lots"}, {}]},
    ],
    ids=["no-version", "text", "bool", "zero", "null", "no-teams", "bad-team"],
)
def test_a_malformed_correction_is_400(
    api: Api, new_game: Callable[..., int], body: dict[str, Any]
) -> None:
    game_id = new_game()
    play(api, game_id, [FIRST_DEAL])
    response = api.put(deal_url(game_id, 1), body)
    assert response.status_code == 400
    assert api.get(deal_url(game_id, 1)).get_json()["version"] == 1


def test_a_finished_game_can_still_be_corrected(api: Api, new_game: Callable[..., int]) -> None:
    game_id = new_game()
    play(api, game_id, GAME_DEALS)
    teams = corrected(GAME_DEALS[0], melded=310)
    assert api.put(deal_url(game_id, 1), {"version": 1, "teams": teams}).status_code == 200
    game = api.get(f"/api/games/{game_id}").get_json()
    assert game["totals"] == [5315, 1690]
    assert game["deals"][0]["corrected"] is True


# ---------------------------------------------------------------------------
# The correction log and undo


def test_the_correction_log_lists_each_changed_field_and_undo_puts_it_back(
    api: Api, new_game: Callable[..., int]
) -> None:
    game_id = new_game()
    play(api, game_id, [FIRST_DEAL, GAME_DEALS[1]])
    assert api.get(f"/api/games/{game_id}/corrections").get_json() == {"corrections": []}

    teams = [{**FIRST_DEAL[0], "melded": 320, "red_threes": 1}, {"left": {"aces": 2}}]
    assert api.put(deal_url(game_id, 1), {"version": 1, "teams": teams}).status_code == 200

    log = api.get(f"/api/games/{game_id}/corrections").get_json()["corrections"]
    changes = {(c["deal"], c["team"], c["field"]): (c["old"], c["new"]) for c in log}
    assert changes == {
        (1, 0, "red_threes"): (0, 1),
        (1, 0, "melded"): (300, 320),
        (1, 1, "left"): (
            40,
            {
                "jokers": 0,
                "twos": 0,
                "aces": 2,
                "eights_to_kings": 0,
                "fours_to_sevens": 0,
                "black_threes": 0,
            },
        ),
    }
    assert all(c["undone"] is False for c in log)
    assert len({c["batch"] for c in log}) == 1
    assert all(c["at"].endswith("+00:00") for c in log)

    undo = api.post(f"/api/games/{game_id}/corrections/undo", {})
    assert undo.status_code == 200
    assert undo.get_json() == {"undone_deal": 1}
    deal = api.get(deal_url(game_id, 1)).get_json()
    assert (deal["teams"][0]["melded"], deal["teams"][0]["red_threes"]) == (300, 0)
    assert deal["teams"][1]["left"] == 40
    assert deal["version"] == 3
    assert deal["corrected"] is False
    log = api.get(f"/api/games/{game_id}/corrections").get_json()["corrections"]
    assert len(log) == 3
    assert all(c["undone"] is True for c in log)

    # Nothing left to undo; an empty body is fine too.
    nothing = api.post(
        f"/api/games/{game_id}/corrections/undo", data="", content_type="application/json"
    )
    assert nothing.get_json() == {"undone_deal": None}


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"field": "clean_books", "old_value": '"abc"'}, "clean_books must be a whole number."),
        ({"field": "went_out", "old_value": '"yes"'}, "went_out must be true or false."),
        ({"field": "clean_books", "old_value": "59"}, "natural cards"),
        ({"team_position": 7}, "names a team this game does not have"),
    ],
    ids=["not-a-number", "not-yes-or-no", "impossible-deal", "no-such-team"],
)
def test_undo_of_a_log_that_no_deal_can_hold_is_refused_and_changes_nothing(
    api: Api,
    app: Flask,
    new_game: Callable[..., int],
    row_counts: Callable[[], dict[str, int]],
    values: dict[str, Any],
    words: str,
) -> None:
    game_id = new_game()
    play(api, game_id, [FIRST_DEAL])
    api.put(deal_url(game_id, 1), {"version": 1, "teams": corrected(FIRST_DEAL, melded=310)})
    # As an imported file or a hand-made change may have left the log.
    with app.app_context():
        db.session.execute(
            db.update(Correction).where(Correction.game_id == game_id).values(**values)
        )
        db.session.commit()
    deal = api.get(deal_url(game_id, 1)).get_json()
    log = api.get(f"/api/games/{game_id}/corrections").get_json()
    counts = row_counts()

    undo = api.post(f"/api/games/{game_id}/corrections/undo", {})

    assert undo.status_code == 409
    errors = undo.get_json()["errors"]
    assert errors[0] == {
        "team": None,
        "field": "corrections",
        "message": f"The last correction of deal 1 of game {game_id} cannot be undone: what it "
        "would put back is not possible. Nothing was changed; correct the deal instead.",
    }
    assert any(words in e["message"] for e in errors[1:]), errors
    assert api.get(deal_url(game_id, 1)).get_json() == deal
    assert api.get(f"/api/games/{game_id}/corrections").get_json() == log
    assert row_counts() == counts


def test_undo_needs_application_json(api: Api, new_game: Callable[..., int]) -> None:
    game_id = new_game()
    play(api, game_id, [FIRST_DEAL])
    api.put(deal_url(game_id, 1), {"version": 1, "teams": corrected(FIRST_DEAL, melded=310)})
    url = f"/api/games/{game_id}/corrections/undo"
    assert api.post(url).status_code == 415
    assert (
        api.post(url, data="x=1", content_type="application/x-www-form-urlencoded").status_code
        == 415
    )
    assert api.post(url, {"everything": True}).status_code == 400
    assert api.post(url, []).status_code == 400
    # Still not undone:
    assert api.get(deal_url(game_id, 1)).get_json()["teams"][0]["melded"] == 310


# ---------------------------------------------------------------------------
# The list of games


def test_games_are_listed_newest_first_twenty_a_page(api: Api) -> None:
    first = date(2026, 1, 1)
    ids = []
    for day in range(25):
        body = standard_game_body(played_on=(first + timedelta(days=day)).isoformat())
        ids.append(api.post("/api/games", body).get_json()["id"])

    page1 = api.get("/api/games").get_json()
    assert (page1["page"], page1["pages"], page1["total"]) == (1, 2, 25)
    assert [g["id"] for g in page1["games"]] == ids[::-1][:20]
    dates = [g["played_on"] for g in page1["games"]]
    assert dates == sorted(dates, reverse=True)

    page2 = api.get("/api/games?page=2").get_json()
    assert page2["page"] == 2
    assert [g["id"] for g in page2["games"]] == ids[::-1][20:]
    assert api.get("/api/games?page=1").get_json() == page1

    beyond = api.get("/api/games?page=3").get_json()
    assert (beyond["games"], beyond["pages"], beyond["total"]) == ([], 2, 25)


def test_games_on_the_same_day_list_the_latest_started_first(api: Api) -> None:
    ids = [
        api.post("/api/games", standard_game_body(played_on="2026-03-01")).get_json()["id"]
        for _ in range(3)
    ]
    assert [g["id"] for g in api.get("/api/games").get_json()["games"]] == ids[::-1]


def test_no_games_is_one_empty_page(api: Api) -> None:
    assert api.get("/api/games").get_json() == {"games": [], "page": 1, "pages": 1, "total": 0}


@pytest.mark.parametrize(
    "query",
    [
        "page=0",
        "page=-1",
        "page=abc",
        "page=1.5",
        "page=",
        "page=1&page=2",
        "page=%D9%A1",
        "page=" + "9" * 30,
    ],
)
def test_a_bad_page_is_400(api: Api, query: str) -> None:
    response = api.get(f"/api/games?{query}")
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["field"] == "page"


# ---------------------------------------------------------------------------
# House rules


def test_a_game_keeps_the_house_rules_it_was_started_with(api: Api, app: Flask) -> None:
    with app.app_context():
        house = rulesets.create_house_rules("Our table", "standard", {"clean_book_bonus": 700})
        slug = house.slug
    listed = {r["id"]: r for r in api.get("/api/rulesets").get_json()["rulesets"]}
    assert listed[slug]["house"] is True
    assert listed[slug]["clean_book_bonus"] == 700

    game_id = api.post("/api/games", standard_game_body(ruleset=slug)).get_json()["id"]
    play(api, game_id, [FIRST_DEAL])
    before = api.get(f"/api/games/{game_id}").get_json()
    assert before["ruleset_id"] == slug
    assert before["deals"][0]["teams"][0]["score"] == 300 + 700

    with app.app_context():
        rulesets.update_house_rules(slug, "Our table", {"clean_book_bonus": 100})
    listed = {r["id"]: r for r in api.get("/api/rulesets").get_json()["rulesets"]}
    assert listed[slug]["clean_book_bonus"] == 100

    after = api.get(f"/api/games/{game_id}").get_json()
    assert after == before
    assert after["ruleset"]["clean_book_bonus"] == 700
    # The next deal is scored by the game's copy too.
    second = api.post(deal_url(game_id), {"teams": [{"clean_books": 1, "melded": 300}, {}]})
    assert second.get_json()["teams"][0]["score"] == 300 + 700


def test_a_game_can_be_started_with_house_rules_by_number(api: Api, app: Flask) -> None:
    with app.app_context():
        house = rulesets.create_house_rules("Our table", "standard", {})
        number, slug = house.id, house.slug
    game = api.post("/api/games", standard_game_body(ruleset=number)).get_json()
    assert game["ruleset_id"] == slug


def test_players_list_everyone_by_name(api: Api) -> None:
    api.post("/api/games", standard_game_body())
    body = api.get("/api/players").get_json()
    assert [p["name"] for p in body["players"]] == ["Ann", "Ben", "Cy", "Di"]
    assert all(isinstance(p["id"], int) for p in body["players"])
