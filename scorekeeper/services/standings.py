"""Standings: who is the best player and partnership, per season and of all time.

What counts: only **finished** games that are neither abandoned nor deleted.

How a line is computed (a *line* is one player, or one partnership: the same two or three
players in one team, whatever the team was called):

- **wins**: a team with the highest final total wins the game. A tie at the top is a shared
  win: each of the ``k`` tied teams gets ``1/k`` of a win (two teams level at the top get half
  a win each), and every player of such a team gets that share. Sums are kept exact in
  :data:`WIN_UNITS` (1/840ths of a win, 840 being divisible by every number of teams, 2 to 8).
- **win %**: wins / games.
- **points**: the sum of the team's final totals; **average per game** and **per deal** divide
  it by the games and deals played. Points from different rules are not comparable, so each
  line also says which rules its points came from (:attr:`Line.rules`).
- **average margin**: the team's total minus the best opposing total, averaged over games
  (positive for a winner, negative for the rest).
- **books per game** by kind, **red threes per game**, **going-out rate** (deals the team went
  out / deals played), **stock-outs** (deals of the line's games in which nobody went out) and
  **best game** (the highest team total).
- **rating**: see :mod:`scorekeeper.services.ratings`. In a season's standings it is the rating
  over that season's games only; in the all-time standings, over every game.

Performance: every figure is aggregated in SQL (``GROUP BY`` over the team summaries the
write path keeps, :class:`~scorekeeper.models.TeamTotal`, joined with team members and game),
so a standings page runs the same few queries for 10 or 10,000 games and never adds up the
deals themselves. Ratings need one pass over the games in order, fed by one query, resumed
from the previous pass as far as the games rate alike. When the cache knows which games changed
since that pass (:func:`scorekeeper.services.summaries.changed_games`), only the lines of
those games' players and partnerships are aggregated again, and the ratings' query reads only
those games. The result is cached in-process; see :func:`fingerprint` for when the cache is
dropped.
"""

from __future__ import annotations

import bisect
import json
import math
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from fractions import Fraction
from typing import Any

from flask import current_app
from sqlalchemy import BigInteger, Integer, Select, case, cast, func, literal, select
from sqlalchemy.orm import selectinload
from sqlalchemy.sql.selectable import Subquery

from scorekeeper.extensions import db
from scorekeeper.models import (
    LARGEST_ID,
    Deal,
    Game,
    Player,
    Season,
    Team,
    TeamMember,
    TeamTotal,
)
from scorekeeper.rules import Problem, RuleSet, score_team, validate_deal
from scorekeeper.rules.i18n import N_

from . import rulesets, summaries
from .errors import Conflict, NotFound
from .ratings import GameResult, RatingPoint, Ratings, rate_games

# A k-way tie at the top gives each tied team WIN_UNITS // k: exact for 2 to 8 teams.
WIN_UNITS = summaries.WIN_UNITS
# "special": the books a house rule rewards on their own, every kind together.
BOOK_KINDS = ("clean", "dirty", "wild", "black_three", "special")
# A partnership is keyed by (size, lowest id, highest id, sum of ids, sum of squared ids):
# exact for teams of up to four players (the most any ruleset allows).
LARGEST_PARTNERSHIP = 4


# ---------------------------------------------------------------------------
# Lines


@dataclass(frozen=True)
class RulesShare:
    """The part of a line played under one ruleset: its points are comparable with each other."""

    ruleset_id: str
    games: int
    points: int
    deals: int

    @property
    def average_per_game(self) -> float:
        return self.points / self.games if self.games else 0.0


@dataclass
class Line:
    """One standings line: a player (one id) or a partnership (two or more ids)."""

    players: tuple[int, ...]
    names: tuple[str, ...] = ()
    games: int = 0
    win_units: int = 0
    points: int = 0
    deals: int = 0
    margin: int = 0
    clean_books: int = 0
    dirty_books: int = 0
    wild_books: int = 0
    black_three_books: int = 0
    special_books: int = 0
    red_threes: int = 0
    red_threes_caught: int = 0
    went_out: int = 0
    stock_outs: int = 0
    best: int | None = None
    worst: int | None = None
    rules: dict[str, RulesShare] = field(default_factory=dict)
    rating: int | None = None

    @property
    def name(self) -> str:
        return " & ".join(self.names)

    @property
    def wins(self) -> Fraction:
        return Fraction(self.win_units, WIN_UNITS)

    @property
    def win_pct(self) -> float:
        return 100 * self.win_units / (WIN_UNITS * self.games) if self.games else 0.0

    @property
    def average_per_game(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def average_per_deal(self) -> float:
        return self.points / self.deals if self.deals else 0.0

    @property
    def average_margin(self) -> float:
        return self.margin / self.games if self.games else 0.0

    @property
    def books_per_game(self) -> dict[str, float]:
        games = self.games or 1
        return {kind: getattr(self, f"{kind}_books") / games for kind in BOOK_KINDS}

    @property
    def going_out_rate(self) -> float:
        return self.went_out / self.deals if self.deals else 0.0

    @property
    def red_threes_per_game(self) -> float:
        return self.red_threes / self.games if self.games else 0.0

    @property
    def ruleset_ids(self) -> list[str]:
        """The rules this line's points came from, the most played first."""
        return [
            share.ruleset_id
            for share in sorted(self.rules.values(), key=lambda s: (-s.games, s.ruleset_id))
        ]

    def add(self, row: Any) -> None:
        """Fold in one aggregate row (this line's games under one ruleset)."""
        for name in (
            "games",
            "win_units",
            "points",
            "deals",
            "margin",
            "clean_books",
            "dirty_books",
            "wild_books",
            "black_three_books",
            "special_books",
            "red_threes",
            "red_threes_caught",
            "went_out",
            "stock_outs",
        ):
            setattr(self, name, getattr(self, name) + int(getattr(row, name) or 0))
        self.best = row.best if self.best is None else max(self.best, row.best)
        self.worst = row.worst if self.worst is None else min(self.worst, row.worst)
        self.rules[row.ruleset_id] = RulesShare(
            row.ruleset_id, int(row.games), int(row.points), int(row.deals)
        )


# The sort orders a standings table offers (``?sort=``): highest first, except names.
# Ties fall back to wins, then rating, then name.
SORTS: dict[str, Callable[[Line], Any]] = {
    "wins": lambda line: line.win_units,
    "win_pct": lambda line: line.win_pct,
    "rating": lambda line: line.rating if line.rating is not None else -math.inf,
    "games": lambda line: line.games,
    "points": lambda line: line.points,
    "avg": lambda line: line.average_per_game,
    "avg_deal": lambda line: line.average_per_deal,
    "margin": lambda line: line.average_margin,
    # Rounded: the kinds' averages summed differ in their last bits (0.1 + 0.2).
    "books": lambda line: round(sum(line.books_per_game.values()), 9),
    "going_out": lambda line: line.going_out_rate,
    "red_threes": lambda line: line.red_threes_per_game,
    "stock_outs": lambda line: line.stock_outs,
    "best": lambda line: line.best if line.best is not None else -math.inf,
    "name": lambda line: line.name.casefold(),
}
DEFAULT_SORT = "wins"


def sort_lines(lines: Iterable[Line], sort: str = DEFAULT_SORT) -> list[Line]:
    """Lines best first by ``sort`` (unknown sorts fall back to wins), then wins, rating, name."""
    key = SORTS.get(sort, SORTS[DEFAULT_SORT])
    ordered = sorted(lines, key=lambda line: line.name.casefold())
    ordered.sort(key=lambda line: (SORTS["wins"](line), SORTS["rating"](line)), reverse=True)
    if sort == "name":
        return sorted(ordered, key=key)
    return sorted(ordered, key=key, reverse=True)


def places(lines: Sequence[Line], sort: str = DEFAULT_SORT) -> list[int]:
    """The place of each of ``lines``, sorted as :func:`sort_lines` sorts them: lines level
    on all they are sorted by but the name (two partners who always play together) share
    the place of the first of them, and the next comes after them all: 1, 1, 3. Sorted by
    name, the places are the rows."""
    if sort == "name":
        return list(range(1, len(lines) + 1))
    key = SORTS.get(sort, SORTS[DEFAULT_SORT])

    def level(line: Line) -> tuple[Any, ...]:
        return key(line), SORTS["wins"](line), SORTS["rating"](line)

    found: list[int] = []
    for i, line in enumerate(lines):
        same = i > 0 and level(line) == level(lines[i - 1])
        found.append(found[-1] if same else i + 1)
    return found


# ---------------------------------------------------------------------------
# SQL


def _counted(season_id: int | None) -> list[Any]:
    conditions: list[Any] = [
        Game.finished_at.is_not(None),
        Game.abandoned_at.is_(None),
        Game.deleted_at.is_(None),
    ]
    if season_id is not None:
        conditions.append(Game.season_id == season_id)
    return conditions


def _team_totals(season_id: int | None, games: Any = None, teams: Any = None) -> Subquery:
    """One row per team of every counted game: its total and its tallies summed over deals,
    its share of the win, its margin and its game's stock-outs.

    Read from the :class:`~scorekeeper.models.TeamTotal` summaries the write path keeps, so
    no deal is added up here. ``games`` and ``teams`` (SELECTs of ids) narrow it to those
    games or teams.
    """
    narrow = []
    if games is not None:
        narrow.append(Game.id.in_(games))
    if teams is not None:
        narrow.append(TeamTotal.team_id.in_(teams))
    t = TeamTotal
    return (
        select(
            t.team_id,
            t.game_id,
            Game.ruleset_id.label("ruleset_id"),
            Game.played_on.label("played_on"),
            t.total,
            *(getattr(t, name) for name in _TALLY_SUMS),
            t.win_units,
            t.margin,
            t.stock_outs,
        )
        .select_from(t)
        .join(Game, t.game_id == Game.id)
        .where(*_counted(season_id), *narrow)
        .subquery("team_totals")
    )


_TALLY_SUMS = (
    "deals",
    "clean_books",
    "dirty_books",
    "wild_books",
    "black_three_books",
    "special_books",
    "red_threes",
    "red_threes_caught",
    "went_out",
)


def _ranked(season_id: int | None, games: Any = None) -> Subquery:
    """Team totals with each team's share of the win, its margin and its game's stock-outs."""
    return _team_totals(season_id, games)


def _line_sums(source: Subquery) -> list[Any]:
    r = source.c
    return [
        r.ruleset_id,
        func.count().label("games"),
        func.sum(r.win_units).label("win_units"),
        func.sum(r.total).label("points"),
        func.sum(r.margin).label("margin"),
        func.sum(r.stock_outs).label("stock_outs"),
        func.max(r.total).label("best"),
        func.min(r.total).label("worst"),
        *(func.sum(r[name]).label(name) for name in _TALLY_SUMS),
    ]


def _player_rows(season_id: int | None, only: Iterable[int] | None = None) -> Select[Any]:
    """Each player's aggregate rows, one per ruleset; ``only`` these players' when given."""
    ranked = _ranked(season_id)
    query = (
        select(TeamMember.player_id, *_line_sums(ranked))
        .select_from(ranked.join(TeamMember, TeamMember.team_id == ranked.c.team_id))
        .group_by(TeamMember.player_id, ranked.c.ruleset_id)
    )
    if only is not None:
        query = query.where(TeamMember.player_id.in_(sorted(only)))
    return query


def _partnership_rows(season_id: int | None, having: Iterable[int] | None = None) -> Select[Any]:
    """Each partnership's aggregate rows, one per ruleset.

    ``having`` (player ids) narrows them to the partnerships with one of those players (every
    team of such a partnership has that player, so their rows are whole).
    """
    ranked = _ranked(season_id)
    player = cast(TeamMember.player_id, BigInteger)
    # Each team's players' key, from its members alone (one pass over them in team order),
    # joined to the team's row; then the lines are these rows grouped by key. (Grouping the
    # team rows, every column of them, by member took twice the time.)
    keys = select(
        TeamMember.team_id,
        func.count().label("size"),
        func.min(TeamMember.player_id).label("lo"),
        func.max(TeamMember.player_id).label("hi"),
        func.sum(player).label("ids"),
        func.sum(player * player).label("squares"),
    ).group_by(TeamMember.team_id)
    if having is not None:
        with_them = select(TeamMember.team_id).where(TeamMember.player_id.in_(sorted(having)))
        keys = keys.where(TeamMember.team_id.in_(with_them))
    keyed = keys.subquery("keys")
    k = keyed.c
    return (
        select(k.size, k.lo, k.hi, k.ids, k.squares, *_line_sums(ranked))
        .select_from(ranked.join(keyed, k.team_id == ranked.c.team_id))
        .where(k.size >= 2)
        .group_by(k.size, k.lo, k.hi, k.ids, k.squares, ranked.c.ruleset_id)
    )


def partnership_ids(size: int, lo: int, hi: int, ids: int, squares: int) -> tuple[int, ...]:
    """The player ids behind a partnership key (see :data:`LARGEST_PARTNERSHIP`)."""
    if size == 2:
        return (lo, hi)
    middle, middle_squares = ids - lo - hi, squares - lo * lo - hi * hi
    if size == 3:
        return (lo, middle, hi)
    if size == 4:
        # a + b = middle and a² + b² = middle_squares, so (b - a)² = 2·squares - middle².
        gap = math.isqrt(2 * middle_squares - middle * middle)
        return (lo, (middle - gap) // 2, (middle + gap) // 2, hi)
    raise ValueError(f"teams of {size} players are not supported")


def _rating_games(season_id: int | None, only: Sequence[int] | None = None) -> list[GameResult]:
    """Every counted game in order, each team with its players and total: one query.

    ``only`` (game ids) reads those of them that are counted.
    """
    t = _team_totals(season_id, only).c
    query = (
        select(t.game_id, t.played_on, t.team_id, t.total, TeamMember.player_id)
        .join(TeamMember, TeamMember.team_id == t.team_id)
        .order_by(t.played_on, t.game_id, t.team_id, TeamMember.seat)
    )
    rows = db.session.execute(query)
    games: list[GameResult] = []
    current: tuple[int, date] | None = None
    teams: dict[int, tuple[list[int], int]] = {}

    def close() -> None:
        if current is not None:
            games.append(
                GameResult(
                    current[0],
                    current[1],
                    tuple((tuple(players), total) for players, total in teams.values()),
                )
            )

    for game_id, played_on, team_id, total, player_id in rows:
        if current is None or current[0] != game_id:
            close()
            current, teams = (game_id, played_on), {}
        teams.setdefault(team_id, ([], int(total)))[0].append(player_id)
    close()
    return games


# ---------------------------------------------------------------------------
# The cache


def fingerprint() -> tuple[Any, ...]:
    """What the cached standings were computed from: one indexed row, whatever the games.

    It is the :class:`~scorekeeper.models.StandingsStamp` the write path bumps (see
    :func:`scorekeeper.services.summaries.bump`) when

    - a game finishes, or is abandoned, deleted or restored;
    - a deal is corrected or a correction undone;
    - two players are merged.

    Starting a game and entering its deals change none of these, so the standings stay cached
    until the game's last deal is in. The stamp lives in the database, so every process of a
    server sees the change. A restore, which puts back a file with an older stamp, moves the
    stamp past the replaced database's (:func:`~scorekeeper.services.summaries.move_past`),
    so every process's cache misses; the restoring process also calls :func:`clear_cache`.
    """
    return (summaries.stamp(),)


@dataclass(frozen=True)
class _Computed:
    """Standings as cached: ids and numbers only (names are read per request)."""

    players: list[Line]
    partnerships: list[Line]
    ratings: Ratings


_cache: dict[tuple[str, int | None], tuple[tuple[Any, ...], _Computed]] = {}
_cache_lock = threading.Lock()
_CACHE_ENTRIES = 64


def _games_to_rate(
    season_id: int | None, previous: Ratings | None, changed: dict[int, date | None] | None
) -> list[GameResult]:
    """The counted games in order, for :func:`rate_games` to resume ``previous`` with.

    ``changed`` maps the games changed since ``previous`` was computed to their day (none for
    a game no longer there). Only those are read again, and put in their place by day and id
    (one no longer counted drops out); every other game is ``previous``'s own, the very
    object. A correction to a game of years ago read every game after it before (10,000
    games: about 60 ms).
    """
    if previous is None or changed is None:
        return _rating_games(season_id)
    games = [game for game in previous.games if game.game_id not in changed]
    if changed:
        for game in _rating_games(season_id, sorted(changed)):
            bisect.insort(games, game, key=_in_order)
    return games


def _in_order(game: GameResult) -> tuple[date, int]:
    """Where a game is rated: by its day, then by its id (as :func:`_rating_games` reads)."""
    return game.played_on, game.game_id


def _teams_of(changed: dict[int, date | None]) -> list[tuple[int, ...]] | None:
    """The players of each team of the ``changed`` games, in id order; None when one of the
    games is gone (its players cannot be told)."""
    if None in changed.values():
        return None
    teams: dict[int, list[int]] = {}
    rows = db.session.execute(
        select(TeamMember.team_id, TeamMember.player_id)
        .join(Team, Team.id == TeamMember.team_id)
        .where(Team.game_id.in_(sorted(changed)))
    )
    for team_id, player_id in rows:
        teams.setdefault(team_id, []).append(player_id)
    return [tuple(sorted(players)) for players in teams.values()]


def _lines(
    season_id: int | None, previous: _Computed | None, changed: dict[int, date | None] | None
) -> tuple[dict[int, Line], dict[tuple[int, ...], Line]]:
    """Every player's and partnership's line, keyed by their ids.

    With ``previous`` lines and the games ``changed`` since, only the lines of those games'
    players and partnerships are aggregated again; the rest are ``previous``'s own (no other
    line counts a changed game). Otherwise every line is aggregated.
    """
    teams = _teams_of(changed) if previous is not None and changed is not None else None
    players: dict[int, Line] = {}
    partnerships: dict[tuple[int, ...], Line] = {}
    touched: set[int] | None = None
    pairs: set[tuple[int, ...]] | None = None
    if previous is not None and teams is not None:
        touched = {player for team in teams for player in team}
        pairs = {team for team in teams if len(team) >= 2}
        players = {
            line.players[0]: line for line in previous.players if line.players[0] not in touched
        }
        partnerships = {
            line.players: line for line in previous.partnerships if line.players not in pairs
        }
    # The lines aggregated again are not among the kept ones: each starts afresh.
    for row in db.session.execute(_player_rows(season_id, touched)):
        players.setdefault(row.player_id, Line(players=(row.player_id,))).add(row)
    if pairs is None or pairs:
        # Every partnership with one of the changed ones' lowest players comes back whole;
        # only the changed ones are kept.
        lowest = None if pairs is None else {team[0] for team in pairs}
        for row in db.session.execute(_partnership_rows(season_id, lowest)):
            ids = partnership_ids(row.size, row.lo, row.hi, int(row.ids), int(row.squares))
            if pairs is None or ids in pairs:
                partnerships.setdefault(ids, Line(players=ids)).add(row)
    return players, partnerships


def _compute(
    season_id: int | None,
    previous: _Computed | None,
    changed: dict[int, date | None] | None = None,
) -> _Computed:
    """The standings of a scope: from nothing, or from ``previous`` and the games ``changed``
    since it was computed (see :func:`scorekeeper.services.summaries.changed_games`)."""
    players, partnerships = _lines(season_id, previous, changed)
    before = previous.ratings if previous is not None else None
    ratings = rate_games(_games_to_rate(season_id, before, changed), before)

    def partners(line: Line) -> int | None:
        shown = [r for p in line.players if (r := ratings.display(p)) is not None]
        # A partnership's rating: the mean of its players' ratings (a tie-breaker only).
        return round(sum(shown) / len(shown)) if shown else None

    def rated(line: Line, rating: int | None) -> Line:
        # A line kept from before is shared with the standings cached then, which other
        # requests may be reading: one whose rating moved is copied, never changed.
        return line if line.rating == rating else replace(line, rating=rating)

    return _Computed(
        [rated(players[key], ratings.display(key)) for key in sorted(players)],
        [rated(line, partners(line)) for _, line in sorted(partnerships.items())],
        ratings,
    )


def _computed(season_id: int | None) -> _Computed:
    """The standings of a scope, from the cache while nothing they depend on has changed."""
    if not current_app.config.get("STANDINGS_CACHE", True):
        return _compute(season_id, None)
    key = (str(db.engine.url), season_id)
    stamp = fingerprint()
    with _cache_lock:
        cached = _cache.get(key)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    if cached is None:
        computed = _compute(season_id, None)
    else:
        changed = summaries.changed_games(cached[0][0], stamp[0])
        computed = _compute(season_id, cached[1], changed)
    with _cache_lock:
        _cache[key] = (stamp, computed)
        while len(_cache) > _CACHE_ENTRIES:
            _cache.pop(next(iter(_cache)))
    return computed


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()
        _player_cache.clear()


# ---------------------------------------------------------------------------
# Public


@dataclass(frozen=True)
class Standings:
    season: Season | None
    players: list[Line]
    partnerships: list[Line]
    ratings: Ratings
    names: dict[int, str]
    sort: str = DEFAULT_SORT

    @property
    def games(self) -> int:
        return len(self.ratings.games)

    @property
    def player_places(self) -> list[int]:
        return places(self.players, self.sort)

    @property
    def partnership_places(self) -> list[int]:
        return places(self.partnerships, self.sort)


def player_names() -> dict[int, str]:
    return {
        player_id: name for player_id, name in db.session.execute(select(Player.id, Player.name))
    }


def get_season(season_id: int) -> Season:
    season = db.session.get(Season, season_id) if 0 < season_id <= LARGEST_ID else None
    if season is None:
        raise NotFound.say(N_("There is no season %(id)s."), field="season", id=season_id)
    return season


def season_game_count(season_id: int) -> int:
    """The games (not deleted) of a season, finished or not."""
    return int(
        db.session.scalar(
            select(func.count())
            .select_from(Game)
            .where(Game.season_id == season_id, Game.deleted_at.is_(None))
        )
        or 0
    )


def standings(season_id: int | None = None, sort: str = DEFAULT_SORT) -> Standings:
    """Players' and partnerships' standings of a season (or of all time), sorted by ``sort``."""
    season = get_season(season_id) if season_id is not None else None
    computed = _computed(season_id)
    names = player_names()
    return Standings(
        season=season,
        players=_named(computed.players, names, sort),
        partnerships=_named(computed.partnerships, names, sort),
        ratings=computed.ratings,
        names=names,
        sort=sort,
    )


def _named(lines: list[Line], names: dict[int, str], sort: str = DEFAULT_SORT) -> list[Line]:
    """Cached lines with their players' names as they are now, sorted by ``sort``."""
    return sort_lines(
        (replace(line, names=tuple(names.get(p, "?") for p in line.players)) for line in lines),
        sort,
    )


@dataclass(frozen=True)
class SeasonSummary:
    season: Season
    games: int


def seasons() -> list[SeasonSummary]:
    """Every season, newest first, with its number of counted games: one query."""
    counted = (
        select(Game.season_id, func.count().label("games"))
        .where(*_counted(None))
        .group_by(Game.season_id)
        .subquery()
    )
    rows = db.session.execute(
        select(Season, func.coalesce(counted.c.games, 0))
        .outerjoin(counted, counted.c.season_id == Season.id)
        .order_by(Season.starts_on.desc().nulls_last(), Season.id.desc())
    ).all()
    return [SeasonSummary(season, int(games)) for season, games in rows]


# ---------------------------------------------------------------------------
# A player's own page


@dataclass(frozen=True)
class Record:
    """A player's record with a partner or against an opponent."""

    player_id: int
    name: str
    games: int
    won: int  # with a partner: wins in WIN_UNITS; against an opponent: games finished ahead
    lost: int = 0  # against an opponent: games finished behind
    points: int = 0

    @property
    def wins(self) -> Fraction:
        return Fraction(self.won, WIN_UNITS)

    @property
    def tied(self) -> int:
        return self.games - self.won - self.lost

    @property
    def win_share(self) -> float:
        """With a partner: the share of games won (0 to 1)."""
        return self.won / (WIN_UNITS * self.games) if self.games else 0.0

    @property
    def average_per_game(self) -> float:
        return self.points / self.games if self.games else 0.0


@dataclass(frozen=True)
class RecentGame:
    game_id: int
    played_on: date
    ruleset_id: str
    total: int
    margin: int
    win_units: int

    @property
    def result(self) -> str:
        if self.win_units == WIN_UNITS:
            return "won"
        return "shared" if self.win_units else "lost"


@dataclass(frozen=True)
class Bucket:
    low: int
    high: int  # exclusive
    games: int


@dataclass(frozen=True)
class PlayerStats:
    player: Player
    line: Line | None
    rank: int | None
    partners: list[Record]
    opponents: list[Record]
    recent: list[RecentGame]
    history: list[RatingPoint]
    distribution: list[Bucket]


RECENT_GAMES = 20
BUCKETS = 10


def _nice_width(span: int, buckets: int) -> int:
    """A round bucket width (5, 10, 25, 50, 100, 250, ...) giving about ``buckets`` buckets."""
    raw = max(span / buckets, 1)
    magnitude = 10 ** max(math.floor(math.log10(raw)), 0)
    for step in (1, 2.5, 5, 10):
        width = int(step * magnitude)
        if width >= raw and width % 5 == 0:
            return width
    return int(10 * magnitude)


@dataclass(frozen=True)
class _PlayerFigures:
    """The parts of a player's page found from their own games, as cached."""

    partners: list[Record]
    opponents: list[Record]
    recent: list[RecentGame]
    distribution: list[Bucket]


_player_cache: dict[tuple[str, int], tuple[tuple[Any, ...], _PlayerFigures]] = {}


def player_stats(player_id: int) -> PlayerStats:
    """Everything the player's page shows, all time, in a fixed number of queries.

    The figures from the player's own games are cached like the standings (a regular's
    games run into the thousands), and dropped when :func:`fingerprint` changes. Names are
    read on every request, so a renamed partner never shows the old name.
    """
    player = db.session.get(Player, player_id) if 0 < player_id <= LARGEST_ID else None
    if player is None:
        raise NotFound.say(N_("There is no player %(id)s."), field="player", id=player_id)
    # All-time standings, the players' lines alone: the partnerships are not shown here.
    computed = _computed(None)
    names = player_names()
    lines = _named(computed.players, names)
    line = next((line for line in lines if line.players == (player_id,)), None)
    rank = places(lines)[lines.index(line)] if line else None
    figures = _cached_player_figures(player_id, line, names)

    def named(records: list[Record]) -> list[Record]:
        return [replace(rec, name=names.get(rec.player_id, "?")) for rec in records]

    partners, opponents = named(figures.partners), named(figures.opponents)
    partners.sort(key=lambda rec: (-rec.games, -rec.won, rec.name.casefold()))
    opponents.sort(key=lambda rec: (-rec.games, rec.name.casefold()))
    return PlayerStats(
        player=player,
        line=line,
        rank=rank,
        partners=partners,
        opponents=opponents,
        recent=figures.recent,
        history=computed.ratings.points(player_id),
        distribution=figures.distribution,
    )


def _cached_player_figures(
    player_id: int, line: Line | None, names: dict[int, str]
) -> _PlayerFigures:
    if not current_app.config.get("STANDINGS_CACHE", True):
        return _player_figures(player_id, line, names)
    key = (str(db.engine.url), player_id)
    stamp = fingerprint()
    with _cache_lock:
        cached = _player_cache.get(key)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    figures = _player_figures(player_id, line, names)
    with _cache_lock:
        _player_cache[key] = (stamp, figures)
        while len(_player_cache) > _CACHE_ENTRIES:
            _player_cache.pop(next(iter(_player_cache)))
    return figures


def _player_figures(player_id: int, line: Line | None, names: dict[int, str]) -> _PlayerFigures:
    # Only the player's games: every figure of a team depends on its own game alone.
    # Lists of ids on their own (correlate(None): never tied to an outer row), each driven
    # from the player's memberships through the indexes.
    my_teams = select(TeamMember.team_id).where(TeamMember.player_id == player_id).correlate(None)
    my_games = (
        select(Team.game_id)
        .join(TeamMember, TeamMember.team_id == Team.id)
        .where(TeamMember.player_id == player_id)
        .correlate(None)
    )
    ranked = _ranked(None, my_games)
    r = ranked.c
    mine = r.team_id.in_(my_teams)
    # Each team beside the player's own team's total in the same game: partners and
    # opponents come from one pass over the members, without joining the games to themselves.
    beside = select(
        r.team_id,
        r.total,
        r.win_units,
        case((mine, 1), else_=0).label("mine"),
        func.max(case((mine, r.total))).over(partition_by=r.game_id).label("my_total"),
    ).subquery("beside")
    b = beside.c
    partners, opponents = [], []
    for pid, is_mine, games, won, points, ahead, behind in db.session.execute(
        select(
            TeamMember.player_id,
            b.mine,
            func.count(),
            func.sum(b.win_units),
            func.sum(b.total),
            func.sum(case((b.total < b.my_total, 1), else_=0)),
            func.sum(case((b.total > b.my_total, 1), else_=0)),
        )
        .select_from(beside.join(TeamMember, TeamMember.team_id == b.team_id))
        .where(TeamMember.player_id != player_id)
        .group_by(TeamMember.player_id, b.mine)
    ):
        name = names.get(pid, "?")
        if is_mine:
            partners.append(Record(pid, name, int(games), int(won or 0), 0, int(points or 0)))
        else:
            # Against an opponent: games the player's team finished ahead of theirs, behind.
            opponents.append(Record(pid, name, int(games), int(ahead or 0), int(behind or 0)))

    # The latest games alone: their figures need nothing from the older ones.
    latest = (
        select(Game.id)
        .select_from(TeamMember)
        .join(Team, Team.id == TeamMember.team_id)
        .join(Game, Game.id == Team.game_id)
        .where(TeamMember.player_id == player_id, *_counted(None))
        .order_by(Game.played_on.desc(), Game.id.desc())
        .limit(RECENT_GAMES)
        .correlate(None)
    )
    recent_ranked = _ranked(None, latest).c
    recent = [
        RecentGame(game_id, played_on, ruleset_id, int(total), int(margin), int(win_units))
        for game_id, played_on, ruleset_id, total, margin, win_units in db.session.execute(
            select(
                recent_ranked.game_id,
                recent_ranked.played_on,
                recent_ranked.ruleset_id,
                recent_ranked.total,
                recent_ranked.margin,
                recent_ranked.win_units,
            )
            .where(recent_ranked.team_id.in_(my_teams))
            .order_by(recent_ranked.played_on.desc(), recent_ranked.game_id.desc())
        )
    ]
    return _PlayerFigures(
        partners=partners,
        opponents=opponents,
        recent=recent,
        distribution=_distribution(line, _team_totals(None, teams=my_teams)),
    )


def _distribution(line: Line | None, totals: Subquery) -> list[Bucket]:
    """The player's game totals counted in round-width buckets (a histogram), in SQL."""
    if line is None or line.best is None or line.worst is None:
        return []
    width = _nice_width(line.best - line.worst, BUCKETS)
    start = math.floor(line.worst / width) * width
    # Every total is at least ``start``, so integer division is the floor on every database.
    bucket = (totals.c.total - start) // literal(width, Integer)
    rows = db.session.execute(select(bucket.label("bucket"), func.count()).group_by("bucket")).all()
    counts = {int(b): int(n) for b, n in rows}
    last = max(counts, default=0)
    return [
        Bucket(start + i * width, start + (i + 1) * width, counts.get(i, 0))
        for i in range(last + 1)
    ]


# ---------------------------------------------------------------------------
# What if: the same tallies scored under other rules. Nothing is written.


@dataclass(frozen=True)
class WhatIfDeal:
    number: int
    old: list[int]
    new: list[int]
    problems: list[Problem]


@dataclass(frozen=True)
class WhatIfGame:
    game_id: int
    played_on: date
    old_rules: RuleSet
    new_rules: RuleSet
    team_names: list[str]
    team_players: list[list[int]]
    deals: list[WhatIfDeal]

    @property
    def old_totals(self) -> list[int]:
        return [sum(d.old[i] for d in self.deals) for i in range(len(self.team_names))]

    @property
    def new_totals(self) -> list[int]:
        return [sum(d.new[i] for d in self.deals) for i in range(len(self.team_names))]

    @staticmethod
    def _leaders(totals: list[int]) -> list[int]:
        best = max(totals, default=0)
        return [i for i, total in enumerate(totals) if total == best]

    @property
    def old_winners(self) -> list[int]:
        return self._leaders(self.old_totals)

    @property
    def new_winners(self) -> list[int]:
        return self._leaders(self.new_totals)

    @property
    def old_winner_names(self) -> list[str]:
        return [self.team_names[i] for i in self.old_winners]

    @property
    def new_winner_names(self) -> list[str]:
        return [self.team_names[i] for i in self.new_winners]

    @property
    def winner_changed(self) -> bool:
        return self.old_winners != self.new_winners

    @property
    def flagged(self) -> bool:
        return any(deal.problems for deal in self.deals)


def _rules_of(game: Game, parsed: dict[str, RuleSet]) -> RuleSet:
    """The game's own rules, read once per distinct ruleset (a season shares a few)."""
    key = json.dumps(game.ruleset, sort_keys=True)
    if key not in parsed:
        parsed[key] = game.rules()
    return parsed[key]


def _rescore(game: Game, other: RuleSet | None, parsed: dict[str, RuleSet]) -> WhatIfGame:
    own = _rules_of(game, parsed)
    rules = other or own
    names = [team.name for team in game.teams]
    deals = []
    for deal in game.deals:
        tallies = [result.tally(names[result.position]) for result in deal.results]
        deals.append(
            WhatIfDeal(
                number=deal.number,
                old=[result.score for result in deal.results],
                new=[score_team(rules, tally).score for tally in tallies],
                problems=validate_deal(rules, deal.number, tallies, game.decks, game.team_sizes),
            )
        )
    return WhatIfGame(
        game_id=game.id,
        played_on=game.played_on,
        old_rules=own,
        new_rules=rules,
        team_names=names,
        team_players=[[m.player_id for m in team.members] for team in game.teams],
        deals=deals,
    )


def _load_games(*conditions: Any) -> list[Game]:
    return list(
        db.session.scalars(
            select(Game)
            .where(*conditions)
            .order_by(Game.played_on, Game.id)
            .options(
                selectinload(Game.teams).selectinload(Team.members),
                selectinload(Game.deals).selectinload(Deal.results),
            )
        )
    )


def what_if_game(game_id: int, ruleset: Any = None) -> WhatIfGame:
    """A finished game's deals re-scored under ``ruleset``; deals invalid there are flagged.

    ``ruleset`` is anything :func:`rulesets.resolve` takes; None scores the game under its
    own rules (nothing changes: the page's starting point).
    """
    rules = rulesets.resolve(ruleset) if ruleset is not None else None
    games = (
        _load_games(Game.id == game_id, Game.deleted_at.is_(None))
        if 0 < game_id <= LARGEST_ID
        else []
    )
    if not games:
        raise NotFound.say(N_("There is no game %(id)s."), field="game", id=game_id)
    if games[0].finished_at is None:
        raise Conflict.say(
            N_("Only a finished game can be scored under other rules."), field="game"
        )
    return _rescore(games[0], rules, {})


@dataclass
class WhatIfLine:
    """A player's season under the rules played and under the other rules."""

    player_id: int
    name: str
    games: int = 0
    old_wins: int = 0  # in WIN_UNITS
    new_wins: int = 0
    old_points: int = 0
    new_points: int = 0
    old_rank: int = 0
    new_rank: int = 0


@dataclass(frozen=True)
class WhatIfSeason:
    season: Season
    rules: RuleSet | None  # None: every game under its own rules
    games: list[WhatIfGame]
    players: list[WhatIfLine]


def _shares(totals: list[int]) -> list[int]:
    best = max(totals)
    level = totals.count(best)
    return [WIN_UNITS // level if total == best else 0 for total in totals]


def _rank(lines: Sequence[WhatIfLine], wins: str, points: str) -> list[int]:
    """Competition ranks by wins, then points."""
    keys = [(getattr(line, wins), getattr(line, points)) for line in lines]
    return [1 + sum(other > key for other in keys) for key in keys]


def what_if_season(season_id: int, ruleset: Any = None) -> WhatIfSeason:
    """Every counted game of a season re-scored under ``ruleset``, and the standings it gives."""
    season = get_season(season_id)
    rules = rulesets.resolve(ruleset) if ruleset is not None else None
    parsed: dict[str, RuleSet] = {}
    games = [_rescore(game, rules, parsed) for game in _load_games(*_counted(season_id))]
    names = player_names()
    lines: dict[int, WhatIfLine] = {}
    for game in games:
        old_shares, new_shares = _shares(game.old_totals), _shares(game.new_totals)
        for i, players in enumerate(game.team_players):
            for player_id in players:
                line = lines.setdefault(player_id, WhatIfLine(player_id, names.get(player_id, "?")))
                line.games += 1
                line.old_wins += old_shares[i]
                line.new_wins += new_shares[i]
                line.old_points += game.old_totals[i]
                line.new_points += game.new_totals[i]
    ordered = list(lines.values())
    for line, old, new in zip(
        ordered,
        _rank(ordered, "old_wins", "old_points"),
        _rank(ordered, "new_wins", "new_points"),
        strict=True,
    ):
        line.old_rank, line.new_rank = old, new
    ordered.sort(key=lambda line: (line.new_rank, line.name.casefold()))
    return WhatIfSeason(season=season, rules=rules, games=games, players=ordered)
