"""Games and deals: starting, scoring, correcting, finishing. Nothing half-written, ever."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from functools import partial
from typing import Any, Literal

from flask import current_app
from sqlalchemy import Integer, bindparam, func, inspect, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import joinedload, lazyload, selectinload
from sqlalchemy.orm.exc import StaleDataError
from sqlalchemy.orm.util import identity_key

from scorekeeper.extensions import db
from scorekeeper.models import (
    LARGEST_ID,
    Correction,
    Deal,
    DealResult,
    Game,
    Player,
    Season,
    Team,
    TeamMember,
    check_kept,
    rules_of,
    stored_tally,
    utcnow,
)
from scorekeeper.rules import (
    Problem,
    RuleSet,
    TallyError,
    TeamScore,
    TeamTally,
    read_team,
    score_team,
    validate_deal,
)
from scorekeeper.rules.i18n import N_, NP_, Phrase, Template
from scorekeeper.rules.ruleset import deck_ceiling
from scorekeeper.rules.tally import NAME_LONGEST

from . import rulesets, summaries
from .errors import Conflict, Invalid, Malformed, NotFound, StaleDeal
from .names import name_key, team_name_of, visible

# The fields of a tally the correction log tracks, in sheet order.
TRACKED_FIELDS = (
    "clean_books",
    "dirty_books",
    "wild_books",
    "black_three_books",
    "special_books",
    "red_threes",
    "red_threes_caught",
    "melded",
    "left",
    "went_out",
    "opening_meld",
    "exact_draws",
)


@dataclass(frozen=True)
class TeamSpec:
    name: str
    players: Sequence[str]


# ---------------------------------------------------------------------------
# Reading


# What load_game reads with a game; a game holding all of them needs no second reading.
_LOADED = frozenset({"teams", "deals", "corrections", "season"})


def load_game(game_id: int, *, corrections: bool = True) -> Game:
    """The game with its teams, players, deals and corrections, in a fixed number of queries.

    ``corrections=False`` leaves the correction log to be read if it is ever touched: saving
    a new deal never does.

    A page reads the game, then hands its id to a service that reads it again. Within one
    transaction the second reading would return the very same snapshot, so a game this
    session already holds whole is returned as it is. Every commit or rollback expires it,
    and then it is read again.
    """
    if not 0 < game_id <= LARGEST_ID:
        raise NotFound.say(N_("There is no game %(id)s."), field="game", id=game_id)
    needed = _LOADED if corrections else _LOADED - {"corrections"}
    held = db.session.identity_map.get(identity_key(Game, game_id))
    if held is not None and not (needed & inspect(held).unloaded) and held.deleted_at is None:
        return held
    # The few teams, members and players come in the game's own row set (one query); the
    # deals, their results and the corrections in one query each.
    game: Game | None = (
        db.session.scalars(
            db.select(Game)
            .where(Game.id == game_id, Game.deleted_at.is_(None))
            .options(
                joinedload(Game.teams).joinedload(Team.members).joinedload(TeamMember.player),
                selectinload(Game.deals).selectinload(Deal.results),
                selectinload(Game.corrections) if corrections else lazyload(Game.corrections),
                joinedload(Game.season),
            )
        )
        .unique()
        .one_or_none()
    )
    if game is None:
        raise NotFound.say(N_("There is no game %(id)s."), field="game", id=game_id)
    return game


@dataclass(frozen=True)
class ResultView:
    tally: TeamTally
    score: TeamScore


@dataclass(frozen=True)
class DealView:
    number: int
    version: int
    results: list[ResultView]
    running: list[int]
    corrected: bool = False

    @property
    def stock_out(self) -> bool:
        return not any(result.tally.went_out for result in self.results)


# What a page shows of a game, copied out of the database rows: plain values that stay
# true after the session that read them is gone, so a scored game can be kept between
# requests (see read_game). Names match the models', so templates read either alike.


@dataclass(frozen=True)
class PlayerRecord:
    id: int
    name: str


@dataclass(frozen=True)
class MemberRecord:
    player: PlayerRecord


@dataclass(frozen=True)
class TeamRecord:
    id: int
    position: int
    name: str
    members: tuple[MemberRecord, ...]


@dataclass(frozen=True)
class SeasonRecord:
    id: int
    name: str


@dataclass(frozen=True)
class CorrectionRecord:
    id: int
    deal_number: int
    batch: int
    team_position: int | None
    field: str
    old_value: str
    new_value: str
    created_at: datetime
    undone_at: datetime | None


@dataclass(frozen=True)
class GameRecord:
    id: int
    uid: str
    ruleset: dict[str, Any]
    ruleset_id: str
    season: SeasonRecord | None
    played_on: date
    decks: int
    first_dealer_seat: int
    created_at: datetime
    finished_at: datetime | None
    abandoned_at: datetime | None
    deleted_at: datetime | None
    teams: tuple[TeamRecord, ...]
    corrections: tuple[CorrectionRecord, ...]

    @property
    def season_id(self) -> int | None:
        return self.season.id if self.season else None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def team_sizes(self) -> list[int]:
        """Players per team, in team order, as :attr:`Game.team_sizes` says them."""
        return [len(team.members) for team in self.teams]


def _correction_record(c: Any) -> CorrectionRecord:
    return CorrectionRecord(
        c.id,
        c.deal_number,
        c.batch,
        c.team_position,
        c.field,
        c.old_value,
        c.new_value,
        c.created_at,
        c.undone_at,
    )


def game_record(game: Game) -> GameRecord:
    """The plain copy of a loaded game (see :func:`load_game`)."""
    return GameRecord(
        id=game.id,
        uid=game.uid,
        ruleset=game.ruleset,
        ruleset_id=game.ruleset_id,
        season=SeasonRecord(game.season.id, game.season.name) if game.season else None,
        played_on=game.played_on,
        decks=game.decks,
        first_dealer_seat=game.first_dealer_seat,
        created_at=game.created_at,
        finished_at=game.finished_at,
        abandoned_at=game.abandoned_at,
        deleted_at=game.deleted_at,
        teams=tuple(
            TeamRecord(
                team.id,
                team.position,
                team.name,
                tuple(MemberRecord(PlayerRecord(m.player.id, m.player.name)) for m in team.members),
            )
            for team in game.teams
        ),
        corrections=tuple(_correction_record(c) for c in game.corrections),
    )


@dataclass(frozen=True)
class GameView:
    """A game as the score sheet shows it: every deal scored by the game's own rules."""

    game: GameRecord
    rules: RuleSet
    team_names: list[str]
    team_players: list[list[str]]
    deals: list[DealView]
    totals: list[int]
    seats: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.game.finished_at is not None

    @property
    def everyone_alone(self) -> bool:
        """Whether every player plays alone (as partnership rules seat three or five)."""
        return all(size == 1 for size in self.game.team_sizes)

    @property
    def next_deal(self) -> int | None:
        number = len(self.deals) + 1
        return number if number <= self.rules.deal_count and not self.game.abandoned_at else None

    @property
    def stamp(self) -> str:
        """What :func:`change_stamp` says of this game, read off the view itself."""
        undone = sum(1 for c in self.game.corrections if c.undone_at is not None)
        return _stamp(
            len(self.deals),
            sum(deal.version for deal in self.deals),
            len(self.game.corrections),
            undone,
            self.game,
        )

    def dealer(self, number: int) -> str | None:
        if not self.seats:
            return None
        return self.seats[(self.game.first_dealer_seat + number - 1) % len(self.seats)]

    @property
    def leaders(self) -> list[int]:
        """The team indexes with the highest total: one, or several on a tie."""
        if not self.deals:
            return []
        best = max(self.totals)
        return [i for i, total in enumerate(self.totals) if total == best]

    @property
    def winner(self) -> int | None:
        """The winning team's index once the game is finished; None on a tie."""
        leaders = self.leaders
        return leaders[0] if self.finished and len(leaders) == 1 else None


def seat_order(teams: Sequence[Team] | Sequence[TeamRecord]) -> list[str]:
    """Players around the table: partners sit apart, teams alternate."""
    size = max((len(team.members) for team in teams), default=0)
    return [
        team.members[seat].player.name
        for seat in range(size)
        for team in teams
        if seat < len(team.members)
    ]


# A deal as stored: its number and version, and each team's row in team order.
StoredDeal = tuple[int, int, Sequence[Any]]


def score_deals(
    rules: RuleSet, names: Sequence[str], stored: Sequence[StoredDeal], game_id: int
) -> list[DealView]:
    """Every deal of game ``game_id`` scored by the rules, with the running totals (nothing
    marked corrected); :class:`DamagedDeal` if a deal's stored tally no longer reads.

    The rows are ``deal_result`` rows, model objects or plain rows alike (the export reads
    plain rows of every game).
    """
    running = [0] * len(names)
    deals: list[DealView] = []
    for number, version, rows in stored:
        results = []
        for row in rows:
            tally = stored_tally(row, names[row.position], game_id=game_id, deal=number)
            score = score_team(rules, tally)
            results.append(ResultView(tally, score))
            running[row.position] += score.score
        deals.append(DealView(number, version, results, list(running)))
    return deals


def _view(record: GameRecord, deals: list[DealView]) -> GameView:
    corrected = {c.deal_number for c in record.corrections if c.undone_at is None}
    deals = [replace(deal, corrected=True) if deal.number in corrected else deal for deal in deals]
    return GameView(
        game=record,
        rules=rules_of(record.ruleset, record.id),
        team_names=[team.name for team in record.teams],
        team_players=[[m.player.name for m in team.members] for team in record.teams],
        deals=deals,
        totals=list(deals[-1].running) if deals else [0] * len(record.teams),
        seats=seat_order(record.teams),
    )


def view_game(game: Game) -> GameView:
    record = game_record(game)
    names = [team.name for team in record.teams]
    stored = [(deal.number, deal.version, deal.results) for deal in game.deals]
    return _view(record, score_deals(game.rules(), names, stored, game.id))


# ---------------------------------------------------------------------------
# Starting a game


def _players(names: Sequence[str]) -> dict[str, Player]:
    """Players by case-folded name: those seen before, and new ones for the rest."""
    # Compared in Python: SQLite's lower() folds ASCII letters only ("Émile" stays "Émile").
    wanted = {name.casefold() for name in names}
    # A name stored with a line break inside is the one typed with a space there; a player
    # stored with the very name typed comes first (both may be kept from before).
    stored = sorted(
        ((name_key(player.name), player) for player in db.session.scalars(db.select(Player))),
        key=lambda pair: pair[0] == pair[1].name.casefold(),
    )
    known = {key: player for key, player in stored if key in wanted}
    for name in names:
        if name.casefold() not in known:
            known[name.casefold()] = Player(name=name)
    return known


def start_game(
    ruleset: Any,
    teams: Sequence[TeamSpec],
    *,
    season_id: int | None = None,
    played_on: date | None = None,
    first_dealer_seat: int = 0,
) -> Game:
    """Start a game under a copy of ``ruleset`` (a preset id, house rules, or a rules object)."""
    try:
        return _start_game(ruleset, teams, season_id, played_on, first_dealer_seat)
    except IntegrityError:
        # Another tablet added one of these new players at the same moment: the
        # second try finds that player instead of creating it again.
        db.session.rollback()
    try:
        return _start_game(ruleset, teams, season_id, played_on, first_dealer_seat)
    except IntegrityError:
        db.session.rollback()
        raise Conflict.say(
            N_("Someone else saved at the same moment; nothing was saved. Please try again."),
            field="teams",
        ) from None


def _seating_options(seatings: Sequence[tuple[int, int]]) -> Phrase:
    """How ``seatings`` may sit down ("3 teams of 2 or 2 teams of 3"), in the table's language."""
    options = [
        Phrase(
            NP_("%(num)d team of %(size)d", "%(num)d teams of %(size)d", "num"),
            {"num": teams, "size": size},
        )
        if size > 1
        else Phrase(N_("everyone playing alone"))
        for teams, size in seatings
    ]
    if len(options) == 1:
        return options[0]
    return Phrase(N_("%(items)s or %(last)s"), {"items": tuple(options[:-1]), "last": options[-1]})


def seating_problems(rules: RuleSet, sizes: Sequence[int], field: str = "teams") -> list[Problem]:
    """Why teams of ``sizes`` players (in team order) cannot sit down under ``rules``: too
    few or too many players, or teams the rules do not make of them. Empty when they can."""
    count = sum(sizes)
    if not rules.min_players <= count <= rules.max_players:
        return [
            Problem(
                None,
                field,
                N_("These rules are for %(low)d to %(high)d players, not %(count)d."),
                {"low": rules.min_players, "high": rules.max_players, "count": count},
            )
        ]
    seatings = rules.seatings(count)
    if not seatings:
        cannot = NP_(
            "%(count)d player cannot be split into teams for these rules, and these rules "
            "do not let anyone play alone.",
            "%(count)d players cannot be split into teams for these rules, and these rules "
            "do not let anyone play alone.",
        )
        return [Problem(None, field, cannot, {"count": count})]
    if len(set(sizes)) != 1 or (len(sizes), sizes[0]) not in seatings:
        need = NP_(
            "With %(count)d player these rules need %(options)s.",
            "With %(count)d players these rules need %(options)s.",
        )
        return [Problem(None, field, need, {"count": count, "options": _seating_options(seatings)})]
    return []


def _start_game(
    ruleset: Any,
    teams: Sequence[TeamSpec],
    season_id: int | None,
    played_on: date | None,
    first_dealer_seat: int,
) -> Game:
    rules = rulesets.resolve(ruleset)
    problems: list[Problem] = []

    def fail(where: str, template: Template, **params: Any) -> None:
        problems.append(Problem(None, where, template, params))

    if not 2 <= len(teams) <= 8:
        raise Invalid.say(N_("A game needs 2 to 8 teams."), field="teams")
    seen: set[str] = set()
    clean_teams: list[tuple[str, list[str]]] = []
    for i, team in enumerate(teams):
        players = [shown for shown in map(visible, team.players) if shown]
        if not players:
            fail(f"teams[{i}].players", N_("Every team needs at least one player."))
        # Lengths count as sent, spaces around included, as the API's schema says.
        if any(len(name) > NAME_LONGEST for name in team.players):
            fail(
                f"teams[{i}].players",
                N_("A player's name has at most %(longest)d characters."),
                longest=NAME_LONGEST,
            )
        for name in players:
            if name.casefold() in seen:
                fail(
                    f"teams[{i}].players", N_("%(name)s cannot sit at the table twice."), name=name
                )
            seen.add(name.casefold())
        team_name = visible(team.name) or team_name_of(players)
        if len(team.name) > NAME_LONGEST:
            fail(
                f"teams[{i}].name",
                N_("A team name has at most %(longest)d characters."),
                longest=NAME_LONGEST,
            )
        clean_teams.append((team_name, players))
    count = sum(len(players) for _, players in clean_teams)
    if count:
        problems += seating_problems(rules, [len(players) for _, players in clean_teams])
    # A team of nobody has no name to share (it is told it needs a player).
    names = [name.casefold() for name, _ in clean_teams if name]
    if len(set(names)) != len(names):
        fail("teams", N_("Two teams cannot have the same name."))
    if season_id is not None and (
        not 0 < season_id <= LARGEST_ID or db.session.get(Season, season_id) is None
    ):
        fail("season", N_("There is no season %(id)s."), id=season_id)
    # A game is started when it is played: a date to come is a slip (2062 for 2026). A day's
    # grace for a tablet whose midnight comes before the server's.
    if played_on is not None and played_on > date.today() + timedelta(days=1):
        fail("played_on", N_("That date is still to come: give the day the game is played."))
    if count:
        # Rules stored before their decks were bounded (a house rule of 14 decks besides one
        # per player): no game past 20 decks, which no import would take back.
        # Nor a game whose decks cannot deal every player a hand and a foot (rules stored
        # before ruleset.dealt_at_every_table checked that where rules are made).
        ceiling = deck_ceiling(rules, count, "teams")
        problems += ceiling or rules.decks_problems(rules.decks_for(count), count)
    if not 0 <= first_dealer_seat < max(count, 1):
        fail("first_dealer_seat", N_("The first dealer must be one of the players."))
    if problems:
        raise Invalid(problems)

    game = Game(
        ruleset=rules.to_dict(),
        ruleset_id=rules.id,
        season_id=season_id,
        played_on=played_on or date.today(),
        decks=rules.decks_for(count),
        first_dealer_seat=first_dealer_seat,
    )
    known = _players([name for _, players in clean_teams for name in players])
    for position, (team_name, players) in enumerate(clean_teams):
        team = Team(position=position, name=team_name)
        team.members = [
            TeamMember(player=known[name.casefold()], seat=seat)
            for seat, name in enumerate(players)
        ]
        game.teams.append(team)
    db.session.add(game)
    db.session.commit()
    return game


# ---------------------------------------------------------------------------
# Deals


def read_tallies(game: Game, data: Any) -> list[TeamTally]:
    """The teams' tallies from JSON, one per team in team order; Malformed otherwise."""
    if not isinstance(data, list):
        raise Malformed.say(N_("teams must be a list with one entry per team."), field="teams")
    if len(data) != len(game.teams):
        raise Malformed.say(
            N_("This game has %(count)d teams; a deal needs one entry for each."),
            field="teams",
            count=len(game.teams),
        )
    problems: list[Problem] = []
    tallies = []
    for i, item in enumerate(data):
        try:
            tallies.append(read_team(item, i))
        except TallyError as error:
            problems.extend(error.problems)
    if problems:
        raise Malformed(problems)
    return tallies


def _named(game: Game, tallies: Sequence[TeamTally]) -> list[TeamTally]:
    from dataclasses import replace

    return [replace(t, name=team.name) for t, team in zip(tallies, game.teams, strict=True)]


def _check(game: Game, rules: RuleSet, number: int, tallies: Sequence[TeamTally]) -> None:
    if len(tallies) != len(game.teams):
        raise Malformed.say(
            N_("This game has %(count)d teams; a deal needs one entry for each."),
            field="teams",
            count=len(game.teams),
        )
    problems = validate_deal(rules, number, _named(game, tallies), game.decks, game.team_sizes)
    if problems:
        raise Invalid(problems)


def record_deal(game_id: int, tallies: Sequence[TeamTally], number: int | None = None) -> Deal:
    """Save the next deal of a game, all teams at once, only if the whole deal is possible.

    ``number`` is the deal the entries were made for, when the caller knows it: if another
    tablet saved that deal first, these entries are refused rather than saved as the next one.
    """
    game = load_game(game_id, corrections=False)
    rules = game.rules()
    _check_kept(game)
    if game.abandoned_at is not None:
        raise Conflict.say(
            N_(
                "This game was abandoned, so no more deals can be entered; only the tablet that "
                "abandoned it can undo that."
            ),
            field="game",
        )
    if number is not None and number != len(game.deals) + 1:
        raise _taken(number)
    number = len(game.deals) + 1
    if number > rules.deal_count:
        raise Conflict.say(
            NP_(
                "The one deal of this game is in; correct it instead.",
                "All %(deals)d deals of this game are in; correct a deal instead.",
                "deals",
            ),
            field="game",
            deals=rules.deal_count,
        )
    _check(game, rules, number, tallies)
    deal = Deal(number=number)
    for position, (team, tally) in enumerate(zip(game.teams, tallies, strict=True)):
        result = DealResult(position=position, team=team)
        result.store(tally)
        result.score = score_team(rules, tally).score
        deal.results.append(result)
    game.deals.append(deal)
    finished = number == rules.deal_count
    if finished:
        game.finished_at = utcnow()
    try:
        summaries.refresh_game(game)
        if finished:
            summaries.bump(game.id)
        db.session.commit()
    except IntegrityError:
        # Another tablet saved this deal number between our read and our write.
        db.session.rollback()
        raise _taken(number) from None
    return deal


def _taken(number: int) -> Conflict:
    """The refusal of entries made for a deal another tablet saved first."""
    return Conflict.say(
        N_("Someone else entered deal %(deal)d just now; nothing was saved."),
        field="game",
        deal=number,
    )


def _check_kept(game: Game) -> None:
    """:class:`DamagedDeal` for a game with a deal kept that no longer reads, before a write.

    Its scores cannot be worked out, nor shown after the write: refused, nothing written.
    """
    names = [team.name for team in game.teams]
    for deal in game.deals:
        for result in deal.results:
            check_kept(result, names[result.position], game.id, deal.number)


def _deal(game: Game, number: int) -> Deal:
    for deal in game.deals:
        if deal.number == number:
            return deal
    raise NotFound.say(N_("Deal %(deal)d has not been played yet."), field="deal", deal=number)


def _field_json(tally: TeamTally, name: str) -> str:
    return json.dumps(tally.to_json()[name], sort_keys=True)


def correct_deal(game_id: int, number: int, version: int, tallies: Sequence[TeamTally]) -> int:
    """Correct a past deal. Refused when someone else saved it since ``version`` was read.

    Returns the deal's version now: ``version`` when the tallies are the ones it has (nothing
    is written), the next one when the correction was saved. (The deal itself is not
    returned: read after the commit, it would be read again from the database.)
    """
    game = load_game(game_id)
    rules = game.rules()
    _check_kept(game)
    deal = _deal(game, number)
    if deal.version != version:
        raise StaleDeal(number, view_game(game).deals[number - 1])
    _check(game, rules, number, tallies)
    batch = (
        db.session.scalar(
            db.select(func.max(Correction.batch)).where(Correction.game_id == game.id)
        )
        or 0
    ) + 1
    changed = False
    for result, tally in zip(deal.results, tallies, strict=True):
        before = result.tally()
        for name in TRACKED_FIELDS:
            old, new = _field_json(before, name), _field_json(tally, name)
            if old != new:
                changed = True
                game.corrections.append(
                    Correction(
                        deal_number=number,
                        batch=batch,
                        team_position=result.position,
                        field=name,
                        old_value=old,
                        new_value=new,
                    )
                )
        result.store(tally)
        result.score = score_team(rules, tally).score
    if not changed:
        db.session.rollback()
        return version
    deal.updated_at = utcnow()
    _commit_deal(number, game)
    return version + 1  # the ORM's version counter: one step per saved change


def _commit_deal(number: int, game: Game) -> None:
    """Commit a changed deal with its game's summaries; StaleDeal if someone saved it first."""
    game_id = game.id
    try:
        summaries.refresh_game(game)
        summaries.bump_if_counted(game)
        db.session.commit()
    except StaleDataError:
        # Another writer saved the same deal between our read and our write.
        db.session.rollback()
        game = load_game(game_id)
        raise StaleDeal(number, view_game(game).deals[number - 1]) from None


def undo_last_correction(game_id: int) -> int | None:
    """Put back the values before the latest correction; returns its deal number, if any.

    What is put back is checked as a correction of the deal would be: an imported log may
    hold values no team can report, or that make an impossible deal, or name a team the
    game does not have. Such an undo is refused (:class:`Conflict`), nothing written.
    """
    game = load_game(game_id)
    live = [c for c in game.corrections if c.undone_at is None]
    if not live:
        return None
    # The latest save: its batch, of its one deal. Two saves of different deals may share a
    # batch number (an imported log, or two tablets correcting one game at the same moment
    # on PostgreSQL), so the deal is part of what picks the rows.
    latest = max(live, key=lambda c: (c.batch, c.id))
    number = latest.deal_number
    rows = [c for c in live if c.batch == latest.batch and c.deal_number == number]
    deal = _deal(game, number)
    rules = game.rules()
    _check_kept(game)
    restored = _restored(game, deal, rows)
    try:
        _check(game, rules, number, restored)
    except (Invalid, Malformed) as error:
        raise _not_undone(game.id, number, error.problems) from None
    changed = {c.team_position for c in rows}
    for result, tally in zip(deal.results, restored, strict=True):
        if result.position in changed:
            result.store(tally)
            result.score = score_team(rules, tally).score
    now = utcnow()
    for correction in rows:
        correction.undone_at = now
    deal.updated_at = now
    _commit_deal(number, game)
    return number


def _restored(game: Game, deal: Deal, rows: Sequence[Correction]) -> list[TeamTally]:
    """Each team's tally of ``deal`` with the old values of ``rows`` put back, read as an
    entry is; :class:`Conflict` if a row names a team or field the deal has not, or a value
    no team can report."""
    problems: list[Problem] = []
    positions = {result.position for result in deal.results}
    if any(c.team_position not in positions for c in rows):
        problems.append(
            Problem(
                None,
                "corrections",
                N_("The correction log names a team this game does not have."),
                {},
            )
        )
    for c in rows:
        if c.field not in TRACKED_FIELDS:
            problems.append(
                Problem(
                    c.team_position,
                    c.field,
                    N_("%(where)s is not a field a correction changes."),
                    {"where": c.field},
                )
            )
    tallies = []
    for result in deal.results:
        data = result.tally().to_json()
        for c in rows:
            if c.team_position == result.position and c.field in TRACKED_FIELDS:
                data[c.field] = _logged(c.old_value)
        try:
            tallies.append(read_team(data, result.position))
        except TallyError as error:
            problems.extend(error.problems)
    if problems:
        raise _not_undone(game.id, deal.number, problems)
    return tallies


def read_logged(text: str) -> Any:
    """A value of the correction log (JSON text, as :func:`correct_deal` writes it).

    Anything but what a correction writes (see :func:`_loggable`), changed by hand, is
    returned as the text it is: text that is not JSON, ``NaN`` (not JSON either, though
    Python reads it), a value nested deeper than Python reads or writes (the export and the
    API write JSON a few frames per level), a number or a name longer than any entry's. The
    log only tells what was changed, so every page, sheet, API answer and export shows such a
    value as that text, and the tally reader refuses it in its own words where it would be put
    back into a deal (undo).
    """
    value = _logged(text)
    return value if _loggable(value) else text


def _logged(text: str) -> Any:
    """A logged value as undo hands it to the tally reader: its JSON if it reads as JSON at
    all, else the text, for the reader to refuse in its own words (10**30 is "between 0 and
    20000", not "a whole number")."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


LOGGED_SHOWN = 40
_LOGGED_KEYS = 20


def _loggable(value: Any, *, nested: bool = False) -> bool:
    """The shape of a value :func:`correct_deal` writes: a number, yes or no, nothing, or
    cards and books by kind (one level of up to 20 short names, each to one of those)."""
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, int | float):
        return abs(value) <= 10**9  # false for NaN and the infinities
    if isinstance(value, str):
        return len(value) <= LOGGED_SHOWN
    if isinstance(value, dict) and not nested:
        return len(value) <= _LOGGED_KEYS and all(
            len(key) <= LOGGED_SHOWN and _loggable(item, nested=True) for key, item in value.items()
        )
    return False


def logged_text(value: Any) -> str:
    """A logged value that is no number, yes/no or cards, as a page or a sheet shows it.

    Only a log changed by hand holds one, and it may be long: it is cut to
    :data:`LOGGED_SHOWN` characters, so it neither fills a page nor stalls a sheet's layout
    (one unbreakable word of thousands of letters). The API and the export give it whole.
    """
    text = str(value)
    if len(text) <= LOGGED_SHOWN:
        return text
    return text[: LOGGED_SHOWN - 1] + "\N{HORIZONTAL ELLIPSIS}"


def _not_undone(game_id: int, number: int, reasons: Sequence[Problem]) -> Conflict:
    """The refusal of an undo that would put back what no deal can hold, and why."""
    headline = Problem(
        None,
        "corrections",
        N_(
            "The last correction of deal %(deal)d of game %(game)d cannot be undone: what it "
            "would put back is not possible. Nothing was changed; correct the deal instead."
        ),
        {"deal": number, "game": game_id},
    )
    return Conflict([headline, *reasons])


# ---------------------------------------------------------------------------
# The game as a whole


def abandon_game(game_id: int) -> None:
    """Stop a game before its last deal: it takes no more deals and counts nowhere until
    :func:`restore_game`. A finished game has its result, and is not abandoned."""
    game = load_game(game_id)
    if game.finished_at is not None:
        raise finished_not_abandoned(game_id)
    if game.abandoned_at is None:
        game.abandoned_at = utcnow()  # a game in progress: no standings change
        db.session.commit()


def finished_not_abandoned(game_id: int) -> Conflict:
    """The refusal to abandon a finished game, also said before anyone asks."""
    return Conflict.say(
        N_("Game %(id)d is finished, so it cannot be abandoned. Delete it if it should not count."),
        field="game",
        id=game_id,
    )


def delete_game(game_id: int) -> None:
    """Hide the game everywhere; :func:`restore_game` brings it back."""
    game = load_game(game_id)
    game.deleted_at = utcnow()
    summaries.bump_if_counted(game)
    db.session.commit()


def restore_game(game_id: int, undo: Literal["delete", "abandon"] | None = None) -> None:
    """Undo deleting (``undo="delete"``) or abandoning a game; by default the delete if it is
    deleted, else the abandon. Undoing one never undoes the other, which another tablet may
    have done: a game abandoned, then deleted, comes back abandoned."""
    game = db.session.get(Game, game_id) if 0 < game_id <= LARGEST_ID else None
    if game is None:
        raise NotFound.say(N_("There is no game %(id)s."), field="game", id=game_id)
    if undo is None:
        undo = "delete" if game.deleted_at is not None else "abandon"
    if undo == "delete":
        game.deleted_at = None
    else:
        game.abandoned_at = None
    summaries.bump_if_counted(game)
    db.session.commit()


def _stamp(deals: int, versions: int, made: int, undone: int, game: Any) -> str:
    ended = "f" if game.finished_at else ("a" if game.abandoned_at else "p")
    return f"{deals}.{versions}.{made}.{undone}.{ended}"


# The statements of the quick readings, built once: only the game's id changes. Each is
# made for a game named by ``game``: the parameter ``_GAME`` (one game), or the column
# ``Game.id`` (each game of a page, as a subquery per row).
_GAME = bindparam("game_id", type_=Integer)


# A deal's version goes up with every change to it, and deals are never removed, so the
# number of a game's deals and the sum of their versions change whenever any deal does.
def _deal_count(game: Any) -> Any:
    return select(func.count(Deal.id)).where(Deal.game_id == game).scalar_subquery()


def _version_sum(game: Any) -> Any:
    return (
        select(func.coalesce(func.sum(Deal.version), 0))
        .where(Deal.game_id == game)
        .scalar_subquery()
    )


def _last_dealt(game: Any) -> Any:
    """When the game's latest deal was written: a restored backup may bring a game back to
    fewer deals, after which others are entered with the same numbers and versions."""
    return select(func.max(Deal.updated_at)).where(Deal.game_id == game).scalar_subquery()


def _correction_count(game: Any) -> Any:
    return select(func.count(Correction.id)).where(Correction.game_id == game).scalar_subquery()


_UNDONE_COUNT = (
    select(func.count(Correction.undone_at)).where(Correction.game_id == _GAME).scalar_subquery()
)
_LIVE_GAME = (Game.id == _GAME, Game.deleted_at.is_(None))
_STAMP_ROW = select(
    Game.finished_at,
    Game.abandoned_at,
    _deal_count(_GAME).label("deals"),
    _version_sum(_GAME).label("versions"),
    _correction_count(_GAME).label("made"),
    _UNDONE_COUNT.label("undone"),
).where(*_LIVE_GAME)
# Games with their season's name and what read_game's cache key and log need.
_GAMES_ROWS = select(
    Game.__table__,
    Season.name.label("season_name"),
    _deal_count(Game.id).label("deal_count"),
    _version_sum(Game.id).label("version_sum"),
    _last_dealt(Game.id).label("last_dealt"),
    _correction_count(Game.id).label("correction_count"),
).outerjoin(Season, Season.id == Game.season_id)
_GAME_ROW = _GAMES_ROWS.where(*_LIVE_GAME)
_TEAMS_ROWS = (
    select(
        Team.game_id,
        Team.id,
        Team.position,
        Team.name,
        Player.id.label("player_id"),
        Player.name.label("player_name"),
    )
    .join(TeamMember, TeamMember.team_id == Team.id)
    .join(Player, Player.id == TeamMember.player_id)
    .order_by(Team.game_id, Team.position, TeamMember.seat)
)
_TEAM_ROWS = _TEAMS_ROWS.where(Team.game_id == _GAME)
_CORRECTIONS_ROWS = select(Correction.__table__).order_by(Correction.id)
_CORRECTION_ROWS = _CORRECTIONS_ROWS.where(Correction.game_id == _GAME)
_DEALS_ROWS = (
    select(Deal.game_id, Deal.number, Deal.version, DealResult.__table__)
    .join(DealResult, DealResult.deal_id == Deal.id)
    .order_by(Deal.game_id, Deal.number, DealResult.position)
)
_DEAL_ROWS = _DEALS_ROWS.where(Deal.game_id == _GAME)


def change_stamp(game_id: int) -> str:
    """A short text that changes whenever anything the game's score sheet shows changes.

    Another tablet polls it to see new deals and corrections without reloading the page;
    one query of aggregates instead of the whole game.
    """
    if not 0 < game_id <= LARGEST_ID:
        raise NotFound.say(N_("There is no game %(id)s."), field="game", id=game_id)
    row = db.session.execute(_STAMP_ROW, {"game_id": game_id}).one_or_none()
    if row is None:
        raise NotFound.say(N_("There is no game %(id)s."), field="game", id=game_id)
    return _stamp(row.deals, row.versions, row.made, row.undone, row)


# ---------------------------------------------------------------------------
# Reading a game for a page, quickly


class _ScoredDeals:
    """The scored deals of recently shown games, kept between requests (one per app).

    Scoring is pure, so a game's scored deals stay right while its deals do: the key holds
    the game's uid (a restored or imported database never mixes up two games of the same
    id), the number of its deals and the sum of their versions (every change to a deal
    raises its version), when its latest deal was written (a game restored from a backup
    to fewer deals, then played on, may reach the same number and versions with other
    deals), and the team names the tallies carry. Names of players, the season and the
    correction log are read afresh on every request. A deal changed by hand in the database
    changes none of these: its game shows the scores kept until they leave the cache.
    """

    SIZE = 64

    def __init__(self) -> None:
        self._deals: OrderedDict[tuple[Any, ...], list[DealView]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> list[DealView] | None:
        with self._lock:
            deals = self._deals.get(key)
            if deals is not None:
                self._deals.move_to_end(key)
            return deals

    def put(self, key: tuple[Any, ...], deals: list[DealView]) -> None:
        with self._lock:
            self._deals[key] = deals
            self._deals.move_to_end(key)
            while len(self._deals) > self.SIZE:
                self._deals.popitem(last=False)


def forget_scored_deals() -> None:
    """Empty this process's kept scores (a restore replaced the database under them)."""
    current_app.extensions.pop("scorekeeper.scored_deals", None)


def _scored_deals() -> _ScoredDeals:
    cache: _ScoredDeals | None = current_app.extensions.get("scorekeeper.scored_deals")
    if cache is None:
        cache = current_app.extensions.setdefault("scorekeeper.scored_deals", _ScoredDeals())
    return cache


def read_game(game_id: int) -> GameView:
    """The view of a game for a page that only shows it, in two to four plain queries.

    The same view as ``view_game(load_game(game_id))``, read as plain rows instead of model
    objects, and with its scored deals kept between requests while they stay the same
    (``_ScoredDeals``). The tablets at a table all show the game after every save: one
    scores it, the others reuse that. Writes still go through :func:`load_game`.
    """
    record, game = _read_record(game_id)
    connection = db.session.connection()
    deal_rows = partial(connection.execute, _DEAL_ROWS, {"game_id": game_id})
    return _view(record, _scored(record, game, deal_rows))


def read_record(game_id: int) -> GameRecord:
    """The game as :func:`read_game` reads it, its rules and deals neither read nor scored.

    For the one page that must work for a game whose stored rules or deals no longer read:
    confirming that it is deleted.
    """
    return _read_record(game_id)[0]


def _read_record(game_id: int) -> tuple[GameRecord, Any]:
    if not 0 < game_id <= LARGEST_ID:
        raise NotFound.say(N_("There is no game %(id)s."), field="game", id=game_id)
    connection = db.session.connection()
    which = {"game_id": game_id}
    game = connection.execute(_GAME_ROW, which).one_or_none()
    if game is None:
        raise NotFound.say(N_("There is no game %(id)s."), field="game", id=game_id)
    # Most games are never corrected: their (empty) log needs no query.
    corrections: Iterable[Any] = (
        connection.execute(_CORRECTION_ROWS, which) if game.correction_count else ()
    )
    return _game_record(game, connection.execute(_TEAM_ROWS, which), corrections), game


def read_games(
    page: int = 1, per_page: int = 20, player_id: int | None = None, *, playing: bool = False
) -> tuple[list[GameView], int]:
    """A page of games newest first, as :func:`read_game` reads one; and how many in all.
    Only games still being played (neither finished nor abandoned) when ``playing``.

    Plain rows in four queries, five if a game's scored deals are not kept already, whatever
    the page holds: the count, the games, their teams, their correction logs, and the deals
    of the games whose scores are not kept (scored here and kept, as :func:`read_game` does).
    A page past the last takes two (the count and no game).
    """
    # Past the page that holds the game of the largest id possible, every page is empty;
    # a larger offset would not even fit the database's integers.
    page = min(max(page, 1), LARGEST_ID // max(per_page, 1) + 1)
    connection = db.session.connection()
    listed = _listed(player_id, playing=playing)
    total = connection.scalar(select(func.count(Game.id)).where(*listed)) or 0
    newest_first = (Game.played_on.desc(), Game.id.desc())
    skipped = (page - 1) * per_page
    games = _GAMES_ROWS.where(*listed)
    if skipped:
        # Past the first page, the page's games are picked first, on their own: both SQLite
        # and PostgreSQL worked out each game's deal figures (subqueries per game) for every
        # game the offset skips too (page 400 of all games: 11.9 ms to 2.6 ms). The first
        # page skips none, and is faster read straight (1.2 ms against 1.6 ms).
        on_page = (
            select(Game.id)
            .where(*listed)
            .order_by(*newest_first)
            .limit(per_page)
            .offset(skipped)
            .subquery("page")
        )
        games = _GAMES_ROWS.where(Game.id.in_(select(on_page.c.id)))
    rows = connection.execute(games.order_by(*newest_first).limit(per_page)).all()
    ids = [row.id for row in rows]
    teams: dict[int, list[Any]] = {game_id: [] for game_id in ids}
    corrections: dict[int, list[Any]] = {game_id: [] for game_id in ids}
    if ids:
        for row in connection.execute(_TEAMS_ROWS.where(Team.game_id.in_(ids))):
            teams[row.game_id].append(row)
        # Read even when no game of the page was corrected: as many queries for any page.
        for row in connection.execute(_CORRECTIONS_ROWS.where(Correction.game_id.in_(ids))):
            corrections[row.game_id].append(row)
    records = [_game_record(row, teams[row.id], corrections[row.id]) for row in rows]
    # The deals of every game whose scores are not kept, in one query; none if all are.
    keys = [_scored_key(record, row) for row, record in zip(rows, records, strict=True)]
    kept = [_scored_deals().get(key) for key in keys]
    missing = [row.id for row, deals in zip(rows, kept, strict=True) if deals is None]
    stored: dict[int, list[Any]] = {game_id: [] for game_id in missing}
    if missing:
        for row in connection.execute(_DEALS_ROWS.where(Deal.game_id.in_(missing))):
            stored[row.game_id].append(row)
    views = [
        _view(record, deals if deals is not None else _score(record, key, stored[record.id]))
        for record, key, deals in zip(records, keys, kept, strict=True)
    ]
    return views, total


def _listed(player_id: int | None, *, playing: bool = False) -> list[Any]:
    """Which games a list shows: those not deleted; those ``player_id`` sat in if given;
    those neither finished nor abandoned if ``playing``."""
    where: list[Any] = [Game.deleted_at.is_(None)]
    if playing:
        where += [Game.finished_at.is_(None), Game.abandoned_at.is_(None)]
    if player_id is not None and playing:
        # The games in play are few, a regular's games thousands: each game in play is
        # asked whether the player sat in it, through its teams. "+ 0" keeps SQLite from
        # reading all the player's seats first, by the player's index (10,000 games:
        # 3.5 ms a query to 0.1).
        where.append(
            select(Team.id)
            .join(TeamMember, TeamMember.team_id == Team.id)
            .where(Team.game_id == Game.id, TeamMember.player_id + 0 == player_id)
            .exists()
        )
    elif player_id is not None:
        where.append(
            Game.id.in_(
                select(Team.game_id)
                .join(TeamMember, TeamMember.team_id == Team.id)
                .where(TeamMember.player_id == player_id)
            )
        )
    return where


def _game_record(game: Any, team_rows: Iterable[Any], corrections: Iterable[Any]) -> GameRecord:
    """The plain copy of a game from its row, its teams' rows and its correction log's."""
    teams: dict[int, tuple[Any, list[MemberRecord]]] = {}
    for row in team_rows:
        teams.setdefault(row.id, (row, []))[1].append(
            MemberRecord(PlayerRecord(row.player_id, row.player_name))
        )
    return GameRecord(
        id=game.id,
        uid=game.uid,
        ruleset=game.ruleset,
        ruleset_id=game.ruleset_id,
        season=SeasonRecord(game.season_id, game.season_name) if game.season_id else None,
        played_on=game.played_on,
        decks=game.decks,
        first_dealer_seat=game.first_dealer_seat,
        created_at=game.created_at,
        finished_at=game.finished_at,
        abandoned_at=game.abandoned_at,
        deleted_at=game.deleted_at,
        teams=tuple(
            TeamRecord(team.id, team.position, team.name, tuple(members))
            for team, members in sorted(teams.values(), key=lambda item: item[0].position)
        ),
        corrections=tuple(_correction_record(c) for c in corrections),
    )


def _scored_key(record: GameRecord, game: Any) -> tuple[Any, ...]:
    return (
        record.uid,
        game.deal_count,
        game.version_sum,
        game.last_dealt,
        *(team.name for team in record.teams),
    )


def _scored(
    record: GameRecord, game: Any, deal_rows: Callable[[], Iterable[Any]]
) -> list[DealView]:
    """The game's scored deals: kept ones while they stay the same, else its rows scored."""
    key = _scored_key(record, game)
    deals = _scored_deals().get(key)
    return deals if deals is not None else _score(record, key, deal_rows())


def _score(record: GameRecord, key: tuple[Any, ...], deal_rows: Iterable[Any]) -> list[DealView]:
    """The game's deals scored from their rows (in deal and team order), and kept."""
    stored: dict[int, tuple[int, int, list[Any]]] = {}
    for row in deal_rows:
        stored.setdefault(row.number, (row.number, row.version, []))[2].append(row)
    names = [team.name for team in record.teams]
    deals = score_deals(
        rules_of(record.ruleset, record.id), names, list(stored.values()), record.id
    )
    _scored_deals().put(key, deals)
    return deals


def corrections(game_id: int) -> list[CorrectionRecord]:
    return list(read_game(game_id).game.corrections)


def tallies_from_mapping(items: Sequence[Mapping[str, Any]]) -> list[TeamTally]:
    """Tallies from already-parsed team mappings (forms), reporting every malformed field."""
    problems: list[Problem] = []
    tallies = []
    for i, item in enumerate(items):
        try:
            tallies.append(read_team(item, i))
        except TallyError as error:
            problems.extend(error.problems)
    if problems:
        raise Malformed(problems)
    return tallies
