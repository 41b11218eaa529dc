"""Questions asked while a deal is played: ``POST /api/opening`` and ``POST /api/go-out``.

Calculators like ``POST /api/score``: they store nothing. The tablet's opening-meld checker
and "can we go out?" panel ask them, so the rules are judged on the server only.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TypeVar

from scorekeeper.rules import (
    BOUNDS,
    BookCount,
    CardClass,
    Problem,
    RuleSet,
    TeamTally,
    team_phrase,
)
from scorekeeper.rules.cards import RANK_CLASSES, WILD_CLASSES
from scorekeeper.rules.i18n import N_, NP_
from scorekeeper.rules.play import (
    OPENING_CLASSES,
    PICKUP_PAIR,
    check_go_out,
    check_opening,
    opening_points_step,
    opening_rank_shapes,
    opening_shapes,
    opening_value,
    pickup_wild_shapes,
    ranks_to_classes,
)
from scorekeeper.services.errors import Invalid
from scorekeeper.web import rules_text

from . import bp
from .inputs import json_body, missing, problem, unknown_fields, whole_number
from .openapi import INT, describe, obj, ok, operation
from .scoring import MOST_DEALS, MOST_PLAYERS, rules_and_deal

BOOK_FIELDS = ("clean_books", "dirty_books", "wild_books", "black_three_books")
TEAM_FIELDS = (*BOOK_FIELDS, "players", "in_foot")
K = TypeVar("K")
RULESET_REF = {
    "description": "A ruleset id (preset or house rules) or a whole ruleset object.",
    "oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "object"}],
}


@bp.post("/opening")
def check_opening_meld() -> dict[str, Any]:
    """Is this planned opening meld enough in this deal? Give its cards or its points."""
    data = json_body()
    problems = unknown_fields(data, ("ruleset", "deal", "cards", "ranks", "top_discard", "points"))
    points: int | None = None
    counts: dict[CardClass, int] = {}
    ranks: dict[str, int] = {}
    given = [field for field in ("cards", "ranks", "points") if field in data]
    if len(given) != 1:
        problems.append(
            problem(
                given[0] if given else "cards",
                N_("Give the opening's cards (by kind or by rank) or its points: one of them."),
            )
        )
    elif "points" in data:
        points = whole_number(data["points"], "points", problems, *BOUNDS["opening_meld"])
    elif "cards" in data:
        known = {card.value: card for card in OPENING_CLASSES}
        counts = _counts(data["cards"], "cards", known, problems)
    else:
        ranks = _counts(data["ranks"], "ranks", {rank: rank for rank in RANK_CLASSES}, problems)
        counts = ranks_to_classes(ranks)
    pickup_pair, pickup_wild = _pickup_pair(data, ranks, problems)
    rules, deal = rules_and_deal(data, problems)
    melds, book = True, None
    if points is None:
        points = opening_value(rules, counts)
        melds, book = opening_rank_shapes(rules, ranks) if ranks else opening_shapes(rules, counts)
        if pickup_wild and pickup_pair is not None and pickup_pair >= PICKUP_PAIR:
            # The wild cards picked up with the top one are a wild meld of their own.
            melds, book = pickup_wild_shapes(rules, ranks, data["top_discard"])
    elif (step := opening_points_step(rules)) > 1 and points % step:
        # Every card that melds counts a multiple of 5 (under every preset): 52 is no opening.
        raise Invalid(
            [
                problem(
                    "points",
                    N_(
                        "No opening counts %(points)d points: every card counts a multiple "
                        "of %(step)d."
                    ),
                    points=points,
                    step=step,
                )
            ]
        )
    check = check_opening(
        rules,
        deal,
        points,
        melds=melds,
        book=book,
        pickup_pair=pickup_pair,
        pickup_wild=pickup_wild,
    )
    return {
        "deal": deal,
        "value": check.value,
        "minimum": check.minimum,
        "enough": check.enough,
        "short": check.short,
        "concealed_book": check.concealed_book,
        "message": rules_text.opening_check_phrase(check, deal),
    }


def _pickup_pair(
    data: dict[str, Any], ranks: dict[str, int], problems: list[Problem]
) -> tuple[int | None, bool]:
    """With ``top_discard`` (an opening with a pickup of the discard pile, its cards given by
    rank, the top discard among them): the cards of its rank the hand adds, and whether it is
    a wild card."""
    if "top_discard" not in data:
        return None, False
    top = data["top_discard"]
    if "ranks" not in data:
        problems.append(problem("top_discard", N_("%(field)s goes with the cards given by rank.")))
    elif not isinstance(top, str) or top not in RANK_CLASSES:
        problems.append(
            problem("top_discard", N_("%(field)s must be a rank: joker, 2, A, K, Q, J, 10 to 4."))
        )
    elif ranks.get(top, 0) < 1:
        problems.append(
            problem("top_discard", N_("%(field)s must be one of the cards given by rank."))
        )
    else:
        return ranks[top] - 1, RANK_CLASSES[top] in WILD_CLASSES
    return None, False


def _counts(value: Any, field: str, known: dict[str, K], problems: list[Problem]) -> dict[K, int]:
    """The cards counted per kind or per rank: ``known`` maps the request's keys."""
    counts: dict[K, int] = {}
    if not isinstance(value, dict):
        problems.append(problem(field, N_("%(field)s must be an object.")))
        return counts
    for key, n in value.items():
        where = f"{field}.{key}"
        if key not in known:
            problems.append(
                problem(
                    where,
                    N_("%(field)s is not a kind of card to meld; the kinds are %(kinds)s."),
                    kinds=", ".join(known),
                )
            )
            continue
        whole = whole_number(n, where, problems, *BOUNDS["cards"])
        if whole is not None:
            counts[known[key]] = whole
    return counts


def _team(value: Any, index: int, problems: list[Problem]) -> dict[str, int] | None:
    """One team of the question; what is wrong with it goes to ``problems``, each problem
    carrying the team's index (as /api/score's do)."""
    found: list[Problem] = []
    team = _team_fields(value, f"teams[{index}]", found)
    problems.extend(replace(p, team=index) for p in found)
    return team


def _team_fields(value: Any, where: str, problems: list[Problem]) -> dict[str, int] | None:
    if not isinstance(value, dict):
        problems.append(problem(where, N_("%(field)s must be an object.")))
        return None
    problems.extend(
        problem(f"{where}.{key}", N_("%(field)s is not something this request takes."))
        for key in value
        if key not in TEAM_FIELDS
    )
    team: dict[str, int] = {}
    for name in BOOK_FIELDS:
        n = whole_number(value.get(name, 0), f"{where}.{name}", problems, *BOUNDS[name])
        team[name] = n or 0
    players = whole_number(value.get("players", 1), f"{where}.players", problems, 1, MOST_PLAYERS)
    team["players"] = players or 1
    team["seated"] = int("players" in value)  # told, not the default of one
    in_foot = whole_number(value.get("in_foot", 0), f"{where}.in_foot", problems, 0, MOST_PLAYERS)
    team["in_foot"] = in_foot or 0
    return team


def _team_sizes(rules: RuleSet) -> set[int]:
    """How many players a team may have at some table of these rules."""
    return {
        size
        for players in range(rules.min_players, rules.max_players + 1)
        for _teams, size in rules.seatings(players)
    }


def _unplayable(rules: RuleSet, index: int, team: dict[str, int]) -> list[Problem]:
    found = []
    phrase = team_phrase(TeamTally(), index)
    if team["wild_books"] and not rules.wild_books:
        found.append(
            Problem(
                index,
                f"teams[{index}].wild_books",
                NP_(
                    "%(team)s reports %(count)d wild book, but these rules have no wild books.",
                    "%(team)s reports %(count)d wild books, but these rules have no wild books.",
                ),
                {"team": phrase, "count": team["wild_books"]},
            )
        )
    if team["black_three_books"] and not rules.black_three_books:
        found.append(
            Problem(
                index,
                f"teams[{index}].black_three_books",
                NP_(
                    "%(team)s reports %(count)d black-three book, but these rules have no "
                    "black-three books.",
                    "%(team)s reports %(count)d black-three books, but these rules have no "
                    "black-three books.",
                ),
                {"team": phrase, "count": team["black_three_books"]},
            )
        )
    sizes = _team_sizes(rules)
    if team["seated"] and team["players"] not in sizes:
        found.append(
            Problem(
                index,
                f"teams[{index}].players",
                NP_(
                    "These rules seat no team of %(count)d player.",
                    "These rules seat no team of %(count)d players.",
                ),
                {"count": team["players"]},
            )
        )
    return found


@bp.post("/go-out")
def check_going_out() -> dict[str, Any]:
    """What each team still needs before one of its players may go out in this deal."""
    data = json_body()
    problems = unknown_fields(data, ("ruleset", "deal", "teams"))
    teams: list[dict[str, int] | None] = []
    if "teams" not in data:
        problems.append(missing("teams"))
    elif not isinstance(data["teams"], list) or not 1 <= len(data["teams"]) <= BOUNDS["teams"][1]:
        problems.append(
            problem(
                "teams",
                N_("%(field)s must be a list of 1 to %(most)d teams."),
                most=BOUNDS["teams"][1],
            )
        )
    else:
        teams = [_team(value, i, problems) for i, value in enumerate(data["teams"])]
    rules, deal = rules_and_deal(data, problems)
    # What the rules could never have: wild books where there are none, a team of a size the
    # rules never seat. A question about them has no answer (422), as a deal with them.
    impossible = [p for i, team in enumerate(teams) if team for p in _unplayable(rules, i, team)]
    if impossible:
        raise Invalid(impossible)
    # Not told how many play in a team: one, where these rules let a player be alone; else
    # the fewest partners they seat (Brouillette's partners are two).
    sizes = _team_sizes(rules)
    usual = 1 if 1 in sizes or not sizes else min(sizes)
    for team in teams:
        if team is not None and not team["seated"]:
            # As many in the foot as said: the team has at least that many players.
            bigger = [size for size in sorted(sizes) if size >= team["in_foot"]]
            team["players"] = usual if team["in_foot"] <= usual or not bigger else bigger[0]
    crowded = [
        Problem(
            i,
            f"teams[{i}].in_foot",
            NP_(
                "%(team)s has %(count)d player, so %(in_foot)d cannot be in the foot.",
                "%(team)s has %(count)d players, so %(in_foot)d cannot be in the foot.",
            ),
            {
                "team": team_phrase(TeamTally(), i),
                "count": team["players"],
                "in_foot": team["in_foot"],
            },
        )
        for i, team in enumerate(teams)
        if team is not None and team["in_foot"] > team["players"]
    ]
    if crowded:
        raise Invalid(crowded)
    answers = []
    for team in teams:
        assert team is not None
        clean = rules.clean_for_going_out(team["clean_books"], team["black_three_books"])
        have = BookCount(clean, team["dirty_books"], team["wild_books"])
        check = check_go_out(rules, deal, have, players=team["players"], in_foot=team["in_foot"])
        answers.append(
            {
                "ready": check.ready,
                "missing": {
                    "clean": check.missing.clean,
                    "dirty": check.missing.dirty,
                    "wild": check.missing.wild,
                },
                "feet_missing": check.feet_missing,
                "permission": check.permission,
                "message": rules_text.go_out_check_phrase(check, team["players"]),
            }
        )
    return {"deal": deal, "teams": answers}


_BOOL = {"type": "boolean"}
_COUNT = {"type": "integer", "minimum": 0}


def _openapi() -> None:
    book = {
        name: {"type": "integer", "minimum": 0, "maximum": BOUNDS[name][1]} for name in BOOK_FIELDS
    }
    players = {"type": "integer", "minimum": 1, "maximum": MOST_PLAYERS}
    describe(
        {
            "/api/opening": {
                "post": operation(
                    "Is a planned opening meld enough in this deal? (nothing is stored)",
                    {"200": ok("The opening's value against the deal's minimum.", "OpeningCheck")},
                    ("409", "422"),
                    body="OpeningRequest",
                )
            },
            "/api/go-out": {
                "post": operation(
                    "What each team still needs to go out in this deal (nothing is stored).",
                    {"200": ok("Per team: books still missing, feet, permission.", "GoOutCheck")},
                    ("409", "422"),
                    body="GoOutRequest",
                )
            },
        },
        {
            "OpeningRequest": obj(
                {
                    "ruleset": RULESET_REF,
                    "deal": {"type": "integer", "minimum": 1, "maximum": MOST_DEALS},
                    "cards": obj(
                        {
                            card.value: {
                                "type": "integer",
                                "minimum": 0,
                                "maximum": BOUNDS["cards"][1],
                            }
                            for card in OPENING_CLASSES
                        },
                        description="The opening's cards by kind. With a pickup, count only the "
                        "top discard and the player's own cards.",
                    ),
                    "ranks": obj(
                        {
                            rank: {
                                "type": "integer",
                                "minimum": 0,
                                "maximum": BOUNDS["cards"][1],
                            }
                            for rank in RANK_CLASSES
                        },
                        description="The opening's cards by rank (the tablet's checker sends "
                        "these): every rank melds apart, so K Q J is no meld. With a pickup, "
                        "count only the top discard and the player's own cards.",
                    ),
                    "top_discard": {
                        "type": "string",
                        "enum": list(RANK_CLASSES),
                        "description": "With ranks: the opening comes with a pickup of the "
                        "discard pile, and this is the top discard's rank (counted in ranks). "
                        "Every seed asks two more cards of that rank from the hand (for a wild "
                        "card on top, two of the same: two 2s for a 2, two jokers for a joker, "
                        "seed 003): fewer are never enough, nor is a pickup where the deal "
                        "opens with a concealed book, nor a wild card on top where the rules "
                        "have no wild books.",
                    },
                    "points": {
                        "type": "integer",
                        "minimum": 0,
                        "maximum": BOUNDS["opening_meld"][1],
                        "description": "A value no cards can count (not a multiple of 5 "
                        "under every preset) is refused (422).",
                    },
                },
                ["ruleset", "deal"],
                description="Give one of cards, ranks or points.",
            ),
            "OpeningCheck": obj(
                {
                    "deal": INT,
                    "value": _COUNT,
                    "minimum": _COUNT,
                    "enough": {
                        "type": "boolean",
                        "description": "The value reaches the minimum and, when cards were "
                        "given, they can be laid as melds (a lone joker is no meld; two "
                        "aces and a king are none either: each meld is of one rank). Where "
                        "the deal opens with a concealed book (concealed_book), the cards "
                        "given hold a complete book; points alone are never enough there.",
                    },
                    "short": {
                        **_COUNT,
                        "description": "Points still missing to the minimum; 0 when the "
                        "points reach it, even when the cards make no melds (see enough).",
                    },
                    "concealed_book": _BOOL,
                    "message": {"type": "string"},
                },
                ["deal", "value", "minimum", "enough", "short", "concealed_book", "message"],
            ),
            "GoOutRequest": obj(
                {
                    "ruleset": RULESET_REF,
                    "deal": {"type": "integer", "minimum": 1, "maximum": MOST_DEALS},
                    "teams": {
                        "type": "array",
                        "minItems": 1,
                        "maxItems": BOUNDS["teams"][1],
                        "items": obj(
                            {
                                **book,
                                "black_three_books": {
                                    **book["black_three_books"],
                                    "description": "Counted as clean books (Brouillette); "
                                    "under rules without black-three books refused (422).",
                                },
                                "players": {
                                    **players,
                                    "description": "How many play in the team. Not given: "
                                    "one where the rules let a player be alone, else the "
                                    "fewest partners they seat, and at least in_foot. A size "
                                    "no table of the rules has is refused (422).",
                                },
                                "in_foot": {
                                    **players,
                                    "minimum": 0,
                                    "description": "How many of its players have picked up "
                                    "their foot; more than the team has is refused (422).",
                                },
                            }
                        ),
                    },
                },
                ["ruleset", "deal", "teams"],
            ),
            "GoOutCheck": obj(
                {
                    "deal": INT,
                    "teams": {
                        "type": "array",
                        "items": obj(
                            {
                                "ready": _BOOL,
                                "missing": obj(
                                    {"clean": _COUNT, "dirty": _COUNT, "wild": _COUNT},
                                    ["clean", "dirty", "wild"],
                                ),
                                "feet_missing": _COUNT,
                                "permission": _BOOL,
                                "message": {"type": "string"},
                            },
                            ["ready", "missing", "feet_missing", "permission", "message"],
                        ),
                    },
                },
                ["deal", "teams"],
            ),
        },
    )


_openapi()
