"""Scoring a deal: what each team's tally is worth under a ruleset."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .cards import CardClass
from .ruleset import RuleSet
from .tally import TeamTally

# The parts of a team's deal score, always all present, in sheet order.
BREAKDOWN_KEYS = (
    "melded",
    "black_threes_melded",
    "books",
    "red_threes",
    "red_threes_caught",
    "going_out",
    "exact_draws",
    "left",
)


@dataclass(frozen=True)
class TeamScore:
    score: int
    breakdown: Mapping[str, int]


def book_bonuses(rules: RuleSet, team: TeamTally) -> int:
    bonus = (
        team.clean_books * rules.clean_book_bonus
        + team.dirty_books * rules.dirty_book_bonus
        + team.wild_books * rules.wild_book_bonus
        + team.black_three_books * rules.black_three_book_bonus
    )
    for book_id, count in team.special_books.items():
        special = rules.special_book(book_id)
        if special is not None:
            bonus += count * special.bonus
    return bonus


def melded_black_threes(rules: RuleSet, team: TeamTally) -> int:
    """Black threes on the table: they count against the team even in a black-three book."""
    if team.melded.counted:
        cards = team.melded.count(CardClass.BLACK_THREES)
    else:
        cards = team.black_three_books * rules.book_size
    return cards * rules.card_values.black_threes


def score_team(rules: RuleSet, team: TeamTally) -> TeamScore:
    """A team's deal score and its parts; the parts always add up to the score."""
    values = rules.card_values
    breakdown = {
        "melded": team.melded.value(values, without=(CardClass.BLACK_THREES,)),
        "black_threes_melded": -melded_black_threes(rules, team),
        "books": book_bonuses(rules, team),
        "red_threes": team.red_threes * rules.red_three_bonus,
        "red_threes_caught": -team.red_threes_caught * rules.red_three_penalty,
        "going_out": rules.going_out_bonus if team.went_out else 0,
        "exact_draws": team.exact_draws * rules.exact_draw_bonus,
        "left": -team.left.value(values),
    }
    return TeamScore(score=sum(breakdown.values()), breakdown=breakdown)


def score_deal(rules: RuleSet, teams: Sequence[TeamTally]) -> list[TeamScore]:
    return [score_team(rules, team) for team in teams]
