"""A RuleSet is plain data: it round-trips through JSON, and house rules derive from presets."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper.rules import (
    PRESETS,
    BookCount,
    BookKind,
    CardClass,
    Cards,
    RuleSet,
    RuleSetError,
    SpecialBook,
    TeamTally,
    check_ruleset,
    score_team,
    validate_deal,
)

STANDARD = PRESETS["standard"]


def through_json(rules: RuleSet) -> RuleSet:
    return RuleSet.from_dict(json.loads(json.dumps(rules.to_dict())))


def problems_of(base: RuleSet, overrides: Any) -> list[tuple[str, str]]:
    """(field, message) of every problem ``derive`` reports for these overrides."""
    with pytest.raises(RuleSetError) as raised:
        base.derive(overrides)
    assert str(raised.value)  # the exception itself says what is wrong, too
    return [(p.field, p.message) for p in raised.value.problems]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_round_trips_through_json(preset: str) -> None:
    assert through_json(PRESETS[preset]) == PRESETS[preset]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_makes_sense(preset: str) -> None:
    assert check_ruleset(PRESETS[preset]) == []


def test_the_json_form_uses_plain_names_and_numbers() -> None:
    data = STANDARD.to_dict()
    assert data["play_style"] == "partnerships"
    assert data["wild_limit"] == "twice_as_many_naturals"
    assert data["deals"][0] == {
        "opening_minimum": 50,
        "go_out": {"clean": 2, "dirty": 2, "wild": 1},
        "opening_needs_concealed_book": False,
    }
    assert data["card_values"]["jokers"] == 50


def test_deriving_nothing_changes_nothing() -> None:
    assert STANDARD.derive({}) == STANDARD


# --- house rules seen on sheets in the wild --------------------------------------------


def test_a_game_of_five_deals_with_a_minimum_for_each() -> None:
    rules = STANDARD.derive({"deal_count": 5, "opening_minimums": [50, 90, 120, 150, 180]})
    assert rules.deal_count == 5
    assert rules.opening_minimums == (50, 90, 120, 150, 180)
    # The fifth deal repeats the fourth's going-out rule.
    assert rules.deal(5).go_out == BookCount(clean=2, dirty=2, wild=1)
    assert through_json(rules) == rules
    assert validate_deal(rules, 5, [TeamTally(melded=Cards(points=175)), TeamTally()]) != []
    assert validate_deal(rules, 5, [TeamTally(melded=Cards(points=180)), TeamTally()]) == []


def test_a_fifth_deal_that_opens_with_a_concealed_canasta() -> None:
    rules = STANDARD.derive(
        {
            "deals": [
                *STANDARD.to_dict()["deals"],
                {"opening_minimum": 0, "opening_needs_concealed_book": True},
            ]
        }
    )
    assert rules.deal_count == 5
    assert rules.deal(5).opening_needs_concealed_book
    assert through_json(rules) == rules


def test_sixty_to_open_the_first_deal() -> None:
    rules = STANDARD.derive({"opening_minimums": [60, 90, 120, 150]})
    assert rules.opening_minimums == (60, 90, 120, 150)
    assert rules.deal(1).go_out == STANDARD.deal(1).go_out
    assert through_json(rules) == rules
    problems = validate_deal(rules, 1, [TeamTally(melded=Cards(points=55)), TeamTally()])
    assert "less than the 60" in problems[0].message


def test_a_special_book_of_sevens_worth_1000_that_counts_as_clean() -> None:
    rules = STANDARD.derive(
        {
            "special_books": [
                {
                    "id": "sevens",
                    "name": "Book of sevens",
                    "bonus": 1000,
                    "min_points": 35,
                    "counts_as": "clean",
                }
            ]
        }
    )
    assert rules.special_book("sevens") == SpecialBook(
        id="sevens", name="Book of sevens", bonus=1000, min_points=35, counts_as=BookKind.CLEAN
    )
    assert through_json(rules) == rules
    # It scores its bonus and, with one more clean book, lets a team go out.
    team = TeamTally(
        clean_books=1,
        dirty_books=2,
        wild_books=1,
        special_books={"sevens": 1},
        melded=Cards(points=35 + 35 + 2 * 50 + 140),
        went_out=True,
    )
    assert score_team(rules, team).breakdown["books"] == 500 + 600 + 1500 + 1000
    assert validate_deal(rules, 1, [team, TeamTally()]) == []
    # Its cards are worth at least 35.
    short = TeamTally(special_books={"sevens": 1}, melded=Cards(points=30))
    assert any("at least 35" in p.message for p in validate_deal(rules, 1, [short, TeamTally()]))


def test_going_out_with_three_clean_and_three_dirty_books() -> None:
    three_and_three = {"clean": 3, "dirty": 3}
    rules = PRESETS["no-wild-books"].derive({"deals": [{"go_out": three_and_three}] * 4})
    assert [deal.go_out for deal in rules.deals] == [BookCount(clean=3, dirty=3)] * 4
    # The opening minimums of the base stay.
    assert rules.opening_minimums == (50, 90, 120, 150)
    assert through_json(rules) == rules
    team = TeamTally(clean_books=2, dirty_books=3, melded=Cards(points=400), went_out=True)
    messages = [p.message for p in validate_deal(rules, 1, [team, TeamTally()])]
    assert messages == ["Team A cannot go out: 2 of the 3 clean books required."]


def test_jesters_worth_25_as_wild_twos() -> None:
    rules = STANDARD.derive({"card_values": {"twos": 25}})
    assert rules.card_values.twos == 25
    assert rules.card_values.jokers == 50
    assert through_json(rules) == rules
    two_jesters = TeamTally(melded=Cards.of_counts({CardClass.TWOS: 2}))
    assert score_team(rules, two_jesters).score == 50


def test_a_derived_ruleset_takes_its_new_identity_and_remembers_its_base() -> None:
    rules = PRESETS["brouillette"].derive({"going_out_bonus": 200}, id="club", name="Club rules")
    assert (rules.id, rules.name, rules.based_on) == ("club", "Club rules", "brouillette")
    assert rules.going_out_bonus == 200
    assert through_json(rules) == rules


def test_renaming_house_rules_keeps_what_they_were_based_on() -> None:
    club = STANDARD.derive({}, id="club", name="Club rules")
    renamed = club.derive({}, name="Our club")
    assert (renamed.id, renamed.name, renamed.based_on) == ("club", "Our club", "standard")


def test_a_new_identity_is_checked_like_any_rule() -> None:
    with pytest.raises(RuleSetError) as raised:
        STANDARD.derive({}, id="Not A Slug", name=" ")
    assert [p.field for p in raised.value.problems] == ["id", "name"]
    with pytest.raises(RuleSetError) as raised:
        STANDARD.derive({}, colour="red")
    assert [p.field for p in raised.value.problems] == ["colour"]


# --- rules that make no sense ----------------------------------------------------------


def test_minimums_that_do_not_match_the_deal_count_are_refused() -> None:
    assert problems_of(STANDARD, {"deal_count": 5, "opening_minimums": [50, 90]}) == [
        ("opening_minimums", "opening_minimums lists 2 minimums for a game of 5 deals."),
    ]
    assert problems_of(STANDARD, {"opening_minimums": [50, 90, 120]}) == [
        ("opening_minimums", "opening_minimums lists 3 minimums for a game of 4 deals."),
    ]


@pytest.mark.parametrize(
    "field", ["clean_book_bonus", "dirty_book_bonus", "wild_book_bonus", "red_three_bonus"]
)
def test_a_negative_bonus_is_refused(field: str) -> None:
    assert problems_of(STANDARD, {field: -100}) == [
        (field, f"{field} must be between 0 and 10000."),
    ]


def test_a_negative_card_value_is_refused() -> None:
    assert problems_of(STANDARD, {"card_values": {"aces": -20}}) == [
        ("card_values.aces", "card_values.aces must be between 1 and 1000."),
    ]


def test_an_unknown_rule_is_refused() -> None:
    assert problems_of(STANDARD, {"wild_card_bonus": 5}) == [
        ("wild_card_bonus", "wild_card_bonus is not a rule this app knows."),
    ]


def test_unknown_keys_inside_deals_card_values_and_book_counts_are_refused() -> None:
    problems = problems_of(
        STANDARD,
        {
            "deals": [{"go_out": {"clean": 1, "golden": 1}, "bonus": 5}] * 4,
            "card_values": {"queens": 10},
        },
    )
    fields = {field for field, _ in problems}
    assert "deals[0].go_out.golden" in fields
    assert "deals[3].bonus" in fields
    assert "card_values.queens" in fields


def test_a_wild_book_to_go_out_is_refused_when_the_rules_have_no_wild_books() -> None:
    assert problems_of(STANDARD, {"wild_books": False}) == [
        (
            f"deals[{n - 1}].go_out.wild",
            f"Deal {n} asks for a wild book to go out, but these rules have no wild books.",
        )
        for n in (1, 2, 3, 4)
    ]
    assert problems_of(PRESETS["no-wild-books"], {"deals": [{"go_out": {"wild": 1}}] * 4})[0] == (
        "deals[0].go_out.wild",
        "Deal 1 asks for a wild book to go out, but these rules have no wild books.",
    )


def test_a_special_book_cannot_count_as_a_wild_book_without_wild_books() -> None:
    book = {"id": "sevens", "name": "Sevens", "bonus": 1000, "counts_as": "wild"}
    assert problems_of(PRESETS["simpson"], {"special_books": [book]}) == [
        (
            "special_books[0].counts_as",
            "A special book cannot count as a wild book when these rules have none.",
        ),
    ]


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"hand_cards": "13"}, "hand_cards", "hand_cards must be a whole number."),
        ({"hand_cards": 13.0}, "hand_cards", "hand_cards must be a whole number."),
        ({"going_out_bonus": True}, "going_out_bonus", "going_out_bonus must be a whole number."),
        ({"books_may_grow": "yes"}, "books_may_grow", "books_may_grow must be true or false."),
        ({"name": 7}, "name", "name must be text."),
        ({"deals": "four"}, "deals", "deals must be a list."),
        ({"deals": [7]}, "deals[0]", "deals[0] must be an object."),
        ({"card_values": [50]}, "card_values", "card_values must be an object."),
        ({"play_style": "teams"}, "play_style",
         "play_style must be partnerships or individuals."),
        ({"wild_limit": 2}, "wild_limit",
         "wild_limit must be twice_as_many_naturals, more_naturals or min_naturals."),
        ({"special_books": [{"id": "x", "name": "X", "counts_as": "gold"}]},
         "special_books[0].counts_as", "special_books[0].counts_as must be clean, dirty or wild."),
        ({"deal_count": 0}, "deal_count", "deal_count must be between 1 and 12."),
        ({"partnership_sizes": [1]}, "partnership_sizes[0]",
         "partnership_sizes[0] must be between 2 and 4."),
    ],
)  # fmt: skip
def test_a_rule_of_the_wrong_type_is_refused(
    overrides: dict[str, Any], field: str, message: str
) -> None:
    assert (field, message) in problems_of(STANDARD, overrides)


def test_every_problem_is_reported_at_once() -> None:
    fields = [field for field, _ in problems_of(STANDARD, {"hand_cards": -1, "nonsense": 1})]
    assert sorted(fields) == ["hand_cards", "nonsense"]


@pytest.mark.parametrize("data", [None, [], "standard", 5])
def test_a_ruleset_that_is_not_an_object_is_refused(data: Any) -> None:
    with pytest.raises(RuleSetError) as raised:
        RuleSet.from_dict(data)
    assert [p.field for p in raised.value.problems] == ["ruleset"]


def test_a_ruleset_from_scratch_needs_an_id_a_name_and_deals() -> None:
    with pytest.raises(RuleSetError) as raised:
        RuleSet.from_dict({})
    assert [p.field for p in raised.value.problems] == ["id", "name", "deals"]


def test_a_ruleset_from_scratch_may_list_just_its_minimums() -> None:
    rules = RuleSet.from_dict({"id": "quick", "name": "Quick", "opening_minimums": [50, 90]})
    assert rules.deal_count == 2
    assert rules.opening_minimums == (50, 90)
    assert through_json(rules) == rules


def test_a_game_without_deals_makes_no_sense() -> None:
    with pytest.raises(RuleSetError) as raised:
        RuleSet.from_dict({"id": "none", "name": "None", "deals": []})
    assert [(p.field, p.message) for p in raised.value.problems] == [
        ("deals", "A game has between 1 and 12 deals."),
    ]


def test_the_rules_of_a_deal_outside_the_game_are_asked_for_in_vain() -> None:
    with pytest.raises(ValueError, match="deal 5 is outside a game of 4 deals"):
        STANDARD.deal(5)


def test_partnerships_only_need_a_table_that_pairs_up() -> None:
    overrides = {"partnership_sizes": [3], "min_players": 4, "max_players": 5}
    assert problems_of(STANDARD, {**overrides, "alone_when_unpaired": False}) == [
        (
            "alone_when_unpaired",
            "No table of 4 to 5 players pairs up in these team sizes, so these rules must let "
            "players who cannot pair up play alone.",
        )
    ]
    # Six players make two teams of three: a table that pairs up.
    assert STANDARD.derive({**overrides, "max_players": 6, "alone_when_unpaired": False})


def test_one_meld_of_each_rank_cannot_need_more_books_than_ranks() -> None:
    go_out = {"go_out": {"clean": 6, "dirty": 6, "wild": 0}}
    assert problems_of(PRESETS["simpson"], {"deals": [go_out]}) == [
        (
            "deals[0].go_out.clean",
            "Deal 1 asks for more books to go out than there are ranks, 4 to ace, but these "
            "rules allow one meld of each rank.",
        )
    ]
    assert PRESETS["simpson"].derive({"deals": [go_out], "one_meld_per_rank": False})


def test_rules_stored_before_these_two_rules_existed_read_as_before() -> None:
    # A game's rules are stored with it: an older copy has neither key.
    data = PRESETS["simpson"].to_dict()
    del data["one_meld_per_rank"], data["alone_when_unpaired"]
    old = RuleSet.from_dict(data)
    assert (old.one_meld_per_rank, old.alone_when_unpaired) == (False, True)
    # So are eleven-card games stored before its players could choose to play alone.
    eleven = PRESETS["eleven-card"].to_dict()
    del eleven["alone_by_choice"]
    assert RuleSet.from_dict(eleven).seatings(4) == [(2, 2)]
