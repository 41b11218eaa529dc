"""The filled sheet's first layout fits its page, so WeasyPrint lays it out once, not twice.

The sheet's row height is estimated before the render. When the estimate is short, the sheet
spills onto a second page and is laid out again with smaller rows: twice the time, a whole
second of a tablet's wait. The estimate used to leave out the deals' notes ("The stock ran
out"), team names with their players under them, and deal titles that wrap (German); a third
of the demo games' sheets were laid out twice. These sheets have all three.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import gettext
from sheet_support import info, reading

from scorekeeper import sheets
from scorekeeper.rules import Cards, TeamTally
from scorekeeper.services import games
from scorekeeper.services.games import TeamSpec

OUT = TeamTally(
    clean_books=2,
    dirty_books=2,
    wild_books=1,
    red_threes=1,
    melded=Cards(points=600),
    went_out=True,
)
STAYING = TeamTally(clean_books=1, red_threes=1, melded=Cards(points=300), left=Cards(points=90))
# Nobody went out: the deal's heading says the stock ran out.
STOCK_OUT = [STAYING, STAYING]
PAIRS = {
    # Stock-out notes in both deals side by side, and in the last.
    "notes": (
        [TeamSpec("", ["Joost", "Ben"]), TeamSpec("", ["Finn", "Ann"])],
        [STOCK_OUT, STOCK_OUT, [OUT, STAYING], STOCK_OUT],
    ),
    # A team name with its players under it, a name that wraps, and the winner's star.
    "names": (
        [
            TeamSpec("Foot Soldiers", ["Mette", "Søren"]),
            TeamSpec("The Wild Card Sharks", ["Dirk", "Joost"]),
        ],
        [[OUT, STAYING], [STAYING, OUT], [OUT, STAYING], [OUT, STAYING]],
    ),
    "both": (
        [TeamSpec("Red Threes", ["Greta", "Hugo"]), TeamSpec("", ["Carla", "Dirk"])],
        [[STAYING, OUT], STOCK_OUT, [OUT, STAYING], STOCK_OUT],
    ),
}
# The least room a sheet leaves at the foot of its page (measured: 2 to 15 mm). More would be
# room the rows could have had: the estimate must not buy its one render with tiny rows.
MOST_SLACK_MM = 20.0


@pytest.fixture
def layouts(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Each layout of a sheet: the room left under the sheet's end, negative when it spilled."""
    seen: list[float] = []
    render = sheets.press.render

    def spy(html: str, base_url: str, url_fetcher: Any, stylesheet: str) -> Any:
        document = render(html, base_url, url_fetcher, stylesheet)
        page_mm = document.pages[0].height * sheets.PX_MM - 2 * sheets.MARGIN_MM
        ends = [
            page_mm - (number * page_mm + y * sheets.PX_MM - sheets.MARGIN_MM)
            for number, page in enumerate(document.pages)
            for _level, label, (_x, y), _state in page.bookmarks
            if label == sheets.END_MARK
        ]
        seen.extend(ends)
        return document

    monkeypatch.setattr(sheets.press, "render", spy)
    return seen


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", sorted(PAIRS))
def test_a_filled_sheet_is_laid_out_once(
    app: Flask, client: FlaskClient, layouts: list[float], game: str, paper: str, lang: str
) -> None:
    teams, deals = PAIRS[game]
    with app.app_context():
        game_id = games.start_game("standard", teams, played_on=date(2026, 11, 28)).id
        for tallies in deals:
            games.record_deal(game_id, tallies)
    response = client.get(
        f"/games/{game_id}/sheet.pdf?paper={paper}", headers={"Accept-Language": lang}
    )
    assert response.status_code == 200
    assert info(response.data)["Pages"] == "1"
    if game != "names":
        # The notes are on the sheet (in the language asked for).
        assert reading(response.data).count(_stock_note(app, lang)) == 2 + (game == "notes")
    assert len(layouts) == 1, f"laid out {len(layouts)} times; room left: {layouts} mm"
    assert 0 <= layouts[0] <= MOST_SLACK_MM


# Seven players, each a team of their own with a long name: beside the teams, a deal's title,
# its dealer and its note share a narrow heading that wraps, and the first heading names
# every team and its player.
PLAYERS = ["Alexandra", "Bartholomeus", "Christiane", "Dominique", "Evangelina", "Franziska"]
SEVEN = [TeamSpec(f"The Long Team Name Number {i}", [name]) for i, name in enumerate(PLAYERS)]
SEVEN.append(TeamSpec("The Long Team Name Number 6", ["Gwendolyn"]))


@pytest.mark.parametrize("lang", ["en", "da"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_sheet_of_seven_teams_with_notes_is_laid_out_once(
    app: Flask, client: FlaskClient, layouts: list[float], paper: str, lang: str
) -> None:
    with app.app_context():
        game_id = games.start_game("standard", SEVEN, played_on=date(2026, 11, 28)).id
        for _deal in range(4):
            games.record_deal(game_id, [STAYING] * 7)
    response = client.get(
        f"/games/{game_id}/sheet.pdf?paper={paper}", headers={"Accept-Language": lang}
    )
    assert response.status_code == 200
    assert info(response.data)["Pages"] == "1"
    # Every deal's heading has its note (the narrow headings break it across lines, so the
    # PDF's text does not hold it whole).
    with app.test_request_context(headers={"Accept-Language": lang}):
        sheet = sheets.game_sheet(games.read_game(game_id), sheets.PAPERS[paper])
        assert [block.note for block in sheet.blocks] == [_stock_note(app, lang)] * 4
    assert len(layouts) == 1, f"laid out {len(layouts)} times; room left: {layouts} mm"
    assert 0 <= layouts[0] <= MOST_SLACK_MM


def _stock_note(app: Flask, lang: str) -> str:
    with app.test_request_context(headers={"Accept-Language": lang}):
        return gettext("The stock ran out: nobody went out.")
