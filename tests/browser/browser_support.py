"""Shared by the browser tests: Chromium, viewports, and the app served on a local port."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

from database_support import database_url
from flask import Flask
from playwright.sync_api import Page, expect
from werkzeug.serving import BaseWSGIServer, make_server

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.rules import Cards, TeamTally
from scorekeeper.services import backups, games
from scorekeeper.services import players as player_service
from scorekeeper.services.games import TeamSpec

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PROJECT_ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = PROJECT_ROOT / "test-artifacts" / "screenshots"

# Portrait tablet, landscape tablet, phone.
VIEWPORTS = {
    "portrait": {"width": 768, "height": 1024},
    "landscape": {"width": 1024, "height": 768},
    "phone": {"width": 390, "height": 844},
}
SCHEMES = ("light", "dark")


@dataclass
class LiveServer:
    app: Flask
    server: BaseWSGIServer
    thread: threading.Thread
    url: str
    ids: dict[str, int] = field(default_factory=dict)

    def __call__(self, path: str) -> str:
        return self.url + path

    def stop(self) -> None:
        """Stop answering and close the socket, so connections are refused (a server gone)."""
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def table_js_ran(page: Page) -> None:
    """Wait until a deal form's ``table.js`` has run: it adds the counters' step buttons. A
    deferred script, it may run after Playwright's click or tap has returned, and a tap or a
    link before it meets the page as it is without JavaScript."""
    expect(page.locator("button.step").first).to_be_visible()


def going_out() -> TeamTally:
    return TeamTally(
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        red_threes=1,
        melded=Cards(points=750),
        left=Cards(points=20),
        went_out=True,
    )


def staying(melded: int = 260) -> TeamTally:
    return TeamTally(
        clean_books=1, melded=Cards(points=melded), left=Cards(points=135), went_out=False
    )


def _seed(app: Flask) -> dict[str, int]:
    """A season, a game with two deals and one correction, a finished game (so the standings
    have rows), a backup: every page has data."""
    with app.app_context():
        season = player_service.create_season("Winter", date(2026, 1, 1), date(2026, 3, 31))
        # Short names make the narrowest links to tap in the standings and the players' list.
        finished = games.start_game(
            "standard",
            [TeamSpec("", ["Bo", "Els"]), TeamSpec("", ["Jo", "Ty"])],
            season_id=season.id,
            played_on=date(2026, 2, 1),
        )
        for _ in range(finished.rules().deal_count):
            games.record_deal(int(finished.id), [going_out(), staying()])
        game = games.start_game(
            "standard",
            [TeamSpec("", ["Ann", "Ben"]), TeamSpec("", ["Cid", "Dee"])],
            season_id=season.id,
        )
        game_id = int(game.id)
        games.record_deal(game_id, [going_out(), staying()])
        games.record_deal(game_id, [staying(300), going_out()])
        first = games.load_game(game_id).deals[0]
        games.correct_deal(game_id, 1, first.version, [going_out(), staying(280)])
        player = player_service.all_players()[0]
        if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
            backups.make_backup()  # so the settings page lists one, with its restore form
        return {"game": game_id, "season": int(season.id), "player": int(player.id)}


def _closing(app: WSGIApplication) -> WSGIApplication:
    """Close every response, even one whose connection the browser dropped.

    Werkzeug's development server skips the response's close() when the client resets the
    connection while it is answering, so a static file stayed open until the collector warned
    about it (an error in this suite). A generator's own close runs when it is dropped.
    """

    def closing_app(environ: WSGIEnvironment, start_response: StartResponse) -> Iterator[bytes]:
        response: Iterable[bytes] = app(environ, start_response)
        try:
            yield from response
        finally:
            close = getattr(response, "close", None)
            if close is not None:
                close()

    return closing_app


def start_server(tmp: Path) -> LiveServer:
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp / "browser.sqlite", session=True),
            "WTF_CSRF_ENABLED": True,
        },
        instance_path=str(tmp / "instance"),
    )
    with app.app_context():
        db.create_all()
    ids = _seed(app)
    server = make_server("127.0.0.1", 0, _closing(app), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return LiveServer(app, server, thread, f"http://127.0.0.1:{server.server_port}", ids)
