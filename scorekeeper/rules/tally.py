"""What the table reports for one team after a deal, and reading it from JSON.

Reading checks form only (types, bounds that make sense at a card table);
whether the tally is possible under a ruleset is :mod:`.validation`'s job.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import CardClass, CardValues
from .i18n import N_, NP_
from .problems import Problem

# The bounds of every number a team can report: the same in the forms, the API and
# its OpenAPI document. Anything outside them is malformed, not merely impossible.
BOUNDS: Mapping[str, tuple[int, int]] = {
    "clean_books": (0, 60),
    "dirty_books": (0, 60),
    "wild_books": (0, 60),
    "black_three_books": (0, 20),
    "special_books": (0, 20),
    "red_threes": (0, 40),
    "red_threes_caught": (0, 40),
    "points": (0, 20_000),
    "cards": (0, 500),
    "exact_draws": (0, 3),
    "opening_meld": (0, 5_000),
    "decks": (1, 20),
    "teams": (2, 8),
}
NAME_LONGEST = 80
COUNT_FIELDS = (
    "clean_books",
    "dirty_books",
    "wild_books",
    "black_three_books",
    "red_threes",
    "red_threes_caught",
    "exact_draws",
)


@dataclass(frozen=True)
class Cards:
    """Cards reported either as a point total or as a count per card class."""

    points: int | None = 0
    counts: Mapping[CardClass, int] | None = None

    @classmethod
    def of_counts(cls, counts: Mapping[CardClass, int]) -> Cards:
        return cls(points=None, counts={card: counts.get(card, 0) for card in CardClass})

    @property
    def counted(self) -> bool:
        return self.counts is not None

    def count(self, card: CardClass) -> int:
        return self.counts.get(card, 0) if self.counts is not None else 0

    @property
    def cards(self) -> int:
        return sum(self.counts.values()) if self.counts is not None else 0

    def value(self, values: CardValues, *, without: tuple[CardClass, ...] = ()) -> int:
        if self.counts is None:
            return self.points or 0
        return values.total({c: n for c, n in self.counts.items() if c not in without})

    def to_json(self) -> int | dict[str, int]:
        if self.counts is None:
            return self.points or 0
        return {card.value: self.counts.get(card, 0) for card in CardClass}


@dataclass(frozen=True)
class TeamTally:
    """What one team reports at the end of a deal."""

    name: str = ""
    clean_books: int = 0
    dirty_books: int = 0
    wild_books: int = 0
    black_three_books: int = 0
    special_books: Mapping[str, int] = field(default_factory=dict)
    red_threes: int = 0
    red_threes_caught: int = 0
    melded: Cards = field(default_factory=Cards)
    left: Cards = field(default_factory=Cards)
    went_out: bool = False
    opening_meld: int | None = None
    exact_draws: int = 0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name}
        for key in COUNT_FIELDS:
            data[key] = getattr(self, key)
        data["special_books"] = dict(self.special_books)
        data["melded"] = self.melded.to_json()
        data["left"] = self.left.to_json()
        data["went_out"] = self.went_out
        data["opening_meld"] = self.opening_meld
        return data


class TallyError(ValueError):
    """Input that is not a tally at all (wrong types, absurd numbers); ``problems`` says where."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(problem.message for problem in problems))
        self.problems = problems


_TEAM_KEYS = {
    "name",
    "special_books",
    "melded",
    "left",
    "went_out",
    "opening_meld",
    *COUNT_FIELDS,
}


class _TeamReader:
    def __init__(self, index: int | None, problems: list[Problem]) -> None:
        self.index = index
        self.problems = problems

    def fail(self, where: str, template: str, **params: Any) -> None:
        self.problems.append(Problem(self.index, where, template, {"field": where, **params}))

    def number(self, value: Any, where: str, bounds: tuple[int, int]) -> int:
        low, high = bounds
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                self.fail(where, N_("%(field)s must be a whole number."))
                return 0
        if not low <= value <= high:
            self.fail(
                where, N_("%(field)s must be between %(low)d and %(high)d."), low=low, high=high
            )
            return 0
        return int(value)

    def cards(self, value: Any, where: str) -> Cards:
        if isinstance(value, Mapping):
            counts: dict[CardClass, int] = {}
            known = {card.value: card for card in CardClass}
            for key, count in value.items():
                card = known.get(key)
                if card is None:
                    self.fail(
                        f"{where}.{key}",
                        N_(
                            "%(field)s is not a card class; use jokers, twos, aces, "
                            "eights_to_kings, fours_to_sevens or black_threes."
                        ),
                    )
                    continue
                counts[card] = self.number(count, f"{where}.{key}", BOUNDS["cards"])
            return Cards.of_counts(counts)
        return Cards(points=self.number(value, where, BOUNDS["points"]))

    def special_books(self, value: Any) -> dict[str, int]:
        special: dict[str, int] = {}
        if not isinstance(value, Mapping):
            self.fail("special_books", N_("%(field)s must map each special book to a count."))
            return special
        for key, count in value.items():
            special[str(key)] = self.number(count, f"special_books.{key}", BOUNDS["special_books"])
        return special

    def counts(self, value: Any, where: str) -> Cards:
        """Cards kept as a count per card class: an object, never a number."""
        if not isinstance(value, Mapping):
            self.fail(where, N_("%(field)s must map each card class to a count."))
            return Cards.of_counts({})
        return self.cards(value, where)

    def team(self, data: Any) -> TeamTally:
        if not isinstance(data, Mapping):
            self.fail("team", N_("Each team must be an object of its reported numbers."))
            return TeamTally()
        for key in data:
            if key not in _TEAM_KEYS:
                self.fail(str(key), N_("%(field)s is not something a team reports."))
        name = data.get("name", "")
        if not isinstance(name, str):
            self.fail("name", N_("%(field)s must be text."))
            name = ""
        elif len(name) > NAME_LONGEST:
            self.fail(
                "name", N_("A team name has at most %(longest)d characters."), longest=NAME_LONGEST
            )
        values: dict[str, Any] = {
            key: self.number(data.get(key, 0), key, BOUNDS[key]) for key in COUNT_FIELDS
        }
        special = self.special_books(data.get("special_books", {}))
        went_out = data.get("went_out", False)
        if not isinstance(went_out, bool):
            self.fail("went_out", N_("%(field)s must be true or false."))
            went_out = False
        opening = data.get("opening_meld")
        return TeamTally(
            name=name.strip(),
            special_books=special,
            melded=self.cards(data.get("melded", 0), "melded"),
            left=self.cards(data.get("left", 0), "left"),
            went_out=went_out,
            opening_meld=None
            if opening is None
            else self.number(opening, "opening_meld", BOUNDS["opening_meld"]),
            **values,
        )


def read_team(data: Any, index: int | None = None) -> TeamTally:
    """Read one team's tally from its JSON form; raise TallyError on malformed input."""
    problems: list[Problem] = []
    team = _TeamReader(index, problems).team(data)
    if problems:
        raise TallyError(problems)
    return team


def read_kept(
    special_books: Any, melded: Any, left: Any, index: int | None = None
) -> tuple[dict[str, int], Cards, Cards]:
    """A kept tally's special books and cards, checked as :func:`read_team` checks them.

    ``melded`` and ``left`` are a point total (an int) or an object of counts per card class,
    as a ``deal_result`` row keeps them; anything else there, like a count that is not a
    whole number or a card class this app does not know, raises TallyError naming it.
    """
    quick = _as_written(special_books, melded, left)
    if quick is not None:
        return quick
    problems: list[Problem] = []
    reader = _TeamReader(index, problems)
    special = reader.special_books(special_books)
    cards = [
        reader.cards(value, where) if isinstance(value, int) else reader.counts(value, where)
        for value, where in ((melded, "melded"), (left, "left"))
    ]
    if problems:
        raise TallyError(problems)
    return special, cards[0], cards[1]


_CARD_CLASSES = {card.value: card for card in CardClass}


def _as_written(
    special_books: Any, melded: Any, left: Any
) -> tuple[dict[str, int], Cards, Cards] | None:
    """:func:`read_kept` of a tally kept as this app writes one, without the reader's work.

    Nearly every kept tally: a whole number of points, or whole numbers in bounds for known
    card classes; each special book kept has a whole count too. None for anything else,
    which the reader reads, naming each thing wrong. An export reads some 20,000 such
    tallies; the reader took a fifth of its time.
    """
    if type(special_books) is not dict or any(
        type(count) is not int or not _within(count, "special_books")
        for count in special_books.values()
    ):
        return None
    cards = []
    for value in (melded, left):
        if type(value) is int:
            if not _within(value, "points"):
                return None
            cards.append(Cards(points=value))
        elif type(value) is dict:
            counts = {}
            for key, count in value.items():
                card = _CARD_CLASSES.get(key)
                if card is None or type(count) is not int or not _within(count, "cards"):
                    return None
                counts[card] = count
            cards.append(Cards.of_counts(counts))
        else:
            return None
    return {str(key): count for key, count in special_books.items()}, cards[0], cards[1]


def _within(number: int, bounds: str) -> bool:
    low, high = BOUNDS[bounds]
    return low <= number <= high


def read_teams(data: Any) -> list[TeamTally]:
    """Read the teams of a deal; every malformed field of every team is reported at once."""
    problems: list[Problem] = []
    if not isinstance(data, Sequence) or isinstance(data, str | bytes):
        raise TallyError(
            [Problem(None, "teams", N_("teams must be a list with one entry per team."), {})]
        )
    low, high = BOUNDS["teams"]
    if not low <= len(data) <= high:
        raise TallyError(
            [
                Problem(
                    None,
                    "teams",
                    NP_(
                        "A deal needs between %(low)d and %(high)d teams; %(given)d was given.",
                        "A deal needs between %(low)d and %(high)d teams; %(given)d were given.",
                        "given",
                    ),
                    {"low": low, "high": high, "given": len(data)},
                )
            ]
        )
    teams = [_TeamReader(i, problems).team(item) for i, item in enumerate(data)]
    if problems:
        raise TallyError(problems)
    return teams
