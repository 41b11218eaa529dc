"""Names as typed, without what cannot be seen around them."""

from __future__ import annotations

import unicodedata

# Spaces, line breaks, control and format characters (zero-width spaces, joiners, marks of
# direction): none shows on its own.
_UNSEEN = ("Z", "C")


def visible(name: str) -> str:
    """``name`` without the blanks and invisible characters around it; empty when nothing in
    it shows, so a name of zero-width spaces is no name. Inside a name they stay (a joiner
    between emoji makes one picture)."""
    start, end = 0, len(name)
    while start < end and unicodedata.category(name[start])[0] in _UNSEEN:
        start += 1
    while end > start and unicodedata.category(name[end - 1])[0] in _UNSEEN:
        end -= 1
    return name[start:end]
