"""Games, deals, corrections and players through the JSON API.

Each view reads and checks its input (400), calls one service function, and answers with a
shape from :mod:`.shapes`. The services refuse the impossible (422), the stale and the
finished (409) and the unknown (404) before anything is written.
"""

from __future__ import annotations

import math
import re
from datetime import date
from typing import Any

from flask import request, url_for
from flask.typing import ResponseReturnValue

from scorekeeper.rules import BOUNDS, Problem
from scorekeeper.rules.i18n import N_
from scorekeeper.services import games, players
from scorekeeper.services.errors import Malformed, NotFound

from . import bp
from .errors import LARGEST_ID
from .inputs import (
    json_body,
    missing,
    problem,
    ruleset_field,
    unknown_fields,
    whole_number,
)
from .shapes import correction_json, deal_json, game_json, game_summary_json, player_json

PER_PAGE = 20
LAST_PAGE = 999_999_999
GAME_FIELDS = ("ruleset", "teams", "season", "played_on", "first_dealer_seat")
TEAM_FIELDS = ("name", "players")
# What a deal read from the API shows besides the tally; sent back, it is ignored, so a
# client can correct a deal by editing what it read.
READ_ONLY_TEAM_FIELDS = ("score", "breakdown")
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_PAGE = re.compile(r"[0-9]{1,9}")


# ---------------------------------------------------------------------------
# Games


@bp.get("/games")
def list_games() -> ResponseReturnValue:
    values = request.args.getlist("page")
    page = 1
    if values:
        if len(values) > 1 or not _PAGE.fullmatch(values[0]) or int(values[0]) < 1:
            raise Malformed(
                [
                    problem(
                        "page",
                        N_("%(field)s must be between %(low)d and %(high)d."),
                        low=1,
                        high=LAST_PAGE,
                    )
                ]
            )
        page = int(values[0])
    views, total = games.read_games(page, PER_PAGE)
    return {
        "games": [game_summary_json(view) for view in views],
        "page": page,
        "pages": max(1, math.ceil(total / PER_PAGE)),
        "total": total,
    }


def _team_problem(index: int, field: str, template: str) -> Problem:
    return Problem(index, field, template, {"field": field})


def _team_specs(value: Any, problems: list[Problem]) -> list[games.TeamSpec]:
    if not isinstance(value, list):
        problems.append(problem("teams", N_("%(field)s must be a list of teams.")))
        return []
    # As in the scoring API, too few or too many teams is malformed input (400), not a game
    # the rules refuse.
    low, high = BOUNDS["teams"]
    if not low <= len(value) <= high:
        problems.append(problem("teams", N_("A game needs 2 to 8 teams.")))
    specs = []
    for i, item in enumerate(value):
        where = f"teams[{i}]"
        if not isinstance(item, dict):
            problems.append(
                _team_problem(
                    i, where, N_("Each team must be an object with its name and players.")
                )
            )
            continue
        problems.extend(
            _team_problem(i, f"{where}.{key}", N_("%(field)s is not something this request takes."))
            for key in item
            if key not in TEAM_FIELDS
        )
        name = item.get("name")
        if name is None:
            name = ""
        elif not isinstance(name, str):
            problems.append(_team_problem(i, f"{where}.name", N_("%(field)s must be text.")))
            name = ""
        names = item.get("players")
        if names is None:
            problems.append(_team_problem(i, f"{where}.players", N_("%(field)s is missing.")))
        elif not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            problems.append(
                _team_problem(
                    i, f"{where}.players", N_("%(field)s must be a list of the players' names.")
                )
            )
        else:
            specs.append(games.TeamSpec(name=name, players=names))
    return specs


def _played_on(value: Any, problems: list[Problem]) -> date | None:
    if value is None:
        return None
    if isinstance(value, str) and _ISO_DATE.fullmatch(value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    problems.append(problem("played_on", N_("%(field)s must be a date written as YYYY-MM-DD.")))
    return None


@bp.post("/games")
def create_game() -> ResponseReturnValue:
    data = json_body()
    problems = unknown_fields(data, GAME_FIELDS)

    rules, invalid_rules = ruleset_field(data, problems)

    specs: list[games.TeamSpec] = []
    if "teams" not in data:
        problems.append(missing("teams"))
    else:
        specs = _team_specs(data["teams"], problems)

    season = None
    if data.get("season") is not None:
        season = whole_number(data["season"], "season", problems, 1, LARGEST_ID)
    played_on = _played_on(data.get("played_on"), problems)
    first_dealer = 0
    if data.get("first_dealer_seat") is not None:
        first_dealer = (
            whole_number(data["first_dealer_seat"], "first_dealer_seat", problems, 0, 99) or 0
        )

    if problems:
        raise Malformed(problems)
    if invalid_rules is not None:
        raise invalid_rules
    assert rules is not None

    game = games.start_game(
        rules.to_dict(),
        specs,
        season_id=season,
        played_on=played_on,
        first_dealer_seat=first_dealer,
    )
    body = game_json(games.read_game(game.id))
    return body, 201, {"Location": url_for(".get_game", game_id=game.id)}


@bp.get("/games/<int:game_id>")
def get_game(game_id: int) -> ResponseReturnValue:
    return game_json(games.read_game(game_id))


# ---------------------------------------------------------------------------
# Deals


def _team_entries(value: Any) -> Any:
    if not isinstance(value, list):
        return value
    return [
        {k: v for k, v in item.items() if k not in READ_ONLY_TEAM_FIELDS}
        if isinstance(item, dict)
        else item
        for item in value
    ]


def _deal_of(game_id: int, number: int) -> dict[str, Any]:
    view = games.read_game(game_id)
    if not 1 <= number <= len(view.deals):
        raise NotFound.say(N_("Deal %(deal)d has not been played yet."), field="deal", deal=number)
    return deal_json(view.deals[number - 1])


@bp.post("/games/<int:game_id>/deals")
def record_deal(game_id: int) -> ResponseReturnValue:
    data = json_body()
    problems = unknown_fields(data, ("teams",))
    if "teams" not in data:
        problems.append(missing("teams"))
    if problems:
        raise Malformed(problems)
    game = games.load_game(game_id)
    tallies = games.read_tallies(game, _team_entries(data["teams"]))
    number = len(game.deals) + 1
    games.record_deal(game_id, tallies, number)
    location = url_for(".get_deal", game_id=game_id, number=number)
    return _deal_of(game_id, number), 201, {"Location": location}


@bp.get("/games/<int:game_id>/deals/<int:number>")
def get_deal(game_id: int, number: int) -> ResponseReturnValue:
    return _deal_of(game_id, number)


@bp.put("/games/<int:game_id>/deals/<int:number>")
def correct_deal(game_id: int, number: int) -> ResponseReturnValue:
    data = json_body()
    problems = unknown_fields(data, ("version", "teams"))
    version = None
    if "version" not in data:
        problems.append(missing("version"))
    else:
        version = whole_number(data["version"], "version", problems, 1, LARGEST_ID)
    if "teams" not in data:
        problems.append(missing("teams"))
    if problems:
        raise Malformed(problems)
    assert version is not None
    game = games.load_game(game_id)
    tallies = games.read_tallies(game, _team_entries(data["teams"]))
    games.correct_deal(game_id, number, version, tallies)
    return _deal_of(game_id, number)


# ---------------------------------------------------------------------------
# Corrections


@bp.get("/games/<int:game_id>/corrections")
def list_corrections(game_id: int) -> ResponseReturnValue:
    return {"corrections": [correction_json(c) for c in games.corrections(game_id)]}


@bp.post("/games/<int:game_id>/corrections/undo")
def undo_correction(game_id: int) -> ResponseReturnValue:
    # Nothing to send, but still application/json: that is what keeps forms of other
    # sites from triggering it (see __init__).
    data = json_body(empty_is_object=True)
    if data:
        raise Malformed(unknown_fields(data, ()))
    return {"undone_deal": games.undo_last_correction(game_id)}


# ---------------------------------------------------------------------------
# Players


@bp.get("/players")
def list_players() -> ResponseReturnValue:
    return {"players": [player_json(player) for player in players.all_players()]}
