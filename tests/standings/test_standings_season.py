"""Standings of the hand-computed season (see standings_support): every figure, exactly."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from flask import Flask
from standings_support import Season

from scorekeeper.services import standings
from scorekeeper.services.standings import Line

# name: (games, wins, points, deals, margin, clean, dirty, wild, red threes, went out,
#        stock-outs, best, worst, {ruleset: (games, points)})
PLAYERS: dict[str, tuple[Any, ...]] = {
    "Ann": (3, Fraction(3, 2), 18330, 12, -3680, 13, 12, 3, 4, 4, 3, 8070, 4990,
            {"standard": (2, 13060), "no-wild-books": (1, 5270)}),
    "Ben": (3, Fraction(3, 2), 18330, 12, -3680, 13, 12, 3, 3, 4, 3, 8070, 4990,
            {"standard": (2, 13060), "no-wild-books": (1, 5270)}),
    "Cleo": (3, Fraction(3, 2), 22010, 12, 3680, 15, 15, 4, 3, 5, 3, 11020, 5270,
             {"standard": (2, 16740), "no-wild-books": (1, 5270)}),
    "Dan": (2, Fraction(1, 2), 10990, 8, -2350, 9, 9, 1, 1, 2, 3, 5720, 5270,
            {"standard": (1, 5720), "no-wild-books": (1, 5270)}),
    "Eve": (1, Fraction(1), 11020, 4, 6030, 6, 6, 3, 1, 3, 0, 11020, 11020,
            {"standard": (1, 11020)}),
}  # fmt: skip

PARTNERSHIPS: dict[tuple[str, ...], tuple[Any, ...]] = {
    ("Ann", "Ben"): (2, Fraction(1), 13060, 8, -3680, 8, 7, 3, 3, 3, 1, 8070, 4990,
                     {"standard": (2, 13060)}),
    ("Cleo", "Dan"): (1, Fraction(0), 5720, 4, -2350, 4, 4, 1, 1, 1, 1, 5720, 5720,
                      {"standard": (1, 5720)}),
    ("Ann", "Cleo"): (1, Fraction(1, 2), 5270, 4, 0, 5, 5, 0, 1, 1, 2, 5270, 5270,
                      {"no-wild-books": (1, 5270)}),
    ("Ben", "Dan"): (1, Fraction(1, 2), 5270, 4, 0, 5, 5, 0, 0, 1, 2, 5270, 5270,
                     {"no-wild-books": (1, 5270)}),
    ("Cleo", "Eve"): (1, Fraction(1), 11020, 4, 6030, 6, 6, 3, 1, 3, 0, 11020, 11020,
                      {"standard": (1, 11020)}),
}  # fmt: skip


def figures(line: Line) -> tuple[Any, ...]:
    return (
        line.games,
        line.wins,
        line.points,
        line.deals,
        line.margin,
        line.clean_books,
        line.dirty_books,
        line.wild_books,
        line.red_threes,
        line.went_out,
        line.stock_outs,
        line.best,
        line.worst,
        {r.ruleset_id: (r.games, r.points) for r in line.rules.values()},
    )


def test_players_match_the_hand_computed_season(app: Flask, season: Season) -> None:
    with app.app_context():
        table = standings.standings(season.season_id)
    assert {line.name: figures(line) for line in table.players} == PLAYERS
    assert table.games == 3


def test_partnerships_match_the_hand_computed_season(app: Flask, season: Season) -> None:
    with app.app_context():
        table = standings.standings(season.season_id)
    assert {line.names: figures(line) for line in table.partnerships} == PARTNERSHIPS


def test_averages_and_rates_are_derived_from_the_sums(app: Flask, season: Season) -> None:
    with app.app_context():
        ann = next(
            line for line in standings.standings(season.season_id).players if line.name == "Ann"
        )
    assert ann.win_pct == 50.0
    assert ann.average_per_game == 6110.0
    assert ann.average_per_deal == 1527.5
    assert ann.average_margin == pytest.approx(-3680 / 3)
    assert ann.books_per_game == pytest.approx(
        {"clean": 13 / 3, "dirty": 4.0, "wild": 1.0, "black_three": 0.0, "special": 0.0}
    )
    assert ann.going_out_rate == pytest.approx(4 / 12)
    assert ann.red_threes_per_game == pytest.approx(4 / 3)
    assert ann.ruleset_ids == ["standard", "no-wild-books"]
    assert ann.rules["standard"].average_per_game == 6530.0


def test_a_tie_at_the_top_shares_the_win(app: Flask, season: Season) -> None:
    with app.app_context():
        table = standings.standings(season.season_id)
    by_names = {line.names: line for line in table.partnerships}
    # G2 ended 5270 : 5270, the only game of both partnerships.
    assert by_names[("Ann", "Cleo")].wins == by_names[("Ben", "Dan")].wins == Fraction(1, 2)
    assert by_names[("Ann", "Cleo")].win_pct == 50.0
    assert by_names[("Ann", "Cleo")].margin == 0


def test_all_time_adds_games_outside_the_season(app: Flask, season: Season) -> None:
    with app.app_context():
        table = standings.standings(None)
    by_name = {line.name: line for line in table.players}
    # G7 repeats G1 outside the season: Ann & Ben win 8070 : 5720 once more.
    assert (by_name["Ann"].games, by_name["Ann"].wins, by_name["Ann"].points) == (
        4,
        Fraction(5, 2),
        18330 + 8070,
    )
    assert (by_name["Dan"].games, by_name["Dan"].wins) == (3, Fraction(1, 2))
    assert table.games == 4
    pairs = {line.names: line for line in table.partnerships}
    assert pairs[("Cleo", "Dan")].games == 2
    assert pairs[("Ann", "Ben")].wins == 2


def test_abandoned_deleted_and_unfinished_games_do_not_count(app: Flask, season: Season) -> None:
    with app.app_context():
        counted = {game.game_id for game in standings.standings(None).ratings.games}
    assert counted == {season.g1, season.g2, season.g3, season.g7}


def test_best_first_is_by_wins_then_rating(app: Flask, season: Season) -> None:
    with app.app_context():
        lines = standings.standings(season.season_id).players
    names = [line.name for line in lines]
    # Ann, Ben and Cleo have 1.5 wins each, Eve 1, Dan 0.5.
    assert set(names[:3]) == {"Ann", "Ben", "Cleo"}
    assert names[3:] == ["Eve", "Dan"]
    top = lines[:3]
    assert [line.rating for line in top] == sorted((line.rating for line in top), reverse=True)


@pytest.mark.parametrize(
    ("sort", "first"),
    [
        ("points", "Cleo"),
        ("avg", "Eve"),
        ("margin", "Eve"),
        ("win_pct", "Eve"),
        ("stock_outs", None),
        ("name", "Ann"),
        ("games", None),
    ],
)
def test_sorting(app: Flask, season: Season, sort: str, first: str | None) -> None:
    with app.app_context():
        lines = standings.standings(season.season_id, sort).players
    key = standings.SORTS[sort]
    values = [key(line) for line in lines]
    assert values == sorted(values, reverse=sort != "name")
    if first:
        assert lines[0].name == first


def test_a_trio_is_one_partnership(ctx: Flask) -> None:
    from standings_support import OUT_STD, STAY_A, play

    trio_deals = [(OUT_STD, STAY_A)] * 4
    play("standard", [["Ann", "Ben", "Cleo"], ["Dan", "Eve", "Finn"]], trio_deals)
    play("standard", [["Cleo", "Ann", "Ben"], ["Dan", "Eve", "Finn"]], trio_deals)
    table = standings.standings(None)
    pairs = {line.names: line for line in table.partnerships}
    assert set(pairs) == {("Ann", "Ben", "Cleo"), ("Dan", "Eve", "Finn")}
    assert pairs[("Ann", "Ben", "Cleo")].games == 2
    assert pairs[("Ann", "Ben", "Cleo")].wins == 2


@pytest.mark.parametrize(
    "ids", [(3, 8), (1, 2, 3), (2, 9, 40), (1, 2, 3, 4), (5, 17, 18, 90), (1, 50, 51, 99)]
)
def test_partnership_keys_give_back_their_players(ids: tuple[int, ...]) -> None:
    key = (len(ids), min(ids), max(ids), sum(ids), sum(i * i for i in ids))
    assert standings.partnership_ids(*key) == ids


def test_an_unknown_season_is_not_found(ctx: Flask) -> None:
    with pytest.raises(standings.NotFound):
        standings.standings(404)
