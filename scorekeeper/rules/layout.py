"""Whether melded cards, counted by class, can be a team's books and melds.

In :func:`lays_out`, ranks aside (with five or more decks every rank has cards to spare), the
question is one of numbers: the natural and wild cards must fill the books the team reports
and leave only melds of three cards up to one short of a book, each keeping the rules'
wild-card limit, and at most one unfinished meld of wild cards where wild books exist.

Where books may grow, extra natural cards can join any clean or dirty book (a natural card
never breaks a wild-card limit), extra wild cards any wild book, and each dirty book needs at
the least the natural cards its own wild cards ask for. The answer agrees with trying every
layout one meld at a time (``tests/rules/test_rules_layout.py``). :func:`ranks_lay_out` then
narrows its answer rank by rank, and agrees with trying every rank.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .ruleset import RuleSet

_NONE = 1 << 30  # "cannot be": more natural cards than any deck holds


def lays_out(rules: RuleSet, clean: int, dirty: int, wild: int, naturals: int, wilds: int) -> bool:
    """Whether ``naturals`` and ``wilds`` melded can be ``clean``/``dirty``/``wild`` books and
    melds under ``rules``. Fewer cards than the books need at the least is reported elsewhere
    and answered True here."""
    size = rules.book_size
    grows = rules.books_may_grow and clean + dirty + wild > 0
    # A wild book that may grow can hold every wild card to spare.
    wilds_absorbed = grows and rules.wild_books and wild > 0
    outside_clean = naturals - size * clean
    outside_wild = wilds - size * wild
    if outside_clean < 0 or outside_wild < 0:
        return True
    # Extra natural cards can join a clean or dirty book that may grow.
    absorbed = grows and clean + dirty > 0
    shapes = _shapes(rules)
    carried = _carried(shapes, outside_wild, outside_clean)
    fewest = _dirty_naturals(rules, grows, dirty, outside_wild)
    for dirty_wilds in range(outside_wild + 1):
        free = outside_clean - fewest[dirty_wilds]
        if free < 0:
            continue
        # Melds carrying wild cards may take any natural cards that books can make up for;
        # otherwise only so many that the rest are melds of natural cards only.
        allowed = (1 << (free + 1)) - 1 if absorbed else _leaving_melds(shapes, free)
        rest = outside_wild - dirty_wilds
        if wilds_absorbed:
            wild_melds = range(1, rest + 1)
        else:  # at most one unfinished meld of wild cards
            wild_melds = range(3, min(size - 1, rest) + 1) if rules.wild_books else range(0)
        for apart in (0, *wild_melds):  # wild cards with no natural card beside them
            if carried[rest - apart] & allowed:
                return True
    return False


@lru_cache(maxsize=64)
def _shapes(rules: RuleSet) -> tuple[tuple[int, int], ...]:
    """(natural, wild) cards of every meld that is not a book: 3 cards to one short of a book."""
    return tuple(
        (cards - wilds, wilds)
        for cards in range(3, rules.book_size)
        for wilds in range(min(rules.max_wilds(cards), cards - 1) + 1)
    )


def _carried(shapes: tuple[tuple[int, int], ...], wilds: int, naturals: int) -> list[int]:
    """For 0 … ``wilds`` wild cards, a bit mask of how many natural cards (up to ``naturals``)
    melds that each hold a wild card can hold beside exactly that many wild cards."""
    keep = (1 << (naturals + 1)) - 1
    carried = [1] + [0] * wilds
    for held in range(1, wilds + 1):
        mask = 0
        for n, w in shapes:
            if 0 < w <= held:
                mask |= carried[held - w] << n
        carried[held] = mask & keep
    return carried


@lru_cache(maxsize=256)
def _natural_rests(shapes: tuple[tuple[int, int], ...], naturals: int) -> str:
    """Which numbers of natural cards, 0 … ``naturals``, make melds of natural cards only (or
    none): "1" at index r where r can, as text for slicing."""
    sizes = [n for n, w in shapes if w == 0]
    keep = (1 << (naturals + 1)) - 1
    rests, grown = 0, 1
    while grown != rests:  # each round adds one more meld to every sum found
        rests = grown
        for s in sizes:
            grown |= (rests << s) & keep
    return format(rests, "b").zfill(naturals + 1)[::-1]


def _leaving_melds(shapes: tuple[tuple[int, int], ...], naturals: int) -> int:
    """A bit mask of the natural cards melds with wild cards may take out of ``naturals``
    so that the rest are melds of natural cards only (or none)."""
    # Read as a binary number, the text's character r is bit naturals - r: bit n is set
    # where naturals - n natural cards can be the rest.
    return int(_natural_rests(shapes, naturals), 2)


def _dirty_naturals(rules: RuleSet, grows: bool, books: int, wilds: int) -> list[int]:
    """For 0 … ``wilds`` wild cards, the fewest natural cards ``books`` dirty books can hold
    beside exactly that many (``_NONE`` where they cannot hold them)."""
    size = rules.book_size
    if not books:
        return [0] + [_NONE] * wilds
    if not grows:  # every dirty book holds one to the rules' most wild cards, and no more cards
        most = books * rules.max_wilds(size)
        return [size * books - w if books <= w <= most else _NONE for w in range(wilds + 1)]
    one = [_NONE] + [_one_book(rules, w) for w in range(1, wilds + 1)]
    # ``books`` books: the fewest of one book combined with itself, by repeated squaring.
    fewest, power = [0] + [_NONE] * wilds, one
    while books:
        if books & 1:
            fewest = _combined(fewest, power)
        books >>= 1
        if books:
            power = _combined(power, power)
    return fewest


def _combined(first: list[int], second: list[int]) -> list[int]:
    """The fewest natural cards two groups of books hold beside each number of wild cards."""
    return [
        min(_NONE, *(first[w - here] + second[here] for here in range(w + 1)))
        for w in range(len(first))
    ]


def _one_book(rules: RuleSet, wilds: int) -> int:
    """The fewest natural cards a dirty book that may grow holds beside ``wilds`` wild cards."""
    size = rules.book_size
    for naturals in range(max(size - wilds, 1), size + 4 * wilds + 1):
        if wilds <= rules.max_wilds(naturals + wilds):
            return naturals
    return _NONE


def ranks_lay_out(
    rules: RuleSet,
    classes: Sequence[tuple[int, int]],
    clean: int,
    dirty: int,
    wild: int,
    wilds: int,
) -> bool:
    """Whether natural cards counted by class, ``classes`` holding for each class the cards
    melded and the ranks it has (aces are one rank, 8 to king six), make ``clean`` and
    ``dirty`` books of one rank each and melds that are not books, one unfinished meld of a
    rank at the most (seeds 000, 001, 003), beside ``wild`` wild books and ``wilds`` wild
    cards in all: six aces and a 2 with no book cannot be, though six natural cards of two
    ranks and a 2 can.

    :func:`lays_out` answers the same question with every rank pooled; this one only
    narrows it. It answers True, judging nothing, where books may grow (natural cards to
    spare join a book of their rank, which the counts do not tell), where the books are too
    many to try every share of them among the classes within ``_SHARES``, and where fewer
    wild cards than the wild books need are melded (reported elsewhere)."""
    size = rules.book_size
    rest = wilds - size * wild
    if rest < 0 or (rules.books_may_grow and clean + dirty) or (clean + 1) * (dirty + 1) > _SHARES:
        return True
    keep = (1 << (rest + 1)) - 1
    most = rules.max_wilds(size)
    # held[(k, j)]: bit x where the classes so far hold k clean and j dirty books and melds
    # beside them with exactly x wild cards among them.
    held = {(0, 0): 1}
    for naturals, ranks in classes:
        melds = _rank_melds(rules, ranks)
        shares: dict[tuple[int, int], int] = {}
        for k in range(clean + 1):
            for j in range(dirty + 1):
                mask = 0
                # j dirty books hold j to j * most wild cards, a book's worth of cards each;
                # the natural cards left are the melds', up to len(melds) - 1 of them.
                booked = size * (k + j) - naturals
                fewest = max(j, booked, 0)
                for in_books in range(fewest, min(j * most, rest, booked + len(melds) - 1) + 1):
                    mask |= melds[in_books - booked] << in_books
                if mask & keep:
                    shares[(k, j)] = mask & keep
        grown: dict[tuple[int, int], int] = {}
        for (k, j), mask in held.items():
            for (k2, j2), more in shares.items():
                if k + k2 <= clean and j + j2 <= dirty:
                    grown[(k + k2, j + j2)] = grown.get((k + k2, j + j2), 0) | _sums(mask, more)
        held = {at: mask & keep for at, mask in grown.items() if mask & keep}
    found = held.get((clean, dirty), 0)
    if rules.books_may_grow and rules.wild_books and wild > 0:
        return found != 0  # a wild book that may grow holds every wild card to spare
    apart = range(3, min(size - 1, rest) + 1) if rules.wild_books else range(0)
    return any(found >> (rest - alone) & 1 for alone in (0, *apart))


# The most shares of clean and dirty books among the classes tried, (clean + 1) * (dirty + 1):
# six clean and six dirty books, or 48 of one kind; a few milliseconds at the most.
_SHARES = 49


def meld_room(rules: RuleSet, ranks: int) -> int:
    """The most natural cards a class of ``ranks`` ranks holds outside books: one unfinished
    meld a rank at the most (seeds 000, 001, 003), each one card short of a book."""
    return ranks * (rules.book_size - 1)


@lru_cache(maxsize=64)
def _rank_melds(rules: RuleSet, ranks: int) -> tuple[int, ...]:
    """For 0 … as many natural cards as the melds of ``ranks`` ranks hold (one a rank at the
    most, each one short of a book), a bit mask of the wild cards those melds can hold beside
    exactly that many natural cards of one class: past them, none (the rest is in books)."""
    shapes = _shapes(rules)
    most = meld_room(rules, ranks)
    # by_naturals[n]: wild cards melds so far can hold beside exactly n natural cards.
    by_naturals = [1] + [0] * most
    for _ in range(ranks):
        grown = list(by_naturals)  # a rank may have no meld
        for n, mask in enumerate(by_naturals):
            if mask:
                for a, w in shapes:
                    if n + a <= most:
                        grown[n + a] |= mask << w
        if grown == by_naturals:
            break
        by_naturals = grown
    return tuple(by_naturals)


def _sums(first: int, second: int) -> int:
    """The bit mask of every sum of a number in ``first`` and one in ``second``."""
    total = 0
    while second:
        low = second & -second
        total |= first << (low.bit_length() - 1)
        second ^= low
    return total
