"""Keeping the server's memory small: glibc's allocator told how a threaded server uses it.

The server answers from several threads (waitress runs four). glibc's ``malloc`` gives each
thread that allocates while another does an arena of its own, and a thread's arena keeps
what the thread freed, for its own next use. An export (tens of megabytes of rows and text)
on each thread in turn so left about 25 MB behind in every arena: measured under waitress,
the server grew from 97 to 167 MB over four exports, and stayed there. Python's threads
take turns under one lock anyway, so they gain nothing from separate arenas:
:func:`one_arena` makes them share the main one, where what one export freed serves the
next, and the same four exports leave the server at about 103 MB (the bench's server,
``bench.serve``, measured as the README reports it).

:func:`release` hands the free pages inside the heap back to the system (glibc only trims
its top by itself); the export calls it when it ends.

Where the C library is not glibc (musl, macOS), both do nothing and say so.
"""

from __future__ import annotations

import ctypes
import functools
from typing import Any

# mallopt's parameter for the largest number of arenas (glibc's malloc.h).
_M_ARENA_MAX = -8


@functools.cache
def _libc() -> Any:
    return ctypes.CDLL(None)  # the symbols already in the process: its C library's


def _function(name: str, *argtypes: Any) -> Any:
    try:
        function = getattr(_libc(), name)
    except (OSError, AttributeError):
        return None
    function.argtypes = list(argtypes)
    function.restype = ctypes.c_int
    return function


def one_arena() -> bool:
    """Let every thread allocate from the main arena; call it before the server's threads start.

    False where that cannot be done (no glibc). Threads that already have an arena keep it.
    """
    mallopt = _function("mallopt", ctypes.c_int, ctypes.c_int)
    return mallopt is not None and mallopt(_M_ARENA_MAX, 1) == 1


def release() -> bool:
    """Return the free pages of the C heap to the system; False where that cannot be done."""
    malloc_trim = _function("malloc_trim", ctypes.c_size_t)
    if malloc_trim is None:
        return False
    malloc_trim(0)
    return True
