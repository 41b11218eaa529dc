"""Every HTML form refuses a POST without its CSRF token, and the refusal changes nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from database_support import all_rows, database_url
from flask import Flask, url_for
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import auth, create_app
from scorekeeper.extensions import db
from scorekeeper.services import games, players

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def hidden(html: str) -> dict[str, str]:
    """A page's hidden inputs, their attributes in any order (WTForms writes the name first)."""
    fields = {}
    for tag in re.findall(r'<input[^>]*type="hidden"[^>]*>', html):
        name = re.search(r' name="([^"]+)"', tag)
        value = re.search(r' value="([^"]*)"', tag)
        if name and value:
            fields[name.group(1)] = unescape(value.group(1))
    return fields


NEW_GAME = {
    "ruleset": "standard",
    "seating": "2x2",
    "played_on": "2026-11-29",
    "t0-p0": "Ann",
    "t0-p1": "Ben",
    "t1-p0": "Cid",
    "t1-p1": "Dee",
}
FIRST_DEAL = [{"clean_books": 1, "melded": 300, "opening_meld": 60}, {"left": 40}]


def make_app(tmp_path: Path, *, csrf: bool) -> Flask:
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path / "csrf.sqlite"),
            "WTF_CSRF_ENABLED": csrf,
        },
        instance_path=str(tmp_path / "instance"),
    )
    with app.app_context():
        db.create_all()
        season = players.create_season("Winter")
        for _ in range(2):
            game = games.start_game(
                "standard",
                [games.TeamSpec("", ["Ann", "Ben"]), games.TeamSpec("", ["Cid", "Dee"])],
                season_id=season.id,
            )
            games.record_deal(game.id, games.tallies_from_mapping(FIRST_DEAL))
    return app


@pytest.fixture
def csrf_app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(tmp_path, csrf=True)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def snapshot(app: Flask) -> dict[str, int]:
    with app.app_context():
        db.session.remove()
        return {
            table.name: db.session.scalar(select(func.count()).select_from(table)) or 0
            for table in db.metadata.sorted_tables
        }


def form_posts(app: Flask) -> list[str]:
    """Every POST address outside the JSON API, ids filled in with rows that exist."""
    values = {"game_id": 1, "player_id": 1, "season_id": 1, "number": 1, "slug": "x"}
    urls = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if "POST" in (rule.methods or ()) and not rule.rule.startswith("/api"):
                urls.append(url_for(rule.endpoint, **{a: values[a] for a in rule.arguments}))
    return sorted(urls)


def test_every_form_refuses_a_post_without_its_token(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    urls = form_posts(csrf_app)
    # The discovery finds the forms of every area, sign-in and settings included.
    for expected in ("/games/new", "/games/1/deals/new", "/settings", "/sign-in", "/sign-out"):
        assert expected in urls
    assert len(urls) >= 15
    before = snapshot(csrf_app)
    passcode = Path(csrf_app.instance_path) / "passcode"
    for url in urls:
        data = {**NEW_GAME, "name": "Renamed", "new": "abcdef", "confirm": "abcdef", "save": "1"}
        response = client.post(url, data=data)
        assert response.status_code == 400, url
        wrong = client.post(url, data={**data, "csrf_token": "forged"})
        assert wrong.status_code == 400, url
    assert snapshot(csrf_app) == before
    assert not passcode.exists()


# What the forms of a game write with: a new game, a deal, a correction of deal 1.
WRITING = {
    **NEW_GAME,
    "went_out": "0",
    "t0-clean_books": "2",
    "t0-dirty_books": "2",
    "t0-wild_books": "1",
    "t0-melded": "500",
    "t1-melded": "100",
    "t1-left": "50",
    "version": "1",
    "name": "Renamed",
    "save": "1",
}


@pytest.mark.parametrize("csrf", [True, False])
def test_a_head_request_never_writes(tmp_path: Path, csrf: bool) -> None:
    # HEAD is a read to CSRF and to the passcode; a view that took it for a POST would let
    # a cross-site request (or a link prefetcher) start, save, abandon or delete games.
    app = make_app(tmp_path, csrf=csrf)
    client = app.test_client()
    urls = [url for url in form_posts(app) if client.get(url).status_code != 405]
    assert {"/games/new", "/games/1/deals/new", "/games/1/abandon", "/games/1/delete"} <= set(urls)
    before = all_rows(app)
    for url in urls:
        assert client.head(url, data=WRITING).status_code < 500, url
    assert all_rows(app) == before
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.mark.parametrize("body", ["[1, 2]", '"text"', "5", '{"name": [1, 2], "keep": {}}'])
def test_a_form_posted_as_json_is_refused_plainly(csrf_app: Flask, body: str) -> None:
    client = csrf_app.test_client()
    page = client.get("/games/new?ruleset=standard").get_data(as_text=True)
    found = TOKEN.search(page)
    assert found
    before = all_rows(csrf_app)
    for url in form_posts(csrf_app):
        response = client.post(
            url,
            data=body,
            content_type="application/json",
            headers={"X-CSRFToken": found.group(1)},
        )
        assert response.status_code == 400, url
        assert "not JSON" in response.get_data(as_text=True), url
    assert all_rows(csrf_app) == before


def test_a_deal_refused_for_its_token_comes_back_as_typed(csrf_app: Flask) -> None:
    # The page was opened in a session this browser no longer has (its cookie was lost):
    # the deal typed on it is shown again with a new token, and saves the second time.
    opened = csrf_app.test_client().get("/games/1/deals/new").get_data(as_text=True)
    old_token = TOKEN.search(opened)
    assert old_token
    typed = {"number": "2", "went_out": "none", "t0-clean_books": "1", "t0-melded": "365"}
    before = snapshot(csrf_app)
    browser = csrf_app.test_client()
    refused = browser.post("/games/1/deals/new", data={**typed, "csrf_token": old_token.group(1)})
    assert refused.status_code == 400
    page = refused.get_data(as_text=True)
    assert "Nothing was saved" in page
    assert 'value="365"' in page
    assert snapshot(csrf_app) == before
    new_token = TOKEN.search(page)
    assert new_token and new_token.group(1) != old_token.group(1)
    saved = browser.post("/games/1/deals/new", data={**typed, "csrf_token": new_token.group(1)})
    assert saved.status_code == 302, saved.get_data(as_text=True)
    assert snapshot(csrf_app)["deal"] == before["deal"] + 1


def test_a_deal_past_the_next_refused_for_its_token_says_which_deal_it_will_be(
    csrf_app: Flask,
) -> None:
    # Opened for deal 4 before the game went back to one deal, and its token lost too: the
    # entries come back as deal 2's, saying so, as when the token holds.
    typed = {"number": "4", "went_out": "none", "t0-clean_books": "1", "t0-melded": "365"}
    refused = csrf_app.test_client().post("/games/1/deals/new", data=typed)
    assert refused.status_code == 400
    page = refused.get_data(as_text=True)
    assert "This form was opened for deal 4, but the next deal of this game is 2" in page
    assert 'value="365"' in page


@pytest.mark.parametrize("number", [2, 3, 9])
def test_a_correction_of_an_unplayed_deal_without_its_token_is_refused_plainly(
    csrf_app: Flask, number: int
) -> None:
    # Only deal 1 is played: no form to correct deal 2, 3 or 9 is drawn, and never a 500.
    response = csrf_app.test_client().post(
        f"/games/1/deals/{number}/edit", data={"version": "1", "t0-melded": "100"}
    )
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Nothing was saved" in page
    assert "This form was too old or did not come from this scorekeeper" in page
    assert f"Correct deal {number}" not in page


def test_a_deal_saved_meanwhile_by_another_tablet_shows_both_entries(csrf_app: Flask) -> None:
    # The form was opened for deal 2, which another tablet has saved since: the typed entry
    # is shown beside the saved one, as when the token holds, not as deal 3.
    with csrf_app.app_context():
        second = [{"clean_books": 1, "melded": 300}, {"left": 40}]
        games.record_deal(1, games.tallies_from_mapping(second))
    typed = {"number": "2", "went_out": "none", "t0-clean_books": "1", "t0-melded": "365"}
    response = csrf_app.test_client().post("/games/1/deals/new", data=typed)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Nothing was saved" in page
    assert "365" in page
    assert 'action="/games/1/deals/2/edit"' in page


def test_json_without_a_token_is_told_it_is_not_a_form(csrf_app: Flask) -> None:
    response = csrf_app.test_client().post(
        "/games/1/deals/new", data="[1, 2]", content_type="application/json"
    )
    assert response.status_code == 400
    assert "not JSON" in response.get_data(as_text=True)


def test_a_form_token_holds_as_long_as_its_session(csrf_app: Flask) -> None:
    # A deal can take over an hour: the token is not given a time limit.
    assert csrf_app.config["WTF_CSRF_TIME_LIMIT"] is None


def test_the_same_post_with_its_token_goes_through(csrf_app: Flask) -> None:
    # The control: what the test above refuses is a write that would otherwise happen.
    client = csrf_app.test_client()
    before = snapshot(csrf_app)
    page = client.get("/games/new?ruleset=standard").get_data(as_text=True)
    found = TOKEN.search(page)
    assert found
    started = client.post("/games/new", data={**NEW_GAME, "csrf_token": found.group(1)})
    assert started.status_code == 302, started.get_data(as_text=True)
    assert snapshot(csrf_app)["game"] == before["game"] + 1


def test_what_was_typed_before_signing_in_saves_with_one_tap(csrf_app: Flask) -> None:
    """A second tablet of a table with a passcode: a deal typed, the sign-in asked for, the
    passcode given, then "Save the deal" once. Signing in starts a fresh session, and the
    page offering the save carried a form token of the session just cleared: refused."""
    with csrf_app.app_context():
        auth.set_passcode("hand-and-foot")
    client = csrf_app.test_client()
    before = snapshot(csrf_app)
    form = client.get("/games/1/deals/new").get_data(as_text=True)
    token = TOKEN.search(form)
    assert token
    deal = {"csrf_token": token.group(1), "went_out": "none", "t0-left": "50", "t1-left": "60"}
    asked = client.post("/games/1/deals/new", data=deal)
    assert asked.status_code == 401  # the sign-in page, holding the deal
    fields = hidden(asked.get_data(as_text=True))  # its token and the deal
    assert fields["carried-t1-left"] == "60"
    signed = client.post("/sign-in", data={**fields, "passcode": "hand-and-foot"})
    assert signed.status_code == 200
    page = signed.get_data(as_text=True)
    assert "What you typed before signing in is not saved yet." in page
    resume = hidden(page)
    saved = client.post("/games/1/deals/new", data=resume)
    assert saved.status_code == 302, saved.get_data(as_text=True)
    assert snapshot(csrf_app)["deal"] == before["deal"] + 1


def test_the_refusal_page_is_plain(csrf_app: Flask) -> None:
    response = csrf_app.test_client().post("/seasons", data={"name": "Spring"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    # It says why, in words: the form was too old or not from here (not "did not make sense").
    assert "Nothing was saved" in html
    assert "This form was too old or did not come from this scorekeeper" in html
    assert "That did not make sense" not in html
    assert "Traceback" not in html


def test_a_new_game_without_its_token_keeps_the_names_typed(csrf_app: Flask) -> None:
    # Four names typed on a tablet whose session was lost: nothing starts, nothing is lost.
    client = csrf_app.test_client()
    before = snapshot(csrf_app)
    response = client.post("/games/new", data={**NEW_GAME, "t1-p1": "Dee & <Eve>"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Nothing was started" in page
    for name in ("Ann", "Ben", "Cid", "Dee &amp; &lt;Eve&gt;"):
        assert f'value="{name}"' in page
    assert "<Eve>" not in page
    assert snapshot(csrf_app) == before
    # The page comes with a token that holds: sending it again starts the game.
    token = TOKEN.search(page)
    assert token
    started = client.post("/games/new", data={**NEW_GAME, "csrf_token": token.group(1)})
    assert started.status_code == 302, started.get_data(as_text=True)


def test_the_api_is_not_a_form_and_needs_json_instead(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    before = snapshot(csrf_app)
    # What a cross-site form can send: refused before reading the body.
    forged = client.post("/api/games", data="{}", content_type="text/plain")
    assert forged.status_code == 415
    form = client.post("/api/games/1/deals", data={"teams": "x"})
    assert form.status_code == 415
    assert snapshot(csrf_app) == before


def test_the_control_shows_writes_happen_without_csrf(tmp_path: Path) -> None:
    app = make_app(tmp_path, csrf=False)
    client: FlaskClient = app.test_client()
    before = snapshot(app)
    assert client.post("/games/new", data=NEW_GAME).status_code == 302
    assert snapshot(app)["game"] == before["game"] + 1
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
