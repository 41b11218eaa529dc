"""A season of made-up but valid games, so a newcomer sees a living app and benchmarks have data.

Every game is started and every deal recorded through :mod:`scorekeeper.services` (the one
write path), and every deal is generated from real cards: books, melds, red threes and the
cards left are taken from the decks in play, so no deal needs more cards than exist. Each
generated deal is checked with :func:`~scorekeeper.rules.validate_deal` and generated again
until the rules accept it.

Everything is drawn from one ``random.Random(seed)`` in a fixed order (tuples, never sets)
and the dates come from the seed, not the clock: the same seed gives the same games.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any

from sqlalchemy import func

from scorekeeper.extensions import db
from scorekeeper.models import Game, HouseRules, Player, Season
from scorekeeper.rules import (
    CardClass,
    Cards,
    DealRule,
    PlayStyle,
    RuleSet,
    TeamTally,
    cards_in_play,
    red_threes_in_play,
    validate_deal,
)
from scorekeeper.services import games as game_service
from scorekeeper.services import players as player_service
from scorekeeper.services import rulesets as ruleset_service
from scorekeeper.services.games import TeamSpec

# A club of twelve; the pairs below usually play together.
NAMES = (
    "Ann",
    "Ben",
    "Carla",
    "Dirk",
    "Els",
    "Finn",
    "Greta",
    "Hugo",
    "Ines",
    "Joost",
    "Mette",
    "Søren",
)
PAIRS = (
    ("Ann", "Ben"),
    ("Carla", "Dirk"),
    ("Els", "Finn"),
    ("Greta", "Hugo"),
    ("Ines", "Joost"),
    ("Mette", "Søren"),
)
# Some regular partnerships have a team name of their own.
NICKNAMES = {("Greta", "Hugo"): "Red Threes", ("Mette", "Søren"): "Foot Soldiers"}

HOUSE_RULES_SLUG = "kitchen-table"
HOUSE_RULES_NAME = "Kitchen table"
HOUSE_RULES_OVERRIDES: dict[str, Any] = {
    "opening_minimums": [60, 90, 120, 150],
    "going_out_bonus": 200,
}


@dataclass(frozen=True)
class Table:
    """One kind of evening: which rules, how many players, how many in a team."""

    rules: str  # a preset id, or HOUSE_RULES_SLUG
    players: int
    team_size: int
    weight: int


TABLES = (
    Table("standard", 4, 2, 40),
    Table("standard", 6, 2, 5),
    Table("standard", 6, 3, 3),
    Table("standard", 3, 1, 3),
    Table("no-wild-books", 4, 2, 9),
    Table("eleven-card", 4, 2, 6),
    Table("eleven-card", 5, 1, 2),
    Table("saskatchewan", 4, 2, 7),
    Table("simpson", 3, 1, 4),
    Table("simpson", 4, 1, 3),
    Table("brouillette", 4, 1, 3),
    Table("brouillette-low", 3, 1, 2),
    Table("brouillette-partners", 4, 2, 5),
    Table(HOUSE_RULES_SLUG, 4, 2, 6),
)

NATURAL_RANKS = (  # card classes and how many ranks each holds
    (CardClass.ACES, 1),
    (CardClass.EIGHTS_TO_KINGS, 6),
    (CardClass.FOURS_TO_SEVENS, 4),
)
WILD_CARDS = (CardClass.JOKERS, CardClass.TWOS)
STOCK_OUT_CHANCE = 0.12  # deals where the stock runs out and nobody goes out
ATTEMPTS = 40  # generated tallies per deal before falling back to a minimal deal
CORRECTION_CHANCE = 0.04  # games where the table later fixes a typo


class _Short(Exception):
    """The decks ran short of a card this deal needs: generate the deal again."""


class _Shoe:
    """The cards of the decks in play that no team has reported yet."""

    def __init__(self, decks: int, rng: random.Random) -> None:
        self.rng = rng
        self.cards = cards_in_play(decks)
        self.red_threes = red_threes_in_play(decks)

    def take(self, card: CardClass, n: int, into: dict[CardClass, int]) -> None:
        if self.cards[card] < n:
            raise _Short
        self.cards[card] -= n
        into[card] += n

    def rank(self, n: int) -> CardClass:
        """A natural card class with ``n`` cards left, chosen as often as its ranks."""
        options = [(card, ranks) for card, ranks in NATURAL_RANKS if self.cards[card] >= n]
        if not options:
            raise _Short
        return self.rng.choices([c for c, _ in options], [w for _, w in options])[0]

    def wild(self) -> CardClass:
        options = [card for card in WILD_CARDS if self.cards[card]]
        if not options:
            raise _Short
        return self.rng.choices(options, [self.cards[c] for c in options])[0]

    def any(self) -> CardClass:
        options = [card for card in CardClass if self.cards[card]]
        if not options:
            raise _Short
        return self.rng.choices(options, [self.cards[c] for c in options])[0]


class DealMaker:
    """Realistic tallies for one deal of one game, checked by the rules before use."""

    def __init__(
        self, rules: RuleSet, team_sizes: Sequence[int], decks: int, rng: random.Random
    ) -> None:
        self.rules = rules
        self.team_sizes = list(team_sizes)
        self.decks = decks
        self.rng = rng
        self.alone = rules.play_style is PlayStyle.INDIVIDUALS or max(team_sizes) == 1

    def deal(self, number: int) -> tuple[list[TeamTally], bool]:
        """Valid tallies for deal ``number``, and whether the minimal fallback was needed."""
        for _ in range(ATTEMPTS):
            try:
                tallies = self._attempt(number)
            except _Short:
                continue
            if not validate_deal(self.rules, number, tallies, self.decks, self.team_sizes):
                return tallies, False
        # Nobody went out and nothing was melded: possible under every ruleset. Each player
        # still holds a hand and a foot, of the cheapest cards at least.
        rules = self.rules
        each = (rules.hand_cards + rules.foot_cards) * rules.card_values.cheapest
        fallback = [TeamTally(left=Cards(points=size * each)) for size in self.team_sizes]
        problems = validate_deal(self.rules, number, fallback, self.decks, self.team_sizes)
        if problems:
            raise RuntimeError(f"no valid deal {number} under {self.rules.id}: {problems}")
        return fallback, True

    def _attempt(self, number: int) -> list[TeamTally]:
        rng = self.rng
        shoe = _Shoe(self.decks, rng)
        teams = len(self.team_sizes)
        out = None if rng.random() < STOCK_OUT_CHANCE else rng.randrange(teams)
        rule = self.rules.deal(number)
        return [self._team(shoe, rule, number, i, out == i) for i in range(teams)]

    def _team(
        self, shoe: _Shoe, rule: DealRule, number: int, index: int, went_out: bool
    ) -> TeamTally:
        rng, rules = self.rng, self.rules
        players = self.team_sizes[index]
        need = rule.go_out
        melded = dict.fromkeys(CardClass, 0)
        # Later deals need bigger openings: some teams never get down at all.
        opened = went_out or rng.random() > 0.04 + 0.03 * number
        clean = dirty = wild = black = 0
        if opened:
            if went_out:
                clean = need.clean + rng.choice((0, 0, 1, 1, 2))
                dirty = need.dirty + rng.choice((0, 0, 1, 1, 2))
                wild = need.wild + (1 if rng.random() < 0.1 else 0)
            else:
                clean = rng.randint(0, need.clean + 1)
                dirty = rng.randint(0, need.dirty + 1)
                wild = rng.randint(0, need.wild)
            if not rules.wild_books:
                wild = 0
            if rules.black_three_books and rng.random() < 0.08:
                black = 1
            if rule.opening_needs_concealed_book and not clean + dirty + wild + black:
                clean = 1  # this deal opens with a concealed book
            self._books(shoe, melded, clean, dirty, wild, black)
            for _ in range(rng.choice((0, 1, 1, 2, 3))):
                self._meld(shoe, melded)
            # The opening meld stays on the table, so what is melded reaches the minimum.
            for _ in range(8):
                if self._value(melded) >= rule.opening_minimum:
                    break
                self._meld(shoe, melded, CardClass.EIGHTS_TO_KINGS)
            else:
                raise _Short
        value = self._value(melded)

        red_threes = caught = 0
        if rules.red_threes_laid:
            red_threes = min(
                shoe.red_threes, rng.choice((0, 1, 1, 2, 2, 3, 4) if went_out else (0, 0, 1, 1, 2))
            )
            shoe.red_threes -= red_threes
        may_be_caught = not went_out or (not self.alone and not rules.partner_in_foot_to_go_out)
        if may_be_caught and shoe.red_threes and rng.random() < (0.03 if went_out else 0.15):
            caught = 1
            shoe.red_threes -= 1

        # Every player who did not go out still holds a card; a team that never opened still
        # holds every foot, and every hand where the rules make sure of it (what deal_hints
        # looks for).
        left = dict.fromkeys(CardClass, 0)
        if went_out:
            cards = 0 if self.alone else players - 1 + rng.choice((0, 1, 2, 4, 7, 10))
        else:
            cards = sum(rng.randint(2, 14) for _ in range(players))
            if not opened:
                cards += players * rules.unopened_cards
            elif caught:
                cards += rules.foot_cards  # a foot never picked up
        for _ in range(cards):
            shoe.take(shoe.any(), 1, left)

        opening_meld = None
        if value and not rule.opening_needs_concealed_book and rng.random() < 0.25:
            step = rules.card_values.step
            opening_meld = min(value, rule.opening_minimum + step * rng.randint(0, 8))

        exact_draws = 0
        if rules.exact_draw_bonus:
            exact_draws = min(
                1 if self.alone else players,
                sum(1 for _ in range(players) if rng.random() < 0.12),
            )

        counted = rng.random() < 0.2
        return TeamTally(
            clean_books=clean,
            dirty_books=dirty,
            wild_books=wild,
            black_three_books=black,
            red_threes=red_threes,
            red_threes_caught=caught,
            melded=Cards.of_counts(melded) if counted else Cards(points=value),
            left=(
                Cards.of_counts(left)
                if counted and rng.random() < 0.5
                else Cards(points=rules.card_values.total(left))
            ),
            went_out=went_out,
            opening_meld=opening_meld,
            exact_draws=exact_draws,
        )

    def _value(self, melded: dict[CardClass, int]) -> int:
        # Black threes in a black-three book count against the team, not towards its melds.
        return self.rules.card_values.total(
            {card: n for card, n in melded.items() if card is not CardClass.BLACK_THREES}
        )

    def _length(self) -> int:
        size = self.rules.book_size
        return size + (self.rng.choice((0, 0, 0, 1, 2)) if self.rules.books_may_grow else 0)

    def _books(
        self,
        shoe: _Shoe,
        melded: dict[CardClass, int],
        clean: int,
        dirty: int,
        wild: int,
        black: int,
    ) -> None:
        rules, rng = self.rules, self.rng
        for _ in range(clean):
            length = self._length()
            shoe.take(shoe.rank(length), length, melded)
        for _ in range(dirty):
            length = self._length()
            most = rules.max_wilds(length)
            if most < 1:
                raise _Short
            wilds = rng.randint(1, most)
            shoe.take(shoe.rank(length - wilds), length - wilds, melded)
            for _ in range(wilds):
                shoe.take(shoe.wild(), 1, melded)
        for _ in range(wild):
            for _ in range(self._length()):
                shoe.take(shoe.wild(), 1, melded)
        for _ in range(black):
            shoe.take(CardClass.BLACK_THREES, rules.book_size, melded)

    def _meld(
        self, shoe: _Shoe, melded: dict[CardClass, int], rank: CardClass | None = None
    ) -> None:
        """An unfinished meld of three to five cards, with wild cards as the rules allow."""
        rng = self.rng
        length = rng.randint(3, 5)
        most = self.rules.max_wilds(length)
        wilds = rng.randint(0, most) if most and rng.random() < 0.4 else 0
        naturals = length - wilds
        if rank is None or shoe.cards[rank] < naturals:
            rank = shoe.rank(naturals)
        shoe.take(rank, naturals, melded)
        for _ in range(wilds):
            shoe.take(shoe.wild(), 1, melded)


# ---------------------------------------------------------------------------
# Seating and the season


def seat(table: Table, rng: random.Random) -> list[TeamSpec]:
    """The teams of one game: regular partnerships mostly, sometimes a shuffle."""
    if table.team_size == 2 and rng.random() < 0.75:
        pairs = rng.sample(PAIRS, table.players // 2)
        return [TeamSpec(NICKNAMES.get(pair, ""), list(pair)) for pair in pairs]
    people = rng.sample(NAMES, table.players)
    size = table.team_size
    return [TeamSpec("", people[i : i + size]) for i in range(0, len(people), size)]


@dataclass
class DemoSummary:
    games: int = 0
    deals: int = 0
    corrections: int = 0
    fallbacks: int = 0
    players_created: int = 0
    seasons_created: int = 0
    house_rules_created: int = 0
    season: str = ""
    first_day: date | None = None
    last_day: date | None = None


def season_dates(seed: int) -> tuple[date, date]:
    """Half a year, starting on a day the seed picks (never today's date)."""
    start = date(2024, 1, 1) + timedelta(days=random.Random(f"season-{seed}").randrange(730))
    return start, start + timedelta(days=181)


def _player_count() -> int:
    return db.session.scalar(db.select(func.count()).select_from(Player)) or 0


def _season(name: str, starts_on: date, ends_on: date, summary: DemoSummary) -> Season:
    existing: Season | None = db.session.scalar(
        db.select(Season).where(func.lower(Season.name) == name.lower())
    )
    if existing is not None:
        return existing
    summary.seasons_created += 1
    return player_service.create_season(name, starts_on, ends_on)


def _house_rules(summary: DemoSummary) -> HouseRules:
    existing = ruleset_service.find_house_rules(HOUSE_RULES_SLUG) or db.session.scalar(
        db.select(HouseRules).where(func.lower(HouseRules.name) == HOUSE_RULES_NAME.lower())
    )
    if existing is not None:
        return existing
    summary.house_rules_created += 1
    return ruleset_service.create_house_rules(HOUSE_RULES_NAME, "standard", HOUSE_RULES_OVERRIDES)


def _correct_a_typo(game: Game, rules: RuleSet, rng: random.Random) -> bool:
    """Change the cards left of one team in one deal, as a table fixing a typo would."""
    view = game_service.read_game(game.id)
    deal = rng.choice(view.deals)
    tallies = [result.tally for result in deal.results]
    index = rng.randrange(len(tallies))
    tally = tallies[index]
    if tally.went_out or tally.left.counted:
        return False
    step = rules.card_values.step
    points = (tally.left.points or 0) + step * rng.choice((-4, -2, -1, 1, 2, 4))
    tallies[index] = replace(tally, left=Cards(points=max(points, 0)))
    sizes = view.game.team_sizes
    if tallies[index] == tally or validate_deal(rules, deal.number, tallies, game.decks, sizes):
        return False
    game_service.correct_deal(game.id, deal.number, deal.version, tallies)
    return True


def run_demo(
    games: int,
    seed: int,
    season_name: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> DemoSummary:
    """Play ``games`` made-up games into the database; ``progress`` hears after each game."""
    rng = random.Random(seed)
    first, last = season_dates(seed)
    summary = DemoSummary(season=season_name or f"Demo season {first:%Y-%m}")
    players_before = _player_count()
    season = _season(summary.season, first, last, summary)
    season_id = season.id
    house_id = _house_rules(summary).id

    days = sorted(first + timedelta(days=rng.randrange(182)) for _ in range(games))
    summary.first_day, summary.last_day = (days[0], days[-1]) if days else (None, None)
    weights = [table.weight for table in TABLES]
    for n, played_on in enumerate(days, start=1):
        table = rng.choices(TABLES, weights)[0]
        ref: str | int = house_id if table.rules == HOUSE_RULES_SLUG else table.rules
        teams = seat(table, rng)
        game = game_service.start_game(
            ref,
            teams,
            season_id=season_id,
            played_on=played_on,
            first_dealer_seat=rng.randrange(table.players),
        )
        game_id, rules = game.id, game.rules()
        maker = DealMaker(rules, [len(team.players) for team in teams], game.decks, rng)
        for number in range(1, rules.deal_count + 1):
            tallies, fell_back = maker.deal(number)
            summary.fallbacks += fell_back
            game_service.record_deal(game_id, tallies)
            summary.deals += 1
        if rng.random() < CORRECTION_CHANCE and _correct_a_typo(game, rules, rng):
            summary.corrections += 1
        summary.games += 1
        # Keep the session small: thousands of games must not pile up in its identity map.
        db.session.expunge_all()
        if progress is not None:
            progress(n)
    summary.players_created = _player_count() - players_before
    return summary
