"""Marking texts for translation without importing any framework.

The rules core only *marks* its user-facing texts with ``N_``; the web layer
translates them (``gettext(template) % params``) in the table's language.
"""

from __future__ import annotations


def N_(message: str) -> str:  # the conventional name of a gettext no-op marker
    """Mark ``message`` for extraction into the translation catalogues; return it unchanged."""
    return message
