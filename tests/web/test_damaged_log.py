"""A correction log changed by hand: every page, sheet, API answer and export still works.

The log keeps each corrected value as JSON text. Changed by hand into text that is not JSON,
or JSON nested deeper than Python reads, such a row ended in an error 500 on the API's game,
its corrections, the export and anything else that read it. The log only tells what was
changed; nothing is scored from it. So a value that does not read is shown as the text it
is, everywhere, and only undo (which would put it back into a deal) refuses it in words.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from typing import Any

import pytest
import test_damaged_rules
from markupsafe import escape
from sqlalchemy import text
from test_damaged_rules import GAME_ROUTES, Table, ask, stored

from scorekeeper.extensions import db

table = test_damaged_rules.table  # the fixture: a finished game of four deals, one corrected

NOT_JSON = "two (was: 1)"
TOO_DEEP = "[" * 100_000 + "]" * 100_000
DAMAGE = {
    "not JSON": NOT_JSON,
    "nested too deep": TOO_DEEP,
    # Read by Python, but written by the export and the API a few frames per level.
    "nested 500 deep": "[" * 500 + "]" * 500,
    "NaN": "NaN",  # Python reads it; it is not JSON, and the export must stay JSON
    "a long name in cards": '{"aces": "' + "y" * 20_000 + '"}',  # stalled the sheet
    "a long number": "9" * 4_000,
}


def shown(value: str) -> str:
    """How a page or a sheet shows a logged value that does not read: cut to 40 characters."""
    return value if len(value) <= 40 else value[:39] + "\N{HORIZONTAL ELLIPSIS}"


def damage_log(table: Table, value: str) -> None:
    with table.app.app_context():
        updated = db.session.execute(
            text("UPDATE correction SET old_value = :value WHERE game_id = :game"),
            {"value": value, "game": table.game},
        )
        assert updated.rowcount >= 1  # type: ignore[attr-defined]
        db.session.commit()


READS = [route for route in GAME_ROUTES if route[0] == "GET"]


@pytest.mark.parametrize("how", DAMAGE)
@pytest.mark.parametrize(("method", "url", "body"), READS)
def test_every_read_of_a_game_with_a_damaged_log_answers(
    table: Table, how: str, method: str, url: str, body: Any
) -> None:
    client = table.app.test_client()
    url = url.format(g=table.game, p=table.player, s=table.season)
    intact = ask(client, method, url, body).status_code
    damage_log(table, DAMAGE[how])
    before = stored(table.app)

    response = ask(client, method, url, body)

    # As it answered before the log was damaged (a finished game's new deal redirects).
    assert response.status_code == intact, response.get_data(as_text=True)[:2000]
    assert intact in (200, 302)
    assert stored(table.app) == before


def _pdf_words(pdf: bytes) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as file:
        file.write(pdf)
        file.flush()
        found = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", file.name, "-"], capture_output=True, check=True
        )
    return " ".join(found.stdout.decode().split())


@pytest.mark.parametrize("how", DAMAGE)
def test_a_value_that_does_not_read_is_shown_as_the_text_it_is(table: Table, how: str) -> None:
    damage_log(table, DAMAGE[how])
    client = table.app.test_client()
    # Pages and sheets cut it (an unbroken word of 200,000 letters stalled the sheet's layout).
    cut = shown(DAMAGE[how])

    page = client.get(f"/games/{table.game}/corrections").get_data(as_text=True)
    assert f'class="old-value">{escape(cut)}<' in page
    assert DAMAGE[how][:41] not in page or len(DAMAGE[how]) <= 40
    pdf = client.get(f"/games/{table.game}/sheet.pdf").data
    assert cut in _pdf_words(pdf)

    # The API and the export give it whole, as the text it is: nothing is lost.
    logged = client.get(f"/api/games/{table.game}/corrections").get_json()["corrections"]
    assert {c["old"] for c in logged} == {DAMAGE[how]}
    assert {c["new"] for c in logged} == {0, 1, 40, 160}  # the new values still read
    document = json.loads(client.get("/api/export.json").get_data(as_text=True))
    exported = document["games"][0]["corrections"]
    assert [c["old"] for c in exported] == [DAMAGE[how]] * len(logged)


@pytest.mark.parametrize("how", ["not JSON", "NaN"])
def test_an_export_with_a_damaged_log_names_it_when_imported(table: Table, how: str) -> None:
    damage_log(table, DAMAGE[how])
    client = table.app.test_client()
    document = json.loads(client.get("/api/export.json").get_data(as_text=True))
    before = stored(table.app)

    refused = client.post("/api/import", json=document)

    # The file is text: whoever keeps it can mend or drop that entry and import it again.
    assert refused.status_code == 422
    errors = refused.get_json()["errors"]
    assert any(
        e["field"] == "games[0].corrections[0].old"
        and "is not something a team can report" in e["message"]
        for e in errors
    ), errors
    assert stored(table.app) == before
