"""The questions a table asks while a deal is played, answered by the pure rules core."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from scorekeeper.rules import PRESETS, BookCount, CardClass, RuleSet
from scorekeeper.rules.play import (
    check_go_out,
    check_opening,
    opening_book,
    opening_melds,
    opening_points_step,
    opening_rank_shapes,
    opening_shapes,
    opening_value,
    ranks_to_classes,
)
from scorekeeper.rules.tally import BOUNDS

J, TWO, A, HIGH, LOW = (
    CardClass.JOKERS,
    CardClass.TWOS,
    CardClass.ACES,
    CardClass.EIGHTS_TO_KINGS,
    CardClass.FOURS_TO_SEVENS,
)
STANDARD = PRESETS["standard"]


@pytest.mark.parametrize(
    ("deal", "cards", "value", "enough"),
    [
        # The seeds' worked examples (RULES.md, "Opening meld").
        (2, {A: 2, J: 1}, 90, True),
        (2, {HIGH: 6}, 60, False),
        (1, {HIGH: 3, TWO: 1}, 50, True),
        (1, {LOW: 7}, 35, False),
        (4, {J: 3}, 150, True),
        (3, {J: 2, A: 4}, 180, True),
        (3, {J: 1, HIGH: 6}, 110, False),
    ],
)
def test_an_opening_counts_card_values_against_the_deals_minimum(
    deal: int, cards: dict[CardClass, int], value: int, enough: bool
) -> None:
    points = opening_value(STANDARD, cards)
    check = check_opening(STANDARD, deal, points, melds=opening_melds(STANDARD, cards))
    assert points == value
    assert check.enough is enough
    assert check.short == (0 if enough else check.minimum - value)
    assert check.minimum == (50, 90, 120, 150)[deal - 1]


@pytest.mark.parametrize(
    ("cards", "standard", "eleven_card", "simpson"),
    [
        ({J: 1}, False, False, False),  # worth 50, but no meld
        ({A: 2}, False, False, False),  # two cards
        ({A: 3}, True, True, True),
        ({J: 2, A: 1}, False, False, False),  # more wild cards than natural ones
        ({TWO: 1, A: 2}, True, False, True),  # eleven-card: at least 4 naturals beside wilds
        ({J: 2, A: 4}, True, True, True),
        ({J: 3}, True, False, False),  # a wild meld, where wild books exist
        ({J: 7}, True, False, False),  # a wild book
        ({J: 8}, False, False, False),  # a wild book and one joker left over
        ({J: 1, A: 6}, True, True, True),  # a dirty book
        ({J: 3, A: 7, HIGH: 7}, True, True, True),  # two clean books and a wild meld
    ],
)
def test_an_openings_cards_must_make_melds(
    cards: dict[CardClass, int], standard: bool, eleven_card: bool, simpson: bool
) -> None:
    # Seeds 000/001: a meld is three to seven cards of a rank, with the rules' wild limit.
    judged = [opening_melds(PRESETS[p], cards) for p in ("standard", "eleven-card", "simpson")]
    assert judged == [standard, eleven_card, simpson]
    check = check_opening(STANDARD, 4, 500, melds=judged[0])
    assert check.enough is standard


def test_more_cards_than_an_opening_holds_get_no_wrong_verdict() -> None:
    # Beyond four books of each kind the check gives up rather than refuse.
    many = {J: 200, TWO: 0, A: 100, HIGH: 100, LOW: 100}
    assert opening_melds(STANDARD, many)
    assert opening_melds(STANDARD, {})


def test_every_preset_opening_is_a_multiple_of_five() -> None:
    assert {opening_points_step(rules) for rules in PRESETS.values()} == {5}
    odd = STANDARD.derive({"card_values": {"aces": 21}}, id="odd", name="Odd")
    assert opening_points_step(odd) == 1


def test_cards_not_in_the_opening_count_nothing() -> None:
    assert opening_value(STANDARD, {J: 0, A: -3}) == 0


def test_saskatchewans_last_deal_asks_a_concealed_canasta_not_points() -> None:
    check = check_opening(PRESETS["saskatchewan"], 4, 500)
    assert check.concealed_book
    assert not check.enough
    assert check.short == 0


def test_a_house_rule_card_value_changes_the_opening_value() -> None:
    rules = STANDARD.derive({"card_values": {"jokers": 25}}, id="cheap-jokers", name="Cheap")
    assert opening_value(rules, {J: 2}) == 50


def test_standard_partners_need_every_book_and_both_feet() -> None:
    check = check_go_out(STANDARD, 1, BookCount(clean=1, dirty=2), players=2, in_foot=1)
    assert check.missing == BookCount(clean=1, wild=1)
    assert check.feet_missing == 1
    assert check.permission
    assert not check.ready


def test_a_team_with_its_books_and_feet_may_go_out() -> None:
    check = check_go_out(STANDARD, 3, BookCount(clean=3, dirty=2, wild=1), players=2, in_foot=2)
    assert check.ready
    assert check.missing == BookCount()


def test_a_player_alone_only_needs_their_own_foot() -> None:
    rules = PRESETS["simpson"]
    check = check_go_out(rules, 1, BookCount(clean=1, dirty=1), players=1, in_foot=0)
    assert check.feet_missing == 1
    assert not check.permission
    assert check_go_out(rules, 1, BookCount(clean=1, dirty=1), players=1, in_foot=1).ready


def test_partner_conditions_bind_only_players_who_have_a_partner() -> None:
    # House rules of players alone keep the standard rules' partner ticks (the editor leaves
    # them); nobody there waits for a partner's foot or asks permission.
    solo = STANDARD.derive({"play_style": "individuals"}, id="solo", name="solo")
    assert solo.partner_in_foot_to_go_out and solo.permission_to_go_out
    assert STANDARD.has_partners() and not STANDARD.has_partners(alone=True)
    assert not solo.has_partners()
    # Three, five or seven players sit alone at a standard table; Brouillette's pairs never.
    assert STANDARD.seats_players_alone and solo.seats_players_alone
    assert not PRESETS["brouillette-partners"].seats_players_alone
    check = check_go_out(solo, 1, BookCount(clean=2, dirty=2, wild=1), players=2, in_foot=1)
    assert check.ready and not check.permission
    check = check_go_out(STANDARD, 1, BookCount(clean=2, dirty=2, wild=1), players=2, in_foot=1)
    assert check.feet_missing == 1 and check.permission


def test_brouillettes_last_deal_asks_more_books() -> None:
    rules = PRESETS["brouillette"]
    early = check_go_out(rules, 1, BookCount(clean=1, dirty=1), players=1, in_foot=1)
    last = check_go_out(rules, 4, BookCount(clean=1, dirty=1), players=1, in_foot=1)
    assert early.ready
    assert last.missing == BookCount(clean=1, dirty=1)


def test_a_black_three_book_is_one_clean_book_toward_going_out() -> None:
    # Seed 003: "Sorte trekanter kan bruges til at skabe en ren meld"; one meld of each rank.
    brouillette = PRESETS["brouillette"]
    assert brouillette.clean_for_going_out(0, 1) == 1
    assert brouillette.clean_for_going_out(2, 3) == 3  # a second one is no book of these rules
    grows = brouillette.derive({"one_meld_per_rank": False}, id="b2", name="b2")
    assert grows.clean_for_going_out(2, 3) == 5
    assert STANDARD.clean_for_going_out(2, 3) == 2  # no black-three books at all
    # The same caps bound the deal tracker's counter: one, as many as a count may say, none.
    most = [rules.most_black_three_books for rules in (brouillette, grows, STANDARD)]
    assert most == [1, BOUNDS["black_three_books"][1], 0]


def test_no_wild_books_needs_no_wild_book() -> None:
    check = check_go_out(
        PRESETS["no-wild-books"], 1, BookCount(clean=2, dirty=2), players=2, in_foot=2
    )
    assert check.ready


# Rules whose melds differ: book sizes, wild-card limits, books that grow, wild books.
OPENING_RULES = {
    **{name: PRESETS[name] for name in sorted(PRESETS)},
    "books-of-5": PRESETS["standard"].derive({"book_size": 5}, id="b5", name="b5"),
    "two-naturals-growing": PRESETS["eleven-card"].derive(
        {"min_naturals": 2, "books_may_grow": True}, id="n2", name="n2"
    ),
    "simpson-wild-books": PRESETS["simpson"].derive({"wild_books": True}, id="sw", name="sw"),
}


def layouts_one_at_a_time(rules: RuleSet, cards: dict[CardClass, int]) -> set[bool]:
    """Every layout tried meld by meld: each natural class melds on its own (the cards of a
    class of several ranks taken as any ranks), aces are one rank (one unfinished meld, or
    one meld in all where the rules say so), wild cards join them or make wild melds and
    books, at most one unfinished wild meld. The answer: whether a layout without a book
    (False) and one with a book (True) exist."""
    groups = [(cards.get(card, 0), card is A) for card in (A, HIGH, LOW)]
    return groups_one_at_a_time(rules, cards.get(J, 0) + cards.get(TWO, 0), groups)


def groups_one_at_a_time(rules: RuleSet, wilds: int, groups: list[tuple[int, bool]]) -> set[bool]:
    """:func:`layouts_one_at_a_time` of ``wilds`` wild cards and groups of natural cards
    that meld apart, each (how many, whether they are of one rank)."""
    size, most = rules.book_size, wilds + sum(n for n, _ in groups)
    sizes = range(3, most + 1) if rules.books_may_grow else range(3, size + 1)
    shapes = [  # (natural, wild) cards of a meld or book holding a natural card
        (total - w, w) for total in sizes for w in range(total) if w <= rules.max_wilds(total)
    ]
    many = most  # no limit on a class of several ranks

    @cache
    def natural(
        n: int, w: int, start: int, melds: int, unfinished: int
    ) -> frozenset[tuple[int, bool]]:
        """The wild cards melds of exactly ``n`` natural cards can hold (at most ``w``),
        and whether a book is among them, with at most ``melds`` melds, ``unfinished`` of
        them short of a book."""
        if not n:
            return frozenset({(0, False)})
        held: set[tuple[int, bool]] = set()
        for at in range(start, len(shapes) if melds else 0):
            mn, mw = shapes[at]
            short = mn + mw < size
            if mn <= n and mw <= w and not (short and not unfinished):
                rest = natural(n - mn, w - mw, at, melds - 1, unfinished - short)
                held |= {(mw + r, book or not short) for r, book in rest}
        return frozenset(held)

    def wild_only(w: int) -> set[bool]:
        if not rules.wild_books:
            return {False} if w == 0 else set()
        books = range(size, most + 1) if rules.books_may_grow else range(size, size + 1)

        @cache
        def fill(left: int, unfinished: bool) -> frozenset[bool]:
            found = {False} if left == 0 else set()
            for c in books:
                if c <= left and fill(left - c, unfinished):
                    found.add(True)
            if not unfinished:
                for c in range(3, min(size, left + 1)):
                    found |= fill(left - c, True)
            return frozenset(found)

        return set(fill(w, False))

    reachable = {(0, False)}
    for n, one_rank in groups:
        if n:
            melds = 1 if one_rank and rules.one_meld_per_rank else many
            unfinished = 1 if one_rank else many
            reachable = {
                (r + h, had or book)
                for r, had in reachable
                for h, book in natural(n, wilds - r, 0, melds, unfinished)
            }
    return {had or book for r, had in reachable for book in wild_only(wilds - r)}


@pytest.mark.parametrize("rules_id", sorted(OPENING_RULES))
def test_opening_melds_agree_with_trying_every_layout(rules_id: str) -> None:
    rules = OPENING_RULES[rules_id]
    disagree = []
    for jokers, twos, aces, high, low in itertools.product(
        range(9), range(3), range(11), range(9), range(5)
    ):
        cards = {J: jokers, TWO: twos, A: aces, HIGH: high, LOW: low}
        if not 0 < sum(cards.values()) <= 15:
            continue
        layouts = layouts_one_at_a_time(rules, cards)
        answer = (opening_melds(rules, cards), opening_book(rules, cards))
        if answer != (bool(layouts), True in layouts):
            disagree.append((cards, answer))
    assert disagree[:5] == []


@pytest.mark.parametrize("rules_id", sorted(OPENING_RULES))
def test_cards_by_rank_agree_with_trying_every_layout(rules_id: str) -> None:
    # Every rank melds apart, as aces do: up to three ranks of the eights to kings and one
    # of the fours to sevens, beside jokers and 2s.
    rules = OPENING_RULES[rules_id]
    disagree = []
    for jokers, twos, kings, queens, jacks, sevens in itertools.product(
        range(6), range(3), range(9), range(5), range(4), range(4)
    ):
        ranks = {"joker": jokers, "2": twos, "K": kings, "Q": queens, "J": jacks, "7": sevens}
        if not 0 < sum(ranks.values()) <= 14:
            continue
        groups = [(n, True) for n in (kings, queens, jacks, sevens)]
        layouts = groups_one_at_a_time(rules, jokers + twos, groups)
        answer = opening_rank_shapes(rules, ranks)
        if answer != (bool(layouts), True in layouts):
            disagree.append((ranks, answer))
    assert disagree[:5] == []


@pytest.mark.parametrize(
    "rules_id", [name for name, rules in sorted(OPENING_RULES.items()) if not rules.books_may_grow]
)
def test_many_cards_of_one_rank_are_judged_exactly(rules_id: str) -> None:
    # Up to six books of aces and beyond: worked out, not tried, so no cut-off (36 aces where a
    # book has exactly seven cards are five books and an ace: no opening).
    rules = OPENING_RULES[rules_id]
    disagree = []
    for aces, jokers in itertools.product(range(45), range(8)):
        layouts = groups_one_at_a_time(rules, jokers, [(aces, True)])
        answer = opening_rank_shapes(rules, {"A": aces, "joker": jokers})
        if answer != (bool(layouts) or not aces + jokers, True in layouts):
            disagree.append((aces, jokers, answer))
    assert disagree[:5] == []


def test_more_cards_by_rank_than_any_hand_holds_are_judged_by_kind() -> None:
    ranks = {"K": 150, "Q": 40, "4": 1, "joker": 10}
    assert opening_rank_shapes(STANDARD, ranks) == opening_shapes(STANDARD, ranks_to_classes(ranks))
    assert opening_rank_shapes(STANDARD, {"K": 34, "4": 1})[0] is False  # a lone 4


def test_a_pickup_needs_two_natural_cards_of_the_top_discards_rank_from_the_hand() -> None:
    # Seeds 001 ("zwei Karten desselben Werts wie die oberste Karte"), 002, 003.
    assert not check_opening(STANDARD, 1, 60, pickup_pair=1).enough
    assert check_opening(STANDARD, 1, 60, pickup_pair=2).enough
    assert not check_opening(STANDARD, 1, 40, pickup_pair=2).enough  # still the minimum
    # Saskatchewan's deal 4: a concealed canasta from the hand, never with a pickup.
    sask = PRESETS["saskatchewan"]
    assert not check_opening(sask, 4, 70, book=True, pickup_pair=6).enough
    assert check_opening(sask, 4, 70, book=True).enough


def test_a_wild_card_on_top_is_picked_up_only_into_a_wild_book() -> None:
    # Seed 003: two 2s to pick up a 2, two jokers for a joker; no meld takes it without wild
    # books.
    assert check_opening(STANDARD, 1, 150, pickup_pair=2, pickup_wild=True).enough
    assert not check_opening(STANDARD, 1, 150, pickup_pair=1, pickup_wild=True).enough
    no_wild = PRESETS["no-wild-books"]
    assert not check_opening(no_wild, 1, 150, pickup_pair=2, pickup_wild=True).enough
    assert check_opening(no_wild, 1, 150, pickup_pair=2).enough  # a natural card on top


def test_cards_by_rank_are_worth_their_class() -> None:
    ranks = {"joker": 1, "2": 2, "A": 1, "K": 1, "9": 1, "4": 3}
    assert ranks_to_classes(ranks) == {J: 1, TWO: 2, A: 1, HIGH: 2, LOW: 3}
    assert opening_value(STANDARD, ranks_to_classes(ranks)) == 50 + 40 + 20 + 20 + 15
    # K Q J may be three kings counted by class; by rank they are no meld.
    assert opening_melds(STANDARD, {HIGH: 3})
    assert opening_rank_shapes(STANDARD, {"K": 1, "Q": 1, "J": 1}) == (False, False)
    assert opening_rank_shapes(STANDARD, {"K": 3}) == (True, False)
    assert opening_rank_shapes(STANDARD, {"K": 7, "Q": 3}) == (True, True)
    assert opening_rank_shapes(STANDARD, {}) == (True, False)  # no cards: no verdict


def test_natural_cards_of_different_classes_meld_apart() -> None:
    # Two aces and a king are no meld, nor two aces and a 5; three aces and a 2 are.
    assert not opening_melds(STANDARD, {A: 2, HIGH: 1})
    assert not opening_melds(STANDARD, {A: 2, LOW: 1})
    assert not opening_melds(STANDARD, {A: 3, HIGH: 1})
    # A A A 2 leaves a king alone, and K 2 2 breaks the wild-card limit; K K 2 does not.
    assert not opening_melds(STANDARD, {A: 3, HIGH: 1, TWO: 2})
    assert opening_melds(STANDARD, {A: 3, HIGH: 2, TWO: 1})


def test_aces_are_one_rank_books_and_one_unfinished_meld() -> None:
    # Seed 000: no two unfinished melds of one rank, and a book has exactly seven cards.
    assert not opening_melds(STANDARD, {A: 8})  # a book and one ace, or 5 + 3
    assert not opening_melds(STANDARD, {A: 9})
    assert opening_melds(STANDARD, {A: 10})  # a book and three aces
    assert opening_melds(STANDARD, {A: 9, TWO: 1})  # a book and A A 2
    # Simpson: a canasta grows, one meld of each rank (seed 003).
    assert opening_melds(PRESETS["simpson"], {A: 8})
    assert not opening_melds(PRESETS["simpson"], {A: 3, TWO: 3})  # as many wild cards
    assert opening_melds(PRESETS["simpson"], {A: 10, TWO: 2})  # one dirty canasta of 12 cards


@pytest.mark.parametrize(
    ("cards", "book"),
    [
        ({HIGH: 7}, True),
        ({A: 3, J: 2}, False),  # worth 160, but no canasta
        ({A: 4, J: 3}, True),  # a dirty canasta: more natural cards than wild ones
        ({J: 7}, True),  # a wild canasta
        ({HIGH: 3, J: 4}, False),  # a meld and a wild meld
        ({HIGH: 7, J: 1}, True),  # canastas grow
        ({LOW: 7, J: 1, A: 1}, False),  # the ace makes no meld
        ({HIGH: 7, LOW: 3}, True),
        ({}, False),
    ],
)
def test_an_opening_holds_a_book_or_not(cards: dict[CardClass, int], book: bool) -> None:
    # Seed 003, Saskatchewan: deal 4 opens with "en komplet meld på syv kort".
    assert opening_book(PRESETS["saskatchewan"], cards) is book
