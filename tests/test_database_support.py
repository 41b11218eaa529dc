"""The PostgreSQL pass runs on PostgreSQL or not at all, never quietly on SQLite."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent


def which_database(url: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "SCOREKEEPER_TEST_DATABASE_URL"}
    if url is not None:
        env["SCOREKEEPER_TEST_DATABASE_URL"] = url
    return subprocess.run(
        [sys.executable, "-c", "import database_support as d; print(d.DIALECT)"],
        cwd=HERE,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("url", "dialect"),
    [
        (None, "sqlite"),
        ("", "sqlite"),
        ("postgresql+psycopg://u:p@127.0.0.1:5432/db", "postgresql"),
        ("  postgresql+psycopg://u:p@127.0.0.1:5432/db\n", "postgresql"),
    ],
)
def test_the_database_the_tests_run_on(url: str | None, dialect: str) -> None:
    answer = which_database(url)
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout.strip() == dialect


@pytest.mark.parametrize(
    "url",
    [
        # What scripts/postgres.sh printed once after an unclean stop of the server.
        "Removed stale pid file.\npostgresql+psycopg://u:p@127.0.0.1:5432/db",
        "sqlite:///tmp/x.sqlite",
        "postgres is on",
    ],
)
def test_a_url_that_is_not_postgresql_stops_the_suite(url: str) -> None:
    answer = which_database(url)
    assert answer.returncode != 0
    assert "not a PostgreSQL URL" in answer.stderr
