"""A RuleSet: everything a house-rule system decides about scoring, as plain data.

Every preset is one value of :class:`RuleSet`; house rules are presets with
overrides. A RuleSet round-trips through JSON (``to_dict`` / ``from_dict``)
without loss, and :func:`check_ruleset` reports what makes no sense in it.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from .cards import CARDS_PER_DECK, NATURAL_RANKS, CardClass, CardValues
from .i18n import N_, NP_, Template
from .problems import Problem
from .tally import BOUNDS as TALLY_BOUNDS


class PlayStyle(StrEnum):
    PARTNERSHIPS = "partnerships"
    INDIVIDUALS = "individuals"


class WildLimit(StrEnum):
    """How many wild cards a meld or book of natural cards may hold."""

    TWICE_AS_MANY_NATURALS = "twice_as_many_naturals"  # naturals >= 2 x wilds
    MORE_NATURALS = "more_naturals"  # naturals > wilds
    MIN_NATURALS = "min_naturals"  # wilds only with at least N naturals


class BookKind(StrEnum):
    CLEAN = "clean"
    DIRTY = "dirty"
    WILD = "wild"


@dataclass(frozen=True)
class BookCount:
    """A number of books of each kind: what going out needs, or what a team has."""

    clean: int = 0
    dirty: int = 0
    wild: int = 0

    def shortfall(self, have: BookCount) -> BookCount:
        """The books still missing from ``have`` to reach this requirement."""
        return BookCount(
            clean=max(0, self.clean - have.clean),
            dirty=max(0, self.dirty - have.dirty),
            wild=max(0, self.wild - have.wild),
        )

    @property
    def total(self) -> int:
        return self.clean + self.dirty + self.wild

    def __bool__(self) -> bool:
        return self.total > 0


@dataclass(frozen=True)
class DealRule:
    """One deal of the game: its opening-meld minimum and what going out needs."""

    opening_minimum: int
    go_out: BookCount = field(default_factory=BookCount)
    # Saskatchewan's last deal: the opening must be a concealed book (canasta)
    # instead of reaching the points minimum.
    opening_needs_concealed_book: bool = False


@dataclass(frozen=True)
class SpecialBook:
    """A book a house rule rewards on its own, e.g. a 1000-point book of sevens."""

    id: str
    name: str
    bonus: int
    # The least its cards can be worth (a book of sevens: 7 x 5 = 35).
    min_points: int = 0
    # Which kind it also counts as towards going out, if any.
    counts_as: BookKind | None = None


@dataclass(frozen=True)
class RuleSet:
    id: str
    name: str
    deals: tuple[DealRule, ...]
    description: str = ""
    source: str = ""
    # Who plays: partnerships fall back to everyone alone when the players
    # cannot be split into teams of an allowed size, unless alone_when_unpaired is off:
    # then such a table cannot play these rules (Brouillette's partner version). With
    # alone_by_choice, a table that could pair up may also have everyone play alone (the
    # French text: "la personne ou l'équipe avec le score le plus élevé l'emporte").
    play_style: PlayStyle = PlayStyle.PARTNERSHIPS
    partnership_sizes: tuple[int, ...] = (2, 3)
    alone_when_unpaired: bool = True
    alone_by_choice: bool = False
    min_players: int = 2
    max_players: int = 7
    extra_decks: int = 1  # decks = players + extra_decks,
    min_decks: int = 0  # but at least this many (0: no floor)
    max_decks: int = 0  # and at most this many (0: no ceiling)
    hand_cards: int = 13
    foot_cards: int = 13
    discard_pickup: int | None = 7  # None: the whole pile
    card_values: CardValues = field(default_factory=CardValues)
    # Books
    book_size: int = 7
    books_may_grow: bool = False
    # A team has at most one meld of each rank (Simpson): no second meld of a rank is
    # started, so it has at most one book of each.
    one_meld_per_rank: bool = False
    wild_limit: WildLimit = WildLimit.TWICE_AS_MANY_NATURALS
    min_naturals: int = 0  # with WildLimit.MIN_NATURALS
    clean_book_bonus: int = 500
    dirty_book_bonus: int = 300
    wild_books: bool = True
    wild_book_bonus: int = 1500
    black_three_books: bool = False
    black_three_book_bonus: int = 0
    special_books: tuple[SpecialBook, ...] = ()
    # Red threes
    red_threes_laid: bool = True  # False: discarded at once, never laid
    red_three_bonus: int = 100
    red_three_penalty: int = 100  # each one still hidden when the deal ends
    # Going out
    going_out_bonus: int = 100
    partner_in_foot_to_go_out: bool = True
    permission_to_go_out: bool = True
    must_discard_to_go_out: bool = False
    exact_draw_bonus: int = 0
    based_on: str | None = None

    # --- derived facts -------------------------------------------------

    @property
    def deal_count(self) -> int:
        return len(self.deals)

    @property
    def opening_minimums(self) -> tuple[int, ...]:
        return tuple(deal.opening_minimum for deal in self.deals)

    def deal(self, number: int) -> DealRule:
        """The rules of deal ``number`` (1-based)."""
        if not 1 <= number <= self.deal_count:
            raise ValueError(f"deal {number} is outside a game of {self.deal_count} deals")
        return self.deals[number - 1]

    def max_wilds(self, cards: int) -> int:
        """The most wild cards a meld of ``cards`` cards of one rank may hold."""
        if self.wild_limit is WildLimit.TWICE_AS_MANY_NATURALS:
            return cards // 3
        if self.wild_limit is WildLimit.MORE_NATURALS:
            return (cards - 1) // 2
        return max(0, cards - self.min_naturals) if cards >= self.min_naturals + 1 else 0

    def clean_for_going_out(self, clean_books: int, black_three_books: int) -> int:
        """The clean books a team has toward going out: a black-three book is a clean meld
        (seed 003: "Sorte trekanter kan bruges til at skabe en ren meld"), so it is one of
        them; one at most where each rank melds once (a second one is no book of these
        rules), none where the rules have no black-three books."""
        return clean_books + min(black_three_books, self.most_black_three_books)

    @property
    def most_black_three_books(self) -> int:
        """The most black-three books a team can lay in a deal: none where the rules have
        none, one where each rank melds once, else as many as a team's count may say."""
        if not self.black_three_books:
            return 0
        return 1 if self.one_meld_per_rank else TALLY_BOUNDS["black_three_books"][1]

    @property
    def unopened_holds_hand(self) -> bool:
        """Whether a player whose team melded nothing still holds every card dealt into the
        hand: a hand only grows until its player melds ("Da du zwei ziehst und eine ablegst,
        wächst deine Hand", seed 001) and the discard pile is only taken with a meld, where
        the packets are dealt exactly and a red three is replaced; not where each player
        picks about 22 cards, nor where red threes are discarded at once ("Kassér røde tre
        med det samme", seed 003: Simpson)."""
        return self.red_threes_laid and not self.exact_draw_bonus

    @property
    def unopened_cards(self) -> int:
        """The cards dealt to each player of a team that melded nothing and still held:
        the foot, never picked up, and the hand where :attr:`unopened_holds_hand`."""
        return self.foot_cards + (self.hand_cards if self.unopened_holds_hand else 0)

    def has_partners(self, *, alone: bool = False) -> bool:
        """Whether a player has a partner to wait for or to ask before going out: only in
        partnership play, and not where the player sits alone (``alone``: a team of one, or a
        table where partnership rules seat everyone alone). House rules of players alone may
        keep the partner ticks; those never apply."""
        return self.play_style is PlayStyle.PARTNERSHIPS and not alone

    @property
    def seats_players_alone(self) -> bool:
        """Whether some table these rules seat has everyone play alone (the standard rules
        at three, five or seven players)."""
        return any(
            size == 1
            for players in range(self.min_players, self.max_players + 1)
            for _, size in self.seatings(players)
        )

    def seatings(self, players: int) -> list[tuple[int, int]]:
        """The ways ``players`` can sit down: (number of teams, players per team)."""
        if self.play_style is PlayStyle.PARTNERSHIPS:
            options = [
                (players // size, size)
                for size in self.partnership_sizes
                if players % size == 0 and players // size >= 2
            ]
            if self.alone_by_choice and options:  # not where nobody plays alone
                options.append((players, 1))
            if options or not self.alone_when_unpaired:
                return options
        return [(players, 1)]

    def team_sizes_for(self, teams: int) -> list[int]:
        """How many players each of ``teams`` teams may have at a table these rules seat
        (the standard rules: 1 for five teams, 1 or 2 for three, none for four)."""
        return sorted(
            {
                size
                for players in range(self.min_players, self.max_players + 1)
                for count, size in self.seatings(players)
                if count == teams
            }
        )

    def default_team_size(self) -> int:
        if self.play_style is PlayStyle.INDIVIDUALS:
            return 1
        return min(self.partnership_sizes, default=1)

    def decks_for(self, players: int) -> int:
        """One deck per player and ``extra_decks`` more, within the rules' own bounds (the
        French text plays with five to six decks, whoever sits down)."""
        decks = max(players + self.extra_decks, self.min_decks)
        return min(decks, self.max_decks) if self.max_decks else decks

    def decks_problems(self, decks: int, players: int) -> list[Problem]:
        """Why ``decks`` cannot be the decks of a game of ``players`` under these rules: not
        the decks they play with (the French text: five to six), or too few to deal every
        player a hand and a foot. Empty when they can."""
        low, high = self.min_decks or 1, self.max_decks or MOST_DECKS
        if not low <= decks <= high:
            text: Template
            if low == high:
                text = NP_(
                    "These rules play with %(low)d deck, not %(count)d.",
                    "These rules play with %(low)d decks, not %(count)d.",
                    "low",
                )
            else:
                text = N_("These rules play with %(low)d to %(high)d decks, not %(count)d.")
            return [Problem(None, "decks", text, {"low": low, "high": high, "count": decks})]
        return _too_few_to_deal(self, decks, players, "decks")

    def special_book(self, book_id: str) -> SpecialBook | None:
        return next((book for book in self.special_books if book.id == book_id), None)

    # --- serialisation -------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _to_jsonable(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Build a RuleSet from its JSON form; raise RuleSetError listing every problem."""
        return _from_mapping(data, base=None)

    def derive(self, overrides: Mapping[str, Any], **identity: str) -> RuleSet:
        """A new RuleSet: this one with ``overrides`` (JSON form) applied, then checked."""
        # The new identity is read and checked like any other override.
        data = {**overrides, **identity} if isinstance(overrides, Mapping) else overrides
        try:
            derived = _from_mapping(data, base=self)
        except RuleSetError as error:
            # Said with what the rest of the rules would be refused for, so that one try
            # tells everything (the editor shows them all at once).
            raise RuleSetError([*error.problems, *self._beyond(data, error.problems)]) from None
        # A new ruleset is based on the one it was derived from (not on that one's own base).
        if "based_on" not in data and derived.id != self.id:
            derived = replace(derived, based_on=self.id)
        problems = check_ruleset(derived) + deck_ceiling(
            derived, derived.max_players, "extra_decks"
        )
        if not problems:
            problems = dealt_at_every_table(derived, "extra_decks") + tables_past_the_teams(
                derived, "max_players"
            )
        if problems:
            raise RuleSetError(problems)
        return derived

    def _beyond(self, data: Any, refused: Sequence[Problem]) -> list[Problem]:
        """What else is wrong in ``data`` past the values ``refused`` as they were read: the
        rules read again with each of those as this ruleset has it, then checked. Only
        problems of fields not refused already."""
        if not isinstance(data, Mapping):
            return []
        rest: Any = copy.deepcopy(dict(data))
        seen = {problem.field for problem in refused}
        for _attempt in range(4):
            for where in seen:
                rest = _without(rest, where)
            try:
                derived = _from_mapping(rest, base=self)
            except RuleSetError as error:
                fresh = {problem.field for problem in error.problems} - seen
                if not fresh:
                    return []
                seen |= fresh
                continue
            return [problem for problem in check_ruleset(derived) if problem.field not in seen]
        return []


_PATH_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _without(data: dict[str, Any], path: str) -> dict[str, Any]:
    """``data`` without the value at ``path`` ("card_values.jokers", "deals[0].go_out"), so
    that the base's is read instead; a value inside a list takes its whole list along (the
    items after it would move up)."""
    tokens = [int(index) if index else name for name, index in _PATH_TOKEN.findall(path)]
    if not tokens or tokens[0] not in data:
        return data
    parent: Any = data
    for token in tokens[:-1]:
        if not _holds(parent, token):
            data.pop(tokens[0], None)
            return data
        parent = parent[token]
    last = tokens[-1]
    if isinstance(parent, dict) and isinstance(last, str):
        parent.pop(last, None)
    else:
        data.pop(tokens[0], None)
    return data


def _holds(parent: Any, token: str | int) -> bool:
    if isinstance(parent, dict):
        return token in parent
    return isinstance(parent, list) and isinstance(token, int) and token < len(parent)


class RuleSetError(ValueError):
    """A ruleset that cannot be built or makes no sense; ``problems`` says why."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(problem.message for problem in problems))
        self.problems = problems


# ---------------------------------------------------------------------------
# JSON form

# A bound on the decks in play (0: none) can be no more than a game may have.
MOST_DECKS = TALLY_BOUNDS["decks"][1]
# The most teams a game has (the deal form's columns, the API's bound).
MOST_TEAMS = TALLY_BOUNDS["teams"][1]

_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")


def _to_jsonable(value: Any) -> Any:
    if isinstance(value, StrEnum):
        return value.value
    if hasattr(value, "__dataclass_fields__"):
        return {f.name: _to_jsonable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple | list):
        return [_to_jsonable(item) for item in value]
    return value


_INT_FIELDS = {
    "min_players",
    "max_players",
    "extra_decks",
    "hand_cards",
    "foot_cards",
    "book_size",
    "min_naturals",
    "clean_book_bonus",
    "dirty_book_bonus",
    "wild_book_bonus",
    "black_three_book_bonus",
    "red_three_bonus",
    "red_three_penalty",
    "going_out_bonus",
    "exact_draw_bonus",
}
_DECK_BOUNDS = {"min_decks", "max_decks"}
_BOOL_FIELDS = {
    "alone_when_unpaired",
    "alone_by_choice",
    "books_may_grow",
    "one_meld_per_rank",
    "wild_books",
    "black_three_books",
    "red_threes_laid",
    "partner_in_foot_to_go_out",
    "permission_to_go_out",
    "must_discard_to_go_out",
}
_STR_FIELDS = {"id", "name", "description", "source"}
_KNOWN = (
    {f.name for f in fields(RuleSet)}
    | {"opening_minimums", "deal_count"}  # shorthands a house-rule form may send
)


class _Reader:
    """Collects every problem while reading a JSON mapping, instead of stopping at the first."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def fail(self, where: str, template: Template, **params: Any) -> None:
        self.problems.append(Problem(None, where, template, {"field": where, **params}))

    def integer(self, value: Any, where: str, low: int = 0, high: int = 100_000) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, N_("%(field)s must be a whole number."))
            return low
        if not low <= value <= high:
            self.fail(
                where, N_("%(field)s must be between %(low)d and %(high)d."), low=low, high=high
            )
            return min(max(value, low), high)
        return value

    def boolean(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            self.fail(where, N_("%(field)s must be true or false."))
            return False
        return value

    def text(self, value: Any, where: str, longest: int = 200) -> str:
        if not isinstance(value, str):
            self.fail(where, N_("%(field)s must be text."))
            return ""
        if len(value) > longest:
            self.fail(
                where, N_("%(field)s must be at most %(longest)d characters."), longest=longest
            )
        return value

    def mapping(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.fail(where, N_("%(field)s must be an object."))
            return {}
        return value

    def items(self, value: Any, where: str, longest: int = 20) -> list[Any]:
        if not isinstance(value, list | tuple):
            self.fail(where, N_("%(field)s must be a list."))
            return []
        if len(value) > longest:
            self.fail(where, N_("%(field)s may hold at most %(longest)d entries."), longest=longest)
            return list(value[:longest])
        return list(value)

    def book_count(self, value: Any, where: str) -> BookCount:
        data = self.mapping(value, where)
        for key in data:
            if key not in ("clean", "dirty", "wild"):
                self.fail(f"{where}.{key}", N_("%(field)s is not a kind of book."))
        return BookCount(
            **{
                kind: self.integer(data.get(kind, 0), f"{where}.{kind}", 0, 50)
                for kind in ("clean", "dirty", "wild")
            }
        )

    def deal(self, value: Any, where: str, base: DealRule | None) -> DealRule:
        data = self.mapping(value, where)
        for key in data:
            if key not in ("opening_minimum", "go_out", "opening_needs_concealed_book"):
                self.fail(f"{where}.{key}", N_("%(field)s is not a rule of a deal."))
        minimum = data.get("opening_minimum", base.opening_minimum if base else None)
        if minimum is None:
            self.fail(f"{where}.opening_minimum", N_("%(field)s is missing."))
            minimum = 0
        go_out = data.get("go_out")
        return DealRule(
            opening_minimum=self.integer(minimum, f"{where}.opening_minimum", 0, 5000),
            go_out=(
                self.book_count(go_out, f"{where}.go_out")
                if go_out is not None
                else (base.go_out if base else BookCount())
            ),
            opening_needs_concealed_book=self.boolean(
                data.get(
                    "opening_needs_concealed_book",
                    base.opening_needs_concealed_book if base else False,
                ),
                f"{where}.opening_needs_concealed_book",
            ),
        )

    def special_book(self, value: Any, where: str) -> SpecialBook:
        data = self.mapping(value, where)
        book_id = self.text(data.get("id", ""), f"{where}.id", 63)
        if not _SLUG.match(book_id):
            self.fail(
                f"{where}.id",
                N_("%(field)s must be a short name of lowercase letters, digits and dashes."),
            )
        counts_as = data.get("counts_as")
        kind: BookKind | None = None
        if counts_as is not None:
            try:
                kind = BookKind(counts_as)
            except ValueError:
                self.fail(f"{where}.counts_as", N_("%(field)s must be clean, dirty or wild."))
        return SpecialBook(
            id=book_id,
            name=self.text(data.get("name", ""), f"{where}.name", 80),
            bonus=self.integer(data.get("bonus", 0), f"{where}.bonus", 0, 10_000),
            min_points=self.integer(data.get("min_points", 0), f"{where}.min_points", 0, 5000),
            counts_as=kind,
        )


def _from_mapping(data: Mapping[str, Any], base: RuleSet | None) -> RuleSet:
    read = _Reader()
    if not isinstance(data, Mapping):
        raise RuleSetError([Problem(None, "ruleset", N_("A ruleset must be an object."), {})])
    for key in data:
        if key not in _KNOWN:
            read.fail(str(key), N_("%(field)s is not a rule this app knows."))
    values: dict[str, Any] = {}
    for key in _INT_FIELDS & data.keys():
        values[key] = read.integer(data[key], key, 0, 10_000)
    for key in _DECK_BOUNDS & data.keys():
        values[key] = read.integer(data[key], key, 0, MOST_DECKS)
    for key in _BOOL_FIELDS & data.keys():
        values[key] = read.boolean(data[key], key)
    for key in _STR_FIELDS & data.keys():
        values[key] = read.text(data[key], key, 2000 if key == "description" else 200)
    if "based_on" in data:
        values["based_on"] = (
            None if data["based_on"] is None else read.text(data["based_on"], "based_on", 63)
        )
    if "play_style" in data:
        try:
            values["play_style"] = PlayStyle(data["play_style"])
        except (ValueError, TypeError):
            read.fail("play_style", N_("%(field)s must be partnerships or individuals."))
    if "wild_limit" in data:
        try:
            values["wild_limit"] = WildLimit(data["wild_limit"])
        except (ValueError, TypeError):
            read.fail(
                "wild_limit",
                N_("%(field)s must be twice_as_many_naturals, more_naturals or min_naturals."),
            )
    if "partnership_sizes" in data:
        values["partnership_sizes"] = tuple(
            read.integer(size, f"partnership_sizes[{i}]", 2, 4)
            for i, size in enumerate(read.items(data["partnership_sizes"], "partnership_sizes", 3))
        )
    if "discard_pickup" in data:
        pickup = data["discard_pickup"]
        values["discard_pickup"] = (
            None if pickup is None else read.integer(pickup, "discard_pickup", 1, 100)
        )
    if "card_values" in data:
        card_data = read.mapping(data["card_values"], "card_values")
        current = base.card_values if base else CardValues()
        known = {card.value for card in CardClass}
        for key in card_data:
            if key not in known:
                read.fail(f"card_values.{key}", N_("%(field)s is not a kind of card."))
        values["card_values"] = CardValues(
            **{
                card.value: read.integer(
                    card_data.get(card.value, current.of(card)),
                    f"card_values.{card.value}",
                    # Every card that melds is worth something; black 3s may count nothing.
                    0 if card is CardClass.BLACK_THREES else 1,
                    1000,
                )
                for card in CardClass
            }
        )
    if "special_books" in data:
        values["special_books"] = tuple(
            read.special_book(book, f"special_books[{i}]")
            for i, book in enumerate(read.items(data["special_books"], "special_books", 10))
        )
    deals: list[DealRule] | None = None
    if "deals" in data:
        old = base.deals if base else ()
        deals = [
            read.deal(deal, f"deals[{i}]", old[i] if i < len(old) else (old[-1] if old else None))
            for i, deal in enumerate(read.items(data["deals"], "deals", 12))
        ]
    if "deal_count" in data:
        count = read.integer(data["deal_count"], "deal_count", 1, 12)
        deals = list(deals if deals is not None else (base.deals if base else ()))
        if deals:
            # More deals repeat the last deal's rules; fewer drop the last ones.
            deals = (deals + [deals[-1]] * count)[:count]
    if "opening_minimums" in data:
        minimums = [
            read.integer(m, f"opening_minimums[{i}]", 0, 5000)
            for i, m in enumerate(read.items(data["opening_minimums"], "opening_minimums", 12))
        ]
        current_deals = deals if deals is not None else list(base.deals if base else ())
        # Without deals to match, the minimums make the deals (one per minimum).
        if ("deal_count" in data or current_deals) and len(minimums) != len(current_deals):
            read.fail(
                "opening_minimums",
                NP_(
                    "%(field)s lists %(given)d minimum for a game of %(deals)d deals.",
                    "%(field)s lists %(given)d minimums for a game of %(deals)d deals.",
                    "given",
                ),
                given=len(minimums),
                deals=len(current_deals),
            )
        else:
            template = current_deals[-1] if current_deals else DealRule(0)
            deals = [
                replace(current_deals[i] if i < len(current_deals) else template, opening_minimum=m)
                for i, m in enumerate(minimums)
            ]
    if deals is not None:
        values["deals"] = tuple(deals)
    if base is None:
        for required in ("id", "name", "deals"):
            if required not in values and required not in {p.field for p in read.problems}:
                read.fail(required, N_("%(field)s is missing."))
    if read.problems:
        raise RuleSetError(read.problems)
    ruleset = RuleSet(**values) if base is None else replace(base, **values)
    if base is None:
        problems = check_ruleset(ruleset)
        if problems:
            raise RuleSetError(problems)
    return ruleset


# ---------------------------------------------------------------------------
# Sense checks


def deck_ceiling(rules: RuleSet, players: int, where: str) -> list[Problem]:
    """A table of ``players`` under ``rules`` would play with more decks than a game can
    (imports and the API take 1 to 20). Checked where rules are made (their largest table)
    and where a game starts, not where stored rules are read: games started before this
    check keep reading."""
    decks = rules.decks_for(players)
    if decks <= MOST_DECKS:
        return []
    text = N_(
        "With %(players)d players these rules would play with %(decks)d decks, but a game has "
        "%(most)d at the most."
    )
    params = {"field": where, "players": players, "decks": decks}
    return [Problem(None, where, text, {**params, "most": MOST_DECKS})]


_TOO_FEW_TO_DEAL = NP_(
    "%(decks)d deck holds %(held)d cards, too few to deal %(players)d players %(each)d cards each.",
    "%(decks)d decks hold %(held)d cards, too few to deal %(players)d players %(each)d cards each.",
    "decks",
)


def _too_few_to_deal(rules: RuleSet, decks: int, players: int, where: str) -> list[Problem]:
    """``decks`` cannot deal ``players`` a hand and a foot each under ``rules``: said at
    ``where``. Empty when they can."""
    each = rules.hand_cards + rules.foot_cards
    held = decks * CARDS_PER_DECK
    if held >= players * each:
        return []
    params = {"field": where, "decks": decks, "held": held, "players": players, "each": each}
    return [Problem(None, where, _TOO_FEW_TO_DEAL, params)]


def dealt_at_every_table(rules: RuleSet, where: str) -> list[Problem]:
    """The first table ``rules`` seat whose decks (:meth:`RuleSet.decks_for`) cannot deal
    every player a hand and a foot: a hand and foot of 30 cards each, one deck a player and
    no more, leave two players 108 cards for 120. Checked where rules are made and where a
    game starts, not where stored rules are read: games started before this check keep
    reading."""
    for players in range(rules.min_players, rules.max_players + 1):
        if rules.seatings(players):
            problems = _too_few_to_deal(rules, rules.decks_for(players), players, where)
            if problems:
                return problems
    return []


def tables_past_the_teams(rules: RuleSet, where: str) -> list[Problem]:
    """The first table ``rules`` seat only in more teams than a game has: nine or ten
    players each alone. Checked where rules are made, like :func:`dealt_at_every_table`."""
    for players in range(rules.min_players, rules.max_players + 1):
        options = rules.seatings(players)
        if options and all(teams > MOST_TEAMS for teams, _size in options):
            text = N_(
                "With %(players)d players these rules would seat %(teams)d teams, but a game "
                "has %(most)d at the most."
            )
            teams = min(teams for teams, _size in options)
            params = {"field": where, "players": players, "teams": teams, "most": MOST_TEAMS}
            return [Problem(None, where, text, params)]
    return []


def check_ruleset(rules: RuleSet) -> list[Problem]:
    """Everything that makes no sense in ``rules``, in words a card player understands."""
    problems: list[Problem] = []

    def fail(where: str, template: Template, **params: Any) -> None:
        problems.append(Problem(None, where, template, {"field": where, **params}))

    if not _SLUG.match(rules.id):
        fail("id", N_("%(field)s must be a short name of lowercase letters, digits and dashes."))
    if not rules.name.strip():
        fail("name", N_("A ruleset needs a name."))
    if not 1 <= rules.deal_count <= 12:
        fail("deals", N_("A game has between 1 and 12 deals."))
    if not 2 <= rules.min_players <= rules.max_players <= 10:
        fail(
            "max_players",
            N_("Players must run from at least 2 to at most 10, the least first."),
        )
    if rules.play_style is PlayStyle.PARTNERSHIPS and not rules.partnership_sizes:
        fail("partnership_sizes", N_("Partnership play needs at least one team size."))
    elif rules.min_players <= rules.max_players and not any(
        rules.seatings(players) for players in range(rules.min_players, rules.max_players + 1)
    ):
        fail(
            "alone_when_unpaired",
            N_(
                "No table of %(low)d to %(high)d players pairs up in these team sizes, so these "
                "rules must let players who cannot pair up play alone."
            ),
            low=rules.min_players,
            high=rules.max_players,
        )
    for bound in sorted(_DECK_BOUNDS):
        if not 0 <= getattr(rules, bound) <= MOST_DECKS:
            fail(
                bound, N_("%(field)s must be between %(low)d and %(high)d."), low=0, high=MOST_DECKS
            )
    if rules.max_decks and rules.min_decks > rules.max_decks:
        fail("max_decks", N_("The fewest decks cannot be more than the most decks."))
    elif rules.max_decks:
        problems += _too_few_to_deal(rules, rules.max_decks, rules.max_players, "max_decks")
    if not 1 <= rules.hand_cards <= 30 or not 1 <= rules.foot_cards <= 30:
        fail("hand_cards", N_("Hand and foot each hold between 1 and 30 cards."))
    if not 3 <= rules.book_size <= 13:
        fail("book_size", N_("A book holds between 3 and 13 cards."))
    if rules.wild_limit is WildLimit.MIN_NATURALS and not 1 <= rules.min_naturals < rules.book_size:
        fail(
            "min_naturals",
            N_("With wild cards only beside enough naturals, say how many: 1 to %(most)d."),
            most=rules.book_size - 1,
        )
    if rules.card_values.cheapest_wild <= 0 or rules.card_values.cheapest_natural <= 0:
        fail("card_values", N_("Every card that can be melded must be worth something."))
    for number, deal in enumerate(rules.deals, start=1):
        where = f"deals[{number - 1}]"
        if deal.go_out.wild and not rules.wild_books:
            fail(
                f"{where}.go_out.wild",
                N_(
                    "Deal %(deal)d asks for a wild book to go out, but these rules have no wild "
                    "books."
                ),
                deal=number,
            )
        if rules.one_meld_per_rank and deal.go_out.clean + deal.go_out.dirty > NATURAL_RANKS:
            fail(
                f"{where}.go_out.clean",
                N_(
                    "Deal %(deal)d asks for more books to go out than there are ranks, 4 to "
                    "ace, but these rules allow one meld of each rank."
                ),
                deal=number,
            )
        for kind in ("clean", "dirty", "wild"):
            if getattr(deal.go_out, kind) > 20:
                fail(
                    f"{where}.go_out.{kind}",
                    N_("Going out cannot need more than 20 books of a kind."),
                )
    for name in sorted(_INT_FIELDS):
        if getattr(rules, name) < 0:
            fail(name, N_("%(field)s cannot be negative."))
    for card in CardClass:
        if rules.card_values.of(card) < 0:
            fail(f"card_values.{card.value}", N_("%(field)s cannot be negative."))
    ids = [book.id for book in rules.special_books]
    for i, book in enumerate(rules.special_books):
        if ids.count(book.id) > 1:
            fail(
                f"special_books[{i}].id", N_("Two special books share the name %(id)s."), id=book.id
            )
        if not book.name.strip():
            fail(f"special_books[{i}].name", N_("A special book needs a name."))
        if book.counts_as is BookKind.WILD and not rules.wild_books:
            fail(
                f"special_books[{i}].counts_as",
                N_("A special book cannot count as a wild book when these rules have none."),
            )
    return problems
