"""Scorekeeper: a table-side scorekeeper for the card game Hand and Foot."""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

from scorekeeper.extensions import init_extensions

# templates/, static/ and instance/ are top-level folders beside the package.
PROJECT_ROOT = Path(__file__).resolve().parent.parent

# Only ever used when TESTING is on and nothing else supplied a key.
_TEST_SECRET_KEY = "scorekeeper-tests-only-not-a-secret"

DEFAULTS: dict[str, Any] = {
    # Relative SQLite paths are resolved against the instance folder by Flask-SQLAlchemy.
    "SQLALCHEMY_DATABASE_URI": "sqlite:///scorekeeper.sqlite",
    "BABEL_DEFAULT_LOCALE": "en",
    "LANGUAGES": ["en", "de", "nl", "fr", "da"],
    "WTF_CSRF_ENABLED": True,
    # A form's token holds as long as its browser's session: a deal can take over an hour.
    "WTF_CSRF_TIME_LIMIT": None,
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    # Reverse proxies in front of the app (nginx: 1); 0 trusts no X-Forwarded-* header.
    "PROXIES": 0,
    # The most a request may send: a page's form is a few kilobytes. A view taking an upload
    # names its own limit (``view.upload_limit``, see security.Request), the JSON API its own
    # (api.inputs.json_body), so an import may be larger.
    "MAX_CONTENT_LENGTH": 1024 * 1024,
}


def create_app(
    config: Mapping[str, Any] | None = None, *, instance_path: str | None = None
) -> Flask:
    """Build the app: defaults < instance/config.py < environment < ``config``.

    The instance folder (database, secret key, config.py) is ``instance_path``, else
    ``$SCOREKEEPER_INSTANCE_PATH``, else ``instance/`` beside the package.
    """
    app = Flask(
        __name__,
        instance_path=instance_path
        or os.environ.get("SCOREKEEPER_INSTANCE_PATH")
        or str(PROJECT_ROOT / "instance"),
        instance_relative_config=True,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)

    app.config.from_mapping(DEFAULTS)
    app.config.from_pyfile("config.py", silent=True)
    _apply_environment(app)
    if config is not None:
        app.config.from_mapping(config)

    # Flask 3 dropped the JSON_SORT_KEYS setting; the provider attribute replaces it.
    app.json.sort_keys = False  # type: ignore[attr-defined]

    if not app.config.get("SECRET_KEY"):
        if app.testing:
            app.config["SECRET_KEY"] = _TEST_SECRET_KEY
        else:
            app.config["SECRET_KEY"] = _load_or_create_secret_key(Path(app.instance_path))

    init_extensions(app)

    from scorekeeper import api, auth, cli, main, models, security  # noqa: F401  (models: the tables)
    from scorekeeper.web import games, players, pwa, rules, seasons, settings, sheets

    app.register_blueprint(main.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(sheets.bp)
    app.register_blueprint(seasons.bp)
    app.register_blueprint(pwa.bp)
    app.register_blueprint(settings.bp)
    cli.init_cli(app)
    security.init_security(app)
    auth.init_auth(app)
    app.before_request(security.forms_are_forms)
    # After the passcode gate: a refused write does not trigger the daily backup.
    app.before_request(_daily_backup)
    _trust_proxies(app)
    return app


def _daily_backup() -> None:
    """Before the day's first write, back up the database (see services.backups)."""
    from flask import current_app, request

    from scorekeeper.auth import EXEMPT_ENDPOINTS, SAFE_METHODS
    from scorekeeper.services import backups

    # The calculators, signing in and out change no data: nothing to keep a copy before.
    if request.method in SAFE_METHODS or request.endpoint in EXEMPT_ENDPOINTS:
        return
    try:
        backups.daily_backup_if_due()
    except Exception:  # a failed backup must never stop the table from scoring
        current_app.logger.exception("The daily backup failed")


def _trust_proxies(app: Flask) -> None:
    """Behind N reverse proxies, take the client's address and scheme from their headers.

    Only then are cookies marked Secure over HTTPS and the sign-in rate limit counted per
    client rather than per proxy. Never set it without a proxy: anyone could then forge
    X-Forwarded-For and slip past the rate limit.
    """
    proxies = int(app.config.get("PROXIES") or 0)
    if proxies > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_prefix=proxies
        )


def _apply_environment(app: Flask) -> None:
    if database_url := os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = database_url
    if secret_key := os.environ.get("SCOREKEEPER_SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key
    if daily := os.environ.get("SCOREKEEPER_BACKUP_DAILY"):
        app.config["BACKUP_DAILY"] = daily.strip().lower() not in ("0", "false", "no", "off")
    if proxies := os.environ.get("SCOREKEEPER_PROXIES"):
        try:
            app.config["PROXIES"] = int(proxies)
        except ValueError:
            raise SystemExit(
                f"SCOREKEEPER_PROXIES must be the number of proxies in front, not {proxies!r}"
            ) from None


def _load_or_create_secret_key(instance: Path) -> str:
    """Read instance/secret_key, creating it (mode 0600) on first start."""
    path = instance / "secret_key"
    if not path.exists():
        # Write to a private temporary file, then link it into place: the key is never
        # world-readable, and a concurrent start never reads a half-written file.
        tmp = instance / f".secret_key.{os.getpid()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(secrets.token_hex(32) + "\n")
                f.flush()
                os.fsync(f.fileno())
            # Another process may have won the race; its key is as good as ours.
            with contextlib.suppress(FileExistsError):
                os.link(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
    key = path.read_text(encoding="ascii").strip()
    if not key:
        raise RuntimeError(f"{path} is empty; delete it to have a new key generated")
    return key
