"""POST /api/opening and POST /api/go-out: the questions a table asks while a deal is played."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from api_support import Api
from flask import Flask

from scorekeeper.auth import set_passcode


def opening(api: Api, **body: Any) -> Any:
    response = api.post("/api/opening", {"ruleset": "standard", "deal": 2, **body})
    return response.status_code, response.get_json()


@pytest.mark.parametrize(
    ("deal", "cards", "value", "enough"),
    [
        (2, {"aces": 2, "jokers": 1}, 90, True),
        (2, {"eights_to_kings": 6}, 60, False),
        (1, {"eights_to_kings": 3, "twos": 1}, 50, True),
        (1, {"fours_to_sevens": 7}, 35, False),
    ],
)
def test_the_seeds_opening_examples(
    api: Api, deal: int, cards: dict[str, int], value: int, enough: bool
) -> None:
    status, body = opening(api, deal=deal, cards=cards)
    assert status == 200
    assert (body["value"], body["enough"]) == (value, enough)
    assert body["minimum"] == (50, 90)[deal - 1]
    word = "Enough" if enough else "Not enough"
    assert body["message"].startswith(word)
    assert str(value) in body["message"]


def test_an_opening_given_in_points_is_judged_the_same(api: Api) -> None:
    status, body = opening(api, deal=3, points=110)
    assert status == 200
    assert body == {
        "deal": 3,
        "value": 110,
        "minimum": 120,
        "enough": False,
        "short": 10,
        "concealed_book": False,
        "message": body["message"],
    }
    assert "10 short of the 120" in body["message"]


@pytest.mark.parametrize(
    ("cards", "value"),
    [({"jokers": 1}, 50), ({"aces": 1, "jokers": 2}, 120), ({"aces": 2}, 40)],
)
def test_cards_that_make_no_meld_are_never_enough(
    api: Api, cards: dict[str, int], value: int
) -> None:
    # Seed 000: a meld is three to seven cards of a rank, twice as many naturals as wilds.
    status, body = opening(api, deal=1, cards=cards)
    assert status == 200
    assert (body["value"], body["enough"]) == (value, False)
    assert body["message"].startswith(f"Not enough: no melds yet. These cards, {value} points,")
    status, meld = opening(api, deal=1, cards={**cards, "aces": 4})
    assert (status, meld["enough"]) == (200, True)


def test_natural_cards_of_different_ranks_make_no_meld_together(api: Api) -> None:
    # Seed 000: a meld is of one rank. Two aces and a king (50 points) are none.
    status, body = opening(api, deal=1, cards={"aces": 2, "eights_to_kings": 1})
    assert (status, body["value"], body["enough"], body["short"]) == (200, 50, False, 0)
    assert body["message"].startswith("Not enough: no melds yet.")
    # A A 2 is a meld, but the king is still alone; three kings beside three aces meld.
    status, body = opening(api, deal=1, cards={"aces": 2, "eights_to_kings": 1, "twos": 1})
    assert (status, body["value"], body["enough"]) == (200, 70, False)
    status, body = opening(api, deal=1, cards={"aces": 3, "eights_to_kings": 3})
    assert (status, body["value"], body["enough"]) == (200, 90, True)


def test_cards_given_by_rank_meld_rank_by_rank(api: Api) -> None:
    # Counted by class, K Q J may be three kings; by rank they are three cards of three ranks.
    status, body = opening(api, deal=1, ranks={"K": 1, "Q": 1, "J": 1, "10": 1, "9": 1})
    assert (status, body["value"], body["enough"], body["short"]) == (200, 50, False, 0)
    assert body["message"].startswith("Not enough: no melds yet.")
    assert opening(api, deal=1, cards={"eights_to_kings": 5})[1]["enough"] is True
    # Three kings and a 2 are a meld (50); the same cards as Q Q K and a 2 are not.
    status, body = opening(api, deal=1, ranks={"K": 3, "2": 1})
    assert (status, body["value"], body["enough"]) == (200, 50, True)
    assert opening(api, deal=1, ranks={"K": 1, "Q": 2, "2": 1})[1]["enough"] is False
    # Each rank its own meld: K K K beside 7 7 7 beside A A joker, 195 points in deal 3.
    ranks = {"K": 3, "7": 3, "A": 2, "joker": 1}
    status, body = opening(api, deal=3, ranks=ranks)
    assert (status, body["value"], body["minimum"], body["enough"]) == (200, 135, 120, True)
    # A rank counted zero times is no card: no melds to judge, and 0 points, not enough.
    status, body = opening(api, deal=1, ranks={"K": 0})
    assert (status, body["value"], body["enough"], body["short"]) == (200, 0, False, 50)
    assert not body["message"].startswith("Not enough: no melds yet.")


def test_many_cards_by_rank_still_need_every_rank_to_meld(api: Api) -> None:
    # A lone 4 beside 34 kings melds nowhere (RULES.md: a meld is 3+ cards of one rank).
    status, body = opening(api, deal=1, ranks={"K": 34, "4": 1})
    assert (status, body["enough"]) == (200, False)
    # Saskatchewan's deal 4: three of each of the eleven ranks and two jokers hold no canasta.
    eleven = {rank: 3 for rank in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")}
    body = opening(api, ruleset="saskatchewan", deal=4, ranks={**eleven, "joker": 2})[1]
    assert body["enough"] is False
    # Thirty-six aces, where a book has exactly seven cards: five books and an ace.
    assert opening(api, deal=1, ranks={"A": 36})[1]["enough"] is False
    assert opening(api, deal=1, ranks={"A": 35})[1]["enough"] is True


def test_a_pickup_needs_two_cards_of_the_top_discards_rank_from_the_hand(api: Api) -> None:
    # Seed 003: "du skal have to kort, der har samme rang som dette øverste kort" (001 and
    # 002 say the same). Top discard a king, one more king, a 2, A A joker: 130 points in
    # deal 3, and K K 2 is a meld, but the hand adds one king, not two.
    ranks = {"K": 2, "2": 1, "A": 2, "joker": 1}
    status, body = opening(api, deal=3, ranks=ranks, top_discard="K")
    assert (status, body["value"], body["enough"]) == (200, 130, False)
    assert body["message"] == (
        "Not enough: picking up the discard pile needs two natural cards of the top discard's "
        "rank from the hand besides it, and the hand adds 1."
    )
    assert opening(api, deal=3, ranks=ranks)[1]["enough"] is True  # drawn, not picked up
    status, body = opening(api, deal=3, ranks={**ranks, "K": 3}, top_discard="K")
    assert (status, body["value"], body["enough"]) == (200, 140, True)
    # Saskatchewan's deal 4 opens from the player's own hand: never with a pickup.
    body = opening(api, ruleset="saskatchewan", deal=4, ranks={"K": 7}, top_discard="K")[1]
    assert body["enough"] is False
    assert "never with a pickup of the discard pile" in body["message"]


def test_a_wild_card_on_top_needs_two_more_of_the_same_and_wild_books(api: Api) -> None:
    # Seed 003: a discarded wild card is picked up "kun ... med to matchende wild cards (to
    # toere for at hente en toer eller to jokere for at hente en joker)".
    two_jokers = {"joker": 3}  # the top joker and two from the hand: a wild meld, 150 points
    status, body = opening(api, deal=3, ranks=two_jokers, top_discard="joker")
    assert (status, body["value"], body["enough"]) == (200, 150, True)
    # A joker and a 2 from the hand are two wild cards, but not two jokers.
    status, body = opening(api, deal=3, ranks={"joker": 2, "2": 1}, top_discard="joker")
    assert (status, body["value"], body["enough"]) == (200, 120, False)
    assert body["message"] == (
        "Not enough: picking up a wild card from the discard pile needs two more of the same "
        "from the hand (two 2s for a 2, two jokers for a joker), and the hand adds 1."
    )
    # A 2 on top with two more 2s and aces besides: 2 2 2 (60) and A A A (60) in deal 3.
    body = opening(api, deal=3, ranks={"2": 3, "A": 3}, top_discard="2")[1]
    assert (body["value"], body["enough"]) == (120, True)
    # The 2s picked up are a wild meld of their own: they never carry pairs of natural
    # cards, so A A K K Q Q beside them make no meld (as they would with 2s from the stock).
    for top in ("2", "joker"):
        wild = {top: 3, "A": 2, "K": 2, "Q": 2}
        assert opening(api, deal=1, ranks=wild)[1]["enough"] is True
        body = opening(api, deal=1, ranks=wild, top_discard=top)[1]
        assert body["enough"] is False, body
    # A fourth 2 may join the aces: 2 2 2 and A A 2.
    body = opening(api, deal=1, ranks={"2": 4, "A": 2}, top_discard="2")[1]
    assert body["enough"] is True
    # Without wild books no meld takes a wild card, however many the hand holds.
    body = opening(
        api, ruleset="no-wild-books", deal=1, ranks={"joker": 2, "A": 4}, top_discard="joker"
    )[1]
    assert body["enough"] is False
    assert body["message"] == (
        "Not enough: these rules have no wild books, so no meld can take a wild card from the "
        "top of the discard pile."
    )
    # The same cards drawn, not picked up: the aces meld and carry the jokers.
    assert opening(api, ruleset="no-wild-books", deal=1, ranks={"joker": 2, "A": 4})[1]["enough"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"cards": {"aces": 3}, "top_discard": "A"}, "goes with the cards given by rank"),
        ({"ranks": {"A": 3}, "top_discard": "3"}, "must be a rank: joker, 2, A"),
        ({"ranks": {"A": 3}, "top_discard": 4}, "must be a rank: joker, 2, A"),
        ({"ranks": {"A": 3}, "top_discard": "K"}, "one of the cards given by rank"),
    ],
)
def test_a_top_discard_that_cannot_be_is_400(api: Api, body: dict[str, Any], message: str) -> None:
    status, answer = opening(api, deal=1, **body)
    assert status == 400
    assert [p["field"] for p in answer["errors"]] == ["top_discard"]
    assert message in answer["errors"][0]["message"]


@pytest.mark.parametrize(
    ("body", "field", "kinds"),
    [
        (
            {"cards": {"aces": 3, "kings": 3}},
            "cards.kings",
            "jokers, twos, aces, eights_to_kings, fours_to_sevens",
        ),
        ({"ranks": {"A": 3, "3": 3}}, "ranks.3", "joker, 2, A, K, Q, J, 10, 9, 8, 7, 6, 5, 4"),
    ],
)
def test_an_unknown_kind_of_card_is_400_naming_the_kinds(
    api: Api, body: dict[str, Any], field: str, kinds: str
) -> None:
    status, answer = opening(api, deal=1, **body)
    assert status == 400
    assert answer["errors"] == [
        {
            "team": None,
            "field": field,
            "message": f"{field} is not a kind of card to meld; the kinds are {kinds}.",
        }
    ]


def test_saskatchewans_canasta_given_by_rank_is_of_one_rank(api: Api) -> None:
    # Seed 003: "en komplet meld på syv kort": seven kings, not four kings and three queens.
    sask = {"ruleset": "saskatchewan", "deal": 4}
    assert opening(api, **sask, ranks={"K": 7})[1]["enough"] is True
    assert opening(api, **sask, ranks={"K": 4, "Q": 3})[1]["enough"] is False
    assert opening(api, **sask, ranks={"K": 5, "joker": 2})[1]["enough"] is True


def test_points_no_cards_can_count_are_422(api: Api) -> None:
    status, body = opening(api, deal=1, points=52)
    assert status == 422
    assert body["errors"] == [
        {
            "team": None,
            "field": "points",
            "message": "No opening counts 52 points: every card counts a multiple of 5.",
        }
    ]
    assert opening(api, deal=1, points=55)[1]["enough"] is True


def test_saskatchewans_last_deal_says_a_concealed_canasta(api: Api) -> None:
    # Seed 003: deal 4 needs "en skjult canasta (dvs. en komplet meld på syv kort samlet i
    # din hånd …)": four jokers (200 points) are no canasta, seven kings are one.
    status, body = opening(api, ruleset="saskatchewan", deal=4, cards={"jokers": 4})
    assert status == 200
    assert body["concealed_book"] and not body["enough"]
    assert body["message"] == (
        "Not enough: deal 4 opens with a concealed book (canasta) from the player's own hand, "
        "and these cards hold none."
    )
    for cards in ({"eights_to_kings": 7}, {"aces": 4, "jokers": 3}, {"jokers": 7}):
        status, body = opening(api, ruleset="saskatchewan", deal=4, cards=cards)
        assert (status, body["enough"], body["short"]) == (200, True, 0), cards
        assert body["message"].startswith("Enough: these cards hold a complete book (canasta)")
    # A canasta beside a card that makes no meld is no opening yet.
    status, body = opening(
        api, ruleset="saskatchewan", deal=4, cards={"eights_to_kings": 7, "aces": 1}
    )
    assert body["enough"] is False
    assert body["message"].startswith("Not enough: no melds yet.")
    # Points alone cannot tell.
    status, body = opening(api, ruleset="saskatchewan", deal=4, points=500)
    assert (status, body["enough"]) == (200, False)
    assert body["message"] == (
        "Deal 4 opens with a concealed book (canasta) from the player's own hand, not with points."
    )
    # Deals 1 to 3 count points as usual.
    assert opening(api, ruleset="saskatchewan", deal=3, cards={"jokers": 3})[1]["enough"] is True


def test_eight_aces_are_no_opening_where_books_have_exactly_seven_cards(api: Api) -> None:
    # Seed 000: a meld has 3 to 7 cards, and no two unfinished melds of one rank.
    status, body = opening(api, deal=1, cards={"aces": 8})
    assert (status, body["value"], body["enough"]) == (200, 160, False)
    assert opening(api, deal=1, cards={"aces": 10})[1]["enough"] is True
    # Saskatchewan's canastas grow: eight aces are one.
    assert opening(api, ruleset="saskatchewan", deal=1, cards={"aces": 8})[1]["enough"] is True


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"cards": {"red_threes": 1}}, "cards.red_threes"),
        ({"cards": {"black_threes": 1}}, "cards.black_threes"),
        ({"cards": {"aces": -1}}, "cards.aces"),
        ({"cards": {"aces": "2"}}, "cards.aces"),
        ({"cards": [1, 2]}, "cards"),
        ({"points": 10**9}, "points"),
        ({}, "cards"),
        ({"cards": {}, "points": 50}, "cards"),
        ({"ranks": {"3": 1}}, "ranks.3"),
        ({"ranks": {"aces": 1}}, "ranks.aces"),
        ({"ranks": {"K": -1}}, "ranks.K"),
        ({"ranks": {"K": True}}, "ranks.K"),
        ({"ranks": "K K K"}, "ranks"),
        ({"ranks": {"K": 3}, "points": 50}, "ranks"),
        ({"cards": {"aces": 3}, "ranks": {"K": 3}}, "cards"),
        ({"deal": 5}, "deal"),
        ({"ruleset": "no-such-rules"}, "ruleset"),
        ({"extra": 1, "points": 50}, "extra"),
    ],
)
def test_a_malformed_opening_question_names_its_field(
    api: Api, body: dict[str, Any], field: str
) -> None:
    status, answer = opening(api, **body)
    assert status == 400
    assert field in [p["field"] for p in answer["errors"]]


def go_out(api: Api, teams: list[dict[str, Any]], **more: Any) -> Any:
    body = {"ruleset": "standard", "deal": 1, "teams": teams, **more}
    response = api.post("/api/go-out", body)
    return response.status_code, response.get_json()


def test_partners_see_what_they_still_need_to_go_out(api: Api) -> None:
    status, body = go_out(
        api,
        [
            {"clean_books": 2, "dirty_books": 1, "players": 2, "in_foot": 1},
            {"clean_books": 2, "dirty_books": 2, "wild_books": 1, "players": 2, "in_foot": 2},
        ],
    )
    assert status == 200
    first, second = body["teams"]
    assert first["missing"] == {"clean": 0, "dirty": 1, "wild": 1}
    assert first["feet_missing"] == 1 and not first["ready"]
    assert first["message"] == (
        "Not yet: 1 dirty and 1 wild book to go; 1 player still has to play from the foot."
    )
    assert second["ready"]
    assert second["message"] == "Ready to go out (ask the partner first)."


def test_a_black_three_book_is_a_clean_book_for_going_out(api: Api) -> None:
    # Seed 003 (Brouillette): "Sorte trekanter kan bruges til at skabe en ren meld".
    team = {"dirty_books": 1, "black_three_books": 1, "players": 1, "in_foot": 1}
    status, body = go_out(api, [team], ruleset="brouillette")
    assert (status, body["teams"][0]["ready"]) == (200, True)
    status, body = go_out(api, [team], ruleset="brouillette", deal=4)  # two of each
    assert body["teams"][0]["missing"] == {"clean": 1, "dirty": 1, "wild": 0}
    # One meld of each rank: a second black-three book is no second clean book.
    two = {**team, "dirty_books": 2, "black_three_books": 2}
    status, body = go_out(api, [two], ruleset="brouillette", deal=4)
    assert body["teams"][0]["missing"] == {"clean": 1, "dirty": 0, "wild": 0}


def test_a_player_alone_needs_only_the_books_and_their_foot(api: Api) -> None:
    status, body = go_out(api, [{"clean_books": 1, "players": 1}], ruleset="simpson")
    assert status == 200
    (team,) = body["teams"]
    assert team["message"] == "Not yet: 1 dirty book to go; pick up the foot first."
    assert not team["permission"]


@pytest.mark.parametrize(
    ("ruleset", "teams", "field", "message"),
    [
        (
            "no-wild-books",
            [{"clean_books": 2, "dirty_books": 2, "wild_books": 1, "players": 2}],
            "teams[0].wild_books",
            "Team A reports 1 wild book, but these rules have no wild books.",
        ),
        ("simpson", [{"clean_books": 2, "players": 2}], "teams[0].players",
         "These rules seat no team of 2 players."),
        ("brouillette-partners", [{}, {"players": 1}], "teams[1].players",
         "These rules seat no team of 1 player."),
        ("standard", [{"players": 4}], "teams[0].players",
         "These rules seat no team of 4 players."),
        ("standard", [{"black_three_books": 1}], "teams[0].black_three_books",
         "Team A reports 1 black-three book, but these rules have no black-three books."),
    ],
)  # fmt: skip
def test_a_team_the_rules_could_never_have_gets_no_answer(
    api: Api, ruleset: str, teams: list[dict[str, Any]], field: str, message: str
) -> None:
    """RULES: the no-wild-books rules have no wild books; Simpson is played alone."""
    status, answer = go_out(api, teams, ruleset=ruleset)
    assert status == 422
    assert answer["errors"] == [{"team": int(field[6]), "field": field, "message": message}]
    # Not told how many play in the team, nothing is refused: a team of the partners' rules
    # is asked about as two partners, a standard team as one player (as before).
    books = {"clean_books": 2, "dirty_books": 2, "in_foot": 1}
    for rules, usual in (("brouillette-partners", 2), ("standard", 1), ("simpson", 1)):
        status, untold = go_out(api, [books], ruleset=rules)
        assert status == 200, rules
        assert untold == go_out(api, [{**books, "players": usual}], ruleset=rules)[1], rules
    standard = go_out(api, [books], ruleset="standard")[1]
    assert standard != go_out(api, [{**books, "players": 2}], ruleset="standard")[1]


def test_more_players_in_the_foot_than_the_team_has_are_422(api: Api) -> None:
    status, answer = go_out(api, [{}, {"players": 2, "in_foot": 3}])
    assert status == 422
    assert answer["errors"] == [
        {
            "team": 1,
            "field": "teams[1].in_foot",
            "message": "Team B has 2 players, so 3 cannot be in the foot.",
        }
    ]
    # Not told, a team has at least as many players as are in the foot.
    status, untold = go_out(api, [{"in_foot": 2}])
    assert (status, untold) == (200, go_out(api, [{"players": 2, "in_foot": 2}])[1])
    assert go_out(api, [{"in_foot": 4}])[0] == 422  # no standard team has four


@pytest.mark.parametrize(
    ("teams", "field"),
    [
        ([{"players": 0}], "teams[0].players"),
        ([{"clean_books": 61}], "teams[0].clean_books"),
        ([{"in_foot": 9}], "teams[0].in_foot"),
        ([{"wings": 1}], "teams[0].wings"),
        (["team"], "teams[0]"),
        ([], "teams"),
        ("two", "teams"),
    ],
)
def test_a_malformed_go_out_question_names_its_field(api: Api, teams: Any, field: str) -> None:
    status, answer = go_out(api, teams)
    assert status == 400
    assert field in [p["field"] for p in answer["errors"]]
    # A team's own field names the team, as /api/score's errors do.
    team = 0 if field.startswith("teams[") else None
    assert [p["team"] for p in answer["errors"] if p["field"] == field] == [team]


def test_the_calculators_answer_without_signing_in_when_the_table_has_a_passcode(
    api: Api, app: Flask, new_game: Callable[..., int]
) -> None:
    with app.app_context():
        set_passcode("secret table")
    assert opening(api, points=90)[0] == 200
    assert go_out(api, [{}])[0] == 200
    assert (
        api.post("/api/score", {"ruleset": "standard", "deal": 1, "teams": [{}, {}]}).status_code
        == 200
    )
    # Writing still needs it.
    assert api.post("/api/games", {"ruleset": "standard"}).status_code == 401
