"""Reading a kept tally's cards and special books back (``read_kept``), as a row holds them.

A tally as the app writes one is read on a quick path; anything else goes through the
reader that names what is wrong. The quick path must give exactly what the reader gives.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from scorekeeper.rules import BOUNDS, CardClass, Cards, TallyError, read_kept
from scorekeeper.rules import tally as tally_module

CARD_KEYS = [card.value for card in CardClass]
# Whole numbers in and out of bounds, and what a hand-edited row may hold instead.
ODD = st.one_of(
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-5, max_value=5),
    st.text(max_size=3),
    st.none(),
    st.lists(st.integers(0, 3), max_size=2),
)
# Whole numbers on either side of every bound a kept tally has.
EDGES = sorted(
    {
        edge + step
        for key in ("special_books", "cards", "points")
        for edge in BOUNDS[key]
        for step in (-1, 0, 1)
    }
)
NUMBER = st.one_of(st.integers(-3, 30), st.sampled_from(EDGES), st.integers(0, 10**6), ODD)
COUNTS = st.dictionaries(
    st.one_of(st.sampled_from(CARD_KEYS), st.text(max_size=4)), NUMBER, max_size=7
)
CARDS = st.one_of(st.integers(-10, 10_000), COUNTS, ODD)
SPECIAL = st.one_of(st.dictionaries(st.text(max_size=6), NUMBER, max_size=3), ODD)


def _read(special: Any, melded: Any, left: Any) -> tuple[Any, ...] | tuple[str, list[str]]:
    try:
        return read_kept(special, melded, left, 1)
    except TallyError as error:
        return "refused", [problem.field for problem in error.problems]


@given(SPECIAL, CARDS, CARDS)
@example({}, 340, 15)
@example({"sevens": 1}, {"jokers": 2, "aces": 3}, {"twos": 0})
@example({}, {card: 1 for card in CARD_KEYS}, 0)
@example({}, {"aces": True}, 0)
@example({}, {"aces": 1.0}, 0)
@example({}, {"kings": 1}, 0)
@example([], 0, 0)
# Each bound, just inside and just outside.
@example({"sevens": 20}, {"aces": 500}, 20000)
@example({"sevens": 21}, 0, 0)
@example({}, {"aces": 501}, 0)
@example({}, 0, 20001)
@example({}, -1, 0)
@example({}, {"aces": -1}, 0)
@example({"sevens": -1}, 0, 0)
@example({}, {"aces": "1"}, 0)
def test_the_quick_path_reads_what_the_reader_reads(special: Any, melded: Any, left: Any) -> None:
    quick = _read(special, melded, left)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tally_module, "_as_written", lambda *kept: None)
        slow = _read(special, melded, left)
    assert quick == slow


def test_the_quick_path_takes_the_tallies_the_app_writes() -> None:
    calls: list[Any] = []
    reader = tally_module._TeamReader
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tally_module, "_TeamReader", lambda *a: calls.append(a) or reader(*a))
        special, melded, left = read_kept({"sevens": 2}, {"jokers": 2, "eights_to_kings": 9}, 45, 0)
        assert calls == []  # not the reader
        assert special == {"sevens": 2}
        assert melded == Cards.of_counts({CardClass.JOKERS: 2, CardClass.EIGHTS_TO_KINGS: 9})
        assert left == Cards(points=45)
        with pytest.raises(TallyError):
            read_kept({}, {"kings": 1}, 0, 0)
        assert len(calls) == 1  # anything else: the reader, which names what is wrong
