"""The tables: what the table entered, kept safely. Scores are derived from the rules.

Each game keeps a JSON copy of the RuleSet it was started with, so editing house
rules never changes an old game. A deal's score columns are a cache that
:mod:`scorekeeper.services.games` recomputes from the rules on every write.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.extensions import db
from scorekeeper.rules import (
    Cards,
    RuleSet,
    RuleSetError,
    TallyError,
    TeamTally,
    read_kept,
    team_phrase,
)
from scorekeeper.services.errors import DamagedDeal, DamagedRules

# Every id, number and version column is an INTEGER: 32 bits on PostgreSQL, which refuses a
# larger number even in a lookup (SQLite's 64 bits are wider). No row can have an id past it,
# so a larger number names nothing: a 404 or a refusal, never a query.
LARGEST_ID = 2**31 - 1


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_uid() -> str:
    """A game's identity across databases: what an import matches on."""
    return uuid.uuid4().hex


class Player(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "player"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    memberships: Mapped[list[TeamMember]] = relationship(back_populates="player")


class Season(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "season"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    starts_on: Mapped[date | None] = mapped_column(Date)
    ends_on: Mapped[date | None] = mapped_column(Date)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class HouseRules(db.Model):  # type: ignore[name-defined,misc]
    """A table's own named ruleset, derived from a preset."""

    __tablename__ = "house_rules"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(63), unique=True)
    name: Mapped[str] = mapped_column(String(80))
    ruleset: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    def rules(self) -> RuleSet:
        """The rules as stored; :class:`DamagedRules` when the stored copy no longer reads."""
        try:
            return RuleSet.from_dict(self.ruleset)
        except RuleSetError as error:
            raise DamagedRules.of_house(self.slug, self.name, error.problems) from error


class Game(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "game"
    # Lists of games, newest first, walk the first index and stop after a page: no sort of
    # every game a regular ever played. The games still being played (the home page) are
    # found by the second, without reading the rows of the thousands that are over.
    __table_args__ = (
        Index("ix_game_deleted_at_played_on", "deleted_at", "played_on"),
        Index("ix_game_in_play", "finished_at", "abandoned_at", "deleted_at", "played_on"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # The same game in an export, another database or a backup: importing twice adds it once.
    uid: Mapped[str] = mapped_column(String(32), unique=True, default=new_uid)
    # A copy of the rules the game was started with.
    ruleset: Mapped[dict[str, Any]] = mapped_column(JSON)
    ruleset_id: Mapped[str] = mapped_column(String(63))
    season_id: Mapped[int | None] = mapped_column(
        ForeignKey("season.id", ondelete="SET NULL"), index=True
    )
    played_on: Mapped[date] = mapped_column(Date, index=True)
    decks: Mapped[int] = mapped_column(Integer)
    first_dealer_seat: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    abandoned_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)

    season: Mapped[Season | None] = relationship()
    teams: Mapped[list[Team]] = relationship(
        back_populates="game", order_by="Team.position", cascade="all, delete-orphan"
    )
    deals: Mapped[list[Deal]] = relationship(
        back_populates="game", order_by="Deal.number", cascade="all, delete-orphan"
    )
    corrections: Mapped[list[Correction]] = relationship(
        back_populates="game", order_by="Correction.id", cascade="all, delete-orphan"
    )

    def rules(self) -> RuleSet:
        return rules_of(self.ruleset, self.id)

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def team_sizes(self) -> list[int]:
        """Players per team, in team order: how the deal checks see the table."""
        return [len(team.members) for team in self.teams]


def rules_of(ruleset: Any, game_id: int) -> RuleSet:
    """Game ``game_id``'s rules from its JSON copy (see :func:`_parsed_rules`).

    A copy that no longer reads (edited by hand, damaged) raises :class:`DamagedRules`
    naming the game, for the pages and the API to refuse in words, never with a 500.
    """
    try:
        if not isinstance(ruleset, dict):
            # Not an object, or not even JSON (``UnreadableJSON``): refused as it is.
            return RuleSet.from_dict(ruleset)
        return _parsed_rules(json.dumps(ruleset, sort_keys=True))
    except RuleSetError as error:
        raise DamagedRules.of_game(game_id, error.problems) from error


@lru_cache(maxsize=256)
def _parsed_rules(text: str) -> RuleSet:
    """A game's rules read from their JSON copy, once per distinct copy.

    Reading a ruleset checks every field; the games of a club share a handful of rulesets,
    and a RuleSet is immutable, so every page showing a game reuses the one already read.
    """
    return RuleSet.from_dict(json.loads(text))


class Team(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "team"
    __table_args__ = (UniqueConstraint("game_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(80))

    game: Mapped[Game] = relationship(back_populates="teams")
    members: Mapped[list[TeamMember]] = relationship(
        back_populates="team", order_by="TeamMember.seat", cascade="all, delete-orphan"
    )


class TeamMember(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "team_member"
    __table_args__ = (UniqueConstraint("team_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)  # order within the team

    team: Mapped[Team] = relationship(back_populates="members")
    player: Mapped[Player] = relationship(back_populates="memberships")


class Deal(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "deal"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    # Bumped on every change; a save that read an older version is refused.
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    game: Mapped[Game] = relationship(back_populates="deals")
    results: Mapped[list[DealResult]] = relationship(
        back_populates="deal", order_by="DealResult.position", cascade="all, delete-orphan"
    )

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012


class DealResult(db.Model):  # type: ignore[name-defined,misc]
    """What one team reported for one deal, and its score under the game's rules."""

    __tablename__ = "deal_result"
    __table_args__ = (
        UniqueConstraint("deal_id", "position"),
        CheckConstraint("clean_books >= 0 AND dirty_books >= 0 AND wild_books >= 0", "books"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    deal_id: Mapped[int] = mapped_column(ForeignKey("deal.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    clean_books: Mapped[int] = mapped_column(Integer, default=0)
    dirty_books: Mapped[int] = mapped_column(Integer, default=0)
    wild_books: Mapped[int] = mapped_column(Integer, default=0)
    black_three_books: Mapped[int] = mapped_column(Integer, default=0)
    special_books: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)
    red_threes: Mapped[int] = mapped_column(Integer, default=0)
    red_threes_caught: Mapped[int] = mapped_column(Integer, default=0)
    # Cards are entered either as a point total or as counts per card class.
    melded_points: Mapped[int | None] = mapped_column(Integer)
    melded_counts: Mapped[dict[str, int] | None] = mapped_column(JSON)
    left_points: Mapped[int | None] = mapped_column(Integer)
    left_counts: Mapped[dict[str, int] | None] = mapped_column(JSON)
    went_out: Mapped[bool] = mapped_column(Boolean, default=False)
    opening_meld: Mapped[int | None] = mapped_column(Integer)
    exact_draws: Mapped[int] = mapped_column(Integer, default=0)
    # A cache of the score the rules give this tally; recomputed on every write.
    score: Mapped[int] = mapped_column(Integer, default=0)

    deal: Mapped[Deal] = relationship(back_populates="results")
    team: Mapped[Team] = relationship()

    def tally(self, name: str = "") -> TeamTally:
        """The tally this row holds; :class:`DamagedDeal` when it no longer reads."""
        deal = self.deal
        if deal is None:  # a row just built from a tally, in no deal yet: it reads
            return stored_tally(self, name, game_id=0, deal=0)
        return stored_tally(self, name, game_id=deal.game_id, deal=deal.number)

    def store(self, tally: TeamTally) -> None:
        self.clean_books = tally.clean_books
        self.dirty_books = tally.dirty_books
        self.wild_books = tally.wild_books
        self.black_three_books = tally.black_three_books
        self.special_books = {k: v for k, v in tally.special_books.items() if v}
        self.red_threes = tally.red_threes
        self.red_threes_caught = tally.red_threes_caught
        self.melded_points, self.melded_counts = _columns(tally.melded)
        self.left_points, self.left_counts = _columns(tally.left)
        self.went_out = tally.went_out
        self.opening_meld = tally.opening_meld
        self.exact_draws = tally.exact_draws


def stored_tally(row: Any, name: str = "", *, game_id: int, deal: int) -> TeamTally:
    """The tally a ``deal_result`` row of deal ``deal`` of game ``game_id`` holds: from the
    ORM object or a plain row alike.

    Its JSON columns (special books, cards counted per card class) are read as an entry is
    (:func:`read_kept`): changed by hand into what no entry could be (a card class this app
    does not know, a count that is not a whole number, not JSON at all), they raise
    :class:`DamagedDeal` naming the game, the deal and the team, for the pages and the API to
    refuse in words, never with a 500.
    """
    special, melded, left = _kept(row, name, game_id, deal)
    return TeamTally(
        name=name,
        clean_books=row.clean_books,
        dirty_books=row.dirty_books,
        wild_books=row.wild_books,
        black_three_books=row.black_three_books,
        special_books=special,
        red_threes=row.red_threes,
        red_threes_caught=row.red_threes_caught,
        melded=melded,
        left=left,
        went_out=bool(row.went_out),
        opening_meld=row.opening_meld,
        exact_draws=row.exact_draws,
    )


def check_kept(row: Any, name: str, game_id: int, deal: int) -> None:
    """:class:`DamagedDeal` if the row's tally no longer reads (see :func:`stored_tally`)."""
    _kept(row, name, game_id, deal)


def _kept(row: Any, name: str, game_id: int, deal: int) -> tuple[dict[str, int], Cards, Cards]:
    melded, left = row.melded_counts, row.left_counts
    special = {} if row.special_books is None else row.special_books
    if special == {} and melded is None and left is None:
        # Most rows: cards entered as points, no special book. Nothing to read.
        return {}, Cards(points=row.melded_points or 0), Cards(points=row.left_points or 0)
    try:
        return read_kept(
            special,
            (row.melded_points or 0) if melded is None else melded,
            (row.left_points or 0) if left is None else left,
            row.position,
        )
    except TallyError as error:
        team = name or team_phrase(TeamTally(), row.position)
        raise DamagedDeal(game_id, deal, row.position, team, error.problems) from error


def _columns(cards: Cards) -> tuple[int | None, dict[str, int] | None]:
    if cards.counts is not None:
        return None, {card.value: n for card, n in cards.counts.items()}
    return cards.points or 0, None


class Correction(db.Model):  # type: ignore[name-defined,misc]
    """One changed field of a past deal: the game's visible correction log."""

    __tablename__ = "correction"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    deal_number: Mapped[int] = mapped_column(Integer)
    # All fields changed by one save share a batch, so undo reverts them together.
    batch: Mapped[int] = mapped_column(Integer)
    team_position: Mapped[int | None] = mapped_column(Integer)
    field: Mapped[str] = mapped_column(String(40))
    # JSON texts of the value before and after, so undo can put the old one back.
    old_value: Mapped[str] = mapped_column(Text)
    new_value: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    undone_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    game: Mapped[Game] = relationship(back_populates="corrections")


class TeamTotal(db.Model):  # type: ignore[name-defined,misc]
    """A team's figures over its game's deals, kept by the service write path for standings.

    A summary of :class:`DealResult` rows, rewritten for the whole game whenever one of its
    deals is saved, corrected or a correction undone (:mod:`scorekeeper.services.summaries`),
    so standings add up one row per team instead of every deal of every game. The per-game
    figures (the share of the win, the margin, the stock-outs) compare the teams of one game.
    """

    __tablename__ = "team_total"

    team_id: Mapped[int] = mapped_column(
        ForeignKey("team.id", ondelete="CASCADE"), primary_key=True
    )
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    total: Mapped[int] = mapped_column(Integer)
    deals: Mapped[int] = mapped_column(Integer)
    clean_books: Mapped[int] = mapped_column(Integer)
    dirty_books: Mapped[int] = mapped_column(Integer)
    wild_books: Mapped[int] = mapped_column(Integer)
    black_three_books: Mapped[int] = mapped_column(Integer)
    # The books a house rule rewards on their own, every kind together.
    special_books: Mapped[int] = mapped_column(Integer, server_default="0")
    red_threes: Mapped[int] = mapped_column(Integer)
    red_threes_caught: Mapped[int] = mapped_column(Integer)
    went_out: Mapped[int] = mapped_column(Integer)
    # In WIN_UNITS: the team's share of the win (a tie at the top shares it).
    win_units: Mapped[int] = mapped_column(Integer)
    # The total minus the best opposing total.
    margin: Mapped[int] = mapped_column(Integer)
    # Deals of the game in which nobody went out.
    stock_outs: Mapped[int] = mapped_column(Integer)


class StandingsStamp(db.Model):  # type: ignore[name-defined,misc]
    """One row: a number the write path bumps whenever something standings count changes."""

    __tablename__ = "standings_stamp"

    id: Mapped[int] = mapped_column(primary_key=True)
    version: Mapped[int] = mapped_column(Integer, default=0)


class StandingsChange(db.Model):  # type: ignore[name-defined,misc]
    """What one step of the :class:`StandingsStamp` changed: a game, or everything.

    One row per step (``version`` is the stamp's number after it), written in the same
    transaction. ``game_id`` is the game that finished, was corrected, abandoned, deleted or
    restored; none when the step may have changed any game (players merged, games imported).
    A cache of standings computed at an earlier step reads the rows after it to know which
    games to read again. Only the latest steps are kept (see
    :data:`scorekeeper.services.summaries.KEPT_CHANGES`); no foreign key, so a game removed
    for good leaves its row as it was.
    """

    __tablename__ = "standings_change"

    version: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    game_id: Mapped[int | None] = mapped_column(Integer)
