"""Helpers of the service tests: snapshots of the database, teams and tallies."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import pytest
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.rules import Cards, TeamTally
from scorekeeper.services import games
from scorekeeper.services.errors import ServiceError
from scorekeeper.services.games import TeamSpec

Snapshot = dict[str, list[tuple[Any, ...]]]
E = TypeVar("E", bound=ServiceError)


def snapshot() -> Snapshot:
    """Every row of every table, read through a connection of its own.

    A separate connection sees only what was committed, whatever the session holds.
    """
    with db.engine.connect() as connection:
        return {
            table.name: sorted((tuple(row) for row in connection.execute(select(table))), key=repr)
            for table in db.metadata.sorted_tables
        }


def assert_unchanged(before: Snapshot) -> None:
    """A refused write changed nothing, not even once the session is committed later."""
    assert snapshot() == before
    # Anything a refusal left pending in the session would be written by the next commit.
    db.session.commit()
    assert snapshot() == before


def refused(error: type[E], call: Callable[[], object], *, status: int | None = None) -> E:
    """Run ``call`` expecting ``error``; the database must be exactly as before."""
    before = snapshot()
    with pytest.raises(error) as caught:
        call()
    if status is not None:
        assert caught.value.status == status
    assert_unchanged(before)
    return caught.value


def pairs(*names: str) -> list[TeamSpec]:
    """Teams of two in the order given: pairs("A", "B", "C", "D") is A & B against C & D."""
    return [TeamSpec("", list(names[i : i + 2])) for i in range(0, len(names), 2)]


def alone(*names: str) -> list[TeamSpec]:
    return [TeamSpec("", [name]) for name in names]


def going_out(**changes: Any) -> TeamTally:
    """A team that went out in a standard deal: 2 clean, 2 dirty and 1 wild book."""
    base: dict[str, Any] = {
        "clean_books": 2,
        "dirty_books": 2,
        "wild_books": 1,
        "red_threes": 1,
        "melded": Cards(points=750),
        "left": Cards(points=20),
        "went_out": True,
    }
    return TeamTally(**{**base, **changes})


def staying(**changes: Any) -> TeamTally:
    """A team that did not go out: one clean book and some loose melds."""
    base: dict[str, Any] = {
        "clean_books": 1,
        "melded": Cards(points=260),
        "left": Cards(points=135),
    }
    return TeamTally(**{**base, **changes})


def standard_deal() -> list[TeamTally]:
    return [going_out(), staying()]


def standard_game(
    ruleset: Any = "standard", names: Sequence[str] = ("Ann", "Ben", "Cy", "Di")
) -> int:
    return int(games.start_game(ruleset, pairs(*names)).id)


def play(game_id: int, deals: int) -> None:
    for _ in range(deals):
        games.record_deal(game_id, standard_deal())


def fresh_game(game_id: int) -> Game:
    """The game as stored, not as the session remembers it."""
    db.session.expire_all()
    game = db.session.get(Game, game_id)
    assert game is not None
    return game
