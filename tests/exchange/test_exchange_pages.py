"""The settings page's data section, and the game page's chart and what-if link."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from babel.dates import format_datetime
from exchange_support import close, fresh_app, standings_facts, table_counts
from flask import Flask
from flask.testing import FlaskClient
from standings_support import Season

from scorekeeper import auth
from scorekeeper.extensions import utc_iso
from scorekeeper.rules.i18n import Phrase
from scorekeeper.services import backups, exchange, games
from scorekeeper.services.errors import Invalid

PASSCODE = "hand-and-foot"
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def upload(client: FlaskClient, content: bytes, name: str = "export.json", **more: Any) -> Any:
    return client.post(
        "/settings/import",
        data={"file": (io.BytesIO(content), name), **more},
        content_type="multipart/form-data",
        follow_redirects=True,
    )


def page_text(response: Any) -> str:
    return str(response.get_data(as_text=True))


@pytest.mark.sqlite_only(reason="the app's backups are SQLite files; PostgreSQL uses pg_dump")
def test_the_settings_page_offers_export_import_and_backups(
    client: FlaskClient, season: Season
) -> None:
    page = page_text(client.get("/settings"))
    for words in ("Your data", "Download JSON", "Download CSV (zip)", "Import", "Back up now"):
        assert words in page
    assert '<option value="1">Winter</option>' in page
    assert "No backups yet." in page


def test_downloads_are_attachments(client: FlaskClient, season: Season) -> None:
    everything = client.get("/settings/export.json")
    assert everything.status_code == 200 and everything.mimetype == "application/json"
    assert "attachment" in everything.headers["Content-Disposition"]
    assert len(everything.get_json()["games"]) == 7
    winter = client.get(f"/settings/export.json?season={season.season_id}")
    assert len(winter.get_json()["games"]) == 6
    archive = client.get("/settings/export.zip")
    assert archive.mimetype == "application/zip"
    assert "deals.csv" in zipfile.ZipFile(io.BytesIO(archive.data)).namelist()
    assert client.get("/settings/export.json?season=999").status_code == 404
    # No season's number at all: refused in words, not everything exported instead.
    for url in ("/settings/export.json?season=abc", "/settings/export.zip?season=-1"):
        refused = client.get(url)
        assert refused.status_code == 400 and refused.mimetype == "text/html", url
        assert "Choose a season from the list." in page_text(refused)
        assert 'id="import-submit"' in page_text(refused)
        assert 'id="submit"' not in page_text(refused)  # each button its own id


def test_uploading_an_export_imports_it_once(app: Flask, season: Season, tmp_path: Path) -> None:
    with app.app_context():
        data = exchange.export_json().encode("utf-8")
    other = fresh_app(tmp_path, "upload")
    try:
        client = other.test_client()
        first = upload(client, data)
        assert first.status_code == 200
        assert "Imported 7 games, 5 players, 1 season and 0 sets of house rules" in page_text(first)
        assert standings_facts(other) == standings_facts(app)
        counts = table_counts(other)
        second = upload(client, data)
        assert "7 games were already there" in page_text(second)
        assert table_counts(other) == counts
    finally:
        close(other)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"{not json", "The file is not valid JSON"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not UTF-8"),
        (b'{"format": "scorekeeper-export", "version": 7}', "format version 7"),
        (b"[]", "not a scorekeeper export"),
    ],
)
def test_a_bad_upload_is_refused_with_a_message_never_a_500(
    client: FlaskClient, app: Flask, season: Season, content: bytes, words: str
) -> None:
    before = table_counts(app)
    response = upload(client, content)
    assert response.status_code == 200
    text = page_text(response)
    assert "The file was not imported; nothing was changed." in text
    assert words in text
    assert table_counts(app) == before


@pytest.mark.parametrize(
    ("lang", "content", "words"),
    [
        ("en", b'{"a" 1}', "The file is not valid JSON: a colon is missing at line 1, column 6."),
        ("de", b'{"a": 1 "b": 2}', "kein gültiges JSON: ein Komma fehlt in Zeile 1, Spalte 9."),
        (
            "fr",
            b'{"a": "x',
            "un texte sans guillemet double fermant commence à la ligne 1, colonne 7",
        ),
        ("nl", b'{"a": }', "geen geldige JSON: er ontbreekt een waarde op regel 1, kolom 7."),
        ("da", b"{} x", "der følger noget efter dataenes slutning i linje 1, kolonne 4."),
        # A copy cut short runs out where more was expected.
        ("en", b'{"games": [1, 2', "not valid JSON: the file ends too early at line 1, column 16."),
    ],
)
def test_a_file_that_is_not_json_is_told_where_and_why_in_the_tables_language(
    client: FlaskClient, season: Season, lang: str, content: bytes, words: str
) -> None:
    response = client.post(
        "/settings/import",
        data={"file": (io.BytesIO(content), "export.json")},
        content_type="multipart/form-data",
        headers={"Accept-Language": lang},
        follow_redirects=True,
    )
    text = page_text(response)
    assert words in text
    assert "Expecting" not in text and "Extra data" not in text  # the parser's own English


def test_a_trailing_comma_is_given_a_reason_whatever_the_python(app: Flask) -> None:
    # Python 3.13 words a trailing comma anew ("Illegal trailing comma"); either way the
    # table is told why, not only where.
    for content in (b"[1, 2,]", b'{"a": 1,}'):
        with pytest.raises(Invalid) as refused:
            exchange.parse_json(content)
        (problem,) = refused.value.problems
        assert problem.template.startswith("The file is not valid JSON: %(reason)s")
        assert problem.params["reason"].template in exchange._JSON_REASONS.values()


def test_a_reason_the_parser_words_otherwise_still_names_the_place(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(exchange, "_JSON_REASONS", {})
    with pytest.raises(Invalid) as refused:
        exchange.parse_json(b'{"a" 1}')
    assert [str(Phrase(p.template, p.params)) for p in refused.value.problems] == [
        "The file is not valid JSON at line 1, column 6."
    ]


def test_a_broken_export_names_where_it_is_broken(
    client: FlaskClient, app: Flask, season: Season
) -> None:
    with app.app_context():
        document = exchange.export_document()
    document["games"][1]["totals"] = [1, 2]
    before = table_counts(app)
    text = page_text(upload(client, json.dumps(document).encode()))
    assert "games[1].totals" in text and "add up to" in text
    assert table_counts(app) == before


@pytest.mark.parametrize(
    ("where", "text", "words"),
    [
        ("team", "T\ud800", "The file holds text that is not valid Unicode."),
        ("rules", "R\ud800", "The file holds text that is not valid Unicode."),
        ("team", "A\u0000", "The file holds a NUL character, which text cannot hold."),
    ],
)
def test_text_no_database_stores_is_refused_as_the_api_refuses_it(
    app: Flask, season: Season, tmp_path: Path, where: str, text: str, words: str
) -> None:
    # A lone surrogate is a valid JSON escape: it got into the database and made the game's
    # pages answer 500 from then on (and a PostgreSQL server cannot store a NUL).
    with app.app_context():
        document = exchange.export_document()
    if where == "team":
        document["games"][0]["teams"][0]["name"] = text
    else:
        document["games"][0]["ruleset"]["name"] = text
    other = fresh_app(tmp_path, "surrogates")
    try:
        before = table_counts(other)
        response = upload(other.test_client(), json.dumps(document).encode())
        assert response.status_code == 200
        page = page_text(response)
        assert "The file was not imported; nothing was changed." in page
        assert words in page
        assert table_counts(other) == before
    finally:
        close(other)


def test_no_file_and_a_too_large_file_are_refused(app: Flask, client: FlaskClient) -> None:
    missing = client.post("/settings/import", data={}, follow_redirects=True)
    assert missing.status_code == 200 and "Choose the export file to import." in page_text(missing)
    app.config["IMPORT_MAX_BYTES"] = 1000
    big = upload(client, b" " * 5000)
    assert big.status_code == 200 and "too large" in page_text(big)


@pytest.mark.sqlite_only(reason="the app's backups are SQLite files; PostgreSQL uses pg_dump")
def test_back_up_and_restore_from_the_page(
    app: Flask, client: FlaskClient, season: Season, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TZ", "Asia/Tokyo")  # the zone of the machine the app runs on
    made = client.post("/settings/backup", follow_redirects=True)
    assert "Backed up to scorekeeper-" in page_text(made)
    with app.app_context():
        (backup,) = backups.list_backups()
        games.delete_game(season.g1)
    page = page_text(client.get("/settings"))
    assert backup.name in page and "made by hand" in page
    assert "(UTC)" not in page  # when it was taken, as the clock at the table reads it
    tokyo = format_datetime(backup.taken_at, "medium", tzinfo=ZoneInfo("Asia/Tokyo"), locale="en")
    assert f'<time datetime="{utc_iso(backup.taken_at)}">{tokyo}</time>' in page

    unconfirmed = client.post(
        "/settings/restore", data={"name": backup.name}, follow_redirects=True
    )
    assert "Tick the box to confirm the restore." in page_text(unconfirmed)
    with app.app_context():
        assert games.db.session.get(games.Game, season.g1).deleted_at is not None

    restored = client.post(
        "/settings/restore", data={"name": backup.name, "confirm": "y"}, follow_redirects=True
    )
    assert f"Restored {backup.name}." in page_text(restored)
    with app.app_context():
        assert games.db.session.get(games.Game, season.g1).deleted_at is None
    assert "before a restore" in page_text(client.get("/settings"))

    unknown = client.post(
        "/settings/restore",
        data={"name": "../../etc/passwd", "confirm": "y"},
        follow_redirects=True,
    )
    assert unknown.status_code == 200 and "There is no backup called" in page_text(unknown)


@pytest.mark.sqlite_only(reason="the app's backups are SQLite files; PostgreSQL uses pg_dump")
def test_with_a_passcode_every_data_write_needs_signing_in(
    app: Flask, client: FlaskClient, season: Season
) -> None:
    with app.app_context():
        backups.make_backup()
        (backup,) = backups.list_backups()
        data = exchange.export_json().encode()
        auth.set_passcode(PASSCODE)
    before = table_counts(app)
    for url, form in (
        ("/settings/import", {"file": (io.BytesIO(data), "x.json")}),
        ("/settings/backup", {}),
        ("/settings/restore", {"name": backup.name, "confirm": "y"}),
    ):
        response = client.post(url, data=form, content_type="multipart/form-data")
        assert response.status_code == 302 and "/sign-in" in response.headers["Location"], url
    assert table_counts(app) == before
    with app.app_context():
        assert len(backups.list_backups()) == 1
    # Reading (and downloading) never needs it; the write forms are not offered signed out.
    assert client.get("/settings/export.json").status_code == 200
    page = page_text(client.get("/settings"))
    assert "Sign in to restore." in page and 'action="/settings/import"' not in page


def test_the_data_forms_carry_their_csrf_token(tmp_path: Path) -> None:
    csrf_app = fresh_app(tmp_path, "csrf", WTF_CSRF_ENABLED=True)
    try:
        client = csrf_app.test_client()
        page = page_text(client.get("/settings"))
        token = TOKEN.search(page)
        assert token is not None
        assert client.post("/settings/backup").status_code == 400
        made = client.post("/settings/backup", data={"csrf_token": token.group(1)})
        assert made.status_code == 303
        with csrf_app.app_context():
            assert len(backups.list_backups()) == 1
    finally:
        close(csrf_app)


# ---------------------------------------------------------------------------
# The game page


def test_the_game_page_shows_running_totals_and_links_to_what_if(
    client: FlaskClient, season: Season
) -> None:
    page = page_text(client.get(f"/games/{season.g1}"))
    assert f'id="running-totals-{season.g1}' in page
    assert "The numbers behind this chart" in page and "<svg" in page
    assert f'href="/games/{season.g1}/what-if"' in page
    assert client.get(f"/games/{season.g1}/what-if").status_code == 200

    unfinished = page_text(client.get(f"/games/{season.g6}"))
    assert "<svg" in unfinished and "/what-if" not in unfinished


def test_a_game_without_deals_has_no_chart(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        game_id = games.start_game(
            "standard", [games.TeamSpec("", ["Ann", "Ben"]), games.TeamSpec("", ["Cy", "Di"])]
        ).id
    page = page_text(client.get(f"/games/{game_id}"))
    assert "<svg" not in page and "Running totals" not in page
