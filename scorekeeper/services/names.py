"""Names as typed, without what cannot be seen around them."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from scorekeeper.rules.tally import NAME_LONGEST

# Spaces, line breaks, control and format characters (zero-width spaces, joiners, marks of
# direction): none shows on its own. Not the unassigned or private-use ones: an emoji newer
# than this Python's tables is unassigned to it, and shows all the same.
_UNSEEN = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf"})
# Letters that are drawn as nothing: the Hangul fillers and the blank Braille pattern.
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Line breaks, tabs and control characters inside a name (sent through the API or pasted):
# a page shows each run of them as one space, so the name keeps one space there.
_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def _unseen(char: str) -> bool:
    return char in _BLANK or unicodedata.category(char) in _UNSEEN


def trimmed(name: str) -> str:
    """``name`` without the blanks and invisible characters around it; empty when nothing in
    it shows, so a name of zero-width spaces is no name. Inside, it stays as it is: an
    import keeps the names a club's file holds, as they were stored."""
    start, end = 0, len(name)
    while start < end and _unseen(name[start]):
        start += 1
    while end > start and _unseen(name[end - 1]):
        end -= 1
    return name[start:end]


def visible(name: str) -> str:
    """A name as typed, :func:`trimmed`, and inside it each run of line breaks, tabs and
    control characters made one space; the rest stays as typed (a joiner between emoji makes
    one picture, two spaces are what was typed)."""
    return _BREAKS.sub(" ", trimmed(name))


def name_key(name: str) -> str:
    """What two names that cannot be told apart on a page share: :func:`visible`, case-folded
    ("Émile" and "ÉMILE ", or a line break and a space inside)."""
    return visible(name).casefold()


def team_name_of(players: Iterable[str]) -> str:
    """The name a game gives a team nobody named: its players' names, "Ann & Ben", cut to
    the longest name a team may have. A renamed or merged player's teams are named again
    with it, so the two can never disagree."""
    return " & ".join(players)[:NAME_LONGEST]
