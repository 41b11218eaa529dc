"""Security headers on every answer, safe cookies, no tracebacks, no inline scripts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from database_support import database_url
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper import PROJECT_ROOT, create_app
from scorekeeper.extensions import db

GAME = {
    "ruleset": "standard",
    "teams": [{"players": ["Ann", "Ben"]}, {"players": ["Cy", "Di"]}],
}
FIRST_DEAL = {"teams": [{"clean_books": 1, "melded": 300, "opening_meld": 60}, {"left": 40}]}


def check_headers(response: TestResponse, what: str) -> None:
    csp = response.headers.get("Content-Security-Policy", "")
    directives = {
        part.strip().split(" ", 1)[0]: part.strip() for part in csp.split(";") if part.strip()
    }
    script_src = directives.get("script-src", directives.get("default-src", ""))
    assert script_src, what
    assert "'unsafe-inline'" not in script_src, what
    assert "'unsafe-eval'" not in script_src, what
    assert directives.get("frame-ancestors") == "frame-ancestors 'none'", what
    assert response.headers.get("X-Content-Type-Options") == "nosniff", what
    assert response.headers.get("Referrer-Policy"), what
    assert "Access-Control-Allow-Origin" not in response.headers, what


def readable_urls(app: Flask, game_id: int, season_id: int, player_id: int) -> list[str]:
    """Every GET address the app routes, with the ids of real rows filled in."""
    ids = {
        "game_id": game_id,
        "season_id": season_id,
        "player_id": player_id,
        "number": 1,
        "ruleset_id": "standard",
        "slug": "standard",
        "filename": "css/app.css",
        "code": "de",  # /language/<code>
    }
    urls = []
    with app.test_request_context():
        from flask import url_for

        for rule in app.url_map.iter_rules():
            if "GET" in (rule.methods or ()):
                urls.append(url_for(rule.endpoint, **{a: ids[a] for a in rule.arguments}))
    return sorted(set(urls))


@pytest.fixture
def filled(app: Flask, client: FlaskClient) -> tuple[int, int, int]:
    season = client.post("/api/seasons", json={"name": "Winter"})
    assert season.status_code == 201, season.get_json()
    game = client.post("/api/games", json={**GAME, "season": season.get_json()["id"]})
    assert game.status_code == 201, game.get_json()
    game_id = game.get_json()["id"]
    assert client.post(f"/api/games/{game_id}/deals", json=FIRST_DEAL).status_code == 201
    player_id = client.get("/api/players").get_json()["players"][0]["id"]
    return game_id, season.get_json()["id"], player_id


def test_every_readable_address_carries_the_headers(
    app: Flask, client: FlaskClient, filled: tuple[int, int, int]
) -> None:
    urls = readable_urls(app, *filled)
    assert len(urls) >= 30  # the discovery itself works
    kinds = set()
    for url in urls:
        with client.get(url) as response:  # closed: static files are streamed from disk
            assert response.status_code < 500, url
            kinds.add(response.mimetype)
            check_headers(response, url)
    # Pages, JSON, a stylesheet and PDFs were all among them.
    assert {"text/html", "application/json", "text/css", "application/pdf"} <= kinds


@pytest.mark.parametrize(
    ("method", "url", "status"),
    [
        ("GET", "/no-such-page", 404),
        ("GET", "/api/no-such-thing", 404),
        ("DELETE", "/games", 405),
        ("POST", "/api/games", 415),
        ("GET", "/games/999999", 404),
        ("GET", "/static/no-such-file.css", 404),
    ],
)
def test_errors_carry_the_headers_too(
    client: FlaskClient, method: str, url: str, status: int
) -> None:
    with client.open(url, method=method, data="x", content_type="text/plain") as response:
        assert response.status_code == status
        check_headers(response, url)


def test_writes_carry_the_headers(client: FlaskClient) -> None:
    response = client.post("/api/games", json=GAME)
    assert response.status_code == 201
    check_headers(response, "POST /api/games")
    page = client.post("/games/new", data={})
    check_headers(page, "POST /games/new")


def test_the_session_cookie_is_httponly_and_lax(client: FlaskClient) -> None:
    response = client.post("/sign-out")  # flashes a message: the session is written
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # plain HTTP at a home table: a Secure cookie would be lost


def test_the_session_cookie_is_secure_over_https(client: FlaskClient) -> None:
    response = client.post("/sign-out", base_url="https://localhost")
    cookie = response.headers["Set-Cookie"]
    assert "Secure" in cookie
    assert "HttpOnly" in cookie


def test_secure_cookies_can_be_forced_by_config(tmp_path: Path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SESSION_COOKIE_SECURE": True,
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path / "s.sqlite"),
        },
        instance_path=str(tmp_path / "instance"),
    )
    response = app.test_client().post("/sign-out", data={})
    assert response.status_code == 302
    assert "Secure" in response.headers["Set-Cookie"]


@pytest.fixture
def production_app(tmp_path: Path) -> Flask:
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": database_url(tmp_path / "p.sqlite")},
        instance_path=str(tmp_path / "instance"),
    )
    assert not app.testing
    assert not app.debug

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("SECRET_KEY=hunter2 in /srv/scorekeeper/config.py")

    @app.get("/api/boom")
    def api_boom() -> str:
        raise RuntimeError("SECRET_KEY=hunter2 in /srv/scorekeeper/config.py")

    with app.app_context():
        db.create_all()
    return app


@pytest.mark.parametrize("url", ["/boom", "/api/boom"])
def test_a_crash_shows_a_plain_apology_not_a_traceback(
    production_app: Flask, url: str, caplog: pytest.LogCaptureFixture
) -> None:
    response = production_app.test_client().get(url)
    assert response.status_code == 500
    text = response.get_data(as_text=True)
    for leak in ("Traceback", "RuntimeError", "hunter2", "config.py", 'File "'):
        assert leak not in text
    assert "went wrong" in text
    check_headers(response, url)
    # It is still logged for whoever runs the server.
    assert "hunter2" in caplog.text


# Opening <script> tags with a body (anything but whitespace before </script>), and
# on* event handler attributes: both would need 'unsafe-inline' to run under the CSP.
INLINE_SCRIPT = re.compile(r"<script\b[^>]*>(?!\s*</script>)", re.IGNORECASE)
HANDLER_ATTRIBUTE = re.compile(r"<[a-zA-Z][^>]*\s(on[a-z]+)\s*=", re.IGNORECASE | re.DOTALL)
JAVASCRIPT_URL = re.compile(r"(?:href|src|action)\s*=\s*[\"']?\s*javascript:", re.IGNORECASE)


def templates() -> list[Path]:
    return sorted(
        p for p in (PROJECT_ROOT / "templates").rglob("*") if p.suffix in (".html", ".svg")
    )


def test_the_scanner_finds_what_it_looks_for() -> None:
    assert INLINE_SCRIPT.search("<script>alert(1)</script>")
    assert not INLINE_SCRIPT.search('<script src="/static/js/app.js" defer></script>')
    assert HANDLER_ATTRIBUTE.search('<button type="button"\n onclick="go()">')
    assert not HANDLER_ATTRIBUTE.search('<button data-online="1">')
    assert JAVASCRIPT_URL.search('<a href="javascript:void(0)">')


def test_templates_have_no_inline_scripts_or_handlers() -> None:
    found = templates()
    assert len(found) > 20
    offences = []
    for path in found:
        text = path.read_text(encoding="utf-8")
        for pattern in (INLINE_SCRIPT, HANDLER_ATTRIBUTE, JAVASCRIPT_URL):
            offences += [
                f"{path.relative_to(PROJECT_ROOT)}: {m.group(0)}" for m in pattern.finditer(text)
            ]
    assert offences == []
