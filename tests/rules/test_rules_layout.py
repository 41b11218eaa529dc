"""Melded cards counted by class must fit the books reported and melds the rules allow.

``lays_out`` answers with bit masks and tables; here every layout is tried one meld at a time
(books first, then the melds beside them), and the two must agree, for books of exactly seven
cards and for books that may grow alike.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from functools import cache

import pytest

from scorekeeper.rules import PRESETS, CardClass, Cards, RuleSet, TeamTally, validate_deal
from scorekeeper.rules.layout import lays_out, ranks_lay_out

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
            "Team A's melded cards cannot be laid out in books and melds: besides their clean and "
            "wild books, 8 natural cards and 4 wild cards are left for their dirty books and for "
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
        (
            "melded",
            "Team A melded 2 cards besides their books, but a meld has at least three cards.",
        )
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
            "Team A's melded cards cannot be laid out in books and melds: besides their clean and "
            "wild books, 0 natural cards and 2 wild cards are left for their dirty books and for "
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
            "Team A's melded cards cannot be laid out in books and melds: besides their clean and "
            "wild books, 3 natural cards and 1 wild card are left for their dirty books and for "
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
            "Team A's melded cards cannot be laid out in books and melds: besides their clean and "
            "wild books, 2 natural cards and 0 wild cards are left for their dirty books and for "
            "melds of 3 to 6 cards, and every meld needs more natural cards than wild cards.",
        )
    ]
    three = TeamTally(wild_books=1, melded=cards(jokers=4, twos=3, eights_to_kings=3))
    assert problems("saskatchewan", three, 4) == []


def test_books_of_three_leave_no_room_for_melds() -> None:
    rules = PRESETS["no-wild-books"].derive({"book_size": 3}, id="threes", name="Threes")
    team = TeamTally(clean_books=1, melded=cards(aces=4, twos=2))
    assert [p.message for p in validate_deal(rules, 1, [team, TeamTally()])] == [
        "Team A's melded cards cannot be laid out in books: besides their clean and wild books, 1 "
        "natural card and 2 wild cards are left for their dirty books, and every meld needs at "
        "least twice as many natural cards as wild cards."
    ]


# The ranks of natural cards, by class: the ace, 8 to king, 4 to 7.
RANKS = (("aces", 1), ("eights_to_kings", 6), ("fours_to_sevens", 4))
RANK_CLASS = tuple(at for at, (_, ranks) in enumerate(RANKS) for _ in range(ranks))


def by_rank_reference(rules: RuleSet):
    """Every natural card in a book or in a meld that is not a book, one unfinished meld of
    a rank at the most: tried rank by rank, each with its books (clean, and dirty ones one
    at a time with their wild cards) and no meld or any meld. Books of exactly their size."""
    size = rules.book_size
    natural_melds = [(n, w) for n, w in melds_beside_books(rules) if n]
    dirty_shapes = book_shapes(rules, "dirty", grows=False)

    @cache
    def place(rank: int, left: tuple[int, ...], w: int, clean: int, dirty: int, wild: int) -> bool:
        if rank == len(RANK_CLASS):
            if any(left) or clean or dirty:
                return False
            rest = w - size * wild
            if rest == 0 or (rules.books_may_grow and wild and rest > 0):
                return True
            return rules.wild_books and 3 <= rest < size
        at = RANK_CLASS[rank]

        def less(n: int) -> tuple[int, ...]:
            return (*left[:at], left[at] - n, *left[at + 1 :])

        # A book of this rank, then the rank again (a rank may have several books).
        if clean and left[at] >= size and place(rank, less(size), w, clean - 1, dirty, wild):
            return True
        if dirty and any(
            n <= left[at] and bw <= w and place(rank, less(n), w - bw, clean, dirty - 1, wild)
            for n, bw in dirty_shapes
        ):
            return True
        return place(rank + 1, left, w, clean, dirty, wild) or any(
            n <= left[at] and mw <= w and place(rank + 1, less(n), w - mw, clean, dirty, wild)
            for n, mw in natural_melds
        )

    return place


def rank_by_rank(
    rules: RuleSet, place, books: tuple[int, int, int], naturals: tuple[int, int, int], wilds: int
) -> tuple[bool, bool]:
    """``ranks_lay_out``'s answer and the reference's for ``books`` (clean, dirty, wild) and
    ``naturals`` (aces, 8 to king, 4 to 7) beside ``wilds`` wild cards."""
    classes = [(n, ranks) for n, (_, ranks) in zip(naturals, RANKS, strict=True)]
    return (
        ranks_lay_out(rules, classes, *books, wilds),
        place(0, naturals, wilds, *books),
    )


@pytest.mark.parametrize("rules_id", [*sorted(PRESETS), *HOUSE])
def test_melds_one_a_rank_agree_with_trying_every_rank(rules_id: str) -> None:
    rules = rules_named(rules_id)
    place = by_rank_reference(rules)
    size = rules.book_size
    disagree = []
    # Where books may grow, natural cards to spare join a book of their rank: not judged.
    books = [(0, 0)] if rules.books_may_grow else [(0, 0), (1, 0), (0, 1), (1, 1)]
    # Wild books beside no other book (the rank-by-rank trial grows fast with books).
    wild_books = (0, 1) if rules.wild_books else (0,)
    for (clean, dirty), wild in itertools.product(books, wild_books):
        extra = size * (clean + dirty)
        if extra and wild:
            continue
        for aces, high, low in itertools.product(
            range(0, 8 + extra, step := 3 if extra else 1),
            range(0, 14 + extra, step),
            range(0, 8 + extra, step),
        ):
            for wilds in range(size * wild + dirty, size * wild + dirty + (4 if extra else 6)):
                answer, expected = rank_by_rank(
                    rules, place, (clean, dirty, wild), (aces, high, low), wilds
                )
                if answer != expected:
                    disagree.append((clean, dirty, wild, aces, high, low, wilds, answer))
    assert disagree == []


@pytest.mark.parametrize(
    "rules_id",  # where books may grow, only deals without clean or dirty books are judged
    [r for r in [*sorted(PRESETS), *HOUSE] if not rules_named(r).books_may_grow],
)
def test_melds_one_a_rank_agree_with_the_reference_for_several_books(rules_id: str) -> None:
    """Where the trial above steps by 3 or stops at one book of each kind: two books of a
    kind, wild books beside clean and dirty ones, any count of natural cards, in a fixed
    sample (the same every run; the reference's work grows fast with books)."""
    rules = rules_named(rules_id)
    place = by_rank_reference(rules)
    size = rules.book_size
    sample = random.Random(f"ranks-{rules_id}")
    disagree = []
    outcomes = set()
    for _ in range(40):
        clean, dirty = sample.choice([(2, 0), (0, 2), (1, 1), (1, 0), (0, 1)])
        wild = sample.randint(0, 1) if rules.wild_books else 0
        extra = size * (clean + dirty)
        aces = sample.randint(0, 7 + extra)
        high = sample.randint(0, 13 + extra)
        low = sample.randint(0, 7 + extra)
        wilds = size * wild + dirty + sample.randint(0, 5)
        answer, expected = rank_by_rank(
            rules, place, (clean, dirty, wild), (aces, high, low), wilds
        )
        outcomes.add(expected)
        if answer != expected:
            disagree.append((clean, dirty, wild, aces, high, low, wilds, answer))
    assert disagree == []
    assert outcomes == {True, False}  # the sample holds deals that lay out and some that do not


def test_books_that_may_grow_are_not_judged_rank_by_rank() -> None:
    # Natural cards to spare may join a book of their rank, which counts by class do not
    # tell: the ranks are judged only where no clean or dirty book is reported.
    saskatchewan = PRESETS["saskatchewan"]
    assert ranks_lay_out(saskatchewan, [(6, 1), (7, 6), (0, 4)], 1, 0, 0, 1)
    assert not ranks_lay_out(saskatchewan, [(6, 1), (0, 6), (0, 4)], 0, 0, 0, 1)


def test_six_aces_and_a_two_with_no_book_cannot_be() -> None:
    # One meld of a rank at the most, aces are one rank: six aces and the 2 would be a book.
    standard = PRESETS["standard"]
    out = TeamTally(
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        melded=Cards(points=600),
        went_out=True,
        left=Cards(points=0),
    )
    aces = TeamTally(melded=cards(aces=6, twos=1), left=Cards(points=300))
    assert [p.message for p in validate_deal(standard, 1, [out, aces], None, [1, 1])] == [
        "Team B's melded cards cannot be laid out in melds: with no clean or dirty book, each "
        "rank's natural cards make one meld at the most, of 3 to 6 cards with wild cards "
        "(all aces are one rank), and 6 natural cards and 1 wild card make no such melds."
    ]
    # Six cards of 8 to king may be two ranks: K K K 2 and Q Q Q.
    high = TeamTally(melded=cards(eights_to_kings=6, twos=1), left=Cards(points=300))
    assert validate_deal(standard, 1, [out, high], None, [1, 1]) == []
    # With a dirty book reported, the six aces and the 2 are that book.
    booked = TeamTally(dirty_books=1, melded=cards(aces=6, twos=1), left=Cards(points=300))
    assert validate_deal(standard, 1, [out, booked], None, [1, 1]) == []
    # A clean book of kings beside them leaves them as they were.
    kings = replace(
        booked, dirty_books=0, clean_books=1, melded=cards(aces=6, twos=1, eights_to_kings=7)
    )
    assert [p.message for p in validate_deal(standard, 1, [out, kings], None, [1, 1])] == [
        "Team B's melded cards cannot be laid out in books and melds of one rank each: beside "
        "their books, each rank's natural cards make one unfinished meld at the most, of 3 to 6 "
        "cards with wild cards (all aces are one rank), and 13 natural cards and 1 wild "
        "card make no such books and melds."
    ]
    # Thirteen aces are a clean book of them and six in a meld, with room for no 2 but a 2
    # in a second book: A A A A A A A and A A A A A A 2.
    aces_13 = replace(kings, melded=cards(aces=13, twos=1))
    assert len(validate_deal(standard, 1, [out, aces_13], None, [1, 1])) == 1
    assert validate_deal(standard, 1, [out, replace(aces_13, dirty_books=1)], None, [1, 1]) == []
    # Two aces and two eights need a wild card each: one is not enough for both.
    pairs = TeamTally(melded=cards(aces=2, eights_to_kings=2, twos=1), left=Cards(points=300))
    assert [p.message for p in validate_deal(standard, 1, [out, pairs], None, [1, 1])] == [
        "Team B's melded cards cannot be laid out in melds: with no clean or dirty book, each "
        "rank's natural cards make one meld at the most, of 3 to 6 cards with wild cards "
        "(all aces are one rank), and 4 natural cards and 1 wild card make no such melds."
    ]
    assert (
        validate_deal(
            standard,
            1,
            [out, replace(pairs, melded=cards(aces=2, eights_to_kings=2, twos=2))],
            None,
            [1, 1],
        )
        == []
    )


def test_many_books_and_cards_are_judged_in_bounded_work() -> None:
    # 24 dirty books of eights to kings, each five naturals and two 2s: one rank may hold
    # many books. Judged with every share of the books among the classes (25 shares).
    standard = PRESETS["standard"]
    assert ranks_lay_out(standard, [(0, 1), (120, 6), (0, 4)], 0, 24, 0, 48)
    # A house rule of 13-card books and a wild card beside a single natural: 390 natural
    # cards cannot be 24 dirty books and a meld of each rank at the most.
    wide = PRESETS["eleven-card"].derive({"min_naturals": 1, "book_size": 13}, id="wide", name="w")
    assert not ranks_lay_out(wide, [(40, 1), (200, 6), (150, 4)], 0, 24, 0, 100)


def test_books_of_three_or_four_are_not_judged_rank_by_rank() -> None:
    # Their melds beside books (none, or of 3 cards) are not what the messages say.
    small = PRESETS["no-wild-books"].derive({"book_size": 3}, id="threes", name="threes")
    out = TeamTally(clean_books=2, dirty_books=2, melded=Cards(points=300), went_out=True)
    team = TeamTally(clean_books=1, melded=cards(aces=1, eights_to_kings=2), left=Cards(points=50))
    messages = [p.message for p in validate_deal(small, 1, [out, team], None, [1, 1])]
    assert not any("rank" in message for message in messages)
