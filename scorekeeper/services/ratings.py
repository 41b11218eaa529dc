"""Player ratings with openskill's Plackett-Luce model, and each player's rating history.

How a rating is made:

- Every counted game (finished, not abandoned, not deleted) is one match, taken in game order
  (``played_on``, then game id). Its teams are ranked by their final totals; teams with the
  same total share a rank (a tie). A team's players are rated together, so beating strong
  opponents with a weak partner counts for more than the reverse.
- openskill keeps two numbers per player: ``mu`` (the estimated skill, 25 for a newcomer) and
  ``sigma`` (how unsure that estimate still is, 25/3 for a newcomer).
- What the pages show is the *conservative* rating ``mu - 3 * sigma`` (openskill's ordinal:
  the skill the player is almost surely above), scaled to read like a club rating:
  ``1000 + 40 * (mu - 3 * sigma)``. A newcomer shows 1000; a rating rises as the player wins
  and as the evidence piles up, so a regular beats a lucky newcomer with one win.

Computing the ratings is one sequential pass; :func:`rate_games` resumes from the longest
prefix of a previous pass that rates alike, so a newly finished game (the usual change) costs
one rating update instead of the whole history. A game rates alike when its day, its teams'
players and their ranks are the same: a rating never sees a total, only the order it gives,
so a correction that leaves the order as it was (the usual correction) rates nothing again,
however old the game.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = PlackettLuce()
# The displayed rating: BASE + SCALE * (mu - 3 sigma). A newcomer (mu 25, sigma 25/3) shows BASE.
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40


def display(mu: float, sigma: float) -> int:
    """The rating as the pages show it: the conservative estimate, scaled."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


@dataclass(frozen=True, slots=True)
class GameResult:
    """One counted game as the rating sees it: each team's players and final total."""

    game_id: int
    played_on: date
    teams: tuple[tuple[tuple[int, ...], int], ...]  # ((player ids), total) per team


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating right after a game."""

    game_id: int
    played_on: date
    mu: float
    sigma: float

    @property
    def display(self) -> int:
        return display(self.mu, self.sigma)


@dataclass
class Ratings:
    """The result of one pass: the games in order and every player's history through them."""

    games: list[GameResult] = field(default_factory=list)
    # player id -> (index into games, point) after each game the player played
    history: dict[int, list[tuple[int, RatingPoint]]] = field(default_factory=dict)

    def current(self, player_id: int) -> RatingPoint | None:
        points = self.history.get(player_id)
        return points[-1][1] if points else None

    def display(self, player_id: int) -> int | None:
        point = self.current(player_id)
        return point.display if point else None

    def points(self, player_id: int) -> list[RatingPoint]:
        return [point for _, point in self.history.get(player_id, [])]


def ranks(totals: Sequence[int]) -> list[int]:
    """Competition ranks by total, best first: 1 + the number of teams strictly ahead."""
    return [1 + sum(other > total for other in totals) for total in totals]


def _state_before(ratings: Ratings, index: int) -> dict[int, PlackettLuceRating]:
    """Every player's rating before game ``index``, from the histories of a previous pass."""
    state = {}
    for player_id, points in ratings.history.items():
        # The last point recorded before game ``index``.
        at = bisect.bisect_left(points, index, key=lambda item: item[0])
        if at:
            point = points[at - 1][1]
            state[player_id] = MODEL.rating(mu=point.mu, sigma=point.sigma)
    return state


def _rated_alike(a: GameResult, b: GameResult) -> bool:
    """Whether the two give every player the same rating, from the same ratings before: the
    same game on the same day, the same players in each team, and the teams ranked alike."""
    if a is b or a == b:
        return True
    return (
        a.game_id == b.game_id
        and a.played_on == b.played_on
        and [players for players, _ in a.teams] == [players for players, _ in b.teams]
        and ranks([total for _, total in a.teams]) == ranks([total for _, total in b.teams])
    )


def _common_prefix(old: Sequence[GameResult], new: Sequence[GameResult]) -> int:
    n = 0
    for a, b in zip(old, new, strict=False):
        # Games kept from the previous pass are its very objects: no need to compare them.
        if a is not b and not _rated_alike(a, b):
            break
        n += 1
    return n


def rate_games(games: Sequence[GameResult], previous: Ratings | None = None) -> Ratings:
    """Rate ``games`` in the order given, reusing ``previous`` as far as the games rate alike."""
    start = _common_prefix(previous.games, games) if previous else 0
    if previous is not None and start:
        state = _state_before(previous, start)
        # Each history is in game order: keep its points before game ``start``.
        history = {
            player_id: points[:at]
            for player_id, points in previous.history.items()
            if (at := bisect.bisect_left(points, start, key=lambda item: item[0]))
        }
    else:
        state, history = {}, {}
    for index in range(start, len(games)):
        game = games[index]
        teams = [[state.get(p) or MODEL.rating() for p in players] for players, _ in game.teams]
        rated = MODEL.rate(teams, ranks=[float(r) for r in ranks([t for _, t in game.teams])])
        for (players, _), new_team in zip(game.teams, rated, strict=True):
            for player_id, rating in zip(players, new_team, strict=True):
                state[player_id] = rating
                point = RatingPoint(game.game_id, game.played_on, rating.mu, rating.sigma)
                history.setdefault(player_id, []).append((index, point))
    return Ratings(games=list(games), history=history)
