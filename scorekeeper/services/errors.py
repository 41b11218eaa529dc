"""What the services refuse, for the views and the API to turn into 4xx answers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Self

from scorekeeper.rules import Problem
from scorekeeper.rules.i18n import N_, Phrase, Template


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


class DamagedRecord(ServiceError):
    """Something kept in the database that no longer reads, changed by hand or by a fault.

    Raised where it is read, so no page, sheet or answer of the API goes on with what it
    cannot trust: :class:`DamagedRules` or :class:`DamagedDeal`. Nothing is written: the
    request was fine, what is stored conflicts with it, and asking again changes nothing
    until it is repaired; hence a 409 (Conflict), as the export answers it. Not a
    :class:`Conflict`: the views that catch those (a deal saved twice at once) read the game
    again, and would meet it again. ``problems`` names what is damaged first, then why.
    """

    status = 409
    house: str | None = None  # damaged house rules' slug: the refusal offers to delete them
    # The game that cannot be scored: the refusal offers to delete it (it can be restored),
    # so that the lists it is in, which score every game they show, answer again.
    game: int | None = None


class DamagedDeal(DamagedRecord):
    """One team's tally of a deal, kept in the database, that no longer reads.

    Its special books or its cards counted per card class (JSON columns) were changed by
    hand: a card class this app does not know, a count that is not a whole number, not an
    object at all. The game's scores cannot be worked out without it.
    """

    def __init__(
        self, game_id: int, deal: int, team: int, name: str | Phrase, reasons: Sequence[Problem]
    ) -> None:
        headline = Problem(
            team,
            "deal",
            N_(
                "What was entered for %(team)s in deal %(deal)d of game %(game)d is damaged "
                "and cannot be read, so the game's scores cannot be worked out. Nothing was "
                "changed; every other deal entered is kept."
            ),
            {"team": name, "deal": deal, "game": game_id},
        )
        super().__init__([headline, *reasons])
        self.game = game_id
        self.who = name  # the team as the headline names it


class DamagedRules(DamagedRecord):
    """Rules kept in the database that no longer read: a game's own copy, or house rules.

    Raised where the stored copy is read (:mod:`scorekeeper.models`). ``problems`` names
    the game or the house rules first, then each reason the rules did not read, the field
    under ``ruleset.``.
    """

    def __init__(
        self, headline: Problem, reasons: Sequence[Problem], *, house: str | None = None
    ) -> None:
        super().__init__([headline, *(_under_ruleset(reason) for reason in reasons)])
        self.house = house  # the damaged house rules' slug: the refusal offers to delete them

    @classmethod
    def of_game(cls, game_id: int, reasons: Sequence[Problem]) -> DamagedRules:
        headline = Problem(
            None,
            "ruleset",
            N_(
                "The rules kept with game %(game)d are damaged and cannot be read, so its "
                "scores cannot be worked out. Nothing was changed; every deal entered is kept."
            ),
            {"game": game_id},
        )
        damaged = cls(headline, reasons)
        damaged.game = game_id
        return damaged

    @classmethod
    def of_house(cls, slug: str, name: str, reasons: Sequence[Problem]) -> DamagedRules:
        headline = Problem(
            None,
            "ruleset",
            N_(
                "The house rules “%(name)s” (%(ruleset)s) are damaged and cannot be read. "
                "Nothing was changed; games already started keep their own copy of the rules."
            ),
            {"name": name, "ruleset": slug},
        )
        return cls(headline, reasons, house=slug)


def _under_ruleset(reason: Problem) -> Problem:
    """A reason the rules did not read, its field named within the stored ruleset."""
    field = "ruleset" if reason.field in ("", "ruleset") else f"ruleset.{reason.field}"
    return replace(reason, field=field)
