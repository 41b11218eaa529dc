"""What looks forgotten in a possible deal: hinted at before saving, never refused.

Every player who did not go out still holds a card (seed 001: "Solange du nicht ausmachen
darfst, muss dir nach dem Ablegen mindestens eine Karte bleiben"), so a team with nobody out
and no card left most likely forgot to count its hand and foot.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.rules import PRESETS, CardClass, Cards, TeamTally, deal_hints, validate_deal

STANDARD = PRESETS["standard"]
# Went out; the partner (where there is one) still holds 20 points of cards.
OUT = TeamTally(
    clean_books=2,
    dirty_books=2,
    wild_books=1,
    melded=Cards(points=500),
    left=Cards(points=20),
    went_out=True,
)
STAYED = TeamTally(clean_books=1, melded=Cards(points=300), left=Cards(points=45))


def hints(teams: list[TeamTally], sizes: list[int] | None = None, rules_id: str = "standard"):
    rules = PRESETS[rules_id]
    # Possible deals all: the hint never stands in for a refusal.
    assert validate_deal(rules, 1, teams, None, sizes) == []
    return [(p.team, p.field, p.message) for p in deal_hints(rules, 1, teams, sizes)]


def test_a_team_that_did_not_go_out_and_holds_nothing_is_hinted_at() -> None:
    nothing = replace(STAYED, left=Cards(points=0))
    assert hints([OUT, nothing], [2, 2]) == [
        (
            1,
            "left",
            "Team B did not go out, so each of their 2 players still holds at least one card in "
            "hand or foot, but no card is reported left.",
        )
    ]
    # The seating not told (a calculator): a team is taken to have one player.
    assert hints([OUT, nothing]) == [
        (
            1,
            "left",
            "Team B did not go out, so at least one card is still in hand or foot, but no card "
            "is reported left.",
        )
    ]
    # Cards left counted, none of them: the same.
    assert len(hints([OUT, replace(STAYED, left=Cards.of_counts({}))], [2, 2])) == 1


def test_a_deal_with_cards_left_for_every_player_has_no_hint() -> None:
    assert hints([OUT, STAYED], [2, 2]) == []
    assert hints([OUT, replace(STAYED, left=Cards(points=10))], [2, 2]) == []
    two = Cards.of_counts({CardClass.FOURS_TO_SEVENS: 2})
    assert hints([OUT, replace(STAYED, left=two)], [2, 2]) == []


def test_too_few_cards_for_the_players_still_holding_some() -> None:
    # Two players, one 5-point card between them.
    assert hints([OUT, replace(STAYED, left=Cards(points=5))], [2, 2]) == [
        (
            1,
            "left",
            "Team B reports cards worth 5 left in hand and foot, but 2 of their players did not "
            "go out and each still holds at least one card: cards worth at least 10.",
        )
    ]
    one = Cards.of_counts({CardClass.ACES: 1})
    assert hints([OUT, replace(STAYED, left=one)], [2, 2]) == [
        (
            1,
            "left",
            "Team B reports 1 card left in hand and foot, but 2 of their players did not go out "
            "and each still holds at least one card.",
        )
    ]


def test_the_partner_of_the_player_who_went_out_still_holds_a_card() -> None:
    # Standard partners: the partner did not go out and holds at least one card.
    stayed_with_cards = replace(STAYED, left=Cards(points=30))
    alone_out = replace(OUT, left=Cards(points=0))
    assert hints([alone_out, stayed_with_cards], [2, 2]) == [
        (
            0,
            "left",
            "Team A went out, but their player who did not go out still holds at least one card "
            "in hand or foot, and no card is reported left.",
        )
    ]
    assert hints([OUT, stayed_with_cards], [2, 2]) == []
    # A player alone goes out with nothing left: nothing to hint at.
    assert hints([alone_out, stayed_with_cards, stayed_with_cards], [1, 1, 1]) == []


def test_a_red_three_caught_is_no_card_left_in_its_stead() -> None:
    # Seed 003: a red three is caught in a foot never picked up, "sammen med alle de andre
    # kort": its holder still has the hand and the rest of that foot to count.
    caught = replace(STAYED, left=Cards(points=0), red_threes_caught=2)
    assert [h[0] for h in hints([OUT, caught], [2, 2])] == [1]
    out = TeamTally(clean_books=1, dirty_books=1, melded=Cards(points=300), went_out=True)
    alone = TeamTally(clean_books=1, melded=Cards(points=60), red_threes_caught=1)
    assert [h[0] for h in hints([out, alone], [1, 1], "simpson")] == [1]


def test_a_team_that_melded_nothing_still_holds_every_hand_and_foot() -> None:
    # Nobody of it emptied a hand ("Da du zwei ziehst und eine ablegst, wächst deine Hand",
    # seed 001), so no foot was picked up and every hand holds at least the 13 dealt: 2 hands
    # and 2 feet of 13 cards, worth at least 5 each.
    nothing_melded = TeamTally(left=Cards(points=255))
    assert hints([OUT, nothing_melded], [2, 2]) == [
        (
            1,
            "left",
            "Team B melded nothing, so none of their 2 players emptied a hand or picked up a "
            "foot: their hands and feet hold at least 52 cards besides any red three caught, "
            "worth at least 260, but cards worth 255 are reported left.",
        )
    ]
    assert hints([OUT, replace(nothing_melded, left=Cards(points=260))], [2, 2]) == []
    alone_out = replace(OUT, left=Cards(points=0))
    counted = TeamTally(
        left=Cards.of_counts({CardClass.ACES: 12, CardClass.EIGHTS_TO_KINGS: 13}),
        red_threes_caught=1,
    )
    assert hints([alone_out, counted], [1, 1]) == []
    # 25 cards and the red three caught make the 13 of the hand and the 13 of the foot:
    # nothing to hint at; one card fewer is.
    fewer = replace(
        counted, left=Cards.of_counts({CardClass.ACES: 11, CardClass.EIGHTS_TO_KINGS: 13})
    )
    assert [h[2] for h in hints([alone_out, fewer], [1, 1])] == [
        "Team B melded nothing, so their hand was never emptied and their foot never picked up: "
        "the two hold at least 25 cards besides any red three caught, but 24 are reported left."
    ]
    # Simpson's players pick about 22 cards each and discard red threes at once, so only
    # the foot is sure to be held: 11 cards.
    out = TeamTally(clean_books=1, dirty_books=1, melded=Cards(points=300), went_out=True)
    assert [h[2] for h in hints([out, TeamTally(left=Cards(points=50))], [1, 1], "simpson")] == [
        "Team B melded nothing, so their foot was never picked up: that foot alone holds 11 cards "
        "besides any red three caught, worth at least 55, but cards worth 50 are reported left."
    ]
    assert hints([out, TeamTally(left=Cards(points=55))], [1, 1], "simpson") == []
    # The eleven-card rules deal 11 and 11 and lay red threes: 22 cards.
    eleven = TeamTally(clean_books=1, dirty_books=1, melded=Cards(points=300), went_out=True)
    assert [
        h[2] for h in hints([eleven, TeamTally(left=Cards(points=105))], [1, 1], "eleven-card")
    ] == [
        "Team B melded nothing, so their hand was never emptied and their foot never picked up: "
        "the two hold at least 22 cards besides any red three caught, worth at least 110, but "
        "cards worth 105 are reported left."
    ]


def test_a_team_that_melded_anything_may_hold_less_than_its_feet() -> None:
    # RULES.md's example: a team that melded holds A 8 4 in one hand and a foot in the other.
    melded = TeamTally(melded=Cards(points=60), left=Cards(points=10))
    assert hints([OUT, melded], [2, 2]) == []
    booked = TeamTally(clean_books=1, melded=Cards(points=70), left=Cards(points=10))
    assert hints([OUT, booked], [2, 2]) == []
    # Nothing left at all is still the commoner slip, and said as such.
    assert [h[2] for h in hints([OUT, TeamTally()], [2, 2])] == [
        "Team B did not go out, so each of their 2 players still holds at least one card in hand "
        "or foot, but no card is reported left."
    ]


def test_the_cards_a_player_of_a_team_that_melded_nothing_holds_under_every_preset() -> None:
    # Hand and foot where the packets are dealt exactly and red threes are laid (13 + 13,
    # 11 + 11, Saskatchewan's 11 + 13); the foot alone where players pick their cards and
    # discard red threes at once (Simpson, Brouillette).
    held = {rules_id: rules.unopened_cards for rules_id, rules in PRESETS.items()}
    assert held == {
        "standard": 26,
        "no-wild-books": 26,
        "eleven-card": 22,
        "saskatchewan": 24,
        "simpson": 11,
        "brouillette": 11,
        "brouillette-low": 11,
        "brouillette-partners": 11,
    }
