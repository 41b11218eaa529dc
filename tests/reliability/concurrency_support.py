"""Worker processes for the concurrency test (spawned: each imports the app afresh)."""

from __future__ import annotations

import traceback
from typing import Any

FIRST_DEAL = [{"clean_books": 1, "melded": 300, "opening_meld": 60}, {"left": 40}]
DEALS: list[list[dict[str, Any]]] = [
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


def make_app(database: str, instance: str) -> Any:
    """``database`` is a URL: a SQLite file or a PostgreSQL schema (tests/database_support.py)."""
    from scorekeeper import create_app

    return create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database},
        instance_path=instance,
    )


def write_deals(database: str, instance: str, game_ids: list[int], start: Any, out: Any) -> None:
    """Enter every deal of each game; report ("deal", game, number) or ("error", text)."""
    from scorekeeper.extensions import db
    from scorekeeper.services import games

    app = make_app(database, instance)
    with app.app_context():
        start.wait()
        for game_id in game_ids:
            for number, teams in enumerate(DEALS, start=1):
                try:
                    deal = games.record_deal(game_id, games.tallies_from_mapping(teams))
                    out.put(("deal", game_id, deal.number))
                except Exception as error:  # every failure goes back to the test
                    db.session.rollback()
                    out.put(("error", f"deal {game_id}/{number}: {error!r}"))
                    out.put(("trace", traceback.format_exc()))
        db.session.remove()
        db.engine.dispose()
    out.put(("done", None))


def correct_same_deal(
    database: str, instance: str, game_id: int, me: int, rounds: int, barrier: Any, out: Any
) -> None:
    """Each round, every corrector saves deal 1 from the same version at the same instant."""
    from scorekeeper.extensions import db
    from scorekeeper.services import games
    from scorekeeper.services.errors import StaleDeal

    app = make_app(database, instance)
    with app.app_context():
        for round_ in range(rounds):
            version = round_ + 1
            # A melded total unique to this corrector and round: the winner is recognisable.
            melded = 1000 + round_ * 100 + me * 5
            tallies = games.tallies_from_mapping(
                [{**FIRST_DEAL[0], "melded": melded}, FIRST_DEAL[1]]
            )
            barrier.wait()
            try:
                games.correct_deal(game_id, 1, version, tallies)
                out.put(("won", round_, melded))
            except StaleDeal as stale:
                out.put(("stale", round_, stale.current.version))
            except Exception as error:
                db.session.rollback()
                out.put(("error", f"correction round {round_}: {error!r}"))
                out.put(("trace", traceback.format_exc()))
            db.session.remove()
            # Everyone has answered before the next round reads the new version.
            barrier.wait()
        db.engine.dispose()
    out.put(("done", None))
