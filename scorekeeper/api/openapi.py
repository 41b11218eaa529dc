"""The OpenAPI 3.1 document of the JSON API, served at ``GET /api/openapi.json``.

Built as plain data from the same constants the code checks with: the bounds of every
number a team reports come from :data:`scorekeeper.rules.BOUNDS`, the card classes from
:class:`~scorekeeper.rules.CardClass`, the breakdown's parts from ``BREAKDOWN_KEYS``. The
tests validate the document and every real answer of the API against it.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from scorekeeper.rules import BOUNDS, BREAKDOWN_KEYS, CardClass, PlayStyle, WildLimit
from scorekeeper.rules.tally import COUNT_FIELDS, NAME_LONGEST
from scorekeeper.services.games import TRACKED_FIELDS

from . import bp
from .errors import LARGEST_ID
from .games import GAME_FIELDS, LAST_PAGE, PER_PAGE, READ_ONLY_TEAM_FIELDS
from .inputs import MAX_BODY_BYTES

JSON = "application/json"
Schema = dict[str, Any]

# What other API modules document of their own endpoints through describe().
_MORE_PATHS: Schema = {}
_MORE_SCHEMAS: Schema = {}


def describe(paths: Schema, schemas: Schema | None = None) -> None:
    """Add another API module's endpoints (and their schemas) to the document.

    Call it at import time, building operations with :func:`operation`, :func:`ok` and
    :func:`ref`, so every endpoint under /api lives in the one document; the document is
    built on its first request, after every module has been imported.
    """
    if _document.cache_info().currsize:
        raise RuntimeError("describe() must run before the document is first built")
    _MORE_PATHS.update(paths)
    _MORE_SCHEMAS.update(schemas or {})


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def bounded(field: str, *, nullable: bool = False) -> Schema:
    low, high = BOUNDS[field]
    return {"type": ["integer", "null"] if nullable else "integer", "minimum": low, "maximum": high}


def obj(properties: Schema, required: list[str] | tuple[str, ...] = (), **more: Any) -> Schema:
    """An object with exactly these properties (the API refuses any other)."""
    schema: Schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    schema["additionalProperties"] = False
    schema.update(more)
    return schema


CARD_CLASSES = [card.value for card in CardClass]
ID = {"type": "integer", "minimum": 1, "maximum": LARGEST_ID}
INT = {"type": "integer"}
TEXT = {"type": "string"}


def _card_counts(*, all_required: bool) -> Schema:
    return obj(
        {card: bounded("cards") for card in CARD_CLASSES},
        CARD_CLASSES if all_required else (),
        description="Cards as a count per card class; a class left out counts 0."
        if not all_required
        else "Cards as a count per card class.",
    )


def _cards(counts: str) -> Schema:
    return {
        "oneOf": [
            {**bounded("points"), "description": "Cards as a point total."},
            ref(counts),
        ]
    }


def _tally_properties(counts: str) -> Schema:
    properties: Schema = {
        "name": {"type": "string", "maxLength": NAME_LONGEST},
    }
    for field in COUNT_FIELDS:
        properties[field] = bounded(field)
    properties["special_books"] = {
        "type": "object",
        "additionalProperties": bounded("special_books"),
        "description": "Books a house rule rewards on its own, by their id.",
    }
    properties["melded"] = _cards(counts)
    properties["left"] = _cards(counts)
    properties["went_out"] = {"type": "boolean"}
    properties["opening_meld"] = {
        **bounded("opening_meld", nullable=True),
        "description": "The team's opening meld; absent or null when not reported.",
    }
    # Sheet order for readers of the document.
    order = ["name", *TRACKED_FIELDS]
    return {key: properties[key] for key in order}


def _breakdown() -> Schema:
    return obj(
        {key: INT for key in BREAKDOWN_KEYS},
        BREAKDOWN_KEYS,
        description="The parts of a score; they add up to it (penalties are negative).",
    )


def _book_count() -> Schema:
    return obj({kind: {"type": "integer", "minimum": 0} for kind in ("clean", "dirty", "wild")})


def _ruleset_properties() -> Schema:
    nonneg = {"type": "integer", "minimum": 0}
    return {
        "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]{0,62}$"},
        "name": TEXT,
        "deals": {
            "type": "array",
            "minItems": 1,
            "items": obj(
                {
                    "opening_minimum": nonneg,
                    "go_out": ref("BookCount"),
                    "opening_needs_concealed_book": {"type": "boolean"},
                }
            ),
        },
        "description": TEXT,
        "source": TEXT,
        "play_style": {"enum": [style.value for style in PlayStyle]},
        "partnership_sizes": {"type": "array", "items": {"type": "integer", "minimum": 2}},
        "alone_when_unpaired": {
            "type": "boolean",
            "description": "Partnerships: players who cannot pair up play alone (else: "
            "refused). Absent from rules stored before it existed: true.",
        },
        "alone_by_choice": {
            "type": "boolean",
            "description": "Partnerships: a table that could pair up may also have everyone "
            "play alone (eleven-card). Absent from rules stored before it existed: false.",
        },
        "min_players": nonneg,
        "max_players": nonneg,
        "extra_decks": nonneg,
        "min_decks": {
            "type": "integer",
            "minimum": 0,
            "description": "Decks = players + extra_decks, but at least this many; 0 (and "
            "absent, in rules stored before it existed): no floor.",
        },
        "max_decks": {
            "type": "integer",
            "minimum": 0,
            "description": "And at most this many; 0 (and absent): no ceiling.",
        },
        "hand_cards": nonneg,
        "foot_cards": nonneg,
        "discard_pickup": {
            "type": ["integer", "null"],
            "minimum": 1,
            "description": "Cards picked up from the pile; null: the whole pile.",
        },
        "card_values": obj({card: nonneg for card in CARD_CLASSES}),
        "book_size": nonneg,
        "books_may_grow": {"type": "boolean"},
        "one_meld_per_rank": {
            "type": "boolean",
            "description": "A team has at most one meld, and so one book, of each rank. "
            "Absent from rules stored before it existed: false.",
        },
        "wild_limit": {"enum": [limit.value for limit in WildLimit]},
        "min_naturals": nonneg,
        "clean_book_bonus": nonneg,
        "dirty_book_bonus": nonneg,
        "wild_books": {"type": "boolean"},
        "wild_book_bonus": nonneg,
        "black_three_books": {"type": "boolean"},
        "black_three_book_bonus": nonneg,
        "special_books": {
            "type": "array",
            "items": obj(
                {
                    "id": TEXT,
                    "name": TEXT,
                    "bonus": nonneg,
                    "min_points": nonneg,
                    "counts_as": {"enum": ["clean", "dirty", "wild", None]},
                },
                ("id", "name", "bonus"),
            ),
        },
        "red_threes_laid": {"type": "boolean"},
        "red_three_bonus": nonneg,
        "red_three_penalty": nonneg,
        "going_out_bonus": nonneg,
        "partner_in_foot_to_go_out": {"type": "boolean"},
        "permission_to_go_out": {"type": "boolean"},
        "must_discard_to_go_out": {"type": "boolean"},
        "exact_draw_bonus": nonneg,
        "based_on": {"type": ["string", "null"]},
    }


# Rules added after games were first stored: a copy stored before them lacks these keys, and
# reads as true, false, false, 0 and 0 (``RuleSet.from_dict`` fills in the defaults).
ADDED_RULES = (
    "alone_when_unpaired",
    "alone_by_choice",
    "one_meld_per_rank",
    "min_decks",
    "max_decks",
)


def _schemas() -> Schema:
    rules = _ruleset_properties()
    rule_keys = list(rules)
    tally_in = _tally_properties("CardCounts")
    tally_out = _tally_properties("CardCountsStored")
    ruleset_ref = {
        "description": "Whose rules: a preset id, saved house rules (their id or number), "
        "or a whole ruleset object.",
        "oneOf": [
            {"type": "string", "minLength": 1},
            {"type": "integer", "minimum": 1},
            ref("RuleSetInput"),
        ],
    }
    return {
        "Problem": obj(
            {
                "team": {
                    "type": ["integer", "null"],
                    "minimum": 0,
                    "description": "Index of the team concerned; null for the whole request.",
                },
                "field": {"type": "string", "description": "The field at fault; may be empty."},
                "message": {"type": "string", "description": "What is wrong, in plain words."},
            },
            ("team", "field", "message"),
        ),
        "Errors": obj(
            {"errors": {"type": "array", "minItems": 1, "items": ref("Problem")}}, ("errors",)
        ),
        "StaleDeal": obj(
            {
                "errors": {"type": "array", "minItems": 1, "items": ref("Problem")},
                "current": {**ref("Deal"), "description": "The deal as stored now."},
            },
            ("errors", "current"),
        ),
        "CardCounts": _card_counts(all_required=False),
        "CardCountsStored": _card_counts(all_required=True),
        "BookCount": _book_count(),
        "TeamTally": obj(
            tally_in,
            description="What a team reports after a deal. Every field is optional "
            "(0, false, or for opening_meld: not reported).",
        ),
        "DealTeamInput": obj(
            {
                **tally_in,
                **{
                    key: {"readOnly": True, "description": "Ignored when sent."}
                    for key in READ_ONLY_TEAM_FIELDS
                },
            },
            description="A team's tally; a team entry read from the API may be sent back "
            "as it is (score and breakdown are ignored).",
        ),
        "Breakdown": _breakdown(),
        "ScoredTeam": obj(
            {
                "name": TEXT
                | {
                    "description": 'The name sent; without one "Team A", "Team B"… in the '
                    "language of Accept-Language."
                },
                "score": INT,
                "breakdown": ref("Breakdown"),
            },
            ("name", "score", "breakdown"),
        ),
        "ScoreRequest": obj(
            {
                "ruleset": ruleset_ref,
                "deal": {"type": "integer", "minimum": 1, "description": "1-based."},
                "decks": {
                    **bounded("decks", nullable=True),
                    "description": "Decks in play; by default the ruleset's for the teams. "
                    "Decks outside the ruleset's own bounds (the eleven-card game: 5 to 6), or "
                    "too few to deal the players their cards, are refused (422).",
                },
                "teams": {
                    "type": "array",
                    "minItems": BOUNDS["teams"][0],
                    "maxItems": BOUNDS["teams"][1],
                    "items": ref("TeamTally"),
                },
                "players": {
                    "type": ["array", "null"],
                    "items": {"type": "integer", "minimum": 1, "maximum": 4},
                    "description": "How many players each team has, in team order: a player "
                    "alone goes out with nothing left, even under partnership rules. Not "
                    "given: as many teams as the rules seat one way only are seated that way "
                    "(five teams of the standard rules: five players alone), else each team "
                    "has as many as the rules seat in one. A number of teams or a seating no "
                    "game of these rules could have is refused (422).",
                },
            },
            ("ruleset", "deal", "teams"),
        ),
        "ScoreResponse": obj(
            {
                "ruleset": TEXT,
                "deal": INT,
                "opening_minimum": INT,
                "decks": bounded("decks"),
                "hints": {
                    "type": "array",
                    "items": ref("Problem"),
                    "description": "What looks forgotten in this possible deal, for the table "
                    "to check (nothing is refused for it): a team whose players still hold "
                    "cards with none reported left (every player who did not go out holds "
                    "one). Empty when nothing does.",
                },
                "teams": {"type": "array", "items": ref("ScoredTeam")},
            },
            ("ruleset", "deal", "opening_minimum", "decks", "hints", "teams"),
        ),
        "RuleSetInput": obj(
            {
                **rules,
                "opening_minimums": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": 0},
                    "description": "Shorthand: the opening minimum of each deal.",
                },
                "deal_count": {"type": "integer", "minimum": 1},
                "house": {
                    "type": "boolean",
                    "description": "As GET /api/rulesets lists it; not a rule, so ignored.",
                },
            },
            ("id", "name", "deals"),
            description="A whole ruleset, as GET /api/rulesets lists them.",
        ),
        # A game's or house rules' stored copy: one stored before a rule existed lacks it.
        "RuleSet": obj(rules, [key for key in rule_keys if key not in ADDED_RULES]),
        "RulesetEntry": obj(
            {**rules, "house": {"type": "boolean", "description": "Saved house rules."}},
            [*rule_keys, "house"],
        ),
        "Rulesets": obj(
            {"rulesets": {"type": "array", "items": ref("RulesetEntry")}}, ("rulesets",)
        ),
        "DealTeam": obj(
            {**tally_out, "score": INT, "breakdown": ref("Breakdown")},
            [*tally_out, "score", "breakdown"],
        ),
        "Deal": obj(
            {
                "number": {"type": "integer", "minimum": 1},
                "version": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "Send it back to correct the deal.",
                },
                "corrected": {"type": "boolean"},
                "stock_out": {"type": "boolean", "description": "Nobody went out."},
                "running": {"type": "array", "items": INT, "description": "Totals so far."},
                "teams": {"type": "array", "items": ref("DealTeam")},
            },
            ("number", "version", "corrected", "stock_out", "running", "teams"),
        ),
        "DealRequest": obj(
            {"teams": {"type": "array", "items": ref("DealTeamInput")}},
            ("teams",),
            description="One entry per team, in the game's team order.",
        ),
        "DealCorrection": obj(
            {
                "version": {**ID, "description": "The version you read."},
                "teams": {"type": "array", "items": ref("DealTeamInput")},
            },
            ("version", "teams"),
        ),
        "Team": obj(
            {"id": INT, "name": TEXT, "players": {"type": "array", "items": TEXT}},
            ("id", "name", "players"),
        ),
        "NextDeal": obj(
            {
                "number": {"type": "integer", "minimum": 1},
                "opening_minimum": INT,
                "opening_needs_concealed_book": {"type": "boolean"},
                "go_out": ref("BookCount"),
                "dealer": {"type": ["string", "null"]},
            },
            ("number", "opening_minimum", "opening_needs_concealed_book", "go_out", "dealer"),
        ),
        "Game": obj(
            {
                "id": INT,
                "ruleset": {**ref("RuleSet"), "description": "The game's own copy."},
                "ruleset_id": TEXT,
                "played_on": {"type": "string", "format": "date"},
                "season": {"type": ["integer", "null"]},
                "decks": INT,
                "first_dealer_seat": {"type": "integer", "minimum": 0},
                "teams": {"type": "array", "items": ref("Team")},
                "deals": {"type": "array", "items": ref("Deal")},
                "totals": {"type": "array", "items": INT},
                "finished": {"type": "boolean"},
                "abandoned": {"type": "boolean"},
                "leaders": {
                    "type": "array",
                    "items": INT,
                    "description": "Indexes of the teams with the highest total.",
                },
                "winner": {
                    "type": ["integer", "null"],
                    "description": "The winning team's index; null until finished or on a tie.",
                },
                "winners": {
                    "type": "array",
                    "items": INT,
                    "description": "The leaders once the game is finished (several on a tie).",
                },
                "next_deal": {"oneOf": [ref("NextDeal"), {"type": "null"}]},
            },
            [
                "id",
                "ruleset",
                "ruleset_id",
                "played_on",
                "season",
                "decks",
                "first_dealer_seat",
                "teams",
                "deals",
                "totals",
                "finished",
                "abandoned",
                "leaders",
                "winner",
                "winners",
                "next_deal",
            ],
        ),
        "GameRequest": obj(
            {
                "ruleset": ruleset_ref,
                "teams": {
                    "type": "array",
                    "minItems": BOUNDS["teams"][0],
                    "maxItems": BOUNDS["teams"][1],
                    "items": obj(
                        {
                            "name": {
                                "type": ["string", "null"],
                                "maxLength": NAME_LONGEST,
                                "description": "Default: the players' names.",
                            },
                            "players": {
                                "type": "array",
                                "minItems": 1,
                                "items": {"type": "string", "maxLength": NAME_LONGEST},
                            },
                        },
                        ("players",),
                    ),
                },
                "season": {"type": ["integer", "null"], "minimum": 1},
                "played_on": {"type": ["string", "null"], "format": "date"},
                "first_dealer_seat": {
                    "type": ["integer", "null"],
                    "minimum": 0,
                    "description": "Seat of the first dealer, counting around the table.",
                },
            },
            ("ruleset", "teams"),
        ),
        "GameSummary": obj(
            {
                "id": INT,
                "played_on": {"type": "string", "format": "date"},
                "ruleset": TEXT,
                "ruleset_name": TEXT,
                "teams": {"type": "array", "items": ref("Team")},
                "deals_played": INT,
                "totals": {"type": "array", "items": INT},
                "finished": {"type": "boolean"},
                "winner": {"type": ["integer", "null"]},
            },
            (
                "id",
                "played_on",
                "ruleset",
                "ruleset_name",
                "teams",
                "deals_played",
                "totals",
                "finished",
                "winner",
            ),
        ),
        "GameList": obj(
            {
                "games": {"type": "array", "maxItems": PER_PAGE, "items": ref("GameSummary")},
                "page": {"type": "integer", "minimum": 1},
                "pages": {"type": "integer", "minimum": 1},
                "total": {"type": "integer", "minimum": 0},
            },
            ("games", "page", "pages", "total"),
        ),
        "Correction": obj(
            {
                "id": INT,
                "deal": INT,
                "team": {"type": ["integer", "null"]},
                "field": TEXT,
                "old": {"description": "The value before (as in a team tally)."},
                "new": {"description": "The value after."},
                "at": {"type": "string", "format": "date-time"},
                "batch": {"type": "integer", "description": "Fields changed by one save."},
                "undone": {"type": "boolean"},
            },
            ("id", "deal", "team", "field", "old", "new", "at", "batch", "undone"),
        ),
        "Corrections": obj(
            {"corrections": {"type": "array", "items": ref("Correction")}}, ("corrections",)
        ),
        "Undo": obj(
            {
                "undone_deal": {
                    "type": ["integer", "null"],
                    "description": "The deal put back; null when there was nothing to undo.",
                }
            },
            ("undone_deal",),
        ),
        "Players": obj(
            {
                "players": {
                    "type": "array",
                    "items": obj({"id": INT, "name": TEXT}, ("id", "name")),
                }
            },
            ("players",),
        ),
    }


ERROR_TEXT = {
    "400": "Malformed: not JSON, not an object, wrong types, numbers out of bounds, "
    "missing fields, unknown rules ids.",
    "404": "No such game, deal or address.",
    "409": "Refused: the game's last deal is in, the game was abandoned, or rules or a deal it "
    "needs are damaged in the database and cannot be read (the first error names the game or "
    "the house rules, or the game, deal and team; the others say why); nothing was stored.",
    "413": f"The body is larger than {MAX_BODY_BYTES} bytes.",
    "415": "The body is not application/json.",
    "422": "Well formed but impossible under the rules; nothing was stored.",
}


def _error(code: str) -> Schema:
    return {"$ref": f"#/components/responses/E{code}"}


def ok(description: str, schema: str, *, location: bool = False) -> Schema:
    response: Schema = {"description": description, "content": {JSON: {"schema": ref(schema)}}}
    if location:
        response["headers"] = {
            "Location": {"description": "Where to read it.", "schema": {"type": "string"}}
        }
    return response


def _body(schema: str) -> Schema:
    return {"required": True, "content": {JSON: {"schema": ref(schema)}}}


def operation(
    summary: str,
    responses: Schema,
    errors: tuple[str, ...],
    *,
    body: str | None = None,
    parameters: list[Schema] | None = None,
) -> Schema:
    """One documented operation: its answers, plus the refusals every such operation can give.

    ``errors`` are status codes as text ("404", "422", ...); an operation with a ``body``
    (a schema name) also documents 400, 413 and 415.
    """
    op: Schema = {"summary": summary}
    if parameters:
        op["parameters"] = parameters
    if body:
        op["requestBody"] = _body(body)
        errors = (*errors, "400", "413", "415")
    op["responses"] = {
        **responses,
        **{code: _error(code) for code in sorted(set(errors))},
        "default": {
            "description": "Any other refusal (e.g. 405), in the same shape.",
            "content": {JSON: {"schema": ref("Errors")}},
        },
    }
    return op


GAME_ID = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 0},
}
DEAL_NUMBER = {
    "name": "number",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 0},
}
PAGE = {
    "name": "page",
    "in": "query",
    "required": False,
    "schema": {"type": "integer", "minimum": 1, "maximum": LAST_PAGE, "default": 1},
}


def _paths() -> Schema:
    game = [GAME_ID]
    deal = [GAME_ID, DEAL_NUMBER]
    return {
        "/api/rulesets": {
            "get": operation(
                "The rules presets, then the table's saved house rules.",
                {"200": ok("Every ruleset with its data.", "Rulesets")},
                ("409",),
            )
        },
        "/api/score": {
            "post": operation(
                "Score one deal under a ruleset (a calculator: nothing is stored).",
                {"200": ok("Each team's score and its parts.", "ScoreResponse")},
                ("409", "422"),
                body="ScoreRequest",
            )
        },
        "/api/games": {
            "get": operation(
                f"Games, newest first, {PER_PAGE} a page.",
                {"200": ok("A page of games.", "GameList")},
                ("400", "409"),
                parameters=[PAGE],
            ),
            "post": operation(
                "Start a game; it keeps a copy of its rules.",
                {"201": ok("The new game.", "Game", location=True)},
                ("409", "422"),
                body="GameRequest",
            ),
        },
        "/api/games/{game_id}": {
            "get": operation(
                "A game: its rules, teams, deals with scores, totals and winner.",
                {"200": ok("The game.", "Game")},
                ("404", "409"),
                parameters=game,
            )
        },
        "/api/games/{game_id}/deals": {
            "post": operation(
                "Enter the next deal, all teams at once; nothing is stored unless it is valid.",
                {"201": ok("The deal as stored, scored.", "Deal", location=True)},
                ("404", "409", "422"),
                body="DealRequest",
                parameters=game,
            )
        },
        "/api/games/{game_id}/deals/{number}": {
            "get": operation(
                "One deal of a game, with its version.",
                {"200": ok("The deal.", "Deal")},
                ("404", "409"),
                parameters=deal,
            ),
            "put": operation(
                "Correct a past deal; refused if someone else changed it since you read it.",
                {
                    "200": ok("The corrected deal, with its new version.", "Deal"),
                    "409": {
                        "description": "Someone else changed the deal (or stale version): "
                        "the deal as stored now is in current. Or the game's rules or one of "
                        "its deals are damaged in the database and cannot be read: errors only, "
                        "no current.",
                        "content": {JSON: {"schema": {"oneOf": [ref("StaleDeal"), ref("Errors")]}}},
                    },
                },
                ("404", "422"),
                body="DealCorrection",
                parameters=deal,
            ),
        },
        "/api/games/{game_id}/corrections": {
            "get": operation(
                "The game's correction log: which deal, which field, old and new, when.",
                {"200": ok("Every correction, oldest first.", "Corrections")},
                ("404", "409"),
                parameters=game,
            )
        },
        "/api/games/{game_id}/corrections/undo": {
            "post": operation(
                "Undo the latest correction still in force. The body is empty or {}, "
                "but must be sent as application/json.",
                {"200": ok("Which deal was put back.", "Undo")},
                ("400", "404", "409", "413", "415"),
                parameters=game,
            )
        },
        "/api/players": {
            "get": operation(
                "Everyone seen at the table.",
                {"200": ok("Players by name.", "Players")},
                (),
            )
        },
        "/api/openapi.json": {
            "get": {
                "summary": "This document.",
                "responses": {
                    "200": {
                        "description": "OpenAPI 3.1",
                        "content": {JSON: {"schema": {"type": "object"}}},
                    }
                },
            }
        },
    }


@cache
def _document() -> Schema:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Scorekeeper API",
            "version": "1",
            "description": (
                "Score Hand and Foot deals and keep games. Every write takes an "
                "application/json body (anything else: 415). Every refusal is "
                '{"errors": [{"team", "field", "message"}]}: 400 malformed, 404 unknown, '
                "409 conflict, 415 not JSON, 422 impossible under the rules. "
                f"POST /api/games takes {', '.join(GAME_FIELDS)}."
            ),
        },
        "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
        "paths": {**_paths(), **_MORE_PATHS},
        "components": {
            "schemas": {**_schemas(), **_MORE_SCHEMAS},
            "responses": {
                f"E{code}": {
                    "description": text,
                    "content": {JSON: {"schema": ref("Errors")}},
                }
                for code, text in ERROR_TEXT.items()
            },
        },
    }


def document() -> Schema:
    """A fresh copy of the document (callers may change theirs)."""
    return copy.deepcopy(_document())


@bp.get("/openapi.json")
def openapi_json() -> Schema:
    return _document()
