"""The table passcode: off by default; when set, every write needs signing in, reading never."""

from __future__ import annotations

import os
import re
import stat
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from database_support import database_url
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import auth, create_app
from scorekeeper.extensions import db
from scorekeeper.models import Deal, Game

GAME = {
    "ruleset": "standard",
    "teams": [{"players": ["Ann", "Ben"]}, {"players": ["Cy", "Di"]}],
}
FIRST_DEAL = {"teams": [{"clean_books": 1, "melded": 300, "opening_meld": 60}, {"left": 40}]}
PASSCODE = "hand-and-foot"


def count(app: Flask, model: Any) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model)) or 0


def set_passcode(app: Flask, passcode: str | None = PASSCODE) -> None:
    with app.app_context():
        auth.set_passcode(passcode)


def sign_in(client: FlaskClient, passcode: str = PASSCODE, next_: str = "/games") -> Any:
    return client.post("/sign-in", data={"passcode": passcode, "next": next_})


def new_game_form() -> dict[str, str]:
    return {
        "ruleset": "standard",
        "team-0-players": "Ann, Ben",
        "team-1-players": "Cy, Di",
    }


def test_without_a_passcode_everything_works_as_before(app: Flask, client: FlaskClient) -> None:
    assert not (Path(app.instance_path) / "passcode").exists()
    response = client.post("/api/games", json=GAME)
    assert response.status_code == 201
    assert count(app, Game) == 1
    # Nothing to sign in to: the sign-in page sends you on.
    assert client.get("/sign-in?next=/games").status_code == 302


def test_the_passcode_is_stored_hashed_in_a_private_file(app: Flask) -> None:
    set_passcode(app)
    path = Path(app.instance_path) / "passcode"
    text = path.read_text()
    assert PASSCODE not in text
    assert text.startswith(("scrypt:", "pbkdf2:"))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    with app.app_context():
        assert auth.check_passcode(PASSCODE)
        assert not auth.check_passcode("hand-and-foot ")
        assert not auth.check_passcode("")


def test_api_writes_need_the_passcode_and_refusals_change_nothing(
    app: Flask, client: FlaskClient
) -> None:
    set_passcode(app)
    refused = client.post("/api/games", json=GAME)
    assert refused.status_code == 401
    error = refused.get_json()["errors"][0]
    assert error["field"] == "passcode"
    assert error["team"] is None
    assert "passcode" in error["message"]
    assert count(app, Game) == 0

    wrong = client.post("/api/games", json=GAME, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401
    assert count(app, Game) == 0

    right = client.post("/api/games", json=GAME, headers={"Authorization": f"Bearer {PASSCODE}"})
    assert right.status_code == 201
    game_id = right.get_json()["id"]

    # Reading never needs it.
    assert client.get(f"/api/games/{game_id}").status_code == 200
    assert client.get("/api/games").status_code == 200

    for method, url, body in [
        ("POST", f"/api/games/{game_id}/deals", FIRST_DEAL),
        ("PUT", f"/api/games/{game_id}/deals/1", {"version": 1, **FIRST_DEAL}),
        ("POST", f"/api/games/{game_id}/corrections/undo", {}),
    ]:
        response = client.open(url, method=method, json=body)
        assert response.status_code == 401, (method, url)
    assert count(app, Deal) == 0


WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")


def write_routes(app: Flask) -> list[tuple[str, str, str]]:
    """(endpoint, method, url) of every write the app routes, ids filled in with 1."""
    found = []
    for rule in app.url_map.iter_rules():
        for method in sorted(set(rule.methods or ()) & set(WRITE_METHODS)):
            values = {
                arg: "standard" if arg in ("slug", "ruleset_id") else 1 for arg in rule.arguments
            }
            with app.test_request_context():
                from flask import url_for

                found.append((rule.endpoint, method, url_for(rule.endpoint, **values)))
    return found


def test_every_write_route_is_behind_the_passcode(app: Flask, client: FlaskClient) -> None:
    set_passcode(app)
    routes = write_routes(app)
    assert len(routes) >= 15  # the discovery itself works
    before = {model.__name__: count(app, model) for model in (Game, Deal)}
    for endpoint, method, url in routes:
        response = client.open(url, method=method, json={})
        if endpoint in auth.EXEMPT_ENDPOINTS:
            continue
        if url.startswith("/api/"):
            assert response.status_code == 401, (method, url)
            assert response.get_json()["errors"][0]["field"] == "passcode"
        else:
            assert response.status_code == 302, (method, url)
            assert response.headers["Location"].startswith("/sign-in?next="), (method, url)
    assert {model.__name__: count(app, model) for model in (Game, Deal)} == before


def test_a_signed_in_session_may_write_through_the_api(app: Flask, client: FlaskClient) -> None:
    set_passcode(app)
    assert sign_in(client).status_code == 302
    assert client.post("/api/games", json=GAME).status_code == 201


def hidden_fields(html: str) -> list[tuple[str, str]]:
    return [
        (name, unescape(value))
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', html)
        if name != "csrf_token"
    ]


def test_page_writes_ask_to_sign_in_and_keep_what_was_typed(
    app: Flask, client: FlaskClient
) -> None:
    set_passcode(app)
    # Reading is open.
    assert client.get("/games/new").status_code == 200
    typed = {
        "ruleset": "standard",
        "seating": "2x2",
        "t0-p0": "Ann",
        "t0-p1": "Ben",
        "t1-p0": "Cy",
        "t1-p1": "Di <O'Neil> & Co",
        "first_dealer": "0",
    }
    refused = client.post("/games/new", data=typed)
    assert refused.status_code == 401  # the sign-in page at once, nothing saved
    assert count(app, Game) == 0
    html = refused.get_data(as_text=True)
    assert "This table has a passcode. Sign in to save changes." in html
    assert "What you typed is kept: once you are signed in, you can save it." in html
    fields = hidden_fields(html)
    assert ("next", "/games/new") in fields and ("resume_to", "/games/new") in fields
    carried = [(name, value) for name, value in fields if name.startswith("carried-")]
    assert carried == [(f"carried-{name}", value) for name, value in typed.items()]
    assert "<O'Neil>" not in html  # kept as text, never as markup

    # A wrong passcode keeps it too.
    form = dict(fields)
    wrong = client.post("/sign-in", data={**form, "passcode": "guess"})
    assert wrong.status_code == 401
    assert hidden_fields(wrong.get_data(as_text=True)) == fields

    # Signed in: nothing is saved behind the player's back; one tap saves it.
    signed = client.post("/sign-in", data={**form, "passcode": PASSCODE})
    assert signed.status_code == 200
    page = signed.get_data(as_text=True)
    assert "What you typed before signing in is not saved yet." in page
    assert re.search(r'<button type="submit"[^>]*>Start the game</button>', page)  # says what
    assert '<form method="post" action="/games/new"' in page
    assert 'name="csrf_token"' in page
    assert hidden_fields(page) == list(typed.items())
    assert count(app, Game) == 0
    saved = client.post("/games/new", data=dict(hidden_fields(page)))
    assert saved.status_code == 302 and saved.headers["Location"].endswith("/start")
    with app.app_context():
        game = db.session.scalars(select(Game)).one()
        assert [m.player.name for t in game.teams for m in t.members][-1] == "Di <O'Neil> & Co"


def test_what_is_kept_through_signing_in_goes_back_only_to_a_form_of_this_site(
    app: Flask, client: FlaskClient
) -> None:
    set_passcode(app)
    # Another site, a page that takes no form, and forms that are no typing: settings (the
    # passcode), a confirmation (merge), the API.
    for elsewhere in (
        "https://evil.example/games/new",
        "//evil.example/x",
        "/sign-in",
        "/games",
        "/settings",
        "/players/merge",
        "/games/1/delete",
        "/api/games",
    ):
        signed = client.post(
            "/sign-in",
            data={"passcode": PASSCODE, "next": "/", "resume_to": elsewhere, "carried-x": "1"},
        )
        assert signed.status_code == 302, elsewhere  # signed in, nothing sent anywhere
        client.post("/sign-out")
    # Nothing worth keeping (no field but the token): the sign-in page as before.
    refused = client.post("/games/7/restore", headers={"Referer": "http://localhost/games/7"})
    assert refused.status_code == 302
    # A confirmation is asked again once signed in, never carried to one tap.
    merge = client.post("/players/merge", data={"keep": "1", "merge": "2", "confirm": "yes"})
    assert merge.status_code == 302 and merge.headers["Location"].startswith("/sign-in")


def test_a_post_only_address_comes_back_to_the_page_it_was_sent_from(
    app: Flask, client: FlaskClient
) -> None:
    set_passcode(app)
    refused = client.post("/games/7/restore", headers={"Referer": "http://localhost/games/7"})
    assert refused.headers["Location"] == "/sign-in?next=/games/7"
    elsewhere = client.post("/games/7/restore", headers={"Referer": "https://evil.example/x"})
    assert elsewhere.headers["Location"] == "/sign-in?next=/"


def test_signing_in_then_writing_then_signing_out(app: Flask, client: FlaskClient) -> None:
    set_passcode(app)
    wrong = sign_in(client, "guess")
    assert wrong.status_code == 401
    assert "That passcode is not right." in wrong.get_data(as_text=True)

    signed = sign_in(client, next_="/games/new")
    assert signed.status_code == 302
    assert signed.headers["Location"] == "/games/new"
    assert client.post("/api/games", json=GAME).status_code == 201

    out = client.post("/sign-out")
    assert out.status_code == 302
    assert client.post("/api/games", json=GAME).status_code == 401
    assert count(app, Game) == 1


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "/\\evil.example"])
def test_sign_in_never_sends_you_to_another_site(
    app: Flask, client: FlaskClient, target: str
) -> None:
    set_passcode(app)
    response = sign_in(client, next_=target)
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


def test_signing_in_starts_a_fresh_session(app: Flask, client: FlaskClient) -> None:
    set_passcode(app)
    with client.session_transaction() as session:
        session["planted"] = "by someone else"
        session["lang"] = "de"
    sign_in(client)
    with client.session_transaction() as session:
        assert "planted" not in session
        assert session["lang"] == "de"
        assert auth.SESSION_KEY in session


def test_sign_in_attempts_are_rate_limited(app: Flask, client: FlaskClient) -> None:
    set_passcode(app)
    for _ in range(auth.MAX_FAILURES):
        assert sign_in(client, "guess").status_code == 401
    blocked = sign_in(client)  # even the right passcode waits now
    assert blocked.status_code == 429
    assert re.search(
        r'<div class="form-errors" role="alert" tabindex="-1" id="form-errors">'
        r"<p>Too many wrong passcodes\. Try again in 5 minutes\.</p>",
        blocked.get_data(as_text=True),
    )  # where the keyboard starts (static/js/app.js)
    assert client.post("/api/games", json=GAME).status_code == 401
    # Bearer guesses count too.
    api = client.post("/api/games", json=GAME, headers={"Authorization": f"Bearer {PASSCODE}"})
    assert api.status_code == 429
    # Another address is not blocked.
    other = client.post(
        "/sign-in",
        data={"passcode": PASSCODE, "next": "/"},
        environ_base={"REMOTE_ADDR": "10.0.0.9"},
    )
    assert other.status_code == 302


def test_the_limiter_forgets_failures_after_the_window() -> None:
    limiter = auth.FailureLimiter(limit=2, window=0.05)
    limiter.fail("a")
    assert limiter.blocked_for("a") == 0
    limiter.fail("a")
    assert limiter.blocked_for("a") > 0
    assert limiter.blocked_for("b") == 0
    import time

    time.sleep(0.06)
    assert limiter.blocked_for("a") == 0


def test_settings_sets_changes_and_clears_the_passcode(app: Flask, client: FlaskClient) -> None:
    page = client.get("/settings")
    assert page.status_code == 200
    assert "No passcode" in page.get_data(as_text=True)

    short = client.post("/settings", data={"new": "abc", "confirm": "abc", "save": "1"})
    assert short.status_code == 400
    assert not (Path(app.instance_path) / "passcode").exists()
    differ = client.post("/settings", data={"new": "abcd", "confirm": "abce", "save": "1"})
    assert differ.status_code == 400
    assert "The two new passcodes differ." in differ.get_data(as_text=True)

    saved = client.post("/settings", data={"new": PASSCODE, "confirm": PASSCODE, "save": "1"})
    assert saved.status_code == 302
    with app.app_context():
        assert auth.check_passcode(PASSCODE)
    # The tablet that set it stays signed in.
    assert client.post("/api/games", json=GAME).status_code == 201

    # Changing it needs the current one, even when signed in.
    no_current = client.post("/settings", data={"new": "other1", "confirm": "other1", "save": "1"})
    assert no_current.status_code == 400
    assert "That is not the current passcode." in no_current.get_data(as_text=True)
    changed = client.post(
        "/settings",
        data={"current": PASSCODE, "new": "other1", "confirm": "other1", "save": "1"},
    )
    assert changed.status_code == 302
    with app.app_context():
        assert auth.check_passcode("other1")
        assert not auth.check_passcode(PASSCODE)

    cleared = client.post("/settings", data={"current": "other1", "clear": "1"})
    assert cleared.status_code == 302
    assert not (Path(app.instance_path) / "passcode").exists()


def test_guessing_the_current_passcode_in_the_settings_is_limited(
    app: Flask, client: FlaskClient
) -> None:
    """Issue 7: attempts are rate limited. A tablet left signed in is no way round it: the
    settings' "current passcode" counts with the sign-in's wrong passcodes."""
    client.post("/settings", data={"new": PASSCODE, "confirm": PASSCODE, "save": "1"})
    guess = {"current": "wrong1", "new": "other1", "confirm": "other1", "save": "1"}
    for _ in range(auth.MAX_FAILURES):
        assert client.post("/settings", data=guess).status_code == 400
    right = {**guess, "current": PASSCODE}
    blocked = client.post("/settings", data=right)
    assert blocked.status_code == 429
    assert "Too many wrong passcodes." in blocked.get_data(as_text=True)
    with app.app_context():
        assert auth.check_passcode(PASSCODE)  # not changed
    # The same address is blocked at the sign-in as well.
    assert client.post("/sign-in", data={"passcode": PASSCODE}).status_code == 429


def test_settings_refuse_changes_from_a_signed_out_tablet(app: Flask, client: FlaskClient) -> None:
    set_passcode(app)
    refused = client.post("/settings", data={"current": PASSCODE, "clear": "1"})
    assert refused.status_code == 302
    assert refused.headers["Location"].startswith("/sign-in")
    with app.app_context():
        assert auth.check_passcode(PASSCODE)


def test_changing_the_passcode_signs_other_tablets_out(app: Flask, client: FlaskClient) -> None:
    set_passcode(app)
    sign_in(client)
    set_passcode(app, "a-new-one")
    assert client.post("/api/games", json=GAME).status_code == 401


def test_saving_the_same_passcode_again_signs_every_other_tablet_out(app: Flask) -> None:
    """Signing in lives in the tablet's signed cookie: a copy of it (a lost tablet, a cookie
    seen on a plain-HTTP network) outlives "Sign out". Saving the passcode again, unchanged,
    is how every other tablet is signed out (README); the one that saved it stays in."""
    set_passcode(app)
    lost, kept = app.test_client(), app.test_client()
    sign_in(lost)
    sign_in(kept)
    cookie = lost.get_cookie("session")
    assert cookie is not None
    lost.post("/sign-out")
    copy = app.test_client()
    copy.set_cookie("session", cookie.value)
    assert copy.post("/api/games", json=GAME).status_code == 201  # the copy still writes

    saved = kept.post("/settings", data={"current": PASSCODE, "new": PASSCODE, "confirm": PASSCODE})
    assert saved.status_code == 302
    assert copy.post("/api/games", json=GAME).status_code == 401
    assert kept.post("/api/games", json=GAME).status_code == 201
    with app.app_context():
        assert auth.check_passcode(PASSCODE)


def test_a_passcode_from_the_instance_config(tmp_path: Path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path / "c.sqlite"),
            "WTF_CSRF_ENABLED": False,
            "TABLE_PASSCODE": "from-config",
        },
        instance_path=str(tmp_path / "instance"),
    )
    with app.app_context():
        db.create_all()
    client = app.test_client()
    assert client.post("/api/games", json=GAME).status_code == 401
    ok = client.post("/api/games", json=GAME, headers={"Authorization": "Bearer from-config"})
    assert ok.status_code == 201
    # The settings page cannot override it.
    sign_in(client, "from-config")
    page = client.get("/settings").get_data(as_text=True)
    assert "TABLE_PASSCODE" in page
    assert (
        client.post("/settings", data={"current": "from-config", "clear": "1"}).status_code == 409
    )
    with app.app_context():
        assert auth.check_passcode("from-config")
        db.session.remove()
        db.engine.dispose()
