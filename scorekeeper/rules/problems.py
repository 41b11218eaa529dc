"""A problem found in a deal or a ruleset, said in words a card player understands."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One thing wrong, and where.

    ``template`` is the English text with ``%(name)s`` placeholders; the web
    layer translates the template and fills in ``params``. ``team`` is the
    index of the team it concerns, or None for the whole deal or ruleset.
    """

    team: int | None
    field: str
    template: str
    # In full: to a type checker the attribute ``field`` above hides dataclasses.field.
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.template % dict(self.params)

    def to_dict(self) -> dict[str, Any]:
        return {"team": self.team, "field": self.field, "message": self.message}
