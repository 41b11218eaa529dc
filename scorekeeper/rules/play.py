"""What a table asks while a deal is played: is this opening enough, what do we need to go out?

These answer questions before the deal is scored; :mod:`.validation` judges the finished deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from math import gcd

from .cards import PER_DECK, RANK_CLASSES, SUITS, WILD_CLASSES, CardClass
from .layout import lays_out
from .ruleset import BookCount, RuleSet

# Cards that can be part of an opening meld: black threes never meld into one.
OPENING_CLASSES = (
    CardClass.JOKERS,
    CardClass.TWOS,
    CardClass.ACES,
    CardClass.EIGHTS_TO_KINGS,
    CardClass.FOURS_TO_SEVENS,
)


# Cards of the top discard's rank a hand must hold to pick up the discard pile: two natural
# cards of its rank, or for a wild card on top two more of the same (seed 003: "to toere for at
# hente en toer eller to jokere for at hente en joker").
PICKUP_PAIR = 2


@dataclass(frozen=True)
class OpeningCheck:
    """A planned opening meld against the deal's minimum."""

    value: int
    minimum: int
    # The deal asks for a concealed book instead of points (Saskatchewan's last deal).
    concealed_book: bool
    # The cards can be laid as melds (a lone joker is no meld, whatever it is worth).
    melds: bool = True
    # A complete book is among them; None when only points were given.
    book: bool | None = None
    # With a pickup of the discard pile: the cards of the top discard's rank the player's own
    # hand adds to it (every seed asks two); None when no pickup was told.
    pickup_pair: int | None = None
    # The top discard picked up is a wild card (a joker or a 2), which only a wild meld takes.
    pickup_wild: bool = False
    # These rules have wild melds (books of wild cards only).
    wild_melds: bool = True

    @property
    def pickup_ok(self) -> bool:
        """No pickup, or one the hand holds the pair for (seed 003: "du skal have to kort,
        der har samme rang som dette øverste kort"); never in a deal that opens with a
        concealed book, which comes from the player's own hand only, nor a wild card on top
        where no meld of wild cards may take it."""
        if self.pickup_pair is None:
            return True
        if self.concealed_book or (self.pickup_wild and not self.wild_melds):
            return False
        return self.pickup_pair >= PICKUP_PAIR

    @property
    def enough(self) -> bool:
        if not self.pickup_ok:
            return False
        if self.concealed_book:
            return self.melds and self.book is True
        return self.melds and self.value >= self.minimum

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
    king are no meld, nor are eight aces where books have exactly seven cards (a book and
    one ace, or two unfinished melds of one rank). Within a class of several ranks (8s to
    kings) the cards may all be of one rank or of several, whichever melds: the check never
    refuses cards that can meld."""
    return opening_shapes(rules, cards)[0]


def opening_book(rules: RuleSet, cards: Mapping[CardClass, int]) -> bool:
    """Whether an opening's cards can be laid as melds with at least one complete book among
    them (Saskatchewan's last deal opens with a concealed canasta)."""
    return opening_shapes(rules, cards)[1]


def opening_shapes(rules: RuleSet, cards: Mapping[CardClass, int]) -> tuple[bool, bool]:
    """:func:`opening_melds` and :func:`opening_book` of the same cards, worked out once."""
    wilds = sum(max(0, n) for card, n in cards.items() if card in WILD_CLASSES)
    groups = [
        (n, PER_DECK[card] == SUITS)
        for card in OPENING_CLASSES
        if card not in WILD_CLASSES and (n := cards.get(card, 0)) > 0
    ]
    layouts = _layouts(rules, wilds, groups)
    return not _counted(cards) or bool(layouts), True in layouts


# Cards by rank beyond this many are judged by kind (:func:`opening_shapes`): no hand holds
# them, and eleven ranks beside hundreds of wild cards would take seconds.
_RANKS_JUDGED = 200


def ranks_to_classes(ranks: Mapping[str, int]) -> dict[CardClass, int]:
    """Cards counted by rank (``RANK_CLASSES``' keys), counted by class instead."""
    counts: dict[CardClass, int] = {}
    for rank, n in ranks.items():
        card = RANK_CLASSES[rank]
        counts[card] = counts.get(card, 0) + n
    return counts


def opening_rank_shapes(rules: RuleSet, ranks: Mapping[str, int]) -> tuple[bool, bool]:
    """:func:`opening_shapes` of cards counted by rank: every rank melds apart, as aces do,
    so K Q J is no meld (counted by class, the three may be three kings)."""
    if sum(max(0, n) for n in ranks.values()) > _RANKS_JUDGED:
        # Far more cards than a hand holds: judged by kind, as quick at any number.
        return opening_shapes(rules, ranks_to_classes(ranks))
    wilds = sum(max(0, n) for rank, n in ranks.items() if RANK_CLASSES[rank] in WILD_CLASSES)
    groups = [
        (n, True) for rank, n in ranks.items() if RANK_CLASSES[rank] not in WILD_CLASSES and n > 0
    ]
    layouts = _layouts(rules, wilds, groups)
    return not _counted(ranks_to_classes(ranks)) or bool(layouts), True in layouts


def pickup_wild_shapes(rules: RuleSet, ranks: Mapping[str, int], top: str) -> tuple[bool, bool]:
    """:func:`opening_rank_shapes` of an opening that picks up a wild card: the top discard
    and the cards of its rank from the hand are a meld of wild cards of their own (seed 003:
    "to toere for at hente en toer eller to jokere for at hente en joker"), so those three
    (or more of that rank) never sit beside natural cards, and the rest melds apart."""
    melds, book = False, False
    size = rules.book_size
    for kept in range(PICKUP_PAIR + 1, ranks.get(top, 0) + 1):
        rest = {rank: n - kept if rank == top else n for rank, n in ranks.items()}
        rest_melds, rest_book = opening_rank_shapes(rules, rest)
        if rest_melds:
            melds = True
            book = book or rest_book or kept >= size
    return melds, book


def _counted(cards: Mapping[CardClass, int]) -> bool:
    return any(n > 0 for card, n in cards.items() if card in OPENING_CLASSES)


def _layouts(rules: RuleSet, wilds: int, groups: list[tuple[int, bool]]) -> set[bool]:
    """Whether ``wilds`` wild cards and the natural cards of ``groups`` (each: how many, and
    whether they are of one rank) can be laid out without a book (False) and with one
    (True). The natural cards of each group meld apart."""
    # (wild cards the groups so far hold, a book among their melds)
    reachable = {(0, False)}
    for naturals, one_rank in groups:
        holds = [
            (w, book)
            for w in range(wilds + 1)
            for book in _class_layouts(rules, naturals, w, one_rank)
        ]
        reachable = {
            (so_far + w, had or book)
            for so_far, had in reachable
            for w, book in holds
            if so_far + w <= wilds
        }
    return {had or book for held, had in reachable for book in _wild_layouts(rules, wilds - held)}


_BOOKS_TRIED = 4
_EITHER = frozenset({False, True})  # no verdict: with a book or without


@lru_cache(maxsize=4096)
def _class_layouts(rules: RuleSet, naturals: int, wilds: int, one_rank: bool) -> frozenset[bool]:
    """Whether ``naturals`` cards of one class and ``wilds`` wild cards beside them can be
    melds without a book (False) and with one (True). Cards of one rank are worked out at
    any number; for a class of several ranks up to four books of each kind are tried, and
    more cards than that (no opening from one hand) get no verdict rather than a wrong one."""
    size = rules.book_size
    if one_rank:  # exact at any number of cards, and quick
        grows = rules.books_may_grow
        return (_growing_rank_layouts if grows else _rank_layouts)(rules, naturals, wilds)
    if (naturals + wilds) // size > _BOOKS_TRIED:
        return _EITHER
    alone = _without_wild_books(rules)  # wild melds are counted apart, once
    found = set()
    for clean in range(naturals // size + 1):
        for dirty in range((naturals + wilds) // size - clean + 1):
            if lays_out(alone, clean, dirty, 0, naturals, wilds):
                found.add(clean + dirty > 0)
    return frozenset(found)


def _rank_layouts(rules: RuleSet, naturals: int, wilds: int) -> frozenset[bool]:
    """The same for cards of a single rank (aces): books, and beside them one unfinished
    meld at the most (seed 000: "Het is partners niet toegestaan twee onvolledige
    combinaties van gelijke rang te hebben"); one meld in all where the rules allow one
    meld of each rank. Books of exactly ``book_size`` cards (see
    :func:`_growing_rank_layouts` where they grow).

    Worked out, not tried: with ``k`` books, the cards left make the meld beside them (none,
    or 3 to ``book_size - 1`` cards), and the wild cards fit when they are no more than the
    books and the meld can hold; every book and meld then has a natural card."""
    size, total = rules.book_size, naturals + wilds
    found = set()
    if naturals and 3 <= total < size and wilds <= _most_wilds(rules, total):
        found.add(False)
    most_books = min(1, total // size) if rules.one_meld_per_rank else total // size
    for books in range(1, most_books + 1):
        rest = total - books * size
        if rest and (rules.one_meld_per_rank or not 3 <= rest < size):
            continue
        room = books * _most_wilds(rules, size) + (_most_wilds(rules, rest) if rest else 0)
        if wilds <= room:
            found.add(True)
            break
    return frozenset(found)


def _most_wilds(rules: RuleSet, cards: int) -> int:
    """The most wild cards a meld of ``cards`` cards of one rank holds: at least one of its
    cards is natural."""
    return min(rules.max_wilds(cards), cards - 1)


def _growing_rank_layouts(rules: RuleSet, naturals: int, wilds: int) -> frozenset[bool]:
    """:func:`_rank_layouts` where books grow: one meld short of a book, or one book of all
    the cards. Nothing else needs trying: every wild-card limit lets a meld of all the
    cards hold at least as many wild cards as any split of them into books and a meld
    (``max_wilds(a) + max_wilds(b) <= max_wilds(a + b)``), so if some layout with a book
    exists, the one book does."""
    total = naturals + wilds
    fits = naturals > 0 and total >= 3 and wilds <= _most_wilds(rules, total)
    if not fits:
        return frozenset()
    return frozenset({total >= rules.book_size})


@lru_cache(maxsize=1024)
def _wild_layouts(rules: RuleSet, wilds: int) -> frozenset[bool]:
    """Whether ``wilds`` wild cards with no natural card can be wild melds without a wild
    book (False) and with one (True)."""
    if not wilds:
        return frozenset({False})
    size = rules.book_size
    if wilds // size > _BOOKS_TRIED:
        return _EITHER
    return frozenset(
        wild > 0
        for wild in range(wilds // size + 1 if rules.wild_books else 1)
        if lays_out(rules, 0, 0, wild, 0, wilds)
    )


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


def check_opening(
    rules: RuleSet,
    deal: int,
    points: int,
    *,
    melds: bool = True,
    book: bool | None = None,
    pickup_pair: int | None = None,
    pickup_wild: bool = False,
) -> OpeningCheck:
    """Whether an opening worth ``points`` is enough in deal ``deal`` (1-based); ``melds``
    says whether its cards make melds at all (see :func:`opening_melds`), ``book`` whether a
    complete book is among them (:func:`opening_book`; None: only points are known),
    ``pickup_pair`` how many cards of the top discard's rank the hand adds to a pickup of the
    discard pile (None: no pickup), ``pickup_wild`` whether that top discard is a wild card."""
    rule = rules.deal(deal)
    return OpeningCheck(
        value=points,
        minimum=rule.opening_minimum,
        concealed_book=rule.opening_needs_concealed_book,
        melds=melds,
        book=book,
        pickup_pair=pickup_pair,
        pickup_wild=pickup_wild,
        wild_melds=rules.wild_books,
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
    the rules say so (partnerships), every partner must have played from the foot too.
    """
    rule = rules.deal(deal)
    partners = rules.has_partners(alone=players <= 1)
    feet_needed = players if partners and rules.partner_in_foot_to_go_out else 1
    return GoOutCheck(
        missing=rule.go_out.shortfall(have),
        feet_missing=max(0, feet_needed - max(0, in_foot)),
        permission=partners and rules.permission_to_go_out,
    )
