"""A small season played through the services, with every figure worked out by hand below.

Deal entries (one team's tally) and what they score:

=======  ===================================================  ========  =================
name     tally                                                standard  no-wild-books
=======  ===================================================  ========  =================
OUT_STD  went out; 2 clean, 2 dirty, 1 wild book; melded 400  3600      2100 (not allowed)
OUT_NWB  went out; 2 clean, 2 dirty; melded 400               2100      2100
STAY_A   1 clean, 1 dirty; melded 200, left 50                950       950
STAY_B   melded 160, left 40, one red three                   220       220
STAY_C   2 clean, 2 dirty; melded 400                         2000      2000
STAY_D   melded 220                                           220       220
STAY_S   1 clean; melded 150                                  650       650
=======  ===================================================  ========  =================

OUT_STD: 400 + 2*500 + 2*300 + 1500 + 100 (going out) = 3600; without the wild book 2100.
OUT_NWB: 400 + 1000 + 600 + 100 = 2100. STAY_A: 200 + 500 + 300 - 50 = 950.
STAY_B: 160 + 100 - 40 = 220. STAY_C: 400 + 1000 + 600 = 2000. STAY_S: 150 + 500 = 650.

Season "Winter":

- G1 standard, Ann & Ben | Cleo & Dan: d1 OUT_STD 3600 | STAY_A 950; d2 STAY_B 220 |
  OUT_STD 3600; d3 OUT_STD 3600 | STAY_B 220; d4 (nobody out) STAY_S 650 | STAY_A 950.
  8070 : 5720, Ann & Ben win by 2350.
- G2 no-wild-books, Ann & Cleo | Ben & Dan: d1 OUT_NWB 2100 | STAY_A 950; d2 STAY_A 950 |
  OUT_NWB 2100; d3 (nobody out) STAY_B 220 | STAY_D 220; d4 (nobody out) STAY_C 2000 |
  STAY_C 2000. 5270 : 5270, a TIE: half a win each.
- G3 standard, Ann & Ben | Cleo & Eve: d1 STAY_B 220 | OUT_STD 3600; d2 STAY_A 950 |
  OUT_STD 3600; d3 OUT_STD 3600 | STAY_B 220; d4 STAY_B 220 | OUT_STD 3600.
  4990 : 11020, Cleo & Eve win by 6030.
- G4 abandoned after two deals, G5 finished then deleted, G6 unfinished: none of them count.
- G7 (no season) standard, Ann & Ben | Cleo & Dan with G1's deals: all-time only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from scorekeeper.rules import Cards, TeamTally
from scorekeeper.services import games
from scorekeeper.services.players import create_season

OUT_STD = TeamTally(
    clean_books=2, dirty_books=2, wild_books=1, melded=Cards(points=400), went_out=True
)
OUT_NWB = TeamTally(clean_books=2, dirty_books=2, melded=Cards(points=400), went_out=True)
STAY_A = TeamTally(clean_books=1, dirty_books=1, melded=Cards(points=200), left=Cards(points=50))
STAY_B = TeamTally(melded=Cards(points=160), left=Cards(points=40), red_threes=1)
STAY_C = TeamTally(clean_books=2, dirty_books=2, melded=Cards(points=400))
STAY_D = TeamTally(melded=Cards(points=220))
STAY_S = TeamTally(clean_books=1, melded=Cards(points=150))

G1_DEALS = [(OUT_STD, STAY_A), (STAY_B, OUT_STD), (OUT_STD, STAY_B), (STAY_S, STAY_A)]
G2_DEALS = [(OUT_NWB, STAY_A), (STAY_A, OUT_NWB), (STAY_B, STAY_D), (STAY_C, STAY_C)]
G3_DEALS = [(STAY_B, OUT_STD), (STAY_A, OUT_STD), (OUT_STD, STAY_B), (STAY_B, OUT_STD)]


def play(
    ruleset: str,
    teams: list[list[str]],
    deals: list[tuple[TeamTally, ...]],
    *,
    season_id: int | None = None,
    played_on: date = date(2025, 1, 1),
) -> int:
    game = games.start_game(
        ruleset,
        [games.TeamSpec("", players) for players in teams],
        season_id=season_id,
        played_on=played_on,
    )
    for deal in deals:
        games.record_deal(game.id, list(deal))
    return game.id


@dataclass(frozen=True)
class Season:
    season_id: int
    g1: int
    g2: int
    g3: int
    g4: int
    g5: int
    g6: int
    g7: int


def play_season() -> Season:
    """The season described above (call inside an app context)."""
    season = create_season("Winter", date(2025, 1, 1), date(2025, 3, 31))
    s = season.id
    g1 = play("standard", [["Ann", "Ben"], ["Cleo", "Dan"]], G1_DEALS, season_id=s,
              played_on=date(2025, 1, 3))  # fmt: skip
    g2 = play("no-wild-books", [["Ann", "Cleo"], ["Ben", "Dan"]], G2_DEALS, season_id=s,
              played_on=date(2025, 1, 10))  # fmt: skip
    g3 = play("standard", [["Ann", "Ben"], ["Cleo", "Eve"]], G3_DEALS, season_id=s,
              played_on=date(2025, 1, 17))  # fmt: skip
    # Never counted: abandoned, deleted, unfinished. Each would change every figure if it did.
    g4 = play("standard", [["Ann", "Ben"], ["Cleo", "Dan"]], G1_DEALS[:2], season_id=s,
              played_on=date(2025, 1, 24))  # fmt: skip
    games.abandon_game(g4)
    g5 = play("standard", [["Cleo", "Dan"], ["Ann", "Ben"]], G3_DEALS, season_id=s,
              played_on=date(2025, 1, 25))  # fmt: skip
    games.delete_game(g5)
    g6 = play("standard", [["Dan", "Eve"], ["Ann", "Ben"]], G3_DEALS[:1], season_id=s,
              played_on=date(2025, 1, 26))  # fmt: skip
    # Outside the season: all-time standings only.
    g7 = play("standard", [["Ann", "Ben"], ["Cleo", "Dan"]], G1_DEALS,
              played_on=date(2024, 12, 20))  # fmt: skip
    return Season(s, g1, g2, g3, g4, g5, g6, g7)
