"""Sheets as PDFs: a blank score sheet for any rules, a game's filled sheet, season standings.

Each prints in any of the app's languages (``?lang=de``), whatever language the page is in.

The views read the query, ask the services for the rules or the game, and hand them to
:mod:`scorekeeper.sheets`, which renders the PDF. A bad option is answered with a page
saying what was wrong (400), unknown rules or games with 404: never an error 500.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from flask import Blueprint, current_app, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import force_locale, format_decimal, format_percent, get_locale
from flask_babel import gettext as _

from scorekeeper import sheets
from scorekeeper.extensions import decimal, half_up
from scorekeeper.messages import say
from scorekeeper.rules import RuleSet
from scorekeeper.rules.tally import NAME_LONGEST
from scorekeeper.services import games as game_service
from scorekeeper.services import rulesets
from scorekeeper.services.errors import ServiceError
from scorekeeper.web import rules_text

if TYPE_CHECKING:
    from scorekeeper.services.standings import Line

from scorekeeper.models import LARGEST_ID

bp = Blueprint("sheets", __name__)

# A rules id is a preset id, a house-rules slug or a house-rules number.
_RULES_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{0,62}$")
# A larger number cannot be an id (and must not reach the database): see scorekeeper.models.
_LARGEST_ID = LARGEST_ID


class _BadOptions(Exception):
    def __init__(self, messages: Sequence[str], status: int = 400) -> None:
        super().__init__("; ".join(messages))
        self.messages = list(messages)
        self.status = status


@bp.errorhandler(_BadOptions)
def _bad_options(error: _BadOptions) -> ResponseReturnValue:
    return render_template("sheets/problem.html", messages=error.messages), error.status


@bp.errorhandler(ServiceError)
def _refused(error: ServiceError) -> ResponseReturnValue:
    messages = [say(problem) for problem in error.problems]
    return render_template("sheets/problem.html", messages=messages), error.status


def _shown(typed: str) -> str:
    """What was typed, said back: shortened with an ellipsis past 24 characters, so a cut
    never reads as another value (a game id of 23 digits once showed as one of 20)."""
    return typed if len(typed) <= 24 else typed[:23] + "\u2026"


def _paper() -> sheets.Paper:
    paper = request.args.get("paper", "a4").strip().lower()
    if paper not in sheets.PAPERS:
        raise _BadOptions([_("Paper must be a4 or letter, not “%(paper)s”.", paper=_shown(paper))])
    return sheets.PAPERS[paper]


def _language() -> str:
    """The sheet's language (``?lang=``): any of the app's languages, whatever the page's."""
    languages: list[str] = current_app.config["LANGUAGES"]
    lang = request.args.get("lang", "").strip().lower()
    if not lang:
        return str(get_locale() or current_app.config["BABEL_DEFAULT_LOCALE"])
    if lang not in languages:
        raise _BadOptions(
            [
                _(
                    "The sheet's language must be one of %(languages)s, not “%(lang)s”.",
                    languages=", ".join(languages),
                    lang=_shown(lang),
                )
            ]
        )
    return lang


def _suffix(lang: str) -> str:
    """A sheet asked for in a language says so in its file name: ``…-de.pdf``."""
    return f"-{lang}" if request.args.get("lang") else ""


def _rules(ref: str) -> RuleSet:
    ref = ref.strip()
    if not _RULES_ID.match(ref):
        raise _BadOptions([_("ruleset must be the id of a rules preset or of your house rules.")])
    if ref.isdigit() and int(ref) > _LARGEST_ID:
        raise _BadOptions([_("There are no rules called %(id)s.", id=_shown(ref))], status=404)
    return rulesets.resolve(ref)


def _teams(rules: RuleSet) -> int:
    allowed = sheets.allowed_team_counts(rules)
    raw = request.args.get("teams", "").strip()
    if not raw:
        return allowed[0]
    if not raw.isascii() or not raw.isdigit():
        raise _BadOptions([_("teams must be a whole number, such as 2.")])
    digits = raw.lstrip("0") or "0"
    teams = int(digits) if len(digits) <= 3 else 0  # 99999 teams: no sheet has them either
    if teams not in allowed:
        raise _BadOptions(
            [
                _(
                    "A sheet for these rules has %(allowed)s columns (one per team, or per "
                    "player playing alone), not %(teams)s.",
                    allowed=rules_text.join_or([str(n) for n in allowed]),
                    teams=_shown(raw),
                )
            ]
        )
    return teams


def _names(teams: int) -> list[str]:
    given = request.args.getlist("names")
    # One ``names=`` a team; or one holding commas, read as the list of them
    # (``names=Ann,Cid``). A name with a comma in it is given as one of several.
    if len(given) == 1 and "," in given[0]:
        given = given[0].split(",")
    names = [name.strip() for name in given]
    if len(names) > teams:
        raise _BadOptions(
            [
                _(
                    "%(given)d names were given for a sheet of %(teams)d teams.",
                    given=len(names),
                    teams=teams,
                )
            ]
        )
    for name in names:
        if len(name) > NAME_LONGEST:
            raise _BadOptions(
                [_("A team name has at most %(longest)d characters.", longest=NAME_LONGEST)]
            )
    # Trailing empty names add nothing: the sheet prints a line to write on anyway.
    while names and not names[-1]:
        names.pop()
    return names


@bp.get("/sheets/blank.pdf")
def blank() -> ResponseReturnValue:
    """A blank score sheet: ``?ruleset=<id>&teams=<n>&paper=a4|letter[&names=…][&lang=de]``."""
    paper = _paper()
    lang = _language()
    rules = _rules(request.args.get("ruleset", "standard"))
    teams = _teams(rules)
    names = _names(teams)
    # The cache keys on the locale, so each language is its own cached sheet.
    with force_locale(lang):
        pdf = sheets.blank_sheet_pdf(rules, teams, paper, names)
    filename = f"scoresheet-{rules.id}-{teams}-teams-{paper.id}{_suffix(lang)}.pdf"
    return sheets.pdf_response(pdf, filename)


@bp.get("/games/<int:game_id>/sheet.pdf")
def game(game_id: int) -> ResponseReturnValue:
    """The filled score sheet of a game, finished or not: ``?paper=a4|letter[&lang=de]``."""
    paper = _paper()
    lang = _language()
    if game_id > _LARGEST_ID:
        raise _BadOptions([_("There is no game %(id)s.", id=_shown(str(game_id)))], status=404)
    view = game_service.read_game(game_id)
    with force_locale(lang):
        pdf = sheets.game_sheet_pdf(view, paper)
    filename = f"game-{view.game.id}-{view.game.played_on.isoformat()}{_suffix(lang)}.pdf"
    return sheets.pdf_response(pdf, filename)


@bp.get("/seasons/<int:season_id>/standings.pdf")
def standings(season_id: int) -> ResponseReturnValue:
    """A season's standings to pin on the wall: players, partnerships and the ratings chart."""
    # Imported here so that the score sheets never depend on the standings machinery.
    from scorekeeper import charts
    from scorekeeper.services import standings as standings_service

    paper = _paper()
    lang = _language()
    table = standings_service.standings(season_id)
    season = table.season
    assert season is not None  # a season id always gives its season (or NotFound)
    with force_locale(lang):
        title = _("Standings: %(season)s", season=season.name)
        chart = None
        if table.ratings.games and table.players:
            players = [(line.players[0], line.name) for line in table.players]
            chart = charts.ratings_svg(f"ratings-{season_id}", title, table.ratings, players)
        pdf = sheets.render_standings_pdf(
            title,
            [
                _standings_row(rank, line)
                for rank, line in zip(table.player_places, table.players, strict=True)
            ],
            [
                _standings_row(rank, line)
                for rank, line in zip(table.partnership_places, table.partnerships, strict=True)
            ],
            chart_svg=chart,
            paper=paper,
        )
    return sheets.pdf_response(pdf, f"standings-season-{season.id}{_suffix(lang)}.pdf")


def _standings_row(rank: int, line: Line) -> dict[str, str]:
    """One standings line in the words and numbers the sheet prints."""
    return {
        "rank": str(rank),
        "name": line.name,
        "games": str(line.games),
        "wins": str(format_decimal(float(line.wins), format="#,##0.##")),
        # As the standings page writes them: "50 %" in German, 12.345 but 5730.
        "win_rate": str(format_percent(half_up(line.win_pct / 100, 2))),
        "rating": "\u2013" if line.rating is None else str(line.rating),
        "per_game": decimal(line.average_per_game, 0),
        "best": "\u2013" if line.best is None else decimal(line.best, 0),
    }
