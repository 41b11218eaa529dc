"""The quick reading of a game for its pages: the same view as the models give, kept right."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from flask import Flask
from sql_support import watch_sql
from sqlalchemy import text
from svc_support import (
    going_out,
    pairs,
    play,
    refused,
    standard_deal,
    standard_game,
    staying,
)

from scorekeeper.extensions import db
from scorekeeper.models import Game, Player
from scorekeeper.rules import Cards
from scorekeeper.services import games, players
from scorekeeper.services.errors import NotFound


def _both(game_id: int) -> tuple[games.GameView, games.GameView]:
    db.session.expunge_all()  # the models' view reads the database afresh too
    slow = games.view_game(games.load_game(game_id))
    return games.read_game(game_id), slow


def test_read_game_gives_the_same_view_as_the_models(ctx: Flask) -> None:
    season = players.create_season("Winter")
    game_id = games.start_game(
        "standard", pairs("Ann", "Bob", "Cy", "Di"), season_id=season.id, first_dealer_seat=1
    ).id
    fresh, slow = _both(game_id)
    assert fresh == slow  # no deal yet
    play(game_id, 2)
    deal = games.load_game(game_id).deals[0]
    games.correct_deal(
        game_id, 1, deal.version, [standard_deal()[0], staying(melded=Cards(points=300))]
    )
    fresh, slow = _both(game_id)
    assert fresh == slow
    assert fresh.game.season is not None and fresh.game.season.name == "Winter"
    assert fresh.deals[0].corrected and not fresh.deals[1].corrected
    assert [c.field for c in fresh.game.corrections] == ["melded"]
    assert fresh.team_players == [["Ann", "Bob"], ["Cy", "Di"]]
    assert fresh.dealer(1) == slow.dealer(1) == "Cy"
    assert fresh.stamp == games.change_stamp(game_id)


def test_every_change_to_a_deal_is_seen_at_once(ctx: Flask) -> None:
    game_id = standard_game()
    play(game_id, 1)
    before = games.read_game(game_id)
    deal = games.load_game(game_id).deals[0]
    games.correct_deal(
        game_id, 1, deal.version, [standard_deal()[0], staying(melded=Cards(points=300))]
    )
    after = games.read_game(game_id)
    assert after.totals != before.totals
    assert after == _both(game_id)[1]
    games.undo_last_correction(game_id)
    assert games.read_game(game_id).totals == before.totals
    play(game_id, 3)
    finished = games.read_game(game_id)
    assert finished.finished and len(finished.deals) == 4
    assert finished.stamp == games.change_stamp(game_id)


def test_names_are_read_afresh_even_while_the_scores_are_kept(ctx: Flask) -> None:
    game_id = standard_game()
    play(game_id, 1)
    games.read_game(game_id)
    player = games.load_game(game_id).teams[0].members[0].player
    players.rename_player(player.id, "Renamed")
    view = games.read_game(game_id)
    assert "Renamed" in view.team_players[0]
    assert "Renamed" in view.seats


def test_a_game_with_the_same_number_in_another_database_is_not_mixed_up(
    ctx: Flask,
) -> None:
    # A restored backup can hold another game under the same id and with as many deals:
    # the kept scores are the game's (its uid), never those of the id.
    game_id = standard_game()
    play(game_id, 1)
    first = games.read_game(game_id)
    game = db.session.get(Game, game_id)
    assert game is not None
    result = games.load_game(game_id).deals[0].results[1]
    result.left_points = (result.left_points or 0) + 5
    game.uid = "another-game-same-id"
    db.session.commit()
    second = games.read_game(game_id)
    assert second.totals[1] == first.totals[1] - 5
    assert second == _both(game_id)[1]


def _read_twice(read: Callable[[], object]) -> tuple[int, int]:
    """The queries of a reading: the first time, then again with nothing changed."""
    db.session.commit()
    with watch_sql(db.engine) as queries:
        read()
        first = len(queries)
        queries.clear()
        read()
        again = len(queries)
    return first, again


def _queries(game_id: int) -> tuple[int, int]:
    return _read_twice(lambda: games.read_game(game_id))


def test_a_shown_game_takes_two_to_four_queries(ctx: Flask) -> None:
    game_id = standard_game()
    play(game_id, 2)
    # Game, teams and deals the first time; the scored deals are kept for the next time.
    assert _queries(game_id) == (3, 2)
    deal = games.load_game(game_id).deals[0]
    games.correct_deal(
        game_id, 1, deal.version, [standard_deal()[0], staying(melded=Cards(points=300))]
    )
    # A corrected game also reads its correction log.
    assert _queries(game_id) == (4, 3)


def test_deleted_and_unknown_games_are_not_found(ctx: Flask) -> None:
    game_id = standard_game()
    games.delete_game(game_id)
    refused(NotFound, lambda: games.read_game(game_id))
    refused(NotFound, lambda: games.read_game(404))
    refused(NotFound, lambda: games.read_game(0))


def _listing() -> list[int]:
    """Games of every kind a list shows: corrected, finished, of three teams, deal-less."""
    season = players.create_season("Spring")
    corrected = games.start_game("standard", pairs("Zed", "Bob", "Cy", "Di"), season_id=season.id)
    play(corrected.id, 2)
    deal = games.load_game(corrected.id).deals[0]
    games.correct_deal(
        corrected.id, 1, deal.version, [standard_deal()[0], staying(melded=Cards(points=300))]
    )
    finished = standard_game()
    play(finished, 4)
    three = games.start_game("standard", pairs("Zed", "Eve", "Fay", "Gus", "Hal", "Ida")).id
    empty = standard_game()
    abandoned = standard_game()
    play(abandoned, 1)
    games.abandon_game(abandoned)
    gone = standard_game()
    games.delete_game(gone)
    return [corrected.id, finished, three, empty, abandoned]


def _player_id(name: str) -> int:
    return next(p.id for p in players.all_players() if p.name == name)


def test_a_page_of_games_gives_each_the_same_view_as_reading_it_alone(ctx: Flask) -> None:
    listed = _listing()
    db.session.commit()
    views, total = games.read_games()
    assert total == len(listed)  # the deleted game is not listed
    assert sorted(view.game.id for view in views) == sorted(listed)
    for view in views:
        db.session.expunge_all()
        assert view == games.view_game(games.load_game(view.game.id))
        assert view == games.read_game(view.game.id)
    # Read again from the kept scores, and a page at a time, the views are the same.
    assert games.read_games()[0] == views
    first, _ = games.read_games(page=1, per_page=3)
    second, _ = games.read_games(page=2, per_page=3)
    assert first + second == views
    # A player's games: Zed sat in the corrected game and the three-team game only.
    zeds, count = games.read_games(player_id=_player_id("Zed"))
    assert count == 2
    assert [view.game.id for view in zeds] == [
        v.game.id for v in views if v.game.id in (listed[0], listed[2])
    ]


def _list_queries(**where: int) -> tuple[int, int]:
    return _read_twice(lambda: games.read_games(**where))


def test_a_page_of_games_takes_the_same_few_queries_for_any_number_of_games(
    ctx: Flask,
) -> None:
    first = standard_game()
    play(first, 2)
    # Count, games, teams, logs and deals the first time; the scored deals are kept after.
    assert _list_queries() == (5, 4)
    for _ in range(12):
        play(standard_game(), 3)
    ctx.extensions.pop("scorekeeper.scored_deals")  # nothing kept: every game scored anew
    assert _list_queries() == (5, 4)
    assert _list_queries(player_id=_player_id("Ann")) == (4, 4)
    deal = games.load_game(first).deals[0]
    games.correct_deal(
        first, 1, deal.version, [standard_deal()[0], staying(melded=Cards(points=300))]
    )
    # A corrected game on the page: its deals are scored again, once.
    assert _list_queries() == (5, 4)
    assert _list_queries(page=9) == (2, 2)  # past the last page: nothing to read but the count


def test_a_game_taken_back_to_fewer_deals_and_played_on_is_scored_afresh(ctx: Flask) -> None:
    # A backup restored (by another process, whose kept scores this one cannot see) takes
    # the game back to one deal; the table then enters deal 2 again, differently. The game
    # has as many deals with the same versions as before: its scores must still be new.
    game_id = standard_game()
    play(game_id, 1)
    games.record_deal(game_id, [staying(melded=Cards(points=300)), going_out()])
    before = games.read_game(game_id)
    assert games.read_games()[0] == [before]
    db.session.execute(
        text(
            "DELETE FROM deal_result WHERE deal_id IN "
            "(SELECT id FROM deal WHERE game_id = :game AND number = 2)"
        ),
        {"game": game_id},
    )
    db.session.execute(
        text("DELETE FROM deal WHERE game_id = :game AND number = 2"), {"game": game_id}
    )
    db.session.commit()
    assert len(games.read_game(game_id).deals) == 1
    games.record_deal(game_id, [staying(melded=Cards(points=150)), going_out()])
    again = games.read_game(game_id)
    assert again.totals != before.totals
    assert again == _both(game_id)[1]
    assert games.read_games()[0] == [again]


def test_a_page_past_any_game_is_empty_however_far(ctx: Flask) -> None:
    play(standard_game(), 1)
    for page in (2, 10**6, 10**20):
        assert games.read_games(page=page) == ([], 1)


def test_every_page_holds_the_next_games_newest_first(ctx: Flask) -> None:
    # Pages after the first pick their games before reading them (see read_games): every
    # page, of all games or of one player's, must hold the next ones in the same order.
    days = [date(2025, 3, d) for d in (4, 1, 4, 9, 2, 4, 9, 1, 7, 2, 4)]
    for n, day in enumerate(days):
        names = ("Ann", "Ben", "Cy", "Di") if n % 3 else ("Zed", "Ben", "Cy", "Di")
        game = games.start_game("standard", pairs(*names), played_on=day)
        play(game.id, n % 3)
        if n == 5:
            games.delete_game(game.id)
    db.session.commit()
    order = db.session.scalars(
        db.select(Game.id)
        .where(Game.deleted_at.is_(None))
        .order_by(Game.played_on.desc(), Game.id.desc())
    ).all()
    zed = _player_id("Zed")
    zeds = [g for g in order if any(p.id == zed for p in _seated(g))]
    assert len(order) == 10 and len(zeds) == 4
    for player_id, expected in ((None, order), (zed, zeds)):
        paged: list[games.GameView] = []
        for page in (1, 2, 3, 4):
            views, total = games.read_games(page=page, per_page=3, player_id=player_id)
            assert total == len(expected)
            paged += views
        assert [view.game.id for view in paged] == expected
        assert paged == [games.read_game(game_id) for game_id in expected]
    # As many queries for a later page as for the first.
    assert _list_queries(page=1, per_page=3) == _list_queries(page=3, per_page=3)


def _seated(game_id: int) -> list[Player]:
    return [m.player for t in games.load_game(game_id).teams for m in t.members]
