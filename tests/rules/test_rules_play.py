"""The questions a table asks while a deal is played, answered by the pure rules core."""

from __future__ import annotations

import pytest

from scorekeeper.rules import PRESETS, BookCount, CardClass
from scorekeeper.rules.play import (
    check_go_out,
    check_opening,
    opening_melds,
    opening_points_step,
    opening_value,
)

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


def test_brouillettes_last_deal_asks_more_books() -> None:
    rules = PRESETS["brouillette"]
    early = check_go_out(rules, 1, BookCount(clean=1, dirty=1), players=1, in_foot=1)
    last = check_go_out(rules, 4, BookCount(clean=1, dirty=1), players=1, in_foot=1)
    assert early.ready
    assert last.missing == BookCount(clean=1, dirty=1)


def test_no_wild_books_needs_no_wild_book() -> None:
    check = check_go_out(
        PRESETS["no-wild-books"], 1, BookCount(clean=2, dirty=2), players=2, in_foot=2
    )
    assert check.ready
