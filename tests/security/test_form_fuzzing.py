"""Hypothesis fills every HTML form with anything: real choices, garbage, huge numbers.

Each form is read from its own page (field names, options), so a new field is fuzzed without
touching this file. Whatever is sent: never a 5xx; a refusal is a 4xx or the form shown again
with a message; a refused write changes nothing (every row of every table, and the instance
folder where the passcode lives); an accepted one leads to a page that works.
"""

from __future__ import annotations

import html.parser
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from database_support import all_rows
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.extensions import db
from scorekeeper.services import games, players, rulesets

EXAMPLES = 60
FIRST_DEAL = [{"clean_books": 1, "melded": 300, "opening_meld": 60}, {"left": 40}]
GAME = {"ruleset": "standard", "teams": [{"players": ["Ann", "Ben"]}, {"players": ["Cy", "Di"]}]}
SENT: dict[str, int] = {"requests": 0, "refused": 0}
# What a refusal may answer: the form again (200) or a 4xx; an accepted write redirects.
ALLOWED = {200, 302, 303, 400, 401, 403, 404, 409, 413, 415, 422, 429}
MESSAGE_MARKS = ('class="error"', 'role="alert"', "form-errors", 'class="notice')
# A 200 that is a step before the write (nothing written yet), not a refusal.
CONFIRMATIONS = ('name="confirm" value="yes"',)


@dataclass
class Field:
    name: str
    kind: str  # input type, "select" or "textarea"
    value: str = ""
    options: list[str] = field(default_factory=list)


@dataclass
class Form:
    action: str
    method: str
    fields: dict[str, Field] = field(default_factory=dict)


class FormReader(html.parser.HTMLParser):
    """The forms of a page: action, method and every named control."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self._select: Field | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append(Form(a.get("action", ""), a.get("method", "get").lower()))
            return
        if not self.forms or not a.get("name"):
            if tag == "option" and self._select is not None:
                self._select.options.append(a.get("value", ""))
            return
        fields = self.forms[-1].fields
        name = a["name"]
        if tag in ("input", "button"):
            kind = a.get("type", "text" if tag == "input" else "submit")
            known = fields.get(name)
            if known is not None:
                known.options.append(a.get("value", ""))
            else:
                fields[name] = Field(name, kind, a.get("value", ""), [a.get("value", "")])
        elif tag == "select":
            self._select = fields.setdefault(name, Field(name, "select"))
        elif tag == "textarea":
            fields[name] = Field(name, "textarea")
        elif tag == "option" and self._select is not None:
            self._select.options.append(a.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def forms_of(client: FlaskClient, page: str, action_part: str) -> Form:
    response = client.get(page)
    assert response.status_code == 200, page
    reader = FormReader()
    reader.feed(response.get_data(as_text=True))
    for form in reader.forms:
        form.action = form.action or page  # a form without an action posts to its page
    found = [f for f in reader.forms if f.method == "post" and action_part in f.action]
    assert found, f"no POST form with {action_part!r} on {page}"
    return found[0]


GARBAGE = st.sampled_from(
    [
        "",
        " ",
        "0",
        "-1",
        "-0",
        "+5",
        "1.5",
        "1e309",
        "NaN",
        "inf",
        "0x10",
        "9" * 40,
        "-" + "9" * 40,
        str(2**63),
        str(2**31),
        str(2**31 - 1),
        "\u00b2",  # superscript two: str.isdigit() says yes, int() says no
        "\uff11\uff12",  # full-width digits
        "<script>alert(1)</script>",
        "=cmd|' /C calc'!A0",
        "'; DROP TABLE game; --",
        "\x00",
        "é" * 300,
        "x" * 5000,
        "2026-02-30",
        "0000-00-00",
        "standard",
        "none",
        "on",
    ]
)


def value_for(spec: Field) -> st.SearchStrategy[str | None]:
    """One field's value: a real choice often, else garbage, text, a number, or left out."""
    real = [v for v in [spec.value, *spec.options] if v is not None]
    choices: list[st.SearchStrategy[str | None]] = [GARBAGE, st.none()]
    if real:
        choices += [st.sampled_from(real)] * 3
    choices.append(st.integers(min_value=-(10**12), max_value=10**12).map(str))
    choices.append(st.integers(min_value=0, max_value=70).map(str))
    choices.append(st.text(max_size=40))
    return st.one_of(*choices)


@st.composite
def filled(draw: st.DrawFn, form: Form) -> dict[str, str]:
    data: dict[str, str] = {}
    for spec in form.fields.values():
        if spec.name == "csrf_token":
            continue
        value = draw(value_for(spec))
        if value is not None:
            data[spec.name] = value
    if draw(st.booleans()) and draw(st.booleans()):
        data[draw(st.text(min_size=1, max_size=12))] = draw(st.text(max_size=20))
    return data


def state(app: Flask) -> tuple[Any, dict[str, bytes]]:
    """Every row, and every file of the instance folder (the passcode lives there)."""
    folder = Path(app.instance_path)
    files = {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}
    return all_rows(app), files


def check(app: Flask, client: FlaskClient, action: str, data: dict[str, str]) -> None:
    before = state(app)
    response = client.post(action, data=data)
    SENT["requests"] += 1
    status = response.status_code
    assert status < 500, (action, data)
    assert status in ALLOWED, (status, action, data)
    if status in (302, 303):
        # Accepted: the page it leads to works.
        follow = client.get(response.headers["Location"])
        assert follow.status_code < 500, (action, data)
        return
    SENT["refused"] += 1
    if status == 200:
        page = response.get_data(as_text=True)
        marks = MESSAGE_MARKS + CONFIRMATIONS
        assert any(mark in page for mark in marks), ("no message", action, data)
    assert state(app) == before, ("a refused write changed something", action, data)


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def table(app: Flask) -> Iterator[dict[str, Any]]:
    """A game with one deal, a second player pair, a season, house rules to edit."""
    client = app.test_client()
    game = client.post("/api/games", json=GAME).get_json()["id"]
    assert client.post(f"/api/games/{game}/deals", json={"teams": FIRST_DEAL}).status_code == 201
    with app.app_context():
        players.create_season("Winter")
        other = games.start_game(
            "standard", [games.TeamSpec("", ["Eve", "Fay"]), games.TeamSpec("", ["Gus", "Hal"])]
        ).id
        player = players.all_players()[0].id
        slug = rulesets.create_house_rules("Club night", "standard", {}).slug
        db.session.remove()
    yield {"game": game, "other": other, "player": player, "slug": slug}


# (page with the form, a part of its action) per form; {game} etc. come from `table`.
FORMS: dict[str, tuple[str, str]] = {
    "new game": ("/games/new", "/games/new"),
    "deal entry": ("/games/{game}/deals/new", "/deals/new"),
    "correction": ("/games/{game}/deals/1/edit", "/deals/1/edit"),
    "new house rules": ("/house-rules/new?base=standard", "/house-rules/new"),
    "edit house rules": ("/house-rules/{slug}/edit", "/edit"),
    "rename player": ("/players/{player}/rename", "/rename"),
    "merge players": ("/players/merge", "/players/merge"),
    "new season": ("/seasons", "/seasons"),
    "passcode settings": ("/settings", "/settings"),
    "sign in": ("/sign-in", "/sign-in"),
    "abandon game": ("/games/{other}/abandon", "/abandon"),
}


@pytest.mark.parametrize("name", list(FORMS))
def test_any_input_to_a_form_is_answered_without_harm(
    name: str, app: Flask, table: dict[str, Any]
) -> None:
    client = app.test_client()
    page, action_part = FORMS[name]
    if name == "sign in":
        # Signing in exists only once a table passcode is set.
        saved = client.post("/settings", data={"new": "table-code", "confirm": "table-code"})
        assert saved.status_code == 302
        client = app.test_client()
    form = forms_of(client, page.format(**table), action_part)
    action = form.action or page.format(**table)

    sent = SENT["requests"]

    @FUZZ
    @given(data=filled(form))
    def run(data: dict[str, str]) -> None:
        check(app, client, action, data)

    run()
    print(f"\n{name}: {SENT['requests'] - sent} requests")
    assert SENT["requests"] - sent >= EXAMPLES * 0.8


def get_forms(client: FlaskClient, page: str, action_part: str) -> Form:
    reader = FormReader()
    reader.feed(client.get(page).get_data(as_text=True))
    found = [f for f in reader.forms if f.method == "get" and action_part in f.action]
    assert found, f"no GET form with {action_part!r} on {page}"
    return found[0]


def test_the_blank_sheet_form_takes_anything(app: Flask) -> None:
    # A GET form on each rules card: it writes nothing and must answer every query.
    client = app.test_client()
    form = get_forms(client, "/rules/standard", "/sheets/blank.pdf")
    assert {"teams", "paper"} <= set(form.fields), form.fields
    sent = 0

    @settings(FUZZ, max_examples=25)  # each accepted query renders a PDF
    @given(query=filled(form))
    def run(query: dict[str, str]) -> None:
        nonlocal sent
        before = all_rows(app)
        response = client.get(form.action, query_string=query)
        sent += 1
        assert response.status_code < 500, query
        assert response.status_code in (200, 400, 404, 422), query
        assert all_rows(app) == before

    run()
    SENT["requests"] += sent
    assert sent >= 20


JSON_WRITES: list[tuple[str, str]] = [
    ("POST", "/api/games"),
    ("POST", "/api/games/{game}/deals"),
    ("PUT", "/api/games/{game}/deals/1"),
    ("POST", "/api/games/{game}/corrections/undo"),
    ("POST", "/api/seasons"),
    ("POST", "/api/score"),
]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=5)
    ),
    max_leaves=12,
)


@pytest.mark.parametrize(("method", "url"), JSON_WRITES)
def test_any_json_to_a_write_endpoint_is_refused_without_harm(
    method: str, url: str, app: Flask, table: dict[str, Any]
) -> None:
    client = app.test_client()
    target = url.format(**table)
    keys = ["ruleset", "teams", "deal", "version", "players", "name", "starts_on", "ends_on"]

    @FUZZ
    @given(
        body=st.one_of(JSON, st.dictionaries(st.sampled_from(keys), JSON, max_size=4)),
        raw=st.one_of(st.none(), st.binary(max_size=60)),
    )
    def run(body: Any, raw: bytes | None) -> None:
        before = all_rows(app)
        if raw is not None:
            response = client.open(target, method=method, data=raw, content_type="application/json")
        else:
            response = client.open(target, method=method, json=body)
        SENT["requests"] += 1
        assert response.status_code < 500, (target, body, raw)
        assert response.mimetype == "application/json"
        if response.status_code >= 400:
            SENT["refused"] += 1
            assert response.get_json()["errors"], (target, body)
            assert all_rows(app) == before, ("a refused write changed something", target, body)

    sent = SENT["requests"]
    run()
    print(f"\n{method} {url}: {SENT['requests'] - sent} requests")
    assert SENT["requests"] - sent >= EXAMPLES * 0.8


def test_a_nul_character_is_refused_on_every_database(app: Flask, client: FlaskClient) -> None:
    # Found by the PostgreSQL pass: PostgreSQL text cannot hold NUL, SQLite silently does.
    before = all_rows(app)
    body = {"ruleset": "standard", "teams": [{"players": ["A\x00n"]}, {"players": ["Cy"]}]}
    refused = client.post("/api/games", json=body)
    assert refused.status_code == 400
    assert "NUL" in refused.get_json()["errors"][0]["message"]
    form = {"ruleset": "standard", "seating": "2x2", "t0-p0": "A\x00n", "t0-p1": "Ben"}
    page = client.post("/games/new", data={**form, "t1-p0": "Cy", "t1-p1": "Di"})
    assert page.status_code == 400
    assert "NUL character. Nothing was saved." in page.get_data(as_text=True)
    assert client.get("/games", query_string={"page": "\x00"}).status_code == 400
    assert all_rows(app) == before


def test_numbers_past_any_id_name_nothing_on_every_database(
    app: Flask, client: FlaskClient, table: dict[str, Any]
) -> None:
    # Found by the PostgreSQL pass: its INTEGER ids are 32 bits and it refuses to even look up
    # a larger number (a 500), where SQLite answered "not found".
    past = 2**31
    before = all_rows(app)
    for url in (
        f"/api/games/{past}",
        f"/api/games/{past}/deals/1",
        f"/api/games/{table['game']}/deals/{past}",
    ):
        assert client.get(url).status_code == 404, url
    for url in (f"/games/{past}", f"/games/{past}/deals/1/edit", f"/players/{past}/rename"):
        assert client.get(url).status_code == 404, url
    game = {"ruleset": past, "teams": [{"players": ["Ann"]}, {"players": ["Cy"]}]}
    assert 400 <= client.post("/api/games", json=game).status_code < 500
    game = {
        "ruleset": "standard",
        "season": past,
        "teams": [{"players": ["A"]}, {"players": ["B"]}],
    }
    assert 400 <= client.post("/api/games", json=game).status_code < 500
    deal = {"version": past, "teams": [{}, {}]}
    assert client.put(f"/api/games/{table['game']}/deals/1", json=deal).status_code == 400
    merge = client.post("/players/merge", data={"keep": str(past), "merge": "1"})
    assert merge.status_code in (200, 400, 404, 422)
    assert client.get("/house-rules/\u00b2/edit").status_code == 404
    assert client.get("/house-rules/new", query_string={"base": "\u00b2"}).status_code < 500
    assert all_rows(app) == before
