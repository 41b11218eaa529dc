"""The worked scoring example of the German seed (RULES.md), under the standard rules."""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    BREAKDOWN_KEYS,
    PRESETS,
    CardClass,
    Cards,
    TeamTally,
    score_deal,
    score_team,
    validate_deal,
)

STANDARD = PRESETS["standard"]


def cards(**counts: int) -> Cards:
    return Cards.of_counts({CardClass(name): n for name, n in counts.items()})


# Team 1 goes out: clean books of kings (70) and fives (35), dirty books of queens with a 2 (80)
# and sevens with a joker (80), a wild book of 4 jokers and 3 twos (260), the meld 9 9 9 (30) and
# one red three.
TEAM_1_POINTS = TeamTally(
    name="Team 1",
    clean_books=2,
    dirty_books=2,
    wild_books=1,
    red_threes=1,
    melded=Cards(points=555),
    went_out=True,
)
TEAM_1_COUNTS = TeamTally(
    name="Team 1",
    clean_books=2,
    dirty_books=2,
    wild_books=1,
    red_threes=1,
    melded=cards(
        jokers=1 + 4,  # sevens' joker, wild book
        twos=1 + 3,  # queens' 2, wild book
        eights_to_kings=7 + 6 + 3,  # kings, queens, nines
        fours_to_sevens=7 + 6,  # fives, sevens
    ),
    went_out=True,
)

# Team 2: a clean book of aces (140), J J J joker (80), one red three; one player still holds
# A 8 4 (35), the other never picked up a foot worth 170 (13 cards: joker, two aces, six tens,
# four fives).
TEAM_2_POINTS = TeamTally(
    name="Team 2",
    clean_books=1,
    red_threes=1,
    melded=Cards(points=220),
    left=Cards(points=35 + 170),
)
TEAM_2_COUNTS = TeamTally(
    name="Team 2",
    clean_books=1,
    red_threes=1,
    melded=cards(aces=7, eights_to_kings=3, jokers=1),
    left=cards(
        aces=1 + 2,
        eights_to_kings=1 + 6,
        fours_to_sevens=1 + 4,
        jokers=1,
    ),
)


def test_the_counted_cards_are_worth_what_the_example_says() -> None:
    values = STANDARD.card_values
    assert TEAM_1_COUNTS.melded.value(values) == 555
    assert TEAM_1_COUNTS.melded.cards == 7 * 5 + 3
    assert TEAM_2_COUNTS.melded.value(values) == 140 + 80
    assert TEAM_2_COUNTS.left.value(values) == 35 + 170
    assert TEAM_2_COUNTS.left.cards == 3 + 13


@pytest.mark.parametrize("team", [TEAM_1_POINTS, TEAM_1_COUNTS], ids=["points", "counts"])
def test_german_example_winning_team_scores_3855(team: TeamTally) -> None:
    assert score_team(STANDARD, team).score == 3855


@pytest.mark.parametrize("team", [TEAM_2_POINTS, TEAM_2_COUNTS], ids=["points", "counts"])
def test_german_example_losing_team_scores_615(team: TeamTally) -> None:
    assert score_team(STANDARD, team).score == 615


@pytest.mark.parametrize("team", [TEAM_1_POINTS, TEAM_1_COUNTS], ids=["points", "counts"])
def test_german_example_winning_team_breakdown_is_cards_555_and_bonuses_3300(
    team: TeamTally,
) -> None:
    breakdown = score_team(STANDARD, team).breakdown
    assert breakdown == {
        "melded": 555,
        "black_threes_melded": 0,
        "books": 2 * 500 + 2 * 300 + 1500,
        "red_threes": 100,
        "red_threes_caught": 0,
        "going_out": 100,
        "exact_draws": 0,
        "left": 0,
    }
    bonuses = breakdown["books"] + breakdown["red_threes"] + breakdown["going_out"]
    assert bonuses == 3300


@pytest.mark.parametrize("team", [TEAM_2_POINTS, TEAM_2_COUNTS], ids=["points", "counts"])
def test_german_example_losing_team_breakdown_counts_its_unplayed_foot_against_it(
    team: TeamTally,
) -> None:
    assert score_team(STANDARD, team).breakdown == {
        "melded": 220,
        "black_threes_melded": 0,
        "books": 500,
        "red_threes": 100,
        "red_threes_caught": 0,
        "going_out": 0,
        "exact_draws": 0,
        "left": -205,
    }


def test_breakdown_lists_every_part_in_sheet_order() -> None:
    assert tuple(score_team(STANDARD, TEAM_1_POINTS).breakdown) == BREAKDOWN_KEYS


def test_score_deal_scores_both_teams_in_order() -> None:
    scores = score_deal(STANDARD, [TEAM_1_COUNTS, TEAM_2_COUNTS])
    assert [score.score for score in scores] == [3855, 615]


@pytest.mark.parametrize("deal", [1, 2, 3, 4])
@pytest.mark.parametrize(
    "teams",
    [[TEAM_1_POINTS, TEAM_2_POINTS], [TEAM_1_COUNTS, TEAM_2_COUNTS]],
    ids=["points", "counts"],
)
def test_german_example_is_a_possible_deal(deal: int, teams: list[TeamTally]) -> None:
    # Both teams melded more than even deal 4's 150, so any deal of the game fits.
    assert validate_deal(STANDARD, deal, teams) == []


def test_german_example_is_possible_with_the_five_decks_of_four_players() -> None:
    assert validate_deal(STANDARD, 1, [TEAM_1_COUNTS, TEAM_2_COUNTS], decks=5) == []
