"""Marking texts for translation without importing any framework.

The rules core only *marks* its user-facing texts: ``N_`` for a plain text,
``NP_`` for a text whose words depend on a number (``1 book`` / ``2 books``),
and ``Phrase`` for a marked text used inside another one (``Team A``). The web
layer translates them (``messages.say``) in the table's language; ``render``
without translators gives the English text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


def N_(message: str) -> str:  # the conventional name of a gettext no-op marker
    """Mark ``message`` for extraction into the translation catalogues; return it unchanged."""
    return message


@dataclass(frozen=True)
class Plural:
    """A text in a singular and a plural form; the parameter ``count`` picks the form."""

    singular: str
    plural: str
    count: str = "count"


def NP_(singular: str, plural: str, count: str = "count") -> Plural:  # like ngettext
    """Mark a text with a singular and a plural form, chosen by the parameter ``count``."""
    return Plural(singular, plural, count)


Template = str | Plural


@dataclass(frozen=True)
class Phrase:
    """A marked text with its own parameters, used as a parameter of another text."""

    template: Template
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def __str__(self) -> str:
        return render(self.template, self.params)


Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def _same(message: str) -> str:
    return message


def _english(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def render(
    template: Template,
    params: Mapping[str, Any],
    gettext: Gettext = _same,
    ngettext: Ngettext = _english,
) -> str:
    """``template`` translated (English by default), with ``params`` filled in.

    Parameters that are themselves ``Phrase``s (or tuples of them) are said first, in the
    same language.
    """

    def said(value: Any) -> Any:
        if isinstance(value, Phrase):
            return render(value.template, value.params, gettext, ngettext)
        if isinstance(value, tuple):  # several names: "Team A, Team B"
            return ", ".join(str(said(item)) for item in value)
        return value

    values = {key: said(value) for key, value in params.items()}
    if isinstance(template, Plural):
        text = ngettext(template.singular, template.plural, int(values[template.count]))
    else:
        text = gettext(template)
    return text % values if values else text
