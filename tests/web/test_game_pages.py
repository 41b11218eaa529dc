"""The game pages, played through the HTML forms on a real SQLite file."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from database_support import all_rows, database_url
from flask import Flask
from flask.testing import FlaskClient
from sql_support import watch_sql
from sqlalchemy import select

from scorekeeper import create_app
from scorekeeper.demo import run_demo
from scorekeeper.extensions import db, utc_iso
from scorekeeper.models import Correction, Deal, DealResult, Game, Player
from scorekeeper.rules.tally import BOUNDS
from scorekeeper.services import games
from scorekeeper.services import players as player_service

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')

# The German seed's worked example (RULES.md): 3855 and 615, entered as point totals.
GERMAN = {
    "went_out": "0",
    "t0-clean_books": "2",
    "t0-dirty_books": "2",
    "t0-wild_books": "1",
    "t0-red_threes": "1",
    "t0-melded": "555",
    "t1-clean_books": "1",
    "t1-red_threes": "1",
    "t1-melded": "220",
    "t1-left": "205",
}

# Deal 2 (opening 90), every card counted: Ann & Ben go out with 2 clean books (aces,
# kings), 2 dirty (5 queens + 2 twos, 6 fives + a joker) and a wild book (4 jokers, 3 twos).
COUNTED = {
    "went_out": "0",
    "t0-clean_books": "2",
    "t0-dirty_books": "2",
    "t0-wild_books": "1",
    "t0-melded_mode": "counts",
    "t0-melded-jokers": "5",
    "t0-melded-twos": "5",
    "t0-melded-aces": "7",
    "t0-melded-eights_to_kings": "12",
    "t0-melded-fours_to_sevens": "6",
    "t1-red_threes_caught": "1",
    "t1-melded_mode": "counts",
    "t1-melded-jokers": "1",
    "t1-melded-aces": "3",
    "t1-melded-eights_to_kings": "3",
    "t1-left_mode": "counts",
    "t1-left-fours_to_sevens": "2",
    "t1-left-eights_to_kings": "1",
    "t1-left-black_threes": "1",
}
# Deal 3 (opening 120): the stock runs out, nobody goes out.
STOCK_OUT = {
    "went_out": "none",
    "t0-clean_books": "1",
    "t0-melded": "300",
    "t0-left": "40",
    "t1-dirty_books": "1",
    "t1-melded": "200",
    "t1-left": "60",
}
# Deal 4 (opening 150): Cid & Dee go out.
LAST = {
    "went_out": "1",
    "t1-clean_books": "2",
    "t1-dirty_books": "2",
    "t1-wild_books": "1",
    "t1-melded": "900",
    "t0-left": "200",
}
TEAMS = {"t0-p0": "Ann", "t0-p1": "Ben", "t1-p0": "Cid", "t1-p1": "Dee"}


@pytest.fixture
def csrf_app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path / "csrf.sqlite"),
            "WTF_CSRF_ENABLED": True,
        },
        instance_path=str(tmp_path / "instance"),
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def token(client: FlaskClient, url: str) -> str:
    page = client.get(url)
    assert page.status_code == 200, url
    found = TOKEN.search(page.get_data(as_text=True))
    assert found, f"no csrf token on {url}"
    return found.group(1)


def text(response: Any) -> str:
    return str(response.get_data(as_text=True))


def start_game(client: FlaskClient, **fields: str) -> int:
    data = {"ruleset": "standard", "seating": "2x2", "played_on": "2026-11-29", **TEAMS}
    data.update(fields)
    response = client.post("/games/new", data=data)
    assert response.status_code == 302, text(response)
    found = re.fullmatch(r"/games/(\d+)/start", response.headers["Location"])
    assert found
    return int(found.group(1))


def enter_deal(client: FlaskClient, game_id: int, data: Mapping[str, str]) -> Any:
    return client.post(f"/games/{game_id}/deals/new", data=dict(data))


def row(html: str, number: int) -> str:
    found = re.search(rf'<tr id="deal-{number}"[^>]*>(.*?)</tr>', html, re.S)
    assert found, f"no row for deal {number}"
    return found.group(1)


def nums(html: str) -> list[int]:
    """The numbers a row shows in big figures: deal score and running total per team."""
    return [int(n) for n in re.findall(r'<span class="num">(-?\d+)</span>', html)]


def error_beside(html: str, name: str) -> str:
    found = re.search(rf'<p class="error" id="{re.escape(name)}-error">(.*?)</p>', html, re.S)
    assert found, f"no error beside {name}"
    return found.group(1)


def value_of(html: str, name: str) -> str:
    found = re.search(rf'<input[^>]*\bname="{re.escape(name)}"[^>]*>', html, re.S)
    assert found, f"no input {name}"
    match = re.search(r'value="([^"]*)"', found.group(0))
    return match.group(1) if match else ""


def stored(app: Flask) -> dict[str, Any]:
    """Everything a refused write must leave as it was."""
    with app.app_context():
        results = [
            {c.name: getattr(r, c.name) for c in DealResult.__table__.columns}
            for r in db.session.scalars(db.select(DealResult).order_by(DealResult.id))
        ]
        return {
            "games": db.session.query(Game).count(),
            "deals": [(d.id, d.number, d.version) for d in db.session.scalars(db.select(Deal))],
            "results": results,
            "corrections": db.session.query(Correction).count(),
            "players": db.session.query(Player).count(),
        }


# ---------------------------------------------------------------------------
# A whole game with CSRF on


def test_a_whole_game_through_the_forms_with_csrf_on(csrf_app: Flask) -> None:
    client = csrf_app.test_client()

    refused = client.post("/games/new", data={"ruleset": "standard", **TEAMS})
    assert refused.status_code == 400  # no token: CSRFProtect refuses
    assert stored(csrf_app)["games"] == 0

    form = client.get("/games/new?ruleset=standard")
    page = text(form)
    assert '<datalist id="known-players">' in page
    assert 'name="t0-p0"' in page and 'name="t1-p1"' in page
    started = client.post(
        "/games/new",
        data={
            "csrf_token": TOKEN.search(page).group(1),  # type: ignore[union-attr]
            "ruleset": "standard",
            "seating": "2x2",
            "first_dealer": "1",
            "played_on": "2026-11-29",
            **TEAMS,
        },
        follow_redirects=True,
    )
    assert started.status_code == 200
    page = text(started)
    # Seats alternate teams: Ann, Cid, Ben, Dee; seat 1 (Cid) deals first.
    assert "Cid</dd>" in page
    assert re.search(r"Decks</dt><dd class=\"num\">5</dd>", page)
    assert re.search(r"Cards into each hand</dt><dd class=\"num\">13</dd>", page)
    assert "Enter deal 1" in page
    game_id = int(re.search(r"/games/(\d+)/deals/new", page).group(1))  # type: ignore[union-attr]

    for number, deal in enumerate((GERMAN, COUNTED, STOCK_OUT, LAST), start=1):
        url = f"/games/{game_id}/deals/new"
        saved = client.post(url, data={"csrf_token": token(client, url), **deal})
        assert saved.status_code == 302, text(saved)
        sheet = text(client.get(saved.headers["Location"]))
        assert f"Deal {number} saved." in sheet

    sheet = text(client.get(f"/games/{game_id}"))
    assert nums(row(sheet, 1)) == [3855, 3855, 615, 615]
    assert nums(row(sheet, 2)) == [3840, 7695, 15, 630]
    assert nums(row(sheet, 3)) == [760, 8455, 440, 1070]
    assert nums(row(sheet, 4)) == [-200, 8255, 4100, 5170]
    assert "Stock ran out" in row(sheet, 3)
    assert "Stock ran out" not in row(sheet, 2)
    assert "Winner: Ann &amp; Ben" in sheet
    assert re.search(r'<span class="num total">8255</span>', sheet)
    assert "Enter deal" not in sheet
    with csrf_app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None and game.finished_at is not None

    # No fifth deal: the form sends you back to the sheet.
    url = f"/games/{game_id}/deals/new"
    after = client.get(url)
    assert after.status_code == 302
    assert "correct a deal instead" in text(client.get(after.headers["Location"]))


def test_the_sheet_shows_the_next_deal_and_the_leader(client: FlaskClient) -> None:
    game_id = start_game(client)
    sheet = text(client.get(f"/games/{game_id}"))
    assert "No deals yet" in sheet
    assert "Ann deals." in sheet
    assert "at least 50 points" in sheet
    enter_deal(client, game_id, GERMAN)
    sheet = text(client.get(f"/games/{game_id}"))
    assert "Leader: Ann &amp; Ben" in sheet
    assert "Deal 2 of 4" in sheet
    assert "Cid deals." in sheet  # the deal passes to the next seat
    assert "at least 90 points" in sheet
    assert f'href="/games/{game_id}/deals/1/edit"' in sheet


def test_players_alone_under_partnership_rules_are_told_of_no_partner(
    client: FlaskClient,
) -> None:
    partners = start_game(client)
    alone = start_game(
        client,
        seating="3x1",
        **{"t0-p0": "Ann", "t1-p0": "Ben", "t2-p0": "Cid", "t0-p1": "", "t1-p1": ""},
    )
    for page in (f"/games/{partners}", f"/games/{partners}/start", f"/games/{partners}/deals/new"):
        assert "the partner has played from the foot" in text(client.get(page)), page
    for page in (f"/games/{alone}", f"/games/{alone}/start", f"/games/{alone}/deals/new"):
        html = text(client.get(page))
        assert "Going out needs 2 clean, 2 dirty and 1 wild book." in html, page
        assert "partner" not in html.split("Going out needs", 1)[1].split("</p>", 1)[0], page
    # The deal form's live check (/api/score) is told the seating, as the save is.
    assert "data-players='[1, 1, 1]'" in text(client.get(f"/games/{alone}/deals/new"))
    assert "data-players='[2, 2]'" in text(client.get(f"/games/{partners}/deals/new"))


def test_a_tie_is_shown_as_a_tie(client: FlaskClient) -> None:
    game_id = start_game(client)
    for number in range(1, 5):
        tie = {"went_out": "none", "t0-left": "50", "t1-left": "50"}
        assert enter_deal(client, game_id, tie).status_code == 302, number
    sheet = text(client.get(f"/games/{game_id}"))
    assert "A tie: Ann &amp; Ben, Cid &amp; Dee" in sheet
    assert "Winner" not in sheet


# ---------------------------------------------------------------------------
# Refused deals


def test_going_out_without_books_is_refused_beside_the_field(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client)
    enter_deal(client, game_id, GERMAN)
    before = stored(app)
    typed = {**STOCK_OUT, "went_out": "1", "t1-dirty_books": "1", "t1-melded": "200"}
    response = enter_deal(client, game_id, typed)
    assert response.status_code == 422
    page = text(response)
    assert "Nothing was saved" in page
    beside = error_beside(page, "t1-clean_books")
    assert "Cid &amp; Dee cannot go out" in beside
    assert re.search(r'id="t1-clean_books"[^>]*aria-describedby="t1-clean_books-error"', page)
    assert '<a href="#t1-clean_books">' in page  # the summary links to the field
    assert value_of(page, "t1-melded") == "200"
    assert value_of(page, "t0-left") == "40"
    assert re.search(r'id="went_out-1" value="1" checked', page)
    assert stored(app) == before


def test_a_deal_without_who_went_out_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    before = stored(app)
    data = {k: v for k, v in GERMAN.items() if k != "went_out"}
    response = enter_deal(client, game_id, data)
    assert response.status_code == 400
    page = text(response)
    assert "Choose the team that went out, or that the stock ran out." in error_beside(
        page, "went_out"
    )
    assert value_of(page, "t0-melded") == "555"
    assert stored(app) == before


def test_a_table_of_players_alone_is_asked_for_the_player(app: Flask, client: FlaskClient) -> None:
    # Steve Simpson's rules: everyone plays alone, so the form speaks of players, not teams.
    from scorekeeper.services import games

    with app.app_context():
        game_id = games.start_game("simpson", [games.TeamSpec("", [n]) for n in ("Ann", "Cid")]).id
    page = text(client.get(f"/games/{game_id}/deals/new"))
    assert "Optional: the points of the player&#39;s first meld." in page
    assert "team&#39;s first meld" not in page
    response = enter_deal(client, game_id, {"t0-left": "50", "t1-left": "50"})
    assert response.status_code == 400
    said = error_beside(text(response), "went_out")
    assert "Choose the player who went out, or that the stock ran out." in said


@pytest.mark.parametrize(
    ("name", "typed", "says"),
    [
        ("t0-clean_books", "abc", "Clean books must be a whole number."),
        ("t0-clean_books", "-5", "Clean books must be between 0 and 60."),
        ("t0-clean_books", "1e9", "Clean books must be a whole number."),
        ("t1-left", "99999999999999999999", "Cards left in hand and foot must be between"),
        ("t1-melded", "2.5", "Cards melded must be a whole number."),
        ("t0-red_threes", "\uff13", "Red threes laid must be a whole number."),
        ("t0-opening_meld", "lots", "Opening meld must be a whole number."),
        ("t1-left-jokers", "-1", "Cards left in hand and foot: Jokers must be between 0 and 500."),
    ],
)
def test_garbage_in_a_number_box_is_said_beside_it(
    app: Flask, client: FlaskClient, name: str, typed: str, says: str
) -> None:
    game_id = start_game(client)
    before = stored(app)
    counted = {"t1-left_mode": "counts"} if "-left-" in name else {}
    response = enter_deal(client, game_id, {**GERMAN, **counted, name: typed})
    assert response.status_code == 400
    page = text(response)
    assert says in error_beside(page, name)
    assert value_of(page, name) == typed.replace("&", "&amp;")
    # The summary, read away from the team's column, says whose box it is.
    team = "Ann &amp; Ben" if name.startswith("t0") else "Cid &amp; Dee"
    summary = page.split('id="form-errors"', 1)[1].split("</div>", 1)[0]
    assert f'<a href="#{name}">{team}: {says}' in summary
    assert stored(app) == before


@pytest.mark.parametrize(
    "data",
    [
        {"went_out": "7"},
        {"went_out": "x", "t0-melded_mode": "weird", "t0-melded": "\x00"},
        {"went_out": "", "t5-clean_books": "3", "unknown": "1"},
        {},
    ],
)
def test_no_garbage_form_gives_a_server_error(
    app: Flask, client: FlaskClient, data: dict[str, str]
) -> None:
    game_id = start_game(client)
    before = stored(app)
    response = enter_deal(client, game_id, data)
    assert response.status_code == 400
    assert "Nothing was saved" in text(response)
    assert stored(app) == before


def test_impossible_card_totals_are_said_in_card_players_words(client: FlaskClient) -> None:
    game_id = start_game(client)
    response = enter_deal(client, game_id, {**GERMAN, "t0-melded": "557"})
    assert response.status_code == 422
    assert "557 is not a possible card total" in error_beside(text(response), "t0-melded")


def test_counted_cards_that_do_not_exist_are_refused(client: FlaskClient) -> None:
    game_id = start_game(client)
    response = enter_deal(client, game_id, {**COUNTED, "t0-melded-jokers": "40"})
    assert response.status_code == 422
    beside = error_beside(text(response), "t0-melded-jokers")
    assert "Ann &amp; Ben reports 40 jokers, but 5 decks hold only 10." in beside


def test_counts_typed_without_switching_the_mode_still_count(client: FlaskClient) -> None:
    game_id = start_game(client)
    data = {k: v for k, v in COUNTED.items() if not k.endswith("_mode")}
    assert enter_deal(client, game_id, data).status_code == 302
    sheet = text(client.get(f"/games/{game_id}"))
    assert nums(row(sheet, 1))[0] == 3840


# ---------------------------------------------------------------------------
# Corrections


def edit_url(game_id: int, number: int) -> str:
    return f"/games/{game_id}/deals/{number}/edit"


def corrected_game(client: FlaskClient) -> int:
    """A game whose first deal was saved, then corrected once: Cid & Dee left 215, not 205."""
    game_id = start_game(client)
    enter_deal(client, game_id, GERMAN)
    data = form_values(text(client.get(edit_url(game_id, 1))))
    data["t1-left"] = "215"
    assert client.post(edit_url(game_id, 1), data=data).status_code == 302
    return game_id


def form_values(html: str) -> dict[str, str]:
    """The values an edit form carries, as a browser would send them back."""
    data: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", html, re.S):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or name.group(1) == "csrf_token":
            continue
        value = re.search(r'value="([^"]*)"', tag)
        kind = re.search(r'type="([^"]+)"', tag)
        if kind and kind.group(1) == "radio" and " checked" not in tag:
            continue
        data[name.group(1)] = value.group(1) if value else ""
    return data


@pytest.mark.parametrize(
    ("zone", "configured", "shown"),
    [
        ("Europe/Amsterdam", None, "12/4/26, 3:05\u202fPM"),
        ("America/New_York", None, "12/4/26, 9:05\u202fAM"),
        ("Europe/Amsterdam", "Asia/Tokyo", "12/4/26, 11:05\u202fPM"),
        # A zone without a name (a POSIX rule) cannot be looked up: UTC, not an error page.
        ("CET-1CEST,M3.5.0,M10.5.0/3", None, "12/4/26, 2:05\u202fPM"),
    ],
)
def test_the_correction_log_reads_the_clock_of_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, zone: str, configured: str | None, shown: str
) -> None:
    """A correction made at 14:05 UTC was shown as "2:05 PM" to a table in Amsterdam, where
    the clock said 3:05: times are in the server machine's zone (TZ), or the configured one."""
    monkeypatch.setenv("TZ", zone)
    settings: dict[str, object] = {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": database_url(tmp_path / "zone.sqlite"),
        "WTF_CSRF_ENABLED": False,
    }
    if configured:
        settings["BABEL_DEFAULT_TIMEZONE"] = configured
    app = create_app(settings, instance_path=str(tmp_path / "instance"))
    with app.app_context():
        db.create_all()
    client = app.test_client()
    game_id = corrected_game(client)
    with app.app_context():
        made = datetime(2026, 12, 4, 14, 5, tzinfo=UTC)
        db.session.execute(db.update(Correction).values(created_at=made))
        db.session.commit()
    log = text(client.get(f"/games/{game_id}/corrections"))
    assert f'<time datetime="2026-12-04T14:05:00Z">{shown}</time>' in log
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_correcting_a_deal_logs_it_and_undo_puts_it_back(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    enter_deal(client, game_id, GERMAN)
    page = text(client.get(edit_url(game_id, 1)))
    data = form_values(page)
    assert data["version"] == "1"
    assert data["t1-left"] == "205"
    assert data["went_out"] == "0"
    data["t1-left"] = "215"
    saved = client.post(edit_url(game_id, 1), data=data)
    assert saved.status_code == 302
    sheet = text(client.get(f"/games/{game_id}"))
    assert "Deal 1 corrected." in sheet
    assert nums(row(sheet, 1)) == [3855, 3855, 605, 605]
    assert "Corrected" in row(sheet, 1)

    log = text(client.get(f"/games/{game_id}/corrections"))
    assert "Cards left in hand and foot" in log
    assert "Cid &amp; Dee" in log
    assert re.search(r'class="old-value">205 points<', log)
    assert re.search(r'class="new-value">215 points<', log)
    assert "Undo the last correction" in log

    undone = client.post(f"/games/{game_id}/corrections/undo")
    assert undone.status_code == 302
    log = text(client.get(undone.headers["Location"]))
    assert "The last correction of deal 1 was undone." in log
    # When it was made and when it was undone, each a <time> in UTC (not escaped text).
    with app.app_context():
        made = db.session.scalar(db.select(Correction))
        assert made is not None and made.undone_at is not None
        stamps = [utc_iso(made.created_at), utc_iso(made.undone_at)]
    assert re.search(rf'<time datetime="{stamps[0]}">[^<]+</time>\s*<span class="mark">', log)
    assert re.search(rf'class="mark">undone <time datetime="{stamps[1]}">[^<]+</time><', log)
    assert "Undo the last correction" not in log
    sheet = text(client.get(f"/games/{game_id}"))
    assert nums(row(sheet, 1)) == [3855, 3855, 615, 615]
    with app.app_context():
        result = db.session.scalar(db.select(DealResult).filter_by(position=1))
        assert result is not None and result.left_points == 205

    nothing = client.post(f"/games/{game_id}/corrections/undo", follow_redirects=True)
    assert "There is no correction to undo." in text(nothing)


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"field": "clean_books", "old_value": "null"}, "clean_books must be a whole number."),
        ({"field": "clean_books", "old_value": "59"}, "natural cards"),
        ({"team_position": 7}, "names a team this game does not have"),
    ],
    ids=["not-a-number", "impossible-deal", "no-such-team"],
)
def test_undo_of_a_log_that_no_deal_can_hold_says_why_and_changes_nothing(
    app: Flask, client: FlaskClient, values: dict[str, Any], words: str
) -> None:
    game_id = corrected_game(client)
    # As an imported file or a hand-made change may have left the log.
    with app.app_context():
        db.session.execute(
            db.update(Correction).where(Correction.game_id == game_id).values(**values)
        )
        db.session.commit()

    refused = client.post(f"/games/{game_id}/corrections/undo")

    assert refused.status_code == 302
    log = text(client.get(refused.headers["Location"]))
    assert (
        f"The last correction of deal 1 of game {game_id} cannot be undone: what it would put "
        "back is not possible. Nothing was changed; correct the deal instead."
    ) in log
    assert words in log
    assert "The last correction of deal 1 was undone." not in log
    assert "Undo the last correction" in log  # still not undone
    sheet = text(client.get(f"/games/{game_id}"))
    assert nums(row(sheet, 1)) == [3855, 3855, 605, 605]
    with app.app_context():
        deal = db.session.scalar(db.select(Deal).filter_by(game_id=game_id, number=1))
        assert deal is not None and deal.version == 2


def test_a_correction_reads_nothing_after_it_is_saved(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    enter_deal(client, game_id, GERMAN)
    data = form_values(text(client.get(edit_url(game_id, 1))))
    data["t1-left"] = "215"
    with app.app_context():
        engine = db.engine
    with watch_sql(engine) as seen:
        assert client.post(edit_url(game_id, 1), data=data).status_code == 302
    statements = [statement.lstrip().split()[0].upper() for statement in seen]
    # The redirect says what was saved from what the service answered; the deal is not read
    # again after the commit (the last statements are the write's).
    assert "UPDATE" in statements and "SELECT" not in statements[statements.index("UPDATE") :]
    assert "Deal 1 corrected." in text(client.get(f"/games/{game_id}"))


def test_saving_an_unchanged_deal_logs_nothing(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    enter_deal(client, game_id, GERMAN)
    data = form_values(text(client.get(edit_url(game_id, 1))))
    response = client.post(edit_url(game_id, 1), data=data, follow_redirects=True)
    assert "Nothing changed in deal 1." in text(response)
    assert stored(app)["corrections"] == 0


def test_a_correction_can_switch_points_to_counts(client: FlaskClient) -> None:
    game_id = start_game(client)
    enter_deal(client, game_id, GERMAN)
    data = form_values(text(client.get(edit_url(game_id, 1))))
    data.update({"t1-left_mode": "counts", "t1-left-aces": "2", "t1-left-eights_to_kings": "1"})
    assert client.post(edit_url(game_id, 1), data=data).status_code == 302
    page = text(client.get(edit_url(game_id, 1)))
    assert re.search(r'id="t1-left_mode-counts" value="counts" checked', page)
    assert value_of(page, "t1-left-aces") == "2"
    log = text(client.get(f"/games/{game_id}/corrections"))
    assert "2 \N{MULTIPLICATION SIGN} Aces, 1 \N{MULTIPLICATION SIGN} 8, 9, 10, J, Q, K" in log


def test_an_invalid_correction_changes_nothing(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    enter_deal(client, game_id, GERMAN)
    before = stored(app)
    data = form_values(text(client.get(edit_url(game_id, 1))))
    data["t0-clean_books"] = "0"
    response = client.post(edit_url(game_id, 1), data=data)
    assert response.status_code == 422
    page = text(response)
    assert "cannot go out" in error_beside(page, "t0-clean_books")
    assert value_of(page, "t0-clean_books") == "0"
    assert value_of(page, "version") == "1"
    assert stored(app) == before


def test_two_tablets_editing_the_same_version(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    enter_deal(client, game_id, GERMAN)
    page = text(client.get(edit_url(game_id, 1)))
    first = form_values(page)
    second = dict(first)
    first["t1-left"] = "215"
    second["t1-left"] = "225"
    assert client.post(edit_url(game_id, 1), data=first).status_code == 302
    after_first = stored(app)

    refused = client.post(edit_url(game_id, 1), data=second)
    assert refused.status_code == 409
    page = text(refused)
    assert "Someone else changed this deal" in page
    assert "Someone else changed deal 1 since you opened it." in page
    theirs = re.findall(r'<div class="theirs">(.*?)</div>', page, re.S)
    yours = re.findall(r'<div class="yours">(.*?)</div>', page, re.S)
    assert len(theirs) == len(yours) == 2
    assert "Left 215" in theirs[1] and "Left 225" in yours[1]
    assert value_of(page, "t1-left") == "225"  # what was typed stays
    assert value_of(page, "version") == "2"  # the form now carries the new version
    assert stored(app) == after_first

    again = client.post(edit_url(game_id, 1), data=form_values(page))
    assert again.status_code == 302
    sheet = text(client.get(f"/games/{game_id}"))
    assert nums(row(sheet, 1))[2] == 595


def test_a_form_without_a_version_is_read_again(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    enter_deal(client, game_id, GERMAN)
    before = stored(app)
    data = form_values(text(client.get(edit_url(game_id, 1))))
    data["version"] = "abc"
    data["t1-left"] = "215"
    response = client.post(edit_url(game_id, 1), data=data)
    assert response.status_code == 302
    assert response.headers["Location"].endswith(edit_url(game_id, 1))
    assert stored(app) == before


# ---------------------------------------------------------------------------
# Abandon, delete, undo


def test_delete_needs_confirmation_and_can_be_undone(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    confirm = client.get(f"/games/{game_id}/delete")
    assert confirm.status_code == 200
    assert "Delete this game?" in text(confirm)
    assert stored(app)["games"] == 1
    with app.app_context():
        assert db.session.get(Game, game_id).deleted_at is None  # type: ignore[union-attr]

    deleted = client.post(f"/games/{game_id}/delete")
    assert deleted.status_code == 302
    listing = text(client.get(deleted.headers["Location"]))
    assert "The game was deleted." in listing
    assert f'action="/games/{game_id}/restore"' in listing
    assert f'href="/games/{game_id}"' not in listing
    assert client.get(f"/games/{game_id}").status_code == 404

    # Another browser cannot undo it.
    stranger = app.test_client()
    refused = stranger.post(f"/games/{game_id}/restore", follow_redirects=True)
    assert "Only the tablet that deleted" in text(refused)
    assert client.get(f"/games/{game_id}").status_code == 404

    restored = client.post(f"/games/{game_id}/restore", follow_redirects=True)
    assert "The game is back." in text(restored)
    assert client.get(f"/games/{game_id}").status_code == 200
    assert f'action="/games/{game_id}/restore"' not in text(client.get("/games"))


def test_abandon_needs_confirmation_and_can_be_undone(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    enter_deal(client, game_id, GERMAN)
    assert "Abandon this game?" in text(client.get(f"/games/{game_id}/abandon"))
    with app.app_context():
        assert db.session.get(Game, game_id).abandoned_at is None  # type: ignore[union-attr]

    abandoned = client.post(f"/games/{game_id}/abandon", follow_redirects=True)
    page = text(abandoned)
    assert "This game was abandoned." in page
    assert "Enter deal 2" not in page
    # The deal that would come next, for the tablet's script: an unsaved entry of deal 2
    # is kept while the abandon can still be undone (static/js/table.js, forgetSaved).
    assert 'data-next-deal="2"' in page
    assert f'action="/games/{game_id}/restore"' in page
    # Nobody leads a game that counts nowhere: no winner's star on it, here or in the list.
    assert 'class="leading"' not in page
    assert 'class="leading"' not in text(client.get("/games"))
    blocked = client.get(f"/games/{game_id}/deals/new", follow_redirects=True)
    assert (
        "This game was abandoned, so no more deals can be entered; only the tablet that "
        "abandoned it can undo that." in text(blocked)
    )
    assert enter_deal(client, game_id, COUNTED).status_code == 302
    assert stored(app)["deals"] == [(1, 1, 1)]

    client.post(f"/games/{game_id}/restore")
    page = text(client.get(f"/games/{game_id}"))
    assert "Enter deal 2" in page
    assert "This game was abandoned." not in page
    assert 'class="leading"' in page


def test_a_finished_game_is_not_abandoned_from_an_old_link(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        run_demo(1, seed=1)
        game_id = db.session.scalar(select(Game.id).where(Game.finished_at.is_not(None)))
    assert game_id is not None
    before = all_rows(app)
    for method in ("GET", "POST"):
        response = client.open(f"/games/{game_id}/abandon", method=method)
        assert response.status_code == 302
        page = text(client.get(response.headers["Location"]))
        assert f"Game {game_id} is finished, so it cannot be abandoned." in page
    assert all_rows(app) == before


def test_abandoned_then_deleted_comes_back_one_undo_at_a_time(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client)
    enter_deal(client, game_id, GERMAN)
    client.post(f"/games/{game_id}/abandon")
    client.post(f"/games/{game_id}/delete")
    client.post(f"/games/{game_id}/restore")  # the delete
    page = text(client.get(f"/games/{game_id}"))
    assert "This game was abandoned." in page
    assert f'action="/games/{game_id}/restore"' in page  # and the abandon can go next
    client.post(f"/games/{game_id}/restore")
    assert "Enter deal 2" in text(client.get(f"/games/{game_id}"))


def test_undoing_an_abandon_of_a_game_deleted_since_says_so(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client)
    enter_deal(client, game_id, GERMAN)
    client.post(f"/games/{game_id}/abandon")
    other = app.test_client()
    assert other.post(f"/games/{game_id}/delete").status_code == 302
    undone = client.post(f"/games/{game_id}/restore")
    assert undone.headers["Location"].endswith("/games")
    page = text(client.get(undone.headers["Location"]))
    assert "another tablet has deleted this game since" in page
    assert "The game is back." not in page
    assert client.get(f"/games/{game_id}").status_code == 404


def test_undoing_a_delete_leaves_another_tablets_abandon(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    enter_deal(client, game_id, GERMAN)
    other = app.test_client()
    assert other.post(f"/games/{game_id}/abandon").status_code == 302
    assert client.post(f"/games/{game_id}/delete").status_code == 302
    client.post(f"/games/{game_id}/restore")
    page = text(client.get(f"/games/{game_id}"))
    assert "This game was abandoned." in page  # the other tablet's abandon stands
    other.post(f"/games/{game_id}/restore")
    assert "Enter deal 2" in text(client.get(f"/games/{game_id}"))


# ---------------------------------------------------------------------------
# Starting a game


def test_start_form_keeps_what_was_typed_and_says_what_is_wrong(
    app: Flask, client: FlaskClient
) -> None:
    data = {"ruleset": "standard", "seating": "2x2", "t0-p0": "Ann", "t0-p1": "Ben", "t1-p0": "Cid"}
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    page = text(response)
    assert "1 seat has no name: fill it in" in error_beside(page, "players")
    assert value_of(page, "t1-p0") == "Cid"
    assert stored(app)["games"] == 0


@pytest.mark.parametrize(
    ("field", "typed", "says"),
    [
        ("season", "x", "Choose a season from the list."),
        ("season", "42", "There is no season 42."),
        ("played_on", "29/11/2026", "year-month-day"),
        ("played_on", "2099-01-01", "That date is still to come: give the day the game is played."),
        ("first_dealer", "-1", "The first dealer must be one of the players."),
        ("first_dealer", "9", "The first dealer must be one of the players."),
        ("ruleset", "no-such-rules", "There are no rules called no-such-rules."),
    ],
)
def test_start_form_garbage(
    app: Flask, client: FlaskClient, field: str, typed: str, says: str
) -> None:
    data = {"ruleset": "standard", "seating": "2x2", **TEAMS, field: typed}
    response = client.post("/games/new", data=data)
    assert response.status_code in (400, 404, 422)
    assert says in text(response)
    assert "Nothing was saved" in text(response)
    assert stored(app)["games"] == 0


def test_seasons_players_and_team_names_on_the_start_form(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        season_id = player_service.create_season("Winter 2026").id
    start_game(client)
    page = text(client.get("/games/new"))
    assert '<option value="Ann">' in page  # players seen before, for type-ahead
    assert f'<option value="{season_id}">Winter 2026</option>' in page
    game_id = start_game(client, season=str(season_id), **{"t0-name": "The Aces"})
    sheet = text(client.get(f"/games/{game_id}"))
    assert "Winter 2026" in sheet
    assert "The Aces" in sheet and "Cid &amp; Dee" in sheet  # a blank name: the players'
    with app.app_context():
        assert db.session.query(Player).count() == 4  # Ann, Ben, Cid, Dee seen before


def test_the_start_form_picks_the_season_running_today(app: Flask, client: FlaskClient) -> None:
    today = date.today()
    with app.app_context():
        player_service.create_season("No dates")
        player_service.create_season("Last year", today - timedelta(400), today - timedelta(35))
        player_service.create_season("Now", today - timedelta(30), today + timedelta(30))
    page = text(client.get("/games/new"))
    assert season_choice(page) == "Now"
    # A link that names no season keeps it so; a refused form keeps what was chosen.
    assert season_choice(text(client.get("/games/new?season="))) == "No season"
    refused = text(client.post("/games/new", data={"ruleset": "standard", "season": ""}))
    assert season_choice(refused) == "No season"
    with app.app_context():
        # Two seasons both running today: the table must choose.
        player_service.create_season("Open ended", today - timedelta(3), None)
    assert season_choice(text(client.get("/games/new"))) == "No season"


def season_choice(page: str) -> str:
    """The season the start form shows chosen: the selected option, else the first."""
    select = re.search(r'<select id="season".*?</select>', page, re.S)
    assert select is not None
    options = re.findall(r'<option value="[^"]*"( selected)?>([^<]*)</option>', select.group())
    chosen = [name for selected, name in options if selected] or [options[0][1]]
    assert len(chosen) == 1
    return chosen[0]


def test_seating_chooser_shows_rows_for_the_rules(client: FlaskClient) -> None:
    page = text(client.get("/games/new?ruleset=simpson&seating=3x1"))
    assert 'name="t2-p0"' in page
    assert 'name="t0-p1"' not in page
    assert 'value="simpson"' in page
    # Everyone alone: nobody has a team to name, nor do teams sit alternately.
    assert 'name="t0-name"' not in page and "Teams sit alternately" not in page
    assert "The deal passes to the left." in page
    six = text(client.get("/games/new?ruleset=standard&seating=2x3"))
    assert 'name="t1-p2"' in six and 'name="t2-p0"' not in six
    assert 'name="t1-name"' in six and "Teams sit alternately" in six
    fallback = text(client.get("/games/new?ruleset=nonsense&seating=99x9"))
    assert 'name="t1-p1"' in fallback  # the usual 2 teams of 2


def test_four_players_of_eleven_card_choose_pairs_or_each_alone(client: FlaskClient) -> None:
    # 002: "la personne ou l'équipe": both seatings are offered, pairs first.
    page = text(client.get("/games/new?ruleset=eleven-card"))
    assert 'value="2x2"' in page and 'value="4x1"' in page
    assert 'name="t0-p1"' in page  # the usual table: two pairs
    game = start_game(
        client,
        ruleset="eleven-card",
        seating="4x1",
        **{
            "t0-p0": "Ann",
            "t1-p0": "Ben",
            "t2-p0": "Cid",
            "t3-p0": "Dee",
            "t0-p1": "",
            "t1-p1": "",
        },
    )
    shown = text(client.get(f"/games/{game}"))
    assert all(name in shown for name in ("Ann", "Ben", "Cid", "Dee"))
    assert "5 decks" in shown


def test_the_deal_form_offers_only_what_the_rules_use(client: FlaskClient) -> None:
    simpson = start_game(
        client,
        ruleset="simpson",
        seating="3x1",
        **{"t0-p0": "Ann", "t1-p0": "Cid", "t2-p0": "Eve", "t0-p1": "", "t1-p1": ""},
    )
    page = text(client.get(f"/games/{simpson}/deals/new"))
    assert 'name="t2-clean_books"' in page
    assert 'name="t0-red_threes"' not in page  # discarded at once, never laid
    assert 'name="t0-red_threes_caught"' in page
    assert 'name="t0-wild_books"' not in page
    assert 'name="t0-exact_draws"' in page
    assert 'name="t0-melded-black_threes"' not in page
    assert 'name="t0-left-black_threes"' in page
    assert 'value="2"' in page and 'id="went_out-none"' in page

    brouillette = start_game(
        client,
        ruleset="brouillette",
        seating="2x1",
        **{"t0-p0": "Ann", "t1-p0": "Cid", "t0-p1": "", "t1-p1": ""},
    )
    page = text(client.get(f"/games/{brouillette}/deals/new"))
    assert 'name="t0-black_three_books"' in page
    assert 'name="t0-melded-black_threes"' in page


def test_a_deal_saved_with_no_cards_left_for_a_team_still_holding_some_says_to_check_it(
    client: FlaskClient, app: Flask
) -> None:
    """Seed 001: every player who did not go out keeps a card. Nothing left for such a team
    is most likely cards forgotten: the deal is saved (nothing is refused for it) and the
    game page says what to check."""
    game_id = start_game(client)
    forgot = {**GERMAN, "t0-left": "25", "t1-left": "0"}
    response = enter_deal(client, game_id, forgot)
    assert response.status_code == 302
    page = text(client.get(response.headers["Location"]))
    assert "Deal 1 saved." in page
    hint = re.search(r'<p class="flash flash-hint">(.*?)</p>', page, re.S)
    assert hint, page
    assert hint.group(1) == (
        "Check deal 1: Cid &amp; Dee did not go out, so each of their 2 players still holds at "
        "least one card in hand or foot, but no card is reported left. Correct the deal if "
        "something was missed."
    )
    # Counted as they were entered.
    with app.app_context():
        assert len(games.read_game(game_id).deals) == 1
    # Cards left for every player: nothing to check.
    other = start_game(client)
    response = enter_deal(client, other, {**GERMAN, "t0-left": "25"})
    assert "flash-hint" not in text(client.get(response.headers["Location"]))


def test_the_deal_trackers_counters_go_as_far_as_the_rules_allow(client: FlaskClient) -> None:
    def most(game_id: int) -> dict[str, int]:
        page = text(client.get(f"/games/{game_id}"))
        found = re.findall(
            r'<input type="number" id="track-0-\w+" data-track="(\w+)"'
            r'[^>]*\bmax="(\d+)"',
            page,
        )
        return {track: int(high) for track, high in found}

    standard = most(start_game(client))
    assert standard == {
        "opening": BOUNDS["opening_meld"][1],
        **{f: BOUNDS[f][1] for f in ("clean_books", "dirty_books", "wild_books", "red_threes")},
    }
    brouillette = start_game(
        client,
        ruleset="brouillette",
        seating="2x1",
        **{"t0-p0": "Ann", "t1-p0": "Cid", "t0-p1": "", "t1-p1": ""},
    )
    # One meld of each rank: one black-three book at most.
    assert most(brouillette)["black_three_books"] == 1


# ---------------------------------------------------------------------------
# Lists and missing things


def test_games_list_newest_first_with_totals(client: FlaskClient) -> None:
    old = start_game(client, played_on="2026-01-05")
    new = start_game(client, played_on="2026-11-29")
    enter_deal(client, new, GERMAN)
    page = text(client.get("/games"))
    assert page.index(f'href="/games/{new}"') < page.index(f'href="/games/{old}"')
    assert '<span class="num team-total">3855</span>' in page
    assert "Leader: Ann &amp; Ben" in page
    assert 'href="/games/new"' in page
    assert client.get("/games?page=abc").status_code == 200
    assert client.get("/games?page=-3").status_code == 200


def test_games_list_is_paginated(app: Flask, client: FlaskClient) -> None:
    for day in range(1, 23):
        start_game(client, played_on=f"2026-10-{day:02d}")
    first = text(client.get("/games"))
    assert first.count('class="card game-item"') == 20
    assert "Page 1 of 2" in first
    second = text(client.get("/games?page=2"))
    assert second.count('class="card game-item"') == 2


@pytest.mark.parametrize(
    "url",
    [
        "/games/999",
        "/games/999/start",
        "/games/999/deals/new",
        "/games/1/deals/3/edit",
        "/games/999/corrections",
        "/games/999/delete",
    ],
)
def test_missing_games_and_deals_get_a_friendly_404(client: FlaskClient, url: str) -> None:
    start_game(client)
    response = client.get(url)
    assert response.status_code == 404
    page = text(response)
    assert "Not found" in page
    assert "There is no game 999." in page or "Deal 3 has not been played yet." in page
    assert client.post("/games/999/abandon").status_code == 404


def test_two_tablets_entering_the_same_deal(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    other = app.test_client()
    mine = text(client.get(f"/games/{game_id}/deals/new"))
    assert value_of(mine, "number") == "1"
    theirs = text(other.get(f"/games/{game_id}/deals/new"))
    saved = other.post(f"/games/{game_id}/deals/new", data={**form_values(theirs), **GERMAN})
    assert saved.status_code == 302
    after_theirs = stored(app)

    typed = {**form_values(mine), **GERMAN, "t1-left": "225"}
    refused = client.post(f"/games/{game_id}/deals/new", data=typed)
    assert refused.status_code == 409
    page = text(refused)
    assert "Someone else saved deal 1 first." in page
    assert "Left 205" in re.findall(r'<div class="theirs">(.*?)</div>', page, re.S)[1]
    assert "Left 225" in re.findall(r'<div class="yours">(.*?)</div>', page, re.S)[1]
    assert f'action="/games/{game_id}/deals/1/edit"' in page
    assert value_of(page, "t1-left") == "225"
    assert stored(app) == after_theirs  # not saved as deal 2, nothing overwritten

    corrected = client.post(f"/games/{game_id}/deals/1/edit", data=form_values(page))
    assert corrected.status_code == 302
    assert "225 points" in text(client.get(f"/games/{game_id}/corrections"))
    assert [number for _id, number, _v in stored(app)["deals"]] == [1]


@pytest.mark.parametrize("damaged", ["", "one", "1x", "99999999999"])
def test_a_form_that_does_not_say_its_deal_is_shown_again_not_saved(
    app: Flask, client: FlaskClient, damaged: str
) -> None:
    game_id = start_game(client)
    assert enter_deal(client, game_id, GERMAN).status_code == 302
    before = stored(app)
    typed = {**form_values(text(client.get(f"/games/{game_id}/deals/new"))), **GERMAN}
    typed["t1-left"] = "225"

    refused = client.post(f"/games/{game_id}/deals/new", data={**typed, "number": damaged})

    assert refused.status_code == 400
    page = text(refused)
    assert (
        "This form does not say which deal it was for: check that these are the entries of "
        "deal 2, then save again." in page
    )
    assert value_of(page, "number") == "2"
    assert value_of(page, "t1-left") == "225"  # nothing typed is lost
    assert stored(app) == before
    saved = client.post(f"/games/{game_id}/deals/new", data=form_values(page))
    assert saved.status_code == 302
    assert [number for _id, number, _v in stored(app)["deals"]] == [1, 2]


@pytest.mark.parametrize("later", ["3", "5", "0005"])
def test_a_form_for_a_deal_past_the_next_is_shown_again_not_saved_as_the_next(
    app: Flask, client: FlaskClient, later: str
) -> None:
    # A form opened for deal 3 before the game went back to one deal (a restored backup):
    # its entries are not saved as deal 2 without a word.
    game_id = start_game(client)
    assert enter_deal(client, game_id, GERMAN).status_code == 302
    before = stored(app)
    typed = {**form_values(text(client.get(f"/games/{game_id}/deals/new"))), **GERMAN}
    refused = client.post(f"/games/{game_id}/deals/new", data={**typed, "number": later})
    assert refused.status_code == 400
    page = text(refused)
    assert (
        f"This form was opened for deal {int(later)}, but the next deal of this game is 2: "
        "check that these are the entries of deal 2, then save again." in page
    )
    assert value_of(page, "number") == "2"
    assert stored(app) == before
    assert client.post(f"/games/{game_id}/deals/new", data=form_values(page)).status_code == 302
    assert [number for _id, number, _v in stored(app)["deals"]] == [1, 2]


def test_house_rules_with_a_special_book(app: Flask, client: FlaskClient) -> None:
    from scorekeeper.services import rulesets

    with app.app_context():
        house = rulesets.create_house_rules(
            "Sevens night",
            "standard",
            {
                "special_books": [
                    {
                        "id": "sevens",
                        "name": "Book of sevens",
                        "bonus": 1000,
                        "min_points": 35,
                        "counts_as": "clean",
                    }
                ]
            },
        )
        house_id, slug = house.id, house.slug
    form = text(client.get(f"/games/new?ruleset={house_id}"))
    assert re.search(rf'<option value="{slug}" selected>Sevens night</option>', form)
    game_id = start_game(client, ruleset=slug)
    page = text(client.get(f"/games/{game_id}/deals/new"))
    assert '<label for="t0-special_books-sevens">Book of sevens</label>' in page
    deal = {
        **GERMAN,
        "t0-clean_books": "1",
        "t0-special_books-sevens": "1",
    }
    assert enter_deal(client, game_id, deal).status_code == 302
    sheet = text(client.get(f"/games/{game_id}"))
    # The sevens count as a clean book to go out and earn 1000 instead of 500: 3855 + 500.
    assert nums(row(sheet, 1))[0] == 4355
    assert "Book of sevens 1" in row(sheet, 1)
    data = form_values(text(client.get(edit_url(game_id, 1))))
    assert data["t0-special_books-sevens"] == "1"
    data["t0-special_books-sevens"] = "x"
    refused = client.post(edit_url(game_id, 1), data=data)
    assert refused.status_code == 400
    assert "Book of sevens must be a whole number." in error_beside(
        text(refused), "t0-special_books-sevens"
    )


def test_a_counted_total_refused_sends_the_player_to_its_counters(client: FlaskClient) -> None:
    # Counting hides the points box (table.js), so the summary's link goes to the counter
    # the player filled in, not to a box the player cannot see.
    game_id = start_game(client)
    counted_low = {k: v for k, v in COUNTED.items() if not k.startswith("t1-melded-")}
    low = {**counted_low, "t1-melded-fours_to_sevens": "1"}
    page = text(enter_deal(client, game_id, low))
    summary = page.split('id="form-errors"', 1)[1].split("</div>", 1)[0]
    assert "a meld has at least three cards" in summary
    assert 'href="#t1-melded-fours_to_sevens"' in summary
    assert 'id="t1-melded-fours_to_sevens"' in page
    assert 'href="#t1-melded"' not in summary
    # Counts typed without switching to counting are read as counts (a forgotten switch is
    # forgiven): the form comes back counting, and the link goes to the counter too.
    unswitched = {k: v for k, v in low.items() if k != "t1-melded_mode"}
    page = text(enter_deal(client, game_id, unswitched))
    summary = page.split('id="form-errors"', 1)[1].split("</div>", 1)[0]
    assert 'href="#t1-melded-fours_to_sevens"' in summary
    assert re.search(r'id="t1-melded_mode-counts" value="counts" checked', page)
    # Totalled, the same problem still sends the player to the points box.
    page = text(enter_deal(client, game_id, {**GERMAN, "t1-melded": "5"}))
    summary = page.split('id="form-errors"', 1)[1].split("</div>", 1)[0]
    assert 'href="#t1-melded"' in summary


def test_setting_the_table_again_fills_back_what_was_typed(client: FlaskClient) -> None:
    """static/js/app.js sends the boxes along when other rules or seats are chosen."""
    query = (
        "ruleset=no-wild-books&seating=2x2&seated=2x2&player=Ann&player=&player=Cid"
        "&player=Dee&player=Eve&t1-name=Foxes&t2-name=Nobody&played_on=2026-11-28&season="
    )
    page = text(client.get(f"/games/new?{query}"))
    values = form_values(page)
    boxes = {box: values[box] for box in ("t0-p0", "t0-p1", "t1-p0", "t1-p1", "t1-name")}
    assert boxes == {
        "t0-p0": "Ann", "t0-p1": "", "t1-p0": "Cid", "t1-p1": "Dee", "t1-name": "Foxes"
    }  # fmt: skip
    assert "Nobody" not in values.values()  # no team for it
    # No seat for Eve: the page says so, and keeps her name to seat her if seats are added.
    assert "No seat at this table for Eve: choose more players above" in page
    assert [box for box, value in values.items() if value == "Eve"] == ["left_out"]
    assert 'id="left-out"' not in text(client.get("/games/new?seating=2x2&player=Ann"))
    # A start refused (nobody named) still holds Eve's name for a seat added later.
    refused = client.post("/games/new", data={**values, "t0-p0": "", "t1-p0": "", "t1-p1": ""})
    assert refused.status_code == 422
    assert form_values(text(refused))["left_out"] == "Eve"
    assert values["played_on"] == "2026-11-28"
    assert values["ruleset"] == "no-wild-books"
    # Players regrouped are other teams: a team name typed for two teams of two is no
    # player's name when three play alone.
    regrouped = form_values(
        text(client.get(f"/games/new?{query.replace('seating=2x2', 'seating=3x1')}"))
    )
    assert [regrouped[box] for box in ("t0-p0", "t1-p0", "t2-p0")] == ["Ann", "", "Cid"]
    assert regrouped.get("t0-name", "") == "" and "Foxes" not in regrouped.values()

    # "No season" chosen stays chosen, even when a season runs today.
    today = date.today()
    season = {
        "name": "Running",
        "starts_on": (today - timedelta(days=1)).isoformat(),
        "ends_on": (today + timedelta(days=1)).isoformat(),
    }
    assert client.post("/seasons", data=season).status_code == 302

    def season_choice(page: str) -> list[str]:
        chooser = page.split('<select id="season"', 1)[1].split("</select>", 1)[0]
        return re.findall(r"<option[^>]* selected>([^<]*)<", chooser)

    assert season_choice(text(client.get("/games/new"))) == ["Running"]
    assert season_choice(text(client.get(f"/games/new?{query}"))) == []


def test_exact_draws_say_what_they_count(app: Flask, client: FlaskClient) -> None:
    from scorekeeper.services import games

    with app.app_context():
        simpson = games.start_game("simpson", [games.TeamSpec("", [n]) for n in ("Ann", "Cid")])
        plain = games.start_game("standard", [games.TeamSpec("", [n]) for n in ("Ann", "Cid")])
        simpson_id, plain_id = simpson.id, plain.id
    page = text(client.get(f"/games/{simpson_id}/deals/new"))
    # Steve Simpson's rules: each player deals 11 + 11 for himself; exactly 22 earns 100.
    # "Hvis spilleren hentede nøjagtigt 22 kort ved første forsøg": the first grab, not the
    # 22 everyone holds after topping up or putting cards back.
    hint = "Players who picked up exactly 22 cards in their first grab at the deal: +100 each."
    assert f'<p class="hint" id="t0-exact_draws-hint">{hint}</p>' in page
    # A player alone draws exactly once at most: the box and its + stop at 1.
    assert re.search(r'name="t0-exact_draws" inputmode="numeric"\s+min="0" max="1"', page)
    assert "exact_draws" not in text(client.get(f"/games/{plain_id}/deals/new"))


def test_red_threes_caught_say_where_they_are_held(app: Flask, client: FlaskClient) -> None:
    """Laid at once, a red three is caught only in a foot never picked up; discarded at once
    (Simpson: "Kassér røde tre med det samme"), it may still be held in the hand too."""
    with app.app_context():
        simpson = games.start_game("simpson", [games.TeamSpec("", [n]) for n in ("Ann", "Cid")])
        plain = games.start_game("standard", [games.TeamSpec("", [n]) for n in ("Ann", "Cid")])
        simpson_id, plain_id = simpson.id, plain.id

    def hint(game_id: int) -> str:
        page = text(client.get(f"/games/{game_id}/deals/new"))
        found = re.search(r'id="t0-red_threes_caught-hint">([^<]*)<', page)
        assert found, "the red threes caught have no hint"
        return found.group(1)

    assert hint(simpson_id) == (
        "Every red three still held when the deal ends, in the hand or in a foot."
    )
    assert hint(plain_id) == "Still hidden in a foot never picked up."


def test_melded_black_threes_are_counted_apart_from_the_melded_points(
    app: Flask, client: FlaskClient
) -> None:
    """Brouillette's melded black 3s count -5 each ("altid ... selvom melded"), taken off apart:
    the counter's subtotal, which fills the points box, must not add them at +5."""
    with app.app_context():
        game = games.start_game(
            "brouillette", [games.TeamSpec("", [n]) for n in ("Ann", "Cid", "Dee")]
        )
        game_id = game.id
    page = text(client.get(f"/games/{game_id}/deals/new"))

    def counter(name: str) -> str:
        found = re.search(rf'<input[^>]*name="{name}"[^>]*>', page, re.S)
        assert found, name
        return found.group(0)

    assert 'data-value="0"' in counter("t0-melded-black_threes")
    assert 'data-value="5"' in counter("t0-left-black_threes")
    assert 'data-value="10"' in counter("t0-melded-eights_to_kings")
    assert re.search(
        r'id="t0-melded-black_threes-hint">\u22125 each, taken off apart from the points counted',
        page,
    )
    assert "Without the black 3s: each black-three book takes off its own." in page


def test_a_sheet_of_players_alone_has_a_column_per_player(app: Flask, client: FlaskClient) -> None:
    from scorekeeper.rules import Cards, TeamTally
    from scorekeeper.services import games

    out = TeamTally(
        clean_books=2, dirty_books=2, wild_books=1, melded=Cards(points=700), went_out=True
    )
    stay = TeamTally(clean_books=1, melded=Cards(points=300), left=Cards(points=55))
    with app.app_context():
        alone = games.start_game(
            "standard", [games.TeamSpec("", [n]) for n in ("Ann", "Ben", "Cid")]
        )
        paired = games.start_game(
            "standard", [games.TeamSpec("", ["Ann", "Ben"]), games.TeamSpec("", ["Cid", "Dee"])]
        )
        games.record_deal(alone.id, [out, stay, stay])
        games.record_deal(paired.id, [out, stay])
        alone_id, paired_id = alone.id, paired.id
    caption = "The score sheet: one row per deal, one column per "
    assert f"{caption}player</caption>" in text(client.get(f"/games/{alone_id}"))
    assert f"{caption}team</caption>" in text(client.get(f"/games/{paired_id}"))


def test_other_rules_keep_as_many_players_as_were_seated(client: FlaskClient) -> None:
    """Four partners seated, then Simpson chosen (everyone alone): four players alone, not
    the usual three, so nobody typed in loses a seat; and back again, two pairs."""
    query = "ruleset=simpson&seating=2x2&seated=2x2&player=Anna&player=Ben&player=Carla&player=Dirk"
    page = text(client.get(f"/games/new?{query}"))
    values = form_values(page)
    names = [values.get(f"t{team}-p0") for team in range(4)]
    assert sorted(names) == ["Anna", "Ben", "Carla", "Dirk"]  # type: ignore[type-var]
    assert "No seat at this table" not in page
    back = text(client.get("/games/new?ruleset=standard&seating=4x1"))
    assert 'name="t1-p1"' in back and 'name="t2-p0"' not in back
    # Seats no rules of this kind have fall back to the usual table.
    assert 'name="t1-p1"' in text(client.get("/games/new?ruleset=standard&seating=8x1"))


def test_a_seat_left_empty_is_named_beside_what_the_rules_need(client: FlaskClient) -> None:
    """Two pairs chosen and one name forgotten: the empty seat is what the table must hear,
    not that three players cannot sit as pairs."""
    data = {"ruleset": "standard", "seating": "2x2", "played_on": "2026-11-29", **TEAMS}
    data["t0-p1"] = ""
    refused = client.post("/games/new", data=data)
    assert refused.status_code == 422
    page = text(refused)
    assert "With 3 players these rules need everyone playing alone." not in page
    hint = "1 seat has no name: fill it in, or choose a table of 3 players above."
    # The summary's link goes to the empty seat.
    first = re.search(r'id="form-errors">.*?<li>(.*?)</li>', page, re.S)
    assert first and first.group(1) == f'<a href="#t0-p1">{hint}</a>'
    # Beside a date that is no date, the seat still comes first: one round of corrections.
    page = text(client.post("/games/new", data={**data, "played_on": "soon"}))
    summary = re.findall(r'id="form-errors">.*?</ul>', page, re.S)[0]
    assert summary.index(hint) < summary.index("Give the date as year-month-day")


def test_two_pairs_with_one_name_each_are_not_two_players_alone(
    client: FlaskClient, app: Flask
) -> None:
    """An empty seat in every team left a table that could sit (two players alone), and the
    game started with the wrong decks and no partnerships. It is refused, and nothing starts."""
    with app.app_context():
        before = db.session.scalar(db.select(db.func.count()).select_from(Game))
    for ruleset, seating, names, blank, named in [
        ("standard", "2x2", {"t0-p0": "Ann", "t1-p0": "Cid"}, 2, 2),
        ("standard", "2x3", {"t0-p0": "Ann", "t0-p1": "Bob", "t1-p0": "Cid", "t1-p1": "Dee"}, 2, 4),
        ("standard", "3x2", {"t0-p0": "Ann", "t1-p0": "Cid", "t2-p0": "Eve"}, 3, 3),
        ("eleven-card", "2x3", {"t0-p0": "Ann", "t1-p0": "Cid"}, 4, 2),
    ]:
        data = {"ruleset": ruleset, "seating": seating, "played_on": "2026-11-29", **names}
        refused = client.post("/games/new", data=data)
        assert refused.status_code == 422, (ruleset, seating)
        hint = (
            f"{blank} seats have no name: fill them in, or choose a table of {named} players above."
        )
        assert hint in text(refused), (ruleset, seating)
        assert 'value="Ann"' in refused.get_data(as_text=True)  # nothing typed is lost
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Game)) == before
    # Every seat empty: each team is told it needs a player, and no seat count is made up.
    empty = {**data, **{name: "" for name in TEAMS}}
    page = text(client.post("/games/new", data=empty))
    assert "Every team needs at least one player." in page
    assert "seats have no name" not in page


def test_seats_no_rules_can_read_fall_back_to_the_usual_table(client: FlaskClient) -> None:
    for seating in ("\u00b2x2", "2x\u00b9", "x", "99999999999999999999x1"):
        response = client.get("/games/new", query_string={"ruleset": "simpson", "seating": seating})
        assert response.status_code == 200, seating


def test_the_empty_seat_hint_only_offers_tables_the_rules_have(client: FlaskClient) -> None:
    # Brouillette's partners seat four to six: three named players are no table to choose.
    data = {"ruleset": "brouillette-partners", "seating": "2x2", "played_on": "2026-11-29"}
    page = text(client.post("/games/new", data={**data, **TEAMS, "t0-p1": ""}))
    assert "1 seat has no name: fill it in." in page and "choose a table" not in page
    # One name typed: no table of one player.
    only = {name: "" for name in TEAMS} | {"t0-p0": "Ann"}
    page = text(client.post("/games/new", data={**data, "ruleset": "standard", **only}))
    assert "3 seats have no name: fill them in." in page and "choose a table" not in page
    # Two teams named alike at a full table: the seats are not the problem.
    twins = {**data, "ruleset": "standard", **TEAMS, "t0-name": "Foxes", "t1-name": "Foxes"}
    page = text(client.post("/games/new", data=twins))
    assert "Two teams cannot have the same name." in page
    assert "no name" not in page
