"""Flask extensions, created unbound here and attached to the app in ``init_extensions``."""

from __future__ import annotations

import json
import os
import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, date, datetime, tzinfo
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import click
from flask import Flask, Response, current_app, g, has_request_context, request, session
from flask_babel import (
    Babel,
    format_date,
    format_datetime,
    format_decimal,
    format_percent,
    get_locale,
)
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import MetaData, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase

# Named constraints let Alembic's batch mode (SQLite) find and alter them later.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


@dataclass(frozen=True)
class UnreadableJSON:
    """What a JSON column reads as when its stored text is not JSON at all.

    Only SQLite can hold such text (PostgreSQL refuses it), written by hand or by a fault.
    Raising while the row loads would fail every page that merely lists the row, with a 500;
    read as this, the rules in it are refused in words where they are needed (a ruleset
    must be an object: see :func:`scorekeeper.models.rules_of`).
    """

    text: str


def read_json(text: str) -> Any:
    """The engine's JSON reader: JSON as usual, :class:`UnreadableJSON` for anything else."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than Python reads
        return UnreadableJSON(text)


def unstorable_text(data: Any) -> str | None:
    """What text in parsed JSON no database stores: ``"unicode"`` for a lone surrogate (a valid
    JSON escape, but not Unicode), ``"nul"`` for a NUL character (PostgreSQL text cannot hold
    one; SQLite would, and then the two would differ); None when every key and string is fine.
    """
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return "unicode"
            if "\x00" in item:
                return "nul"
    return None


db = SQLAlchemy(model_class=Base, engine_options={"json_deserializer": read_json})
babel = Babel()
csrf = CSRFProtect()


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_conn: Any, _connection_record: Any) -> None:
    """Enforce foreign keys and use WAL so a reader never blocks the scorer."""
    if isinstance(dbapi_conn, sqlite3.Connection):
        cur = dbapi_conn.cursor()
        for pragma in (
            "foreign_keys=ON",
            "journal_mode=WAL",
            "synchronous=NORMAL",
            "busy_timeout=5000",
        ):
            cur.execute(f"PRAGMA {pragma}")
        cur.close()


# The long-lived cookie that remembers a table's language after the browser session ends.
LANGUAGE_COOKIE = "lang"
# Set in a request's environ once its language was chosen: its response varies by language.
_NEGOTIATED = "scorekeeper.language_negotiated"


def select_locale() -> str | None:
    """A language chosen on this device (session, then cookie) wins over the browser's."""
    if not has_request_context():
        return None  # the command line: Flask-Babel falls back to the default locale
    request.environ[_NEGOTIATED] = True
    languages: list[str] = current_app.config["LANGUAGES"]
    for chosen in (session.get("lang"), request.cookies.get(LANGUAGE_COOKIE)):
        if chosen in languages:
            return str(chosen)
    return request.accept_languages.best_match(languages)


_LOCAL_ZONE = "scorekeeper.local_zone"


def select_timezone() -> tzinfo | None:
    """Times are shown as the clock at the table reads them: in the time zone of the machine
    the app runs on (``TZ`` or its system setting), the zone whose date ``date.today()``
    gives a new game. ``BABEL_DEFAULT_TIMEZONE`` in the instance config names another."""
    if "BABEL_DEFAULT_TIMEZONE" in current_app.config:
        return None  # Flask-Babel uses the zone named there
    if _LOCAL_ZONE not in current_app.extensions:
        from babel.localtime import get_localzone  # reads TZ, else /etc/localtime

        zone: tzinfo | None
        try:
            zone = get_localzone()
        except LookupError:  # TZ="CET-1CEST,M3.5.0,M10.5.0/3", or a machine without a zone
            current_app.logger.warning(
                "The time zone of this machine has no name (TZ=%r); times are shown in UTC. "
                "Set TZ to a name such as Europe/Amsterdam, or BABEL_DEFAULT_TIMEZONE.",
                os.environ.get("TZ"),
            )
            zone = None  # Flask-Babel's default: UTC
        current_app.extensions[_LOCAL_ZONE] = zone
    found: tzinfo | None = current_app.extensions[_LOCAL_ZONE]
    return found


def _vary_by_language(response: Response) -> Response:
    """A response in the negotiated language differs by Accept-Language and by the cookies
    that remember this device's choice (``lang``, the session): caches must keep one copy per
    language, or a shared cache hands the Dutch page to a German tablet. Responses that never
    chose a language (static files, data without words) stay one copy for everyone."""
    if request.environ.get(_NEGOTIATED):
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response


def points(value: int) -> str:
    """A score as the table's language writes it: digits grouped from five on (12.345 in
    German, 12 345 in French), as score sheets do; four digits stay together (3855)."""
    if abs(value) < GROUPED_FROM:
        return str(value)
    return str(format_decimal(value, format="#,##0"))


def day_text(value: date, format: str | None = None) -> str:
    """A day as the table's language writes it (Babel's ``format``, "medium" by default).

    French writes the first of a month as an ordinal, "1er décembre", which Babel's patterns
    cannot say: added here, for the pages (the ``dateformat`` filter) and the sheets alike.
    """
    return _first_of_month(str(format_date(value, format=format)))


def moment_text(value: datetime, format: str | None = None) -> str:
    """A moment as the table's clock reads it (the ``datetimeformat`` filter): "1er" too."""
    return _first_of_month(str(format_datetime(value, format=format)))


def _first_of_month(text: str) -> str:
    # Babel's French dates that name their month start with the day, unpadded: "1 déc. 2026".
    if text.startswith("1 ") and str(get_locale()).split("_")[0] == "fr":
        return "1er" + text[1:]
    return text


def as_utc(value: datetime) -> datetime:
    """A stored moment with its zone: SQLite hands back naive datetimes, stored in UTC;
    PostgreSQL's come with theirs, kept as they are."""
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def utc_iso(value: datetime) -> str:
    """A moment for a <time datetime="..."> attribute: ISO 8601 in UTC, to the second."""
    return as_utc(value).astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


# Digits are grouped from five on, everywhere a number is shown: 3855, but 12.345.
GROUPED_FROM = 10_000
# A real minus sign: a hyphen looks like a dash on a score sheet.
MINUS = "\u2212"


@dataclass(frozen=True)
class NumberStyle:
    """How the language of the moment writes numbers, read from Babel once per request.

    A standings page shows thousands of numbers; Babel formats one in about 0.1 ms, this in
    about 1 µs, with the same digits. Kept per locale: a PDF in another language is made
    inside the request of a page in this one.
    """

    group: str
    decimal: str
    percent: str  # "{}" stands for the number

    @classmethod
    def current(cls) -> NumberStyle:
        locale = str(get_locale())
        styles: dict[str, NumberStyle] = g.setdefault("_number_styles", {})
        style = styles.get(locale)
        if style is None:
            sample = str(format_decimal(1234.5, format="#,##0.0"))
            match = re.fullmatch(r"1(\D*)234(\D+)5", sample)
            group, point = (match.group(1), match.group(2)) if match else (",", ".")
            percent = str(format_percent(0.5)).replace("50", "{}", 1)
            style = styles[locale] = cls(group, point, percent if "{}" in percent else "{}%")
        return style


def number_group() -> str:
    """What the language puts between groups of digits: for scripts that write scores."""
    return NumberStyle.current().group


def half_up(value: float, digits: int = 0) -> Decimal:
    """``value`` rounded as people round on paper: a half goes up, away from zero (7922.5
    is 7923, 4.25 is 4.3), where ``round()`` and format() go to the even neighbour (7922,
    4.2). The shortest decimal that reads back as the float is rounded (0.145 is 0.15)."""
    return Decimal(repr(value)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)


def decimal(value: float, digits: int = 1) -> str:
    """``value`` with up to ``digits`` decimals (none when they are zeros), a real minus sign,
    and digits grouped from five on as :func:`points` groups them; halves rounded up."""
    rounded = half_up(abs(value), digits)
    text = f"{rounded:,.{digits}f}" if rounded >= GROUPED_FROM else f"{rounded:.{digits}f}"
    if digits:
        text = text.rstrip("0").rstrip(".")
    if text.strip("0,.") == "":
        return "0"
    style = NumberStyle.current()
    text = text.translate({ord(","): "\0", ord("."): style.decimal}).replace("\0", style.group)
    return (MINUS if value < 0 else "") + text


def _locale_context() -> dict[str, str]:
    return {"current_locale": str(get_locale() or current_app.config["BABEL_DEFAULT_LOCALE"])}


# Flask-Migrate imports Alembic, which costs more than a second at start-up: a server never
# needs it. It is set up on first use instead: a ``flask db`` command, or code (tests) asking
# ``app.extensions["migrate"]`` for its configuration.
# The migrations beside the package, wherever the process runs from (Flask-Migrate's own
# default, "migrations", is read from the working directory).
MIGRATIONS_DIR = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "migrations"
)
MIGRATE_OPTIONS: dict[str, Any] = {"render_as_batch": True, "directory": MIGRATIONS_DIR}


def init_migrate(app: Flask) -> Any:
    """Set up Flask-Migrate on ``app`` now; returns its configuration."""
    from flask_migrate import Migrate

    Migrate(app, db, **MIGRATE_OPTIONS)
    return app.extensions["migrate"]


class _MigrateOnFirstUse:
    """Stands in ``app.extensions["migrate"]`` until something reads it."""

    def __init__(self, app: Flask) -> None:
        self._app = app

    def __getattr__(self, name: str) -> Any:
        return getattr(init_migrate(self._app), name)


class _MigrateCommands(click.Group):
    """``flask db …``: hands over to Flask-Migrate's own group, imported when it is used."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        from flask.cli import ScriptInfo
        from flask_migrate.cli import db as group

        if parent is not None:
            app = parent.ensure_object(ScriptInfo).load_app()
            if isinstance(app.extensions.get("migrate"), _MigrateOnFirstUse):
                init_migrate(app)
        context: click.Context = group.make_context(info_name, args, parent=parent, **extra)
        return context


def init_extensions(app: Flask) -> None:
    db.init_app(app)
    app.extensions["migrate"] = _MigrateOnFirstUse(app)
    app.cli.add_command(_MigrateCommands("db", help="Perform database migrations."))
    babel.init_app(app, locale_selector=select_locale, timezone_selector=select_timezone)
    # Over Flask-Babel's own filters (see day_text).
    app.jinja_env.filters["dateformat"] = day_text
    app.jinja_env.filters["datetimeformat"] = moment_text
    app.after_request(_vary_by_language)
    csrf.init_app(app)
    app.context_processor(_locale_context)
    app.add_template_filter(points)
    app.add_template_filter(utc_iso)
    app.add_template_global(number_group)
