"""Rules kept in the database that no longer read: every page, sheet and API answer says so.

A game keeps a JSON copy of its rules and house rules keep theirs. Edited by hand or
damaged, such a copy used to end in an error 500 wherever it was read. Now each request
that needs it answers 409 in words (a page, a sheet's page, or the API's ``errors``),
names the game or the house rules, and writes nothing: the damaged copy stays as it was.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, text

from scorekeeper.extensions import db
from scorekeeper.rules import Cards, TeamTally
from scorekeeper.services import games, rulesets
from scorekeeper.services.players import create_season

OUT = TeamTally(clean_books=2, dirty_books=2, wild_books=1, melded=Cards(points=400), went_out=True)
STAY_A = TeamTally(clean_books=1, dirty_books=1, melded=Cards(points=200), left=Cards(points=50))
STAY_B = TeamTally(melded=Cards(points=160), left=Cards(points=40), red_threes=1)
STAY_S = TeamTally(clean_books=1, melded=Cards(points=150))
DEALS = [(OUT, STAY_A), (STAY_B, OUT), (OUT, STAY_B), (STAY_S, STAY_A)]

# Ways a stored copy stops reading; each is valid JSON (PostgreSQL holds nothing else).
DAMAGE = {
    "wrong type": lambda good: {**good, "min_players": "many"},
    "unknown field": lambda good: {**good, "colour_of_the_table": "green"},
    "not an object": lambda good: ["standard"],
    "null": lambda good: None,
}
REASONS = {
    "wrong type": "min_players must be a whole number.",
    "unknown field": "colour_of_the_table is not a rule this app knows.",
    "not an object": "A ruleset must be an object.",
    "null": "A ruleset must be an object.",
    "not JSON": "A ruleset must be an object.",
    "nested too deep": "A ruleset must be an object.",
}

NOT_JSON = '{"id": "standard", "name": "Standard'  # cut short
# JSON, but nested deeper than Python's reader goes (it ended in a RecursionError).
TOO_DEEP = "[" * 100_000 + "]" * 100_000
NOT_READ = {"not JSON": NOT_JSON, "nested too deep": TOO_DEEP}


DEAL_FORM = {
    "went_out": "0",
    "t0-clean_books": "2",
    "t0-dirty_books": "2",
    "t0-wild_books": "1",
    "t0-melded": "400",
    "t1-melded": "100",
    "version": "2",
}
DEAL_JSON = {
    "teams": [
        {"clean_books": 2, "dirty_books": 2, "wild_books": 1, "melded": 400, "went_out": True},
        {"clean_books": 1, "melded": 100},
    ]
}


@dataclass(frozen=True)
class Table:
    app: Flask
    season: int
    game: int  # finished, played under the house rules, deal 1 corrected once
    player: int
    house: int
    slug: str = "our-rules"


@pytest.fixture
def table(app: Flask) -> Table:
    # The suite's app on a real SQLite file (or the PostgreSQL the suite runs on), CSRF off:
    # what is tested is what the rules' damage does, not the forms.
    with app.app_context():
        season = create_season("Winter", date(2025, 1, 1), date(2025, 3, 31))
        house = rulesets.create_house_rules("Our rules", "standard", {})
        game = games.start_game(
            house.slug,
            [games.TeamSpec("", ["Ann", "Ben"]), games.TeamSpec("", ["Cid", "Dee"])],
            season_id=season.id,
            played_on=date(2025, 1, 3),
        )
        for deal in DEALS:
            games.record_deal(game.id, list(deal))
        games.correct_deal(game.id, 1, 1, [OUT, STAY_B])
        return Table(
            app, season.id, game.id, game.teams[0].members[0].player_id, house.id, house.slug
        )


def stored(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, as the database holds it (JSON columns as their text)."""
    with app.app_context():
        found = {}
        for table in db.metadata.sorted_tables:
            rows = db.session.execute(select(table).order_by(*table.primary_key.columns))
            found[table.name] = [tuple(map(repr, row)) for row in rows]
        found["rules as text"] = [
            tuple(row)
            for row in db.session.execute(
                text(
                    "SELECT 'game', id, CAST(ruleset AS TEXT) FROM game UNION ALL "
                    "SELECT 'house', id, CAST(ruleset AS TEXT) FROM house_rules ORDER BY 1, 2"
                )
            )
        ]
        return found


def damage(table: Table, what: str, how: str) -> None:
    """Write a damaged copy over the game's or the house rules' own, straight into the table."""
    name, row = ("game", table.game) if what == "game" else ("house_rules", table.house)
    with table.app.app_context():
        good = json.loads(
            db.session.execute(
                text(f"SELECT CAST(ruleset AS TEXT) FROM {name} WHERE id = :id"), {"id": row}
            ).scalar_one()
        )
        # Text that does not read as JSON: only SQLite keeps it (see the test at the end).
        damaged = NOT_READ[how] if how in NOT_READ else json.dumps(DAMAGE[how](good))
        db.session.execute(
            text(f"UPDATE {name} SET ruleset = :ruleset WHERE id = :id"),
            {"ruleset": damaged, "id": row},
        )
        db.session.commit()


def ask(client: FlaskClient, method: str, url: str, body: Any = None) -> Any:
    if method == "GET":
        return client.get(url)
    if method in ("POST", "PUT") and isinstance(body, dict) and url.startswith("/api/"):
        return client.open(url, method=method, json=body)
    return client.open(url, method=method, data=body or {})


# Every request that reads the game's own copy of its rules. Deleting the game is not one:
# it is the way out (see test_damaged_deals.py). {g}: the game, {p}: a player
# of it, {s}: its season.
GAME_ROUTES: list[tuple[str, str, Any]] = [
    ("GET", "/games", None),
    ("GET", "/games/{g}", None),
    ("GET", "/games/{g}/corrections", None),
    ("GET", "/games/{g}/deals/new", None),
    ("GET", "/games/{g}/deals/1/edit", None),
    ("GET", "/games/{g}/abandon", None),
    ("GET", "/games/{g}/start", None),
    ("GET", "/games/{g}/what-if", None),
    ("GET", "/games/{g}/what-if?ruleset=standard", None),
    ("GET", "/games/{g}/sheet.pdf", None),
    ("GET", "/players/{p}/games", None),
    ("GET", "/seasons/{s}/what-if?ruleset=standard", None),
    ("GET", "/settings/export.json", None),
    ("GET", "/settings/export.zip", None),
    ("POST", "/games/{g}/deals/new", DEAL_FORM),
    ("POST", "/games/{g}/deals/1/edit", DEAL_FORM),
    ("POST", "/games/{g}/abandon", {}),
    ("POST", "/games/{g}/corrections/undo", {}),
    ("GET", "/api/games", None),
    ("GET", "/api/games/{g}", None),
    ("GET", "/api/games/{g}/corrections", None),
    ("GET", "/api/games/{g}/deals/1", None),
    ("GET", "/api/export.json", None),
    ("POST", "/api/games/{g}/deals", DEAL_JSON),
    ("PUT", "/api/games/{g}/deals/1", {**DEAL_JSON, "version": 2}),
    ("POST", "/api/games/{g}/corrections/undo", {}),
]

# Every request that reads the house rules' stored copy.
HOUSE_ROUTES: list[tuple[str, str, Any]] = [
    ("GET", "/rules", None),
    ("GET", "/rules/{slug}", None),
    ("GET", "/rules/{h}", None),
    ("GET", "/house-rules/{slug}/edit", None),
    ("GET", "/house-rules/new", None),
    ("GET", "/house-rules/new?base={slug}", None),
    ("GET", "/games/new", None),
    ("GET", "/games/new?ruleset={slug}", None),
    ("GET", "/seasons/{s}", None),
    ("GET", "/seasons/{s}/what-if", None),
    ("GET", "/games/{g}/what-if", None),
    ("GET", "/sheets/blank.pdf?ruleset={slug}", None),
    ("GET", "/settings/export.json", None),
    ("GET", "/settings/export.zip", None),
    ("POST", "/house-rules/{slug}/edit", {"name": "Ours"}),
    ("POST", "/house-rules/new", {"name": "Theirs", "base": "{slug}"}),
    ("POST", "/games/new", {"ruleset": "{slug}", "t0-p0": "Ann", "t1-p0": "Cid"}),
    ("GET", "/api/rulesets", None),
    ("GET", "/api/export.json", None),
    (
        "POST",
        "/api/games",
        {"ruleset": "{slug}", "teams": [{"players": ["Ann"]}, {"players": ["Cid"]}]},
    ),
    ("POST", "/api/score", {"ruleset": "{slug}", "deal": 1, **DEAL_JSON}),
    ("POST", "/api/opening", {"ruleset": "{slug}", "deal": 1, "points": 60}),
    ("POST", "/api/go-out", {"ruleset": "{slug}", "deal": 1, "teams": [{}, {}]}),
]


def _fill(value: Any, table: Table) -> Any:
    names = {
        "g": table.game,
        "p": table.player,
        "s": table.season,
        "h": table.house,
        "slug": table.slug,
    }
    if isinstance(value, str):
        return value.format(**names)
    if isinstance(value, dict):
        return {key: _fill(item, table) for key, item in value.items()}
    if isinstance(value, list):
        return [_fill(item, table) for item in value]
    return value


def _named(table: Table, what: str) -> str:
    """The words every refusal starts with, the export's as the pages'."""
    if what == "game":
        return f"The rules kept with game {table.game}"
    return "The house rules “Our rules” (our-rules) are damaged and cannot be read"


def check_refused(table: Table, what: str, how: str, method: str, url: str, body: Any) -> None:
    url, body = _fill(url, table), _fill(body, table)
    before = stored(table.app)
    response = ask(table.app.test_client(), method, url, body)
    where = f"{method} {url}"
    assert response.status_code == 409, where
    # Nothing written, nothing lost: every row as it was, the damaged copy too.
    assert stored(table.app) == before, where
    exported = "export" in url
    if url.startswith("/api/"):
        assert response.is_json, where
        errors = response.get_json()["errors"]
        assert errors and all(set(e) == {"team", "field", "message"} for e in errors), where
        assert errors[0]["message"].startswith(_named(table, what)), where
        if not exported:
            assert errors[0]["field"] == "ruleset", where
            assert REASONS[how] in [e["message"] for e in errors[1:]], where
        return
    # A page, even where a PDF or a download was asked for, in words.
    assert response.mimetype == "text/html", where
    page = response.get_data(as_text=True)
    assert _named(table, what) in page, where
    if exported:
        assert "Nothing was exported." in page, where
    else:
        assert REASONS[how] in page, where
        assert "Nothing was changed" in page, where


@pytest.mark.parametrize(("method", "url", "body"), GAME_ROUTES)
def test_a_game_whose_rules_are_damaged_is_refused_in_words(
    table: Table, method: str, url: str, body: Any
) -> None:
    damage(table, "game", "wrong type")
    check_refused(table, "game", "wrong type", method, url, body)


@pytest.mark.parametrize(("method", "url", "body"), HOUSE_ROUTES)
def test_damaged_house_rules_are_refused_in_words(
    table: Table, method: str, url: str, body: Any
) -> None:
    damage(table, "house", "wrong type")
    check_refused(table, "house", "wrong type", method, url, body)


@pytest.mark.parametrize("how", DAMAGE)
@pytest.mark.parametrize(
    ("what", "method", "url"),
    [
        ("game", "GET", "/games/{g}"),
        ("game", "GET", "/api/games/{g}"),
        ("house", "GET", "/rules/{slug}"),
        ("house", "GET", "/api/rulesets"),
    ],
)
def test_every_kind_of_damage_is_named(
    table: Table, how: str, what: str, method: str, url: str
) -> None:
    damage(table, what, how)
    check_refused(table, what, how, method, url, None)


def test_the_page_says_it_in_the_tables_language(table: Table) -> None:
    damage(table, "game", "wrong type")
    page = (
        table.app.test_client()
        .get(f"/games/{table.game}", headers={"Accept-Language": "de"})
        .get_data(as_text=True)
    )
    assert "The rules kept with game" not in page
    assert "These rules cannot be read" not in page
    assert str(table.game) in page


def test_the_pages_that_do_not_need_the_rules_still_answer(table: Table) -> None:
    # Standings add up the totals kept when each deal was saved: no rules are read again.
    damage(table, "game", "wrong type")
    client = table.app.test_client()
    for url in ("/", "/players", "/standings", f"/seasons/{table.season}", "/api/standings"):
        assert client.get(url).status_code == 200, url


def test_damaged_house_rules_can_still_be_deleted_and_no_game_loses_anything(
    table: Table,
) -> None:
    damage(table, "house", "wrong type")
    client = table.app.test_client()
    refusal = client.get(f"/rules/{table.slug}").get_data(as_text=True)
    assert f'href="/house-rules/{table.slug}/delete"' in refusal
    assert client.get(f"/house-rules/{table.slug}/delete").status_code == 200
    game_before = client.get(f"/api/games/{table.game}").get_json()
    assert client.post(f"/house-rules/{table.slug}/delete").status_code == 302
    assert client.get(f"/rules/{table.slug}").status_code == 404
    # The game played under them kept its own copy, and every figure of it.
    assert client.get(f"/api/games/{table.game}").get_json() == game_before
    assert client.get("/games/new").status_code == 200


@pytest.mark.sqlite_only("PostgreSQL refuses text that is not JSON in a JSON column")
@pytest.mark.parametrize("how", NOT_READ)
@pytest.mark.parametrize(
    ("what", "method", "url"),
    [
        ("game", "GET", "/games"),
        ("game", "GET", "/games/{g}"),
        ("game", "GET", "/games/{g}/sheet.pdf"),
        ("game", "GET", "/api/games/{g}"),
        ("game", "GET", "/settings/export.json"),
        ("house", "GET", "/rules"),
        ("house", "GET", "/rules/{slug}"),
        ("house", "GET", "/api/rulesets"),
        ("house", "GET", "/api/export.json"),
    ],
)
def test_rules_kept_as_text_that_is_not_json_are_refused_in_words(
    table: Table, how: str, what: str, method: str, url: str
) -> None:
    """Loading the row no longer fails: the rules in it are refused where they are needed."""
    damage(table, what, how)
    check_refused(table, what, how, method, url, None)
    # The pages that need no rules still answer (a season's page offers every house rules).
    client = table.app.test_client()
    pages = ["/", "/standings", "/api/standings"]
    if what == "game":
        pages.append(f"/seasons/{table.season}")
    for page in pages:
        assert client.get(page).status_code == 200, page
