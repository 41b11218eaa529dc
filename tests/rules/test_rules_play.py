"""The questions a table asks while a deal is played, answered by the pure rules core."""

from __future__ import annotations

import pytest

from scorekeeper.rules import PRESETS, BookCount, CardClass
from scorekeeper.rules.play import check_go_out, check_opening, opening_value

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
        (3, {J: 2, A: 1}, 120, True),
        (3, {J: 2, HIGH: 1}, 110, False),
    ],
)
def test_an_opening_counts_card_values_against_the_deals_minimum(
    deal: int, cards: dict[CardClass, int], value: int, enough: bool
) -> None:
    points = opening_value(STANDARD, cards)
    check = check_opening(STANDARD, deal, points)
    assert points == value
    assert check.enough is enough
    assert check.short == (0 if enough else check.minimum - value)
    assert check.minimum == (50, 90, 120, 150)[deal - 1]


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
