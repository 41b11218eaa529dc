"""Starting a game: who may sit down how, and nothing stored when the table is impossible."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from functools import partial
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select
from svc_support import alone, pairs, refused, snapshot

from scorekeeper.extensions import db
from scorekeeper.messages import say
from scorekeeper.models import Game, Player
from scorekeeper.rules import PRESETS
from scorekeeper.services import games, players, rulesets
from scorekeeper.services.errors import Invalid, Malformed, NotFound, ServiceError
from scorekeeper.services.games import TeamSpec


def _seating(game: Game) -> list[list[str]]:
    return [[member.player.name for member in team.members] for team in game.teams]


def test_four_players_sit_as_two_partnerships(ctx: Flask) -> None:
    game = games.start_game("standard", pairs("Ann", "Ben", "Cy", "Di"), played_on=date(2026, 3, 1))

    stored = games.load_game(game.id)
    assert _seating(stored) == [["Ann", "Ben"], ["Cy", "Di"]]
    assert [team.name for team in stored.teams] == ["Ann & Ben", "Cy & Di"]
    assert stored.ruleset == PRESETS["standard"].to_dict()
    assert stored.ruleset_id == "standard"
    assert stored.decks == 5  # players + 1
    assert stored.played_on == date(2026, 3, 1)
    assert stored.finished_at is None
    view = games.view_game(stored)
    assert view.seats == ["Ann", "Cy", "Ben", "Di"]  # partners sit apart
    assert view.next_deal == 1
    assert view.dealer(1) == "Ann"


@pytest.mark.parametrize(
    "teams",
    [
        pairs("A", "B", "C", "D", "E", "F"),
        [TeamSpec("", ["A", "B", "C"]), TeamSpec("", ["D", "E", "F"])],
    ],
    ids=["3x2", "2x3"],
)
def test_six_players_sit_as_three_pairs_or_two_triples(ctx: Flask, teams: list[TeamSpec]) -> None:
    game = games.start_game("standard", teams)

    assert _seating(games.load_game(game.id)) == [list(team.players) for team in teams]
    assert game.decks == 7


def test_five_players_of_partnership_rules_play_alone(ctx: Flask) -> None:
    game = games.start_game("standard", alone("A", "B", "C", "D", "E"))

    assert [len(team.members) for team in games.load_game(game.id).teams] == [1] * 5


def test_five_players_cannot_play_the_partner_version_of_brouillette(ctx: Flask) -> None:
    # 003: "spillere arbejder parvis": played in pairs, nobody alone.
    for teams in (alone("A", "B", "C", "D", "E"), [*pairs("A", "B", "C", "D"), *alone("E")]):
        error = refused(Invalid, partial(games.start_game, "brouillette-partners", teams))
        assert [(p.field, say(p)) for p in error.problems] == [
            (
                "teams",
                "5 players cannot be split into teams for these rules, and these rules do not "
                "let anyone play alone.",
            )
        ]


def test_individual_rules_seat_four_players_alone(ctx: Flask) -> None:
    game = games.start_game("simpson", alone("A", "B", "C", "D"), first_dealer_seat=3)

    view = games.view_game(games.load_game(game.id))
    assert view.team_names == ["A", "B", "C", "D"]
    assert view.dealer(1) == "D"
    assert view.dealer(2) == "A"


def test_four_players_of_eleven_card_may_each_play_alone(ctx: Flask) -> None:
    # 002: "la personne ou l'équipe": teams or individuals; five to six decks either way.
    alone_game = games.start_game("eleven-card", alone("A", "B", "C", "D"))
    paired = games.start_game("eleven-card", pairs("A", "B", "C", "D"))

    assert [len(team.members) for team in games.load_game(alone_game.id).teams] == [1] * 4
    assert [len(team.members) for team in games.load_game(paired.id).teams] == [2, 2]
    assert alone_game.decks == paired.decks == 5


@pytest.mark.parametrize(
    ("ruleset", "teams", "field"),
    [
        ("standard", alone("A", "B", "C", "D"), "teams"),  # four players play in pairs
        ("standard", [TeamSpec("", ["A", "B"]), TeamSpec("", ["C", "D", "E"])], "teams"),
        ("standard", alone(*"ABCDEF"), "teams"),  # six: 3 x 2 or 2 x 3, never alone
        ("simpson", pairs("A", "B", "C", "D"), "teams"),  # every player alone
        ("brouillette-partners", [TeamSpec("", ["A", "B"]), TeamSpec("", ["C"])], "teams"),
        ("standard", [*pairs("A", "B", "C", "D"), *pairs("E", "F", "G", "H")], "teams"),
        ("standard", [TeamSpec("", ["A", "B"]), TeamSpec("", ["C", "a"])], "teams[1].players"),
        ("standard", [TeamSpec("", ["A", "B"]), TeamSpec("", ["B ", "C"])], "teams[1].players"),
        ("standard", [TeamSpec("", ["A", "B"]), TeamSpec("", [" ", ""])], "teams[1].players"),
        ("standard", [TeamSpec("", ["A", "B"]), TeamSpec("", ["C", "x" * 81])], "teams[1].players"),
        ("standard", [TeamSpec("Us", ["A", "B"]), TeamSpec("us", ["C", "D"])], "teams"),
        ("standard", [TeamSpec("x" * 81, ["A", "B"]), TeamSpec("", ["C", "D"])], "teams[0].name"),
    ],
    ids=[
        "standard-4-alone",
        "uneven-teams",
        "standard-6-alone",
        "simpson-pairs",
        "too-few-players",
        "too-many-players",
        "same-player-twice",
        "same-player-twice-with-space",
        "empty-team",
        "name-too-long",
        "same-team-name",
        "team-name-too-long",
    ],
)
def test_impossible_tables_are_refused(
    ctx: Flask, ruleset: str, teams: list[TeamSpec], field: str
) -> None:
    error = refused(Invalid, lambda: games.start_game(ruleset, teams), status=422)

    assert field in [problem.field for problem in error.problems]


@pytest.mark.parametrize("count", [0, 1, 9])
def test_a_game_needs_two_to_eight_teams(ctx: Flask, count: int) -> None:
    teams = alone(*(f"P{i}" for i in range(count)))

    error = refused(Invalid, lambda: games.start_game("standard", teams))

    assert [problem.field for problem in error.problems] == ["teams"]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"season_id": 99}, "season"),
        ({"first_dealer_seat": 4}, "first_dealer_seat"),
        ({"first_dealer_seat": -1}, "first_dealer_seat"),
    ],
)
def test_unknown_season_or_dealer_is_refused(
    ctx: Flask, kwargs: dict[str, Any], field: str
) -> None:
    error = refused(
        Invalid, lambda: games.start_game("standard", pairs("A", "B", "C", "D"), **kwargs)
    )

    assert [problem.field for problem in error.problems] == [field]


@pytest.mark.parametrize(
    ("ruleset", "error"),
    [("no-such-rules", NotFound), (42, NotFound), (True, Malformed), ({"id": "x"}, Invalid)],
)
def test_unknown_rules_are_refused(ctx: Flask, ruleset: Any, error: type[ServiceError]) -> None:
    refused(error, lambda: games.start_game(ruleset, pairs("A", "B", "C", "D")))


def test_every_problem_is_reported_at_once(ctx: Flask) -> None:
    teams = [TeamSpec("Same", ["A", "B"]), TeamSpec("same", ["A", "C"])]

    error = refused(Invalid, lambda: games.start_game("standard", teams, first_dealer_seat=9))

    fields = {problem.field for problem in error.problems}
    assert fields == {"teams[1].players", "teams", "first_dealer_seat"}


def test_players_seen_before_are_the_same_people(ctx: Flask) -> None:
    first = games.start_game("standard", pairs("Ann", "Ben", "Cy", "Di"))
    second = games.start_game("standard", pairs("ann", "Cy", "Eve", " BEN "))

    assert db.session.scalar(select(func.count()).select_from(Player)) == 5
    ann = games.load_game(first.id).teams[0].members[0].player
    assert games.load_game(second.id).teams[0].members[0].player.id == ann.id
    # The name stays as first written; the new game's team name uses what was typed.
    assert ann.name == "Ann"
    assert games.load_game(second.id).teams[1].name == "Eve & BEN"


def test_players_with_accented_names_are_found_again(ctx: Flask) -> None:
    # The club plays in Danish, German and French too: "Émile" must be one person.
    games.start_game("standard", pairs("Émile", "Åse", "Cy", "Di"))
    second = games.start_game("standard", pairs("Émile", "Åse", "Cy", "Di"))

    assert db.session.scalar(select(func.count()).select_from(Player)) == 4
    assert [m.player.name for m in games.load_game(second.id).teams[0].members] == ["Émile", "Åse"]


def test_a_game_can_be_started_under_house_rules_by_id_or_slug(ctx: Flask) -> None:
    house = rulesets.create_house_rules("Our table", "standard", {"going_out_bonus": 250})

    by_id = games.start_game(house.id, pairs("A", "B", "C", "D"))
    by_slug = games.start_game(house.slug, pairs("A", "B", "C", "D"))

    for game in (by_id, by_slug):
        assert game.ruleset_id == "our-table"
        assert game.rules().going_out_bonus == 250


def test_a_game_can_be_started_under_a_whole_ruleset_object(ctx: Flask) -> None:
    data = PRESETS["standard"].to_dict() | {"id": "custom", "extra_decks": 2}

    game = games.start_game(data, pairs("A", "B", "C", "D"))

    assert game.ruleset_id == "custom"
    assert game.decks == 6


def test_a_game_can_belong_to_a_season(ctx: Flask) -> None:
    season = players.create_season("Spring")

    game = games.start_game("standard", pairs("A", "B", "C", "D"), season_id=season.id)

    assert games.load_game(game.id).season_id == season.id


def test_starting_twice_adds_rows_only_for_new_people(ctx: Flask) -> None:
    games.start_game("standard", pairs("A", "B", "C", "D"))
    before = snapshot()

    games.start_game("standard", pairs("A", "B", "C", "D"))

    after = snapshot()
    assert len(after["player"]) == len(before["player"]) == 4
    assert len(after["game"]) == 2
    assert len(after["team_member"]) == 8


def test_teams_of_nobody_are_told_they_need_players_not_that_their_names_clash(
    ctx: Flask,
) -> None:
    empty = [TeamSpec("", ["", " "]), TeamSpec("", ["", ""])]
    error = refused(Invalid, lambda: games.start_game("standard", empty), status=422)
    assert [(p.field, say(p)) for p in error.problems] == [
        ("teams[0].players", "Every team needs at least one player."),
        ("teams[1].players", "Every team needs at least one player."),
    ]
    # Two teams of players that are named alike still clash.
    twins = [TeamSpec("Foxes", ["Ann", "Ben"]), TeamSpec("foxes", ["Cy", "Di"])]
    error = refused(Invalid, lambda: games.start_game("standard", twins), status=422)
    assert [(p.field, say(p)) for p in error.problems] == [
        ("teams", "Two teams cannot have the same name.")
    ]


def test_rules_past_twenty_decks_start_no_game_but_old_games_still_read(ctx: Flask) -> None:
    # Rules stored before house rules were held to 20 decks: 14 besides one per player.
    wide = replace(PRESETS["standard"], id="wide", name="Wide", extra_decks=14).to_dict()
    four = games.start_game(wide, pairs("Ann", "Ben", "Cy", "Di"))
    assert games.load_game(four.id).decks == 18  # a game of 18 decks still reads
    seven = alone("A", "B", "C", "D", "E", "F", "G")
    error = refused(Invalid, lambda: games.start_game(wide, seven), status=422)
    assert [(p.field, say(p)) for p in error.problems] == [
        (
            "teams",
            "With 7 players these rules would play with 21 decks, but a game has 20 at the most.",
        )
    ]
