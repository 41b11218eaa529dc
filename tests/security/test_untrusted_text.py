"""Names typed at the table are data, never code: escaped in pages, raw in JSON, whole in PDFs."""

from __future__ import annotations

import subprocess
import tempfile
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape

from scorekeeper.rules import PRESETS
from scorekeeper.services import games, players

SCRIPT = "<script>alert(1)</script>"
FORMULA = "=cmd|' /C calc'!A0"
LONGEST = ("Maximiliane-Wilhelmine " * 4)[:80]
CYRILLIC = "Светлана Ёжикова"
GREEK = "Αθηνά Παπαδοπούλου"
EMOJI = "Jo 🃏 Ker"
HOSTILE = [SCRIPT, FORMULA, LONGEST, CYRILLIC, GREEK, EMOJI]

TEAMS_A = [
    games.TeamSpec(name=SCRIPT, players=[SCRIPT, FORMULA]),
    games.TeamSpec(name=LONGEST, players=[LONGEST, CYRILLIC]),
]
TEAMS_B = [
    games.TeamSpec(name=FORMULA, players=[GREEK, EMOJI]),
    games.TeamSpec(name=f"{GREEK} & {CYRILLIC}"[:80], players=[CYRILLIC, SCRIPT]),
]
FIRST_DEAL = [{"clean_books": 1, "melded": 300, "opening_meld": 60}, {"left": 40}]
# A whole standard game (minimums 50, 90, 120, 150): finished games count in the standings.
GAME_DEALS: list[list[dict[str, Any]]] = [
    FIRST_DEAL,
    [{"melded": 100}, {"clean_books": 1, "melded": 400, "left": 15}],
    [{"dirty_books": 1, "melded": 250}, {"melded": 130, "red_threes": 1}],
    [
        {
            "clean_books": 2,
            "dirty_books": 2,
            "wild_books": 1,
            "red_threes": 1,
            "melded": 555,
            "went_out": True,
        },
        {"clean_books": 1, "red_threes": 1, "melded": 220, "left": 205},
    ],
]


def escaped(text: str) -> str:
    return str(escape(text))


@pytest.fixture
def hostile(app: Flask) -> dict[str, Any]:
    """Two games (one corrected) in a season, every name one that tries to break something."""
    with app.app_context():
        season = players.create_season("<b>Season</b> =1+1")
        ids = []
        for teams in (TEAMS_A, TEAMS_B):
            game = games.start_game("standard", teams, season_id=season.id)
            for deal in GAME_DEALS:
                games.record_deal(game.id, games.tallies_from_mapping(deal))
            ids.append(game.id)
        games.correct_deal(
            ids[0],
            1,
            1,
            games.tallies_from_mapping([{**FIRST_DEAL[0], "melded": 350}, FIRST_DEAL[1]]),
        )
        games.correct_deal(
            ids[0],
            2,
            1,
            games.tallies_from_mapping([GAME_DEALS[1][0], {**GAME_DEALS[1][1], "melded": 410}]),
        )
        people = {p.name: p.id for p in players.all_players()}
        return {"games": ids, "season": season.id, "players": people}


def page(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    assert response.mimetype == "text/html", url
    html = response.get_data(as_text=True)
    # The raw tag never reaches a page; its escaped form does wherever the name shows.
    assert SCRIPT not in html, url
    assert "<script>alert" not in html, url
    return html


def test_the_names_were_stored_as_typed(app: Flask, hostile: dict[str, Any]) -> None:
    assert set(HOSTILE) <= set(hostile["players"])
    assert len(LONGEST) == 80


def test_game_pages_show_every_name_escaped(client: FlaskClient, hostile: dict[str, Any]) -> None:
    first, second = hostile["games"]
    for url, names in [
        (f"/games/{first}", [SCRIPT, FORMULA, LONGEST, CYRILLIC]),
        (f"/games/{second}", [FORMULA, GREEK, EMOJI, CYRILLIC]),
        (f"/games/{first}/corrections", [SCRIPT, LONGEST]),
        ("/games", [SCRIPT, FORMULA]),
    ]:
        html = page(client, url)
        assert escaped(SCRIPT) in html or SCRIPT not in names, url
        for name in names:
            assert escaped(name) in html, (url, name)


def test_player_pages_show_every_name_escaped(client: FlaskClient, hostile: dict[str, Any]) -> None:
    html = page(client, "/players")
    for name in HOSTILE:
        assert escaped(name) in html, name
    for name in HOSTILE:
        html = page(client, f"/players/{hostile['players'][name]}")
        assert escaped(name) in html, name


def test_standings_pages_show_every_name_escaped(
    app: Flask, client: FlaskClient, hostile: dict[str, Any]
) -> None:
    urls = ["/standings", f"/seasons/{hostile['season']}", "/seasons"]
    urls += [f"/players/{hostile['players'][name]}/games" for name in (SCRIPT, EMOJI)]
    urls += [f"/games/{hostile['games'][0]}/what-if"]
    routed = {rule.rule for rule in app.url_map.iter_rules()}
    assert "/standings" in routed  # these pages exist; the test would be hollow otherwise
    standings = page(client, "/standings") + page(client, f"/seasons/{hostile['season']}")
    for name in HOSTILE:
        assert escaped(name) in standings, name
    assert escaped("<b>Season</b> =1+1") in page(client, "/seasons")
    for url in urls:
        page(client, url)


def test_json_holds_the_raw_strings(client: FlaskClient, hostile: dict[str, Any]) -> None:
    first, second = hostile["games"]
    names: list[str] = []
    for game_id in (first, second):
        response = client.get(f"/api/games/{game_id}")
        assert response.status_code == 200
        assert response.mimetype == "application/json"
        body = response.get_json()
        # Raw in JSON (it is data); nosniff keeps a browser from reading it as a page.
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        names += [team["name"] for team in body["teams"]]
        names += [p for team in body["teams"] for p in team["players"]]
    assert set(HOSTILE) <= set(names)
    everyone = client.get("/api/players").get_json()
    assert set(HOSTILE) <= {p["name"] for p in everyone["players"]}


def pdf_text(pdf: bytes) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as file:
        file.write(pdf)
        file.flush()
        done = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", file.name, "-"],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
    return " ".join(done.stdout.split())


def test_the_pdf_sheet_prints_the_names_as_text(
    client: FlaskClient, hostile: dict[str, Any]
) -> None:
    first, second = hostile["games"]
    text = ""
    for game_id in (first, second):
        response = client.get(f"/games/{game_id}/sheet.pdf")
        assert response.status_code == 200
        assert response.mimetype == "application/pdf"
        text += pdf_text(response.get_data())
    text += pdf_text(client.get(f"/seasons/{hostile['season']}/standings.pdf").get_data())
    # pdftotext may break a long name over two lines; compare without spaces.
    squeezed = "".join(text.split())
    for name in HOSTILE:
        assert "".join(name.split()) in squeezed, name
    assert "&lt;" not in text  # escaped once, not twice


def test_presets_are_untouched_by_the_names() -> None:
    # A guard that the fixture used the real standard rules (4 deals), not a stub.
    assert PRESETS["standard"].deal_count == 4
