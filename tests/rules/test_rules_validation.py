"""What "impossible" means (RULES.md): every mistake at the table is caught, said plainly."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from scorekeeper.rules import (
    PRESETS,
    CardClass,
    Cards,
    Problem,
    TeamTally,
    default_decks,
    score_team,
    team_label,
    validate_deal,
)

STANDARD = PRESETS["standard"]


def cards(**counts: int) -> Cards:
    return Cards.of_counts({CardClass(name): n for name, n in counts.items()})


def problems_of(
    teams: list[TeamTally],
    rules_id: str = "standard",
    deal: int = 1,
    decks: int | None = None,
    sizes: list[int] | None = None,
) -> list[tuple[int | None, str, str]]:
    """(team, field, message) of every problem, each checked to read as plain words."""
    problems = validate_deal(PRESETS[rules_id], deal, teams, decks, sizes)
    for problem in problems:
        assert_plain_words(problem)
    return [(p.team, p.field, p.message) for p in problems]


def assert_plain_words(problem: Problem) -> None:
    message = problem.message
    assert message[0].isupper(), message
    assert message.endswith("."), message
    # No placeholder, code name or Python value leaks into what a player reads.
    assert "%(" not in message, message
    assert "_" not in message, message
    assert "None" not in message, message
    assert not re.search(r"[{}\[\]<>]", message), message
    # Every number the template names is in the text.
    for name, value in problem.params.items():
        template = problem.template
        text = template if isinstance(template, str) else template.plural
        if f"%({name})d" in text:
            assert str(value) in message, (name, message)


def test_four_players_at_standard_play_with_five_decks() -> None:
    assert default_decks(STANDARD, 2) == 5
    assert default_decks(PRESETS["simpson"], 4) == 5
    assert default_decks(PRESETS["simpson"], 2) == 3


def test_teams_without_names_are_called_team_a_team_b() -> None:
    labels = [team_label(TeamTally(), i) for i in (0, 1, 25, 26)]
    assert labels == ["Team A", "Team B", "Team Z", "Team 27"]
    assert team_label(TeamTally(name="Ann & Bob"), 0) == "Ann & Bob"


def test_an_empty_deal_is_possible() -> None:
    assert problems_of([TeamTally(), TeamTally()]) == []


# --- more cards than the decks hold ----------------------------------------------------

# A team that melded 6 jokers among 12 natural cards: possible on its own.
SIX_JOKERS = TeamTally(melded=cards(jokers=6, eights_to_kings=12))


def test_one_team_cannot_hold_more_jokers_than_five_decks_have() -> None:
    team = TeamTally(melded=cards(jokers=6, eights_to_kings=12), left=cards(jokers=5))
    assert problems_of([team, TeamTally()]) == [
        (0, "melded.jokers", "Team A reports 11 jokers, but 5 decks hold only 10."),
    ]


def test_two_teams_together_cannot_hold_more_jokers_than_five_decks_have() -> None:
    assert problems_of([SIX_JOKERS, TeamTally(left=cards(jokers=5))]) == [
        (None, "melded.jokers", "The teams report 11 jokers together, but 5 decks hold only 10."),
    ]


@pytest.mark.parametrize(
    ("card", "per_deck", "text"),
    [
        (CardClass.JOKERS, 2, "jokers"),
        (CardClass.TWOS, 4, "2s"),
        (CardClass.ACES, 4, "aces"),
        (CardClass.EIGHTS_TO_KINGS, 24, "cards from 8 to king"),
        (CardClass.FOURS_TO_SEVENS, 16, "cards from 4 to 7"),
        (CardClass.BLACK_THREES, 2, "black 3s"),
    ],
)
@pytest.mark.parametrize("decks", [3, 5, 7])
def test_no_card_class_can_be_reported_more_often_than_the_decks_hold(
    card: CardClass, per_deck: int, text: str, decks: int
) -> None:
    most = per_deck * decks
    left_holding_all = TeamTally(left=Cards.of_counts({card: most}))
    assert problems_of([left_holding_all, TeamTally()], decks=decks) == []
    one_too_many = TeamTally(left=Cards.of_counts({card: most + 1}))
    assert problems_of([one_too_many, TeamTally()], decks=decks) == [
        (
            0,
            f"left.{card.value}",  # where the team put them
            f"Team A reports {most + 1} {text}, but {decks} decks hold only {most}.",
        ),
    ]


def test_one_team_cannot_report_more_red_threes_than_five_decks_have() -> None:
    team = TeamTally(red_threes=6, red_threes_caught=5)
    assert problems_of([team, TeamTally()]) == [
        (0, "red_threes", "Team A reports 11 red threes, but 5 decks hold only 10."),
    ]


def test_teams_together_cannot_report_more_red_threes_than_five_decks_have() -> None:
    teams = [TeamTally(red_threes=6), TeamTally(red_threes=4, red_threes_caught=1)]
    assert problems_of(teams) == [
        (None, "red_threes", "The teams report 11 red threes together, but 5 decks hold only 10."),
    ]


def test_ten_red_threes_fit_in_five_decks() -> None:
    assert problems_of([TeamTally(red_threes=6), TeamTally(red_threes_caught=4)]) == []


def test_wild_books_cannot_need_more_wild_cards_than_five_decks_have() -> None:
    # 5 wild books hold 35 wild cards; 5 decks have 10 jokers and 20 twos.
    team = TeamTally(wild_books=5, melded=Cards(points=1500))
    assert problems_of([team, TeamTally()]) == [
        (0, "wild_books", "Team A's books need at least 35 wild cards, but 5 decks hold only 30."),
    ]


def test_books_of_one_rank_cannot_need_more_cards_of_it_than_exist() -> None:
    # Five decks hold 20 cards of each of the 11 ranks from 4 to ace: two clean books of 7
    # per rank, so 22 clean books at most, though 23 x 7 = 161 natural cards exist 220 times.
    most = TeamTally(clean_books=22, melded=Cards(points=1400))
    assert problems_of([most, TeamTally()]) == []
    one_more = TeamTally(clean_books=23, melded=Cards(points=2000))
    assert problems_of([one_more, TeamTally()]) == [
        (
            0,
            "clean_books",
            "Team A reports 23 clean and 0 dirty books, but they cannot all be made: a book is "
            "of one rank, and 5 decks hold only 20 cards of each rank.",
        ),
    ]


def test_a_dirty_book_is_cheapest_with_the_most_wild_cards_when_they_cost_less() -> None:
    # 2s worth 5 beside 4s to 7s worth 10: five 4s and two 2s are 60, not 5 + 6 x 10.
    cheap = STANDARD.derive(
        {"card_values": {"twos": 5, "jokers": 10, "fours_to_sevens": 10}}, id="cheap", name="C"
    )
    assert (
        validate_deal(cheap, 1, [TeamTally(dirty_books=1, melded=Cards(points=60)), TeamTally()])
        == []
    )
    refused = validate_deal(
        cheap, 1, [TeamTally(dirty_books=1, melded=Cards(points=55)), TeamTally()]
    )
    assert [p.field for p in refused] == ["melded"]
    assert "a dirty book 60" in refused[0].message


def test_books_past_the_cheapest_ranks_are_worth_more() -> None:
    # 5 decks hold 20 cards of each rank: two clean books of 4s, of 5s, of 6s and of 7s
    # (35 each), then of 8s to kings (70 each), then of aces (140).
    def team(clean: int, points: int) -> TeamTally:
        return TeamTally(clean_books=clean, melded=Cards(points=points))

    assert problems_of([team(8, 280), TeamTally()]) == []
    assert problems_of([team(9, 315), TeamTally()]) == [
        (
            0,
            "melded",
            "Team A melded cards worth 315, but their books cannot all be of the cheapest ranks: a "
            "book is of one rank, and 5 decks hold only 20 cards of each, so their books alone "
            "hold cards worth at least 350.",
        ),
    ]
    assert problems_of([team(9, 350), TeamTally()]) == []
    # Beside two clean books a rank has 6 cards left: one dirty book of 6 fours and a 2.
    mixed = TeamTally(clean_books=8, dirty_books=5, melded=Cards(points=280 + 4 * 50 + 80))
    assert problems_of([mixed, TeamTally()]) == []
    cheaper = TeamTally(clean_books=8, dirty_books=5, melded=Cards(points=280 + 5 * 50))
    assert [p[:2] for p in problems_of([cheaper, TeamTally()])] == [(0, "melded")]
    # With 7 decks, 28 of each rank: four clean books of each of the four cheapest ranks.
    assert problems_of([team(16, 560), TeamTally()], decks=7) == []


def test_books_in_melded_cards_counted_by_class_run_out_of_the_cheapest_ranks_too() -> None:
    # Counted by class, 63 cards from 4 to 7 are not nine clean books: four ranks of 20.
    nine = TeamTally(clean_books=9, melded=cards(fours_to_sevens=63))
    assert problems_of([nine, TeamTally()]) == [
        (
            0,
            "melded",
            "Team A melded cards worth 315, but their books cannot all be of the cheapest ranks: a "
            "book is of one rank, and 5 decks hold only 20 cards of each, so their books alone "
            "hold cards worth at least 350.",
        ),
    ]
    eight_and_kings = TeamTally(clean_books=9, melded=cards(fours_to_sevens=56, eights_to_kings=7))
    assert problems_of([eight_and_kings, TeamTally()]) == []
    # One team counting, the other giving points: nine books of 4s to 7s together.
    teams = [
        TeamTally(clean_books=5, melded=cards(fours_to_sevens=35)),
        TeamTally(clean_books=4, melded=Cards(points=140)),
    ]
    assert [p[:2] for p in problems_of(teams)] == [(None, "melded")]


def test_natural_cards_counted_elsewhere_are_in_no_book() -> None:
    # Simpson, two players, 3 decks: 12 cards of each rank, four clean books of 4s to 7s
    # leave 20 of them; 21 left in the other hand push a book to 8s to kings.
    def deal(left: int) -> list[TeamTally]:
        return [
            TeamTally(clean_books=4, melded=Cards(points=140)),
            TeamTally(left=cards(fours_to_sevens=left)),
        ]

    assert problems_of(deal(20), "simpson", decks=3) == []
    assert problems_of(deal(21), "simpson", decks=3) == [
        (
            0,
            "melded",
            "Team A melded cards worth 140, but their books cannot all be of the cheapest ranks: a "
            "book is of one rank, 3 decks hold only 12 cards of each, and 21 natural cards are "
            "counted elsewhere, so their books alone hold cards worth at least 175.",
        ),
    ]


def test_one_meld_of_each_rank_puts_each_book_in_another_rank() -> None:
    # Simpson (seed 003): "Du kan ikke have mere end et sæt af det samme kort." Four books
    # can be 4s to 7s; a fifth is of 8s to kings at the least: 4 x 35 + 70.
    def simpson(team: TeamTally) -> list[tuple[int | None, str, str]]:
        return problems_of([team, TeamTally(), TeamTally(), TeamTally()], "simpson")

    assert simpson(TeamTally(clean_books=4, melded=Cards(points=140))) == []
    assert simpson(TeamTally(clean_books=5, melded=Cards(points=210))) == []
    assert simpson(TeamTally(clean_books=5, melded=Cards(points=175))) == [
        (
            0,
            "melded",
            "Team A melded cards worth 175, but these rules allow one meld of each rank, so "
            "each of their books is of another rank, and those books alone hold cards worth at "
            "least 210.",
        ),
    ]
    # Counted by class too; and eleven books are every rank from 4 to ace: 700 at the least.
    counted = simpson(TeamTally(clean_books=5, melded=cards(fours_to_sevens=35)))
    assert {p[:2] for p in counted} == {(0, "melded")} and "at least 210." in counted[-1][2]
    eleven = TeamTally(clean_books=11, melded=cards(fours_to_sevens=56, eights_to_kings=21))
    assert "at least 700." in simpson(eleven)[-1][2]
    every_rank = cards(fours_to_sevens=28, eights_to_kings=42, aces=7)
    assert simpson(TeamTally(clean_books=11, melded=every_rank)) == []
    # A dirty book counts as a book of its rank too (Brouillette for partners, 4 players).
    partners = [TeamTally(clean_books=2, dirty_books=3, melded=Cards(points=235)), TeamTally()]
    assert "at least 250." in problems_of(partners, "brouillette-partners")[0][2]
    # Where the rules allow more melds of a rank, five books of 4s to 7s are 175.
    assert problems_of([TeamTally(clean_books=5, melded=Cards(points=175)), TeamTally()]) == []


def test_one_meld_of_each_rank_counted_by_class_makes_a_book_of_a_rank_apiece() -> None:
    # Brouillette for partners: five books of natural cards from 4 to 7 only are five books
    # of four ranks. With six 8s to kings beside, the fifth book is of its own rank.
    only_low = cards(fours_to_sevens=30, twos=5)
    refused = problems_of(
        [TeamTally(clean_books=2, dirty_books=3, melded=only_low), TeamTally()],
        "brouillette-partners",
    )
    assert refused[0] == (
        0,
        "melded",
        "Team A reports 5 books (2 clean, 3 dirty), but these rules allow one meld of each "
        "rank, and the natural cards they melded cannot make that many books each of a rank of "
        "its own.",
    )
    with_kings = cards(fours_to_sevens=24, eights_to_kings=6, twos=5)
    fine = [TeamTally(clean_books=2, dirty_books=3, melded=with_kings), TeamTally()]
    assert problems_of(fine, "brouillette-partners") == []
    # Books may grow there: forty cards of 4s to 7s are four clean books, one of each rank.
    four = [TeamTally(clean_books=4, melded=cards(fours_to_sevens=40))] + [TeamTally()] * 3
    assert problems_of(four, "simpson") == []
    # Where a rank may hold more melds, the same five books are fine.
    standard = [TeamTally(clean_books=2, dirty_books=3, melded=cards(fours_to_sevens=32, twos=3))]
    assert problems_of([*standard, TeamTally()]) == []


def test_a_rank_has_one_unfinished_meld_so_seven_aces_make_a_book() -> None:
    # Seed 001: "Hat eine Figur sieben Karten, ist sie ein fertiges Buch" and "Deine Partei
    # darf nie zwei unfertige Figuren desselben Werts haben": aces are one rank, so at most
    # six lie outside books.
    def refused(team: TeamTally, rules: str = "standard") -> list[tuple[int | None, str]]:
        others = [TeamTally()] * (1 if rules == "standard" else 3)  # Simpson: four alone
        return [p[:2] for p in problems_of([team, *others], rules)]

    assert refused(TeamTally(melded=cards(aces=6))) == []
    assert refused(TeamTally(melded=cards(aces=7))) == [(0, "melded")]
    assert refused(TeamTally(clean_books=1, melded=cards(aces=13))) == []
    assert refused(TeamTally(clean_books=1, melded=cards(aces=14))) == [(0, "melded")]
    # Four ranks from 4 to 7: 24 of them can wait in unfinished melds, 25 cannot.
    assert refused(TeamTally(melded=cards(fours_to_sevens=24))) == []
    assert refused(TeamTally(melded=cards(fours_to_sevens=25))) == [(0, "melded")]
    # Where books may grow, a book takes the aces to spare; with no book, nothing does.
    assert refused(TeamTally(clean_books=1, melded=cards(aces=10)), "simpson") == []
    assert refused(TeamTally(melded=cards(aces=10)), "simpson") == [(0, "melded")]
    message = problems_of([TeamTally(melded=cards(aces=7)), TeamTally()])[0][2]
    assert message == (
        "Team A melded more natural cards than their melds can hold: a team has one unfinished "
        "meld of a rank at the most, of up to 6 cards, so 1 of them must be in books, but their "
        "books hold 0 natural cards at the most."
    )


def test_the_teams_books_together_run_out_of_the_cheapest_ranks() -> None:
    # Eight clean books of 4s to 7s exist; two teams of five each cannot both have 175.
    teams = [
        TeamTally(clean_books=5, melded=Cards(points=175)),
        TeamTally(clean_books=5, melded=Cards(points=175)),
    ]
    assert problems_of(teams) == [
        (
            None,
            "melded",
            "The teams' books cannot all be of the cheapest ranks: a book is of one rank, and 5 "
            "decks hold only 20 cards of each, so together they hold cards worth at least 420, "
            "but the teams melded 350.",
        ),
    ]
    teams[1] = TeamTally(clean_books=5, melded=Cards(points=245))  # 3 of 4s to 7s, 2 more
    assert problems_of(teams) == []


def test_dirty_books_share_the_ranks_with_clean_books() -> None:
    # 20 clean books fill 10 ranks two by two, leaving 6 cards of each (one dirty book of
    # 5 naturals and 2 wild cards) and the eleventh rank whole (four dirty books): 14 at most.
    def team(dirty: int) -> TeamTally:
        return TeamTally(
            clean_books=20, dirty_books=dirty, melded=Cards(points=20 * 35 + 50 * dirty)
        )

    assert [p for p in problems_of([team(14), TeamTally()]) if p[1] == "clean_books"] == []
    assert [p for p in problems_of([team(15), TeamTally()]) if p[1] == "clean_books"] == [
        (
            0,
            "clean_books",
            "Team A reports 20 clean and 15 dirty books, but they cannot all be made: a book is "
            "of one rank, and 5 decks hold only 20 cards of each rank.",
        ),
    ]


def test_the_teams_books_together_cannot_need_more_cards_of_a_rank_than_exist() -> None:
    teams = [
        TeamTally(clean_books=12, melded=Cards(points=1000)),
        TeamTally(clean_books=11, melded=Cards(points=1000)),
    ]
    assert problems_of(teams) == [
        (
            None,
            "clean_books",
            "The teams report 23 clean and 0 dirty books together, but they cannot all be made: "
            "a book is of one rank, and 5 decks hold only 20 cards of each rank.",
        ),
    ]
    teams[1] = TeamTally(clean_books=10, melded=Cards(points=1000))
    assert problems_of(teams) == []


def test_the_teams_books_together_cannot_need_more_wild_cards_than_exist() -> None:
    teams = [
        TeamTally(wild_books=3, melded=Cards(points=1000)),
        TeamTally(wild_books=2, melded=Cards(points=1000)),
    ]
    assert problems_of(teams) == [
        (
            None,
            "wild_books",
            "The teams' books need at least 35 wild cards together, but 5 decks hold only 30.",
        ),
    ]


def test_wild_books_past_the_twos_the_decks_hold_are_worth_more() -> None:
    # 5 decks hold 20 twos: a third wild book of 21 wild cards holds a joker at the least.
    def team(points: int) -> TeamTally:
        return TeamTally(wild_books=3, melded=Cards(points=points))

    assert problems_of([team(420), TeamTally()]) == [
        (
            0,
            "melded",
            "Team A melded cards worth 420, but their books need 21 wild cards and only 20 2s are "
            "not counted elsewhere; with jokers for the rest, their books alone hold cards worth "
            "at least 450.",
        ),
    ]
    assert problems_of([team(450), TeamTally()]) == []


def test_twos_counted_by_another_team_are_not_in_a_wild_book() -> None:
    # A wild book worth 140 is seven 2s; the other team counts 14 left: 21 of 20.
    book = TeamTally(wild_books=1, melded=Cards(points=140))
    assert problems_of([book, TeamTally(left=cards(twos=14))]) == [
        (
            0,
            "melded",
            "Team A melded cards worth 140, but their books need 7 wild cards and only 6 2s are "
            "not counted elsewhere; with jokers for the rest, their books alone hold cards worth "
            "at least 170.",
        ),
    ]
    with_a_joker = TeamTally(wild_books=1, melded=Cards(points=170))
    assert problems_of([with_a_joker, TeamTally(left=cards(twos=14))]) == []
    # Counted by the same team, in a meld of counts, alike.
    counted = TeamTally(melded=cards(twos=2, eights_to_kings=4), left=cards(twos=12))
    assert problems_of([with_a_joker, counted]) == []
    assert [p[:2] for p in problems_of([book, counted])] == [(0, "melded")]


def test_the_teams_wild_books_together_cannot_need_more_twos_than_are_free() -> None:
    # Team A's 170 leave room for one joker, Team B's 140 for none: 6 + 7 twos, 10 free.
    teams = [
        TeamTally(wild_books=1, melded=Cards(points=170)),
        TeamTally(wild_books=1, melded=Cards(points=140), left=cards(twos=10)),
    ]
    assert problems_of(teams) == [
        (
            None,
            "melded",
            "The teams' melded points leave room for so few jokers that their books need at "
            "least 13 2s together, but only 10 2s are not counted elsewhere.",
        ),
    ]
    teams[0] = TeamTally(wild_books=1, melded=Cards(points=260))  # four jokers: 3 twos
    assert problems_of(teams) == []


def test_books_entered_as_points_leave_the_counted_cards_to_the_rest() -> None:
    # 4 wild books are 28 wild cards; 10 jokers left: 38 of the 30 five decks hold.
    teams = [TeamTally(wild_books=4, melded=Cards(points=800)), TeamTally(left=cards(jokers=10))]
    assert problems_of(teams) == [
        (
            None,
            "wild_books",
            "The books entered as points need at least 28 wild cards, and 10 more are counted, "
            "38 in all, but 5 decks hold only 30.",
        ),
    ]
    # Brouillette, three players: 4 decks hold 8 black 3s; a black-three book is 7.
    three = [
        TeamTally(black_three_books=1, melded=Cards(points=60)),
        TeamTally(left=cards(black_threes=2)),
        TeamTally(),
    ]
    assert problems_of(three, "brouillette") == [
        (
            None,
            "black_three_books",
            "The books entered as points need at least 7 black 3s, and 2 more are counted, "
            "9 in all, but 4 decks hold only 8.",
        ),
    ]
    three[1] = TeamTally(left=cards(black_threes=1))
    assert problems_of(three, "brouillette") == []


def test_books_cannot_need_more_natural_cards_than_five_decks_have() -> None:
    # 5 decks hold 20 aces, 120 cards from 8 to king and 80 from 4 to 7: 220 natural cards.
    team = TeamTally(clean_books=32, melded=Cards(points=2000))
    assert (
        0,
        "clean_books",
        "Team A's books need at least 224 natural cards, but 5 decks hold only 220.",
    ) in problems_of([team, TeamTally()])


def test_the_teams_clean_and_dirty_books_together_cannot_need_more_naturals_than_exist() -> None:
    # 20 clean books hold 140 natural cards, 17 dirty books at least 17 x 5 = 85.
    teams = [
        TeamTally(clean_books=20, melded=Cards(points=1400)),
        TeamTally(dirty_books=17, melded=Cards(points=1400)),
    ]
    assert problems_of(teams) == [
        (
            None,
            "clean_books",
            "The teams' books need at least 225 natural cards together, but 5 decks hold only 220.",
        ),
    ]


def test_two_players_alone_have_too_few_black_threes_for_a_black_three_book() -> None:
    # Brouillette with 2 players: 3 decks, 6 black 3s.
    team = TeamTally(black_three_books=1)
    assert problems_of([team, TeamTally()], "brouillette") == [
        (
            0,
            "black_three_books",
            "Team A's black-three books need 7 black 3s, but 3 decks hold only 6.",
        ),
    ]


def test_melded_points_cannot_exceed_what_all_the_cards_are_worth() -> None:
    # One deck: 2 jokers 100, 4 twos 80, 4 aces 80, 24 cards 8-K 240, 16 cards 4-7 80,
    # 2 black 3s 10: 590; five decks 2950.
    team = TeamTally(melded=Cards(points=3000))
    assert problems_of([team, TeamTally()]) == [
        (
            0,
            "melded",
            "Team A melded cards worth 3000, but all the cards of 5 decks are worth only 2950.",
        ),
    ]
    assert problems_of([TeamTally(left=Cards(points=3000)), TeamTally()]) == [
        (
            0,
            "left",
            "Team A has cards worth 3000 left in hand and foot, but all the cards of 5 decks "
            "are worth only 2950.",
        ),
    ]


def test_melded_and_left_together_cannot_exceed_what_all_the_cards_are_worth() -> None:
    team = TeamTally(melded=Cards(points=2000), left=Cards(points=1000))
    assert problems_of([team, TeamTally()]) == [
        (
            0,
            "left",
            "Team A reports cards worth 2000 melded and 1000 left, 3000 in all, but all the cards "
            "of 5 decks are worth only 2950.",
        ),
    ]


def test_the_teams_cards_together_cannot_exceed_what_all_the_cards_are_worth() -> None:
    teams = [TeamTally(melded=Cards(points=1500)), TeamTally(melded=Cards(points=1500))]
    assert problems_of(teams) == [
        (
            None,
            "melded",
            "The teams report cards worth 3000 together, but all the cards of 5 decks are worth "
            "only 2950.",
        ),
    ]


# --- books the rules forbid ------------------------------------------------------------


@pytest.mark.parametrize("rules_id", ["no-wild-books", "eleven-card", "simpson", "brouillette"])
def test_a_wild_book_is_impossible_where_the_rules_have_none(rules_id: str) -> None:
    team = TeamTally(wild_books=1, melded=Cards(points=200))
    assert (
        0,
        "wild_books",
        "Team A reports 1 wild book, but these rules have no wild books.",
    ) in problems_of([team, TeamTally(), TeamTally(), TeamTally()], rules_id)


@pytest.mark.parametrize(
    "rules_id", ["standard", "no-wild-books", "eleven-card", "saskatchewan", "simpson"]
)
def test_a_black_three_book_is_impossible_outside_brouillette(rules_id: str) -> None:
    team = TeamTally(black_three_books=1)
    assert problems_of([team, TeamTally(), TeamTally(), TeamTally()], rules_id) == [
        (
            0,
            "black_three_books",
            "Team A reports 1 black-three book, but these rules have no black-three books.",
        ),
    ]


@pytest.mark.parametrize("rules_id", ["brouillette", "brouillette-low", "brouillette-partners"])
def test_a_black_three_book_is_possible_in_brouillette(rules_id: str) -> None:
    team = TeamTally(black_three_books=1, melded=cards(black_threes=7))
    assert problems_of([team, TeamTally(), TeamTally(), TeamTally()], rules_id) == []


def test_a_black_three_book_is_one_of_the_clean_books_going_out_needs() -> None:
    # Seed 003 (Brouillette): a black-three book is "en ren meld", and going out needs "mindst
    # en ren og en snavset bunke".
    out = TeamTally(
        black_three_books=1,
        dirty_books=1,
        melded=cards(black_threes=7, eights_to_kings=6, twos=1),
        went_out=True,
    )
    rest = [TeamTally(), TeamTally(), TeamTally()]
    assert problems_of([out, *rest], "brouillette") == []
    # Deal 4 asks two clean and two dirty: one black-three book is one clean book of two.
    found = problems_of([out, *rest], "brouillette", deal=4)
    short = [(team, field) for team, field, _ in found if field.endswith("_books")]
    assert short == [(0, "clean_books"), (0, "dirty_books")]


def test_black_threes_are_never_melded_outside_brouillette() -> None:
    team = TeamTally(melded=cards(black_threes=3, eights_to_kings=5))
    assert problems_of([team, TeamTally()]) == [
        (
            0,
            "melded.black_threes",
            "Team A reports 3 black 3s melded, but black 3s can never be melded in these rules.",
        ),
    ]


def test_black_threes_outside_a_book_make_one_unfinished_meld() -> None:
    # 003 (Brouillette): black 3s make a meld of their own (each still counts -5), which may
    # be on the table unfinished when the deal ends, as any meld of 3 to 6 cards.
    rest = [TeamTally(), TeamTally(), TeamTally()]
    for black in (3, 6):
        team = TeamTally(melded=cards(black_threes=black, eights_to_kings=5))
        assert problems_of([team, *rest], "brouillette") == []
        assert score_team(PRESETS["brouillette"], team).breakdown["black_threes_melded"] == (
            -5 * black
        )
    for black in (2, 7):
        team = TeamTally(melded=cards(black_threes=black, eights_to_kings=5))
        assert problems_of([team, *rest], "brouillette") == [
            (
                0,
                "melded.black_threes",
                f"Team A reports {black} black 3s melded but no black-three book: black 3s "
                "outside a book make one meld of 3 to 6.",
            ),
        ]
    # Under one meld of each rank a book grows: any black 3 past its seven is in it.
    grown = TeamTally(black_three_books=1, melded=cards(black_threes=9, eights_to_kings=5))
    assert problems_of([grown, *rest], "brouillette") == []


def test_black_threes_beside_books_that_do_not_grow_are_one_meld_at_most() -> None:
    rules = PRESETS["brouillette"].derive(
        {"books_may_grow": False, "one_meld_per_rank": False}, id="exact-books", name="Exact"
    )
    rest = [TeamTally(), TeamTally(), TeamTally()]
    beside = TeamTally(black_three_books=1, melded=cards(black_threes=10, eights_to_kings=5))
    assert validate_deal(rules, 1, [beside, *rest], 7) == []
    over = TeamTally(black_three_books=1, melded=cards(black_threes=9, eights_to_kings=5))
    assert [p.message for p in validate_deal(rules, 1, [over, *rest], 7)] == [
        "Team A reports 9 black 3s melded: their 1 black-three book holds 7 of them, and the "
        "other 2 cannot be one meld of 3 to 6."
    ]


def test_a_black_three_book_holds_at_least_seven_black_threes() -> None:
    team = TeamTally(black_three_books=1, melded=cards(black_threes=5))
    teams = [team, TeamTally(), TeamTally(), TeamTally()]
    assert problems_of(teams, "brouillette") == [
        (
            0,
            "melded.black_threes",
            "Team A reports 5 black 3s melded, but their 1 black-three book holds at least 7 of "
            "them.",
        ),
    ]


@pytest.mark.parametrize("rules_id", ["simpson", "brouillette", "brouillette-low"])
def test_red_threes_cannot_be_laid_where_they_are_discarded_at_once(rules_id: str) -> None:
    team = TeamTally(red_threes=2)
    assert problems_of([team, TeamTally(), TeamTally(), TeamTally()], rules_id) == [
        (
            0,
            "red_threes",
            "Team A reports 2 red threes laid, but in these rules red threes are discarded at "
            "once and never laid.",
        ),
    ]


def test_red_threes_caught_still_count_where_they_are_discarded_at_once() -> None:
    team = TeamTally(red_threes_caught=2)
    assert problems_of([team, TeamTally(), TeamTally(), TeamTally()], "simpson") == []


def test_exact_draws_are_impossible_where_the_rules_give_no_bonus_for_them() -> None:
    assert problems_of([TeamTally(exact_draws=1), TeamTally()]) == [
        (0, "exact_draws", "Team A reports exact draws, but these rules give no bonus for them."),
    ]


def test_a_player_alone_draws_exactly_22_cards_at_most_once_a_deal() -> None:
    teams = [TeamTally(exact_draws=2), TeamTally(), TeamTally(), TeamTally()]
    assert problems_of(teams, "simpson") == [
        (0, "exact_draws", "Team A reports 2 exact draws, but plays alone: 1 at most."),
    ]
    # A team of two under house rules giving the bonus: two at most, said of the team.
    pairs = PRESETS["standard"].derive({"exact_draw_bonus": 100}, id="x", name="x")
    teams = [TeamTally(exact_draws=3, left=Cards(points=50)), TeamTally(left=Cards(points=50))]
    messages = [p.message for p in validate_deal(pairs, 1, teams, None, [2, 2])]
    assert "Team A reports 3 exact draws, but a team has at most 2 players." in messages


def test_a_special_book_the_rules_do_not_have_is_impossible() -> None:
    team = TeamTally(special_books={"sevens": 1}, melded=Cards(points=100))
    assert problems_of([team, TeamTally()]) == [
        (
            0,
            "special_books.sevens",
            "Team A reports a special book sevens that these rules do not have.",
        ),
    ]


# --- too many wild cards in a book -----------------------------------------------------


def test_a_dirty_book_of_seven_cards_cannot_hold_five_twos() -> None:
    team = TeamTally(dirty_books=1, melded=cards(twos=5, eights_to_kings=2))
    assert problems_of([team, TeamTally()]) == [
        (
            0,
            "melded",
            "Team A's books need at least 5 natural cards, but only 2 natural cards were "
            "melded; a dirty book of 7 cards holds at most 2 wild cards.",
        ),
    ]


def test_a_dirty_book_of_five_naturals_and_two_twos_is_possible() -> None:
    team = TeamTally(dirty_books=1, melded=cards(twos=2, eights_to_kings=5))
    assert problems_of([team, TeamTally()]) == []


@pytest.mark.parametrize(
    ("rules_id", "most_wilds"),
    [("saskatchewan", 3), ("simpson", 3), ("eleven-card", 3), ("no-wild-books", 2)],
)
def test_a_dirty_book_holds_only_as_many_wild_cards_as_its_rules_allow(
    rules_id: str, most_wilds: int
) -> None:
    teams = [TeamTally(), TeamTally(), TeamTally()]
    at_most = TeamTally(dirty_books=1, melded=cards(twos=most_wilds, aces=7 - most_wilds))
    assert problems_of([at_most, *teams], rules_id) == []
    one_more = TeamTally(dirty_books=1, melded=cards(twos=most_wilds + 1, aces=6 - most_wilds))
    assert problems_of([one_more, *teams], rules_id) == [
        (
            0,
            "melded",
            f"Team A's books need at least {7 - most_wilds} natural cards, but only "
            f"{6 - most_wilds} natural cards were melded; a dirty book of 7 cards holds at most "
            f"{most_wilds} wild cards.",
        ),
    ]


def test_without_wild_books_spare_wild_cards_must_sit_beside_twice_as_many_naturals() -> None:
    # A dirty book (5 kings, 2 twos) and a meld of 1 king and 2 twos: one wild card too many.
    team = TeamTally(dirty_books=1, melded=cards(eights_to_kings=6, twos=4))
    assert problems_of([team, TeamTally()], "no-wild-books") == [
        (
            0,
            "melded",
            "Team A melded 4 wild cards with only 6 natural cards: every meld needs at least "
            "twice as many natural cards as wild cards.",
        ),
    ]


def test_with_wild_books_spare_wild_cards_may_be_an_unfinished_wild_meld() -> None:
    team = TeamTally(dirty_books=1, melded=cards(eights_to_kings=6, twos=4))
    assert problems_of([team, TeamTally()], "standard") == []


def test_wild_cards_set_aside_for_a_wild_meld_are_said_so() -> None:
    # 14 jokers and 6 aces, no book: 6 jokers can be an unfinished meld of wild cards, the
    # other 8 are too many beside 6 aces. The message accounts for all 14 typed.
    team = TeamTally(melded=cards(jokers=14, aces=6))
    assert problems_of([team, TeamTally()], "standard", deal=2, decks=7) == [
        (
            0,
            "melded",
            "Team A melded 8 wild cards besides 6 in a meld of wild cards only, with only 6 "
            "natural cards: every meld needs at least twice as many natural cards as wild cards.",
        ),
    ]


def test_simpson_melds_need_more_naturals_than_wild_cards() -> None:
    # A dirty book of 4 fives and 3 twos beside a meld of one five and two twos.
    team = TeamTally(dirty_books=1, melded=cards(fours_to_sevens=5, twos=5))
    teams = [team, TeamTally(), TeamTally(), TeamTally()]
    assert problems_of(teams, "simpson") == [
        (
            0,
            "melded",
            "Team A melded 5 wild cards with only 5 natural cards: every meld needs more natural "
            "cards than wild cards.",
        ),
    ]


def test_eleven_card_wild_cards_join_only_melds_of_four_naturals() -> None:
    team = TeamTally(dirty_books=1, melded=cards(eights_to_kings=5, twos=5))
    assert problems_of([team, TeamTally()], "eleven-card") == [
        (
            0,
            "melded",
            "Team A melded 5 wild cards with only 5 natural cards: wild cards may only join a "
            "meld of at least 4 natural cards.",
        ),
    ]


def test_wild_books_need_seven_wild_cards_each() -> None:
    team = TeamTally(wild_books=1, melded=cards(jokers=3, twos=3))
    assert problems_of([team, TeamTally()]) == [
        (
            0,
            "melded",
            "Team A's books need at least 7 wild cards, but only 6 wild cards were melded.",
        ),
    ]


def test_a_dirty_book_needs_one_wild_card_said_in_the_singular() -> None:
    team = TeamTally(dirty_books=1, melded=cards(eights_to_kings=7))
    assert problems_of([team, TeamTally()]) == [
        (
            0,
            "melded",
            "Team A's books need at least 1 wild card, but only 0 wild cards were melded.",
        ),
    ]


def test_wild_cards_alone_make_no_meld_where_there_are_no_wild_books() -> None:
    # 002: "Les combinaisons ne doivent pas être composées de tous les jokers."
    team = TeamTally(melded=cards(jokers=3))
    assert problems_of([team, TeamTally()], "eleven-card") == [
        (
            0,
            "melded",
            "Team A melded 3 wild cards and no natural card, but these rules have no melds of "
            "wild cards only.",
        ),
    ]


def test_a_meld_has_at_least_three_cards_besides_the_books() -> None:
    team = TeamTally(clean_books=1, melded=cards(eights_to_kings=9))
    assert problems_of([team, TeamTally()]) == [
        (
            0,
            "melded",
            "Team A melded 2 cards besides their books, but a meld has at least three cards.",
        ),
    ]


# --- card totals -----------------------------------------------------------------------


@pytest.mark.parametrize("field", ["melded", "left"])
def test_a_card_total_must_be_a_multiple_of_5(field: str) -> None:
    team = TeamTally(**{field: Cards(points=557)})  # type: ignore[arg-type]
    assert problems_of([team, TeamTally()]) == [
        (
            0,
            field,
            "Team A: 557 is not a possible card total; every card is worth a multiple of 5.",
        ),
    ]


@pytest.mark.parametrize(
    ("books", "melded", "least"),
    [
        ({"clean_books": 1}, 30, 35),
        ({"dirty_books": 1}, 45, 50),
        ({"wild_books": 1}, 135, 140),
        ({"clean_books": 2, "dirty_books": 1, "wild_books": 1}, 255, 2 * 35 + 50 + 140),
    ],
)
def test_melded_points_cannot_be_below_what_the_books_hold_at_least(
    books: dict[str, int], melded: int, least: int
) -> None:
    team = TeamTally(melded=Cards(points=melded), **books)  # type: ignore[arg-type]
    count = sum(books.values())
    assert (
        0,
        "melded",
        f"Team A melded cards worth {melded}, but their {count} "
        + ("book alone holds" if count == 1 else "books alone hold")
        + " cards worth at "
        f"least {least} (a clean book at least 35, a dirty book 50, a wild book 140).",
    ) in problems_of([team, TeamTally()])
    enough = TeamTally(melded=Cards(points=max(least, 50)), **books)  # type: ignore[arg-type]
    assert problems_of([enough, TeamTally()]) == []


def test_a_melded_total_below_the_smallest_meld_is_impossible() -> None:
    team = TeamTally(melded=Cards(points=10))
    assert (
        0,
        "melded",
        "Team A melded cards worth 10, but a meld has at least three cards, worth at least 15.",
    ) in problems_of([team, TeamTally()])


# --- going out -------------------------------------------------------------------------

OUT_WITH_BOOKS = TeamTally(
    clean_books=2, dirty_books=2, wild_books=1, melded=Cards(points=600), went_out=True
)


def test_two_teams_cannot_both_go_out() -> None:
    teams = [
        OUT_WITH_BOOKS,
        TeamTally(
            name="The Smiths",
            melded=Cards(points=600),
            clean_books=2,
            dirty_books=2,
            wild_books=1,
            went_out=True,
        ),
    ]
    assert problems_of(teams) == [
        (
            None,
            "went_out",
            "Only one team can go out in a deal, but 2 teams report going out: Team A, The Smiths.",
        ),
    ]


def test_nobody_going_out_is_possible() -> None:
    # The stock ran out.
    teams = [TeamTally(melded=Cards(points=600), clean_books=2), TeamTally()]
    assert problems_of(teams) == []


def test_going_out_without_the_required_books_is_refused() -> None:
    team = TeamTally(clean_books=1, dirty_books=2, melded=Cards(points=400), went_out=True)
    assert problems_of([team, TeamTally()]) == [
        (0, "clean_books", "Team A cannot go out: 1 of the 2 clean books required."),
        (0, "wild_books", "Team A cannot go out: going out in deal 1 needs a wild book."),
    ]


@pytest.mark.parametrize("rules_id", ["standard", "saskatchewan", "no-wild-books"])
def test_a_team_that_went_out_picked_up_every_foot_so_caught_no_red_three(rules_id: str) -> None:
    team = TeamTally(
        clean_books=2,
        dirty_books=2,
        wild_books=PRESETS[rules_id].deal(1).go_out.wild,
        red_threes_caught=1,
        melded=Cards(points=800),
        went_out=True,
    )
    assert problems_of([team, TeamTally()], rules_id) == [
        (
            0,
            "red_threes_caught",
            "Team A went out, so every foot of the team was picked up and the 1 red three "
            "reported caught cannot have been hidden in one.",
        ),
    ]


def test_a_player_alone_who_went_out_caught_no_red_three() -> None:
    team = TeamTally(
        clean_books=1, dirty_books=1, red_threes_caught=2, melded=Cards(points=200), went_out=True
    )
    teams = [team, TeamTally(), TeamTally(), TeamTally()]
    # Simpson's red threes are discarded at once: caught wherever held, not only in a foot.
    assert problems_of(teams, "simpson") == [
        (
            0,
            "red_threes_caught",
            "Team A went out, so holds no card, and none of the 2 red threes reported caught "
            "can have been held.",
        )
    ]


def test_eleven_card_partner_may_still_hide_a_red_three_in_an_unplayed_foot() -> None:
    # Going out there does not wait for the partner to pick up the foot.
    team = TeamTally(
        clean_books=1, dirty_books=1, red_threes_caught=1, melded=Cards(points=200), went_out=True
    )
    assert problems_of([team, TeamTally()], "eleven-card") == []


@pytest.mark.parametrize(
    "left", [Cards(points=15), cards(fours_to_sevens=3)], ids=["points", "counts"]
)
def test_a_player_alone_who_went_out_has_no_cards_left(left: Cards) -> None:
    team = TeamTally(
        clean_books=1, dirty_books=1, melded=Cards(points=200), left=left, went_out=True
    )
    teams = [team, TeamTally(), TeamTally(), TeamTally()]
    assert problems_of(teams, "simpson") == [
        (
            0,
            "left",
            "Team A went out, so no cards can be left in hand or foot, but cards worth 15 are "
            "reported left.",
        ),
    ]


@pytest.mark.parametrize("rules_id", ["standard", "no-wild-books", "saskatchewan"])
def test_a_player_alone_under_partnership_rules_who_went_out_has_nothing_left(
    rules_id: str,
) -> None:
    # Three players cannot pair up: each plays alone, with nobody to hold cards or a foot.
    go_out = PRESETS[rules_id].deal(1).go_out
    team = TeamTally(
        clean_books=go_out.clean,
        dirty_books=go_out.dirty,
        wild_books=go_out.wild,
        melded=Cards(points=1000),
        left=cards(aces=1, eights_to_kings=1, fours_to_sevens=1),
        went_out=True,
    )
    teams = [team, TeamTally(), TeamTally()]
    assert [(t, f) for t, f, _ in problems_of(teams, rules_id, sizes=[1, 1, 1])] == [(0, "left")]
    # The same deal of three partnerships of two: the partners' hands and feet.
    assert problems_of(teams, rules_id, sizes=[2, 2, 2]) == []


def test_eleven_card_alone_cannot_hide_a_red_three_in_a_foot_after_going_out() -> None:
    team = TeamTally(
        clean_books=1, dirty_books=1, red_threes_caught=2, melded=Cards(points=200), went_out=True
    )
    teams = [team, TeamTally(), TeamTally()]
    assert [(t, f) for t, f, _ in problems_of(teams, "eleven-card", sizes=[1, 1, 1])] == [
        (0, "red_threes_caught"),
    ]


def test_team_sizes_must_match_the_teams() -> None:
    with pytest.raises(ValueError):
        validate_deal(PRESETS["standard"], 1, [TeamTally(), TeamTally()], None, [1, 1, 1])


@pytest.mark.parametrize("rules_id", ["simpson", "brouillette", "brouillette-low"])
def test_one_meld_of_each_rank_makes_at_most_eleven_books(rules_id: str) -> None:
    eleven = TeamTally(clean_books=6, dirty_books=5, melded=Cards(points=1000))
    assert problems_of([eleven, TeamTally()], rules_id) == []
    twelve = TeamTally(clean_books=7, dirty_books=5, melded=Cards(points=1000))
    assert problems_of([twelve, TeamTally()], rules_id) == [
        (
            0,
            "clean_books",
            "Team A reports 12 books, but these rules allow one meld of each rank, and there "
            "are only 11 ranks from 4 to ace.",
        ),
    ]
    # Twelve books of seven cards each fit in the decks of the standard rules.
    assert problems_of([twelve, TeamTally()], "standard") == []


def test_one_meld_of_each_rank_makes_at_most_one_black_three_book() -> None:
    # Seven decks hold 14 black threes: enough for two books, but one meld of them at most.
    team = TeamTally(black_three_books=2, melded=Cards(points=100))
    teams = [team, *[TeamTally() for _ in range(5)]]
    assert problems_of(teams, "brouillette", decks=7) == [
        (
            0,
            "black_three_books",
            "Team A reports 2 black-three books, but these rules allow one meld of each rank: "
            "one of black threes at most.",
        ),
    ]


def test_a_partnership_that_went_out_may_have_cards_left_in_the_partners_hand() -> None:
    team = TeamTally(
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        melded=Cards(points=600),
        left=Cards(points=45),
        went_out=True,
    )
    assert problems_of([team, TeamTally()]) == []


# --- the deal itself -------------------------------------------------------------------


@pytest.mark.parametrize("deal", [0, -1, 5, 100])
def test_a_deal_outside_the_game_is_a_problem_not_an_exception(deal: int) -> None:
    problems = validate_deal(STANDARD, deal, [TeamTally(), TeamTally()])
    assert [(p.team, p.field, p.message) for p in problems] == [
        (None, "deal", f"Deal {deal} is outside a game of 4 deals."),
    ]


def test_problems_serialise_as_team_field_and_message() -> None:
    problem = validate_deal(STANDARD, 1, [TeamTally(exact_draws=1), TeamTally()])[0]
    assert problem.to_dict() == {
        "team": 0,
        "field": "exact_draws",
        "message": "Team A reports exact draws, but these rules give no bonus for them.",
    }


def test_every_problem_of_a_deal_full_of_mistakes_is_reported_at_once() -> None:
    teams = [
        TeamTally(wild_books=1, red_threes=11, melded=Cards(points=33), went_out=True),
        TeamTally(clean_books=1, melded=Cards(points=20), exact_draws=1, went_out=True),
    ]
    fields = [(team, field) for team, field, _ in problems_of(teams, "no-wild-books")]
    assert (0, "wild_books") in fields
    assert (0, "red_threes") in fields
    assert (0, "melded") in fields
    assert (1, "exact_draws") in fields
    assert (1, "clean_books") in fields
    assert (None, "went_out") in fields


def test_red_threes_laid_when_found_are_caught_only_in_a_foot_never_picked_up() -> None:
    # Seed 003: red threes are laid at once from the hand, a draw or the foot picked up; those
    # in a foot never picked up count against. Eleven-card: a player alone has a foot of 11.
    def caught(count: int) -> list[TeamTally]:
        return [TeamTally(red_threes_caught=count), TeamTally()]

    assert problems_of(caught(12), "eleven-card", decks=6, sizes=[1, 1]) == [
        (
            0,
            "red_threes_caught",
            "Team A reports 12 red threes caught, but red threes are laid as soon as they are "
            "found, so only feet never picked up hide them: 11 cards at most.",
        )
    ]
    assert problems_of(caught(11), "eleven-card", decks=6, sizes=[1, 1]) == []
    # Two partners have two feet.
    assert problems_of(caught(12), "eleven-card", decks=6, sizes=[2, 2]) == []
    # Where red threes are discarded at once, the hand may still hold some when the deal ends.
    assert problems_of(caught(12), "simpson", decks=6, sizes=[1, 1]) == []


def test_a_team_that_went_out_hides_red_threes_only_in_the_feet_of_the_others() -> None:
    # Eleven-card goes out without the partner's foot picked up (seed 002: "se débarrasser
    # complètement des cartes"): the player who went out emptied their foot, so only the
    # partner's 11 cards can hide a red three.
    def out(count: int, others: int = 2) -> list[TeamTally]:
        went_out = TeamTally(
            clean_books=1,
            dirty_books=1,
            melded=Cards(points=120),
            went_out=True,
            red_threes_caught=count,
        )
        return [went_out, *[TeamTally(left=Cards(points=110))] * others]

    assert problems_of(out(12), "eleven-card", decks=6, sizes=[2, 2, 2]) == [
        (
            0,
            "red_threes_caught",
            "Team A reports 12 red threes caught, but one of their players went out, so only the "
            "feet of the others can hide them: 11 cards at most.",
        )
    ]
    assert problems_of(out(11), "eleven-card", decks=6, sizes=[2, 2, 2]) == []
    # Three partners who did not go out: two feet of 11.
    assert problems_of(out(12, others=1), "eleven-card", decks=6, sizes=[3, 3]) == []
    # A player alone who went out has no foot left: the go-out check says so, once.
    assert [p[1:] for p in problems_of(out(1), "eleven-card", decks=6, sizes=[1, 1, 1])] == [
        (
            "red_threes_caught",
            "Team A went out, so holds no card, and the 1 red three reported caught cannot "
            "have been held.",
        )
    ]


@pytest.mark.parametrize("rules_id", ["standard", "saskatchewan"])
def test_seven_wild_cards_and_no_wild_book_say_the_wild_book_is_missing(rules_id: str) -> None:
    # Seed 001: seven wild cards are a wild book; an unfinished meld has 3 to 6 cards.
    team = TeamTally(melded=cards(jokers=4, twos=3))
    assert problems_of([team, TeamTally()], rules_id) == [
        (
            0,
            "melded",
            "Team A melded 7 wild cards and no natural card, with wild books reported: 0. Wild "
            "cards alone make wild books and at most one meld of fewer than 7 cards.",
        )
    ]
    assert problems_of([replace(team, wild_books=1), TeamTally()], rules_id) == []


def test_wild_cards_alone_under_house_books_of_three_make_books_only() -> None:
    # A house book size of 3 leaves no meld short of a book: six jokers are two books.
    rules = PRESETS["standard"].derive({"book_size": 3}, id="b3", name="b3")
    team = TeamTally(melded=cards(jokers=6), wild_books=1)
    found = validate_deal(rules, 1, [team, TeamTally()], 5)
    assert [(p.team, p.field, p.message) for p in found] == [
        (
            0,
            "melded",
            "Team A melded 6 wild cards and no natural card, with wild books reported: 1. Wild "
            "cards alone make wild books only.",
        )
    ]
    assert validate_deal(rules, 1, [replace(team, wild_books=2), TeamTally()], 5) == []
