"""Ratings: openskill over the games in order, with a history per player."""

from __future__ import annotations

from datetime import date
from unittest import mock

from flask import Flask
from standings_support import G1_DEALS, Season, play

from scorekeeper.services import ratings, standings
from scorekeeper.services.ratings import GameResult, rate_games


def test_the_winners_rating_rises_and_the_losers_falls() -> None:
    game = GameResult(1, date(2025, 1, 1), (((1, 2), 8070), ((3, 4), 5720)))
    rated = rate_games([game])
    start = ratings.MODEL.rating()
    for winner in (1, 2):
        point = rated.current(winner)
        assert point is not None
        assert point.mu > start.mu
        assert point.display > ratings.DISPLAY_BASE
    for loser in (3, 4):
        point = rated.current(loser)
        assert point is not None
        assert point.mu < start.mu
    assert rated.display(1) > rated.display(3)  # type: ignore[operator]


def test_a_tie_moves_equal_teams_equally() -> None:
    game = GameResult(1, date(2025, 1, 1), (((1, 2), 5000), ((3, 4), 5000)))
    rated = rate_games([game])
    assert rated.display(1) == rated.display(3)
    assert ratings.ranks([5000, 5000, 4000]) == [1, 1, 3]


def test_a_newcomer_shows_the_base_rating() -> None:
    start = ratings.MODEL.rating()
    assert ratings.display(start.mu, start.sigma) == ratings.DISPLAY_BASE


def test_history_has_one_point_per_game_played(app: Flask, season: Season) -> None:
    with app.app_context():
        table = standings.standings(season.season_id)
        names = {line.name: line.players[0] for line in table.players}
        history = {name: table.ratings.points(pid) for name, pid in names.items()}
    assert {name: len(points) for name, points in history.items()} == {
        "Ann": 3,
        "Ben": 3,
        "Cleo": 3,
        "Dan": 2,
        "Eve": 1,
    }
    # In game order: G1, G2, G3 of the season.
    assert [p.game_id for p in history["Ann"]] == [season.g1, season.g2, season.g3]
    # The line's rating is the last point of its history.
    ann = next(line for line in table.players if line.name == "Ann")
    assert ann.rating == history["Ann"][-1].display


def test_games_are_rated_in_the_order_played(app: Flask, season: Season) -> None:
    with app.app_context():
        all_time = standings.standings(None).ratings
    # G7 was played before the season started, so it comes first although entered last.
    assert [g.game_id for g in all_time.games] == [season.g7, season.g1, season.g2, season.g3]


def test_resuming_from_a_previous_pass_gives_the_same_ratings() -> None:
    games = [
        GameResult(i, date(2025, 1, i), (((1, 2), 5000 + 100 * (i % 3)), ((3, 4), 5100)))
        for i in range(1, 9)
    ]
    whole = rate_games(games)
    # The same games, computed in two steps, and with a changed game in the middle.
    assert rate_games(games, rate_games(games[:5])).history == whole.history
    changed = [
        *games[:3],
        GameResult(4, date(2025, 1, 4), (((1, 2), 9000), ((3, 4), 10))),
        *games[4:],
    ]
    assert rate_games(changed, whole).history == rate_games(changed).history
    assert rate_games(changed).history != whole.history


def test_a_total_that_keeps_the_ranks_is_not_rated_again() -> None:
    games = [
        GameResult(i, date(2025, 1, i), (((1, 2), 5000 + 100 * (i % 3)), ((3, 4), 5100)))
        for i in range(1, 9)
    ]
    whole = rate_games(games)
    # Game 2 still won by players 1 and 2 (5200 : 5100), now by more.
    wider = [games[0], GameResult(2, date(2025, 1, 2), (((1, 2), 9000), ((3, 4), 10))), *games[2:]]
    with mock.patch.object(ratings, "MODEL", mock.Mock(wraps=ratings.MODEL)) as model:
        resumed = rate_games(wider, whole)
    assert model.rate.call_count == 0
    assert resumed.history == rate_games(wider).history == whole.history
    assert resumed.games == wider
    # The same players in other teams rate differently, whatever the totals: game 2 on again.
    swapped = [games[0], GameResult(2, date(2025, 1, 2), (((1, 3), 5200), ((2, 4), 5100)))]
    with mock.patch.object(ratings, "MODEL", mock.Mock(wraps=ratings.MODEL)) as model:
        resumed = rate_games([*swapped, *games[2:]], whole)
    assert model.rate.call_count == 7
    assert resumed.history == rate_games([*swapped, *games[2:]]).history


def test_a_newly_finished_game_updates_the_cached_ratings(app: Flask, season: Season) -> None:
    with app.app_context():
        before = standings.standings(season.season_id)
        eve_before = before.ratings.points(
            next(line.players[0] for line in before.players if line.name == "Eve")
        )
        play(
            "standard",
            [["Eve", "Ann"], ["Ben", "Dan"]],
            G1_DEALS,
            season_id=season.season_id,
            played_on=date(2025, 2, 1),
        )
        after = standings.standings(season.season_id)
        eve = next(line for line in after.players if line.name == "Eve")
    assert len(after.ratings.points(eve.players[0])) == len(eve_before) + 1
    assert eve.games == 2
    assert after.games == before.games + 1
