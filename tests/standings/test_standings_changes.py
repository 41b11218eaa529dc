"""Standings computed again from the games that changed: the same figures as from scratch.

Every step of the standings stamp logs the game it changed (``StandingsChange``); a cache
computed a few steps ago aggregates again only the lines of those games' players and
partnerships, and reads again only those games for the ratings, which it rates again only from
the first whose ranks changed. These tests hold that to a computation from nothing after every
kind of change, and check that the log says what changed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import date, timedelta
from typing import Any
from unittest import mock

import pytest
from flask import Flask
from sqlalchemy import select, update
from standings_support import (
    G1_DEALS,
    G2_DEALS,
    G3_DEALS,
    OUT_NWB,
    OUT_STD,
    STAY_A,
    STAY_B,
    STAY_S,
    Season,
    play,
)

from scorekeeper.extensions import db
from scorekeeper.models import Deal, Game, Player, StandingsChange, StandingsStamp
from scorekeeper.services import games, players, ratings, standings, summaries
from scorekeeper.services.errors import ServiceError

NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hal"]


def player(name: str) -> int:
    found = db.session.scalar(select(Player.id).where(Player.name == name))
    assert found is not None
    return found


def version() -> int:
    return summaries.stamp()


def figures(season_id: int | None) -> tuple[Any, ...]:
    """Everything standings show that a wrong resume could get wrong, names aside: every
    figure of every line (its rules' shares too), the rated games and the ratings' history."""
    table = standings.standings(season_id)
    lines = sorted(
        ((line.players, replace(line, names=())) for line in [*table.players, *table.partnerships]),
        key=lambda pair: pair[0],
    )
    return table.ratings.games, table.ratings.history, lines


def from_scratch(season_id: int | None) -> tuple[Any, ...]:
    standings.clear_cache()
    return figures(season_id)


def correct(game_id: int, number: int, tallies: list[Any]) -> None:
    """Correct deal ``number`` of the game, as a table would (at its current version)."""
    deal = db.session.scalar(select(Deal).filter_by(game_id=game_id, number=number))
    assert deal is not None
    games.correct_deal(game_id, number, deal.version, tallies)


def rates_counted() -> Any:
    """openskill's model, watched: how many games :func:`rate_games` rates meanwhile."""
    return mock.patch.object(ratings, "MODEL", mock.Mock(wraps=ratings.MODEL))


class ReadSince:
    """Which games each computation of the ratings read (None: all), and how many it got."""

    def __init__(self) -> None:
        self.calls: list[tuple[list[int] | None, int]] = []
        self._real = standings._rating_games

    def __call__(self, season_id: int | None, only: list[int] | None = None) -> Any:
        read = self._real(season_id, only)
        self.calls.append((None if only is None else list(only), len(read)))
        return read


def test_each_step_logs_the_game_it_changed(app: Flask, season: Season) -> None:
    with app.app_context():
        start = version()
        deal = db.session.scalar(select(Deal).filter_by(game_id=season.g1, number=2))
        assert deal is not None
        games.correct_deal(season.g1, 2, deal.version, [OUT_STD, STAY_A])
        games.delete_game(season.g3)
        g8 = play("standard", [["Ann", "Ben"], ["Cleo", "Finn"]], G1_DEALS,
                  played_on=date(2025, 2, 1))  # fmt: skip
        # A game in progress changes nothing standings count: no step.
        games.delete_game(season.g6)
        assert version() == start + 3
        assert summaries.changed_games(start, version()) == {
            season.g1: date(2025, 1, 3),
            season.g3: date(2025, 1, 17),
            g8: date(2025, 2, 1),
        }
        assert summaries.changed_games(start + 2, version()) == {g8: date(2025, 2, 1)}
        assert summaries.changed_games(version(), version()) == {}
        # Merging players may change any game: the steps since then cannot be told apart.
        players.merge_players(player("Eve"), player("Finn"))
        assert summaries.changed_games(start, version()) is None
        assert summaries.changed_games(start + 3, version()) is None
        assert summaries.changed_games(start + 4, version()) == {}


def test_steps_the_log_does_not_hold_cannot_be_told(app: Flask, season: Season) -> None:
    with app.app_context():
        now = version()
        # A stamp stepped without its log (as a bulk fill or a database before the log does).
        db.session.execute(update(StandingsStamp).values(version=StandingsStamp.version + 1))
        db.session.commit()
        assert summaries.changed_games(now, now + 1) is None
        assert summaries.changed_games(now + 1, now) is None  # a cache from the future
        assert summaries.changed_games(now - summaries.KEPT_CHANGES - 1, now) is None


def test_only_the_latest_steps_are_kept(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(summaries, "KEPT_CHANGES", 4)
    with app.app_context():
        g1 = play("standard", [["Ann", "Ben"], ["Cleo", "Dan"]], G1_DEALS)
        for _ in range(5):
            games.delete_game(g1)
            games.restore_game(g1)
        kept = db.session.scalars(select(StandingsChange.version)).all()
        assert version() == 11
        # Pruned at step 8 down to the 4 before it; steps 9 to 11 came since.
        assert sorted(kept) == [5, 6, 7, 8, 9, 10, 11]
        assert summaries.changed_games(7, 11) == {g1: date(2025, 1, 1)}
        assert summaries.changed_games(6, 11) is None


def test_a_game_finished_last_is_all_the_ratings_read(app: Flask, season: Season) -> None:
    with app.app_context():
        before = figures(None)
        count = len(before[0])
        play("standard", [["Ann", "Dan"], ["Cleo", "Ben"]], G3_DEALS, played_on=date(2025, 3, 1))
        spy = ReadSince()
        with mock.patch.object(standings, "_rating_games", spy):
            after = figures(None)
        assert [read for _, read in spy.calls] == [1]
        assert len(after[0]) == count + 1
        assert after[0][:count] == before[0]
        assert after == from_scratch(None)


def test_a_correction_reads_only_its_game(app: Flask, season: Season) -> None:
    with app.app_context():
        figures(season.season_id)
        correct(season.g2, 1, [STAY_A, OUT_NWB])
        spy = ReadSince()
        with mock.patch.object(standings, "_rating_games", spy):
            after = figures(season.season_id)
        # G2 is read again; G1 before it and G3 after it are not.
        assert spy.calls == [([season.g2], 1)]
        assert after == from_scratch(season.season_id)


def test_a_correction_that_keeps_the_order_rates_no_game_again(app: Flask, season: Season) -> None:
    with app.app_context():
        figures(season.season_id)
        # Cleo & Dan lose G1, the season's first game, by more: 8070 : 4990, not 8070 : 5720.
        correct(season.g1, 4, [STAY_S, STAY_B])
        with rates_counted() as model:
            after = figures(season.season_id)
        assert model.rate.call_count == 0
        g1 = next(game for game in after[0] if game.game_id == season.g1)
        assert [total for _, total in g1.teams] == [8070, 4990]
        assert after == from_scratch(season.season_id)
        # Now Cleo & Dan win G1 (5420 : 5720): G1 and the two games after it are rated again.
        correct(season.g1, 1, [STAY_A, OUT_STD])
        with rates_counted() as model:
            after = figures(season.season_id)
        assert model.rate.call_count == 3
        assert after == from_scratch(season.season_id)


class LinesRead:
    """Which lines each computation aggregated: the players and partnerships asked for (None:
    all of them)."""

    def __init__(self) -> None:
        self.players: list[set[int] | None] = []
        self.partnerships: list[set[int] | None] = []
        self._players = standings._player_rows
        self._partnerships = standings._partnership_rows

    @contextmanager
    def watch(self) -> Iterator[LinesRead]:
        def players(season_id: int | None, only: Any = None) -> Any:
            self.players.append(None if only is None else set(only))
            return self._players(season_id, only)

        def partnerships(season_id: int | None, having: Any = None) -> Any:
            self.partnerships.append(None if having is None else set(having))
            return self._partnerships(season_id, having)

        with (
            mock.patch.object(standings, "_player_rows", players),
            mock.patch.object(standings, "_partnership_rows", partnerships),
        ):
            yield self


def test_a_finished_game_aggregates_only_its_own_lines(app: Flask, season: Season) -> None:
    with app.app_context():
        figures(None)
        before = {line.players: line for line in standings._computed(None).players}
        # The latest game of all: no other player's rating moves.
        play("standard", [["Ann", "Dan"], ["Cleo", "Ben"]], G3_DEALS, played_on=date(2025, 3, 1))
        with LinesRead().watch() as spy:
            now = {line.players: line for line in standings._computed(None).players}
        ann, ben, cleo, dan = (player(name) for name in ("Ann", "Ben", "Cleo", "Dan"))
        assert spy.players == [{ann, ben, cleo, dan}]
        # Partnerships are read by their lowest player: each of them has every team of its own.
        assert spy.partnerships == [{min(ann, dan), min(cleo, ben)}]
        # The other players' lines are the very ones computed before; the four are new.
        untouched = set(before) - {(ann,), (ben,), (cleo,), (dan,)}
        assert untouched
        assert all(now[key] is before[key] for key in untouched)
        assert all(now[(p,)] is not before[(p,)] for p in (ann, ben, cleo, dan))
        assert figures(None) == from_scratch(None)


def test_a_game_gone_from_the_database_aggregates_every_line(app: Flask, season: Season) -> None:
    with app.app_context():
        figures(None)
        deal = db.session.scalar(select(Deal).filter_by(game_id=season.g1, number=1))
        assert deal is not None
        before = version()
        games.correct_deal(season.g1, 1, deal.version, [STAY_A, OUT_STD])
        assert version() == before + 1
        # As if the game had been removed for good after its change was logged: whose lines
        # it was in can no longer be told.
        db.session.execute(
            update(StandingsChange)
            .where(StandingsChange.version == version())
            .values(game_id=10**6)
        )
        db.session.commit()
        with LinesRead().watch() as spy:
            figures(None)
        assert spy.players == [None]
        assert spy.partnerships == [None]


def test_a_merge_reads_every_game_again(app: Flask, season: Season) -> None:
    with app.app_context():
        play("standard", [["Evie", "Finn"], ["Gus", "Hal"]], G1_DEALS)
        figures(None)
        players.merge_players(player("Eve"), player("Evie"))
        spy = ReadSince()
        with mock.patch.object(standings, "_rating_games", spy), LinesRead().watch() as lines:
            after = figures(None)
        assert [since for since, _ in spy.calls] == [None]
        assert lines.players == [None]
        assert lines.partnerships == [None]
        assert after == from_scratch(None)


def _random_change(rng: random.Random, season: Season) -> None:
    """One change of any kind standings count, to a random game."""
    finished = db.session.scalars(
        select(Game.id)
        .where(
            Game.finished_at.is_not(None), Game.deleted_at.is_(None), Game.abandoned_at.is_(None)
        )
        .order_by(Game.id)
    ).all()
    kind = rng.choice(["play", "play", "correct", "delete", "restore", "abandon", "merge"])
    if not finished:
        kind = "play"
    game_id = rng.choice(finished) if finished else 0
    if kind == "play":
        # Now and then partnerships of three: lines of teams that share two of their players.
        size = 3 if rng.random() < 0.25 else 2
        seated = rng.sample(NAMES, 2 * size)
        deals = rng.choice([G1_DEALS, G2_DEALS, G3_DEALS])
        ruleset = "no-wild-books" if deals is G2_DEALS else "standard"
        # Any day: often before games already rated, so the resume starts in the middle.
        day = date(2024, 12, 1) + timedelta(days=rng.randrange(90))
        in_season = season.season_id if day >= date(2025, 1, 1) and rng.random() < 0.7 else None
        teams = [seated[:size], seated[size:]]
        play(ruleset, teams, deals, season_id=in_season, played_on=day)
    elif kind == "correct":
        number = rng.randrange(1, 5)
        deal = db.session.scalar(select(Deal).filter_by(game_id=game_id, number=number))
        assert deal is not None
        game = db.session.get(Game, game_id)
        assert game is not None
        tallies = [OUT_STD, STAY_A] if rng.random() < 0.5 else [STAY_A, OUT_STD]
        if game.ruleset_id == "no-wild-books":
            return  # OUT_STD has a wild book: not allowed there
        games.correct_deal(game_id, number, deal.version, tallies)
    elif kind == "delete":
        games.delete_game(game_id)
    elif kind == "abandon":
        # Only a game in progress is abandoned (a finished one has its result): one
        # abandoned after two deals, which standings must never count.
        four = rng.sample(NAMES, 4)
        day = date(2025, 1, 1) + timedelta(days=rng.randrange(60))
        stopped = play("standard", [four[:2], four[2:]], G1_DEALS[:2], played_on=day)
        games.abandon_game(stopped)
    elif kind == "restore":
        gone = db.session.scalars(
            select(Game.id).where(
                (Game.deleted_at.is_not(None)) | (Game.abandoned_at.is_not(None)),
                Game.finished_at.is_not(None),
            )
        ).all()
        if gone:
            games.restore_game(rng.choice(gone))
    else:
        lines = standings.standings(None).players
        if len(lines) > 4:
            keep, gone_line = rng.sample(lines, 2)
            try:
                players.merge_players(keep.players[0], gone_line.players[0])
            except ServiceError:
                db.session.rollback()  # two players of one team: refused, nothing changed


@pytest.mark.parametrize("seed", range(4))
def test_after_any_changes_the_figures_are_as_computed_from_scratch(
    app: Flask, season: Season, seed: int
) -> None:
    rng = random.Random(seed)
    with app.app_context():
        scopes = [None, season.season_id]
        for scope in scopes:
            figures(scope)
        resumed = 0
        for _ in range(12):
            # One to three changes between two looks at the standings.
            for _ in range(rng.randint(1, 3)):
                _random_change(rng, season)
            for scope in rng.sample(scopes, rng.randint(1, 2)):
                spy = ReadSince()
                with mock.patch.object(standings, "_rating_games", spy):
                    cached = figures(scope)
                resumed += sum(since is not None for since, _ in spy.calls)
                assert cached == from_scratch(scope), f"seed {seed}, scope {scope}"
                # from_scratch emptied the cache: fill it again as the next look's base.
                for other in scopes:
                    figures(other)
        # The resume path was taken, not only computations from scratch.
        assert resumed > 0
