"""The summaries kept by the write path always equal the same figures computed from scratch."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select, text

from scorekeeper.demo import run_demo
from scorekeeper.extensions import db
from scorekeeper.models import DealResult, Game, Player, TeamTotal
from scorekeeper.rules import Cards, TeamTally, validate_deal
from scorekeeper.services import games, players, rulesets, standings, summaries
from scorekeeper.services.errors import Conflict

# Straight from the deals, with window functions: the way standings were computed before
# the summaries existed (and the way migration 0003 fills them in).
FROM_SCRATCH = text(
    """
    SELECT team_id, game_id, total, deals, clean_books, dirty_books, wild_books,
        black_three_books, red_threes, red_threes_caught, went_out,
        CASE WHEN total = top THEN 840 / level ELSE 0 END AS win_units,
        total - CASE WHEN total = top THEN second ELSE top END AS margin,
        deals - game_outs AS stock_outs
    FROM (
        SELECT s.*,
            MAX(total) OVER (PARTITION BY game_id) AS top,
            NTH_VALUE(total, 2) OVER (PARTITION BY game_id ORDER BY total DESC
                ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS second,
            COUNT(*) OVER (PARTITION BY game_id, total) AS level,
            SUM(went_out) OVER (PARTITION BY game_id) AS game_outs
        FROM (
            SELECT team.id AS team_id, team.game_id AS game_id,
                SUM(r.score) AS total, COUNT(r.id) AS deals,
                SUM(r.clean_books) AS clean_books, SUM(r.dirty_books) AS dirty_books,
                SUM(r.wild_books) AS wild_books, SUM(r.black_three_books) AS black_three_books,
                SUM(r.red_threes) AS red_threes, SUM(r.red_threes_caught) AS red_threes_caught,
                SUM(CASE WHEN r.went_out THEN 1 ELSE 0 END) AS went_out
            FROM deal_result AS r JOIN team ON r.team_id = team.id
            GROUP BY team.id, team.game_id
        ) AS s
    ) AS ranked
    ORDER BY team_id
    """
)
COLUMNS = [column.key for column in TeamTotal.__table__.columns]


def kept() -> list[tuple[Any, ...]]:
    rows = db.session.execute(select(TeamTotal).order_by(TeamTotal.team_id)).scalars()
    return [tuple(getattr(row, name) for name in COLUMNS) for row in rows]


def special_from_scratch() -> dict[int, int]:
    """Each team's special books, every kind together, added up from its deals' JSON."""
    teams: dict[int, int] = {}
    for team_id, books in db.session.execute(select(DealResult.team_id, DealResult.special_books)):
        teams[team_id] = teams.get(team_id, 0) + sum((books or {}).values())
    return teams


def from_scratch() -> list[tuple[Any, ...]]:
    special = special_from_scratch()
    return [
        tuple(
            special.get(row.team_id, 0) if name == "special_books" else row._mapping[name]
            for name in COLUMNS
        )
        for row in db.session.execute(FROM_SCRATCH)
    ]


def assert_summaries_hold() -> None:
    assert kept() == from_scratch()


def correctable(game_id: int) -> tuple[int, int, list[TeamTally]]:
    """A deal of the game with one team's cards left changed by a step, still valid."""
    view = games.view_game(games.load_game(game_id))
    step = view.rules.card_values.step
    for deal in view.deals:
        tallies = [result.tally for result in deal.results]
        for i, tally in enumerate(tallies):
            if tally.went_out or tally.left.counted:
                continue
            changed = list(tallies)
            changed[i] = replace(tally, left=Cards(points=(tally.left.points or 0) + step))
            if not validate_deal(view.rules, deal.number, changed, view.game.decks):
                return deal.number, deal.version, changed
    raise AssertionError("no deal of this game can be corrected")


def test_every_write_keeps_the_summaries_equal_to_the_deals(ctx: Flask) -> None:
    run_demo(12, seed=3)  # through the services, with typo corrections
    assert len(kept()) > 24
    assert_summaries_hold()
    stamp = summaries.stamp()

    # A game in progress: every deal saved rewrites its rows.
    first = db.session.scalar(select(Game).order_by(Game.id))
    assert first is not None
    view = games.view_game(games.load_game(first.id))
    specs = [
        games.TeamSpec(name, members)
        for name, members in zip(view.team_names, view.team_players, strict=True)
    ]
    game_id = games.start_game(dict(first.ruleset), specs).id
    for deal in view.deals[:2]:
        games.record_deal(game_id, [result.tally for result in deal.results])
        assert_summaries_hold()
    assert summaries.stamp() == stamp  # deals of a game in progress count nowhere yet
    for deal in view.deals[2:]:
        games.record_deal(game_id, [result.tally for result in deal.results])
    assert_summaries_hold()
    assert summaries.stamp() > stamp

    # A correction, and undoing it.
    number, version, tallies = correctable(game_id)
    stamp = summaries.stamp()
    stamp = summaries.stamp()
    games.correct_deal(game_id, number, version, tallies)
    assert_summaries_hold()
    assert summaries.stamp() > stamp
    stamp = summaries.stamp()
    games.undo_last_correction(game_id)
    assert_summaries_hold()
    assert summaries.stamp() > stamp

    # A finished game is not abandoned: nothing changes, the stamp stays.
    stamp = summaries.stamp()
    with pytest.raises(Conflict):
        games.abandon_game(game_id)
    assert summaries.stamp() == stamp
    # Delete, restore and merge change what counts, not the sums: the stamp moves.
    for change in (
        lambda: games.delete_game(game_id),
        lambda: games.restore_game(game_id),
    ):
        stamp = summaries.stamp()
        change()
        assert summaries.stamp() > stamp
        assert_summaries_hold()
    newcomer = games.start_game("standard", [games.TeamSpec("", ["Zed", "Yul"]), *specs[:1]])
    for deal in view.deals if view.rules.id == "standard" else []:
        games.record_deal(newcomer.id, [result.tally for result in deal.results])
    zed = db.session.scalar(select(Player.id).where(Player.name == "Zed"))
    ann = db.session.scalar(select(Player.id).where(Player.name == "Ann"))
    assert zed is not None and ann is not None
    stamp = summaries.stamp()
    players.merge_players(ann, zed)
    assert summaries.stamp() > stamp
    assert_summaries_hold()


def test_standings_from_the_summaries_match_the_deals(ctx: Flask) -> None:
    run_demo(10, seed=2)
    table = standings.standings(None)
    by_team = {row[0]: row for row in from_scratch()}
    counted = db.session.scalars(select(Game).where(Game.finished_at.is_not(None))).all()
    points: dict[int, int] = {}
    for game in counted:
        for team in game.teams:
            for member in team.members:
                points[member.player_id] = points.get(member.player_id, 0) + by_team[team.id][2]
    assert {line.players[0]: line.points for line in table.players} == points


SEVENS = {
    "special_books": [
        {"id": "sevens", "name": "Book of sevens", "bonus": 1000, "min_points": 35},
        {"id": "aces", "name": "Book of aces", "bonus": 1500, "min_points": 140},
    ]
}


def test_special_books_are_kept_and_counted_in_the_standings(ctx: Flask) -> None:
    """A house rule's own books reach the summaries and the standings' books per game."""
    house = rulesets.create_house_rules("Sevens night", "standard", SEVENS)
    teams = [games.TeamSpec("", ["Ann", "Ben"]), games.TeamSpec("", ["Cy", "Di"])]
    game_id = games.start_game(house.slug, teams).id
    out = TeamTally(
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        special_books={"sevens": 1, "aces": 1},
        melded=Cards(points=1500),
        went_out=True,
    )
    stay = TeamTally(clean_books=1, special_books={"sevens": 1}, melded=Cards(points=400))
    for tallies in ([out, stay], [stay, out], [out, stay], [out, stay]):
        games.record_deal(game_id, tallies)
    assert_summaries_hold()
    kept_rows = db.session.scalars(select(TeamTotal).order_by(TeamTotal.team_id)).all()
    assert [row.special_books for row in kept_rows] == [2 * 3 + 1, 1 * 3 + 2]

    table = standings.standings(None)
    ann = next(line for line in table.players if line.names == ("Ann",))
    assert ann.special_books == 7
    assert ann.books_per_game["special"] == 7.0
    assert ann.books_per_game["clean"] == 2 * 3 + 1

    # A correction takes a book away: the summaries and the standings follow.
    view = games.view_game(games.load_game(game_id))
    deal = view.deals[0]
    games.correct_deal(game_id, 1, deal.version, [replace(out, special_books={"sevens": 1}), stay])
    assert_summaries_hold()
    ann = next(line for line in standings.standings(None).players if line.names == ("Ann",))
    assert ann.special_books == 6
