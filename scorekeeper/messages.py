"""Problems from the rules core and the services, said in the table's language."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from flask_babel import get_translations, ngettext
from flask_babel import gettext as _

from scorekeeper.rules import Problem
from scorekeeper.rules.i18n import Phrase, render

if TYPE_CHECKING:
    from scorekeeper.services.exchange import ImportSummary


def say(problem: Problem) -> str:
    """The problem's message, translated, with its numbers and names filled in."""
    translations = get_translations()
    # Field names inside messages stay as the API spells them; only the words translate.
    return render(problem.template, problem.params, translations.gettext, translations.ngettext)


def said(text: str | Phrase) -> str:
    """A name as it is, or a phrase of the rules core ("Team A") in the table's language."""
    if isinstance(text, str):
        return text
    translations = get_translations()
    return render(text.template, text.params, translations.gettext, translations.ngettext)


def problems_json(problems: Iterable[Problem]) -> list[dict[str, Any]]:
    """The ``errors`` list of every JSON refusal: team index, field, message."""
    return [{"team": p.team, "field": p.field, "message": say(p)} for p in problems]


def imported_text(summary: ImportSummary) -> str:
    """What an import added, each count with its own plural form (1 season, 2 seasons)."""
    new, old = summary.imported, summary.skipped
    return str(
        _(
            "Imported %(games)s, %(players)s, %(seasons)s and %(house)s; %(skipped)s.",
            games=ngettext("%(num)d game", "%(num)d games", new.games),
            players=ngettext("%(num)d player", "%(num)d players", new.players),
            seasons=ngettext("%(num)d season", "%(num)d seasons", new.seasons),
            house=ngettext(
                "%(num)d set of house rules", "%(num)d sets of house rules", new.house_rules
            ),
            skipped=ngettext(
                "%(num)d game was already there", "%(num)d games were already there", old.games
            ),
        )
    )
