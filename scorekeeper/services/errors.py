"""What the services refuse, for the views and the API to turn into 4xx answers."""

from __future__ import annotations

from typing import Any, Self

from scorekeeper.rules import Problem
from scorekeeper.rules.i18n import N_, Template


class ServiceError(Exception):
    status = 400

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(problem.message for problem in problems))
        self.problems = problems

    @classmethod
    def say(cls, template: Template, field: str = "", **params: Any) -> Self:
        return cls([Problem(None, field, template, params)])


class NotFound(ServiceError):
    status = 404


class Malformed(ServiceError):
    """Input that is not what was asked for at all (400)."""

    status = 400


class Invalid(ServiceError):
    """Input that is well formed but impossible under the rules (422)."""

    status = 422


class Conflict(ServiceError):
    status = 409


class StaleDeal(Conflict):
    """Someone else saved this deal since it was read; ``current`` is what is stored now."""

    def __init__(self, number: int, current: Any) -> None:
        super().__init__(
            [
                Problem(
                    None,
                    "version",
                    N_(
                        "Someone else changed deal %(deal)d since you opened it. Nothing was "
                        "saved: check their entry below and correct it again if needed."
                    ),
                    {"deal": number},
                )
            ]
        )
        self.current = current
