"""Export and import through the JSON API: ``GET /api/export.json``, ``POST /api/import``.

The document is the one :mod:`scorekeeper.services.exchange` writes and reads (also the
settings page's download and the ``export``/``import`` commands). A broken document is
refused whole with 422 and every problem named by its JSON path in ``field``.
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, request
from flask.typing import ResponseReturnValue

from scorekeeper.rules.i18n import N_
from scorekeeper.services import exchange
from scorekeeper.services.errors import Malformed

from . import bp
from .errors import LARGEST_ID
from .inputs import json_body
from .openapi import INT, JSON, TEXT, _tally_properties, describe, obj, ok, operation, ref


def _season() -> int | None:
    raw = request.args.get("season")
    if raw is None:
        return None
    if not raw.isascii() or not raw.isdigit() or not 1 <= int(raw) <= LARGEST_ID:
        raise Malformed.say(N_("season must be the number of a season."), field="season")
    return int(raw)


@bp.get("/export.json")
def export_json() -> ResponseReturnValue:
    season_id = _season()
    export = exchange.open_export(season_id)
    name = (
        "scorekeeper-export.json" if season_id is None else f"scorekeeper-season-{season_id}.json"
    )
    # Sent while it is read, from one snapshot held until the last byte (see exchange). The
    # pieces need no request context: their connection is the export's own.
    response = Response(
        export.json_chunks(compact=True),
        mimetype="application/json",
        headers={"Content-Disposition": f'inline; filename="{name}"'},
    )
    # A response dropped before its first byte never starts the pieces that would close it.
    response.call_on_close(export.close)
    return response


@bp.post("/import")
def import_document() -> ResponseReturnValue:
    data = json_body(limit=exchange.import_limit(current_app.config))
    summary = exchange.import_document(data)
    return {"imported": summary.imported.as_dict(), "skipped": summary.skipped.as_dict()}


# ---------------------------------------------------------------------------
# The OpenAPI description


def _schemas() -> dict[str, Any]:
    stamp = {"type": ["string", "null"], "format": "date-time"}
    day = {"type": ["string", "null"], "format": "date"}
    tally = {k: v for k, v in _tally_properties("CardCountsStored").items() if k != "name"}
    counts = obj({key: INT for key in ("players", "seasons", "house_rules", "games")},
                 ("players", "seasons", "house_rules", "games"))  # fmt: skip
    return {
        "ExportTally": obj(
            {**tally, "score": {**INT, "description": "The tally's score under the game's rules."}},
            [*tally, "score"],
        ),
        "ExportGame": obj(
            {
                "uid": {
                    "type": "string",
                    "pattern": "^[0-9a-f]{32}$",
                    "description": "The game's identity: importing it again skips it.",
                },
                "played_on": {"type": "string", "format": "date"},
                "season": {"type": ["string", "null"], "description": "The season's name."},
                "ruleset_id": TEXT,
                "ruleset": {
                    **ref("RuleSet"),
                    "description": "The rules the game was played under (on import also a "
                    "preset's or house rules' id).",
                },
                "decks": INT,
                "first_dealer_seat": INT,
                "created_at": stamp,
                "finished_at": stamp,
                "abandoned_at": stamp,
                "deleted_at": stamp,
                "teams": {
                    "type": "array",
                    "items": obj(
                        {"name": TEXT, "players": {"type": "array", "items": TEXT}},
                        ("name", "players"),
                    ),
                },
                "deals": {
                    "type": "array",
                    "items": obj(
                        {
                            "number": INT,
                            "version": INT,
                            "created_at": stamp,
                            "updated_at": stamp,
                            "teams": {"type": "array", "items": ref("ExportTally")},
                        },
                        ("number", "version", "created_at", "updated_at", "teams"),
                    ),
                },
                "totals": {"type": "array", "items": INT},
                "corrections": {
                    "type": "array",
                    "items": obj(
                        {
                            "deal": INT,
                            "batch": INT,
                            "team": {"type": ["integer", "null"]},
                            "field": TEXT,
                            "old": {},
                            "new": {},
                            "created_at": stamp,
                            "undone_at": stamp,
                        },
                        ("deal", "batch", "team", "field", "old", "new", "created_at", "undone_at"),
                    ),
                },
            },
            (
                "uid",
                "played_on",
                "season",
                "ruleset_id",
                "ruleset",
                "decks",
                "first_dealer_seat",
                "created_at",
                "finished_at",
                "abandoned_at",
                "deleted_at",
                "teams",
                "deals",
                "totals",
                "corrections",
            ),
        ),
        "ExportDocument": obj(
            {
                "format": {"const": exchange.FORMAT},
                "version": {"const": exchange.VERSION},
                "exported_at": stamp,
                "season": {
                    "type": ["string", "null"],
                    "description": "The season exported alone; null for everything.",
                },
                "players": {
                    "type": "array",
                    "items": obj({"name": TEXT, "created_at": stamp}, ("name", "created_at")),
                },
                "seasons": {
                    "type": "array",
                    "items": obj(
                        {"name": TEXT, "starts_on": day, "ends_on": day, "created_at": stamp},
                        ("name", "starts_on", "ends_on", "created_at"),
                    ),
                },
                "house_rules": {
                    "type": "array",
                    "items": obj(
                        {
                            "id": TEXT,
                            "name": TEXT,
                            "ruleset": ref("RuleSet"),
                            "created_at": stamp,
                            "updated_at": stamp,
                        },
                        ("id", "name", "ruleset", "created_at", "updated_at"),
                    ),
                },
                "games": {"type": "array", "items": ref("ExportGame")},
            },
            exchange.TOP_LEVEL_KEYS,
        ),
        "ImportResult": obj(
            {
                "imported": {**counts, "description": "What was added."},
                "skipped": {**counts, "description": "What was there already and kept as it was."},
            },
            ("imported", "skipped"),
        ),
    }


describe(
    {
        "/api/export.json": {
            "get": operation(
                "Export everything (or one season) as one JSON document, for import elsewhere.",
                {
                    "200": ok("The export.", "ExportDocument"),
                    "409": {
                        "description": "A game's stored rules, house rules, or a team's "
                        "stored tally of a deal are damaged and cannot be read; nothing was "
                        "exported (refused before the first byte).",
                        "content": {JSON: {"schema": ref("Errors")}},
                    },
                },
                ("400", "404"),
                parameters=[
                    {
                        "name": "season",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "integer", "minimum": 1},
                    }
                ],
            )
        },
        "/api/import": {
            "post": operation(
                "Import an export: all of it, or nothing (422 naming every problem). Games, "
                "players, seasons and house rules already there are skipped, not duplicated.",
                {"200": ok("What was imported and what was skipped.", "ImportResult")},
                ("409", "422"),
                body="ExportDocument",
            )
        },
    },
    _schemas(),
)
