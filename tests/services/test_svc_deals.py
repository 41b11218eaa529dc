"""Recording deals: the whole deal or nothing, the game finishing after its last deal."""

from __future__ import annotations

from dataclasses import replace

import pytest
from flask import Flask
from sql_support import watch_sql
from svc_support import (
    alone,
    fresh_game,
    going_out,
    play,
    refused,
    snapshot,
    standard_deal,
    standard_game,
    staying,
)

from scorekeeper.extensions import db
from scorekeeper.rules import PRESETS, CardClass, Cards, TeamTally, score_team
from scorekeeper.services import games
from scorekeeper.services.errors import Conflict, Invalid, Malformed, NotFound

STANDARD = PRESETS["standard"]


def test_a_deal_is_stored_as_entered_and_scored_by_the_rules(ctx: Flask) -> None:
    game_id = standard_game()
    tallies = [
        going_out(
            melded=Cards.of_counts(
                {
                    CardClass.JOKERS: 7,
                    CardClass.TWOS: 4,
                    CardClass.ACES: 10,
                    CardClass.EIGHTS_TO_KINGS: 20,
                }
            )
        ),
        staying(opening_meld=60, red_threes_caught=1),
    ]

    deal = games.record_deal(game_id, tallies)

    assert (deal.number, deal.version) == (1, 1)
    game = fresh_game(game_id)
    stored = game.deals[0].results
    assert [result.position for result in stored] == [0, 1]
    assert [result.team_id for result in stored] == [team.id for team in game.teams]
    assert stored[0].melded_counts == {
        "jokers": 7,
        "twos": 4,
        "aces": 10,
        "eights_to_kings": 20,
        "fours_to_sevens": 0,
        "black_threes": 0,
    }
    assert stored[0].melded_points is None
    assert (stored[1].melded_points, stored[1].melded_counts) == (260, None)
    assert (stored[1].opening_meld, stored[1].red_threes_caught) == (60, 1)
    for result, tally in zip(stored, tallies, strict=True):
        assert result.tally() == tally
        assert result.score == score_team(STANDARD, tally).score
    view = games.view_game(games.load_game(game_id))
    assert view.totals == [result.score for result in stored]
    assert view.deals[0].running == view.totals
    assert view.next_deal == 2
    assert not view.finished


def test_the_game_finishes_with_its_last_deal(ctx: Flask) -> None:
    game_id = standard_game()
    play(game_id, 3)
    assert fresh_game(game_id).finished_at is None

    games.record_deal(game_id, [staying(), going_out(left=Cards(points=0))])

    view = games.view_game(games.load_game(game_id))
    assert view.finished
    assert view.next_deal is None
    assert view.game.finished_at is not None
    first = score_team(STANDARD, going_out()).score
    second = score_team(STANDARD, staying()).score
    assert view.totals == [
        3 * first + second,
        3 * second + score_team(STANDARD, going_out(left=Cards(points=0))).score,
    ]
    assert view.winner == 0
    assert view.leaders == [0]


def test_a_tie_has_no_winner(ctx: Flask) -> None:
    game_id = standard_game()
    for deal in range(4):
        out = deal % 2
        games.record_deal(game_id, [going_out() if i == out else staying() for i in range(2)])

    view = games.view_game(games.load_game(game_id))
    assert view.finished
    assert view.totals[0] == view.totals[1]
    assert view.leaders == [0, 1]
    assert view.winner is None


def test_entries_made_for_a_deal_another_tablet_saved_first_are_refused(ctx: Flask) -> None:
    game_id = standard_game()
    play(game_id, 1)

    # The form was opened for deal 1; deal 1 is in now, so these entries are not deal 2.
    error = refused(Conflict, lambda: games.record_deal(game_id, standard_deal(), 1), status=409)

    assert error.problems[0].field == "game"
    assert error.problems[0].params == {"deal": 1}
    assert games.record_deal(game_id, standard_deal(), 2).number == 2


def test_saving_a_deal_does_not_read_the_correction_log(ctx: Flask) -> None:
    game_id = standard_game()
    play(game_id, 1)
    deal = games.load_game(game_id).deals[0]
    games.correct_deal(
        game_id, 1, deal.version, [standard_deal()[0], staying(melded=Cards(points=300))]
    )
    db.session.expire_all()
    with watch_sql(db.engine) as queries:
        games.record_deal(game_id, standard_deal(), 2)

    assert queries
    assert not [query for query in queries if "FROM correction" in query]
    # The log is still whole, read when it is asked for.
    assert len(games.load_game(game_id).corrections) == 1


def test_a_fifth_deal_is_a_conflict_and_stores_nothing(ctx: Flask) -> None:
    game_id = standard_game()
    play(game_id, 4)

    error = refused(Conflict, lambda: games.record_deal(game_id, standard_deal()), status=409)

    assert error.problems[0].field == "game"


@pytest.mark.parametrize(
    ("tallies", "field"),
    [
        # Going out without the wild book standard rules require.
        ([going_out(wild_books=0, melded=Cards(points=500)), staying()], "wild_books"),
        ([going_out(), going_out()], "went_out"),
        ([going_out(), staying(melded=Cards(points=12))], "melded"),  # not a card total
        ([going_out(), staying(opening_meld=40)], "opening_meld"),  # deal 1 needs 50
        ([going_out(), staying(red_threes=11)], "red_threes"),  # 5 decks hold 10
        ([going_out(), staying(exact_draws=1)], "exact_draws"),  # no bonus in standard
    ],
    ids=["go-out-short", "two-go-out", "card-total", "opening", "red-threes", "exact-draws"],
)
def test_an_impossible_deal_is_refused_whole(
    ctx: Flask, tallies: list[TeamTally], field: str
) -> None:
    game_id = standard_game()
    games.record_deal(game_id, standard_deal())

    error = refused(Invalid, lambda: games.record_deal(game_id, tallies), status=422)

    assert field in [problem.field for problem in error.problems]
    assert games.view_game(games.load_game(game_id)).next_deal == 2


@pytest.mark.parametrize("count", [1, 3])
def test_a_deal_needs_one_tally_per_team(ctx: Flask, count: int) -> None:
    game_id = standard_game()

    refused(Malformed, lambda: games.record_deal(game_id, [staying()] * count), status=400)


def test_no_deal_for_a_game_that_does_not_exist(ctx: Flask) -> None:
    standard_game()

    refused(NotFound, lambda: games.record_deal(999, standard_deal()), status=404)


def test_no_deal_for_an_abandoned_game(ctx: Flask) -> None:
    game_id = standard_game()
    games.abandon_game(game_id)

    refused(Conflict, lambda: games.record_deal(game_id, standard_deal()))


def test_no_deal_for_a_deleted_game(ctx: Flask) -> None:
    game_id = standard_game()
    games.delete_game(game_id)

    refused(NotFound, lambda: games.record_deal(game_id, standard_deal()))


def test_read_tallies_reports_every_malformed_field(ctx: Flask) -> None:
    game = games.load_game(standard_game())

    with pytest.raises(Malformed) as caught:
        games.read_tallies(game, [{"clean_books": -1}, {"melded": "lots", "went_out": "yes"}])

    problems = {(p.team, p.field) for p in caught.value.problems}
    assert problems == {(0, "clean_books"), (1, "melded"), (1, "went_out")}


@pytest.mark.parametrize("data", [{"teams": []}, "two", None, [{}]])
def test_read_tallies_wants_one_object_per_team(ctx: Flask, data: object) -> None:
    game = games.load_game(standard_game())

    with pytest.raises(Malformed):
        games.read_tallies(game, data)


def test_read_tallies_gives_tallies_in_team_order(ctx: Flask) -> None:
    game = games.load_game(standard_game())

    tallies = games.read_tallies(
        game, [going_out().to_json(), {"clean_books": 1, "melded": 260, "left": 135}]
    )

    assert [replace(t, name="") for t in tallies] == [going_out(), staying()]


def test_two_tablets_recording_the_same_deal_get_a_conflict(ctx: Flask) -> None:
    """Both tablets read the game with no deals; the second save must not become a 500."""
    game_id = standard_game()
    # This tablet's request has read the game, still without deals (and holds on to it,
    # as a request does while it works).
    held = games.load_game(game_id)
    with ctx.app_context():  # another tablet: its own session
        games.record_deal(game_id, standard_deal())
        db.session.remove()
    before = snapshot()

    with pytest.raises(Conflict):
        games.record_deal(game_id, [staying(), going_out()])

    db.session.rollback()
    assert held.id == game_id
    assert snapshot() == before
    assert len(fresh_game(game_id).deals) == 1


def test_a_player_alone_under_partnership_rules_who_went_out_has_no_cards_left(
    ctx: Flask,
) -> None:
    # Five players cannot pair up under the standard rules: each plays on their own, so the
    # one who went out emptied hand and foot, with no partner to hold cards.
    game_id = int(games.start_game("standard", alone("A", "B", "C", "D", "E")).id)
    out = going_out(red_threes=0, left=Cards(points=35))
    error = refused(Invalid, lambda: games.record_deal(game_id, [out, *[TeamTally()] * 4]))
    assert [(p.team, p.field) for p in error.problems] == [(0, "left")]
    assert error.problems[0].message == (
        "A went out, so no cards can be left in hand or foot, but cards worth 35 are reported left."
    )
    # Nothing left: the same deal is saved.
    games.record_deal(game_id, [replace(out, left=Cards()), *[TeamTally()] * 4])
    assert len(fresh_game(game_id).deals) == 1
