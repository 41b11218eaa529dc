"""Indented JSON text, exactly as ``json.dumps(value, indent=...)`` writes it, only faster.

With ``indent``, :func:`json.dumps` falls back to its pure-Python encoder, which costs a
good part of an export of ten thousand games. :class:`IndentedJson` writes scalars itself
and hands every container whose items are all scalars (or empty containers) to the C
encoder, with an item separator that holds the newline and the indentation of its depth;
it walks only the containers above those.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json import encoder as _encoder
from typing import Any

# The C encoder of the standard library (None where it is not built, as on PyPy).
_C_MAKE_ENCODER: Any = getattr(_encoder, "c_make_encoder", None)


def _not_json(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


class IndentedJson:
    """``json.dumps(value, indent=indent, ensure_ascii=ensure_ascii)``: the same text."""

    def __init__(self, indent: int = 1, *, ensure_ascii: bool = False) -> None:
        self._indent = indent
        self._step = " " * indent
        self._ensure_ascii = ensure_ascii
        self._string: Callable[[str], str] = (
            _encoder.encode_basestring_ascii if ensure_ascii else _encoder.encode_basestring
        )
        self._flat_writers: dict[int, Callable[[Any], str]] = {}

    def dumps(self, value: Any, depth: int = 0) -> str:
        """The text of ``value`` as it is written ``depth`` levels deep in a larger document.

        Its first line is not indented (it follows a key, or the indentation of a list's
        item); every other line is, as :func:`json.dumps` indents it at that depth.
        """
        kind = type(value)
        if kind is str:
            return self._string(value)
        if kind is int:
            return int.__repr__(value)
        if value is None:
            return "null"
        if value is True:
            return "true"
        if value is False:
            return "false"
        if kind is dict:
            return self._container(value, value.values(), depth, "{", "}")
        if kind is list:
            return self._container(value, value, depth, "[", "]")
        # Anything else (floats, tuples, subclasses of these types): json.dumps itself.
        return self._dumped(value, depth)

    def _dumped(self, value: Any, depth: int) -> str:
        text = json.dumps(value, indent=self._indent, ensure_ascii=self._ensure_ascii)
        # Every newline json.dumps writes is its own: newlines in text are escaped.
        return text.replace("\n", "\n" + self._step * depth)

    def _container(self, value: Any, items: Any, depth: int, opening: str, closing: str) -> str:
        if not value:
            return opening + closing
        inner = "\n" + self._step * (depth + 1)
        for item in items:
            if isinstance(item, dict | list | tuple) and item:
                break
        else:
            # Only scalars and empty containers: the C encoder writes "{a,<inner>b}", and
            # only the newlines after the opening and before the closing bracket are missing.
            body = self._flat_writer(depth + 1)(value)[1:-1]
            return opening + inner + body + "\n" + self._step * depth + closing
        deeper = depth + 1
        if opening == "[":
            parts = [self.dumps(item, deeper) for item in value]
        elif all(type(key) is str for key in value):
            string = self._string
            parts = [f"{string(key)}: {self.dumps(item, deeper)}" for key, item in value.items()]
        else:  # keys json.dumps turns into text first
            return self._dumped(value, depth)
        return opening + inner + ("," + inner).join(parts) + "\n" + self._step * depth + closing

    def _flat_writer(self, depth: int) -> Callable[[Any], str]:
        """Writes a container of scalars with its items ``depth`` levels deep."""
        writer = self._flat_writers.get(depth)
        if writer is None:
            separator = ",\n" + self._step * depth
            if _C_MAKE_ENCODER is not None:
                encode = _C_MAKE_ENCODER(
                    None, _not_json, self._string, None, ": ", separator, False, False, True
                )

                def writer(value: Any) -> str:
                    return "".join(encode(value, 0))

            else:
                writer = json.JSONEncoder(
                    ensure_ascii=self._ensure_ascii, separators=(separator, ": ")
                ).encode
            self._flat_writers[depth] = writer
        return writer
