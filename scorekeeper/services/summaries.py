"""Summaries kept by the write path, so standings never add up every deal of every game.

- :class:`~scorekeeper.models.TeamTotal`: each team's figures over its game's deals, and
  how it did against the other teams of that game. :func:`refresh_game` rewrites a game's
  rows; :mod:`scorekeeper.services.games` calls it in the same transaction as every change
  to a deal (saved, corrected, correction undone). A game's state (finished, abandoned,
  deleted, its season) is read from the game itself, so those changes need no rewrite.
- :class:`~scorekeeper.models.StandingsStamp`: :func:`bump` adds one whenever anything the
  standings count changes (a game finished, corrected, abandoned, deleted or restored, two
  players merged); the standings cache is kept while it stays the same.
- :class:`~scorekeeper.models.StandingsChange`: which game each step changed, so a cache
  computed a few steps ago reads only those games' ratings again.

:func:`game_rows` is the one computation of a game's rows, used by the services, the
benchmark's bulk fill and the tests that compare the summaries with the deals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import db
from scorekeeper.models import Game, StandingsChange, StandingsStamp, TeamTotal

# The steps of the stamp whose changes are kept: a cache further behind computes everything.
KEPT_CHANGES = 1000
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


def special_count(books: Any) -> int:
    """How many special books a deal result's ``special_books`` holds, every kind together.

    The services keep a mapping of book ids to whole counts; anything else (changed by hand,
    which the pages refuse to read in words) counts none.
    """
    if not isinstance(books, Mapping):
        return 0
    return sum(n for n in books.values() if type(n) is int and n > 0)


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
            "special_books": 0,
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
            row["special_books"] += special_count(result["special_books"])
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
        "special_books": result.special_books,
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


def bump(game_id: int | None = None) -> None:
    """Tell every process's standings cache that what standings count has changed.

    ``game_id`` is the one game whose figures changed (finished, corrected, abandoned,
    deleted, restored); none when any game's may have (players merged, games imported). The
    step is logged in :class:`~scorekeeper.models.StandingsChange` so a cache can read
    again only the games changed since it was computed (see :func:`changed_games`).
    """
    step = (
        update(StandingsStamp)
        .where(StandingsStamp.id == 1)
        .values(version=StandingsStamp.version + 1)
        .returning(StandingsStamp.version)
    )
    version = db.session.execute(step).scalar()
    if version is None:
        # The very first stamp: two writers may both find none (PostgreSQL reads committed
        # rows only). The loser's insert fails inside a savepoint; by then the row exists,
        # so it steps.
        try:
            with db.session.begin_nested():
                db.session.add(StandingsStamp(id=1, version=1))
            version = 1
        except IntegrityError:
            version = db.session.execute(step).scalar_one()
    # The stamp's row stays locked until this transaction ends, so no other writer can take
    # the same version.
    db.session.execute(insert(StandingsChange).values(version=version, game_id=game_id))
    if version % KEPT_CHANGES == 0:
        db.session.execute(
            delete(StandingsChange).where(StandingsChange.version <= version - KEPT_CHANGES)
        )


def move_past(version: int) -> None:
    """:func:`bump` to a stamp past ``version`` too: after the database was replaced.

    A restored file brings back its own, older stamp. Another process may have cached
    standings at any stamp the replaced database reached, up to ``version``; stepping on from
    the restored stamp alone could land on one of them, and that process would keep its
    standings of a database that is gone. The step changes "any game", so no cache carries
    its lines over it either.
    """
    current = db.session.scalar(select(StandingsStamp.version).where(StandingsStamp.id == 1))
    if current is None:
        db.session.add(StandingsStamp(id=1, version=version))
        db.session.flush()
    elif current < version:
        db.session.execute(
            update(StandingsStamp).where(StandingsStamp.id == 1).values(version=version)
        )
    bump()


def bump_if_counted(game: Game) -> None:
    """:func:`bump` for a change to ``game``, unless standings could never count it.

    Standings count finished games only: a game in progress may change, be abandoned or
    deleted without touching them.
    """
    if game.finished_at is not None:
        bump(game.id)


def changed_games(after: int, upto: int) -> dict[int, date | None] | None:
    """The games the steps of the stamp after ``after`` up to ``upto`` changed, with their day
    (none for a game no longer there).

    None when they cannot be told: a step changed any game, or the log no longer holds every
    step (older than :data:`KEPT_CHANGES` steps, or written before the log existed).
    """
    if not 0 <= upto - after <= KEPT_CHANGES:
        return None
    rows = db.session.execute(
        select(StandingsChange.game_id, Game.played_on)
        .outerjoin(Game, Game.id == StandingsChange.game_id)
        .where(StandingsChange.version > after, StandingsChange.version <= upto)
    ).all()
    changed: dict[int, date | None] = {}
    for game_id, day in rows:
        if game_id is None:
            return None
        changed[game_id] = day
    return changed if len(rows) == upto - after else None


def stamp() -> int:
    """The current stamp: the same number while nothing standings count has changed."""
    return db.session.scalar(select(StandingsStamp.version).where(StandingsStamp.id == 1)) or 0
