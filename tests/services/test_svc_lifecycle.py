"""A game as a whole: abandon, delete, restore, list; and house rules a game keeps a copy of."""

from __future__ import annotations

from datetime import date

from flask import Flask
from svc_support import (
    fresh_game,
    going_out,
    pairs,
    play,
    refused,
    snapshot,
    standard_deal,
    standard_game,
    staying,
)

from scorekeeper.extensions import db
from scorekeeper.rules import PRESETS, score_team
from scorekeeper.services import games, rulesets
from scorekeeper.services.errors import Conflict, Invalid, NotFound


def test_an_abandoned_game_takes_no_more_deals_until_restored(ctx: Flask) -> None:
    game_id = standard_game()
    play(game_id, 1)

    games.abandon_game(game_id)

    view = games.view_game(games.load_game(game_id))
    assert view.game.abandoned_at is not None
    assert view.next_deal is None
    assert not view.finished
    refused(Conflict, lambda: games.record_deal(game_id, standard_deal()))
    games.restore_game(game_id)
    assert games.view_game(games.load_game(game_id)).next_deal == 2
    games.record_deal(game_id, standard_deal())
    assert len(fresh_game(game_id).deals) == 2


def test_a_deleted_game_is_hidden_everywhere_until_restored(ctx: Flask) -> None:
    kept, deleted = standard_game(), standard_game()
    play(deleted, 2)
    rows = snapshot()

    games.delete_game(deleted)

    assert [v.game.id for v in games.read_games()[0]] == [kept]
    assert games.read_games()[1] == 1
    refused(NotFound, lambda: games.load_game(deleted))
    refused(NotFound, lambda: games.corrections(deleted))
    refused(NotFound, lambda: games.delete_game(deleted))
    # Soft: every row is still there.
    after = snapshot()
    assert {name: len(r) for name, r in after.items()} == {name: len(r) for name, r in rows.items()}
    games.restore_game(deleted)
    assert len(games.load_game(deleted).deals) == 2
    assert games.read_games()[1] == 2


def test_a_finished_game_is_not_abandoned(ctx: Flask) -> None:
    # It has its result: abandoning it would drop it from the standings without a word.
    game_id = standard_game()
    play(game_id, 4)
    error = refused(Conflict, lambda: games.abandon_game(game_id))
    assert [problem.message for problem in error.problems] == [
        f"Game {game_id} is finished, so it cannot be abandoned. Delete it if it should not count."
    ]


def test_abandoning_twice_keeps_the_first_time(ctx: Flask) -> None:
    game_id = standard_game()
    games.abandon_game(game_id)
    first = fresh_game(game_id).abandoned_at
    games.abandon_game(game_id)
    assert fresh_game(game_id).abandoned_at == first


def test_undoing_a_delete_does_not_undo_an_abandon(ctx: Flask) -> None:
    # One tablet abandons the game, another deletes it: undoing the delete brings it back
    # abandoned; undoing the abandon (the first tablet's) leaves it deleted.
    game_id = standard_game()
    play(game_id, 1)
    games.abandon_game(game_id)
    games.delete_game(game_id)
    games.restore_game(game_id, "delete")
    game = fresh_game(game_id)
    assert game.deleted_at is None
    assert game.abandoned_at is not None

    games.delete_game(game_id)
    games.restore_game(game_id, "abandon")
    game = fresh_game(game_id)
    assert game.abandoned_at is None
    assert game.deleted_at is not None
    games.restore_game(game_id)  # by default, the delete first
    assert fresh_game(game_id).deleted_at is None


def test_restoring_a_game_that_never_existed_is_not_found(ctx: Flask) -> None:
    refused(NotFound, lambda: games.restore_game(77))
    refused(NotFound, lambda: games.abandon_game(77))


def test_games_are_listed_newest_first_a_page_at_a_time(ctx: Flask) -> None:
    ids = [
        games.start_game("standard", pairs("A", "B", "C", "D"), played_on=date(2026, 1, day)).id
        for day in (3, 1, 2)
    ]

    page, total = games.read_games(page=1, per_page=2)
    rest, _ = games.read_games(page=2, per_page=2)

    assert total == 3
    assert [v.game.id for v in page] == [ids[0], ids[2]]
    assert [v.game.id for v in rest] == [ids[1]]
    assert games.read_games(page=0, per_page=2)[0] == page


def test_new_house_rules_start_with_no_description_or_source_of_their_own(ctx: Flask) -> None:
    # The preset's English description would show in every language, as if it were theirs.
    plain = rulesets.resolve(rulesets.create_house_rules("Plain", "simpson", {}).slug)
    assert (plain.description, plain.source, plain.based_on) == ("", "", "simpson")
    told = rulesets.create_house_rules("Told", "simpson", {"description": "Ours.", "source": "Mo"})
    assert (rulesets.resolve(told.slug).description, rulesets.resolve(told.slug).source) == (
        "Ours.",
        "Mo",
    )


def test_editing_house_rules_never_changes_a_game_started_under_them(ctx: Flask) -> None:
    house = rulesets.create_house_rules("Our table", "standard", {"going_out_bonus": 200})
    game_id = int(games.start_game(house.slug, pairs("A", "B", "C", "D")).id)
    play(game_id, 2)
    before = games.view_game(games.load_game(game_id))
    stored_scores = [r.score for d in fresh_game(game_id).deals for r in d.results]
    assert before.rules.going_out_bonus == 200

    rulesets.update_house_rules(
        house.slug, "Our table", {"going_out_bonus": 500, "clean_book_bonus": 1000}
    )

    assert rulesets.resolve(house.slug).going_out_bonus == 500
    after = games.view_game(games.load_game(game_id))
    assert after.rules == before.rules
    assert after.rules.going_out_bonus == 200
    assert after.totals == before.totals
    assert [r.score for d in fresh_game(game_id).deals for r in d.results] == stored_scores
    # New deals and corrections of the old game still score by its own copy.
    games.record_deal(game_id, standard_deal())
    games.correct_deal(game_id, 1, 1, [going_out(red_threes=2), staying()])
    scored = games.view_game(games.load_game(game_id))
    assert scored.deals[2].results[0].score == score_team(before.rules, going_out())
    # A game started now gets the new rules.
    newer = games.start_game(house.slug, pairs("A", "B", "C", "D"))
    assert newer.rules().clean_book_bonus == 1000


def test_deleting_house_rules_leaves_their_games_alone(ctx: Flask) -> None:
    house = rulesets.create_house_rules("Short lived", "standard", {"going_out_bonus": 150})
    game_id = int(games.start_game(house.id, pairs("A", "B", "C", "D")).id)
    play(game_id, 1)

    rulesets.delete_house_rules(house.id)

    view = games.view_game(games.load_game(game_id))
    assert view.rules.going_out_bonus == 150
    assert view.game.ruleset_id == "short-lived"
    refused(NotFound, lambda: games.start_game(house.id, pairs("A", "B", "C", "D")))


def test_impossible_house_rules_are_refused(ctx: Flask) -> None:
    refused(Invalid, lambda: rulesets.create_house_rules("", "standard", {}))
    refused(Invalid, lambda: rulesets.create_house_rules("Odd", "standard", {"book_size": -1}))
    refused(NotFound, lambda: rulesets.create_house_rules("Odd", "no-such-rules", {}))
    house = rulesets.create_house_rules("Fine", "standard", {})
    refused(Invalid, lambda: rulesets.update_house_rules(house.id, "Fine", {"book_size": 0}))
    refused(NotFound, lambda: rulesets.update_house_rules(999, "Fine", {}))
    refused(NotFound, lambda: rulesets.delete_house_rules("no-such-rules"))


def test_two_rules_cannot_share_a_name(ctx: Flask) -> None:
    friday = rulesets.create_house_rules("Friday", "standard", {})
    saturday = rulesets.create_house_rules("Saturday", "standard", {})

    error = refused(Conflict, lambda: rulesets.create_house_rules(" FRIDAY ", "simpson", {}))
    assert [(p.field, p.params["name"]) for p in error.problems] == [("name", "FRIDAY")]
    refused(Conflict, lambda: rulesets.create_house_rules("standard PARTNERSHIP", "standard", {}))
    refused(Conflict, lambda: rulesets.update_house_rules(saturday.id, "friday", {}))
    # Its own name, in another case, is no clash.
    assert rulesets.update_house_rules(friday.id, "FRIDAY", {}).name == "FRIDAY"
    # Two alike kept from before: each can still be changed under its own name, and a name
    # stored with a line break inside is the one typed with a space.
    saturday.name = "friday"
    db.session.commit()
    assert rulesets.update_house_rules(saturday.id, "Friday", {"going_out_bonus": 150})
    friday.name = "Late\nnight"
    db.session.commit()
    refused(Conflict, lambda: rulesets.create_house_rules("late night", "standard", {}))


def test_house_rules_keep_a_slug_of_their_own(ctx: Flask) -> None:
    first = rulesets.create_house_rules("Our table", "standard", {})
    second = rulesets.create_house_rules("Our table!", "standard", {})
    preset_name = rulesets.create_house_rules("Standard", "simpson", {})

    assert (first.slug, second.slug) == ("our-table", "our-table-2")
    assert preset_name.slug == "standard-2"  # never shadows the preset
    assert rulesets.resolve("standard") == PRESETS["standard"]
    assert [r.id for r in rulesets.all_rulesets()][-3:] == [
        "our-table",
        "our-table-2",
        "standard-2",
    ]
