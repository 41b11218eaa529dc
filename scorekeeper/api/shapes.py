"""The JSON shapes the API answers with, built from the services' views of the data.

One function per shape, so every endpoint that shows a deal or a game shows it the same way
(and the OpenAPI document in :mod:`.openapi` describes exactly these).
"""

from __future__ import annotations

from typing import Any

from scorekeeper.extensions import as_utc
from scorekeeper.models import Player
from scorekeeper.rules import PRESETS, RuleSet
from scorekeeper.services.games import (
    CorrectionRecord,
    DealView,
    GameRecord,
    GameView,
    ResultView,
    TeamRecord,
    read_logged,
)


def ruleset_entry(rules: RuleSet) -> dict[str, Any]:
    """A ruleset as ``GET /api/rulesets`` lists it: all its data, and whether it is house rules."""
    return {**rules.to_dict(), "house": PRESETS.get(rules.id) is not rules}


def result_json(result: ResultView) -> dict[str, Any]:
    """One team's entry in a deal: what the table entered, its score and the score's parts."""
    return {
        **result.tally.to_json(),
        "score": result.score.score,
        "breakdown": dict(result.score.breakdown),
    }


def deal_json(deal: DealView) -> dict[str, Any]:
    return {
        "number": deal.number,
        "version": deal.version,
        "corrected": deal.corrected,
        "stock_out": deal.stock_out,
        "running": list(deal.running),
        "teams": [result_json(result) for result in deal.results],
    }


def team_json(team: TeamRecord) -> dict[str, Any]:
    return {
        "id": team.id,
        "name": team.name,
        "players": [member.player.name for member in team.members],
    }


def _next_deal(view: GameView) -> dict[str, Any] | None:
    number = view.next_deal
    if number is None:
        return None
    rule = view.rules.deal(number)
    return {
        "number": number,
        "opening_minimum": rule.opening_minimum,
        "opening_needs_concealed_book": rule.opening_needs_concealed_book,
        "go_out": {
            "clean": rule.go_out.clean,
            "dirty": rule.go_out.dirty,
            "wild": rule.go_out.wild,
        },
        "dealer": view.dealer(number),
    }


def game_json(view: GameView) -> dict[str, Any]:
    game = view.game
    leaders = view.leaders
    return {
        "id": game.id,
        "ruleset": view.rules.to_dict(),
        "ruleset_id": game.ruleset_id,
        "played_on": game.played_on.isoformat(),
        "season": game.season_id,
        "decks": game.decks,
        "first_dealer_seat": game.first_dealer_seat,
        "teams": [team_json(team) for team in game.teams],
        "deals": [deal_json(deal) for deal in view.deals],
        "totals": list(view.totals),
        "finished": view.finished,
        "abandoned": game.abandoned_at is not None,
        "leaders": leaders,
        "winner": view.winner,
        # Only a finished game has winners; several on a tie.
        "winners": leaders if view.finished else [],
        "next_deal": _next_deal(view),
    }


def game_summary_json(view: GameView) -> dict[str, Any]:
    game: GameRecord = view.game
    return {
        "id": game.id,
        "played_on": game.played_on.isoformat(),
        "ruleset": game.ruleset_id,
        "ruleset_name": view.rules.name,
        "teams": [team_json(team) for team in game.teams],
        "deals_played": len(view.deals),
        "totals": list(view.totals),
        "finished": view.finished,
        "winner": view.winner,
    }


def correction_json(correction: CorrectionRecord) -> dict[str, Any]:
    return {
        "id": correction.id,
        "deal": correction.deal_number,
        "team": correction.team_position,
        "field": correction.field,
        "old": read_logged(correction.old_value),
        "new": read_logged(correction.new_value),
        "at": as_utc(correction.created_at).isoformat(),
        "batch": correction.batch,
        "undone": correction.undone_at is not None,
    }


def player_json(player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name}
