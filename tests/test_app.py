from __future__ import annotations

import ipaddress
import stat
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.extensions import db, utc_iso
from scorekeeper.serve import lan_addresses


def _instance_with_config(tmp_path: Path, body: str) -> Path:
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text(body)
    return instance


def test_instance_config_is_read(tmp_path: Path) -> None:
    instance = _instance_with_config(tmp_path, 'SQLALCHEMY_DATABASE_URI = "sqlite:///inst.db"\n')
    app = create_app({"TESTING": True}, instance_path=str(instance))
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:///inst.db"


def test_environment_beats_instance_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    instance = _instance_with_config(tmp_path, 'SQLALCHEMY_DATABASE_URI = "sqlite:///inst.db"\n')
    monkeypatch.setenv("DATABASE_URL", "sqlite:///env.db")
    app = create_app({"TESTING": True}, instance_path=str(instance))
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:///env.db"


def test_mapping_beats_environment_and_instance_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    instance = _instance_with_config(
        tmp_path, 'SQLALCHEMY_DATABASE_URI = "sqlite:///inst.db"\nSECRET_KEY = "from-instance"\n'
    )
    monkeypatch.setenv("DATABASE_URL", "sqlite:///env.db")
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "from-env")
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite:///map.db", "SECRET_KEY": "from-map"},
        instance_path=str(instance),
    )
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:///map.db"
    assert app.config["SECRET_KEY"] == "from-map"


def test_database_url_selects_the_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db_file = tmp_path / "chosen.sqlite"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{db_file}")
    app = create_app({"TESTING": True}, instance_path=str(tmp_path / "instance"))
    with app.app_context():
        db.session.execute(text("CREATE TABLE probe (id INTEGER PRIMARY KEY)"))
        db.session.commit()
        db.session.remove()
        db.engine.dispose()
    assert db_file.exists()


def test_default_database_lives_in_the_instance_folder(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    app = create_app({"TESTING": True}, instance_path=str(instance))
    with app.app_context():
        assert db.engine.url.database == str(instance / "scorekeeper.sqlite")
        db.engine.dispose()


def test_instance_folder_is_created(tmp_path: Path) -> None:
    instance = tmp_path / "new" / "instance"
    create_app({"TESTING": True}, instance_path=str(instance))
    assert instance.is_dir()


def test_secret_key_is_generated_private_and_reused(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    first = create_app(instance_path=str(instance))
    key_file = instance / "secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(first.config["SECRET_KEY"]) == 64
    assert key_file.read_text().strip() == first.config["SECRET_KEY"]

    second = create_app(instance_path=str(instance))
    assert second.config["SECRET_KEY"] == first.config["SECRET_KEY"]
    assert not list(instance.glob(".secret_key.*"))


def test_no_fixed_secret_key_outside_tests(tmp_path: Path) -> None:
    one = create_app(instance_path=str(tmp_path / "one"))
    two = create_app(instance_path=str(tmp_path / "two"))
    testing = create_app({"TESTING": True}, instance_path=str(tmp_path / "three"))
    assert one.config["SECRET_KEY"] != two.config["SECRET_KEY"]
    assert testing.config["SECRET_KEY"] not in (one.config["SECRET_KEY"], two.config["SECRET_KEY"])
    assert not (tmp_path / "three" / "secret_key").exists()


def test_secret_key_from_environment_writes_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "from-env")
    app = create_app(instance_path=str(tmp_path / "instance"))
    assert app.config["SECRET_KEY"] == "from-env"
    assert not (tmp_path / "instance" / "secret_key").exists()


def test_safe_defaults(app: Flask) -> None:
    assert app.config["SESSION_COOKIE_HTTPONLY"] is True
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert app.config["LANGUAGES"] == ["en", "de", "nl", "fr", "da"]
    assert app.json.sort_keys is False  # type: ignore[attr-defined]
    assert app.debug is False


def test_csrf_is_on_unless_a_test_turns_it_off(tmp_path: Path) -> None:
    app = create_app({"TESTING": True}, instance_path=str(tmp_path / "instance"))
    assert app.config["WTF_CSRF_ENABLED"] is True


def test_home_page_links_to_the_rules(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "<h1>Scorekeeper</h1>" in page
    assert 'href="/rules"' in page
    assert '<html lang="en">' in page
    assert 'id="main"' in page
    assert "/static/css/app.css" in page


@pytest.mark.parametrize(
    ("accept_language", "expected"),
    [("de-DE,de;q=0.9", "de"), ("nl", "nl"), ("ja", "en"), (None, "en")],
)
def test_page_language_follows_the_browser(
    client: FlaskClient, accept_language: str | None, expected: str
) -> None:
    headers = {"Accept-Language": accept_language} if accept_language else {}
    page = client.get("/", headers=headers).get_data(as_text=True)
    assert f'<html lang="{expected}">' in page


def test_language_in_the_session_wins(client: FlaskClient) -> None:
    with client.session_transaction() as session:
        session["lang"] = "fr"
    page = client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<html lang="fr">' in page


def test_healthz(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


def test_stylesheet_is_served(client: FlaskClient) -> None:
    response = client.get("/static/css/app.css")
    assert response.status_code == 200
    assert b"tabular-nums" in response.data
    response.close()


def test_lan_addresses_are_ipv4() -> None:
    addresses = lan_addresses()
    assert addresses
    for address in addresses:
        assert isinstance(ipaddress.ip_address(address), ipaddress.IPv4Address)


@pytest.mark.sqlite_only(reason="SQLite's own pragmas (foreign keys, WAL) on each connection")
def test_sqlite_pragmas_are_on_for_a_file_database(app: Flask) -> None:
    with app.app_context():
        assert db.session.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert db.session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.session.execute(text("PRAGMA synchronous")).scalar() == 1  # NORMAL
        assert db.session.execute(text("PRAGMA busy_timeout")).scalar() == 5000


def test_flask_db_command_is_available(runner) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(args=["db", "--help"])
    assert result.exit_code == 0
    assert "upgrade" in result.output


def test_moments_are_written_in_utc_for_time_elements() -> None:
    """SQLite hands back naive datetimes (stored in UTC); PostgreSQL aware ones, perhaps in
    another zone: both name the same moment in a <time datetime>."""
    naive = datetime(2026, 12, 4, 14, 5, 9, 123456)
    assert utc_iso(naive) == "2026-12-04T14:05:09Z"
    amsterdam = naive.replace(tzinfo=timezone(timedelta(hours=1)))
    assert utc_iso(amsterdam) == "2026-12-04T13:05:09Z"
