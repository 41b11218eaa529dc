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

:func:`settle` takes what the server's start made (modules, the app, SQLAlchemy's tables)
out of the cyclic garbage collector's way, once, before the first request.
"""

from __future__ import annotations

import ctypes
import functools
import gc
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


def settle() -> int:
    """Freeze every object the start made: how many objects were frozen.

    Every few hundred thousand allocations, Python's collector walks every object it tracks
    (its oldest generation). A started server holds about 80,000 that live as long as it
    does; with the standings of 10,000 games cached (their ratings history: another 110,000)
    such a walk took 135 to 170 ms, and the request that set it off waited. ``gc.freeze``
    moves the start's objects into a generation no collection walks (60 to 100 ms then,
    measured side by side), in microseconds. No collection runs first: the start leaves next
    to no garbage cycle to keep for good (a collection there found none, and took 60-70 ms
    of the cold start). Objects made later, garbage cycles among them, are collected as
    before; a frozen object let go of is freed by its reference count as ever.
    """
    gc.freeze()
    return gc.get_freeze_count()
