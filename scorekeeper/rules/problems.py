"""A problem found in a deal or a ruleset, said in words a card player understands."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .i18n import Template, render


@dataclass(frozen=True)
class Problem:
    """One thing wrong, and where.

    ``template`` is the English text with ``%(name)s`` placeholders, or a
    ``Plural`` (``NP_``) whose form a count among ``params`` picks; parameters may
    be ``Phrase``s (``Team A``) that translate too. The web layer translates the
    template and fills in ``params``. ``team`` is the index of the team it
    concerns, or None for the whole deal or ruleset.
    """

    team: int | None
    field: str
    template: Template
    # In full: to a type checker the attribute ``field`` above hides dataclasses.field.
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def message(self) -> str:
        """The message in English."""
        return render(self.template, self.params)

    def to_dict(self) -> dict[str, Any]:
        return {"team": self.team, "field": self.field, "message": self.message}
