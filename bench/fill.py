"""Fill a database with the demo generator fast: same generator, same rows, one transaction.

:func:`scorekeeper.demo.run_demo` writes every game through the services, a commit per deal:
the right way for the app, and minutes to an hour for 10,000 games. :func:`bulk_demo` draws
the very same games from the same seed (the same :class:`~scorekeeper.demo.DealMaker`, seating
and typo corrections, in the same order of random draws), scores them with the same rules
core, builds each row with the models' own ``store`` code, and inserts them all with
``executemany`` in one transaction. ``tests/test_bench.py`` checks that a bulk-filled database
holds the same rows as a service-filled one.

:func:`filled_database` keeps the filled 10,000-game file in ``.bench-cache/`` (git-ignored),
keyed by a hash of everything that shapes its rows, so a second ``make bench`` reuses it.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import func, insert, select

from scorekeeper import PROJECT_ROOT, create_app
from scorekeeper.demo import (
    CORRECTION_CHANCE,
    HOUSE_RULES_SLUG,
    TABLES,
    DealMaker,
    DemoSummary,
    _house_rules,
    _season,
    season_dates,
    seat,
)
from scorekeeper.extensions import db
from scorekeeper.models import (
    Correction,
    Deal,
    DealResult,
    Game,
    Player,
    StandingsStamp,
    Team,
    TeamMember,
    TeamTotal,
    utcnow,
)
from scorekeeper.rules import Cards, RuleSet, TeamTally, score_team, validate_deal
from scorekeeper.rules.tally import NAME_LONGEST
from scorekeeper.services import rulesets
from scorekeeper.services.games import TRACKED_FIELDS, _field_json
from scorekeeper.services.summaries import game_rows

CACHE = PROJECT_ROOT / ".bench-cache"
# Everything whose change could change the rows of a filled database.
SHAPERS = (
    "scorekeeper/models.py",
    "scorekeeper/demo.py",
    "scorekeeper/services/games.py",
    "scorekeeper/rules",
    "migrations/versions",
    "bench/fill.py",
)


def _columns(model: Any, obj: Any) -> dict[str, Any]:
    return {column.key: getattr(obj, column.key) for column in model.__table__.columns}


def _stored(tally: TeamTally, name: str) -> tuple[DealResult, TeamTally]:
    """The row the services would store for ``tally``, and the tally read back from it."""
    row = DealResult()
    row.store(tally)
    return row, row.tally(name)


class _Rows:
    """Rows per table, with the next id of each, inserted at the end in one transaction."""

    def __init__(self) -> None:
        self.tables: dict[Any, list[dict[str, Any]]] = {}
        self.next_id: dict[Any, int] = {}

    def start(self, model: Any) -> None:
        self.tables[model] = []
        self.next_id[model] = (db.session.scalar(select(func.max(model.id))) or 0) + 1

    def add(self, model: Any, **values: Any) -> int:
        row_id = self.next_id[model]
        self.next_id[model] += 1
        self.tables[model].append({"id": row_id, **values})
        return row_id

    def extend(self, model: Any, rows: list[dict[str, Any]]) -> None:
        self.tables.setdefault(model, []).extend(rows)

    def insert(self) -> None:
        for model, rows in self.tables.items():
            if rows:
                # The table, not the entity: the ORM would reset the version column.
                db.session.execute(insert(model.__table__), rows)
        db.session.commit()


def bulk_demo(
    games: int,
    seed: int,
    season_name: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> DemoSummary:
    """What ``run_demo(games, seed, season_name)`` writes, written in one transaction."""
    rng = random.Random(seed)
    first, last = season_dates(seed)
    summary = DemoSummary(season=season_name or f"Demo season {first:%Y-%m}")
    season_id = _season(summary.season, first, last, summary).id
    house_id = _house_rules(summary).id

    rows = _Rows()
    for model in (Player, Game, Team, TeamMember, Deal, DealResult, Correction):
        rows.start(model)
    players = {p.name.casefold(): p.id for p in db.session.scalars(select(Player))}
    players_before = len(players)

    days = sorted(first + timedelta(days=rng.randrange(182)) for _ in range(games))
    summary.first_day, summary.last_day = (days[0], days[-1]) if days else (None, None)
    weights = [table.weight for table in TABLES]
    for n, played_on in enumerate(days, start=1):
        table = rng.choices(TABLES, weights)[0]
        ref: str | int = house_id if table.rules == HOUSE_RULES_SLUG else table.rules
        teams = seat(table, rng)
        first_dealer_seat = rng.randrange(table.players)
        # The copy the game keeps, read back as the game reads it.
        kept = rulesets.resolve(ref).to_dict()
        rules = RuleSet.from_dict(kept)
        count = sum(len(team.players) for team in teams)
        decks = rules.decks_for(count)
        now = utcnow()
        game_id = rows.add(
            Game,
            ruleset=kept,
            ruleset_id=rules.id,
            season_id=season_id,
            played_on=played_on,
            decks=decks,
            first_dealer_seat=first_dealer_seat,
            created_at=now,
            finished_at=None,
            abandoned_at=None,
            deleted_at=None,
        )
        game_row = rows.tables[Game][-1]
        team_ids, names = [], []
        for position, team in enumerate(teams):
            name = team.name.strip() or " & ".join(team.players)[:NAME_LONGEST]
            names.append(name)
            team_id = rows.add(Team, game_id=game_id, position=position, name=name)
            team_ids.append(team_id)
            for seat_no, player in enumerate(team.players):
                if player.casefold() not in players:
                    players[player.casefold()] = rows.add(Player, name=player, created_at=now)
                rows.add(
                    TeamMember, team_id=team_id, player_id=players[player.casefold()], seat=seat_no
                )

        maker = DealMaker(rules, [len(team.players) for team in teams], decks, rng)
        deals: list[tuple[dict[str, Any], list[dict[str, Any]], list[TeamTally]]] = []
        for number in range(1, rules.deal_count + 1):
            tallies, fell_back = maker.deal(number)
            summary.fallbacks += fell_back
            deal_id = rows.add(
                Deal, game_id=game_id, number=number, version=1, created_at=now, updated_at=now
            )
            results, read_back = [], []
            for position, tally in enumerate(tallies):
                row, back = _stored(tally, names[position])
                row.score = score_team(rules, tally).score
                values = _columns(DealResult, row)
                del values["id"]
                values.update(deal_id=deal_id, team_id=team_ids[position], position=position)
                rows.add(DealResult, **values)
                results.append(rows.tables[DealResult][-1])
                read_back.append(back)
            deals.append((rows.tables[Deal][-1], results, read_back))
            summary.deals += 1
        game_row["finished_at"] = utcnow()
        if rng.random() < CORRECTION_CHANCE and _correct_a_typo(
            rows, game_id, rules, decks, deals, rng
        ):
            summary.corrections += 1
        # The summaries the write path keeps, from the same function it uses.
        rows.extend(TeamTotal, game_rows(game_id, team_ids, [results for _, results, _ in deals]))
        summary.games += 1
        if progress is not None:
            progress(n)
    # The services bump the stamp once per finished game and once per correction.
    stamp = db.session.get(StandingsStamp, 1) or StandingsStamp(id=1, version=0)
    stamp.version += summary.games + summary.corrections
    db.session.add(stamp)
    rows.insert()
    summary.players_created = len(players) - players_before
    return summary


def _correct_a_typo(
    rows: _Rows,
    game_id: int,
    rules: RuleSet,
    decks: int,
    deals: list[tuple[dict[str, Any], list[dict[str, Any]], list[TeamTally]]],
    rng: random.Random,
) -> bool:
    """:func:`scorekeeper.demo._correct_a_typo` and the service's ``correct_deal``, on rows."""
    deal, results, read_back = rng.choice(deals)
    tallies = list(read_back)
    index = rng.randrange(len(tallies))
    tally = tallies[index]
    if tally.went_out or tally.left.counted:
        return False
    step = rules.card_values.step
    points = (tally.left.points or 0) + step * rng.choice((-4, -2, -1, 1, 2, 4))
    tallies[index] = replace(tally, left=Cards(points=max(points, 0)))
    if tallies[index] == tally or validate_deal(rules, deal["number"], tallies, decks):
        return False
    now = utcnow()
    changed = False
    for position, (values, new) in enumerate(zip(results, tallies, strict=True)):
        before = read_back[position]
        for name in TRACKED_FIELDS:
            old_json, new_json = _field_json(before, name), _field_json(new, name)
            if old_json != new_json:
                changed = True
                rows.add(
                    Correction,
                    game_id=game_id,
                    deal_number=deal["number"],
                    batch=1,
                    team_position=position,
                    field=name,
                    old_value=old_json,
                    new_value=new_json,
                    created_at=now,
                    undone_at=None,
                )
        row, _ = _stored(new, "")
        row.score = score_team(rules, new).score
        fresh = _columns(DealResult, row)
        for key in ("id", "deal_id", "team_id", "position"):
            del fresh[key]
        values.update(fresh)
    if changed:
        deal["version"] += 1
        deal["updated_at"] = now
    return changed


def shape_hash(games: int, seed: int) -> str:
    """A hash of what a filled database's rows depend on."""
    digest = hashlib.sha256(json.dumps([games, seed]).encode())
    for name in SHAPERS:
        path = PROJECT_ROOT / name
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            digest.update(str(file.relative_to(PROJECT_ROOT)).encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def make_app(database: Path) -> Any:
    return create_app(
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}", "WTF_CSRF_ENABLED": False},
        instance_path=str(database.parent / "instance"),
    )


def fill(database: Path, games: int, seed: int) -> DemoSummary:
    """A fresh database file at ``database`` with ``games`` demo games."""
    app = make_app(database)
    with app.app_context():
        db.create_all()
        summary = bulk_demo(games, seed)
        db.session.remove()
        db.engine.dispose()
    return summary


def filled_database(
    target: Path, games: int, seed: int = 1, *, cache: Path | None = CACHE
) -> tuple[Path, str]:
    """``target`` filled with ``games`` games: from the cache, else filled (and cached)."""
    if cache is not None:
        cached = cache / f"demo-{games}-{seed}-{shape_hash(games, seed)}.sqlite"
        if cached.exists():
            shutil.copyfile(cached, target)
            return target, "cache"
    fill(target, games, seed)
    if cache is not None:
        cache.mkdir(exist_ok=True)
        for old in cache.glob(f"demo-{games}-{seed}-*.sqlite"):
            old.unlink()
        tmp = cached.with_suffix(".tmp")
        shutil.copyfile(target, tmp)
        tmp.replace(cached)
    return target, "filled"


TIMESTAMPS = {"created_at", "updated_at", "finished_at", "abandoned_at", "deleted_at", "undone_at"}


def dump_rows() -> dict[str, list[Any]]:
    """Every row of the game tables without clocks, players by name: for comparing fills.

    A game's uid is random (its identity across databases), so it is left out too.
    """
    names = dict(db.session.execute(select(Player.id, Player.name)).all())
    dump: dict[str, list[Any]] = {"player": sorted(names.values())}
    for model in (Game, Team, TeamMember, Deal, DealResult, Correction, TeamTotal, StandingsStamp):
        columns = [c for c in model.__table__.columns if c.key not in TIMESTAMPS and c.key != "uid"]
        table = []
        for row in db.session.execute(select(*columns).order_by(*model.__table__.primary_key)):
            values = dict(zip([c.key for c in columns], row, strict=True))
            if "player_id" in values:
                values["player_id"] = names[values["player_id"]]
            for key in ("finished_at", "abandoned_at", "deleted_at", "undone_at"):
                if key in model.__table__.columns:
                    values[key] = getattr(db.session.get(model, values["id"]), key) is not None
            table.append(tuple(sorted(values.items())))
        dump[model.__tablename__] = table
    return dump
