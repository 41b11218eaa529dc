"""Charts: valid SVG with a title and a description, labelled for screen readers, data beside."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import date

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale
from markupsafe import Markup
from standings_support import Season

from scorekeeper import charts
from scorekeeper.services import games
from scorekeeper.services.ratings import RatingPoint

SVG_NS = "{http://www.w3.org/2000/svg}"


def svgs(html: str) -> list[ET.Element]:
    return [ET.fromstring(match) for match in re.findall(r"<svg\b.*?</svg>", html, re.S)]


def check_accessible(svg: ET.Element) -> tuple[str, str]:
    """The chart's title and description, after checking the SVG points at both."""
    assert svg.tag == f"{SVG_NS}svg"
    assert svg.get("role") == "img"
    title = svg.find(f"{SVG_NS}title")
    desc = svg.find(f"{SVG_NS}desc")
    assert title is not None and title.text
    assert desc is not None and desc.text
    assert svg.get("aria-labelledby", "").split() == [title.get("id"), desc.get("id")]
    return title.text, desc.text


def test_running_totals_of_a_game(app: Flask, season: Season) -> None:
    with app.test_request_context():
        view = games.view_game(games.load_game(season.g1))
        html = charts.running_totals_svg(view)
    assert isinstance(html, Markup)
    [svg] = svgs(html)
    title, desc = check_accessible(svg)
    assert title == "Running totals"
    assert "Ann & Ben 8070" in desc and "Cleo & Dan 5720" in desc
    # One line per team, and the numbers beside it: start plus four deals, final totals last.
    assert len(svg.findall(f".//{SVG_NS}g[@class='series']")) == 2
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)
    assert len(rows) == 1 + 5  # the header, then a row per point
    assert "8070" in rows[-1] and "5720" in rows[-1]


def test_running_totals_without_the_table(app: Flask, season: Season) -> None:
    with app.test_request_context():
        view = games.view_game(games.load_game(season.g1))
        html = charts.running_totals_svg(view, table=False)
    assert "<table" not in html
    check_accessible(svgs(html)[0])


@pytest.mark.parametrize(
    ("path", "titles"),
    [
        ("/standings", ["Ratings through every game", "Scores per game"]),
        ("/seasons/{season}", ["Ratings through Winter", "Scores per game"]),
        ("/players/{ann}", ["Rating of Ann over time", "How Ann's games ended"]),
    ],
)
def test_pages_show_accessible_charts(
    app: Flask, client: FlaskClient, season: Season, path: str, titles: list[str]
) -> None:
    with app.app_context():
        from scorekeeper.services.standings import standings

        ann = next(line.players[0] for line in standings(None).players if line.name == "Ann")
    html = client.get(path.format(season=season.season_id, ann=ann)).get_data(as_text=True)
    found = [check_accessible(svg)[0] for svg in svgs(html)]
    assert found == titles
    # Every chart's numbers are in a table beside it.
    assert html.count('class="chart-data"') == len(titles)


def test_ticks_are_round_and_cover_the_range() -> None:
    assert charts.nice_ticks(0, 100) == [0, 25, 50, 75, 100]
    ticks = charts.nice_ticks(-2350, 11020)
    assert ticks[0] <= -2350 and ticks[-1] >= 11020
    assert all(t % 1000 == 0 for t in ticks)


def test_a_single_value_is_ticked_in_whole_numbers() -> None:
    # A game of 0:0 deals, or a rating that never moved: no "0.3" or "1097.3" on the axis.
    assert charts.nice_ticks(0, 0) == [0, 1, 2, 3, 4]
    ticks = charts.nice_ticks(1097.4, 1097.4)
    assert ticks[0] <= 1097.4 <= ticks[-1] and all(float(t).is_integer() for t in ticks)


def test_counts_are_ticked_in_whole_numbers() -> None:
    assert charts.nice_ticks(0, 1, whole=True) == [0, 1]
    assert charts.nice_ticks(0, 3, whole=True) == [0, 1, 2, 3]
    for most in range(1, 200):
        ticks = charts.nice_ticks(0, most, whole=True)
        assert ticks[-1] >= most and all(float(t).is_integer() for t in ticks), most


def y_ticks(svg: ET.Element) -> list[str]:
    axis = next(g for g in svg.iter(f"{SVG_NS}g") if "y-axis" in g.get("class", ""))
    return [t.text or "" for t in axis.iter(f"{SVG_NS}text") if t.get("text-anchor") == "end"]


def test_a_players_histogram_counts_whole_games_in_the_pages_language(
    app: Flask, client: FlaskClient, season: Season
) -> None:
    # Ann's games spread one or two to a bar: the axis read "0, 0.2, 0.5, 0.8, 1" games, with
    # an English decimal point on a German page.
    with app.app_context():
        from scorekeeper.services.standings import standings

        ann = next(line.players[0] for line in standings(None).players if line.name == "Ann")
    client.get("/language/de")
    html = client.get(f"/players/{ann}").get_data(as_text=True)
    histogram = next(svg for svg in svgs(html) if "ausgingen" in check_accessible(svg)[0])
    ticks = y_ticks(histogram)
    assert ticks[0] == "0" and all(tick.isdigit() for tick in ticks), ticks
    # Where a chart has fractions, they are written the German way.
    with app.test_request_context(), force_locale("de"):
        assert charts.number(2.5) == "2,5" and charts.number(-12345) == "\u221212.345"


def test_a_chart_renders_in_a_pdf(app: Flask, season: Season) -> None:
    """The same SVG goes into the PDFs: WeasyPrint draws it and its text is in the PDF."""
    import shutil
    import subprocess

    import weasyprint  # type: ignore[import-untyped]  # slow to import: only here

    assert shutil.which("pdftotext"), "pdftotext (poppler-utils) reads the PDF back"
    with app.test_request_context():
        view = games.view_game(games.load_game(season.g1))
        html = charts.running_totals_svg(view, table=False)
    pdf = weasyprint.HTML(string=f"<html><body>{html}</body></html>").write_pdf()
    text = subprocess.run(
        ["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    assert "Deal 4" in text
    assert "Ann & Ben" in text


def test_a_players_rating_chart_shows_what_it_is_drawn_from(app: Flask) -> None:
    # The chart is kept between requests (charts._player_rating): keyed by all it shows,
    # so a new game, a new name or another language draws it again.
    points = [RatingPoint(n, date(2025, 1, n), 25.0 + n, 8.0 - n / 10) for n in range(1, 6)]
    with app.test_request_context():
        first = charts.player_rating_svg("rating-1", "Ann", points)
        assert charts.player_rating_svg("rating-1", "Ann", list(points)) == first
        title, desc = check_accessible(svgs(first)[0])
        assert title == "Rating of Ann over time"
        assert desc.startswith("Ann's rating after each of 5 games")
        assert "1/5/25" in first  # the last game's day
        one_more = [*points, RatingPoint(6, date(2025, 1, 6), 40.0, 2.0)]
        later = charts.player_rating_svg("rating-1", "Ann", one_more)
        assert check_accessible(svgs(later)[0])[1].startswith("Ann's rating after each of 6 g")
        assert f"to {one_more[-1].display}." in later
        renamed = charts.player_rating_svg("rating-1", "Annie", points)
        assert check_accessible(svgs(renamed)[0])[0] == "Rating of Annie over time"
    with app.test_request_context(headers={"Accept-Language": "de"}):
        german = charts.player_rating_svg("rating-1", "Ann", points)
    assert "05.01.25" in german and "1/5/25" not in german


def test_score_ranges_of_five_digits_are_grouped_as_every_number(app: Flask) -> None:
    """The histogram's ranges read as the language writes numbers: 10.000 to 12.499 in
    Danish, 7500 to 9999 with four digits together, as everywhere else."""
    from scorekeeper.services.standings import Bucket

    buckets = [Bucket(7500, 10_000, 2), Bucket(10_000, 12_500, 1)]
    with app.test_request_context(), force_locale("da"):
        html = str(charts.distribution_svg("dist", "Ann", buckets))
    assert "7500\N{EN DASH}9999" in html
    assert "10.000\N{EN DASH}12.499" in html
    assert "10000" not in html
