"""No request sends more than the app ever reads: a page's form at most a mebibyte, an import
its own limit, and the served app's waitress refuses anything larger before buffering it."""

from __future__ import annotations

import io
import re
import socket
import threading

import pytest
from flask import Flask
from flask.testing import FlaskClient
from waitress import wasyncore
from waitress.server import create_server

from scorekeeper import serve
from scorekeeper.services import exchange, games

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
MIB = 1024 * 1024


@pytest.fixture
def app(app: Flask) -> Flask:
    """The suite's app, with its forms' CSRF check on (it reads a form before any view)."""
    app.config["WTF_CSRF_ENABLED"] = True
    return app


def token(client: FlaskClient, path: str = "/settings") -> str:
    page = client.get(path).get_data(as_text=True)
    found = TOKEN.search(page)
    assert found is not None
    return found.group(1)


def test_a_form_larger_than_any_page_sends_is_refused_in_words(app: Flask) -> None:
    client = app.test_client()
    csrf = token(client)
    refused = client.post(
        "/seasons", data={"csrf_token": csrf, "name": "x" * (2 * MIB)}, follow_redirects=True
    )
    assert refused.status_code == 413
    page = refused.get_data(as_text=True)
    assert "Nothing was saved" in page
    assert "far more than any page of the scorekeeper does" in page
    # A form of the usual size goes through the same check untouched.
    made = client.post("/seasons", data={"csrf_token": csrf, "name": "Winter"})
    assert made.status_code in (302, 303)


def test_an_import_larger_than_any_form_is_read_past_the_csrf_check(app: Flask) -> None:
    """The CSRF check reads the upload before the import view runs: under the import's own
    limit, not a form's, or a club's export of a few years could never come back."""
    with app.app_context():
        games.start_game(
            "standard", [games.TeamSpec("", ["Ann", "Ben"]), games.TeamSpec("", ["Cy", "Di"])]
        )
        data = exchange.export_json()
    # Spaces are JSON too: the same export, past the size of any form.
    padded = (data + " " * (2 * MIB)).encode("utf-8")
    assert len(padded) > app.config["MAX_CONTENT_LENGTH"]
    client = app.test_client()
    sent = client.post(
        "/settings/import",
        data={"csrf_token": token(client), "file": (io.BytesIO(padded), "x.json")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert sent.status_code == 200
    assert "1 game was already there" in sent.get_data(as_text=True)


def test_waitress_refuses_a_body_past_the_largest_import(app: Flask) -> None:
    """The served app's own waitress settings: 413 from the server, before the app reads."""
    app.config["IMPORT_MAX_BYTES"] = 200 * 1024
    limit = serve.body_limit(app)
    assert limit == MIB + 64 * 1024  # a page's form is then the largest thing read
    server = create_server(app, host="127.0.0.1", port=0, max_request_body_size=limit)
    stop = threading.Event()

    def serve_until_stopped() -> None:
        # One turn of waitress's loop at a time: closing it under a running loop races.
        while not stop.is_set():
            wasyncore.loop(timeout=0.05, map=server._map, count=1)

    thread = threading.Thread(target=serve_until_stopped, daemon=True)
    thread.start()
    try:
        # Refused on its headers, before a byte of the body is read (sending the body too
        # would race the server closing the connection on its answer).
        assert _status(server.effective_port, "POST", length=limit) == 413
        assert _status(server.effective_port, "GET") == 200  # the server itself answers
    finally:
        stop.set()
        thread.join(timeout=5)
        # Every socket the loop still holds: the server's, its trigger, a connection it has
        # answered but not yet let go.
        wasyncore.close_all(server._map)
        server.task_dispatcher.shutdown()


def test_an_import_past_its_own_limit_is_refused_in_the_imports_words(app: Flask) -> None:
    """Found too large by the CSRF check, before the import view runs: still said as the
    import says it, on the settings page, not as a page that sent too much."""
    app.config["IMPORT_MAX_BYTES"] = 3 * MIB
    client = app.test_client()
    sent = client.post(
        "/settings/import",
        data={"csrf_token": token(client), "file": (io.BytesIO(b" " * (4 * MIB)), "x.json")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert sent.status_code == 200
    assert sent.request.path == "/settings"
    page = sent.get_data(as_text=True)
    assert "The file is too large to import." in page
    assert "far more than any page" not in page


def _status(port: int, method: str, length: int | None = None) -> int:
    """The status a bare HTTP/1.1 request to /seasons gets, its body never sent."""
    head = f"{method} /seasons HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    if length is not None:
        head += f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {length}\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall((head + "\r\n").encode("ascii"))
        with sock.makefile("rb") as reply:
            return int(reply.readline().split()[1])
