"""Seasons and standings through the JSON API.

``GET /api/seasons``, ``POST /api/seasons``, ``GET /api/seasons/<id>/standings`` and
``GET /api/standings`` (all time). Standings are best first: by wins (a tie at the top shares
the win), then rating; ``?sort=`` picks another order (the keys of
:data:`scorekeeper.services.standings.SORTS`).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from flask import request, url_for
from flask.typing import ResponseReturnValue

from scorekeeper.rules import Problem
from scorekeeper.rules.i18n import N_
from scorekeeper.services import players
from scorekeeper.services import standings as service
from scorekeeper.services.errors import Malformed
from scorekeeper.services.standings import Line, SeasonSummary, Standings

from . import bp
from .inputs import json_body, missing, problem, unknown_fields
from .openapi import describe

SEASON_FIELDS = ("name", "starts_on", "ends_on")
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def season_json(summary: SeasonSummary) -> dict[str, Any]:
    season = summary.season
    return {
        "id": season.id,
        "name": season.name,
        "starts_on": season.starts_on.isoformat() if season.starts_on else None,
        "ends_on": season.ends_on.isoformat() if season.ends_on else None,
        "games": summary.games,
    }


def _figures(line: Line) -> dict[str, Any]:
    """What a player's and a partnership's line both show."""
    return {
        "games": line.games,
        "wins": round(float(line.wins), 4),
        "win_pct": round(line.win_pct, 1),
        "points": line.points,
        "average_per_game": round(line.average_per_game, 1),
        "average_per_deal": round(line.average_per_deal, 1),
        "average_margin": round(line.average_margin, 1),
        "rating": line.rating,
        "deals": line.deals,
        "books_per_game": {kind: round(n, 2) for kind, n in line.books_per_game.items()},
        "going_out_rate": round(line.going_out_rate, 3),
        "red_threes_per_game": round(line.red_threes_per_game, 2),
        "red_threes_caught": line.red_threes_caught,
        "stock_outs": line.stock_outs,
        "best_game": line.best,
        "worst_game": line.worst,
        # Points only compare within one ruleset: where this line's points came from.
        "rules": [
            {
                "id": ruleset_id,
                "games": line.rules[ruleset_id].games,
                "points": line.rules[ruleset_id].points,
                "average_per_game": round(line.rules[ruleset_id].average_per_game, 1),
            }
            for ruleset_id in line.ruleset_ids
        ],
    }


def standings_json(table: Standings, sort: str) -> dict[str, Any]:
    return {
        "season": (season_json(SeasonSummary(table.season, table.games)) if table.season else None),
        "games": table.games,
        "sort": sort,
        "players": [
            {"rank": rank, "id": line.players[0], "name": line.name, **_figures(line)}
            for rank, line in zip(table.player_places, table.players, strict=True)
        ],
        "partnerships": [
            {
                "rank": rank,
                "players": list(line.names),
                "player_ids": list(line.players),
                **_figures(line),
            }
            for rank, line in zip(table.partnership_places, table.partnerships, strict=True)
        ],
    }


def _sort() -> str:
    sort = request.args.get("sort", service.DEFAULT_SORT)
    if sort not in service.SORTS:
        raise Malformed(
            [
                problem(
                    "sort",
                    N_("%(field)s must be one of %(choices)s."),
                    choices=", ".join(service.SORTS),
                )
            ]
        )
    return sort


def _date(data: dict[str, Any], field: str, problems: list[Problem]) -> date | None:
    value = data.get(field)
    if value is None:
        return None
    if isinstance(value, str) and _ISO_DATE.fullmatch(value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    problems.append(problem(field, N_("%(field)s must be a date written as YYYY-MM-DD.")))
    return None


@bp.get("/seasons")
def list_seasons() -> ResponseReturnValue:
    return {"seasons": [season_json(summary) for summary in service.seasons()]}


@bp.post("/seasons")
def create_season() -> ResponseReturnValue:
    data = json_body()
    problems = unknown_fields(data, SEASON_FIELDS)
    name = data.get("name")
    if "name" not in data:
        problems.append(missing("name"))
    elif not isinstance(name, str):
        problems.append(problem("name", N_("%(field)s must be text.")))
    starts_on = _date(data, "starts_on", problems)
    ends_on = _date(data, "ends_on", problems)
    if problems:
        raise Malformed(problems)
    assert isinstance(name, str)
    season = players.create_season(name, starts_on, ends_on)
    body = season_json(SeasonSummary(season, 0))
    return body, 201, {"Location": url_for(".season_standings", season_id=season.id)}


@bp.get("/seasons/<int:season_id>/standings")
def season_standings(season_id: int) -> ResponseReturnValue:
    sort = _sort()
    return standings_json(service.standings(season_id, sort), sort)


@bp.get("/standings")
def all_time_standings() -> ResponseReturnValue:
    sort = _sort()
    return standings_json(service.standings(None, sort), sort)


# ---------------------------------------------------------------------------
# The OpenAPI description of these endpoints, for scorekeeper.api.openapi to merge in:
# ``paths.update(openapi_paths())`` and ``schemas.update(openapi_schemas())``.

_NUMBER = {"type": "number"}
_INT = {"type": "integer"}
_TEXT = {"type": "string"}
_DATE = {"type": ["string", "null"], "format": "date"}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _closed(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def openapi_schemas() -> dict[str, Any]:
    figures = {
        "rank": _INT,
        "games": _INT,
        "wins": {**_NUMBER, "description": "A tie at the top shares the win: 1/k each."},
        "win_pct": _NUMBER,
        "points": _INT,
        "average_per_game": _NUMBER,
        "average_per_deal": _NUMBER,
        "average_margin": {
            **_NUMBER,
            "description": "Team total minus the best opposing total, averaged.",
        },
        "rating": {
            "type": ["integer", "null"],
            "description": "openskill Plackett-Luce, shown as 1000 + 40 (mu - 3 sigma).",
        },
        "deals": _INT,
        "books_per_game": _closed(
            {
                "clean": _NUMBER,
                "dirty": _NUMBER,
                "wild": _NUMBER,
                "black_three": _NUMBER,
                "special": {
                    **_NUMBER,
                    "description": "A house rule's own books, every kind together.",
                },
            }
        ),
        "going_out_rate": _NUMBER,
        "red_threes_per_game": _NUMBER,
        "red_threes_caught": _INT,
        "stock_outs": {**_INT, "description": "Deals of these games in which nobody went out."},
        "best_game": {"type": ["integer", "null"]},
        "worst_game": {"type": ["integer", "null"]},
        "rules": {
            "type": "array",
            "description": "The rules the points came from: points compare within one ruleset.",
            "items": _closed(
                {"id": _TEXT, "games": _INT, "points": _INT, "average_per_game": _NUMBER}
            ),
        },
    }
    season = _closed(
        {
            "id": _INT,
            "name": _TEXT,
            "starts_on": _DATE,
            "ends_on": _DATE,
            "games": {**_INT, "description": "Finished games that count in its standings."},
        }
    )
    return {
        "Season": season,
        "Seasons": _closed({"seasons": {"type": "array", "items": _ref("Season")}}),
        "SeasonRequest": {
            "type": "object",
            "properties": {
                "name": {**_TEXT, "minLength": 1, "maxLength": 80},
                "starts_on": _DATE,
                "ends_on": _DATE,
            },
            "required": ["name"],
            "additionalProperties": False,
        },
        "PlayerLine": _closed({"id": _INT, "name": _TEXT, **figures}),
        "PartnershipLine": _closed(
            {
                "players": {"type": "array", "items": _TEXT},
                "player_ids": {"type": "array", "items": _INT},
                **figures,
            }
        ),
        "Standings": _closed(
            {
                "season": {"oneOf": [_ref("Season"), {"type": "null"}]},
                "games": _INT,
                "sort": {"enum": list(service.SORTS)},
                "players": {"type": "array", "items": _ref("PlayerLine")},
                "partnerships": {"type": "array", "items": _ref("PartnershipLine")},
            }
        ),
    }


def _answer(description: str, schema: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ref(schema)}}}


def _refusals(*codes: str) -> dict[str, Any]:
    return {code: {"$ref": f"#/components/responses/E{code}"} for code in codes}


def openapi_paths() -> dict[str, Any]:
    sort = {
        "name": "sort",
        "in": "query",
        "required": False,
        "schema": {"enum": list(service.SORTS), "default": service.DEFAULT_SORT},
    }
    season_id = {"name": "season_id", "in": "path", "required": True, "schema": {"type": "integer"}}
    return {
        "/api/seasons": {
            "get": {
                "summary": "Every season, newest first, with its number of counted games.",
                "responses": {"200": _answer("The seasons.", "Seasons")},
            },
            "post": {
                "summary": "Start a season: a name and an optional date range.",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _ref("SeasonRequest")}},
                },
                "responses": {
                    "201": _answer("The new season.", "Season"),
                    **_refusals("400", "409", "413", "415", "422"),
                },
            },
        },
        "/api/seasons/{season_id}/standings": {
            "get": {
                "summary": "A season's standings: players and partnerships, best first.",
                "parameters": [season_id, sort],
                "responses": {
                    "200": _answer("The standings.", "Standings"),
                    **_refusals("400", "404"),
                },
            }
        },
        "/api/standings": {
            "get": {
                "summary": "All-time standings: players and partnerships, best first.",
                "parameters": [sort],
                "responses": {
                    "200": _answer("The standings.", "Standings"),
                    **_refusals("400"),
                },
            }
        },
    }


# Into the one document at /api/openapi.json.
describe(openapi_paths(), openapi_schemas())
