"""Summaries kept by the write path, so standings never add up every deal of every game.

- :class:`~scorekeeper.models.TeamTotal`: each team's figures over its game's deals, and
  how it did against the other teams of that game. :func:`refresh_game` rewrites a game's
  rows; :mod:`scorekeeper.services.games` calls it in the same transaction as every change
  to a deal (saved, corrected, correction undone). A game's state (finished, abandoned,
  deleted, its season) is read from the game itself, so those changes need no rewrite.
- :class:`~scorekeeper.models.StandingsStamp`: :func:`bump` adds one whenever anything the
  standings count changes (a game finished, corrected, abandoned, deleted or restored, two
  players merged); the standings cache is kept while it stays the same.

:func:`game_rows` is the one computation of a game's rows, used by the services, the
benchmark's bulk fill and the tests that compare the summaries with the deals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import db
from scorekeeper.models import Game, StandingsStamp, TeamTotal

# A k-way tie at the top gives each tied team WIN_UNITS // k: exact for 2 to 8 teams.
WIN_UNITS = 840
SUMMED = (
    "clean_books",
    "dirty_books",
    "wild_books",
    "black_three_books",
    "red_threes",
    "red_threes_caught",
)


def game_rows(
    game_id: int, team_ids: Sequence[int], deals: Sequence[Sequence[Mapping[str, Any]]]
) -> list[dict[str, Any]]:
    """The TeamTotal rows of one game: ``deals`` holds each deal's results in team order."""
    rows = [
        {
            "team_id": team_id,
            "game_id": game_id,
            "total": 0,
            "deals": 0,
            "went_out": 0,
            **dict.fromkeys(SUMMED, 0),
        }
        for team_id in team_ids
    ]
    for results in deals:
        for position, result in enumerate(results):
            row = rows[position]
            row["total"] += result["score"]
            row["deals"] += 1
            row["went_out"] += 1 if result["went_out"] else 0
            for name in SUMMED:
                row[name] += result[name]
    totals = [row["total"] for row in rows]
    ordered = sorted(totals, reverse=True)
    top = ordered[0] if ordered else 0
    # The second-best total: equal to the best on a tie at the top.
    second = ordered[1] if len(ordered) > 1 else top
    level = totals.count(top)
    game_outs = sum(row["went_out"] for row in rows)
    for row in rows:
        at_top = row["total"] == top
        row["win_units"] = WIN_UNITS // level if at_top else 0
        row["margin"] = row["total"] - (second if at_top else top)
        # At most one team goes out in a deal, so deals minus go-outs are the stock-outs.
        row["stock_outs"] = row["deals"] - game_outs
    return rows


def _result_values(result: Any) -> dict[str, Any]:
    return {
        "score": result.score,
        "went_out": result.went_out,
        **{name: getattr(result, name) for name in SUMMED},
    }


def refresh_game(game: Game) -> None:
    """Rewrite ``game``'s TeamTotal rows from its deals as they are in the session now."""
    rows = game_rows(
        game.id,
        [team.id for team in game.teams],
        [
            [_result_values(r) for r in sorted(deal.results, key=lambda r: r.position)]
            for deal in game.deals
        ],
    )
    db.session.flush()
    db.session.execute(delete(TeamTotal).where(TeamTotal.game_id == game.id))
    db.session.execute(insert(TeamTotal), rows)


def bump() -> None:
    """Tell every process's standings cache that what standings count has changed."""
    step = (
        update(StandingsStamp)
        .where(StandingsStamp.id == 1)
        .values(version=StandingsStamp.version + 1)
    )
    if db.session.execute(step).rowcount:  # type: ignore[attr-defined]
        return
    # The very first stamp: two writers may both find none (PostgreSQL reads committed rows
    # only). The loser's insert fails inside a savepoint; by then the row exists, so it steps.
    try:
        with db.session.begin_nested():
            db.session.add(StandingsStamp(id=1, version=1))
    except IntegrityError:
        db.session.execute(step)


def bump_if_counted(game: Game) -> None:
    """:func:`bump` for a change to ``game``, unless standings could never count it.

    Standings count finished games only: a game in progress may change, be abandoned or
    deleted without touching them.
    """
    if game.finished_at is not None:
        bump()


def stamp() -> int:
    """The current stamp: the same number while nothing standings count has changed."""
    return db.session.scalar(select(StandingsStamp.version).where(StandingsStamp.id == 1)) or 0
