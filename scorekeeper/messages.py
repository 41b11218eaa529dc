"""Problems from the rules core and the services, said in the table's language."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask_babel import get_translations

from scorekeeper.rules import Problem
from scorekeeper.rules.i18n import render


def say(problem: Problem) -> str:
    """The problem's message, translated, with its numbers and names filled in."""
    translations = get_translations()
    # Field names inside messages stay as the API spells them; only the words translate.
    return render(problem.template, problem.params, translations.gettext, translations.ngettext)


def problems_json(problems: Iterable[Problem]) -> list[dict[str, Any]]:
    """The ``errors`` list of every JSON refusal: team index, field, message."""
    return [{"team": p.team, "field": p.field, "message": say(p)} for p in problems]
