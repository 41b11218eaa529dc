"""What `make run` serves: the instance folder it is told, never debug mode, proxies trusted
only when configured."""

from __future__ import annotations

from pathlib import Path

import pytest
from database_support import database_url
from flask import Flask, request

from scorekeeper import create_app
from scorekeeper.serve import build_app


def _echo(app: Flask) -> None:
    @app.get("/probe/echo")
    def echo() -> dict[str, object]:
        return {"remote": request.remote_addr, "secure": request.is_secure}


def test_the_instance_folder_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    instance = tmp_path / "club-instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(instance))
    monkeypatch.setenv("DATABASE_URL", database_url(tmp_path / "served.sqlite"))
    app = build_app()
    assert Path(app.instance_path) == instance
    # The secret key is made there, so every worker and restart shares it.
    assert (instance / "secret_key").is_file()
    assert create_app().instance_path == str(instance)
    # An explicit instance_path still wins.
    assert create_app(instance_path=str(tmp_path / "other")).instance_path == str(
        tmp_path / "other"
    )


def test_the_served_app_never_runs_in_debug_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text("DEBUG = True\n")
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(instance))
    monkeypatch.setenv("FLASK_DEBUG", "1")
    monkeypatch.setenv("DATABASE_URL", database_url(tmp_path / "served.sqlite"))
    assert create_app().debug, "the probe must be able to fail: FLASK_DEBUG does set debug"

    app = build_app()
    assert not app.debug
    assert not app.testing

    @app.get("/probe/boom")
    def boom() -> str:
        raise RuntimeError("SECRET_KEY=hunter2 in /srv/scorekeeper/config.py")

    response = app.test_client().get("/probe/boom")
    assert response.status_code == 500
    page = response.get_data(as_text=True)
    for leak in ("Traceback", "hunter2", "RuntimeError", "/srv/scorekeeper", "Werkzeug Debugger"):
        assert leak not in page


def test_without_proxies_forwarded_headers_are_ignored(tmp_path: Path) -> None:
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url(tmp_path / "p.sqlite")},
        instance_path=str(tmp_path / "instance"),
    )
    _echo(app)
    forged = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}
    answer = app.test_client().get("/probe/echo", headers=forged).get_json()
    assert answer == {"remote": "127.0.0.1", "secure": False}


def test_behind_one_proxy_the_client_address_and_https_are_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_PROXIES", "1")
    app = create_app(
        {
            "TESTING": True,
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path / "p.sqlite"),
        },
        instance_path=str(tmp_path / "instance"),
    )
    assert app.config["PROXIES"] == 1
    _echo(app)
    client = app.test_client()
    # One proxy: only the address it appended counts, not what the client claimed before it.
    headers = {"X-Forwarded-For": "198.51.100.1, 203.0.113.9", "X-Forwarded-Proto": "https"}
    answer = client.get("/probe/echo", headers=headers).get_json()
    assert answer == {"remote": "203.0.113.9", "secure": True}
    # Over HTTPS (as the proxy says) the session cookie is Secure.
    response = client.post("/sign-out", headers=headers)
    assert "Secure" in response.headers["Set-Cookie"]


def test_a_proxy_count_that_is_not_a_number_stops_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_PROXIES", "nginx")
    with pytest.raises(SystemExit, match="SCOREKEEPER_PROXIES"):
        create_app({"TESTING": True}, instance_path=str(tmp_path / "instance"))
