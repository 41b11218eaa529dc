"""Melded cards counted by class must fit the books reported and melds the rules allow.

``lays_out`` answers with bit masks and tables; here every layout is tried one meld at a time
(books first, then the melds beside them), and the two must agree, for books of exactly seven
cards and for books that may grow alike.
"""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from scorekeeper.rules import PRESETS, CardClass, Cards, RuleSet, TeamTally, validate_deal
from scorekeeper.rules.layout import lays_out

# The most natural and wild cards tried; a book that may grow is tried up to all of them.
NATURALS, WILDS = 22, 10
LARGEST_TRIED = NATURALS + WILDS


def melds_beside_books(rules: RuleSet) -> list[tuple[int, int]]:
    """(natural, wild) cards of every meld that is not a book, written out from the rules."""
    melds = []
    for cards in range(3, rules.book_size):
        for wilds in range(cards):
            if wilds <= rules.max_wilds(cards):
                melds.append((cards - wilds, wilds))
    if rules.wild_books:
        melds.extend((0, cards) for cards in range(3, rules.book_size))
    return melds


def book_shapes(rules: RuleSet, kind: str, grows: bool) -> list[tuple[int, int]]:
    sizes = range(rules.book_size, LARGEST_TRIED + 1) if grows else [rules.book_size]
    shapes = []
    for cards in sizes:
        if kind == "clean":
            shapes.append((cards, 0))
        elif kind == "wild":
            shapes.append((0, cards))
        else:
            shapes.extend(
                (cards - wilds, wilds)
                for wilds in range(1, cards)
                if wilds <= rules.max_wilds(cards)
            )
    return shapes


def reference(rules: RuleSet, clean: int, dirty: int, wild: int, naturals: int, wilds: int) -> bool:
    grows = rules.books_may_grow and clean + dirty + wild > 0
    books = ["clean"] * clean + ["dirty"] * dirty + ["wild"] * wild
    beside = melds_beside_books(rules)

    @cache
    def loose(n: int, w: int, smallest: int, wild_meld: bool) -> bool:
        """Melds beside the books, taken in order of the list so each set is tried once."""
        if n == w == 0:
            return True
        for at in range(smallest, len(beside)):
            mn, mw = beside[at]
            if mn > n or mw > w:
                continue
            if mn == 0 and wild_meld:
                continue  # one unfinished meld of wild cards at most
            if loose(n - mn, w - mw, at, wild_meld or mn == 0):
                return True
        return False

    @cache
    def place(at: int, n: int, w: int) -> bool:
        if at == len(books):
            return loose(n, w, 0, False)
        return any(
            bn <= n and bw <= w and place(at + 1, n - bn, w - bw)
            for bn, bw in book_shapes(rules, books[at], grows)
        )

    return place(0, naturals, wilds)


def cards(**counts: int) -> Cards:
    return Cards.of_counts({CardClass(name): n for name, n in counts.items()})


SMALL = list(itertools.product(range(3), range(3), range(2)))


# House rules reach corners no preset does: other book sizes, wild limits and wild books.
HOUSE = {
    "books-of-5": ("standard", {"book_size": 5}),
    "books-of-9-growing": ("simpson", {"book_size": 9}),
    "two-naturals": ("eleven-card", {"min_naturals": 2}),
    "five-naturals-growing": ("eleven-card", {"min_naturals": 5, "books_may_grow": True}),
    "twice-growing-wild": ("standard", {"books_may_grow": True}),
    "more-with-wild-books": ("simpson", {"wild_books": True}),
}


def rules_named(name: str) -> RuleSet:
    if name in PRESETS:
        return PRESETS[name]
    base, overrides = HOUSE[name]
    return PRESETS[base].derive(overrides, id=name, name=name)


@pytest.mark.parametrize("rules_id", [*sorted(PRESETS), *HOUSE])
def test_the_layout_answer_agrees_with_trying_every_layout(rules_id: str) -> None:
    rules = rules_named(rules_id)
    disagree = []
    for clean, dirty, wild in SMALL:
        if wild and not rules.wild_books:
            continue
        size = rules.book_size
        least_naturals = size * clean + (size - rules.max_wilds(size)) * dirty
        for naturals in range(least_naturals, NATURALS + 1):
            # (Fewer cards than the books hold at the least is reported elsewhere.)
            for wilds in range(size * wild + dirty, WILDS + 1):
                answer = lays_out(rules, clean, dirty, wild, naturals, wilds)
                if answer != reference(rules, clean, dirty, wild, naturals, wilds):
                    disagree.append((clean, dirty, wild, naturals, wilds, answer))
    assert disagree == []


def test_growing_books_still_refuse_what_no_layout_allows() -> None:
    # A clean canasta beside two jokers: jokers alone make no meld, and none may join it.
    saskatchewan = PRESETS["saskatchewan"]
    assert not reference(saskatchewan, 1, 0, 0, 7, 2)
    assert not lays_out(saskatchewan, 1, 0, 0, 7, 2)
    # Two more naturals and a third joker make a meld of their own (2 + 1, twice: 4 + 2).
    assert lays_out(saskatchewan, 1, 0, 0, 11, 2)


def problems(rules_id: str, team: TeamTally, teams: int = 2) -> list[tuple[str, str]]:
    others = [TeamTally() for _ in range(teams - 1)]
    return [(p.field, p.message) for p in validate_deal(PRESETS[rules_id], 1, [team, *others])]


def test_standard_nine_joker_two_is_refused_nine_nine_joker_is_not() -> None:
    # Seed 001: "9 9 Joker geht, 9 Joker 2 nicht."
    assert problems("standard", TeamTally(melded=cards(eights_to_kings=2, jokers=1))) == []
    assert problems("standard", TeamTally(melded=cards(eights_to_kings=1, jokers=1, twos=1))) == [
        (
            "melded",
            "Team A melded 2 wild cards with only 1 natural card: every meld needs at least "
            "twice as many natural cards as wild cards.",
        )
    ]


def test_standard_a_dirty_book_and_a_meld_must_each_keep_the_wild_card_limit() -> None:
    # 8 kings and 4 twos: a dirty book of 7 holds 2 twos at most, and the 5 cards beside it
    # (3 kings and 2 twos, or 2 kings and 3 twos) break the limit; 12 cards in all fit nothing.
    team = TeamTally(dirty_books=1, melded=cards(eights_to_kings=8, twos=4))
    assert problems("standard", team) == [
        (
            "melded",
            "Team A's melded cards cannot be laid out in books and melds: besides its clean and "
            "wild books, 8 natural cards and 4 wild cards are left for its dirty books and for "
            "melds of 3 to 6 cards, and every meld needs at least twice as many natural cards as "
            "wild cards.",
        )
    ]


@pytest.mark.parametrize(
    "melded",
    [
        {"jokers": 2},
        {"aces": 1, "jokers": 1},
    ],
)
def test_saskatchewan_a_meld_without_books_has_three_cards(melded: dict[str, int]) -> None:
    # Seed 003: "En meld kan ikke have færre end tre kort."
    team = TeamTally(melded=cards(**melded))
    assert problems("saskatchewan", team, 4) == [
        ("melded", "Team A melded 2 cards besides its books, but a meld has at least three cards.")
    ]


def test_saskatchewan_melds_need_more_natural_than_wild_cards() -> None:
    # Seed 003: "flere normale kort end wild cards".
    team = TeamTally(melded=cards(eights_to_kings=1, jokers=1, twos=1))
    assert problems("saskatchewan", team, 4) == [
        (
            "melded",
            "Team A melded 2 wild cards with only 1 natural card: every meld needs more natural "
            "cards than wild cards.",
        )
    ]
    fine = TeamTally(melded=cards(eights_to_kings=3, jokers=1, twos=1))
    assert problems("saskatchewan", fine, 4) == []


def test_saskatchewan_wild_cards_cannot_join_a_clean_canasta() -> None:
    team = TeamTally(clean_books=1, melded=cards(eights_to_kings=7, jokers=2))
    assert problems("saskatchewan", team, 4) == [
        (
            "melded",
            "Team A's melded cards cannot be laid out in books and melds: besides its clean and "
            "wild books, 0 natural cards and 2 wild cards are left for its dirty books and for "
            "melds of 3 to 6 cards, and every meld needs more natural cards than wild cards.",
        )
    ]
    # Beside a wild canasta they can: it may hold any number of wild cards.
    wild = TeamTally(clean_books=1, wild_books=1, melded=cards(eights_to_kings=7, jokers=9))
    assert problems("saskatchewan", wild, 4) == []


def test_eleven_card_naturals_in_a_clean_book_cannot_carry_a_wild_card() -> None:
    # Seed 002: wild cards only in melds of at least four natural cards; the three kings
    # beside a clean book are not four.
    team = TeamTally(clean_books=1, melded=cards(eights_to_kings=10, twos=1))
    assert problems("eleven-card", team) == [
        (
            "melded",
            "Team A's melded cards cannot be laid out in books and melds: besides its clean and "
            "wild books, 3 natural cards and 1 wild card are left for its dirty books and for "
            "melds of 3 to 6 cards, and wild cards may only join a meld of at least 4 natural "
            "cards.",
        )
    ]
    four = TeamTally(clean_books=1, melded=cards(eights_to_kings=11, twos=1))
    assert problems("eleven-card", four) == []


def test_saskatchewan_natural_cards_beside_a_wild_canasta_still_make_melds() -> None:
    # The wild canasta takes any wild card, never a natural one: two kings make no meld.
    two = TeamTally(wild_books=1, melded=cards(jokers=4, twos=3, eights_to_kings=2))
    assert problems("saskatchewan", two, 4) == [
        (
            "melded",
            "Team A's melded cards cannot be laid out in books and melds: besides its clean and "
            "wild books, 2 natural cards and 0 wild cards are left for its dirty books and for "
            "melds of 3 to 6 cards, and every meld needs more natural cards than wild cards.",
        )
    ]
    three = TeamTally(wild_books=1, melded=cards(jokers=4, twos=3, eights_to_kings=3))
    assert problems("saskatchewan", three, 4) == []


def test_books_of_three_leave_no_room_for_melds() -> None:
    rules = PRESETS["no-wild-books"].derive({"book_size": 3}, id="threes", name="Threes")
    team = TeamTally(clean_books=1, melded=cards(aces=4, twos=2))
    assert [p.message for p in validate_deal(rules, 1, [team, TeamTally()])] == [
        "Team A's melded cards cannot be laid out in books: besides its clean and wild books, 1 "
        "natural card and 2 wild cards are left for its dirty books, and every meld needs at least "
        "twice as many natural cards as wild cards."
    ]
