"""Data that leaves and comes back: export as JSON or CSV, and import an export.

The JSON export is complete (players, seasons, house rules, and every game with its ruleset
snapshot, teams, deals with every tally field and corrections) and carries
:data:`FORMAT` and :data:`VERSION`. Importing it:

- checks the **whole** document first and refuses it as a whole, naming every problem and
  where it is (a JSON path such as ``games[2].deals[0].teams[1].melded``); nothing is written;
- matches what is already there: players and seasons by name (case-insensitively), house
  rules by their id (slug), games by their ``uid``. Existing ones are kept as they are and
  counted as skipped, so importing the same file twice adds nothing the second time;
- re-scores every deal with the game's own rules (the scores in the file must agree), so the
  stored scores are exactly what :mod:`.games` would have stored;
- writes everything in one transaction and drops the cached standings.

Games are imported in the order they were played (date, then their order in the file), which
is the order ratings are computed in: a round trip into an empty database gives the same
standings and ratings.

The CSV export is a zip with one CSV file per table, for a spreadsheet; any text cell that a
spreadsheet would read as a formula is neutralised (see :func:`safe_cell`).

An export is read in a fixed number of queries whatever the number of games, from one
snapshot of the database, a game at a time: the JSON is sent while it is read (see
:class:`Export`).
"""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
import zipfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from functools import partial
from typing import Any

from sqlalchemy import (
    JSON,
    Connection,
    CursorResult,
    Dialect,
    Row,
    Select,
    Text,
    TypeDecorator,
    and_,
    cast,
    func,
    not_,
    select,
    type_coerce,
    update,
)
from sqlalchemy.exc import IntegrityError

from scorekeeper import memory
from scorekeeper.extensions import as_utc, db, read_json, unstorable_text
from scorekeeper.jsontext import IndentedJson
from scorekeeper.models import (
    LARGEST_ID,
    Correction,
    Deal,
    DealResult,
    Game,
    HouseRules,
    Player,
    Season,
    Team,
    TeamMember,
    check_kept,
    rules_of,
    utcnow,
)
from scorekeeper.rules import (
    PRESETS,
    CardClass,
    Problem,
    RuleSet,
    RuleSetError,
    TallyError,
    TeamTally,
    read_team,
    score_team,
    validate_deal,
)
from scorekeeper.rules.i18n import N_, NP_, Phrase, Template
from scorekeeper.rules.tally import BOUNDS, COUNT_FIELDS, NAME_LONGEST

from . import standings, summaries
from .errors import Conflict, DamagedDeal, DamagedRules, Invalid, NotFound
from .games import TRACKED_FIELDS, ResultView, read_logged, score_deals, seating_problems
from .names import name_key, trimmed

FORMAT = "scorekeeper-export"
VERSION = 1
# Text cells a spreadsheet reads as a formula (or as the start of one).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")
_UID = re.compile(r"[0-9a-f]{32}")
# Problems listed in one refusal; a file broken everywhere need not list ten thousand.
MOST_PROBLEMS = 50
# An export of years of Saturday nights is a few megabytes.
DEFAULT_IMPORT_MAX_BYTES = 32 * 1024 * 1024


def import_limit(config: Mapping[str, Any]) -> int:
    """The largest file or body an import reads: ``IMPORT_MAX_BYTES`` of the app's config."""
    return int(config.get("IMPORT_MAX_BYTES", DEFAULT_IMPORT_MAX_BYTES))


# ---------------------------------------------------------------------------
# Export
#
# The export is read as plain rows: one query per table whatever the number of games, each
# table's rows in the order the games are written out (date, then id). A game is put
# together from its rows as it is written out, so ten thousand games never sit in memory at
# once, and every view can send the export while it is being read.


def _stamp(value: datetime | None) -> str | None:
    return None if value is None else as_utc(value).isoformat()


def _day(value: date | None) -> str | None:
    return value.isoformat() if value else None


class _StoredJson(TypeDecorator[Any]):
    """A JSON column of a tally, read for the export: most rows hold texts that need no parser."""

    impl = Text
    cache_ok = True

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        if not isinstance(value, str):  # PostgreSQL's driver reads JSON itself
            return value
        if value == "null":
            return None
        if value == "{}":
            return {}
        # Not JSON at all (SQLite, by hand): refused by name before the export is written.
        return read_json(value)


_GAME_ORDER = (Game.played_on, Game.id)
# Every row carries its game's date and id: the key the games are written out in.
_GAME_ROWS = (
    select(
        Game.id.label("game_id"),
        Game.played_on,
        Game.uid,
        Season.name.label("season"),
        Game.ruleset_id,
        # As text: the rules are read once for each different text (a club has a few).
        cast(Game.ruleset, Text).label("ruleset"),
        Game.decks,
        Game.first_dealer_seat,
        Game.created_at,
        Game.finished_at,
        Game.abandoned_at,
        Game.deleted_at,
    )
    .outerjoin(Season, Season.id == Game.season_id)
    .order_by(*_GAME_ORDER)
)
# Outer joins: a team without players or a deal without results is still written out.
_TEAM_ROWS = (
    select(
        Game.id.label("game_id"),
        Game.played_on,
        Team.position,
        Team.name,
        Player.name.label("player"),
    )
    .join(Team, Team.game_id == Game.id)
    .outerjoin(TeamMember, TeamMember.team_id == Team.id)
    .outerjoin(Player, Player.id == TeamMember.player_id)
    .order_by(*_GAME_ORDER, Team.position, TeamMember.seat)
)
# What a tally is read from (models.stored_tally): every column of a result but its keys
# and its cached score, which the export computes again with the game's rules.
_TALLY_COLUMNS = [
    type_coerce(column, _StoredJson()).label(column.key)
    if isinstance(column.type, JSON)
    else column
    for column in DealResult.__table__.columns
    if column.key not in ("id", "deal_id", "team_id", "position", "score")
]
_DEAL_ROWS = (
    select(
        Game.id.label("game_id"),
        Game.played_on,
        Deal.number,
        Deal.version,
        Deal.created_at,
        Deal.updated_at,
        DealResult.position,
        *_TALLY_COLUMNS,
    )
    .join(Deal, Deal.game_id == Game.id)
    .outerjoin(DealResult, DealResult.deal_id == Deal.id)
    .order_by(*_GAME_ORDER, Deal.number, DealResult.position)
)
_CORRECTION_ROWS = (
    select(
        Game.id.label("game_id"),
        Game.played_on,
        Correction.deal_number,
        Correction.batch,
        Correction.team_position,
        Correction.field,
        Correction.old_value,
        Correction.new_value,
        Correction.created_at,
        Correction.undone_at,
    )
    .join(Correction, Correction.game_id == Game.id)
    .order_by(*_GAME_ORDER, Correction.id)
)
# What a tally keeps as JSON, the rows that keep anything there: read before an export is
# written out, so one that no longer reads is refused by name, not halfway through the games.
_JSON_COLUMNS = [column for column in DealResult.__table__.columns if isinstance(column.type, JSON)]
# The columns of _DEAL_ROWS that a tally's check reads, no more: the rest of those rows
# (versions, dates, counts of books) made the export 0.4 s slower at 10,000 games.
_CHECKED = {"melded_points", "left_points", *(column.key for column in _JSON_COLUMNS)}
# Most rows keep nothing there: cards as points (JSON null), no special book. Those read
# whatever else the row holds and are left to the database to pass over (9 in 10 of the
# demo's rows: the export took a third longer when Python read each of them).
_KEEPS_NOTHING = and_(
    *(
        cast(column, Text) == ("{}" if column.key == "special_books" else "null")
        for column in _JSON_COLUMNS
    )
)
_KEPT_TALLIES = (
    select(
        Game.id.label("game_id"),
        Deal.number,
        DealResult.position,
        Team.name,
        *(column for column in _TALLY_COLUMNS if column.key in _CHECKED),
    )
    .join(Deal, Deal.game_id == Game.id)
    .join(DealResult, DealResult.deal_id == Deal.id)
    # Outer: a tally whose team row is gone too is still read, and named by its place.
    .outerjoin(Team, Team.id == DealResult.team_id)
    .where(not_(_KEEPS_NOTHING))
    .order_by(*_GAME_ORDER, Deal.number, DealResult.position)
)
# Every different copy of the rules the games keep, once, with the first game keeping it.
_RULESET_TEXT = cast(Game.ruleset, Text)
_RULESETS_KEPT = (
    select(
        _RULESET_TEXT.label("ruleset"),
        func.min(Game.id).label("game_id"),
        func.count().label("games"),
        func.min(Game.ruleset_id).label("ruleset_id"),
    )
    .group_by(_RULESET_TEXT)
    .order_by(func.min(Game.id))
)
# Rows fetched at a time; on PostgreSQL through a server-side cursor.
_BATCH = 1000
# Characters of JSON handed on at a time: a few dozen games.
_CHUNK = 64 * 1024
# Rulesets kept read while games are written out, by the text a game keeps them as.
_RULESETS = 64


class _GameRows:
    """One table's rows in the games' order, handed over a game at a time."""

    def __init__(self, rows: Iterator[Row[Any]]) -> None:
        self._rows = rows
        self._next = next(rows, None)

    def of(self, game: Row[Any]) -> list[Row[Any]]:
        key = (game.played_on, game.game_id)
        # Within one snapshot every row belongs to a game the games' query read; passing over
        # any other keeps one stray row from holding back the rows of every later game.
        while self._next is not None and (self._next.played_on, self._next.game_id) < key:
            self._next = next(self._rows, None)
        found = []
        while self._next is not None and self._next.game_id == game.game_id:
            found.append(self._next)
            self._next = next(self._rows, None)
        return found


def _snapshot() -> Connection:
    """A connection of the export's own, in a transaction that reads one moment of the database.

    An export is written out while it is read, which takes seconds for years of games: a
    deal, a game or a player saved meanwhile must be in it whole or not at all. Of the two
    ways, one transaction held open for the whole export is chosen over reading every row
    before the first byte is sent: that would hold every game's rows in memory at once, the
    very thing the export streams to avoid. Holding it open costs little: on SQLite, in WAL
    mode (see ``extensions``), a reader never blocks the scorer, and the snapshot is the read
    transaction; on PostgreSQL, REPEATABLE READ gives the snapshot (READ COMMITTED would give
    each query its own), and readers block no writer there either.

    The connection is not the request's session's: Flask ends the request, and removes its
    session, as soon as the view returns, before the first byte of a streamed response is
    sent. An export is what is saved: whatever the session has not committed is not in it.
    """
    engine = db.engine
    connection = engine.connect()
    try:
        if engine.dialect.name == "postgresql":
            connection.execution_options(isolation_level="REPEATABLE READ")
        elif engine.dialect.name == "sqlite" and not _in_transaction(connection):
            # Python's sqlite3 begins a transaction only before a write: each SELECT would read
            # the database as it was at that moment, not as it was at the first.
            connection.exec_driver_sql("BEGIN")
    except BaseException:
        # Nobody else holds the connection yet: given back here, or never.
        connection.close()
        raise
    return connection


def _in_transaction(connection: Connection) -> bool:
    """Whether SQLite already has a transaction open on the connection: then it is the snapshot.

    A second BEGIN would fail ("cannot start a transaction within a transaction"), as it
    would on a sqlite3 connection opened with ``autocommit=False`` (Python 3.12), which is
    always in one. Only sqlite3 tells; with any other driver BEGIN is sent as before.
    """
    dbapi_connection = connection.connection.dbapi_connection
    return isinstance(dbapi_connection, sqlite3.Connection) and dbapi_connection.in_transaction


def _readable_rules(text: str, game_id: int) -> RuleSet:
    """A game's rules from the text of its copy; DamagedRules when it does not read."""
    return rules_of(read_json(text), game_id)


def _result_json(result: ResultView) -> dict[str, Any]:
    """One team's tally of a deal in its JSON form (no name), with its score."""
    data = result.tally.to_json()
    del data["name"]
    data["score"] = result.score.score
    return data


def _game_json(
    game: Row[Any],
    rules: RuleSet,
    teams: Sequence[Row[Any]],
    deals: Sequence[Row[Any]],
    corrections: Sequence[Row[Any]],
) -> dict[str, Any]:
    """One game of the export from its rows, every deal scored by the game's own rules."""
    sides: list[dict[str, Any]] = []
    position = None
    for row in teams:
        if not sides or row.position != position:
            position = row.position
            sides.append({"name": row.name, "players": []})
        if row.player is not None:
            sides[-1]["players"].append(row.player)
    firsts: list[Row[Any]] = []
    results: list[list[Row[Any]]] = []
    for row in deals:
        if not firsts or row.number != firsts[-1].number:
            firsts.append(row)
            results.append([])
        if row.position is not None:
            results[-1].append(row)
    scored = score_deals(
        rules,
        [side["name"] for side in sides],
        [(first.number, first.version, rows) for first, rows in zip(firsts, results, strict=True)],
        game.game_id,
    )
    return {
        "uid": game.uid,
        "played_on": _day(game.played_on),
        "season": game.season,
        "ruleset_id": game.ruleset_id,
        "ruleset": json.loads(game.ruleset),
        "decks": game.decks,
        "first_dealer_seat": game.first_dealer_seat,
        "created_at": _stamp(game.created_at),
        "finished_at": _stamp(game.finished_at),
        "abandoned_at": _stamp(game.abandoned_at),
        "deleted_at": _stamp(game.deleted_at),
        "teams": sides,
        "deals": [
            {
                "number": deal.number,
                "version": deal.version,
                "created_at": _stamp(first.created_at),
                "updated_at": _stamp(first.updated_at),
                "teams": [_result_json(result) for result in deal.results],
            }
            for first, deal in zip(firsts, scored, strict=True)
        ],
        "totals": list(scored[-1].running) if scored else [0] * len(sides),
        "corrections": [
            {
                "deal": c.deal_number,
                "batch": c.batch,
                "team": c.team_position,
                "field": c.field,
                "old": read_logged(c.old_value),
                "new": read_logged(c.new_value),
                "created_at": _stamp(c.created_at),
                "undone_at": _stamp(c.undone_at),
            }
            for c in corrections
        ],
    }


class Export:
    """An export being read, all of it from one snapshot: its header, then its games.

    Opening it (:func:`open_export`) reads the header and every copy of the rules its games
    keep, so an unknown season or damaged rules are refused before anything is written out;
    its games are read while they are written out. It holds a connection until it is closed
    (``with``, :meth:`close`, or the end of :meth:`json_chunks`).
    """

    def __init__(self, season_id: int | None) -> None:
        self._season_id = season_id
        self._connection = _snapshot()
        # House rules of the header that no longer read: refused with the games' damaged rules.
        self._damaged_house: list[Problem] = []
        try:
            self.header = self._header(season_id)
            self._check_rules()
            self._check_deals()
        except BaseException:
            self.close()
            raise

    def _check_rules(self) -> None:
        """Read every copy of the rules the exported games keep: one that cannot be read is
        refused now, before anything is written out, not halfway through the games. Damaged
        house rules of the header (see :meth:`_house_rules_json`) are named with them.

        The games are scored again with their rules as they are written out; a download cut
        short by a damaged copy would look like a whole one that merely ended early.
        """
        query = _RULESETS_KEPT
        if self._season_id is not None:
            query = query.where(Game.season_id == self._season_id)
        problems = list(self._damaged_house)
        for kept in self._connection.execute(query):
            try:
                _readable_rules(kept.ruleset, kept.game_id)
            except (ValueError, DamagedRules):  # not JSON, or not rules this app can read
                problems.append(
                    Problem(
                        None,
                        "",
                        NP_(
                            "The rules kept with game %(game)d (%(ruleset)s) are damaged and "
                            "cannot be read; the export needs them to score its deals.",
                            "The rules kept with %(count)d games (%(ruleset)s, the first of "
                            "them game %(game)d) are damaged and cannot be read; the export "
                            "needs them to score their deals.",
                        ),
                        {"ruleset": kept.ruleset_id, "game": kept.game_id, "count": kept.games},
                    )
                )
        if problems:
            raise Conflict(problems)

    def _check_deals(self) -> None:
        """Read every tally the exported games keep as JSON (see :meth:`_check_rules`): one
        that no longer reads is refused now, named, not halfway through the games; an export
        without it could not be imported again."""
        query = _KEPT_TALLIES
        if self._season_id is not None:
            query = query.where(Game.season_id == self._season_id)
        problems: list[Problem] = []
        for kept in self._connection.execute(query.execution_options(yield_per=_BATCH)):
            try:
                check_kept(kept, kept.name or "", kept.game_id, kept.number)
            except DamagedDeal as damaged:
                problems.append(
                    Problem(
                        kept.position,
                        "",
                        N_(
                            "What was entered for %(team)s in deal %(deal)d of game %(game)d "
                            "is damaged and cannot be read; the export needs it to score the "
                            "deal."
                        ),
                        {"team": damaged.who, "deal": kept.number, "game": kept.game_id},
                    )
                )
                if len(problems) >= MOST_PROBLEMS:
                    break
        if problems:
            raise Conflict(problems)

    def _header(self, season_id: int | None) -> dict[str, Any]:
        """Every top-level key of the document but "games", which comes last."""
        read = self._connection.execute
        seasons = select(Season.name, Season.starts_on, Season.ends_on, Season.created_at)
        players = select(Player.name, Player.created_at).order_by(Player.id)
        # As text: a copy damaged by hand is named in the refusal, not a crash while read.
        house = select(
            HouseRules.slug,
            HouseRules.name,
            cast(HouseRules.ruleset, Text).label("ruleset"),
            HouseRules.created_at,
            HouseRules.updated_at,
        ).order_by(HouseRules.id)
        season = None
        if season_id is not None:
            found = (
                read(seasons.where(Season.id == season_id)).one_or_none()
                if 0 < season_id <= LARGEST_ID
                else None
            )
            if found is None:
                raise NotFound.say(N_("There is no season %(id)s."), field="season", id=season_id)
            season = found
            in_season = Game.season_id == season_id
            seated = (
                select(TeamMember.player_id)
                .join(Team, Team.id == TeamMember.team_id)
                .join(Game, Game.id == Team.game_id)
                .where(in_season)
            )
            players = players.where(Player.id.in_(seated))
            house = house.where(HouseRules.slug.in_(select(Game.ruleset_id).where(in_season)))
        return {
            "format": FORMAT,
            "version": VERSION,
            "exported_at": _stamp(utcnow()),
            "season": season.name if season else None,
            "players": [
                {"name": p.name, "created_at": _stamp(p.created_at)} for p in read(players)
            ],
            "seasons": [
                {
                    "name": s.name,
                    "starts_on": _day(s.starts_on),
                    "ends_on": _day(s.ends_on),
                    "created_at": _stamp(s.created_at),
                }
                for s in ([season] if season else read(seasons.order_by(Season.id)))
            ],
            "house_rules": [self._house_rules_json(h) for h in read(house)],
        }

    def _house_rules_json(self, house: Row[*tuple[Any, ...]]) -> dict[str, Any]:
        """House rules in the header, their copy read: an export that could not be imported
        again (its import reads every house rules) is refused, naming the damaged ones."""
        ruleset: Any = None
        try:
            # The engine's reader: text that does not read as JSON comes back unreadable.
            ruleset = read_json(house.ruleset)
            RuleSet.from_dict(ruleset)
        except ValueError:  # not rules this app can read (a RuleSetError)
            self._damaged_house.append(
                Problem(
                    None,
                    "",
                    N_(
                        "The house rules “%(name)s” (%(ruleset)s) are damaged and cannot be "
                        "read; an export with them could not be imported again."
                    ),
                    {"name": house.name, "ruleset": house.slug},
                )
            )
        return {
            "id": house.slug,
            "name": house.name,
            "ruleset": ruleset,
            "created_at": _stamp(house.created_at),
            "updated_at": _stamp(house.updated_at),
        }

    def close(self) -> None:
        """End the snapshot and give the connection back (again: nothing happens).

        The rows and text of a whole export were freed as it went; the memory they took goes
        back to the system too, not kept by the server thread that sent it (see memory).
        """
        if self._connection.closed:
            return
        self._connection.close()
        memory.release()

    def __enter__(self) -> Export:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _rows(self, query: Select[*tuple[Any, ...]]) -> CursorResult[*tuple[Any, ...]]:
        if self._season_id is not None:
            query = query.where(Game.season_id == self._season_id)
        return self._connection.execute(query.execution_options(yield_per=_BATCH))

    def games(self) -> Iterator[dict[str, Any]]:
        """Every game of the export, in the order played (date, then id), one at a time."""
        results = [
            self._rows(_GAME_ROWS),
            self._rows(_TEAM_ROWS),
            self._rows(_DEAL_ROWS),
            self._rows(_CORRECTION_ROWS),
        ]
        rules: dict[str, RuleSet] = {}
        try:
            games, *tables = results
            teams, deals, corrections = (_GameRows(iter(rows)) for rows in tables)
            for game in games:
                if game.ruleset not in rules:
                    if len(rules) >= _RULESETS:
                        rules.clear()
                    rules[game.ruleset] = _readable_rules(game.ruleset, game.game_id)
                yield _game_json(
                    game,
                    rules[game.ruleset],
                    teams.of(game),
                    deals.of(game),
                    corrections.of(game),
                )
        finally:
            for result in results:
                result.close()

    def json_chunks(self, *, compact: bool = False) -> Iterator[str]:
        """The document as JSON text, a piece at a time: the text ``json.dumps`` would write.

        As a file, ``json.dumps(document, indent=1, ensure_ascii=False)``; ``compact``, as
        the API's JSON provider writes a returned dict: ``separators=(",", ":")``, ASCII
        only, and a newline at the end. The export is closed after the last piece, or when
        the pieces are dropped.
        """
        try:
            yield from self._json_chunks(compact)
        finally:
            self.close()

    def _json_chunks(self, compact: bool) -> Iterator[str]:
        # The header is written by json.dumps with no games: "games" is the last key, so only
        # closing brackets follow its "[]". Each game is dumped alone, at its depth.
        dump: Callable[[dict[str, Any]], str]
        if compact:
            dump = partial(json.dumps, separators=(",", ":"), ensure_ascii=True)
            head = dump({**self.header, "games": []}) + "\n"
            first, comma, last = "[", ",", "]"
        else:
            head = json.dumps({**self.header, "games": []}, indent=1, ensure_ascii=False)
            # A game is an item of a list in the document's top-level object: two deep.
            dump = partial(IndentedJson(1, ensure_ascii=False).dumps, depth=2)
            first, comma, last = "[\n  ", ",\n  ", "\n ]"
        cut = head.rindex("[]")
        pieces = [head[:cut]]
        size = 0
        games = 0
        for game in self.games():
            text = dump(game)
            pieces += (comma if games else first, text)
            games += 1
            size += len(text)
            if size >= _CHUNK:
                yield "".join(pieces)
                pieces, size = [], 0
        pieces.append((last if games else "[]") + head[cut + 2 :])
        yield "".join(pieces)


def open_export(season_id: int | None = None) -> Export:
    """Start an export of everything (or of one season: its games, their players and rules).

    Raises NotFound for an unknown season, before anything is read of the games, and
    Conflict when a game's copy of its rules cannot be read (see ``_check_rules``). Close the
    export when done with it (``with open_export() as export``), or take every piece of
    :meth:`Export.json_chunks`, which closes it.
    """
    return Export(season_id)


def export_document(season_id: int | None = None) -> dict[str, Any]:
    """Everything (or one season: its games, their players and rules) as one JSON document."""
    with open_export(season_id) as export:
        return {**export.header, "games": list(export.games())}


def export_json(season_id: int | None = None) -> str:
    """The export as ``json.dumps(export_document(), ensure_ascii=False, indent=1)`` writes it."""
    return "".join(open_export(season_id).json_chunks())


# ---------------------------------------------------------------------------
# CSV


def safe_cell(value: Any) -> Any:
    """A cell a spreadsheet shows as text, never runs: ``=1+1`` becomes ``'=1+1``.

    Numbers stay numbers, and so does text that is a plain number such as ``-50``.
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return value
    text = str(value)
    if text.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


class _CsvFile:
    """One CSV file of the zip, written a row at a time straight into UTF-8 bytes."""

    def __init__(self, header: Sequence[str]) -> None:
        self.data = io.BytesIO()
        self._text = io.TextIOWrapper(self.data, encoding="utf-8", newline="")
        # With a byte order mark, spreadsheets open the file as UTF-8 (accented names intact).
        self._text.write("\ufeff")
        self._writer = csv.writer(self._text, lineterminator="\r\n")
        self._writer.writerow(header)

    def row(self, values: Iterable[Any]) -> None:
        self._writer.writerow([safe_cell(value) for value in values])

    def rows(self, rows: Iterable[Iterable[Any]]) -> None:
        for values in rows:
            self.row(values)

    def finish(self) -> io.BytesIO:
        self._text.flush()
        # The bytes stay open for the zip; closing the text would close them too.
        self._text.detach()
        return self.data


def _state(game: Mapping[str, Any]) -> str:
    if game["deleted_at"] is not None:
        return "deleted"
    if game["abandoned_at"] is not None:
        return "abandoned"
    return "finished" if game["finished_at"] is not None else "in play"


CARD_COLUMNS = [card.value for card in CardClass]
DEAL_COLUMNS = [
    "game",
    "played_on",
    "season",
    "ruleset",
    "deal",
    "team",
    "team_name",
    "players",
    *COUNT_FIELDS,
    "special_books",
    "melded_points",
    *(f"melded_{card}" for card in CARD_COLUMNS),
    "left_points",
    *(f"left_{card}" for card in CARD_COLUMNS),
    "went_out",
    "opening_meld",
    "score",
    "running_total",
]


def export_csv(season_id: int | None = None) -> bytes:
    """A zip of CSV files: players, seasons, games, teams, deals (one row per team per deal)."""
    with open_export(season_id) as export:
        files = _csv_files(export)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, file in files.items():
            data = file.finish()
            with data.getbuffer() as view:
                archive.writestr(name, view)
            data.close()
    return buffer.getvalue()


def _csv_files(export: Export) -> dict[str, _CsvFile]:
    files = {
        "players.csv": _CsvFile(["name", "created_at"]),
        "seasons.csv": _CsvFile(["name", "starts_on", "ends_on"]),
        "games.csv": _CsvFile(
            [
                "game",
                "played_on",
                "season",
                "ruleset",
                "ruleset_name",
                "decks",
                "deals",
                "state",
                "winner",
                "teams",
            ]
        ),
        "teams.csv": _CsvFile(["game", "played_on", "team", "team_name", "players", "total"]),
        "deals.csv": _CsvFile(DEAL_COLUMNS),
        "corrections.csv": _CsvFile(
            ["game", "deal", "team", "field", "old", "new", "created_at", "undone_at"]
        ),
    }
    files["players.csv"].rows([p["name"], p["created_at"]] for p in export.header["players"])
    files["seasons.csv"].rows(
        [s["name"], s["starts_on"], s["ends_on"]] for s in export.header["seasons"]
    )
    # Every game once, each written into every file it has rows in.
    for g in export.games():
        files["games.csv"].row(
            [
                g["uid"],
                g["played_on"],
                g["season"],
                g["ruleset_id"],
                g["ruleset"].get("name", ""),
                g["decks"],
                len(g["deals"]),
                _state(g),
                _winner(g),
                " | ".join(t["name"] for t in g["teams"]),
            ]
        )
        files["teams.csv"].rows(
            [g["uid"], g["played_on"], i + 1, t["name"], ", ".join(t["players"]), g["totals"][i]]
            for i, t in enumerate(g["teams"])
        )
        files["deals.csv"].rows(_deal_rows(g))
        files["corrections.csv"].rows(
            [
                g["uid"],
                c["deal"],
                None if c["team"] is None else c["team"] + 1,
                c["field"],
                json.dumps(c["old"]),
                json.dumps(c["new"]),
                c["created_at"],
                c["undone_at"],
            ]
            for c in g["corrections"]
        )
    return files


def _winner(game: Mapping[str, Any]) -> str:
    totals = game["totals"]
    if not game["finished_at"] or not totals:
        return ""
    best = max(totals)
    return " = ".join(
        t["name"] for t, total in zip(game["teams"], totals, strict=True) if total == best
    )


def _cards(value: Any) -> list[Any]:
    if isinstance(value, Mapping):
        return [None, *(value.get(card, 0) for card in CARD_COLUMNS)]
    return [value, *([None] * len(CARD_COLUMNS))]


def _deal_rows(g: Mapping[str, Any]) -> Iterable[list[Any]]:
    """A game's rows of deals.csv: one per team per deal, with the team's running total."""
    running = [0] * len(g["teams"])
    for deal in g["deals"]:
        for i, team in enumerate(deal["teams"]):
            running[i] += team["score"]
            yield [
                g["uid"],
                g["played_on"],
                g["season"],
                g["ruleset_id"],
                deal["number"],
                i + 1,
                g["teams"][i]["name"],
                ", ".join(g["teams"][i]["players"]),
                *(team[key] for key in COUNT_FIELDS),
                json.dumps(team["special_books"]) if team["special_books"] else "",
                *_cards(team["melded"]),
                *_cards(team["left"]),
                team["went_out"],
                team["opening_meld"],
                team["score"],
                running[i],
            ]


# ---------------------------------------------------------------------------
# Import: reading and checking the whole document before anything is written


@dataclass
class Counts:
    players: int = 0
    seasons: int = 0
    house_rules: int = 0
    games: int = 0

    def as_dict(self) -> dict[str, int]:
        return {
            "players": self.players,
            "seasons": self.seasons,
            "house_rules": self.house_rules,
            "games": self.games,
        }


@dataclass
class ImportSummary:
    imported: Counts = field(default_factory=Counts)
    skipped: Counts = field(default_factory=Counts)


@dataclass
class _TeamIn:
    name: str
    players: list[str]


@dataclass
class _DealIn:
    number: int
    version: int
    created_at: datetime | None
    updated_at: datetime | None
    tallies: list[TeamTally]
    scores: list[int]


@dataclass
class _GameIn:
    index: int
    uid: str
    played_on: date
    season: str | None
    rules: RuleSet
    decks: int
    first_dealer_seat: int
    created_at: datetime | None
    finished_at: datetime | None
    abandoned_at: datetime | None
    deleted_at: datetime | None
    teams: list[_TeamIn]
    deals: list[_DealIn]
    corrections: list[dict[str, Any]]


@dataclass
class _SeasonIn:
    name: str
    starts_on: date | None
    ends_on: date | None
    created_at: datetime | None


@dataclass
class _HouseIn:
    slug: str
    name: str
    rules: RuleSet
    created_at: datetime | None
    updated_at: datetime | None


@dataclass
class _Document:
    players: list[tuple[str, datetime | None]]
    seasons: list[_SeasonIn]
    house: list[_HouseIn]
    games: list[_GameIn]


class _TooMany(Exception):
    """Enough problems found to refuse the file; the rest would only be noise."""


class _Reader:
    """Reads the document, collecting every problem with the JSON path where it is."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def fail(self, where: str, template: Template, team: int | None = None, **params: Any) -> None:
        self.problems.append(Problem(team, where, template, {"where": where, **params}))
        if len(self.problems) >= MOST_PROBLEMS:
            raise _TooMany

    def add(self, where: str, problems: Iterable[Problem], *, teams: bool = False) -> None:
        """Problems found by the rules core, placed under ``where`` (by team, if ``teams``)."""
        for p in problems:
            place = f"{where}[{p.team}]" if teams and p.team is not None else where
            path = f"{place}.{p.field}" if p.field else place
            self.problems.append(Problem(p.team, path, p.template, {**p.params, "where": path}))
        if len(self.problems) >= MOST_PROBLEMS:
            raise _TooMany

    # --- plain values

    def mapping(self, value: Any, where: str) -> Mapping[str, Any] | None:
        if not isinstance(value, Mapping):
            self.fail(where, N_("%(where)s must be an object."))
            return None
        return value

    def items(self, data: Mapping[str, Any], key: str, where: str) -> list[Any]:
        value = data.get(key, [])
        if not isinstance(value, list):
            self.fail(f"{where}{key}", N_("%(where)s must be a list."))
            return []
        return value

    def text(self, value: Any, where: str, longest: int = NAME_LONGEST) -> str | None:
        # As stored: a name kept from before line breaks inside became spaces imports whole.
        shown = trimmed(value) if isinstance(value, str) else ""
        if not shown:
            self.fail(where, N_("%(where)s must be a text that is not empty."))
            return None
        if len(shown) > longest:
            self.fail(where, N_("%(where)s has more than %(longest)d characters."), longest=longest)
            return None
        return shown

    def whole(self, value: Any, where: str, low: int, high: int) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.fail(
                where,
                N_("%(where)s must be a whole number from %(low)d to %(high)d."),
                low=low,
                high=high,
            )
            return None
        return value

    def day(self, value: Any, where: str, *, optional: bool = False) -> date | None:
        if value is None and optional:
            return None
        try:
            if isinstance(value, str) and len(value) == 10:
                return date.fromisoformat(value)
        except ValueError:
            pass
        self.fail(where, N_("%(where)s must be a date such as 2025-01-31."))
        return None

    def moment(self, value: Any, where: str) -> datetime | None:
        if value is None:
            return None
        try:
            if isinstance(value, str):
                # Kept in UTC, as everything the database holds: another zone's offset is
                # converted (SQLite would drop it), and a moment past the year 9999 in UTC
                # is none.
                return as_utc(datetime.fromisoformat(value)).astimezone(UTC)
        except (ValueError, OverflowError):
            pass
        self.fail(where, N_("%(where)s must be a date and time such as 2025-01-31T20:15:00+00:00."))
        return None

    # --- the document

    def document(self, data: Any) -> _Document:
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            self.fail("format", N_("This is not a scorekeeper export (format is not %(format)s)."),
                      format=FORMAT)  # fmt: skip
            raise _TooMany
        if data.get("version") != VERSION:
            self.fail(
                "version",
                N_("This export has format version %(found)s; this app reads version %(version)d."),
                found=json.dumps(data.get("version")),
                version=VERSION,
            )
            raise _TooMany
        # Everything an export writes at the top is needed: a file without it is broken.
        for key in TOP_LEVEL_KEYS:
            if key not in data:
                self.fail(key, N_("%(where)s is missing: this file is not a whole export."))
        for key in data:
            if key not in TOP_LEVEL_KEYS:
                self.fail(str(key), N_("%(where)s is not part of an export."))
        self.moment(data.get("exported_at"), "exported_at")
        season = data.get("season")
        if season is not None and not isinstance(season, str):
            self.fail("season", N_("%(where)s must be the name of a season, or null."))
        players = self.players(self.items(data, "players", ""))
        seasons = self.seasons(self.items(data, "seasons", ""))
        house = self.house_rules(self.items(data, "house_rules", ""))
        known = {p.casefold() for p, _ in players}
        season_names = {s.name.casefold() for s in seasons}
        rules = {h.slug: h.rules for h in house}
        games = [
            game
            for i, item in enumerate(self.items(data, "games", ""))
            if (game := self.game(item, f"games[{i}]", i, known, season_names, rules))
        ]
        uids = [game.uid for game in games]
        for game in games:
            if uids.count(game.uid) > 1:
                self.fail(f"games[{game.index}].uid", N_("%(where)s appears twice in this file."))
        return _Document(players, seasons, house, games)

    def players(self, items: list[Any]) -> list[tuple[str, datetime | None]]:
        found: list[tuple[str, datetime | None]] = []
        seen: set[str] = set()
        for i, item in enumerate(items):
            where = f"players[{i}]"
            data = self.mapping(item, where)
            if data is None:
                continue
            name = self.text(data.get("name"), f"{where}.name")
            if name is None:
                continue
            if name.casefold() in seen:
                self.fail(f"{where}.name", N_("%(name)s is listed twice."), name=name)
            seen.add(name.casefold())
            found.append((name, self.moment(data.get("created_at"), f"{where}.created_at")))
        return found

    def seasons(self, items: list[Any]) -> list[_SeasonIn]:
        found: list[_SeasonIn] = []
        for i, item in enumerate(items):
            where = f"seasons[{i}]"
            data = self.mapping(item, where)
            if data is None:
                continue
            name = self.text(data.get("name"), f"{where}.name")
            starts = self.day(data.get("starts_on"), f"{where}.starts_on", optional=True)
            ends = self.day(data.get("ends_on"), f"{where}.ends_on", optional=True)
            if starts and ends and ends < starts:
                self.fail(f"{where}.ends_on", N_("A season cannot end before it starts."))
            created = self.moment(data.get("created_at"), f"{where}.created_at")
            if name is not None:
                if any(s.name.casefold() == name.casefold() for s in found):
                    self.fail(f"{where}.name", N_("%(name)s is listed twice."), name=name)
                found.append(_SeasonIn(name, starts, ends, created))
        return found

    def ruleset(self, value: Any, where: str) -> RuleSet | None:
        if not isinstance(value, Mapping):
            self.fail(where, N_("%(where)s must be a whole ruleset object."))
            return None
        try:
            return RuleSet.from_dict(value)
        except RuleSetError as error:
            self.add(where, error.problems)
            return None

    def house_rules(self, items: list[Any]) -> list[_HouseIn]:
        found: list[_HouseIn] = []
        seen: set[str] = set()
        for i, item in enumerate(items):
            where = f"house_rules[{i}]"
            data = self.mapping(item, where)
            if data is None:
                continue
            slug = self.text(data.get("id"), f"{where}.id", 63)
            name = self.text(data.get("name"), f"{where}.name")
            rules = self.ruleset(data.get("ruleset"), f"{where}.ruleset")
            if slug is not None and slug in PRESETS:
                self.fail(f"{where}.id", N_("%(id)s is a preset, not house rules."), id=slug)
            elif slug is not None and rules is not None and slug != rules.id:
                # The app keeps them one: /rules/<id> and the games' "ruleset" name them.
                self.fail(
                    f"{where}.id",
                    N_(
                        "%(where)s is %(id)s, but its ruleset's id is %(rules)s: they must be "
                        "the same."
                    ),
                    id=slug,
                    rules=rules.id,
                )
            elif slug is not None and slug in seen:
                self.fail(f"{where}.id", N_("%(where)s appears twice in this file."))
            if slug is not None:
                seen.add(slug)
            created = self.moment(data.get("created_at"), f"{where}.created_at")
            updated = self.moment(data.get("updated_at"), f"{where}.updated_at")
            if slug and name and rules:
                found.append(_HouseIn(slug, name, rules, created, updated))
        return found

    def game_rules(
        self, data: Mapping[str, Any], where: str, house: Mapping[str, RuleSet]
    ) -> RuleSet | None:
        snapshot = data.get("ruleset")
        if isinstance(snapshot, str):
            # Only a ruleset's id: a preset, or house rules from this file or this database.
            known = PRESETS.get(snapshot) or house.get(snapshot)
            if known is None:
                stored = db.session.scalar(db.select(HouseRules).filter_by(slug=snapshot))
                known = stored.rules() if stored else None
            if known is None:
                self.fail(f"{where}.ruleset", N_("There are no rules called %(id)s."), id=snapshot)
            return known
        return self.ruleset(snapshot, f"{where}.ruleset")

    def game(
        self,
        item: Any,
        where: str,
        index: int,
        players: set[str],
        seasons: set[str],
        house: Mapping[str, RuleSet],
    ) -> _GameIn | None:
        data = self.mapping(item, where)
        if data is None:
            return None
        before = len(self.problems)
        uid = data.get("uid")
        if not isinstance(uid, str) or not _UID.fullmatch(uid):
            self.fail(f"{where}.uid", N_("%(where)s must be 32 hexadecimal digits."))
        played_on = self.day(data.get("played_on"), f"{where}.played_on")
        season = data.get("season")
        if season is not None:
            season = self.text(season, f"{where}.season")
            if season is not None and season.casefold() not in seasons:
                self.fail(
                    f"{where}.season",
                    N_("Season %(name)s is not in the file's seasons."),
                    name=season,
                )
        rules = self.game_rules(data, where, house)
        decks = self.whole(data.get("decks"), f"{where}.decks", *BOUNDS["decks"])
        teams = self.teams(self.items(data, "teams", f"{where}."), f"{where}.teams", players)
        count = sum(len(t.players) for t in teams)
        if rules is not None and teams and len(self.problems) == before:
            self.seating(rules, teams, f"{where}.teams")
            if decks is not None:
                # Decks these rules never play with would make every deal of it refused.
                for wrong in rules.decks_problems(decks, count):
                    self.fail(f"{where}.decks", wrong.template, **wrong.params)
        dealer = self.whole(
            data.get("first_dealer_seat", 0), f"{where}.first_dealer_seat", 0, max(count - 1, 0)
        )
        stamps = {
            key: self.moment(data.get(key), f"{where}.{key}")
            for key in ("created_at", "finished_at", "abandoned_at", "deleted_at")
        }
        if rules is None or decks is None or len(self.problems) > before:
            return None
        deals = self.deals(self.items(data, "deals", f"{where}."), where, rules, teams, decks)
        if len(self.problems) > before:
            return None
        self.totals(data, where, deals, len(teams))
        finished = len(deals) == rules.deal_count
        if stamps["finished_at"] is not None and not finished:
            self.fail(
                f"{where}.finished_at",
                NP_(
                    "The game is marked finished but has %(deals)d of its %(all)d deal.",
                    "The game is marked finished but has %(deals)d of its %(all)d deals.",
                    "all",
                ),
                deals=len(deals),
                all=rules.deal_count,
            )
        if finished and stamps["finished_at"] is None:
            stamps["finished_at"] = deals[-1].updated_at or utcnow()
        # A finished game marked abandoned is taken as it is: the app refuses to abandon a
        # finished game only since 2026-12-03, and a club's export must still import whole.
        corrections = self.corrections(
            self.items(data, "corrections", f"{where}."), where, deals, len(teams)
        )
        if len(self.problems) > before or played_on is None or dealer is None:
            return None
        return _GameIn(
            index=index,
            uid=str(uid),
            played_on=played_on,
            season=season,
            rules=rules,
            decks=decks,
            first_dealer_seat=dealer,
            created_at=stamps["created_at"],
            finished_at=stamps["finished_at"],
            abandoned_at=stamps["abandoned_at"],
            deleted_at=stamps["deleted_at"],
            teams=teams,
            deals=deals,
            corrections=corrections,
        )

    def teams(self, items: list[Any], where: str, players: set[str]) -> list[_TeamIn]:
        low, high = BOUNDS["teams"]
        if not low <= len(items) <= high:
            self.fail(where, N_("A game needs %(low)d to %(high)d teams."), low=low, high=high)
            return []
        teams: list[_TeamIn] = []
        seated: set[str] = set()
        for i, item in enumerate(items):
            data = self.mapping(item, f"{where}[{i}]")
            if data is None:
                continue
            name = self.text(data.get("name"), f"{where}[{i}].name")
            names = data.get("players")
            if not isinstance(names, list) or not names:
                self.fail(f"{where}[{i}].players", N_("Every team needs at least one player."))
                continue
            members: list[str] = []
            for j, raw in enumerate(names):
                player = self.text(raw, f"{where}[{i}].players[{j}]")
                if player is None:
                    continue
                if player.casefold() not in players:
                    self.fail(
                        f"{where}[{i}].players[{j}]",
                        N_("%(name)s is not in the file's players."),
                        name=player,
                    )
                if player.casefold() in seated:
                    self.fail(
                        f"{where}[{i}].players[{j}]",
                        N_("%(name)s cannot sit at the table twice."),
                        name=player,
                    )
                seated.add(player.casefold())
                members.append(player)
            if name is not None:
                if any(t.name.casefold() == name.casefold() for t in teams):
                    self.fail(f"{where}[{i}].name", N_("Two teams cannot have the same name."))
                teams.append(_TeamIn(name, members))
        return teams

    def seating(self, rules: RuleSet, teams: list[_TeamIn], where: str) -> None:
        for problem in seating_problems(rules, [len(t.players) for t in teams], where):
            self.fail(where, problem.template, **problem.params)

    def deals(
        self, items: list[Any], game: str, rules: RuleSet, teams: list[_TeamIn], decks: int
    ) -> list[_DealIn]:
        if len(items) > rules.deal_count:
            self.fail(
                f"{game}.deals",
                NP_(
                    "These rules play %(deals)d deal; the file has %(given)d.",
                    "These rules play %(deals)d deals; the file has %(given)d.",
                    "deals",
                ),
                deals=rules.deal_count,
                given=len(items),
            )
            return []
        deals: list[_DealIn] = []
        for i, item in enumerate(items):
            where = f"{game}.deals[{i}]"
            data = self.mapping(item, where)
            if data is None:
                continue
            number = data.get("number")
            if isinstance(number, bool) or number != i + 1:  # true == 1 in Python
                self.fail(f"{where}.number", N_("%(where)s must be %(number)d."), number=i + 1)
            version = self.whole(data.get("version", 1), f"{where}.version", 1, 2**31 - 1)
            entries = data.get("teams")
            if not isinstance(entries, list) or len(entries) != len(teams):
                self.fail(
                    f"{where}.teams",
                    N_("%(where)s needs one entry for each of the %(count)d teams."),
                    count=len(teams),
                )
                continue
            tallies: list[TeamTally] = []
            scores: list[int | None] = []
            for t, entry in enumerate(entries):
                if not isinstance(entry, Mapping):
                    self.fail(f"{where}.teams[{t}]", N_("%(where)s must be an object."), team=t)
                    continue
                tally_data = {k: v for k, v in entry.items() if k != "score"}
                tally_data["name"] = teams[t].name
                try:
                    tallies.append(read_team(tally_data, t))
                except TallyError as error:
                    self.add(f"{where}.teams[{t}]", _unprefixed(error.problems))
                    continue
                score = entry.get("score")
                if score is not None and (isinstance(score, bool) or not isinstance(score, int)):
                    # "9999" or 1.5 is no score the rules could give: said, not skipped.
                    self.fail(
                        f"{where}.teams[{t}].score",
                        N_("%(where)s must be a whole number."),
                        team=t,
                    )
                    score = None
                scores.append(score)
            if len(tallies) != len(teams):
                continue
            # Checked as every version of the app checked it, without the seating: a deal of a
            # player seated alone under partnership rules who went out with cards left was
            # accepted until 2026-12-03, books entered as points were not checked against the
            # 2s and the ranks that run short until 2026-12-04, and a club's export must still
            # import whole.
            problems = validate_deal(rules, i + 1, tallies, decks, scarcity=False)
            if problems:
                self.add(f"{where}.teams", problems, teams=True)
                continue
            computed = [score_team(rules, tally).score for tally in tallies]
            for t, (given, score) in enumerate(zip(scores, computed, strict=True)):
                if given is not None and given != score:
                    self.fail(
                        f"{where}.teams[{t}].score",
                        N_("%(where)s says %(given)d, but these rules score the tally %(score)d."),
                        team=t,
                        given=given,
                        score=score,
                    )
            deals.append(
                _DealIn(
                    i + 1,
                    version or 1,
                    self.moment(data.get("created_at"), f"{where}.created_at"),
                    self.moment(data.get("updated_at"), f"{where}.updated_at"),
                    tallies,
                    computed,
                )
            )
        return deals

    def totals(self, data: Mapping[str, Any], where: str, deals: list[_DealIn], teams: int) -> None:
        given = data.get("totals")
        if given is None:
            return
        computed = [sum(deal.scores[t] for deal in deals) for t in range(teams)]
        if given != computed:
            self.fail(
                f"{where}.totals",
                N_("%(where)s are %(given)s, but the deals add up to %(computed)s."),
                given=json.dumps(given),
                computed=json.dumps(computed),
            )

    def corrections(
        self, items: list[Any], game: str, deals: list[_DealIn], teams: int
    ) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        for i, item in enumerate(items):
            where = f"{game}.corrections[{i}]"
            data = self.mapping(item, where)
            if data is None:
                continue
            if not deals:
                # Nothing was played, so nothing was corrected (undo would find no deal).
                self.fail(f"{where}.deal", N_("%(where)s corrects a deal of a game with none."))
                continue
            deal = self.whole(data.get("deal"), f"{where}.deal", 1, len(deals))
            batch = self.whole(data.get("batch"), f"{where}.batch", 1, 2**31 - 1)
            # Undo puts the old value back into this team's tally: one of the game's teams.
            team = self.whole(data.get("team"), f"{where}.team", 0, teams - 1)
            name = data.get("field")
            if name not in TRACKED_FIELDS:
                self.fail(f"{where}.field", N_("%(where)s is not a field a correction changes."))
            if "old" not in data or "new" not in data:
                self.fail(where, N_("%(where)s needs the old and the new value."))
                continue
            if name in TRACKED_FIELDS:
                for key in ("old", "new"):
                    self.logged_value(data[key], f"{where}.{key}", name, team)
            found.append(
                {
                    "deal_number": deal,
                    "batch": batch,
                    "team_position": team,
                    "field": name,
                    "old_value": json.dumps(data["old"], sort_keys=True),
                    "new_value": json.dumps(data["new"], sort_keys=True),
                    "created_at": self.moment(data.get("created_at"), f"{where}.created_at"),
                    "undone_at": self.moment(data.get("undone_at"), f"{where}.undone_at"),
                }
            )
        return found

    def logged_value(self, value: Any, where: str, name: str, team: int | None) -> None:
        """A value of the correction log, read as the tally reader reads that field."""
        try:
            read_team({name: value}, team)
        except TallyError as error:
            for problem in error.problems:
                self.fail(
                    where,
                    N_("%(where)s is not something a team can report: %(reason)s"),
                    team=team,
                    reason=Phrase(problem.template, problem.params),
                )


def _unprefixed(problems: Iterable[Problem]) -> list[Problem]:
    """Tally problems keep their own field name ("melded"); the team is in the path already."""
    return [
        Problem(p.team, "" if p.field == "team" else p.field, p.template, p.params)
        for p in problems
    ]


TOP_LEVEL_KEYS = (
    "format",
    "version",
    "exported_at",
    "season",
    "players",
    "seasons",
    "house_rules",
    "games",
)


def read_document(data: Any) -> _Document:
    """The document checked as a whole: Invalid with every problem (up to a limit) if broken."""
    reader = _Reader()
    try:
        document = reader.document(data)
    except _TooMany:
        document = None
    if reader.problems or document is None:
        raise Invalid(reader.problems)
    return document


# The JSON parser's reasons, in English only, said in the table's language.
_JSON_REASONS = {
    "Expecting value": N_("a value is missing"),
    "Expecting property name enclosed in double quotes": N_("a name in double quotes is missing"),
    "Expecting ':' delimiter": N_("a colon is missing"),
    "Expecting ',' delimiter": N_("a comma is missing"),
    # The place is where the text starts, not where its quote is missing.
    "Unterminated string starting at": N_("a text without its closing double quote starts"),
    "Invalid control character at": N_("a text holds a line break or a control character"),
    "Invalid \\escape": N_("a backslash is followed by an invalid character"),
    "Invalid \\uXXXX escape": N_("a \\u is not followed by four hexadecimal digits"),
    "Extra data": N_("something follows the end of the data"),
    # Python 3.13 and later.
    "Illegal trailing comma before end of array": N_("a comma stands before a closing bracket"),
    "Illegal trailing comma before end of object": N_("a comma stands before a closing bracket"),
}


def parse_json(text: str | bytes) -> Any:
    """The file's JSON, or Invalid naming the line and column where it stops being JSON, or
    saying it holds text no database stores (as the API refuses such a body)."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8-sig")
        data = json.loads(text, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise Invalid.say(N_("The file is not UTF-8 text."), field="file") from None
    except json.JSONDecodeError as error:
        # A file cut short (a copy that stopped half-way) runs out where more was expected.
        ended = error.pos >= len(error.doc) and error.msg != "Unterminated string starting at"
        reason = N_("the file ends too early") if ended else _JSON_REASONS.get(error.msg)
        if reason is None:  # a wording of a later Python: the place is what helps
            raise Invalid.say(
                N_("The file is not valid JSON at line %(line)d, column %(column)d."),
                field="file",
                line=error.lineno,
                column=error.colno,
            ) from None
        raise Invalid.say(
            N_("The file is not valid JSON: %(reason)s at line %(line)d, column %(column)d."),
            field="file",
            reason=Phrase(reason),
            line=error.lineno,
            column=error.colno,
        ) from None
    except (ValueError, RecursionError):
        raise Invalid.say(N_("The file is not valid JSON."), field="file") from None
    bad = unstorable_text(data)
    if bad == "unicode":
        raise Invalid.say(N_("The file holds text that is not valid Unicode."), field="file")
    if bad == "nul":
        raise Invalid.say(
            N_("The file holds a NUL character, which text cannot hold."), field="file"
        )
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# ---------------------------------------------------------------------------
# Import: writing, in one transaction


def import_document(data: Any) -> ImportSummary:
    """Import an export document; refused as a whole (Invalid) if anything in it is wrong."""
    document = read_document(data)
    summary = ImportSummary()
    try:
        _write(document, summary)
        db.session.commit()
    except IntegrityError:
        # Another tablet added one of these players or games at the same moment.
        db.session.rollback()
        raise Conflict.say(
            N_("Someone else saved at the same moment; nothing was imported. Please try again."),
            field="file",
        ) from None
    except Exception:
        db.session.rollback()
        raise
    standings.clear_cache()
    return summary


def import_text(text: str | bytes) -> ImportSummary:
    return import_document(parse_json(text))


def _unshown(name: str, shown: set[str]) -> str:
    """``name``, or the first of "name (2)", "name (3)"… that no rules in the list show (cut
    to the 80 characters a name may have)."""
    candidate, n = name, 1
    while name_key(candidate) in shown:
        n += 1
        suffix = f" ({n})"
        candidate = name[: NAME_LONGEST - len(suffix)].rstrip() + suffix
    return candidate


def _write(document: _Document, summary: ImportSummary) -> None:
    # Compared in Python, like the games service: SQLite's lower() folds ASCII only.
    players = {p.name.casefold(): p for p in db.session.scalars(db.select(Player))}
    for name, created in document.players:
        if name.casefold() in players:
            summary.skipped.players += 1
            continue
        player = Player(name=name, created_at=created or utcnow())
        db.session.add(player)
        players[name.casefold()] = player
        summary.imported.players += 1

    seasons = {s.name.casefold(): s for s in db.session.scalars(db.select(Season))}
    for season_in in document.seasons:
        if season_in.name.casefold() in seasons:
            summary.skipped.seasons += 1
            continue
        season = Season(
            name=season_in.name,
            starts_on=season_in.starts_on,
            ends_on=season_in.ends_on,
            created_at=season_in.created_at or utcnow(),
        )
        db.session.add(season)
        seasons[season_in.name.casefold()] = season
        summary.imported.seasons += 1

    slugs = set(db.session.scalars(db.select(HouseRules.slug)))
    # Names the list of rules already shows: rules of another id but a name among them come
    # in as "Club night (2)", as two alike in the list could not be told apart.
    shown = {name_key(rules.name) for rules in PRESETS.values()}
    shown |= {name_key(name) for name in db.session.scalars(db.select(HouseRules.name))}
    for house in document.house:
        if house.slug in slugs:
            summary.skipped.house_rules += 1
            continue
        name = _unshown(house.name, shown)
        shown.add(name_key(name))
        rules = house.rules if name == house.name else replace(house.rules, name=name)
        db.session.add(
            HouseRules(
                slug=house.slug,
                name=name,
                ruleset=rules.to_dict(),
                created_at=house.created_at or utcnow(),
                updated_at=house.updated_at or utcnow(),
            )
        )
        slugs.add(house.slug)
        summary.imported.house_rules += 1

    uids = set(db.session.scalars(db.select(Game.uid)))
    versions: list[tuple[Deal, int]] = []
    added: list[Game] = []
    # Ratings are computed in the order games were played: keep it (stable for equal dates).
    for item in sorted(document.games, key=lambda g: g.played_on):
        if item.uid in uids:
            summary.skipped.games += 1
            continue
        uids.add(item.uid)
        game, deals = _add_game(item, players, seasons)
        versions += deals
        added.append(game)
        summary.imported.games += 1
        # Each game gets its id before the next: ids follow the order of play.
        db.session.flush()
    db.session.flush()
    # The standings' summaries, as the games service keeps them for every game it writes.
    for game in added:
        summaries.refresh_game(game)
    if added:
        summaries.bump()
    for deal, version in versions:
        if version != deal.version:
            # The deal's version counts its corrections; the ORM would start it at 1.
            db.session.execute(update(Deal).where(Deal.id == deal.id).values(version=version))


def _add_game(
    item: _GameIn, players: Mapping[str, Player], seasons: Mapping[str, Season]
) -> tuple[Game, list[tuple[Deal, int]]]:
    now = utcnow()
    game = Game(
        uid=item.uid,
        ruleset=item.rules.to_dict(),
        ruleset_id=item.rules.id,
        season=seasons[item.season.casefold()] if item.season else None,
        played_on=item.played_on,
        decks=item.decks,
        first_dealer_seat=item.first_dealer_seat,
        created_at=item.created_at or now,
        finished_at=item.finished_at,
        abandoned_at=item.abandoned_at,
        deleted_at=item.deleted_at,
    )
    for position, team_in in enumerate(item.teams):
        team = Team(position=position, name=team_in.name)
        team.members = [
            TeamMember(player=players[name.casefold()], seat=seat)
            for seat, name in enumerate(team_in.players)
        ]
        game.teams.append(team)
    versions = []
    for deal_in in item.deals:
        deal = Deal(
            number=deal_in.number,
            created_at=deal_in.created_at or now,
            updated_at=deal_in.updated_at or deal_in.created_at or now,
        )
        for position, (team, tally, score) in enumerate(
            zip(game.teams, deal_in.tallies, deal_in.scores, strict=True)
        ):
            result = DealResult(position=position, team=team)
            result.store(tally)
            result.score = score
            deal.results.append(result)
        game.deals.append(deal)
        versions.append((deal, deal_in.version))
    for correction in item.corrections:
        game.corrections.append(
            Correction(**{**correction, "created_at": correction["created_at"] or now})
        )
    db.session.add(game)
    return game, versions


def season_of(ref: str) -> int:
    """A season's id from its id or its name (the command line takes either)."""
    if ref.isdigit():
        return int(standings.get_season(int(ref)).id)
    for season in db.session.scalars(db.select(Season)):
        if season.name.casefold() == ref.strip().casefold():
            return int(season.id)
    raise NotFound.say(N_("There is no season %(id)s."), field="season", id=ref)
