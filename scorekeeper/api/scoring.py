"""The rulesets and the stateless scoring calculator: ``GET /api/rulesets``, ``POST /api/score``."""

from __future__ import annotations

from typing import Any

from scorekeeper.messages import problems_json, said
from scorekeeper.rules import (
    BOUNDS,
    Problem,
    RuleSet,
    TallyError,
    TeamTally,
    deal_hints,
    default_decks,
    read_teams,
    score_deal,
    team_phrase,
    validate_deal,
)
from scorekeeper.rules.i18n import N_, Phrase
from scorekeeper.services import rulesets
from scorekeeper.services.errors import Invalid, Malformed
from scorekeeper.services.games import seating_problems

from . import bp
from .inputs import json_body, missing, problem, ruleset_field, unknown_fields, whole_number
from .shapes import ruleset_entry

SCORE_FIELDS = ("ruleset", "deal", "decks", "teams", "players")
# No ruleset has more deals than this (check_ruleset); the real limit is the ruleset's own.
MOST_DEALS = 12
# The most players one team can have (house rules allow partnerships of four).
MOST_PLAYERS = 4


def rules_and_deal(data: dict[str, Any], problems: list[Problem]) -> tuple[RuleSet, int]:
    """The body's ruleset and deal number, after every other field was read into ``problems``.

    Raises Malformed with all of ``problems`` if any, then Invalid for a ruleset object
    that makes no sense.
    """
    rules, invalid_rules = ruleset_field(data, problems)
    deal: int | None = None
    if "deal" not in data:
        problems.append(missing("deal"))
    else:
        # Outside the game is malformed: there is no such deal to be possible or not.
        most = rules.deal_count if rules is not None else MOST_DEALS
        deal = whole_number(data["deal"], "deal", problems, 1, most)
    if problems:
        raise Malformed(problems)
    if invalid_rules is not None:
        raise invalid_rules
    assert rules is not None and deal is not None
    return rules, deal


@bp.get("/rulesets")
def list_rulesets() -> dict[str, Any]:
    return {"rulesets": [ruleset_entry(rules) for rules in rulesets.all_rulesets()]}


@bp.post("/score")
def score() -> dict[str, Any]:
    """Score one deal under a ruleset. Writes nothing; refuses what is malformed or impossible."""
    data = json_body()
    problems = unknown_fields(data, SCORE_FIELDS)

    tallies: list[TeamTally] | None = None
    if "teams" not in data:
        problems.append(missing("teams"))
    else:
        try:
            tallies = read_teams(data["teams"])
        except TallyError as error:
            problems.extend(error.problems)

    decks: int | None = None
    if data.get("decks") is not None:
        decks = whole_number(data["decks"], "decks", problems, *BOUNDS["decks"])

    # How the table is seated, if told: a player alone under partnership rules (three at a
    # standard table) goes out with nothing left. Without it, each team has as many players
    # as the rules seat in one.
    sizes: list[int] | None = None
    if data.get("players") is not None:
        given = data["players"]
        if not isinstance(given, list) or len(given) != len(tallies or given):
            problems.append(
                problem(
                    "players",
                    N_("%(field)s must say how many players each team has, one number a team."),
                )
            )
        else:
            read = [
                whole_number(count, f"players[{i}]", problems, 1, MOST_PLAYERS)
                for i, count in enumerate(given)
            ]
            sizes = [count or 1 for count in read]

    rules, deal = rules_and_deal(data, problems)
    assert tallies is not None

    if sizes:
        # Teams the rules could never seat have no verdict: refused as a game start would be.
        unseated = seating_problems(rules, sizes, "players")
        if unseated:
            raise Invalid(unseated)
    else:
        # Not told: as many teams as these rules seat in one way only are seated that way
        # (five teams of the standard rules are five players alone: 6 decks, not 11).
        options = rules.team_sizes_for(len(tallies))
        if not options:
            raise Invalid([unseatable_teams(rules, len(tallies))])
        if len(options) == 1:
            sizes = options * len(tallies)
    if decks:
        # Too few decks to deal even the fewest players these teams can be is refused.
        fewest = sum(sizes) if sizes else len(tallies) * min(rules.team_sizes_for(len(tallies)))
        if wrong := rules.decks_problems(decks, fewest):
            raise Invalid(wrong)
    else:
        decks = rules.decks_for(sum(sizes)) if sizes else default_decks(rules, len(tallies))
    impossible: list[Problem] = validate_deal(rules, deal, tallies, decks, sizes)
    if impossible:
        raise Invalid(impossible)
    scores = score_deal(rules, tallies)
    return {
        "ruleset": rules.id,
        "deal": deal,
        "opening_minimum": rules.deal(deal).opening_minimum,
        "decks": decks,
        # What looks forgotten (no cards left for a team still holding some): said, not refused.
        "hints": problems_json(deal_hints(rules, deal, tallies, sizes)),
        "teams": [
            {
                # Unnamed teams are "Team A", "Team B"… in the request's language, as the
                # refusals of this same endpoint and the web pages name them.
                "name": said(team_phrase(tally, i)),
                "score": result.score,
                "breakdown": dict(result.breakdown),
            }
            for i, (tally, result) in enumerate(zip(tallies, scores, strict=True))
        ],
    }


def unseatable_teams(rules: RuleSet, teams: int) -> Problem:
    counts = sorted(
        {
            count
            for players in range(rules.min_players, rules.max_players + 1)
            for count, _size in rules.seatings(players)
        }
    )
    return problem(
        "teams",
        N_("These rules seat %(options)s teams, not %(count)d."),
        options=Phrase(
            N_("%(items)s or %(last)s"), {"items": tuple(counts[:-1]), "last": counts[-1]}
        )
        if len(counts) > 1
        else counts[0],
        count=teams,
    )
