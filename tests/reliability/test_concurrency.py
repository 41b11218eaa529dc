"""Several processes on one database: no "database is locked", no lost update."""

from __future__ import annotations

import multiprocessing
import queue
import time
from pathlib import Path
from typing import Any

from concurrency_support import DEALS, FIRST_DEAL, correct_same_deal, make_app, write_deals
from database_support import database_url

from scorekeeper.extensions import db
from scorekeeper.models import Correction, Deal
from scorekeeper.services import games

DEAL_WRITERS = 4
GAMES_EACH = 4
CORRECTORS = 4
ROUNDS = 5
TEAMS = [games.TeamSpec("", ["Ann", "Ben"]), games.TeamSpec("", ["Cy", "Di"])]


def collect(out: Any, processes: list[Any], timeout: float) -> list[tuple[Any, ...]]:
    results: list[tuple[Any, ...]] = []
    done = 0
    deadline = time.monotonic() + timeout
    while done < len(processes):
        try:
            item = out.get(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError(f"workers stuck; so far {results}") from None
        if item[0] == "done":
            done += 1
        else:
            results.append(item)
    for process in processes:
        process.join(timeout=30)
        assert process.exitcode == 0
    return results


def test_concurrent_writers_and_racing_corrections(tmp_path: Path) -> None:
    database = database_url(tmp_path / "race.sqlite")
    instance = str(tmp_path / "instance")
    app = make_app(database, instance)
    with app.app_context():
        db.create_all()
        own_games = [
            [games.start_game("standard", TEAMS).id for _ in range(GAMES_EACH)]
            for _ in range(DEAL_WRITERS)
        ]
        contested = games.start_game("standard", TEAMS).id
        games.record_deal(contested, games.tallies_from_mapping(FIRST_DEAL))
        db.session.remove()

    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    start = ctx.Event()
    barrier = ctx.Barrier(CORRECTORS)
    processes = [
        ctx.Process(target=write_deals, args=(database, instance, ids, start, out))
        for ids in own_games
    ] + [
        ctx.Process(
            target=correct_same_deal,
            args=(database, instance, contested, me, ROUNDS, barrier, out),
        )
        for me in range(CORRECTORS)
    ]
    started = time.monotonic()
    for process in processes:
        process.start()
    start.set()
    results = collect(out, processes, timeout=240)
    elapsed = time.monotonic() - started

    errors = [r for r in results if r[0] in ("error", "trace")]
    assert errors == []  # no "database is locked" (or anything else) reached a caller

    deals = {(r[1], r[2]) for r in results if r[0] == "deal"}
    assert len([r for r in results if r[0] == "deal"]) == len(deals)
    expected = {(g, n) for ids in own_games for g in ids for n in range(1, len(DEALS) + 1)}
    assert deals == expected

    winners = {r[1]: r[2] for r in results if r[0] == "won"}
    won = [r for r in results if r[0] == "won"]
    stale = [r for r in results if r[0] == "stale"]
    assert len(won) == ROUNDS  # exactly one winner a round...
    assert sorted(winners) == list(range(ROUNDS))
    assert len(stale) == ROUNDS * (CORRECTORS - 1)  # ...and every other corrector told so
    # A loser is shown the winner's version, never its own lost one.
    assert all(version == round_ + 2 for _, round_, version in stale)

    with app.app_context():
        for ids in own_games:
            for game_id in ids:
                view = games.view_game(games.load_game(game_id))
                assert [d.number for d in view.deals] == [1, 2, 3, 4]
                assert view.finished
        deal = db.session.scalars(
            db.select(Deal).where(Deal.game_id == contested, Deal.number == 1)
        ).one()
        # No lost update: the stored deal is the last round's winner, one version per round.
        assert deal.version == ROUNDS + 1
        assert deal.results[0].melded_points == winners[ROUNDS - 1]
        batches = db.session.scalars(
            db.select(Correction.batch).where(Correction.game_id == contested)
        ).all()
        assert sorted(set(batches)) == list(range(1, ROUNDS + 1))
        # Each winning correction is logged from the previous winner's value.
        log = db.session.scalars(
            db.select(Correction)
            .where(Correction.game_id == contested, Correction.field == "melded")
            .order_by(Correction.batch)
        ).all()
        assert [int(c.new_value) for c in log] == [winners[r] for r in range(ROUNDS)]
        assert [int(c.old_value) for c in log[1:]] == [winners[r] for r in range(ROUNDS - 1)]
        db.session.remove()
        db.engine.dispose()

    print(
        f"\nconcurrency: {DEAL_WRITERS} deal writers + {CORRECTORS} correctors "
        f"({len(processes)} processes), {len(deals)} deals written, {ROUNDS} rounds of "
        f"{CORRECTORS} racing corrections: {len(won)} won, {len(stale)} stale, 0 errors, "
        f"{elapsed:.1f} s"
    )
