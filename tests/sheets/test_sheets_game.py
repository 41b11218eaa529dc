"""The filled score sheet of a game: every value where it belongs, the totals, the winner."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sheet_support import MINUS, TIMES, cells, info, page_size, reading, save_pngs, text

from scorekeeper.rules import Cards, TeamTally
from scorekeeper.services import games, rulesets
from scorekeeper.services.games import TeamSpec

DAGGER = "\u2020"
OUT_BROUILLETTE = TeamTally(clean_books=1, dirty_books=1, melded=Cards(points=400), went_out=True)
CHECK = "\u2713"

# Deal 1 is the German seed's worked example: 3855 to 615.
GERMAN_1 = TeamTally(
    clean_books=2,
    dirty_books=2,
    wild_books=1,
    red_threes=1,
    melded=Cards(points=555),
    went_out=True,
)
GERMAN_2 = TeamTally(clean_books=1, red_threes=1, melded=Cards(points=220), left=Cards(points=205))
# Deal 2 as first entered: Ann & Ben's clean book is later corrected from 1 to 2.
DEAL_2_FIRST = [
    TeamTally(clean_books=1, dirty_books=1, melded=Cards(points=300), left=Cards(points=40)),
    TeamTally(
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        red_threes=2,
        melded=Cards(points=640),
        went_out=True,
        opening_meld=120,
    ),
]
DEAL_2_CORRECTED = [
    TeamTally(clean_books=2, dirty_books=1, melded=Cards(points=300), left=Cards(points=40)),
    DEAL_2_FIRST[1],
]
DEAL_3 = [
    TeamTally(
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        red_threes=1,
        melded=Cards(points=700),
        went_out=True,
    ),
    TeamTally(dirty_books=1, red_threes_caught=1, melded=Cards(points=150), left=Cards(points=310)),
]
DEAL_4 = [
    TeamTally(clean_books=2, dirty_books=2, wild_books=1, melded=Cards(points=800), went_out=True),
    TeamTally(clean_books=1, melded=Cards(points=200), left=Cards(points=60)),
]


def start(app: Flask, *teams: TeamSpec, ruleset: str = "standard") -> int:
    with app.app_context():
        game = games.start_game(ruleset, list(teams), played_on=date(2026, 11, 28))
        return game.id


def ann_ben_cid_dot(app: Flask) -> int:
    return start(app, TeamSpec("", ["Ann", "Ben"]), TeamSpec("", ["Cid", "Dot"]))


def record(app: Flask, game_id: int, *deals: list[TeamTally]) -> None:
    with app.app_context():
        for tallies in deals:
            games.record_deal(game_id, tallies)


def correct(app: Flask, game_id: int, number: int, tallies: list[TeamTally]) -> None:
    with app.app_context():
        version = games.load_game(game_id).deals[number - 1].version
        games.correct_deal(game_id, number, version, tallies)


def sheet(client: FlaskClient, game_id: int, **params: str) -> bytes:
    query = "&".join(f"{key}={value}" for key, value in params.items())
    response = client.get(f"/games/{game_id}/sheet.pdf" + (f"?{query}" if query else ""))
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/pdf"
    return response.data


@pytest.fixture
def finished_game(app: Flask) -> int:
    game_id = ann_ben_cid_dot(app)
    record(app, game_id, [GERMAN_1, GERMAN_2], DEAL_2_FIRST)
    correct(app, game_id, 2, DEAL_2_CORRECTED)
    record(app, game_id, DEAL_3, DEAL_4)
    return game_id


def test_every_value_of_a_known_game_is_where_it_belongs(
    client: FlaskClient, finished_game: int
) -> None:
    pdf = sheet(client, finished_game)
    save_pngs(pdf, "game-finished")
    assert info(pdf)["Pages"] == "1"
    page = text(pdf)
    m = MINUS
    # Two teams: deals 1 and 2 side by side, then deals 3 and 4. In each block the columns
    # are Ann & Ben (how many, points), then Cid & Dot. Written out from the tallies by hand.
    assert cells(page, "Clean books") == [
        [TIMES, "500", "2", "1000", "1", "500"],
        [TIMES, "500", "2", "1000", DAGGER, "2", "1000"],
        [TIMES, "500", "2", "1000", "0", "0"],
        [TIMES, "500", "2", "1000", "1", "500"],
    ]
    assert cells(page, "Dirty books") == [
        [TIMES, "300", "2", "600", "0", "0"],
        [TIMES, "300", "1", "300", "2", "600"],
        [TIMES, "300", "2", "600", "1", "300"],
        [TIMES, "300", "2", "600", "0", "0"],
    ]
    assert cells(page, "Wild books") == [
        [TIMES, "1500", "1", "1500", "0", "0"],
        [TIMES, "1500", "0", "0", "1", "1500"],
        [TIMES, "1500", "1", "1500", "0", "0"],
        [TIMES, "1500", "1", "1500", "0", "0"],
    ]
    assert cells(page, "Red threes laid") == [
        [TIMES, "100", "1", "100", "1", "100"],
        [TIMES, "100", "0", "0", "2", "200"],
        [TIMES, "100", "1", "100", "0", "0"],
        [TIMES, "100", "0", "0", "0", "0"],
    ]
    assert cells(page, "Red threes caught") == [
        [TIMES, f"{m}100", "0", "0", "0", "0"],
        [TIMES, f"{m}100", "0", "0", "0", "0"],
        [TIMES, f"{m}100", "0", "0", "1", f"{m}100"],
        [TIMES, f"{m}100", "0", "0", "0", "0"],
    ]
    assert cells(page, "Going out") == [
        ["+100", CHECK, "100", "\u2013"],
        ["+100", "\u2013", CHECK, "100"],
        ["+100", CHECK, "100", "\u2013"],
        ["+100", CHECK, "100", "\u2013"],
    ]
    assert cells(page, "Melded cards") == [
        ["+", "555", "220"],
        ["+", "300", "640"],
        ["+", "700", "150"],
        ["+", "800", "200"],
    ]
    assert cells(page, "Cards left") == [
        [m, "0", f"{m}205"],
        [m, f"{m}40", "0"],
        [m, "0", f"{m}310"],
        [m, "0", f"{m}60"],
    ]
    assert cells(page, "Deal score") == [
        ["=", "3855", "615"],
        ["=", "1560", "4040"],
        ["=", "4000", "40"],
        ["=", "4000", "640"],
    ]
    assert cells(page, "Running total") == [
        ["3855", "615"],
        ["5415", "4655"],
        ["9415", "4695"],
        ["13415", "5335"],
    ]
    # The one opening meld entered gets its own line.
    assert cells(page, "Opening meld")[1] == ["\u2013", "120"]


def test_the_sheet_names_the_game_its_players_rules_and_winner(
    client: FlaskClient, finished_game: int
) -> None:
    pdf = sheet(client, finished_game)
    words = reading(pdf)
    assert "Standard partnership" in words
    assert "Played on November 28, 2026" in words
    assert "Players, in seat order: Ann, Cid, Ben, Dot" in words
    assert "Finished" in words
    assert "Winner: Ann & Ben with 13415" in words
    totals = [
        " ".join(ln.split()) for ln in text(pdf).splitlines() if ln.strip().startswith("Total")
    ]
    assert totals == ["Total Ann & Ben 13415 \u2605 Cid & Dot 5335"]
    # Who dealt each deal, around the table from the first seat.
    for number, dealer in enumerate(("Ann", "Cid", "Ben", "Dot"), start=1):
        assert re.search(rf"Deal {number} Opening {(50, 90, 120, 150)[number - 1]}\b", words)
        assert f"Dealer: {dealer}" in words
    # The rules played, with their card.
    assert "RULES CARD · STANDARD PARTNERSHIP" in words
    assert "2 clean, 2 dirty and 1 wild book" in words


def test_a_corrected_value_is_marked_and_the_change_explained(
    client: FlaskClient, finished_game: int
) -> None:
    page = text(sheet(client, finished_game))
    # One mark beside the value (deal 2, Ann & Ben, clean books) and one on deal 2's heading.
    assert page.count(DAGGER) == 3  # value, heading, footnote
    assert re.search(rf"Deal 2 Opening 90 {DAGGER}", re.sub(r"\s+", " ", page))
    assert (
        f"{DAGGER} Corrected after the deal was first entered: "
        "Deal 2, Ann & Ben, Clean books: 1 \u2192 2"
    ) in re.sub(r"\s+", " ", page)


def test_only_the_lines_a_correction_changed_are_marked(app: Flask, client: FlaskClient) -> None:
    # Issue 5: corrected values marked. Of two special books, only the one whose count
    # changed; under Brouillette, the black 3s melded when the black-three books changed.
    with app.app_context():
        books = [
            {"id": "sevens", "name": "Book of sevens", "bonus": 1000, "min_points": 35},
            {"id": "reds", "name": "Canasta of reds", "bonus": 800, "min_points": 35},
        ]
        slug = rulesets.create_house_rules("Club night", "standard", {"special_books": books}).slug
    game_id = start(app, TeamSpec("", ["Ann", "Ben"]), TeamSpec("", ["Cid", "Dot"]), ruleset=slug)
    both = {"sevens": 1, "reds": 1}
    first = TeamTally(special_books=both, melded=Cards(points=400), left=Cards(points=60))
    record(app, game_id, [GERMAN_1, first])
    correct(app, game_id, 1, [GERMAN_1, replace(first, special_books={"sevens": 1, "reds": 0})])
    page = text(sheet(client, game_id))
    # Each team's count and points: the second team's sevens as they were, its reds marked.
    assert cells(page, "Book of sevens")[0] == ["\u00d7", "1000", "0", "0", "1", "1000"]
    assert cells(page, "Canasta of reds")[0] == ["\u00d7", "800", "0", "0", "0", "0", DAGGER]

    game_id = start(
        app, *(TeamSpec("", [name]) for name in ("Ann", "Cid", "Eve")), ruleset="brouillette"
    )
    black = TeamTally(black_three_books=1, melded=Cards(points=200), left=Cards(points=60))
    record(app, game_id, [OUT_BROUILLETTE, black, TeamTally(left=Cards(points=60))])
    correct(
        app,
        game_id,
        1,
        [OUT_BROUILLETTE, replace(black, black_three_books=0), TeamTally(left=Cards(points=60))],
    )
    page = text(sheet(client, game_id))
    assert DAGGER in cells(page, "Black 3s melded")[0]


def test_an_undone_correction_is_listed_but_no_longer_marked(
    app: Flask, client: FlaskClient, finished_game: int
) -> None:
    with app.app_context():
        assert games.undo_last_correction(finished_game) == 2
    page = re.sub(r"\s+", " ", text(sheet(client, finished_game)))
    assert "Deal 2, Ann & Ben, Clean books: 1 \u2192 2 (undone)" in page
    # Only the footnote's own mark is left; deal 2 is back to its first entry.
    assert page.count(DAGGER) == 1
    assert "Deal score = 1060 4040" in page


def test_a_game_in_progress_is_marked_and_the_rest_left_blank(
    app: Flask, client: FlaskClient
) -> None:
    game_id = ann_ben_cid_dot(app)
    record(app, game_id, [GERMAN_1, GERMAN_2])
    pdf = sheet(client, game_id, paper="letter")
    save_pngs(pdf, "game-in-progress-letter")
    assert info(pdf)["Pages"] == "1"
    assert page_size(pdf) == pytest.approx((612, 792), abs=0.01)
    page = text(pdf)
    words = reading(pdf)
    assert "In progress: 1 of 4 deals played" in words
    assert "Leading: Ann & Ben with 3855" in words
    assert "Winner" not in words
    assert "\u2605" not in words
    assert cells(page, "Deal score") == [["=", "3855", "615"], ["="], ["="], ["="]]
    # The dealers of the deals still to come are known from the seats.
    assert "Dealer: Dot" in words


def test_a_tie_is_said_to_be_one(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        rulesets.create_house_rules("Quick", "standard", {"deal_count": 1})
    game_id = start(
        app, TeamSpec("", ["Ann", "Ben"]), TeamSpec("", ["Cid", "Dot"]), ruleset="quick"
    )
    same = TeamTally(clean_books=1, melded=Cards(points=100), left=Cards(points=30))
    record(app, game_id, [same, same])
    words = reading(sheet(client, game_id))
    assert "Finished" in words
    assert "Tie: Ann & Ben and Cid & Dot with 570" in words
    assert "The stock ran out: nobody went out." in words


def test_every_team_of_seven_players_alone_fits(app: Flask, client: FlaskClient) -> None:
    names = ["Анна", "Βασίλης", "<script>alert(1)</script>", "\U0001f0cf Joker", "W" * 80, "Ed"]
    game_id = start(app, *(TeamSpec("", [name]) for name in [*names, "Flo"]), ruleset="simpson")
    tallies = [
        TeamTally(clean_books=1, dirty_books=1, melded=Cards(points=200), went_out=True),
        *(TeamTally(melded=Cards(points=50), left=Cards(points=40)) for _ in range(6)),
    ]
    record(app, game_id, tallies)
    for paper in ("a4", "letter"):
        pdf = sheet(client, game_id, paper=paper)
        save_pngs(pdf, f"game-seven-alone-{paper}")
        assert info(pdf)["Pages"] == "1"
        page = text(pdf)
        assert "Анна" in page
        assert "Βασίλης" in page
        assert "<script>alert(1)</script>" in page
        assert "Joker" in page
        assert cells(page, "Deal score")[0] == ["=", "700", *["10"] * 6]


def test_players_alone_under_partnership_rules_have_no_partner_on_the_card(
    app: Flask, client: FlaskClient
) -> None:
    # RULES.md: two, three or five play alone under the partnership presets; nobody has a
    # partner to wait for or to ask, as the game page says too.
    alone = start(app, *(TeamSpec("", [name]) for name in ("Ann", "Ben", "Cid")))
    words = reading(sheet(client, alone))
    assert "Going out" in words
    assert "your partner" not in words.lower()
    pairs = start(app, TeamSpec("", ["Ann", "Ben"]), TeamSpec("", ["Cid", "Dee"]))
    assert "Ask your partner" in reading(sheet(client, pairs))


def test_headers_and_metadata(client: FlaskClient, finished_game: int) -> None:
    response = client.get(f"/games/{finished_game}/sheet.pdf")
    assert response.headers["Content-Type"] == "application/pdf"
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="game-{finished_game}-2026-11-28.pdf"'
    )
    meta = info(response.data)
    assert meta["Title"] == f"Game {finished_game}, November 28, 2026"
    assert meta["Author"] == "Scorekeeper"


@pytest.mark.parametrize(
    ("game_id", "said"),
    [
        ("999", "999"),
        ("99999999999999999999999", "99999999999999999999999"),  # not cut to another number
        ("9" * 30, "9" * 23 + "\u2026"),
    ],
)
def test_an_unknown_game_is_not_found(client: FlaskClient, game_id: str, said: str) -> None:
    response = client.get(f"/games/{game_id}/sheet.pdf")
    assert response.status_code == 404
    page = response.get_data(as_text=True)
    assert f"There is no game {said}." in page
    assert 'href="/games"' in page and "Choose the rules" not in page  # back to the games


def test_a_deleted_game_is_not_found(app: Flask, client: FlaskClient) -> None:
    game_id = ann_ben_cid_dot(app)
    with app.app_context():
        games.delete_game(game_id)
    assert client.get(f"/games/{game_id}/sheet.pdf").status_code == 404


def test_a_bad_paper_is_refused(client: FlaskClient, finished_game: int) -> None:
    response = client.get(f"/games/{finished_game}/sheet.pdf?paper=tabloid")
    assert response.status_code == 400
    assert "Paper must be a4 or letter" in response.get_data(as_text=True)


def test_a_long_correction_log_keeps_the_sheet_on_one_page(app: Flask, client: FlaskClient) -> None:
    game_id = ann_ben_cid_dot(app)
    record(app, game_id, [GERMAN_1, GERMAN_2])
    # Cid & Dot's cards left go back and forth 30 times: 30 entries in the log.
    for change in range(30):
        left = Cards(points=210 if change % 2 == 0 else 205)
        correct(app, game_id, 1, [GERMAN_1, replace(GERMAN_2, left=left)])
    pdf = sheet(client, game_id)
    save_pngs(pdf, "game-long-correction-log")
    assert info(pdf)["Pages"] == "1"
    words = reading(pdf)
    assert "6 earlier changes are in the game's correction log" in words
    assert words.count("Cards left:") == 24
    # The last change is listed, and the value it left is the one on the sheet.
    assert "Deal 1, Cid & Dot, Cards left: 210 \u2192 205" in words
    assert cells(text(pdf), "Cards left")[0] == [MINUS, "0", f"{MINUS}205", DAGGER]


def test_the_winners_star_is_on_every_deal_however_long_the_name(
    app: Flask, client: FlaskClient
) -> None:
    """Below the first deals a long name is cut to one line; the winner's star is not cut
    with it."""
    long_name = "The Unbeatable Grandmothers of the Thursday Club"
    game_id = start(app, TeamSpec(long_name, ["Ann", "Ben"]), TeamSpec("", ["Cid", "Dot"]))
    record(app, game_id, [GERMAN_1, GERMAN_2], DEAL_2_FIRST, DEAL_3, DEAL_4)
    pdf = sheet(client, game_id)
    save_pngs(pdf, "winner-with-a-long-name")
    page = text(pdf)
    # One star for each deal's heading, and one beside the winning total.
    assert page.count("\u2605") == 5, page
