"""The in-process cache of standings: kept while nothing counted changes, dropped when it does."""

from __future__ import annotations

from typing import Any

from flask import Flask
from sql_support import watch_sql
from standings_support import G1_DEALS, OUT_STD, STAY_A, Season, play

from scorekeeper.extensions import db
from scorekeeper.models import Deal
from scorekeeper.services import games, players, standings


def points(name: str, season_id: int | None = None) -> int:
    return next(line.points for line in standings.standings(season_id).players if line.name == name)


def queries_of(fn: Any) -> int:
    with watch_sql(db.engine) as seen:
        fn()
    return len(seen)


def test_a_correction_to_a_finished_game_is_seen(app: Flask, season: Season) -> None:
    with app.app_context():
        assert points("Ann", season.season_id) == 18330
        deal = db.session.scalar(db.select(Deal).filter_by(game_id=season.g1, number=2))
        assert deal is not None
        # Deal 2 of G1: Ann & Ben now went out (3600) instead of STAY_B (220).
        games.correct_deal(season.g1, 2, deal.version, [OUT_STD, STAY_A])
        assert points("Ann", season.season_id) == 18330 - 220 + 3600


def test_deleting_and_restoring_a_game_is_seen(app: Flask, season: Season) -> None:
    with app.app_context():
        assert standings.standings(season.season_id).games == 3
        games.delete_game(season.g3)
        assert standings.standings(season.season_id).games == 2
        games.restore_game(season.g3)
        assert standings.standings(season.season_id).games == 3


def test_merging_players_is_seen(app: Flask, season: Season) -> None:
    with app.app_context():
        play("standard", [["Evie", "Finn"], ["Gus", "Hal"]], G1_DEALS)
        lines = {line.name: line for line in standings.standings(None).players}
        assert lines["Eve"].games == 1
        # Evie was really Eve: one person with two entries.
        players.merge_players(lines["Eve"].players[0], lines["Evie"].players[0])
        merged = {line.name: line for line in standings.standings(None).players}
    assert "Evie" not in merged
    assert merged["Eve"].games == 2
    assert merged["Eve"].points == 11020 + 8070


def test_a_finished_game_is_seen(app: Flask, season: Season) -> None:
    with app.app_context():
        before = standings.standings(None).games
        play("standard", [["Ann", "Ben"], ["Cleo", "Dan"]], G1_DEALS)
        assert standings.standings(None).games == before + 1


def test_deals_of_a_game_in_progress_keep_the_cache(app: Flask, season: Season) -> None:
    with app.app_context():
        cold = queries_of(lambda: standings.standings(None))
        warm = queries_of(lambda: standings.standings(None))
        game_id = play("standard", [["Ann", "Ben"], ["Cleo", "Dan"]], G1_DEALS[:2])
        assert queries_of(lambda: standings.standings(None)) == warm < cold
        # Its last deal finishes the game: now the standings are computed again, after
        # reading which game changed since and who played it (two queries more than with
        # nothing cached).
        games.record_deal(game_id, list(G1_DEALS[2]))
        games.record_deal(game_id, list(G1_DEALS[3]))
        assert queries_of(lambda: standings.standings(None)) == cold + 2


def test_names_are_never_stale(app: Flask, season: Season) -> None:
    with app.app_context():
        ann = next(line for line in standings.standings(None).players if line.name == "Ann")
        players.rename_player(ann.players[0], "Anna")
        names = {line.name for line in standings.standings(None).players}
    assert "Anna" in names and "Ann" not in names
