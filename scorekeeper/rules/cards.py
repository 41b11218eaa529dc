"""Card classes, their values, and what a number of decks holds."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from math import gcd

from .i18n import N_


class CardClass(StrEnum):
    """The classes of cards a score sheet counts; the values are the API's keys."""

    JOKERS = "jokers"
    TWOS = "twos"
    ACES = "aces"
    EIGHTS_TO_KINGS = "eights_to_kings"
    FOURS_TO_SEVENS = "fours_to_sevens"
    BLACK_THREES = "black_threes"


CARD_CLASS_LABELS: Mapping[CardClass, str] = {
    CardClass.JOKERS: N_("jokers"),
    CardClass.TWOS: N_("2s"),
    CardClass.ACES: N_("aces"),
    CardClass.EIGHTS_TO_KINGS: N_("8s to kings"),
    CardClass.FOURS_TO_SEVENS: N_("4s to 7s"),
    CardClass.BLACK_THREES: N_("black 3s"),
}

WILD_CLASSES = (CardClass.JOKERS, CardClass.TWOS)
NATURAL_CLASSES = (CardClass.ACES, CardClass.EIGHTS_TO_KINGS, CardClass.FOURS_TO_SEVENS)

# Copies of each class in one 54-card deck (52 cards and two jokers).
PER_DECK: Mapping[CardClass, int] = {
    CardClass.JOKERS: 2,
    CardClass.TWOS: 4,
    CardClass.ACES: 4,
    CardClass.EIGHTS_TO_KINGS: 6 * 4,
    CardClass.FOURS_TO_SEVENS: 4 * 4,
    CardClass.BLACK_THREES: 2,
}
RED_THREES_PER_DECK = 2
CARDS_PER_DECK = 54
SUITS = 4
# Ranks a book of natural cards can be made of: 4 to king and the ace.
NATURAL_RANKS = sum(PER_DECK[card] for card in NATURAL_CLASSES) // SUITS

# The ranks of the cards that meld, by the names the API takes (the letters of the English
# cards), and the class each is counted in: a meld is of one rank.
RANK_CLASSES: Mapping[str, CardClass] = {
    "joker": CardClass.JOKERS,
    "2": CardClass.TWOS,
    "A": CardClass.ACES,
    **dict.fromkeys(("K", "Q", "J", "10", "9", "8"), CardClass.EIGHTS_TO_KINGS),
    **dict.fromkeys(("7", "6", "5", "4"), CardClass.FOURS_TO_SEVENS),
}


@dataclass(frozen=True)
class CardValues:
    """Points of one card of each class, counted for a team when melded, against it when left."""

    jokers: int = 50
    twos: int = 20
    aces: int = 20
    eights_to_kings: int = 10
    fours_to_sevens: int = 5
    black_threes: int = 5

    def of(self, card: CardClass) -> int:
        value: int = getattr(self, card.value)
        return value

    def total(self, counts: Mapping[CardClass, int]) -> int:
        return sum(self.of(card) * n for card, n in counts.items())

    @property
    def step(self) -> int:
        """Every card total is a multiple of this (5 with the usual values)."""
        step = 0
        for card in CardClass:
            step = gcd(step, self.of(card))
        return step or 1

    @property
    def cheapest(self) -> int:
        """The least any card is worth."""
        return min(self.of(card) for card in CardClass)

    @property
    def cheapest_natural(self) -> int:
        return min(self.of(card) for card in NATURAL_CLASSES)

    @property
    def cheapest_wild(self) -> int:
        return min(self.of(card) for card in WILD_CLASSES)


def cards_in_play(decks: int) -> dict[CardClass, int]:
    """How many cards of each class exist with this many decks shuffled together."""
    return {card: n * decks for card, n in PER_DECK.items()}


def books_fit(clean: int, dirty: int, per_rank: int, clean_needs: int, dirty_needs: int) -> bool:
    """Whether ``clean`` and ``dirty`` books can be made from decks of ``per_rank`` cards of each
    natural rank: every book is of one rank, a clean book needs ``clean_needs`` cards of its
    rank and a dirty book at least ``dirty_needs``."""
    most_clean = per_rank // clean_needs
    if clean > NATURAL_RANKS * most_clean:
        return False
    # most[j]: the most dirty books that fit beside j clean books in the ranks counted so far.
    most = [0] + [-1] * clean
    for _ in range(NATURAL_RANKS):
        step = [-1] * (clean + 1)
        for j, dirty_so_far in enumerate(most):
            if dirty_so_far < 0:
                continue
            for here in range(min(most_clean, clean - j) + 1):
                beside = (per_rank - here * clean_needs) // dirty_needs if dirty_needs else dirty
                step[j + here] = max(step[j + here], dirty_so_far + beside)
        most = step
    return most[clean] >= dirty


# How much :func:`least_book_worth` may work out: its table of books placed so far, times
# the ways one rank can hold books, times the ranks. About 0.3 µs each at the most on the
# 2-core machines: past this, a deal's check would take more than some 30 ms.
LEAST_WORTH_WORK = 100_000


@lru_cache(maxsize=512)
def least_book_worth(
    clean: int,
    dirty: int,
    per_rank: int,
    size: int,
    dirty_needs: int,
    values: CardValues,
    taken: tuple[int, ...] = (0, 0, 0),
    books_per_rank: int | None = None,
) -> int | None:
    """The least the cards of ``clean`` and ``dirty`` books of ``size`` cards are worth, every
    book of one natural rank with ``per_rank`` cards of each: the cheapest ranks fill up
    first (two clean books of 4s and one dirty one at the most in 5 decks), and a dirty book
    holds at least ``dirty_needs`` natural cards, the rest the cheapest wild cards.
    ``books_per_rank``: at most this many books of any one rank (rules of one meld of each
    rank: one for a team), besides what the cards allow.

    ``taken``: cards of each of :data:`NATURAL_CLASSES` (in that order) that are elsewhere,
    counted, so in none of these books; they are taken from the ranks where they hinder the
    books least. ``None`` when the books cannot all be made, or when there are so many that
    working it out would take long (more than about 30 ms): then nothing can be said.
    """
    # What one rank can hold: clean and dirty books, the natural cards in the dirty ones, and
    # the cards of the rank left over.
    shapes, pairs = [], 0
    most_books = clean + dirty if books_per_rank is None else books_per_rank
    for here in range(min(clean, per_rank // size, most_books) + 1):
        room = per_rank - here * size
        fits = room // dirty_needs if dirty_needs else dirty
        for there in range(min(dirty, fits, most_books - here) + 1):
            fewest, most = there * dirty_needs, min(there * (size - 1), room)
            shapes += [(here, there, naturals, room) for naturals in range(fewest, most + 1)]
            pairs += 1
    # Every shape is tried only while counted cards are still to be set aside.
    states = (clean + 1) * (dirty + 1) * (max(taken) + 1)
    if states * (len(shapes) if any(taken) else pairs) * NATURAL_RANKS > LEAST_WORTH_WORK:
        return None
    wild = values.cheapest_wild
    # (clean, dirty, cards of this class set aside so far) -> the least the books are worth.
    least: dict[tuple[int, int, int], int] = {(0, 0, 0): 0}
    for card in sorted(NATURAL_CLASSES, key=values.of):
        value = values.of(card)
        aside = taken[NATURAL_CLASSES.index(card)]
        # (clean, dirty, worth, cards left over): every shape while cards are still to be set
        # aside, else only the cheapest: natural cards are the cheaper ones unless wild cards
        # cost less; fewer of them leave more of the rank for the cards counted elsewhere.
        every, cheapest = [], []
        for here, there, naturals, room in shapes:
            worth = (here * size + naturals) * value + (there * size - naturals) * wild
            every.append((here, there, worth, room - naturals))
            if naturals == (there * dirty_needs if wild < value else min(there * (size - 1), room)):
                cheapest.append((here, there, worth, room - naturals))
        for _rank in range(PER_DECK[card] // SUITS):
            step: dict[tuple[int, int, int], int] = {}
            for (c, d, r), so_far in least.items():
                for here, there, worth, spare in every if r < aside else cheapest:
                    if c + here > clean or d + there > dirty:
                        continue
                    key = (c + here, d + there, min(aside, r + spare))
                    if so_far + worth < step.get(key, so_far + worth + 1):
                        step[key] = so_far + worth
            least = step
        least = {(c, d, 0): worth for (c, d, r), worth in least.items() if r == aside}
    return least.get((clean, dirty, 0))


def red_threes_in_play(decks: int) -> int:
    return RED_THREES_PER_DECK * decks
