"""What if: the same deals scored under other rules. Nothing is ever written."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sql_support import watch_sql
from sqlalchemy import select
from standings_support import Season

from scorekeeper.extensions import db
from scorekeeper.models import DealResult
from scorekeeper.services import standings
from scorekeeper.services.errors import Conflict, NotFound


@contextmanager
def no_writes(app: Flask) -> Iterator[None]:
    """Fails if anything but a SELECT reaches the database, and if any score moved."""

    def snapshot() -> list[tuple[int, int]]:
        with app.app_context():
            return [
                (i, score)
                for i, score in db.session.execute(select(DealResult.id, DealResult.score))
            ]

    before = snapshot()
    with app.app_context():
        engine = db.engine
    with watch_sql(engine) as seen:
        yield
    writes = [s for s in seen if not s.lstrip().upper().startswith(("SELECT", "WITH", "PRAGMA"))]
    assert writes == []
    assert snapshot() == before


def test_a_game_under_rules_without_wild_books(app: Flask, season: Season) -> None:
    with no_writes(app), app.app_context():
        result = standings.what_if_game(season.g1, "no-wild-books")
    assert result.old_totals == [8070, 5720]
    # Each wild book loses its 1500: 3600 becomes 2100; the other entries keep their score.
    assert [deal.new for deal in result.deals] == [
        [2100, 950],
        [220, 2100],
        [2100, 220],
        [650, 950],
    ]
    assert result.new_totals == [5070, 4220]
    assert result.old_winners == result.new_winners == [0]
    assert not result.winner_changed
    # Deals with a wild book are impossible without wild books: scored anyway, but flagged.
    assert [bool(deal.problems) for deal in result.deals] == [True, True, True, False]
    assert result.flagged


def test_a_tie_stays_a_tie_and_flags_going_out_without_a_wild_book(
    app: Flask, season: Season
) -> None:
    with app.app_context():
        result = standings.what_if_game(season.g2, "standard")
    assert result.old_totals == result.new_totals == [5270, 5270]
    assert result.new_winners == [0, 1]
    # Standard rules need a wild book to go out; deals 1 and 2 went out without one.
    assert [bool(deal.problems) for deal in result.deals] == [True, True, False, False]


def test_without_rules_a_game_is_scored_under_its_own(app: Flask, season: Season) -> None:
    with app.app_context():
        result = standings.what_if_game(season.g3)
    assert result.new_rules.id == "standard"
    assert result.old_totals == result.new_totals == [4990, 11020]
    assert not result.flagged


def test_a_season_under_other_rules(app: Flask, season: Season) -> None:
    with no_writes(app), app.app_context():
        result = standings.what_if_season(season.season_id, "no-wild-books")
    assert [g.game_id for g in result.games] == [season.g1, season.g2, season.g3]
    assert [g.new_totals for g in result.games] == [[5070, 4220], [5270, 5270], [3490, 6520]]
    lines = {line.name: line for line in result.players}
    ann = lines["Ann"]
    assert (ann.games, ann.old_points, ann.new_points) == (3, 18330, 5070 + 5270 + 3490)
    assert ann.old_wins == ann.new_wins == 3 * standings.WIN_UNITS // 2
    assert lines["Dan"].new_points == 4220 + 5270
    assert {line.name: line.new_rank for line in result.players} == {
        # Wins, then points: Cleo 1.5 (16010), Ann 1.5 (13830), Ben 1.5 (13830), Eve, Dan.
        "Cleo": 1,
        "Ann": 2,
        "Ben": 2,
        "Eve": 4,
        "Dan": 5,
    }


def test_an_unfinished_game_is_refused(app: Flask, season: Season) -> None:
    with app.app_context(), pytest.raises(Conflict):
        standings.what_if_game(season.g6, "standard")


def test_a_deleted_game_is_not_found(app: Flask, season: Season) -> None:
    with app.app_context(), pytest.raises(NotFound):
        standings.what_if_game(season.g5, "standard")


def test_the_game_page(app: Flask, client: FlaskClient, season: Season) -> None:
    with no_writes(app):
        response = client.get(f"/games/{season.g1}/what-if?ruleset=no-wild-books")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "5070" in html and "4220" in html  # as the game page writes them
    assert "3600 → 2100" in html
    assert html.count('class="flagged"') == 3
    # Why each flagged deal is impossible, said in the players' words.
    assert html.count('id="deal-') == 3
    assert "wild book" in html


def test_the_game_page_before_choosing(client: FlaskClient, season: Season) -> None:
    response = client.get(f"/games/{season.g1}/what-if")
    assert response.status_code == 200
    assert 'name="ruleset"' in response.get_data(as_text=True)


def test_the_season_page(app: Flask, client: FlaskClient, season: Season) -> None:
    with no_writes(app):
        response = client.get(f"/seasons/{season.season_id}/what-if?ruleset=no-wild-books")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "13,830" in html  # Ann's points without wild books
    assert "None: every game has the same winner" in html
    # Said as a card player says it, not "the winners of 0 games change".
    verdict = html[html.index('class="verdict"') :].split("</p>", 1)[0]
    assert "Under Easier going out (no wild books) no winner changes (3 games)." in verdict
    assert "0 games" not in verdict


def test_the_season_page_lists_games_whose_winner_changes(
    client: FlaskClient, season: Season
) -> None:
    # Simpson's rules give no red-three bonus: G2's tie (STAY_B 220 = STAY_D 220) breaks,
    # 3170 : 3270 for Ben & Dan. G1 and G3 keep their winners.
    html = client.get(f"/seasons/{season.season_id}/what-if?ruleset=simpson").get_data(as_text=True)
    games = html[html.index('id="games-heading"') :]
    assert games.count("<tr>") == 2  # the header and G2
    assert "a tie between Ann &amp; Cleo, Ben &amp; Dan (5270 : 5270)" in games
    assert "Ben &amp; Dan (3170 : 3270)" in games


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/games/{g6}/what-if?ruleset=standard", 409),
        ("/games/{g5}/what-if?ruleset=standard", 404),
        ("/games/999999/what-if", 404),
        ("/games/{g1}/what-if?ruleset=no-such-rules", 404),
        ("/seasons/999/what-if?ruleset=standard", 404),
        ("/games/99999999999999999999999/what-if", 404),
    ],
)
def test_refusals(client: FlaskClient, season: Season, path: str, status: int) -> None:
    response = client.get(path.format(g1=season.g1, g5=season.g5, g6=season.g6))
    assert response.status_code == status
