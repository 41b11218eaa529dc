"""Security headers on every response, and error pages that never leak internals."""

from __future__ import annotations

from typing import Any

import flask
from flask import Flask, Response, current_app, render_template, request
from flask.sessions import SecureCookieSessionInterface
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import BadRequest, HTTPException, NotFound, RequestEntityTooLarge

from scorekeeper.models import LARGEST_ID

# Scripts only from our own static files (no inline scripts, no eval); inline style
# attributes stay allowed because they cannot run code.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)


def _headers(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    return response


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.path == "/api"


def _refuse_nul() -> None:
    """A NUL character in a form or query is never typed at a table, and PostgreSQL text
    cannot hold one: refuse it before any view sees it, the same on every database."""
    if request.path.startswith("/static/"):
        return
    fields = [*request.args.items(multi=True)]
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        try:
            fields += request.form.items(multi=True)
        except RequestEntityTooLarge:
            return  # the view refuses it in its own words
    if any("\x00" in key or "\x00" in value for key, value in fields):
        raise Refused(_("Text cannot contain a NUL character. Nothing was saved."))


def forms_are_forms() -> None:
    """The pages' forms are posted as forms. Flask-WTF would read a JSON body as the form,
    and fail on anything but an object: refused before any view sees it (after the passcode
    gate, which says "sign in" whatever the body)."""
    if request.method in ("GET", "HEAD", "OPTIONS") or _wants_json() or not request.is_json:
        return
    raise not_a_form()


def not_a_form() -> Refused:
    return Refused(_("This page takes a form filled in on the page, not JSON. Nothing was saved."))


class Request(flask.Request):
    """The app's request: the most it may send is its view's own (``view.upload_limit``, a
    function of no argument) when the view takes an upload, else ``MAX_CONTENT_LENGTH``. Past
    it, a view's ``too_large`` (if any) answers instead of the error page.

    Known before the first byte is read, whoever reads first (the CSRF check reads the form
    before any view runs, and caches what it read): an import is not refused as a page's
    form, and a page's form is not read as an import.
    """

    @property
    def max_content_length(self) -> int | None:
        if self._max_content_length is None and current_app:
            limit = _of_view(self, "upload_limit")
            if limit is not None:
                return int(limit())
        return super().max_content_length

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        self._max_content_length = value


def _of_view(req: flask.Request, name: str) -> Any:
    """What the view ``req`` goes to says of itself under ``name`` (e.g. ``upload_limit``)."""
    return getattr(current_app.view_functions.get(req.endpoint or ""), name, None)


class Refused(BadRequest):
    """A 400 whose message the error page shows (the JSON API always shows it)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.table_message = message


def _impossible_numbers(_endpoint: str | None, values: dict[str, Any] | None) -> None:
    """A number in the address past any id (/games/99999999999) names nothing: a 404 before a
    query that PostgreSQL would refuse. The API (in JSON) and the PDF sheets answer their own."""
    if request.blueprint in ("api", "sheets"):
        return
    for value in (values or {}).values():
        if isinstance(value, int) and value > LARGEST_ID:
            raise NotFound()


def _http_error(error: HTTPException) -> ResponseReturnValue:
    code = error.code or 500
    if code == 413 and not _wants_json():
        # An upload past its view's limit, found before the view ran: in the view's words.
        too_large = _of_view(request, "too_large")
        if too_large is not None:
            response: ResponseReturnValue = too_large()
            return response
    if _wants_json():
        message = error.description if code < 500 else _("Something went wrong on our side.")
        return {"errors": [{"team": None, "field": "", "message": message}]}, code
    # A form whose token no longer holds (too old, or not from this scorekeeper) says so.
    expired = isinstance(error, CSRFError)
    return render_template("errors.html", code=code, error=error, expired=expired), code


def _unexpected(error: Exception) -> ResponseReturnValue:
    # Logged with its traceback; the user only ever sees a plain apology.
    from flask import current_app

    current_app.logger.exception("unhandled error", exc_info=error)
    if _wants_json():
        return {
            "errors": [
                {"team": None, "field": "", "message": _("Something went wrong on our side.")}
            ]
        }, 500
    return render_template("errors.html", code=500, error=None), 500


class SessionInterface(SecureCookieSessionInterface):
    """Mark the session cookie Secure whenever the request came over HTTPS.

    ``SESSION_COOKIE_SECURE = True`` forces it; behind a reverse proxy that ends HTTPS, wrap
    the app in werkzeug's ProxyFix (or set that option) so the scheme is known.
    """

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


def init_security(app: Flask) -> None:
    app.request_class = Request
    app.session_interface = SessionInterface()
    app.after_request(_headers)
    app.before_request(_refuse_nul)
    app.url_value_preprocessor(_impossible_numbers)
    app.register_error_handler(HTTPException, _http_error)
    if not app.debug and not app.testing:
        app.register_error_handler(Exception, _unexpected)
