"""The change stamp another tablet polls: it moves with everything the score sheet shows."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from svc_support import play, refused, standard_deal, standard_game, staying

from scorekeeper.rules import Cards
from scorekeeper.services import games
from scorekeeper.services.errors import NotFound


def test_the_stamp_moves_with_every_change_and_only_then(ctx: Flask) -> None:
    game_id = standard_game()
    seen = [games.change_stamp(game_id)]
    assert games.change_stamp(game_id) == seen[-1]  # reading changes nothing

    def changed() -> None:
        stamp = games.change_stamp(game_id)
        assert stamp not in seen
        seen.append(stamp)

    play(game_id, 1)
    changed()
    deal = games.load_game(game_id).deals[0]
    games.correct_deal(
        game_id, 1, deal.version, [standard_deal()[0], staying(melded=Cards(points=300))]
    )
    changed()
    games.undo_last_correction(game_id)
    changed()
    games.abandon_game(game_id)
    changed()
    games.restore_game(game_id)
    play(game_id, 3)  # the last deal finishes the game
    changed()


def test_an_unknown_game_has_no_stamp(ctx: Flask) -> None:
    refused(NotFound, lambda: games.change_stamp(404))


def test_the_stamp_is_served_uncached(client: FlaskClient, app: Flask) -> None:
    with app.app_context():
        game_id = standard_game()
    response = client.get(f"/games/{game_id}/stamp")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    with app.app_context():
        assert response.get_json() == {"stamp": games.change_stamp(game_id)}
    assert client.get("/games/404/stamp").status_code == 404
