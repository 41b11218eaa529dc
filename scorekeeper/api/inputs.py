"""Reading request bodies: only ``application/json``, only one JSON object, every problem named.

Everything that is not what a request asks for at all is a 400 (Malformed) here, before a
service sees it; whether the input is possible under the rules is the services' 422.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection, Mapping
from typing import Any, NoReturn

from flask import request

from scorekeeper.extensions import unstorable_text
from scorekeeper.rules import Problem, RuleSet
from scorekeeper.rules.i18n import N_
from scorekeeper.services import rulesets
from scorekeeper.services.errors import DamagedRules, Invalid, Malformed, NotFound, ServiceError

from .errors import LARGEST_ID, UnsupportedMediaType

JSON_MIMETYPE = "application/json"
# A deal of eight teams is a few kilobytes and a whole ruleset a few more.
MAX_BODY_BYTES = 256 * 1024


def _reject_constant(name: str) -> NoReturn:
    # Python's json module reads NaN and Infinity, which are not JSON.
    raise ValueError(f"{name} is not JSON")


def _check_text(data: Any) -> None:
    """Refuse what no database stores (see :func:`~scorekeeper.extensions.unstorable_text`)."""
    bad = unstorable_text(data)
    if bad == "unicode":
        raise Malformed.say(N_("The body holds text that is not valid Unicode."))
    if bad == "nul":
        raise Malformed.say(N_("The body holds a NUL character, which text cannot hold."))


def json_body(*, empty_is_object: bool = False, limit: int = MAX_BODY_BYTES) -> dict[str, Any]:
    """The request's body as a JSON object: 415 unless ``application/json``, else 400 if not.

    ``limit`` is the largest body read (413 beyond); an import takes more than a deal.
    """
    # Checked before reading a byte: a browser form can only send form encodings or
    # text/plain cross-site, which is why the API needs no CSRF token (see __init__).
    if request.mimetype != JSON_MIMETYPE:
        raise UnsupportedMediaType.say(N_("Send the body as application/json."))
    request.max_content_length = limit
    raw = request.get_data(cache=True)
    if empty_is_object and not raw.strip():
        return {}
    try:
        data = json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        # ValueError covers bad syntax, bad UTF-8 and numbers too long to read.
        raise Malformed.say(N_("The body is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise Malformed.say(N_("The body must be a JSON object."))
    _check_text(data)
    return data


def problem(field: str, template: str, **params: Any) -> Problem:
    return Problem(None, field, template, {"field": field, **params})


def unknown_fields(data: Mapping[str, Any], known: Collection[str]) -> list[Problem]:
    return [
        problem(key, N_("%(field)s is not something this request takes."))
        for key in data
        if key not in known
    ]


def missing(field: str) -> Problem:
    return problem(field, N_("%(field)s is missing."))


def whole_number(
    value: Any, field: str, problems: list[Problem], low: int, high: int
) -> int | None:
    """``value`` as an int within [low, high]; otherwise a problem and None.

    Like the team fields, a number written as 2.0 counts as 2; true and "2" do not.
    """
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(problem(field, N_("%(field)s must be a whole number.")))
        return None
    if not low <= value <= high:
        problems.append(
            problem(
                field, N_("%(field)s must be between %(low)d and %(high)d."), low=low, high=high
            )
        )
        return None
    return value


_ASCII_DIGITS = re.compile(r"[0-9]{1,19}")


def resolve_ruleset(ref: Any) -> RuleSet:
    """Like :func:`services.rulesets.resolve`, with ids no database could hold refused up front."""
    if isinstance(ref, int) and not isinstance(ref, bool):
        impossible = not 1 <= ref <= LARGEST_ID
    elif isinstance(ref, str) and ref.isdigit():
        # str.isdigit() also accepts digits int() cannot read ("²") and numbers SQLite cannot.
        impossible = not _ASCII_DIGITS.fullmatch(ref) or not 1 <= int(ref) <= LARGEST_ID
    else:
        impossible = False
    if impossible:
        raise NotFound.say(N_("There are no rules called %(id)s."), field="ruleset", id=str(ref))
    return rulesets.resolve(ref)


def ruleset_field(
    data: Mapping[str, Any], problems: list[Problem]
) -> tuple[RuleSet | None, Invalid | None]:
    """The body's ``ruleset``: the rules, or why not.

    A missing field or an unknown rules id is a mistake in the body (400, added to
    ``problems``); a whole ruleset object that makes no sense is impossible rather than
    malformed (422, returned so the caller reports it once the 400s are out of the way).
    """
    if "ruleset" not in data:
        problems.append(missing("ruleset"))
        return None, None
    try:
        return resolve_ruleset(data["ruleset"]), None
    except Invalid as error:
        return None, error
    except DamagedRules:
        raise  # the body is fine; the stored house rules it names are not (409)
    except ServiceError as error:
        problems.extend(error.problems)
        return None, None
