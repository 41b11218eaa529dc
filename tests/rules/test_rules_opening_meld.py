"""The opening meld: the first meld of a team in a deal must reach the deal's minimum."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorekeeper.rules import PRESETS, CardClass, Cards, Problem, TeamTally, validate_deal

STANDARD = PRESETS["standard"]


def cards(**counts: int) -> Cards:
    return Cards.of_counts({CardClass(name): n for name, n in counts.items()})


def deal_problems(deal: int, team: TeamTally, rules_id: str = "standard") -> list[Problem]:
    """The problems of a deal in which ``team`` plays against a team that melded nothing."""
    return validate_deal(PRESETS[rules_id], deal, [team, TeamTally()])


def test_opening_minimums_rise_from_50_to_150_in_every_preset() -> None:
    for rules in PRESETS.values():
        assert rules.opening_minimums == (50, 90, 120, 150), rules.id


def test_deal_2_opening_of_ace_ace_joker_is_enough() -> None:
    opening = cards(aces=2, jokers=1)
    assert opening.value(STANDARD.card_values) == 90
    assert deal_problems(2, TeamTally(melded=opening, opening_meld=90)) == []


def test_deal_2_opening_of_kings_and_eights_is_refused_naming_the_minimum_90() -> None:
    opening = cards(eights_to_kings=6)  # K K K + 8 8 8
    assert opening.value(STANDARD.card_values) == 60
    problems = deal_problems(2, TeamTally(melded=opening, opening_meld=60))
    assert [(p.team, p.field) for p in problems] == [(0, "opening_meld")]
    assert problems[0].message == (
        "Team A opened with 60, but deal 2 needs an opening meld of at least 90."
    )


def test_deal_1_opening_of_three_nines_and_a_two_is_enough() -> None:
    opening = cards(eights_to_kings=3, twos=1)
    assert opening.value(STANDARD.card_values) == 50
    assert deal_problems(1, TeamTally(melded=opening, opening_meld=50)) == []


def test_deal_1_opening_of_seven_sixes_is_refused_even_as_a_clean_book() -> None:
    # The book bonus does not count towards the opening: seven 6s are worth 35 only.
    sixes = cards(fours_to_sevens=7)
    problems = deal_problems(1, TeamTally(clean_books=1, melded=sixes, opening_meld=35))
    assert [(p.team, p.field) for p in problems] == [(0, "opening_meld")]
    assert "35" in problems[0].message
    assert "at least 50" in problems[0].message


def test_a_team_that_melded_only_seven_sixes_never_reached_the_deal_1_minimum() -> None:
    # Without the opening reported, the melded total tells: the opening stays on the table.
    problems = deal_problems(1, TeamTally(clean_books=1, melded=cards(fours_to_sevens=7)))
    assert [(p.team, p.field) for p in problems] == [(0, "melded")]
    assert problems[0].message == (
        "Team A melded cards worth 35, less than the 50 an opening meld needs in deal 1."
    )


@pytest.mark.parametrize(
    ("deal", "melded", "minimum"),
    [(1, 45, 50), (2, 85, 90), (3, 115, 120), (4, 145, 150)],
)
def test_a_team_that_melded_anything_melded_at_least_the_deal_minimum(
    deal: int, melded: int, minimum: int
) -> None:
    problems = deal_problems(deal, TeamTally(melded=Cards(points=melded)))
    assert [(p.team, p.field) for p in problems] == [(0, "melded")]
    assert f"worth {melded}, less than the {minimum}" in problems[0].message
    assert f"deal {deal}" in problems[0].message


@pytest.mark.parametrize(("deal", "minimum"), [(1, 50), (2, 90), (3, 120), (4, 150)])
def test_a_team_that_melded_exactly_the_minimum_has_opened(deal: int, minimum: int) -> None:
    assert deal_problems(deal, TeamTally(melded=Cards(points=minimum))) == []


def test_a_team_that_melded_nothing_needs_no_opening() -> None:
    assert deal_problems(4, TeamTally(left=Cards(points=300))) == []


def test_an_opening_larger_than_everything_melded_is_refused() -> None:
    problems = deal_problems(2, TeamTally(melded=Cards(points=60), opening_meld=90))
    assert [(p.team, p.field) for p in problems] == [(0, "opening_meld")]
    assert problems[0].message == (
        "Team A opened with 90, but melded cards worth only 60 in all; the opening stays on "
        "the table."
    )


def test_an_opening_that_is_no_multiple_of_5_is_impossible() -> None:
    problems = deal_problems(1, TeamTally(melded=Cards(points=100), opening_meld=52))
    assert [(p.team, p.field) for p in problems] == [(0, "opening_meld")]
    assert "52" in problems[0].message
    assert "multiple of 5" in problems[0].message


def test_saskatchewan_deal_4_opens_with_a_concealed_canasta_not_with_points() -> None:
    rules = PRESETS["saskatchewan"]
    assert [deal.opening_needs_concealed_book for deal in rules.deals] == [
        False,
        False,
        False,
        True,
    ]
    # A canasta of 7 fives is worth only 35, yet it opens deal 4.
    with_canasta = TeamTally(clean_books=1, melded=cards(fours_to_sevens=7))
    assert deal_problems(4, with_canasta, "saskatchewan") == []
    without = TeamTally(melded=Cards(points=300))
    problems = deal_problems(4, without, "saskatchewan")
    assert [(p.team, p.field) for p in problems] == [(0, "opening_meld")]
    assert problems[0].message == (
        "Team A melded in deal 4 without a book, but these rules open deal 4 with a concealed book."
    )
    # The concealed canasta stays on the table too: no opening worth more than all melded.
    beyond = TeamTally(clean_books=1, melded=cards(fours_to_sevens=7), opening_meld=150)
    problems = deal_problems(4, beyond, "saskatchewan")
    assert [(p.team, p.field, p.message) for p in problems] == [
        (
            0,
            "opening_meld",
            "Team A opened with 150, but melded cards worth only 35 in all; the opening stays "
            "on the table.",
        )
    ]
    assert deal_problems(4, replace(beyond, opening_meld=35), "saskatchewan") == []


def test_a_team_that_reports_an_opening_of_0_and_melded_nothing_simply_did_not_open() -> None:
    assert deal_problems(3, TeamTally(opening_meld=0, left=Cards(points=120))) == []


def test_a_team_that_melded_cannot_have_opened_with_0() -> None:
    problems = deal_problems(1, TeamTally(melded=Cards(points=60), opening_meld=0))
    assert [(p.team, p.field) for p in problems] == [(0, "opening_meld")]
    assert "opened with 0" in problems[0].message
