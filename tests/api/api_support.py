"""The JSON API tests' client: it checks every answer against the OpenAPI document."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from werkzeug.test import TestResponse

from scorekeeper.api.openapi import document

_NO_BODY = object()
DOC = document()


def _template_regex(template: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\{[^/]+\}", "[^/]+", template) + "$")


_PATHS = [(template, _template_regex(template)) for template in DOC["paths"]]


def schema_validator(schema: dict[str, Any]) -> Draft202012Validator:
    # The components ride along in the root, so "#/components/schemas/..." resolves in place.
    root = {**schema, "components": DOC["components"]}
    return Draft202012Validator(root, format_checker=Draft202012Validator.FORMAT_CHECKER)


def component(name: str) -> Draft202012Validator:
    return schema_validator({"$ref": f"#/components/schemas/{name}"})


def response_schema(path: str, method: str, status: int) -> tuple[str | None, dict[str, Any]]:
    """The documented schema of this answer, and the path template it belongs to."""
    for template, pattern in _PATHS:
        if pattern.match(path):
            operation = DOC["paths"][template].get(method.lower())
            if operation is None:
                break  # an undocumented method: only the generic refusal applies
            responses = operation["responses"]
            response = responses.get(str(status)) or responses["default"]
            if "$ref" in response:
                response = DOC["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
            return template, response["content"]["application/json"]["schema"]
    return None, {"$ref": "#/components/schemas/Errors"}


class Api:
    """Calls the API and fails the test on any 5xx or any answer the OpenAPI document denies."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        # (path template, method, status) of every answer checked, for the coverage test.
        self.seen: set[tuple[str, str, str]] = set()

    def call(
        self,
        method: str,
        url: str,
        body: Any = _NO_BODY,
        *,
        data: str | bytes | None = None,
        content_type: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> TestResponse:
        kwargs: dict[str, Any] = {"method": method, "headers": headers or {}}
        if body is not _NO_BODY:
            kwargs["json"] = body
        if data is not None:
            kwargs["data"] = data
        if content_type is not None:
            kwargs["content_type"] = content_type
        response = self.client.open(url, **kwargs)
        assert response.status_code < 500, response.get_data(as_text=True)
        self.check(method, url, response)
        return response

    def check(self, method: str, url: str, response: TestResponse) -> None:
        assert response.mimetype == "application/json", response.get_data(as_text=True)[:200]
        path = url.split("?", 1)[0]
        template, schema = response_schema(path, method, response.status_code)
        errors = sorted(
            schema_validator(schema).iter_errors(response.get_json()), key=lambda e: e.path
        )
        assert not errors, f"{method} {url} {response.status_code}: {errors[0].message}"
        if template is not None:
            self.seen.add((template, method.lower(), str(response.status_code)))

    def get(self, url: str, **kwargs: Any) -> TestResponse:
        return self.call("GET", url, **kwargs)

    def post(self, url: str, body: Any = _NO_BODY, **kwargs: Any) -> TestResponse:
        return self.call("POST", url, body, **kwargs)

    def put(self, url: str, body: Any = _NO_BODY, **kwargs: Any) -> TestResponse:
        return self.call("PUT", url, body, **kwargs)


# A valid first deal of a standard game: team 0 melds a clean book, team 1 nothing.
FIRST_DEAL = [{"clean_books": 1, "melded": 300, "opening_meld": 60}, {"left": 40}]


def standard_game_body(**more: Any) -> dict[str, Any]:
    return {
        "ruleset": "standard",
        "teams": [
            {"name": "Ann & Ben", "players": ["Ann", "Ben"]},
            {"name": "Cy & Di", "players": ["Cy", "Di"]},
        ],
        **more,
    }
