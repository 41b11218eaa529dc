"""A deal kept in the database that no longer reads: every page, sheet and API answer says so.

A team's tally of a deal keeps its special books and its cards counted per card class as
JSON. Edited by hand into what no entry could be (a card class this app does not know, a
count that is not a whole number, not an object), such a row used to end in an error 500
wherever the game was scored. Now each request that needs it answers 409 in words (a page,
a sheet's page, or the API's ``errors``), names the game, the deal and the team, and writes
nothing; an export refuses by name rather than write a file its own import would refuse.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
import test_damaged_rules
from sqlalchemy import text
from test_damaged_rules import (  # the same game, with its rules intact
    DEAL_JSON,
    GAME_ROUTES,
    OUT,
    STAY_A,
    TOO_DEEP,
    Table,
    _fill,
    ask,
    stored,
)

from scorekeeper.extensions import db
from scorekeeper.services import games

table = test_damaged_rules.table  # the fixture: a finished game of four deals, one corrected

# Ways a deal's stored tally stops reading, each valid JSON (PostgreSQL holds nothing else):
# the column, what is written there, and the reason the refusal gives.
DAMAGE: dict[str, tuple[str, Any, str]] = {
    "unknown card class": (
        "melded_counts",
        {"bogus": 3},
        "melded.bogus is not a card class; use jokers, twos, aces, eights_to_kings, "
        "fours_to_sevens or black_threes.",
    ),
    "a count in words": ("melded_counts", {"aces": "many"}, "melded.aces must be a whole number."),
    "a fraction": ("left_counts", {"aces": 1.5}, "left.aces must be a whole number."),
    "a negative count": (
        "melded_counts",
        {"aces": -2},
        "melded.aces must be between 0 and 500.",
    ),
    "a list of cards": (
        "left_counts",
        ["aces", "twos"],
        "left must map each card class to a count.",
    ),
    "special books not an object": (
        "special_books",
        ["sevens"],
        "special_books must map each special book to a count.",
    ),
    "a special book in words": (
        "special_books",
        {"sevens": "two"},
        "special_books.sevens must be a whole number.",
    ),
}
NOT_JSON = '{"aces": 4, "twos'  # cut short: only SQLite keeps it
NOT_READ = {"not JSON": NOT_JSON, "nested too deep": TOO_DEEP}
TEAM = "Cid & Dee"  # the damaged row is the second team's of deal 2


def damage_deal(table: Table, how: str, game: int | None = None, deal: int = 2) -> None:
    """Write a damaged value over the second team's row of a deal, straight into the table."""
    column, value = ("melded_counts", NOT_READ[how]) if how in NOT_READ else DAMAGE[how][:2]
    with table.app.app_context():
        updated = db.session.execute(
            text(
                f"UPDATE deal_result SET {column} = :value WHERE position = 1 AND deal_id = "
                "(SELECT id FROM deal WHERE game_id = :game AND number = :deal)"
            ),
            {
                "value": value if how in NOT_READ else json.dumps(value),
                "game": game or table.game,
                "deal": deal,
            },
        )
        assert updated.rowcount == 1  # type: ignore[attr-defined]
        db.session.commit()


def headline(table: Table, game: int | None = None, deal: int = 2) -> str:
    return f"What was entered for {TEAM} in deal {deal} of game {game or table.game}"


def check_refused(
    table: Table, reason: str, method: str, url: str, body: Any, **where: int
) -> None:
    url, body = _fill(url, table), _fill(body, table)
    before = stored(table.app)
    response = ask(table.app.test_client(), method, url, body)
    said = f"{method} {url}"
    assert response.status_code == 409, said
    # Nothing written, nothing lost: every row as it was, the damaged one too.
    assert stored(table.app) == before, said
    exported = "export" in url
    if url.startswith("/api/"):
        assert response.is_json, said
        errors = response.get_json()["errors"]
        assert errors and all(set(e) == {"team", "field", "message"} for e in errors), said
        assert errors[0]["message"].startswith(headline(table, **where)), said
        assert errors[0]["team"] == 1, said
        if not exported:
            assert errors[0]["field"] == "deal", said
            assert reason in [e["message"] for e in errors[1:]], said
        return
    # A page, even where a PDF or a download was asked for, in words.
    assert response.mimetype == "text/html", said
    page = response.get_data(as_text=True).replace("&amp;", "&")
    assert headline(table, **where) in page, said
    if exported:
        assert "Nothing was exported." in page, said
    else:
        assert reason in page, said
        assert "Nothing was changed" in page, said
        if not url.endswith(".pdf"):  # a sheet's own problem page says the problems only
            assert "put it back from a backup" in page, said


@pytest.mark.parametrize(("method", "url", "body"), GAME_ROUTES)
def test_a_game_with_a_damaged_deal_is_refused_in_words(
    table: Table, method: str, url: str, body: Any
) -> None:
    damage_deal(table, "unknown card class")
    check_refused(table, DAMAGE["unknown card class"][2], method, url, body)


@pytest.mark.parametrize("how", DAMAGE)
@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("GET", "/games/{g}"),
        ("GET", "/api/games/{g}"),
        ("GET", "/games/{g}/sheet.pdf"),
        ("GET", "/api/export.json"),
    ],
)
def test_every_kind_of_damage_is_named(table: Table, how: str, method: str, url: str) -> None:
    damage_deal(table, how)
    check_refused(table, DAMAGE[how][2], method, url, None)


@pytest.mark.sqlite_only("PostgreSQL refuses text that is not JSON in a JSON column")
@pytest.mark.parametrize("how", NOT_READ)
@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("GET", "/games"),
        ("GET", "/games/{g}"),
        ("GET", "/games/{g}/sheet.pdf"),
        ("GET", "/api/games/{g}"),
        ("GET", "/settings/export.json"),
        ("GET", "/api/export.json"),
        ("POST", "/games/{g}/corrections/undo"),
    ],
)
def test_a_tally_kept_as_text_that_is_not_json_is_refused_in_words(
    table: Table, how: str, method: str, url: str
) -> None:
    damage_deal(table, how)
    check_refused(table, "melded must map each card class to a count.", method, url, None)


def test_the_pages_that_do_not_need_the_deal_still_answer(table: Table) -> None:
    # Standings add up the totals kept when each deal was saved: no tally is read again.
    damage_deal(table, "a count in words")
    client = table.app.test_client()
    for url in (
        "/",
        "/players",
        "/standings",
        f"/seasons/{table.season}",
        "/rules",
        "/api/standings",
        "/api/rulesets",
    ):
        assert client.get(url).status_code == 200, url


def test_the_page_says_it_in_the_tables_language(table: Table) -> None:
    damage_deal(table, "unknown card class")
    page = (
        table.app.test_client()
        .get(f"/games/{table.game}", headers={"Accept-Language": "de"})
        .get_data(as_text=True)
    )
    assert "What was entered for" not in page
    assert "This deal cannot be read" not in page
    assert str(table.game) in page


def _game_in_play(table: Table) -> int:
    with table.app.app_context():
        game = games.start_game(
            "standard",
            [games.TeamSpec("", ["Ann", "Ben"]), games.TeamSpec("", ["Cid", "Dee"])],
            played_on=date(2025, 1, 4),
        )
        games.record_deal(game.id, [OUT, STAY_A])
        games.record_deal(game.id, [STAY_A, OUT])
        return int(game.id)


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("POST", "/api/games/{game}/deals", DEAL_JSON),
        ("POST", "/games/{game}/deals/new", {}),
        ("PUT", "/api/games/{game}/deals/1", {**DEAL_JSON, "version": 1}),
        ("PUT", "/api/games/{game}/deals/2", {**DEAL_JSON, "version": 1}),
        ("POST", "/api/games/{game}/corrections/undo", {}),
    ],
)
def test_no_deal_is_saved_into_a_game_that_cannot_be_scored(
    table: Table, method: str, url: str, body: Any
) -> None:
    """Saving would succeed, then its answer fail: nothing half-written, nothing said twice."""
    game = _game_in_play(table)
    if "undo" in url:  # a correction of the good deal, to undo
        with table.app.app_context():
            games.correct_deal(game, 1, 1, [STAY_A, OUT])
    damage_deal(table, "a fraction", game=game)
    url = url.replace("{game}", str(game))
    check_refused(table, DAMAGE["a fraction"][2], method, url, body, game=game)


def test_an_export_names_every_damaged_deal(table: Table) -> None:
    damage_deal(table, "unknown card class", deal=2)
    damage_deal(table, "a negative count", deal=4)
    response = table.app.test_client().get("/api/export.json")
    assert response.status_code == 409
    messages = [error["message"] for error in response.get_json()["errors"]]
    assert messages == [
        f"{headline(table, deal=deal)} is damaged and cannot be read; the export needs it to "
        "score the deal."
        for deal in (2, 4)
    ]


def test_a_season_export_without_the_damaged_game_is_written(table: Table) -> None:
    """The damaged game is in no season: exporting the season needs none of its deals."""
    game = _game_in_play(table)
    damage_deal(table, "unknown card class", game=game)
    response = table.app.test_client().get(f"/api/export.json?season={table.season}")
    assert response.status_code == 200
    assert len(response.get_json()["games"]) == 1


@pytest.mark.parametrize("what", ["rules", "deal"])
def test_a_game_that_cannot_be_scored_can_be_deleted_and_the_lists_answer_again(
    table: Table, what: str
) -> None:
    """Every list that shows the game scores it and refuses: deleting it is the way out."""
    if what == "rules":
        test_damaged_rules.damage(table, "game", "unknown field")
    else:
        damage_deal(table, "unknown card class")
    client = table.app.test_client()
    lists = ["/games", f"/players/{table.player}/games", "/api/games"]
    assert [client.get(url).status_code for url in lists] == [409, 409, 409]
    # The player's own page answers with their figures (kept apart from the deals).
    assert client.get(f"/players/{table.player}").status_code == 200
    refusal = client.get(f"/games/{table.game}").get_data(as_text=True)
    assert f'href="/games/{table.game}/delete"' in refusal
    # The confirmation says which game without its scores, and deleting writes nothing else.
    confirm = client.get(f"/games/{table.game}/delete")
    assert confirm.status_code == 200
    page = confirm.get_data(as_text=True)
    assert "Delete this game?" in page and "Ann &amp; Ben, Cid &amp; Dee" in page
    assert "deals played" not in page
    before = stored(table.app)
    assert client.post(f"/games/{table.game}/delete").status_code == 302
    after = stored(table.app)
    changed = {name for name in before if before[name] != after[name]}
    # The game's deleted_at and the standings' step; nothing lost.
    assert changed <= {"game", "standings_stamp", "standings_change"}
    assert [client.get(url).status_code for url in lists] == [200, 200, 200]
    assert client.get("/api/games").get_json()["total"] == 0
    # Brought back from this tablet, it is refused again, in words, until it is repaired.
    assert client.post(f"/games/{table.game}/restore").status_code == 302
    assert client.get("/games").status_code == 409
