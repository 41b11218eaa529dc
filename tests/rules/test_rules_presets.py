"""Every preset holds the numbers of its seed (see RULES.md, "The systems in the seeds")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorekeeper.rules import (
    PRESETS,
    BookCount,
    CardClass,
    Cards,
    PlayStyle,
    RuleSet,
    RuleSetError,
    TeamTally,
    check_ruleset,
    score_team,
    validate_deal,
)

PRESET_IDS = [
    "standard",
    "no-wild-books",
    "eleven-card",
    "saskatchewan",
    "simpson",
    "brouillette",
    "brouillette-low",
    "brouillette-partners",
]


def cards(**counts: int) -> Cards:
    return Cards.of_counts({CardClass(name): n for name, n in counts.items()})


def four_players(preset: str, team: TeamTally) -> list[TeamTally]:
    """``team`` first at a table of four players: two partnerships, or four players alone."""
    alone = PRESETS[preset].play_style is PlayStyle.INDIVIDUALS
    return [team, *[TeamTally()] * (3 if alone else 1)]


def test_the_presets_are_exactly_the_eight_systems_of_the_seeds() -> None:
    assert list(PRESETS) == PRESET_IDS
    for preset_id, rules in PRESETS.items():
        assert rules.id == preset_id
        assert rules.name
        assert rules.source


@pytest.mark.parametrize(
    ("preset", "clean", "dirty", "wild_books", "wild"),
    [
        ("standard", 500, 300, True, 1500),
        ("no-wild-books", 500, 300, False, 0),
        ("eleven-card", 500, 300, False, 0),
        ("saskatchewan", 500, 300, True, 1500),
        ("simpson", 300, 100, False, 0),
        ("brouillette", 500, 300, False, 0),
        ("brouillette-low", 300, 100, False, 0),
        ("brouillette-partners", 500, 300, False, 0),
    ],
)
def test_book_bonuses(preset: str, clean: int, dirty: int, wild_books: bool, wild: int) -> None:
    rules = PRESETS[preset]
    assert rules.clean_book_bonus == clean
    assert rules.dirty_book_bonus == dirty
    assert rules.wild_books is wild_books
    assert rules.wild_book_bonus == wild


@pytest.mark.parametrize(
    ("preset", "allowed", "bonus"),
    [
        ("standard", False, 0),
        ("no-wild-books", False, 0),
        ("eleven-card", False, 0),
        ("saskatchewan", False, 0),
        ("simpson", False, 0),
        ("brouillette", True, 300),
        ("brouillette-low", True, 100),
        ("brouillette-partners", True, 300),
    ],
)
def test_black_three_books(preset: str, allowed: bool, bonus: int) -> None:
    rules = PRESETS[preset]
    assert rules.black_three_books is allowed
    assert rules.black_three_book_bonus == bonus


@pytest.mark.parametrize(
    ("preset", "laid", "bonus", "penalty"),
    [
        ("standard", True, 100, 100),
        ("no-wild-books", True, 100, 100),
        ("eleven-card", True, 100, 100),
        ("saskatchewan", True, 100, 100),
        ("simpson", False, 0, 500),
        ("brouillette", False, 0, 500),
        ("brouillette-low", False, 0, 500),
        ("brouillette-partners", False, 0, 500),
    ],
)
def test_red_threes(preset: str, laid: bool, bonus: int, penalty: int) -> None:
    rules = PRESETS[preset]
    assert rules.red_threes_laid is laid
    assert rules.red_three_bonus == bonus
    assert rules.red_three_penalty == penalty


def _need(clean: int, dirty: int, wild: int = 0) -> BookCount:
    return BookCount(clean=clean, dirty=dirty, wild=wild)


@pytest.mark.parametrize(
    ("preset", "per_deal"),
    [
        ("standard", [_need(2, 2, 1)] * 4),
        ("no-wild-books", [_need(2, 2)] * 4),
        ("eleven-card", [_need(1, 1)] * 4),
        ("saskatchewan", [_need(1, 1, 1)] * 4),
        ("simpson", [_need(1, 1)] * 4),
        ("brouillette", [_need(1, 1)] * 3 + [_need(2, 2)]),
        ("brouillette-low", [_need(1, 1)] * 3 + [_need(2, 2)]),
        ("brouillette-partners", [_need(2, 2)] * 3 + [_need(4, 4)]),
    ],
)
def test_books_needed_to_go_out_in_each_deal(preset: str, per_deal: list[BookCount]) -> None:
    rules = PRESETS[preset]
    assert rules.deal_count == 4
    assert [rules.deal(number).go_out for number in (1, 2, 3, 4)] == per_deal


@pytest.mark.parametrize(
    ("preset", "going_out", "must_discard", "partner_in_foot", "permission"),
    [
        ("standard", 100, False, True, True),
        ("no-wild-books", 100, False, True, True),
        ("eleven-card", 100, True, False, False),
        ("saskatchewan", 100, False, True, True),
        ("simpson", 100, True, False, False),
        ("brouillette", 100, False, False, False),
        ("brouillette-low", 100, False, False, False),
        ("brouillette-partners", 100, False, False, True),
    ],
)
def test_going_out(
    preset: str, going_out: int, must_discard: bool, partner_in_foot: bool, permission: bool
) -> None:
    rules = PRESETS[preset]
    assert rules.going_out_bonus == going_out
    assert rules.must_discard_to_go_out is must_discard
    assert rules.partner_in_foot_to_go_out is partner_in_foot
    assert rules.permission_to_go_out is permission


def test_only_saskatchewan_opens_the_last_deal_with_a_concealed_canasta() -> None:
    for rules in PRESETS.values():
        concealed = [deal.opening_needs_concealed_book for deal in rules.deals]
        assert concealed == [False, False, False, rules.id == "saskatchewan"]


@pytest.mark.parametrize(
    ("preset", "style", "hand", "foot", "pickup"),
    [
        ("standard", PlayStyle.PARTNERSHIPS, 13, 13, 7),
        ("no-wild-books", PlayStyle.PARTNERSHIPS, 13, 13, 7),
        ("eleven-card", PlayStyle.PARTNERSHIPS, 11, 11, 7),
        ("saskatchewan", PlayStyle.PARTNERSHIPS, 11, 13, None),
        ("simpson", PlayStyle.INDIVIDUALS, 11, 11, 7),
        ("brouillette", PlayStyle.INDIVIDUALS, 11, 11, 7),
        ("brouillette-low", PlayStyle.INDIVIDUALS, 11, 11, 7),
        ("brouillette-partners", PlayStyle.PARTNERSHIPS, 11, 11, 7),
    ],
)
def test_play_style_packets_and_discard_pickup(
    preset: str, style: PlayStyle, hand: int, foot: int, pickup: int | None
) -> None:
    rules = PRESETS[preset]
    assert rules.play_style is style
    assert (rules.hand_cards, rules.foot_cards) == (hand, foot)
    assert rules.discard_pickup == pickup


@pytest.mark.parametrize("preset", [p for p in PRESET_IDS if p != "eleven-card"])
def test_one_deck_more_than_players(preset: str) -> None:
    rules = PRESETS[preset]
    assert [rules.decks_for(players) for players in (2, 4, 6)] == [3, 5, 7]


def test_the_eleven_card_game_plays_with_five_to_six_decks() -> None:
    """The French text: "Hand and Foot utilise cinq à six jeux de cartes avec des jokers"."""
    rules = PRESETS["eleven-card"]
    assert [rules.decks_for(players) for players in range(2, 8)] == [5, 5, 5, 6, 6, 6]


@pytest.mark.parametrize("bound", ["min_decks", "max_decks"])
def test_a_deck_bound_runs_from_none_to_the_most_decks_a_game_may_have(bound: str) -> None:
    for value in (0, 20):
        assert getattr(PRESETS["standard"].derive({bound: value}, id="b", name="B"), bound) == value
    for value in (-1, 21):
        with pytest.raises(RuleSetError) as refused:
            PRESETS["standard"].derive({bound: value}, id="b", name="B")
        (problem,) = refused.value.problems
        assert problem.field == bound and (problem.params["low"], problem.params["high"]) == (0, 20)
    direct = replace(PRESETS["standard"], **{bound: 21})  # built in code, not read
    assert [p.field for p in check_ruleset(direct)] == [bound]


def test_deck_bounds_are_house_rules_and_must_make_sense() -> None:
    rules = PRESETS["standard"].derive({"min_decks": 4}, id="floor", name="Floor")
    assert [rules.decks_for(players) for players in (2, 4, 6)] == [4, 5, 7]
    rules = PRESETS["standard"].derive({"max_decks": 5}, id="ceiling", name="Ceiling")
    assert [rules.decks_for(players) for players in (2, 4, 6)] == [3, 5, 5]
    with pytest.raises(RuleSetError) as refused:
        PRESETS["standard"].derive({"min_decks": 6, "max_decks": 5}, id="odd", name="Odd")
    assert [p.field for p in refused.value.problems] == ["max_decks"]
    # Too few to deal from: seven players need 7 x 26 = 182 cards, more than 54 or 162.
    for decks in (1, 3):
        with pytest.raises(RuleSetError) as refused:
            PRESETS["standard"].derive({"max_decks": decks}, id="odd", name="Odd")
        assert [p.field for p in refused.value.problems] == ["max_decks"]
    assert PRESETS["standard"].derive({"max_decks": 4}, id="four", name="Four").max_decks == 4
    # Rules stored before the bounds existed lack them: no bounds.
    stored = PRESETS["standard"].to_dict()
    del stored["min_decks"], stored["max_decks"]
    assert RuleSet.from_dict(stored).decks_for(2) == 3


def test_four_players_sit_as_two_partnerships_or_alone_by_the_rules() -> None:
    assert PRESETS["standard"].seatings(4) == [(2, 2)]
    assert PRESETS["standard"].seatings(6) == [(3, 2), (2, 3)]
    assert PRESETS["standard"].seatings(5) == [(5, 1)]
    assert PRESETS["simpson"].seatings(4) == [(4, 1)]
    assert PRESETS["brouillette-partners"].seatings(6) == [(3, 2)]
    # The partner version is played in pairs only: five players cannot play it.
    assert PRESETS["brouillette-partners"].seatings(5) == []


def test_eleven_card_is_played_by_teams_or_individuals() -> None:
    # 002: "La personne ou l'équipe avec le score le plus élevé l'emporte".
    eleven = PRESETS["eleven-card"]
    assert eleven.seatings(4) == [(2, 2), (4, 1)]
    assert eleven.seatings(6) == [(3, 2), (2, 3), (6, 1)]
    assert eleven.seatings(5) == [(5, 1)]
    assert eleven.team_sizes_for(4) == [1]
    assert eleven.team_sizes_for(2) == [1, 2, 3]
    # The other partnership presets seat four players in pairs only.
    assert not any(PRESETS[p].alone_by_choice for p in PRESETS if p != "eleven-card")
    # Where nobody plays alone, choosing to changes nothing.
    pairs_only = PRESETS["brouillette-partners"].derive({"alone_by_choice": True})
    assert pairs_only.seatings(5) == [] and pairs_only.seatings(4) == [(2, 2), (4, 1)]


@pytest.mark.parametrize(
    ("preset", "one_meld"),
    [
        ("standard", False),
        ("saskatchewan", False),
        ("simpson", True),
        ("brouillette", True),
        ("brouillette-partners", True),
    ],
)
def test_simpson_and_brouillette_allow_one_meld_of_each_rank(preset: str, one_meld: bool) -> None:
    # 003 (Simpson): "Du kan ikke have mere end et sæt af det samme kort."
    assert PRESETS[preset].one_meld_per_rank is one_meld


@pytest.mark.parametrize(
    ("preset", "size", "may_grow"),
    [
        ("standard", 7, False),
        ("no-wild-books", 7, False),
        ("eleven-card", 7, False),
        ("saskatchewan", 7, True),
        ("simpson", 7, True),
        ("brouillette", 7, True),
        ("brouillette-low", 7, True),
        ("brouillette-partners", 7, True),
    ],
)
def test_book_size_and_whether_books_may_grow(preset: str, size: int, may_grow: bool) -> None:
    rules = PRESETS[preset]
    assert rules.book_size == size
    assert rules.books_may_grow is may_grow


# The most wild cards a meld of 3, 4, 5, 6 and 7 cards may hold.
@pytest.mark.parametrize(
    ("preset", "most_wilds"),
    [
        # naturals at least twice the wilds: 1 wild in 3-5 cards, 2 in 6-7
        ("standard", [1, 1, 1, 2, 2]),
        ("no-wild-books", [1, 1, 1, 2, 2]),
        # wild cards only beside at least four naturals
        ("eleven-card", [0, 0, 1, 2, 3]),
        # more naturals than wilds: up to 2 in 5-6 cards, 3 in a 7-card canasta
        ("saskatchewan", [1, 1, 2, 2, 3]),
        # at least one more natural than wilds
        ("simpson", [1, 1, 2, 2, 3]),
        ("brouillette", [1, 1, 2, 2, 3]),
        ("brouillette-low", [1, 1, 2, 2, 3]),
        ("brouillette-partners", [1, 1, 2, 2, 3]),
    ],
)
def test_wild_card_limit_per_meld_size(preset: str, most_wilds: list[int]) -> None:
    rules = PRESETS[preset]
    assert [rules.max_wilds(cards) for cards in (3, 4, 5, 6, 7)] == most_wilds


def test_an_eleven_card_dirty_book_needs_at_least_four_naturals() -> None:
    rules = PRESETS["eleven-card"]
    assert rules.min_naturals == 4
    assert rules.book_size - rules.max_wilds(rules.book_size) == 4


@pytest.mark.parametrize(
    ("preset", "bonus"),
    [
        ("standard", 0),
        ("no-wild-books", 0),
        ("eleven-card", 0),
        ("saskatchewan", 0),
        ("simpson", 100),
        ("brouillette", 100),
        ("brouillette-low", 100),
        ("brouillette-partners", 100),
    ],
)
def test_exact_draw_bonus(preset: str, bonus: int) -> None:
    assert PRESETS[preset].exact_draw_bonus == bonus


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_card_values_are_the_seeds(preset: str) -> None:
    values = PRESETS[preset].card_values
    assert [values.of(card) for card in CardClass] == [50, 20, 20, 10, 5, 5]


# --- a deal scored by hand under each preset ----------------------------------------------

SCORED_BY_HAND = [
    pytest.param(
        "standard",
        # 1 clean, 1 dirty, 200 melded, 2 red threes laid, 40 left
        TeamTally(clean_books=1, dirty_books=1, red_threes=2, melded=Cards(points=200),
                  left=Cards(points=40)),
        200 + 500 + 300 + 2 * 100 - 40,
        id="standard-two-red-threes",
    ),
    pytest.param(
        "no-wild-books",
        TeamTally(clean_books=2, dirty_books=2, red_threes=1, melded=Cards(points=400),
                  went_out=True),
        400 + 2 * 500 + 2 * 300 + 100 + 100,
        id="no-wild-books-going-out",
    ),
    pytest.param(
        "eleven-card",
        # went out with a clean and a dirty book; a partner's foot hid a red three
        TeamTally(clean_books=1, dirty_books=1, red_threes_caught=1, melded=Cards(points=150),
                  left=Cards(points=85)),
        150 + 500 + 300 - 100 - 85,
        id="eleven-card-red-three-caught",
    ),
    pytest.param(
        "saskatchewan",
        # a canasta of 9 kings, a dirty canasta of 5 queens and 2 twos, a wild canasta of
        # 7 twos, and a red three; going out
        TeamTally(clean_books=1, dirty_books=1, wild_books=1, red_threes=1, went_out=True,
                  melded=cards(eights_to_kings=9 + 5, twos=2 + 7)),
        140 + 180 + 500 + 300 + 1500 + 100 + 100,
        id="saskatchewan-grown-canasta",
    ),
    pytest.param(
        "simpson",
        # a player caught with 2 red threes in a foot never picked up, who drew exactly 22
        TeamTally(exact_draws=1, red_threes_caught=2, left=Cards(points=110)),
        100 - 2 * 500 - 110,
        id="simpson-caught-with-two-red-threes",
    ),
    pytest.param(
        "simpson",
        TeamTally(clean_books=1, dirty_books=1, melded=Cards(points=120), went_out=True),
        120 + 300 + 100 + 100,
        id="simpson-going-out",
    ),
    pytest.param(
        "brouillette",
        # a black-three book (7 black 3s) and a clean book of 7 kings
        TeamTally(black_three_books=1, clean_books=1,
                  melded=cards(black_threes=7, eights_to_kings=7)),
        70 - 7 * 5 + 300 + 500,
        id="brouillette-black-three-book-counted",
    ),
    pytest.param(
        "brouillette",
        TeamTally(black_three_books=1, clean_books=1, melded=Cards(points=70)),
        70 - 35 + 300 + 500,
        id="brouillette-black-three-book-points",
    ),
    pytest.param(
        "brouillette-low",
        TeamTally(black_three_books=1, clean_books=1, dirty_books=1, melded=Cards(points=150)),
        150 - 35 + 100 + 300 + 100,
        id="brouillette-low-black-three-book",
    ),
    pytest.param(
        "brouillette-partners",
        TeamTally(clean_books=2, dirty_books=2, melded=Cards(points=300), went_out=True,
                  left=Cards(points=25)),
        300 + 2 * 500 + 2 * 300 + 100 - 25,
        id="brouillette-partners-going-out",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("preset", "team", "expected"), SCORED_BY_HAND)
def test_a_deal_scored_by_hand(preset: str, team: TeamTally, expected: int) -> None:
    assert score_team(PRESETS[preset], team).score == expected


def test_simpson_player_caught_with_two_red_threes_loses_1000() -> None:
    score = score_team(PRESETS["simpson"], TeamTally(red_threes_caught=2))
    assert score.score == -1000
    assert score.breakdown["red_threes_caught"] == -1000


def test_brouillette_black_three_book_earns_300_and_costs_35_for_its_seven_black_threes() -> None:
    score = score_team(PRESETS["brouillette"], TeamTally(black_three_books=1))
    assert score.breakdown["books"] == 300
    assert score.breakdown["black_threes_melded"] == -35
    assert score.score == 265


def test_a_grown_black_three_book_costs_5_for_every_black_three_in_it() -> None:
    team = TeamTally(black_three_books=1, melded=cards(black_threes=9))
    assert score_team(PRESETS["brouillette"], team).breakdown["black_threes_melded"] == -45


def test_simpson_exact_draw_of_22_cards_earns_100() -> None:
    score = score_team(PRESETS["simpson"], TeamTally(exact_draws=1))
    assert score.breakdown["exact_draws"] == 100


@pytest.mark.parametrize(("preset", "team", "expected"), SCORED_BY_HAND)
def test_each_scored_deal_is_also_a_possible_one(
    preset: str, team: TeamTally, expected: int
) -> None:
    # With five decks: two players alone have three decks, too few for a black-three book.
    assert validate_deal(PRESETS[preset], 1, four_players(preset, team)) == []


# --- going out without the books the rules require -------------------------------------


def _out(clean: int = 0, dirty: int = 0, wild: int = 0) -> TeamTally:
    """A team that went out with these books, enough melded cards, and nothing left."""
    return TeamTally(
        clean_books=clean,
        dirty_books=dirty,
        wild_books=wild,
        melded=Cards(points=2000),
        went_out=True,
    )


GO_OUT_REFUSALS = [
    ("standard", 1, _out(2, 2, 0), [("wild_books",
        "Team A cannot go out: going out in deal 1 needs a wild book.")]),
    ("no-wild-books", 2, _out(1, 2), [("clean_books",
        "Team A cannot go out: 1 of the 2 clean books required.")]),
    ("eleven-card", 3, _out(1, 0), [("dirty_books",
        "Team A cannot go out: going out in deal 3 needs a dirty book.")]),
    ("saskatchewan", 1, _out(1, 1, 0), [("wild_books",
        "Team A cannot go out: going out in deal 1 needs a wild book.")]),
    ("simpson", 1, _out(0, 1), [("clean_books",
        "Team A cannot go out: going out in deal 1 needs a clean book.")]),
    ("brouillette", 4, _out(1, 1), [
        ("clean_books", "Team A cannot go out: 1 of the 2 clean books required."),
        ("dirty_books", "Team A cannot go out: 1 of the 2 dirty books required."),
    ]),
    ("brouillette-low", 4, _out(2, 0), [("dirty_books",
        "Team A cannot go out: 0 of the 2 dirty books required.")]),
    ("brouillette-partners", 1, _out(1, 2), [("clean_books",
        "Team A cannot go out: 1 of the 2 clean books required.")]),
    ("brouillette-partners", 4, _out(3, 4), [("clean_books",
        "Team A cannot go out: 3 of the 4 clean books required.")]),
]  # fmt: skip


@pytest.mark.parametrize(("preset", "deal", "team", "expected"), GO_OUT_REFUSALS)
def test_going_out_without_the_required_books_is_refused(
    preset: str, deal: int, team: TeamTally, expected: list[tuple[str, str]]
) -> None:
    problems = validate_deal(PRESETS[preset], deal, four_players(preset, team))
    assert [(p.field, p.message) for p in problems] == expected
    assert {p.team for p in problems} == {0}


GO_OUT_ALLOWED = [
    ("standard", 1, _out(2, 2, 1)),
    ("no-wild-books", 4, _out(2, 2)),
    ("eleven-card", 4, _out(1, 1)),
    ("saskatchewan", 3, _out(1, 1, 1)),
    ("simpson", 4, _out(1, 1)),
    ("brouillette", 3, _out(1, 1)),
    ("brouillette", 4, _out(2, 2)),
    ("brouillette-low", 1, _out(1, 1)),
    ("brouillette-partners", 3, _out(2, 2)),
    ("brouillette-partners", 4, _out(4, 4)),
]


@pytest.mark.parametrize(("preset", "deal", "team"), GO_OUT_ALLOWED)
def test_going_out_with_exactly_the_required_books_is_allowed(
    preset: str, deal: int, team: TeamTally
) -> None:
    assert validate_deal(PRESETS[preset], deal, four_players(preset, team)) == []
