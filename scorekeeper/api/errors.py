"""How the JSON API refuses: always ``{"errors": [{"team", "field", "message"}]}``, never a 500.

Services raise :class:`~scorekeeper.services.errors.ServiceError`s that carry their HTTP
status; the handlers here turn them, HTTP errors and routing errors under ``/api`` into the
same JSON shape. An unexpected exception is logged and answered with a JSON 500 as a last
resort only: the tests prove that bad input gets a 4xx long before that.
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, jsonify, request
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound

from scorekeeper import models
from scorekeeper.extensions import db
from scorekeeper.messages import problems_json
from scorekeeper.rules import Problem
from scorekeeper.rules.i18n import N_
from scorekeeper.services.errors import NotFound as NotFoundError
from scorekeeper.services.errors import ServiceError, StaleDeal

from . import bp
from .shapes import deal_json


class UnsupportedMediaType(ServiceError):
    """A write whose body is not ``application/json`` (415)."""

    status = 415


def refusal(
    status: int, problems: list[Problem], headers: dict[str, str] | None = None
) -> Response:
    response = jsonify({"errors": problems_json(problems)})
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


@bp.errorhandler(ServiceError)
def service_error(error: ServiceError) -> Response:
    # Nothing of a refused request may linger in the session and be flushed later.
    db.session.rollback()
    body: dict[str, Any] = {"errors": problems_json(error.problems)}
    if isinstance(error, StaleDeal):
        # The other tablet's entry, so the client can show both and decide.
        body["current"] = deal_json(error.current)
    response = jsonify(body)
    response.status_code = error.status
    return response


def _http_problem(error: HTTPException) -> Problem:
    if isinstance(error, NotFound):
        return Problem(None, "", N_("There is nothing at this address of the API."), {})
    if isinstance(error, MethodNotAllowed):
        return Problem(
            None,
            "",
            N_("This address does not accept %(method)s; it accepts %(allowed)s."),
            {
                "method": request.method,
                "allowed": ", ".join(
                    sorted(m for m in error.valid_methods or () if m not in ("HEAD", "OPTIONS"))
                ),
            },
        )
    if error.code == 413:
        return Problem(None, "", N_("The request is too large."), {})
    return Problem(
        None,
        "",
        N_("The request could not be handled (%(code)s %(name)s)."),
        {"code": error.code, "name": error.name},
    )


@bp.errorhandler(HTTPException)
def http_error(error: HTTPException) -> Response:
    headers = {}
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        headers["Allow"] = ", ".join(sorted(error.valid_methods))
    return refusal(error.code or 500, [_http_problem(error)], headers)


@bp.errorhandler(IntegrityError)
def integrity_error(error: IntegrityError) -> Response:
    # Two tablets saving the same thing at once: the database's unique rules refused the
    # later one. Nothing of it was stored; the client should read again and retry.
    current_app.logger.warning("Refused a concurrent write: %s", error.orig)
    db.session.rollback()
    problem = Problem(
        None,
        "",
        N_(
            "Someone else saved at the same moment; nothing of yours was saved. "
            "Reload and try again."
        ),
        {},
    )
    return refusal(409, [problem])


@bp.errorhandler(Exception)
def unexpected_error(error: Exception) -> Response:
    # Last resort: a bug, not bad input. Log it with its traceback and still answer in JSON.
    current_app.logger.exception("Unexpected error in the JSON API", exc_info=error)
    db.session.rollback()
    problem = Problem(
        None, "", N_("Something went wrong on the server; nothing was saved. Please try again."), {}
    )
    return refusal(500, [problem])


# No row can have an id past it (see scorekeeper.models), and the database must not be asked.
LARGEST_ID = models.LARGEST_ID


@bp.url_value_preprocessor
def _impossible_ids(_endpoint: str | None, values: dict[str, Any] | None) -> None:
    """An id in the address that no database can hold is simply not there: 404, not a crash."""
    for name, value in (values or {}).items():
        if isinstance(value, int) and value > LARGEST_ID:
            if name == "game_id":
                raise NotFoundError.say(N_("There is no game %(id)s."), field="game", id=value)
            raise NotFoundError.say(N_("There is nothing at this address of the API."))


def _under_api(path: str) -> bool:
    prefix = bp.url_prefix or "/api"
    return path == prefix or path.startswith(prefix + "/")


@bp.before_app_request
def routing_error() -> Response | None:
    """Unknown addresses and methods under /api answer in JSON too.

    Flask cannot send routing errors to a blueprint's error handlers (no endpoint was
    matched, so no blueprint is known), and an app-wide 404 handler belongs to the pages.
    This hook runs before dispatch and answers only for paths under the API's prefix.
    """
    error = request.routing_exception
    if isinstance(error, NotFound | MethodNotAllowed) and _under_api(request.path):
        return http_error(error)
    return None
