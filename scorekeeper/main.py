"""Home page, health check and the language switch."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, redirect, render_template, request, session
from flask.typing import ResponseReturnValue

from scorekeeper.extensions import LANGUAGE_COOKIE, db
from scorekeeper.messages import say
from scorekeeper.services import games
from scorekeeper.services.errors import DamagedDeal, DamagedRecord
from scorekeeper.web import rules_text

bp = Blueprint("main", __name__)

# The language switch remembers a choice for a year: a table keeps its language.
LANGUAGE_COOKIE_SECONDS = 365 * 24 * 3600

# The home page offers the games still being played, up to this many.
PLAYING_SHOWN = 3

# Each language named in itself, so a player finds theirs whatever the page is in.
LANGUAGE_NAMES = {
    "en": "English",
    "de": "Deutsch",
    "nl": "Nederlands",
    "fr": "Français",
    "da": "Dansk",
}


@bp.app_context_processor
def _languages() -> dict[str, object]:
    languages: list[str] = current_app.config["LANGUAGES"]
    here = request.full_path.removesuffix("?") if request else "/"
    return {
        "language_names": {code: LANGUAGE_NAMES.get(code, code) for code in languages},
        "language_next": here,
    }


@bp.get("/")
def index() -> str:
    # The games still being played, newest first: the table picks up where it left off.
    damage: str | None = None
    damaged_game: int | None = None
    try:
        playing, count = games.read_games(1, PLAYING_SHOWN, playing=True)
    except DamagedRecord as error:
        # The home page still answers, saying what is damaged; the game's own page offers
        # the way out (deleting it until it is repaired).
        db.session.rollback()
        playing, count = [], 0
        damage, damaged_game = say(error.problems[0]), error.game
    return render_template(
        "main/index.html",
        playing=playing,
        more_playing=count > len(playing),
        damage=damage,
        damaged_game=damaged_game,
        ruleset_name=rules_text.ruleset_name,
    )


@bp.app_errorhandler(DamagedRecord)
def damaged_record(error: DamagedRecord) -> ResponseReturnValue:
    """Any page that needs rules or a deal whose stored copy no longer reads: which, and why.

    409 Conflict, not 500: nothing is wrong with the request; what is stored conflicts
    with it, and asking again gives the same answer until it is repaired. Not 422 either:
    the request's own content is fine. The JSON API answers it in its own format (its
    ServiceError handler); a PDF sheet, on its own page (the sheets' handler).
    """
    # Nothing of the refused request may linger in the session and be flushed later.
    db.session.rollback()
    headline, *reasons = error.problems
    return render_template(
        "damaged.html",
        deal=isinstance(error, DamagedDeal),
        headline=say(headline),
        reasons=[say(reason) for reason in reasons],
        house=error.house,
        game=error.game,
    ), error.status


@bp.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


def _same_site_path(target: str | None) -> str:
    """Only a path on this site: never a redirect to somewhere else.

    Browsers drop tabs and newlines from addresses and read a backslash as a slash, so a
    path with any of them (or any space) could lead off the site: such a path goes home.
    """
    if (
        not target
        or not target.startswith("/")
        or target.startswith("//")
        or "\\" in target
        or any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in target)
    ):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target


@bp.get("/language/<code>")
def language(code: str) -> ResponseReturnValue:
    """Switch this device to ``code`` and go back to the page it came from (``?next=``).

    A plain link, so it works without JavaScript; it changes only this device's
    preference, never the table's data, so it needs no passcode.
    """
    if code not in current_app.config["LANGUAGES"]:
        abort(404)
    session["lang"] = code
    response = redirect(_same_site_path(request.args.get("next")), code=303)
    response.set_cookie(
        LANGUAGE_COOKIE,
        code,
        max_age=LANGUAGE_COOKIE_SECONDS,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )
    return response
