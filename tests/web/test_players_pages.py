"""The players pages: the list, one player, rename, merge two entries for one person."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Player, TeamMember
from scorekeeper.services import games as game_service
from scorekeeper.services.games import TeamSpec


def seat(app: Flask, *teams: tuple[str, str]) -> int:
    with app.app_context():
        game = game_service.start_game(
            "standard", [TeamSpec(name="", players=list(team)) for team in teams]
        )
        return int(game.id)


def player_id(app: Flask, name: str) -> int:
    with app.app_context():
        player = db.session.scalar(db.select(Player).filter_by(name=name))
        assert player is not None, name
        return int(player.id)


def names(app: Flask) -> list[str]:
    with app.app_context():
        return [p.name for p in db.session.scalars(db.select(Player).order_by(Player.name))]


def games_of(client: FlaskClient, name: str) -> int:
    page = client.get("/players").get_data(as_text=True)
    found = re.search(rf">{re.escape(name)}</a></td>\s*<td class=\"num\">(\d+)</td>", page)
    assert found, name
    return int(found.group(1))


def test_players_list_counts_games(app: Flask, client: FlaskClient) -> None:
    assert "appear here once" in client.get("/players").get_data(as_text=True)
    seat(app, ("Ann", "Ben"), ("Cid", "Dee"))
    seat(app, ("Ann", "Eve"), ("Cid", "Fay"))
    assert games_of(client, "Ann") == 2
    assert games_of(client, "Eve") == 1
    page = client.get("/players").get_data(as_text=True)
    assert page.index(">Ann<") < page.index(">Ben<") < page.index(">Fay<")


def test_deleted_games_are_not_counted(app: Flask, client: FlaskClient) -> None:
    game = seat(app, ("Ann", "Ben"), ("Cid", "Dee"))
    seat(app, ("Ann", "Eve"), ("Cid", "Fay"))
    client.post(f"/games/{game}/delete")
    assert games_of(client, "Ann") == 1
    assert games_of(client, "Ben") == 0


def test_a_player_page_lists_their_games(app: Flask, client: FlaskClient) -> None:
    game = seat(app, ("Ann", "Ben"), ("Cid", "Dee"))
    ben = player_id(app, "Ben")
    # The player page has no statistics before a game is finished; it shows the game in
    # progress, and links every game.
    page = client.get(f"/players/{ben}").get_data(as_text=True)
    assert "<h1>Ben</h1>" in page
    assert "Ben has not finished a game yet." in page
    playing = page[page.index('id="playing-heading"') :]
    assert f'href="/games/{game}"' in playing
    assert "Team: Ann &amp; Ben" in playing
    assert f'href="/players/{ben}/games"' in page
    page = client.get(f"/players/{ben}/games").get_data(as_text=True)
    assert "<h1>Games of Ben</h1>" in page
    assert f'href="/players/{ben}"' in page
    assert "1 game" in page
    assert f'href="/games/{game}"' in page
    assert "Team: Ann &amp; Ben" in page
    assert "Played alone" not in page


def test_a_player_alone_is_not_called_a_team_in_their_games(
    app: Flask, client: FlaskClient
) -> None:
    with app.app_context():
        game_service.start_game("simpson", [TeamSpec("", [n]) for n in ("Ann", "Cid")])
    page = client.get(f"/players/{player_id(app, 'Ann')}/games").get_data(as_text=True)
    assert "Played alone" in page
    assert "Team: " not in page


def test_rename(app: Flask, client: FlaskClient) -> None:
    seat(app, ("Ann", "Ben"), ("Cid", "Dee"))
    ben = player_id(app, "Ben")
    form = client.get(f"/players/{ben}/rename").get_data(as_text=True)
    assert 'value="Ben"' in form
    done = client.post(f"/players/{ben}/rename", data={"name": "  Benjamin "})
    assert done.status_code == 302
    page = client.get(done.headers["Location"]).get_data(as_text=True)
    assert "Ben is now called Benjamin." in page
    assert names(app) == ["Ann", "Benjamin", "Cid", "Dee"]


def test_rename_to_an_existing_name_suggests_merging(app: Flask, client: FlaskClient) -> None:
    seat(app, ("Ann", "Ben"), ("Cid", "Dee"))
    seat(app, ("Anne", "Eve"), ("Cid", "Fay"))
    anne, ann = player_id(app, "Anne"), player_id(app, "Ann")
    response = client.post(f"/players/{anne}/rename", data={"name": "ann"})
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "ann already exists; merge the two entries instead." in page
    assert f'href="/players/merge?keep={ann}&amp;merge={anne}"' in page
    assert 'value="ann"' in page  # what was typed stays
    assert "Anne" in names(app)
    # The same with a zero-width space after it, or in another case of an accented name.
    hidden = client.post(f"/players/{anne}/rename", data={"name": "ANN\u200b"})
    assert hidden.status_code == 409
    assert f'href="/players/merge?keep={ann}&amp;merge={anne}"' in hidden.get_data(as_text=True)


def test_renaming_to_the_same_name_says_nothing_changed(app: Flask, client: FlaskClient) -> None:
    seat(app, ("Ann", "Ben"), ("Cid", "Dee"))
    done = client.post(f"/players/{player_id(app, 'Ben')}/rename", data={"name": " Ben "})
    assert done.status_code == 302
    page = client.get(done.headers["Location"]).get_data(as_text=True)
    assert "Nothing changed: the name is still Ben." in page
    assert "Ben is now called Ben" not in page


def test_a_merge_link_naming_one_entry_offers_another_beside_it(
    app: Flask, client: FlaskClient
) -> None:
    """From a player's page ("merge with another entry"), the lists never start on the same
    player twice, which could only be refused."""
    seat(app, ("Ann", "Ben"), ("Cid", "Dee"))
    ann, ben = player_id(app, "Ann"), player_id(app, "Ben")

    def chosen(url: str) -> tuple[str, str]:
        page = client.get(url).get_data(as_text=True)
        keep, merge = (
            re.search(r'<option selected value="(\d+)"', page.split(f'name="{name}"', 1)[1])
            for name in ("keep", "merge")
        )
        assert keep and merge, url
        return keep.group(1), merge.group(1)

    assert chosen(f"/players/merge?merge={ann}") == (str(ben), str(ann))
    assert chosen(f"/players/merge?merge={ben}") == (str(ann), str(ben))
    assert chosen(f"/players/merge?keep={ann}") == (str(ann), str(ben))
    assert chosen(f"/players/merge?keep={ann}&merge={ann}") == (str(ann), str(ben))


@pytest.mark.parametrize("typed", ["", "   ", "x" * 81])
def test_rename_refuses_empty_or_long_names(app: Flask, client: FlaskClient, typed: str) -> None:
    seat(app, ("Ann", "Ben"), ("Cid", "Dee"))
    response = client.post(f"/players/{player_id(app, 'Ben')}/rename", data={"name": typed})
    assert response.status_code in (400, 422)
    assert 'class="error"' in response.get_data(as_text=True)
    assert "Ben" in names(app)


def test_merge_asks_first_then_moves_the_games(app: Flask, client: FlaskClient) -> None:
    seat(app, ("Ann", "Ben"), ("Cid", "Dee"))
    seat(app, ("Anne", "Eve"), ("Cid", "Fay"))
    ann, anne = player_id(app, "Ann"), player_id(app, "Anne")
    chooser = client.get(f"/players/merge?keep={ann}&merge={anne}").get_data(as_text=True)
    assert re.search(rf'<option selected value="{ann}">Ann</option>', chooser)

    confirm = client.post("/players/merge", data={"keep": ann, "merge": anne})
    assert confirm.status_code == 200
    page = confirm.get_data(as_text=True)
    assert "Merge these entries?" in page
    assert "Anne (1 game) becomes part of Ann (1 game)" in page
    assert "Anne" in names(app)  # nothing happens before the confirmation

    done = client.post("/players/merge", data={"keep": ann, "merge": anne, "confirm": "yes"})
    assert done.status_code == 302
    assert done.headers["Location"].endswith(f"/players/{ann}")
    assert "Anne was merged into Ann." in client.get(done.headers["Location"]).get_data(
        as_text=True
    )
    assert "Anne" not in names(app)
    assert games_of(client, "Ann") == 2
    with app.app_context():
        assert db.session.query(TeamMember).filter_by(player_id=anne).count() == 0


def test_merge_refuses_one_person_twice_or_partners(app: Flask, client: FlaskClient) -> None:
    seat(app, ("Ann", "Ben"), ("Cid", "Dee"))
    ann, ben = player_id(app, "Ann"), player_id(app, "Ben")
    same = client.post("/players/merge", data={"keep": ann, "merge": ann, "confirm": "yes"})
    assert same.status_code == 400
    assert "Choose two different entries." in same.get_data(as_text=True)

    partners = client.post("/players/merge", data={"keep": ann, "merge": ben, "confirm": "yes"})
    assert partners.status_code == 409
    assert "played in the same game, so they are two people" in partners.get_data(as_text=True)
    # Opponents at one table are two people too, and the message must not call them partners.
    cid = player_id(app, "Cid")
    rivals = client.post("/players/merge", data={"keep": ann, "merge": cid, "confirm": "yes"})
    assert rivals.status_code == 409
    assert "Ann and Cid played in the same game" in rivals.get_data(as_text=True)
    assert names(app) == ["Ann", "Ben", "Cid", "Dee"]
    # Told before the confirmation is asked, not after "Yes, merge them".
    asked = client.post("/players/merge", data={"keep": ann, "merge": ben})
    assert asked.status_code == 409
    page = asked.get_data(as_text=True)
    assert "Ann and Ben played in the same game, so they are two people." in page
    assert "cannot be undone" not in page


@pytest.mark.parametrize(
    "data", [{"keep": "abc", "merge": "1"}, {"keep": "999", "merge": "1"}, {}, {"confirm": "yes"}]
)
def test_merge_garbage_is_no_server_error(
    app: Flask, client: FlaskClient, data: dict[str, str]
) -> None:
    seat(app, ("Ann", "Ben"), ("Cid", "Dee"))
    response = client.post("/players/merge", data=data)
    assert response.status_code == 400
    assert len(names(app)) == 4


@pytest.mark.parametrize("url", ["/players/999", "/players/999/rename"])
def test_unknown_player_is_a_friendly_404(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert "There is no player 999." in response.get_data(as_text=True)
