"""What a table asks while a deal is played: is this opening enough, what do we need to go out?

These answer questions before the deal is scored; :mod:`.validation` judges the finished deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from math import gcd

from .cards import WILD_CLASSES, CardClass
from .layout import lays_out
from .ruleset import BookCount, PlayStyle, RuleSet

# Cards that can be part of an opening meld: black threes never meld into one.
OPENING_CLASSES = (
    CardClass.JOKERS,
    CardClass.TWOS,
    CardClass.ACES,
    CardClass.EIGHTS_TO_KINGS,
    CardClass.FOURS_TO_SEVENS,
)


@dataclass(frozen=True)
class OpeningCheck:
    """A planned opening meld against the deal's minimum."""

    value: int
    minimum: int
    # The deal asks for a concealed book instead of points (Saskatchewan's last deal).
    concealed_book: bool
    # The cards can be laid as melds (a lone joker is no meld, whatever it is worth).
    melds: bool = True

    @property
    def enough(self) -> bool:
        return self.melds and not self.concealed_book and self.value >= self.minimum

    @property
    def short(self) -> int:
        """Points still missing; 0 when the opening is enough."""
        return 0 if self.concealed_book else max(0, self.minimum - self.value)


def opening_value(rules: RuleSet, cards: Mapping[CardClass, int]) -> int:
    """The points an opening meld's cards count for: card values only, no bonuses.

    When the opening comes with a pickup of the discard pile, pass only the top discard and
    the player's own cards: the other cards picked up do not count.
    """
    return sum(rules.card_values.of(card) * n for card, n in cards.items() if n > 0)


def opening_melds(rules: RuleSet, cards: Mapping[CardClass, int]) -> bool:
    """Whether an opening's cards, counted by class, can be laid as melds of three cards or
    more (books among them) within the rules' wild-card limit: a lone joker, or an ace with
    two jokers under "twice as many natural cards", cannot. No cards at all are no verdict.

    A meld is of one rank, so the natural cards of each class meld apart: two aces and a
    king are no meld. Within a class of several ranks (8s to kings) the cards may all be of
    one rank, so they are taken to be: the check never refuses cards that can meld."""
    wilds = sum(max(0, n) for card, n in cards.items() if card in WILD_CLASSES)
    classes = [
        max(0, cards.get(card, 0))
        for card in OPENING_CLASSES
        if card not in WILD_CLASSES and cards.get(card, 0) > 0
    ]
    if not wilds and not classes:
        return True
    # The wild cards each class's melds can hold; the rest are wild melds and books.
    reachable = {0}
    for naturals in classes:
        holds = [w for w in range(wilds + 1) if _class_melds(rules, naturals, w)]
        reachable = {so_far + w for so_far in reachable for w in holds if so_far + w <= wilds}
    return any(_wild_melds(rules, wilds - held) for held in reachable)


_BOOKS_TRIED = 4


def _tried(books: int) -> int:
    return min(books, _BOOKS_TRIED)


@lru_cache(maxsize=4096)
def _class_melds(rules: RuleSet, naturals: int, wilds: int) -> bool:
    """Whether ``naturals`` cards of one class and ``wilds`` wild cards beside them can be
    melds and books. Up to four books of each kind are tried: more cards than that (no
    opening from one hand) get no verdict rather than a wrong one."""
    alone = _without_wild_books(rules)  # wild melds are counted apart, once
    size = rules.book_size
    for clean in range(_tried(naturals // size) + 1):
        for dirty in range(_tried((naturals + wilds) // size - clean) + 1):
            if lays_out(alone, clean, dirty, 0, naturals, wilds):
                return True
    return (naturals + wilds) // size > _BOOKS_TRIED


@lru_cache(maxsize=1024)
def _wild_melds(rules: RuleSet, wilds: int) -> bool:
    """Whether ``wilds`` wild cards with no natural card can be wild melds and books."""
    if not wilds:
        return True
    size = rules.book_size
    for wild in range(_tried(wilds // size if rules.wild_books else 0) + 1):
        if lays_out(rules, 0, 0, wild, 0, wilds):
            return True
    return wilds // size > _BOOKS_TRIED


@lru_cache(maxsize=64)
def _without_wild_books(rules: RuleSet) -> RuleSet:
    return replace(rules, wild_books=False)


def opening_points_step(rules: RuleSet) -> int:
    """Every opening is worth a multiple of this: the greatest common divisor of the values
    of the cards that meld (5 under every preset). 0 where no card counts anything."""
    step = 0
    for card in OPENING_CLASSES:
        step = gcd(step, rules.card_values.of(card))
    return step


def check_opening(rules: RuleSet, deal: int, points: int, *, melds: bool = True) -> OpeningCheck:
    """Whether an opening worth ``points`` is enough in deal ``deal`` (1-based); ``melds``
    says whether its cards make melds at all (see :func:`opening_melds`)."""
    rule = rules.deal(deal)
    return OpeningCheck(
        value=points,
        minimum=rule.opening_minimum,
        concealed_book=rule.opening_needs_concealed_book,
        melds=melds,
    )


@dataclass(frozen=True)
class GoOutCheck:
    """What a team still needs before one of its players may go out in this deal."""

    missing: BookCount
    # Players of the team who must still pick up their foot first.
    feet_missing: int
    # The rules ask the partner's permission before going out (a question, not a count).
    permission: bool

    @property
    def ready(self) -> bool:
        return not self.missing and self.feet_missing == 0


def check_go_out(
    rules: RuleSet, deal: int, have: BookCount, *, players: int, in_foot: int
) -> GoOutCheck:
    """The books and feet a team of ``players`` still lacks to go out in deal ``deal``.

    Going out empties hand and foot, so the player going out must be in the foot; where
    the rules say so (partnerships), every partner must have picked up the foot too.
    """
    rule = rules.deal(deal)
    partners = rules.play_style is PlayStyle.PARTNERSHIPS and players > 1
    feet_needed = players if partners and rules.partner_in_foot_to_go_out else 1
    return GoOutCheck(
        missing=rule.go_out.shortfall(have),
        feet_missing=max(0, feet_needed - max(0, in_foot)),
        permission=partners and rules.permission_to_go_out,
    )
