"""Sheets at the edges of what the app allows still print on one legible page.

House rules may have up to 12 deals, names of teams, rules and special books up to 80
letters in one word, and a game any number of corrections: each once made a sheet of two
pages, rows squeezed to 2 mm, or words printed off the page or over each other.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sheet_support import boxes, clashes, info, reading, save_pngs
from test_sheet_layout import OUT, STAYING

from scorekeeper import sheets
from scorekeeper.rules import Cards
from scorekeeper.services import games, rulesets
from scorekeeper.services.games import TeamSpec


def _house_rules(app: Flask, name: str, overrides: dict[str, object]) -> str:
    with app.app_context():
        return str(rulesets.create_house_rules(name, "standard", overrides).id)


@pytest.mark.parametrize(
    ("deals", "teams", "paper"),
    [(9, 3, "a4"), (12, 3, "letter"), (12, 4, "a4"), (12, 5, "letter"), (12, 7, "a4")],
)
def test_a_blank_sheet_of_many_deals_and_teams_is_one_page(
    app: Flask, client: FlaskClient, deals: int, teams: int, paper: str
) -> None:
    _house_rules(app, f"Deals {deals}", {"deal_count": deals})
    response = client.get(f"/sheets/blank.pdf?ruleset=deals-{deals}&teams={teams}&paper={paper}")
    assert response.status_code == 200
    pdf = response.data
    save_pngs(pdf, f"blank-{deals}-deals-{teams}-teams-{paper}")
    assert info(pdf)["Pages"] == "1"
    assert clashes(pdf) == []
    words = reading(pdf)
    for number in range(1, deals + 1):
        assert f"Deal {number} Opening" in words
    # Rows one can still write in: two deals side by side halve the rows a block wide.
    with app.test_request_context():
        rules = rulesets.resolve(f"deals-{deals}")
        layout = sheets.blank_sheet(rules, teams, sheets.PAPERS[paper]).layout
    # (At least 2.4 mm on Letter with 12 deals; 120 rows a block wide would be 1.3 mm.)
    assert layout.row_mm >= 2.4
    assert layout.font_pt >= sheets.MIN_FONT_PT


def test_a_filled_sheet_of_twelve_deals_and_three_teams_is_one_page(
    app: Flask, client: FlaskClient
) -> None:
    _house_rules(app, "Deals 12", {"deal_count": 12})
    teams = [TeamSpec("", [f"Ann {i}", f"Ben {i}"]) for i in range(3)]
    with app.app_context():
        game_id = games.start_game("deals-12", teams, played_on=date(2026, 11, 28)).id
        for _deal in range(12):
            games.record_deal(game_id, [OUT, STAYING, STAYING])
    for paper in ("a4", "letter"):
        pdf = client.get(f"/games/{game_id}/sheet.pdf?paper={paper}").data
        save_pngs(pdf, f"game-12-deals-3-teams-{paper}")
        assert info(pdf)["Pages"] == "1"
        assert clashes(pdf) == []
        assert "Winner: Ann 0 & Ben 0 with" in reading(pdf)


def test_many_corrections_and_long_names_keep_one_page_of_legible_rows(
    app: Flask, client: FlaskClient
) -> None:
    teams = [TeamSpec(letter * 80, [f"{letter}1", f"{letter}2"]) for letter in "ÄWΩ"]
    with app.app_context():
        game_id = games.start_game("standard", teams, played_on=date(2026, 11, 28)).id
        for _deal in range(4):
            games.record_deal(game_id, [OUT, STAYING, STAYING])
        for change in range(30):
            number = change % 4 + 1
            more = 5 * (change + 1)
            version = games.load_game(game_id).deals[number - 1].version
            games.correct_deal(
                game_id,
                number,
                version,
                [
                    replace(OUT, melded=Cards(points=600 + more)),
                    replace(STAYING, left=Cards(points=90 + more)),
                    replace(STAYING, melded=Cards(points=300 + more), left=Cards(points=95 + more)),
                ],
            )
        logged = len(games.load_game(game_id).corrections)
    assert logged > 80
    for paper in ("a4", "letter"):
        pdf = client.get(f"/games/{game_id}/sheet.pdf?paper={paper}").data
        save_pngs(pdf, f"game-long-names-long-log-{paper}")
        assert info(pdf)["Pages"] == "1"
        assert [clash for clash in clashes(pdf) if "past the edge" in clash] == []
        words = reading(pdf)
        earlier = re.search(r"(\d+) earlier changes are in the game's correction log", words)
        assert earlier, words
        # The latest change is listed, the earlier ones are counted: none is lost.
        assert int(earlier.group(1)) + words.count(" \u2192 ") == logged
        with app.test_request_context():
            sheet = sheets.game_sheet(games.read_game(game_id), sheets.PAPERS[paper])
        # The footnotes were estimated as tall as they print: the rows keep their height.
        assert sheet.layout.row_mm >= 3.0
        assert sheets._notes_mm(sheet.footnotes) <= sheets.MOST_NOTES_MM


def test_a_long_name_of_house_rules_wraps_under_the_title(app: Flask, client: FlaskClient) -> None:
    ruleset = _house_rules(app, "X" * 80, {})
    for paper in ("a4", "letter"):
        pdf = client.get(f"/sheets/blank.pdf?ruleset={ruleset}&paper={paper}").data
        save_pngs(pdf, f"blank-long-rules-name-{paper}")
        assert info(pdf)["Pages"] == "1"
        assert clashes(pdf) == []
        # Title, rules card and footer each print the whole name, broken across lines.
        assert sum(len(run) for run in re.findall(r"X{3,}", reading(pdf))) == 3 * 80


def test_a_long_name_of_a_special_book_wraps_in_its_row(app: Flask, client: FlaskClient) -> None:
    book = {"id": "long", "name": "B" * 80, "bonus": 1000, "min_points": 35}
    ruleset = _house_rules(app, "Long book", {"special_books": [book]})
    for teams, paper in ((2, "a4"), (3, "letter")):
        pdf = client.get(f"/sheets/blank.pdf?ruleset={ruleset}&teams={teams}&paper={paper}").data
        save_pngs(pdf, f"blank-long-book-name-{teams}-{paper}")
        assert info(pdf)["Pages"] == "1"
        assert clashes(pdf) == []
        # Four deal blocks and the rules card each print the whole name. A line may end its
        # part with two Bs ("BB"): a word's capital B alone is the only shorter run.
        assert sum(len(run) for run in re.findall(r"B{2,}", reading(pdf))) == 5 * 80


def _seven_players_catching_red_threes(
    app: Flask, caught: int, corrected_to: int | None = None
) -> int:
    """A Simpson game of seven players under house rules of 10000-point bonuses and
    penalties: Ann goes out in deal 1, the six others each catch ``caught`` red threes
    (corrected to ``corrected_to`` after, if given)."""
    bonuses = ("clean_book_bonus", "dirty_book_bonus", "wild_book_bonus", "going_out_bonus")
    overrides = {**dict.fromkeys(bonuses, 10_000), "red_three_penalty": 10_000, "deal_count": 12}
    with app.app_context():
        ruleset_id = rulesets.create_house_rules("Big bonuses", "simpson", overrides).id
        players = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus")
        game = games.start_game(ruleset_id, [TeamSpec("", [name]) for name in players])
        out = replace(OUT, clean_books=1, dirty_books=1, wild_books=0, red_threes=0)
        staying = replace(STAYING, clean_books=0, red_threes=0, red_threes_caught=caught)
        deal = games.record_deal(game.id, [out, *[staying] * 6])
        if corrected_to is not None:
            now = replace(staying, red_threes_caught=corrected_to)
            games.correct_deal(game.id, 1, deal.version, [out, *[now] * 6])
        return int(game.id)


def test_six_character_figures_stay_in_their_cells_seven_teams_across(
    app: Flask, client: FlaskClient
) -> None:
    """House rules allow bonuses and penalties up to 10000: two red threes caught print
    -20000 in a points cell a seventh of the page wide, which once ran into the next
    team's count ("-200000" read back)."""
    game_id = _seven_players_catching_red_threes(app, 2)
    pdf = client.get(f"/games/{game_id}/sheet.pdf").data
    save_pngs(pdf, "game-7-teams-big-figures")
    words = reading(pdf).split()
    assert words.count("\u221220000") == 6, [w for w in words if "20000" in w]
    assert clashes(pdf) == []


def test_a_corrected_six_character_figure_keeps_its_mark_in_its_cell(
    app: Flask, client: FlaskClient
) -> None:
    """The correction mark "†" after -20000 is measured with the figure: a seventh of the
    page had room for the figure alone, and the mark ran into the next team's count."""
    game_id = _seven_players_catching_red_threes(app, 1, corrected_to=2)
    pdf = client.get(f"/games/{game_id}/sheet.pdf").data
    save_pngs(pdf, "game-7-teams-big-figures-corrected")
    # Each figure is read back whole with its mark after it (the mark is a word of its own).
    assert reading(pdf).count("\u221220000 \u2020") == 6, reading(pdf)
    assert clashes(pdf) == []
    # The mark ends where the figures right-aligned in the same column below it end (the
    # "0" of "Drew exactly 22"): it once ran into the next team's count, past the block.
    words = boxes(pdf)
    figures = [w for w in words if w[4] == "\u221220000"]
    marks = [w for w in words if w[4] == "\u2020" and abs(w[1] - figures[0][1]) < 0.5]
    assert len(figures) == len(marks) == 6
    for figure, mark in zip(sorted(figures), sorted(marks), strict=True):
        below = [w for w in words if 0.5 < w[1] - figure[3] < 8 and w[2] >= figure[0]]
        cell_right = min(w[2] for w in below)
        assert mark[2] <= cell_right + 0.2, (figure, mark, cell_right)
