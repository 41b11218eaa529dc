"""The season standings sheet: from plain rows, and from a season's finished games."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from flask import Flask
from flask.testing import FlaskClient
from sheet_support import info, reading, save_pngs, text

from scorekeeper import sheets
from scorekeeper.rules import Cards, TeamTally
from scorekeeper.services import games
from scorekeeper.services import players as player_service
from scorekeeper.services.games import TeamSpec


@dataclass(frozen=True)
class FakeLine:
    rank: int
    name: str
    games: int
    wins: float
    points: int


def test_a_standings_sheet_from_plain_rows(app: Flask) -> None:
    players = [
        {"rank": 1, "name": "Анна", "games": 4, "wins": 2.5, "points": 15_230},
        {"rank": 2, "name": "<b>Ben</b>", "games": 4, "wins": 1.5, "points": -120},
    ]
    partnerships = [FakeLine(1, "Анна & <b>Ben</b>", 4, 2.5, 15_110)]
    chart = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50">'
        '<text x="5" y="30">Ratings chart</text></svg>'
    )
    with app.test_request_context("/seasons/1/standings.pdf"):
        pdf = sheets.render_standings_pdf("Spring 2026", players, partnerships, chart_svg=chart)
    save_pngs(pdf, "standings-fake-rows")
    assert info(pdf)["Title"] == "Spring 2026"
    assert info(pdf)["Author"] == "Scorekeeper"
    page = text(pdf)
    rows = [" ".join(line.split()) for line in page.splitlines()]
    assert "# Name Games Wins Points" in rows
    assert "1 Анна 4 2.5 15230" in rows
    # Names are text, never markup; negative points get a real minus sign.
    assert "2 <b>Ben</b> 4 1.5 \u2212120" in rows
    assert "1 Анна & <b>Ben</b> 4 2.5 15110" in rows
    words = reading(pdf)
    assert words.index("Players") < words.index("Partnerships")
    # The chart is drawn (its text is in the PDF).
    assert "Ratings chart" in words


def test_no_rows_says_so(app: Flask) -> None:
    with app.test_request_context("/seasons/1/standings.pdf"):
        pdf = sheets.render_standings_pdf("Empty season", [], [])
    assert "No games have been played in this season yet." in reading(pdf)


def test_a_season_standings_sheet(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        season = player_service.create_season("Winter league", date(2026, 11, 1))
        season_id = season.id
        game = games.start_game(
            "standard",
            [TeamSpec("", ["Ann", "Ben"]), TeamSpec("", ["Cid", "Dot"])],
            season_id=season_id,
            played_on=date(2026, 11, 28),
        )
        winner = TeamTally(
            clean_books=2,
            dirty_books=2,
            wild_books=1,
            melded=Cards(points=600),
            went_out=True,
        )
        loser = TeamTally(clean_books=1, melded=Cards(points=200), left=Cards(points=50))
        for _deal in range(4):
            games.record_deal(game.id, [winner, loser])
    response = client.get(f"/seasons/{season_id}/standings.pdf")
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.headers["Content-Type"] == "application/pdf"
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="standings-season-{season_id}.pdf"'
    )
    save_pngs(response.data, "standings-season")
    assert info(response.data)["Title"] == "Standings: Winter league"
    rows = [" ".join(line.split()) for line in text(response.data).splitlines()]
    # 4 deals of 500·2 + 300·2 + 1500 + 100 + 600 = 3800 for Ann & Ben; 500 + 200 - 50 = 650.
    # Figures as the standings page writes them: grouped from five digits on.
    assert any(row.startswith("1 Ann 1 1 100%") and row.endswith("15,200 15,200") for row in rows)
    assert any(row.startswith("1 Ann & Ben 1 1 100%") for row in rows)
    assert any(row.startswith("3 Cid 1 0 0%") and row.endswith("2600 2600") for row in rows)
    german = client.get(f"/seasons/{season_id}/standings.pdf?lang=de").data
    rows = [" ".join(line.split()) for line in text(german).splitlines()]
    assert any(row.startswith("1 Ann 1 1 100 %") and row.endswith("15.200 15.200") for row in rows)


def test_an_unknown_season_is_not_found(client: FlaskClient) -> None:
    response = client.get("/seasons/999/standings.pdf")
    assert response.status_code == 404
    assert "There is no season 999" in response.get_data(as_text=True)


def test_a_long_season_is_printed_smaller_to_stay_on_one_page(app: Flask) -> None:
    """Twelve players, 30 partnerships and the ratings chart spilled onto a second page at
    the usual size: printed smaller, everything is on one page; a season far too long for one
    page still prints every row, on more pages."""
    players = [
        {"rank": i + 1, "name": f"Player {i + 1}", "games": 24, "wins": 12, "points": 10_281}
        for i in range(12)
    ]
    pairs = [
        {"rank": i + 1, "name": f"Pair {i + 1} & Co", "games": 2, "wins": 1, "points": 9_845}
        for i in range(30)
    ]
    chart = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 300" width="600" height="300">'
        '<rect width="600" height="300" fill="#eee"/><text x="5" y="30">Ratings chart</text></svg>'
    )
    with app.test_request_context("/seasons/1/standings.pdf"):
        usual = sheets.render_standings_pdf("Long season", players, pairs[:20], chart_svg=chart)
        long = sheets.render_standings_pdf("Long season", players, pairs, chart_svg=chart)
        letter = sheets.render_standings_pdf(
            "Long season", players, pairs, chart_svg=chart, paper=sheets.PAPERS["letter"]
        )
        endless = [{**pairs[0], "rank": i + 1, "name": f"Pair {i + 1}"} for i in range(150)]
        too_long = sheets.render_standings_pdf("Endless", players, endless, chart_svg=chart)
    save_pngs(long, "standings-long-season")
    assert info(usual)["Pages"] == "1"
    assert info(long)["Pages"] == "1" and info(letter)["Pages"] == "1"
    words = reading(long)
    assert "Pair 30 & Co" in words and "Ratings chart" in words
    assert int(info(too_long)["Pages"]) > 1
    assert "Pair 150" in reading(too_long)


def test_a_long_name_wraps_and_no_figure_or_heading_is_broken(
    app: Flask, client: FlaskClient
) -> None:
    """Names may have 80 characters: the name wraps, while every figure and every column
    heading stays whole ("11,0" over "20" reads as another number)."""
    long_name = "Annemarie-Christina " * 4
    with app.app_context():
        season = player_service.create_season("Long names", date(2026, 11, 1))
        game = games.start_game(
            "standard",
            [TeamSpec("", [long_name.strip(), "Ben"]), TeamSpec("", ["Cid", "Dot"])],
            season_id=season.id,
        )
        winner = TeamTally(
            clean_books=2, dirty_books=2, wild_books=1, melded=Cards(points=600), went_out=True
        )
        loser = TeamTally(clean_books=1, melded=Cards(points=200), left=Cards(points=50))
        for _deal in range(4):
            games.record_deal(game.id, [winner, loser])
        season_id = season.id
    pdf = client.get(f"/seasons/{season_id}/standings.pdf").data
    save_pngs(pdf, "standings-long-name")
    rows = [" ".join(line.split()) for line in text(pdf).splitlines()]
    heading = next(row for row in rows if row.startswith("# Name"))
    assert heading == "# Name Games Wins Win rate Rating Points per game Best", heading
    # The name takes two lines; the figures beside it are whole.
    first = rows.index(heading) + 1
    assert rows[first] == rows[first + 2] == "Annemarie-Christina Annemarie-Christina"
    assert rows[first + 1] == "1 1 1 100% 1097 15,200 15,200", rows[first : first + 3]
