"""The home page: a new game one tap away, and the games still being played to pick up again."""

from __future__ import annotations

import json
import re
from datetime import date

from flask import Flask
from flask.testing import FlaskClient
from sql_support import watch_sql
from sqlalchemy import text

from scorekeeper.extensions import db
from scorekeeper.rules import Cards, TeamTally
from scorekeeper.services import games

OUT = TeamTally(clean_books=2, dirty_books=2, wild_books=1, melded=Cards(points=400), went_out=True)
STAY = TeamTally(clean_books=1, dirty_books=1, melded=Cards(points=200), left=Cards(points=50))


def start(app: Flask, played_on: date, deals: int = 0) -> int:
    with app.app_context():
        game = games.start_game(
            "standard",
            [games.TeamSpec("", ["Ann", "Ben"]), games.TeamSpec("", ["Cid", "Dee"])],
            played_on=played_on,
        )
        for _ in range(deals):
            games.record_deal(game.id, [OUT, STAY])
        return int(game.id)


def listed(page: str) -> list[int]:
    """The games the page lists, in order."""
    return [int(n) for n in re.findall(r'class="game-title"><a href="/games/(\d+)"', page)]


def test_a_new_table_finds_the_new_game_button_and_no_games(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert re.search(
        r'<a class="button button-primary button-large" href="/games/new">New game</a>', page
    )
    assert 'href="/rules">Choose the rules</a>' in page
    assert "Games in progress" not in page
    assert listed(page) == []


def test_only_the_games_still_being_played_are_offered_with_their_next_deal(
    app: Flask, client: FlaskClient
) -> None:
    finished = start(app, date(2026, 12, 3), deals=4)
    abandoned = start(app, date(2026, 12, 3), deals=1)
    deleted = start(app, date(2026, 12, 3))
    older = start(app, date(2026, 11, 28))
    newer = start(app, date(2026, 12, 1), deals=2)
    with app.app_context():
        games.abandon_game(abandoned)
        games.delete_game(deleted)
    page = client.get("/").get_data(as_text=True)
    assert "Games in progress" in page
    assert listed(page) == [newer, older]
    assert f'href="/games/{newer}/deals/new">Enter deal 3</a>' in page
    assert f'href="/games/{older}/deals/new">Enter deal 1</a>' in page
    assert "2 of 4 deals played" in page
    assert not {finished, abandoned, deleted} & set(listed(page))
    assert "All games" not in page  # nothing more to see than what is here


def test_three_games_at_most_then_a_link_to_all_in_as_many_queries(
    app: Flask, client: FlaskClient
) -> None:
    ids = [start(app, date(2026, 11, day)) for day in (1, 2, 3)]
    with app.app_context(), watch_sql(db.engine) as three:
        assert client.get("/").status_code == 200
    ids += [start(app, date(2026, 11, day), deals=1) for day in (4, 5)]
    with app.app_context(), watch_sql(db.engine) as five:
        page = client.get("/").get_data(as_text=True)
    assert listed(page) == [ids[4], ids[3], ids[2]]
    assert 'href="/games">All games</a>' in page
    assert len(five) == len(three)


def test_a_game_in_progress_that_cannot_be_read_does_not_take_the_home_page_down(
    app: Flask, client: FlaskClient
) -> None:
    game = start(app, date(2026, 12, 1), deals=1)
    with app.app_context():
        stored = json.loads(
            db.session.execute(
                text("SELECT CAST(ruleset AS TEXT) FROM game WHERE id = :id"), {"id": game}
            ).scalar_one()
        )
        db.session.execute(
            text("UPDATE game SET ruleset = :ruleset WHERE id = :id"),
            {"ruleset": json.dumps({**stored, "no_such_rule": 1}), "id": game},
        )
        db.session.commit()
        games.forget_scored_deals()
    response = client.get("/")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "A game in progress cannot be shown here." in page
    assert f"The rules kept with game {game} are damaged" in page
    assert f'href="/games/{game}">What to do about game {game}</a>' in page
    assert 'href="/games">All games</a>' in page  # where the other games still are
    assert 'href="/games/new">New game</a>' in page
    # The link leads where the damage is named and the game can be put aside: not the list
    # of games, whose first page may not hold the damaged game at all.
    damaged = client.get(f"/games/{game}")
    assert damaged.status_code == 409
    assert f'href="/games/{game}/delete"' in damaged.get_data(as_text=True)
    # Its players' pages answer too, without their games in progress (one cannot be read).
    with app.app_context():
        player = db.session.scalar(
            text(
                "SELECT player_id FROM team_member JOIN team ON team.id = team_member.team_id "
                "WHERE team.game_id = :id"
            ),
            {"id": game},
        )
    own = client.get(f"/players/{player}")
    assert own.status_code == 200
    assert 'id="playing-heading"' not in own.get_data(as_text=True)


def test_a_damaged_game_in_progress_is_named_even_when_the_games_list_would_not_show_it(
    app: Flask, client: FlaskClient
) -> None:
    game = start(app, date(2020, 1, 4), deals=1)
    newer = [start(app, date(2026, 11, 1 + day), deals=1) for day in range(21)]
    with app.app_context():
        for other in newer:
            games.abandon_game(other)
        db.session.execute(
            text(
                "UPDATE deal_result SET special_books = :value WHERE position = 1 AND deal_id "
                "= (SELECT id FROM deal WHERE game_id = :id AND number = 1)"
            ),
            {"value": json.dumps({"sevens": "two"}), "id": game},
        )
        db.session.commit()
        games.forget_scored_deals()
    assert client.get("/games").status_code == 200  # its first page holds newer games only
    page = client.get("/").get_data(as_text=True)
    assert f"in deal 1 of game {game} is damaged" in page
    assert f'href="/games/{game}">What to do about game {game}</a>' in page
    german = client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Laufende Partien" in german
    assert f">Was mit Partie {game} zu tun ist</a>" in german
