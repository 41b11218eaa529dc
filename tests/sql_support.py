"""The SQL a piece of code runs, for tests that count its queries or look at them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, event


@contextmanager
def watch_sql(engine: Engine) -> Iterator[list[str]]:
    """Every statement ``engine`` sends to the database inside the block, in order."""
    seen: list[str] = []

    def keep(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", keep)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", keep)
