"""The CSV export: a zip with one CSV file per table, safe to open in a spreadsheet."""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import date

import pytest
from flask import Flask
from standings_support import Season

from scorekeeper.rules import Cards, TeamTally
from scorekeeper.services import exchange, games

EVIL = "=cmd|' /C calc'!A0"


def read_zip(data: bytes) -> dict[str, list[dict[str, str]]]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {
            name: list(csv.DictReader(io.StringIO(archive.read(name).decode("utf-8-sig"))))
            for name in archive.namelist()
        }


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=1+1", "'=1+1"),
        ("+33 6 12", "'+33 6 12"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tTab", "'\tTab"),
        ("\rReturn", "'\rReturn"),
        (EVIL, "'" + EVIL),
        ("-50", "-50"),
        ("-12.5", "-12.5"),
        ("Ann", "Ann"),
        ("", ""),
        (-50, -50),
        (None, ""),
        (True, "yes"),
    ],
)
def test_cells_that_a_spreadsheet_would_run_are_neutralised(value: object, cell: object) -> None:
    assert exchange.safe_cell(value) == cell


def test_one_csv_file_per_table_with_one_row_per_team_per_deal(app: Flask, season: Season) -> None:
    with app.app_context():
        tables = read_zip(exchange.export_csv())
    assert set(tables) == {
        "players.csv",
        "seasons.csv",
        "games.csv",
        "teams.csv",
        "deals.csv",
        "corrections.csv",
    }
    # G1, G2, G3, G7: 4 deals; G4 2; G5 4; G6 1 = 23 deals of two teams each.
    assert len(tables["deals.csv"]) == 2 * (4 * 5 + 2 + 1)
    assert len(tables["games.csv"]) == 7 and len(tables["teams.csv"]) == 14
    first = tables["deals.csv"][0]  # G7 is the earliest game
    assert first["played_on"] == "2024-12-20" and first["deal"] == "1" and first["team"] == "1"
    assert first["players"] == "Ann, Ben" and first["team_name"] == "Ann & Ben"
    assert (first["clean_books"], first["wild_books"], first["went_out"]) == ("2", "1", "yes")
    scored = (first["melded_points"], first["score"], first["running_total"])
    assert scored == ("400", "3600", "3600")
    g1 = next(row for row in tables["games.csv"] if row["played_on"] == "2025-01-03")
    assert g1["season"] == "Winter" and g1["winner"] == "Ann & Ben" and g1["state"] == "finished"
    tie = next(row for row in tables["games.csv"] if row["played_on"] == "2025-01-10")
    assert tie["winner"] == "Ann & Cleo = Ben & Dan"
    states = {row["played_on"]: row["state"] for row in tables["games.csv"]}
    assert states["2025-01-24"] == "abandoned" and states["2025-01-25"] == "deleted"
    assert states["2025-01-26"] == "in play"


def test_a_player_named_like_a_formula_comes_out_neutralised(app: Flask) -> None:
    with app.app_context():
        game = games.start_game(
            "standard",
            [games.TeamSpec("@team", [EVIL, "Ann"]), games.TeamSpec("", ["-Ben", "Cleo"])],
            played_on=date(2025, 5, 1),
        )
        # A negative score stays a number.
        games.record_deal(
            game.id,
            [TeamTally(melded=Cards(points=50), left=Cards(points=150)), TeamTally()],
        )
        tables = read_zip(exchange.export_csv())

    assert {row["name"] for row in tables["players.csv"]} == {"'" + EVIL, "Ann", "'-Ben", "Cleo"}
    row = tables["deals.csv"][0]
    assert row["players"] == "'" + EVIL + ", Ann"
    assert row["team_name"] == "'@team"
    assert row["score"] == "-100" and row["running_total"] == "-100"
    assert int(row["score"]) == -100
    team = tables["teams.csv"][1]
    assert team["team_name"] == "'-Ben & Cleo" and team["players"] == "'-Ben, Cleo"
    # Each file opens as UTF-8 in a spreadsheet: it starts with a byte order mark.
    with app.app_context(), zipfile.ZipFile(io.BytesIO(exchange.export_csv())) as archive:
        assert archive.read("players.csv").startswith(b"\xef\xbb\xbf")


def test_counted_cards_get_a_column_per_card_class(app: Flask) -> None:
    with app.app_context():
        game = games.start_game(
            "standard",
            [games.TeamSpec("", ["Ann", "Ben"]), games.TeamSpec("", ["Cleo", "Dan"])],
        )
        games.record_deal(
            game.id,
            games.tallies_from_mapping(
                [{"melded": {"aces": 3, "eights_to_kings": 3}, "left": {"jokers": 1}}, {}]
            ),
        )
        rows = read_zip(exchange.export_csv())["deals.csv"]
    assert rows[0]["melded_points"] == "" and rows[0]["melded_aces"] == "3"
    assert rows[0]["melded_eights_to_kings"] == "3" and rows[0]["left_jokers"] == "1"
    assert rows[0]["score"] == str(3 * 20 + 3 * 10 - 50)
