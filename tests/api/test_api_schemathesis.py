"""Schemathesis against /api/openapi.json: generated requests, valid and invalid, in-process.

Every operation of the document gets requests that fit it (positive) and requests that break
it (negative). Whatever comes: never a 5xx, every answer as the document says (status, content
type, body schema), invalid data refused with a 4xx, and a refused write changes no row.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from api_support import FIRST_DEAL, standard_game_body
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance
from sqlalchemy import select

from scorekeeper.api.openapi import document
from scorekeeper.extensions import db

# Per operation and mode; 12 operations x 2 modes x this gives the total in the report.
MAX_EXAMPLES = 150
# The least the whole run must have sent, counted, or the test measured too little.
AT_LEAST = 2000

SENT: dict[str, int] = {"requests": 0, "refused_writes": 0}
WRITES = {"POST", "PUT", "PATCH", "DELETE"}


def everything(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in key order."""
    with app.app_context():
        dump = {
            table.name: [
                tuple(row) for row in db.session.execute(select(table).order_by(*table.primary_key))
            ]
            for table in db.metadata.sorted_tables
        }
        db.session.remove()
        return dump


@pytest.fixture
def fuzzed_app(app: Flask) -> Flask:
    """Games to aim at: the generator's small integers hit ids 1 to 3 and deals 1 and 2."""
    client = app.test_client()
    for _ in range(3):
        created = client.post("/api/games", json=standard_game_body())
        assert created.status_code == 201
        game_id = created.get_json()["id"]
        deal = client.post(f"/api/games/{game_id}/deals", json={"teams": FIRST_DEAL})
        assert deal.status_code == 201
    return app


# The document the app serves at /api/openapi.json (a test checks they are the same), loaded
# at import so pytest can make one test per operation; each request goes to the test's own app
# in-process (WSGI). Schemathesis's fixture-based loader does not run on pytest 9 yet.
schema = schemathesis.openapi.from_dict(document())
schema.config.generation.update(
    modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE], max_examples=MAX_EXAMPLES
)


def test_the_fuzzed_document_is_the_one_the_app_serves(client: FlaskClient) -> None:
    assert client.get("/api/openapi.json").get_json() == document()


@schema.parametrize()
@settings(
    deadline=None,
    # One app (one database) per operation, shared by its examples: state builds up.
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,
    ],
)
def test_generated_requests_never_break_the_api(case: Any, fuzzed_app: Flask) -> None:
    write = case.method.upper() in WRITES
    before = everything(fuzzed_app) if write else None
    # A request can fit the schema and still be a mistake at the table (rules that do not
    # exist, more books than cards): the app rightly refuses those with a 4xx, so the check
    # that every schema-valid request is accepted does not apply. Every other check does.
    response = case.call_and_validate(app=fuzzed_app, excluded_checks=[positive_data_acceptance])
    SENT["requests"] += 1
    assert response.status_code < 500, response.text[:500]
    if write and response.status_code >= 400:
        SENT["refused_writes"] += 1
        assert everything(fuzzed_app) == before, f"refused {case.method} {case.path} wrote"


def test_schemathesis_sent_thousands_of_requests() -> None:
    # Runs after the generated tests in this module (pytest keeps file order).
    print(f"\nschemathesis: {SENT['requests']} requests, {SENT['refused_writes']} refused writes")
    assert SENT["requests"] >= AT_LEAST
