"""The optional table passcode: when one is set, every write needs a signed-in session.

Off by default, so a family table needs nothing. The passcode comes from ``TABLE_PASSCODE``
in the instance config (plain text or a werkzeug hash; it then cannot be changed from the
settings page) or from the settings page, which stores only its werkzeug hash in
``instance/passcode`` (mode 0600). Reading never needs it; writing does, for pages (a redirect
to the sign-in page) and the JSON API (401, or ``Authorization: Bearer <passcode>``).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import threading
import time
from collections import deque
from pathlib import Path
from urllib.parse import urlsplit

from flask import (
    Flask,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.security import check_password_hash, generate_password_hash

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
# Signing in and out must stay possible while signed out (signing out only forgets), and the
# calculators write nothing: a tablet that is not signed in may still check a deal.
EXEMPT_ENDPOINTS = frozenset(
    {
        "settings.sign_in",
        "settings.sign_out",
        "api.score",
        "api.check_opening_meld",
        "api.check_going_out",
    }
)
SESSION_KEY = "table_signed_in"
PASSCODE_FILE = "passcode"
# Long enough to stop guessing over the network, short enough for a family member who mistypes.
MAX_FAILURES = 5
FAILURE_WINDOW_SECONDS = 300.0
LONGEST_PASSCODE = 200
_HASH_PREFIXES = ("scrypt:", "pbkdf2:")


# ---------------------------------------------------------------------------
# Where the passcode lives


def passcode_path() -> Path:
    return Path(current_app.instance_path) / PASSCODE_FILE


def set_by_config() -> bool:
    return bool(current_app.config.get("TABLE_PASSCODE"))


def stored_hash() -> str | None:
    """The hash to check against, or None when no passcode is set."""
    configured = current_app.config.get("TABLE_PASSCODE")
    if configured:
        text = str(configured)
        return text if text.startswith(_HASH_PREFIXES) else _config_hash(text)
    try:
        text = passcode_path().read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    return text or None


def _config_hash(plain: str) -> str:
    # Hashing is slow on purpose; a plain config passcode is hashed once per process.
    cache: dict[str, str] = current_app.extensions.setdefault("table_passcode", {})
    if plain not in cache:
        cache.clear()
        cache[plain] = generate_password_hash(plain)
    return cache[plain]


def passcode_is_set() -> bool:
    return stored_hash() is not None


def check_passcode(candidate: str) -> bool:
    stored = stored_hash()
    if stored is None or not candidate or len(candidate) > LONGEST_PASSCODE:
        return False
    return check_password_hash(stored, candidate)


def set_passcode(new: str | None) -> None:
    """Store the hash of ``new`` (private file, replaced atomically), or clear it with None."""
    path = passcode_path()
    if new is None:
        path.unlink(missing_ok=True)
        return
    tmp = path.with_name(f".{PASSCODE_FILE}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(generate_password_hash(new) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


# ---------------------------------------------------------------------------
# Signed-in sessions


def _stamp(stored: str) -> str:
    # Tied to the current hash: changing or clearing the passcode signs every tablet out.
    return hashlib.sha256(stored.encode()).hexdigest()[:32]


def signed_in() -> bool:
    stored = stored_hash()
    if stored is None:
        return True
    mark = session.get(SESSION_KEY)
    return isinstance(mark, str) and hmac.compare_digest(mark, _stamp(stored))


def sign_in() -> None:
    """Start a fresh session (no fixation), keeping only the chosen language."""
    stored = stored_hash()
    lang = session.get("lang")
    session.clear()
    # The form token Flask-WTF keeps for this request belongs to the session just cleared:
    # a page rendered now (what was typed before signing in, ready to save) needs a new one.
    g.pop(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"), None)
    if lang is not None:
        session["lang"] = lang
    if stored is not None:
        session[SESSION_KEY] = _stamp(stored)


def sign_out() -> None:
    session.pop(SESSION_KEY, None)


# ---------------------------------------------------------------------------
# Rate limit of sign-in attempts (per client address, in this process)


class FailureLimiter:
    """At most ``limit`` failures per ``window`` seconds for each client address."""

    def __init__(self, limit: int = MAX_FAILURES, window: float = FAILURE_WINDOW_SECONDS) -> None:
        self.limit = limit
        self.window = window
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._failures.setdefault(key, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def blocked_for(self, key: str) -> float:
        """Seconds until ``key`` may try again; 0 when it may now."""
        now = time.monotonic()
        with self._lock:
            times = self._recent(key, now)
            if len(times) < self.limit:
                if not times:
                    self._failures.pop(key, None)
                return 0.0
            return max(0.0, times[0] + self.window - now)

    def fail(self, key: str) -> None:
        now = time.monotonic()
        with self._lock:
            self._recent(key, now).append(now)

    def forget(self, key: str) -> None:
        with self._lock:
            self._failures.pop(key, None)


def limiter() -> FailureLimiter:
    found = current_app.extensions.get("table_passcode_limiter")
    assert isinstance(found, FailureLimiter)
    return found


def client_key() -> str:
    # Behind a reverse proxy, wrap the app in werkzeug's ProxyFix so this is the real client.
    return request.remote_addr or "unknown"


# ---------------------------------------------------------------------------
# The gate in front of every write


def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _sep, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def _api_refusal(message: str, status: int) -> ResponseReturnValue:
    body = {"errors": [{"team": None, "field": "passcode", "message": message}]}
    headers = {"WWW-Authenticate": 'Bearer realm="scorekeeper"'} if status == 401 else {}
    return body, status, headers


def _api_gate() -> ResponseReturnValue | None:
    token = _bearer()
    if token is None:
        return _api_refusal(
            _(
                "This table has a passcode: sign in, or send it as "
                "'Authorization: Bearer <passcode>'."
            ),
            401,
        )
    key = client_key()
    wait = limiter().blocked_for(key)
    if wait > 0:
        return _api_refusal(too_many_tries(wait), 429)
    if check_passcode(token):
        return None
    limiter().fail(key)
    return _api_refusal(_("That passcode is not right."), 401)


def _minutes(seconds: float) -> int:
    return max(1, int(-(-seconds // 60)))


def too_many_tries(wait: float) -> str:
    """The refusal while ``wait`` seconds are left (:meth:`FailureLimiter.blocked_for`):
    said alike by the API, the sign-in and the settings' current passcode."""
    minutes = _minutes(wait)
    message: str = ngettext(
        "Too many wrong passcodes. Try again in %(minutes)d minute.",
        "Too many wrong passcodes. Try again in %(minutes)d minutes.",
        minutes,
        minutes=minutes,
    )
    return message


def _same_site_path(url: str | None) -> str | None:
    """The path of ``url`` when it is on this site, else None (never redirect elsewhere)."""
    if not url:
        return None
    parts = urlsplit(url)
    if parts.netloc and parts.netloc != request.host:
        return None
    # "//host" and "/\\host" are other sites to a browser.
    if not parts.path.startswith("/") or parts.path.startswith("//") or "\\" in parts.path:
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _readable(path: str) -> bool:
    adapter = current_app.url_map.bind(request.host)
    try:
        adapter.match(path.split("?", 1)[0], method="GET")
    except (NotFound, MethodNotAllowed):
        return False
    except Exception:  # a redirect (trailing slash) or anything odd: not worth the risk
        return False
    return True


def _return_to() -> str:
    """Where to come back after signing in: this address if it can be read, else the referrer."""
    if _readable(request.path):
        return request.path
    back = _same_site_path(request.referrer)
    return back if back is not None and _readable(back) else "/"


# What a page sent when it had to sign in first rides along the sign-in form under this prefix.
CARRIED = "carried-"


# The forms where a player types something worth keeping through signing in, and what
# saving them does, as their own buttons say. Nothing else is carried: not a confirmation
# (delete, merge, abandon: asked again on its own page), not the settings page (passcodes,
# backups), not a file (it cannot be sent again without being chosen again), not the API.
CARRIED_FORMS = {
    "games.new": _l("Start the game"),
    "games.new_deal": _l("Save the deal"),
    "games.edit_deal": _l("Save the correction"),
    "rules.new_house_rules": _l("Save house rules"),
    "rules.edit_house_rules": _l("Save house rules"),
    "players.rename": _l("Rename"),
    "seasons.create": _l("Start the season"),
    "seasons.edit": _l("Save"),
}


def carried_fields() -> list[tuple[str, str]]:
    """What a page sent that is worth keeping through signing in: every field of one of the
    :data:`CARRIED_FORMS` but its CSRF token."""
    if request.endpoint not in CARRIED_FORMS or request.files:
        return []
    return [(name, value) for name, value in request.form.items(multi=True) if name != "csrf_token"]


def resumable(path: str | None) -> tuple[str, str] | None:
    """``path`` and what sending it does, when it is an address of this site taking one of
    the :data:`CARRIED_FORMS`; else None."""
    path = _same_site_path(path)
    if path is None:
        return None
    adapter = current_app.url_map.bind(request.host)
    try:
        endpoint, _values = adapter.match(path.split("?", 1)[0], method="POST")
    except Exception:  # not found, not a POST, a redirect: nothing to send it to
        return None
    action = CARRIED_FORMS.get(endpoint)
    return (path, str(action)) if action is not None else None


def _require_sign_in() -> ResponseReturnValue | None:
    if request.method in SAFE_METHODS or request.endpoint in EXEMPT_ENDPOINTS:
        return None
    if signed_in():
        return None
    if request.path == "/api" or request.path.startswith("/api/"):
        return _api_gate()
    flash(_("This table has a passcode. Sign in to save changes."), "error")
    carried = carried_fields()
    resume = resumable(request.full_path.rstrip("?"))
    if carried and resume:
        # The sign-in page at once, holding what was typed: it can be saved once signed in.
        from scorekeeper.web.settings import SignInForm

        page = render_template(
            "auth/sign_in.html",
            form=SignInForm(formdata=None),
            next=_return_to(),
            carried=carried,
            resume_to=resume[0],
        )
        return page, 401
    return redirect(url_for("settings.sign_in", next=_return_to()))


def safe_next(value: str | None) -> str:
    """A same-site path to go to after signing in; the home page for anything else."""
    path = _same_site_path(value)
    return path if path is not None else url_for("main.index")


def init_auth(app: Flask) -> None:
    app.extensions["table_passcode_limiter"] = FailureLimiter()
    app.before_request(_require_sign_in)
