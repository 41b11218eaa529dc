"""Charts drawn on the server as SVG: in the pages and, unchanged, in the PDFs (no JavaScript).

Every chart is accessible: the ``<svg>`` has ``role="img"`` and ``aria-labelledby`` pointing at
its ``<title>`` and ``<desc>``, series differ by dash and marker as well as colour, and a data
table with the same numbers sits beside it. The geometry is computed here; the markup lives in
``templates/charts/``. Chart ids must be unique within a page (the caller names them).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from flask import render_template
from flask_babel import format_date, get_locale, ngettext
from flask_babel import gettext as _
from markupsafe import Markup

from scorekeeper.extensions import decimal, half_up

if TYPE_CHECKING:
    from datetime import date

    from scorekeeper.services.games import GameView
    from scorekeeper.services.ratings import RatingPoint, Ratings
    from scorekeeper.services.standings import Bucket, Line

EN_DASH = "\u2013"  # for ranges (1000\u20131999) and missing values
# Okabe-Ito colours (told apart by most colour-blind readers), then a grey.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#8C6D31", "#888888")
DASHES = ("", "7 4", "2 3", "9 3 2 3", "4 2", "1 2", "12 4", "5 2 1 2")
MARKERS = ("circle", "square", "diamond", "triangle")

WIDTH = 640
PLOT_TOP = 16
PLOT_LEFT = 64
PLOT_RIGHT = 44  # room for half of the last x label, a date of ten characters
PLOT_HEIGHT = 220
AXIS_SPACE = 44  # below the plot: tick labels and the x axis title
LEGEND_ROW = 22
CHAR_WIDTH = 7.2  # an estimate of one character at the 12px legend size
MAX_MARKED_POINTS = 40  # more points than this are drawn as a plain line
MAX_X_LABELS = 12
MAX_POINTS = 60  # long histories are sampled down to about this many points


@dataclass(frozen=True)
class Series:
    name: str
    values: Sequence[float | None]


@dataclass(frozen=True)
class Table:
    caption: str
    header: list[str]
    rows: list[list[str]]


@dataclass(frozen=True)
class Tick:
    pos: float
    label: str


@dataclass(frozen=True)
class LegendItem:
    x: float
    y: float
    name: str
    color: str
    dash: str
    marker: str


@dataclass(frozen=True)
class Path:
    d: str
    color: str
    dash: str
    marker: str
    points: list[tuple[float, float]]
    name: str


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str


@dataclass(frozen=True)
class RangeRow:
    name: str
    low: float
    mid: float
    high: float


@dataclass(frozen=True)
class RangeMark:
    y: float
    x_low: float
    x_mid: float
    x_high: float
    name: str
    label: str


@dataclass
class Frame:
    """What every chart template needs: size, plot area, axes and legend."""

    chart_id: str
    title: str
    desc: str
    height: float
    x_title: str = ""
    y_title: str = ""
    x_ticks: list[Tick] = field(default_factory=list)
    y_ticks: list[Tick] = field(default_factory=list)
    legend: list[LegendItem] = field(default_factory=list)
    left: float = PLOT_LEFT
    top: float = PLOT_TOP
    right: float = WIDTH - PLOT_RIGHT
    bottom: float = PLOT_TOP + PLOT_HEIGHT
    width: float = WIDTH

    @property
    def plot_width(self) -> float:
        return self.right - self.left

    @property
    def plot_height(self) -> float:
        return self.bottom - self.top


def nice_ticks(low: float, high: float, count: int = 5, *, whole: bool = False) -> list[float]:
    """Round tick values (steps of 1, 2, 2.5 or 5 times a power of ten) covering low..high.

    ``whole`` for counts: steps of whole numbers only (no "0.25 games").
    """
    if high <= low:
        # One value only (a 0:0 game, a rating that never moved): whole steps of 1 around
        # it, never "1097.3".
        high = low + max(count - 1, 1)
    raw = (high - low) / max(count - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    steps = [m * magnitude for m in (1, 2, 2.5, 5, 10)]
    if whole:
        steps = [step for step in (max(step, 1) for step in steps) if float(step).is_integer()]
    step = next(step for step in steps if step >= raw)
    ticks = [math.floor(low / step) * step]
    while ticks[-1] < high:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def number(value: float) -> str:
    """A tick or table value as the language writes it: whole numbers without decimals,
    others with one ("2,5" in German), digits grouped as everywhere else."""
    return decimal(value, 1)


def _scale(value: float, low: float, high: float, out_low: float, out_high: float) -> float:
    if high == low:
        return (out_low + out_high) / 2
    return round(out_low + (value - low) * (out_high - out_low) / (high - low), 2)


def style(i: int) -> tuple[str, str, str]:
    """Colour, dash and marker of the i-th series: past eight colours the dashes shift."""
    shift = i + i // len(PALETTE)
    return PALETTE[i % len(PALETTE)], DASHES[shift % len(DASHES)], MARKERS[shift % len(MARKERS)]


def _legend(frame: Frame, names: Sequence[str]) -> None:
    """Legend items in rows under the axis, wrapping at the chart's width."""
    x, y = frame.left, frame.bottom + AXIS_SPACE
    for i, name in enumerate(names):
        width = 40 + CHAR_WIDTH * len(name)
        if x + width > frame.width and x > frame.left:
            x, y = frame.left, y + LEGEND_ROW
        frame.legend.append(LegendItem(x, y, name, *style(i)))
        x += width
    frame.height = (y + LEGEND_ROW if names else frame.bottom + AXIS_SPACE) + 4


def _svg(template: str, frame: Frame, **context: object) -> Markup:
    return Markup(render_template(f"charts/{template}", frame=frame, **context))


def figure(svg: Markup, table: Table | None, *, collapsed: bool = True) -> Markup:
    """The chart and its data table, as one ``<figure>``."""
    return Markup(render_template("charts/figure.html", svg=svg, table=table, collapsed=collapsed))


def _every(frame: Frame, labels: Sequence[str], slots: int) -> int:
    """Label every n-th point only, so that no two labels overlap."""
    widest = CHAR_WIDTH * max((len(label) for label in labels), default=1) + 10
    room = frame.plot_width / max(slots, 1)
    return max(1, math.ceil(widest / room), math.ceil(len(labels) / MAX_X_LABELS))


def _x_ticks(frame: Frame, labels: Sequence[str]) -> list[float]:
    n = len(labels)
    xs = [_scale(i, 0, max(n - 1, 1), frame.left, frame.right) for i in range(n)]
    every = _every(frame, labels, max(n - 1, 1))
    # The last point is always labelled; the one before it gives way if they would touch.
    shown = [i for i in range(n) if i % every == 0 and (n - 1 - i >= every or i == n - 1)]
    if n and n - 1 not in shown:
        shown.append(n - 1)
    frame.x_ticks = [Tick(xs[i], labels[i]) for i in shown]
    return xs


def line_svg(
    chart_id: str,
    title: str,
    desc: str,
    x_labels: Sequence[str],
    series: Sequence[Series],
    *,
    x_title: str = "",
    y_title: str = "",
) -> Markup:
    """Lines over a shared x axis; a series' gaps (None) break its line."""
    frame = Frame(chart_id, title, desc, 0, x_title, y_title)
    values = [v for s in series for v in s.values if v is not None]
    ticks = nice_ticks(min(values, default=0), max(values, default=1))
    low, high = ticks[0], ticks[-1]
    frame.y_ticks = [Tick(_scale(t, low, high, frame.bottom, frame.top), number(t)) for t in ticks]
    xs = _x_ticks(frame, x_labels)
    paths = []
    for i, one in enumerate(series):
        points = [
            (xs[j], _scale(v, low, high, frame.bottom, frame.top))
            for j, v in enumerate(one.values)
            if v is not None
        ]
        d, pen_up = [], True
        for j, v in enumerate(one.values):
            if v is None:
                pen_up = True
                continue
            d.append(
                f"{'M' if pen_up else 'L'}{xs[j]} {_scale(v, low, high, frame.bottom, frame.top)}"
            )
            pen_up = False
        color, dash, marker = style(i)
        marked = points if len(x_labels) <= MAX_MARKED_POINTS else []
        paths.append(Path(" ".join(d), color, dash, marker, marked, one.name))
    _legend(frame, [s.name for s in series])
    return _svg("line.svg", frame, paths=paths)


def line_table(
    caption: str, x_title: str, x_labels: Sequence[str], series: Sequence[Series]
) -> Table:
    return Table(
        caption,
        [x_title, *(s.name for s in series)],
        [
            [label, *(EN_DASH if s.values[i] is None else number(s.values[i] or 0) for s in series)]
            for i, label in enumerate(x_labels)
        ],
    )


def bars_svg(
    chart_id: str,
    title: str,
    desc: str,
    labels: Sequence[str],
    values: Sequence[float],
    *,
    x_title: str = "",
    y_title: str = "",
) -> Markup:
    """Vertical bars, one per label (a histogram when the labels are ranges)."""
    frame = Frame(chart_id, title, desc, 0, x_title, y_title)
    ticks = nice_ticks(0, max(values, default=1) or 1, whole=True)  # bars count games
    high = ticks[-1]
    frame.y_ticks = [Tick(_scale(t, 0, high, frame.bottom, frame.top), number(t)) for t in ticks]
    n = max(len(values), 1)
    slot = frame.plot_width / n
    bars = []
    for i, value in enumerate(values):
        top = _scale(value, 0, high, frame.bottom, frame.top)
        bars.append(
            Bar(
                round(frame.left + i * slot + slot * 0.1, 2),
                top,
                round(slot * 0.8, 2),
                round(frame.bottom - top, 2),
                number(value),
            )
        )
    every = _every(frame, labels, n)
    frame.x_ticks = [
        Tick(round(frame.left + (i + 0.5) * slot, 2), label)
        for i, label in enumerate(labels)
        if i % every == 0
    ]
    _legend(frame, [])
    return _svg("bars.svg", frame, bars=bars, color=PALETTE[0])


RANGE_ROW = 28


def range_svg(
    chart_id: str, title: str, desc: str, rows: Sequence[RangeRow], *, x_title: str = ""
) -> Markup:
    """One horizontal line per row from low to high, with a dot at the middle value."""
    names_width = min(160, 24 + CHAR_WIDTH * max((len(r.name) for r in rows), default=4))
    frame = Frame(chart_id, title, desc, 0, x_title, "", left=names_width)
    frame.bottom = frame.top + RANGE_ROW * max(len(rows), 1)
    ticks = nice_ticks(
        min((r.low for r in rows), default=0), max((r.high for r in rows), default=1)
    )
    low, high = ticks[0], ticks[-1]
    frame.x_ticks = [Tick(_scale(t, low, high, frame.left, frame.right), number(t)) for t in ticks]
    marks = [
        RangeMark(
            frame.top + RANGE_ROW * (i + 0.5),
            _scale(row.low, low, high, frame.left, frame.right),
            _scale(row.mid, low, high, frame.left, frame.right),
            _scale(row.high, low, high, frame.left, frame.right),
            row.name,
            f"{number(row.low)} {EN_DASH} {number(row.mid)} {EN_DASH} {number(row.high)}",
        )
        for i, row in enumerate(rows)
    ]
    _legend(frame, [])
    return _svg("range.svg", frame, marks=marks, color=PALETTE[0])


# ---------------------------------------------------------------------------
# The charts the pages show


def running_totals_svg(view: GameView, *, table: bool = True) -> Markup:
    """A game's running totals deal by deal, one line per team (with its data table).

    ``table=False`` leaves the table out where the page shows the same numbers already
    (the score sheet).
    """
    return _running_totals(
        view.game.id,
        tuple(view.team_names),
        tuple(deal.number for deal in view.deals),
        tuple(tuple(deal.running) for deal in view.deals),
        str(get_locale()),
        table,
    )


# Every tablet at a table shows the game's chart after each save: drawn once per change.
# The key is everything the chart shows (the language included), so it is never stale.
@lru_cache(maxsize=64)
def _running_totals(
    game_id: int,
    names: tuple[str, ...],
    numbers: tuple[int, ...],
    running: tuple[tuple[int, ...], ...],
    _locale: str,
    table: bool,
) -> Markup:
    labels = [_("Start"), *(_("Deal %(number)d", number=number) for number in numbers)]
    series = [Series(name, [0, *(totals[i] for totals in running)]) for i, name in enumerate(names)]
    title = _("Running totals")
    desc = ngettext(
        "Each team's total after every deal. After %(deals)d deal: %(totals)s.",
        "Each team's total after every deal. After %(deals)d deals: %(totals)s.",
        len(numbers),
        deals=len(numbers),
        totals=", ".join(
            f"{name} {total}"
            for name, total in zip(names, running[-1] if running else [0] * len(names), strict=True)
        ),
    )
    svg = line_svg(
        f"running-totals-{game_id}",
        title,
        desc,
        labels,
        series,
        x_title=_("Deal"),
        y_title=_("Points"),
    )
    return figure(svg, line_table(title, _("Deal"), labels, series) if table else None)


def _sample(count: int, most: int = MAX_POINTS) -> list[int]:
    """Up to ``most`` indexes spread evenly over range(count), always with the last one."""
    if count <= most:
        return list(range(count))
    step = (count - 1) / (most - 1)
    return sorted({round(i * step) for i in range(most)})


def ratings_svg(
    chart_id: str,
    title: str,
    ratings: Ratings,
    players: Sequence[tuple[int, str]],
    *,
    table: bool = True,
) -> Markup:
    """Each player's rating after each game of ``ratings`` (sampled when there are many).

    ``table=False`` leaves the data table out (a PDF that prints the standings beside it).
    """
    grid = _sample(len(ratings.games))
    labels = [str(i + 1) for i in grid]
    series = []
    for player_id, name in players:
        history = ratings.history.get(player_id, [])
        values: list[float | None] = []
        for g in grid:
            # The rating after the player's last game up to this one; none before the first.
            at = bisect.bisect_right(history, g, key=lambda item: item[0])
            values.append(history[at - 1][1].display if at else None)
        series.append(Series(name, values))
    desc = ngettext(
        "The rating of each player after the %(games)d game played. Current ratings: %(ratings)s.",
        "The rating of each player after each of the %(games)d games, in the order played. "
        "Current ratings: %(ratings)s.",
        len(ratings.games),
        games=len(ratings.games),
        ratings=", ".join(
            f"{name} {ratings.display(pid)}"
            for pid, name in players
            if ratings.display(pid) is not None
        ),
    )
    svg = line_svg(chart_id, title, desc, labels, series, x_title=_("Game"), y_title=_("Rating"))
    return figure(svg, line_table(title, _("Game"), labels, series) if table else None)


def player_rating_svg(chart_id: str, name: str, points: Sequence[RatingPoint]) -> Markup:
    """One player's rating after each of their games (sampled when there are many)."""
    picked = tuple((points[i].played_on, points[i].display) for i in _sample(len(points)))
    return _player_rating(chart_id, name, len(points), picked, str(get_locale()))


# A player's page is drawn again and again between two games that count: the chart once per
# change (dates in the table's language took 3 ms of a regular's page). Keyed by all it shows.
@lru_cache(maxsize=64)
def _player_rating(
    chart_id: str,
    name: str,
    games: int,
    picked: tuple[tuple[date, int], ...],
    _locale: str,
) -> Markup:
    # Dates as the table's language writes them (29.11.26, 29/11/2026, 11/29/26).
    labels = [str(format_date(day, format="short")) for day, _rating in picked]
    series = [Series(name, [rating for _day, rating in picked])]
    title = _("Rating of %(name)s over time", name=name)
    desc = ngettext(
        "%(name)s's rating after %(games)d game: from %(first)s to %(last)s.",
        "%(name)s's rating after each of %(games)d games: from %(first)s to %(last)s.",
        games,
        name=name,
        games=games,
        first=picked[0][1] if picked else EN_DASH,
        last=picked[-1][1] if picked else EN_DASH,
    )
    svg = line_svg(chart_id, title, desc, labels, series, x_title=_("Date"), y_title=_("Rating"))
    return figure(svg, line_table(title, _("Date"), labels, series))


def score_ranges_svg(chart_id: str, lines: Sequence[Line]) -> Markup:
    """Each line's worst, average and best game total."""
    rows = [
        RangeRow(line.name, line.worst, int(half_up(line.average_per_game)), line.best)
        for line in lines
        if line.worst is not None and line.best is not None
    ]
    title = _("Scores per game")
    desc = _(
        "For each player the lowest game total, the average and the highest, as a line "
        "from lowest to highest with a dot at the average. Totals from different rules are "
        "mixed here."
    )
    svg = range_svg(chart_id, title, desc, rows, x_title=_("Points in a game"))
    table = Table(
        title,
        [_("Player"), _("Lowest"), _("Average"), _("Highest")],
        [[r.name, number(r.low), number(r.mid), number(r.high)] for r in rows],
    )
    return figure(svg, table)


def distribution_svg(chart_id: str, name: str, buckets: Sequence[Bucket]) -> Markup:
    """A histogram of a player's game totals."""
    labels = [f"{number(b.low)}{EN_DASH}{number(b.high - 1)}" for b in buckets]
    counts = [b.games for b in buckets]
    title = _("How %(name)s's games ended", name=name)
    desc = ngettext(
        "The range of points %(name)s's team total fell in, in %(games)d game.",
        "How many of %(name)s's %(games)d games ended with a team total in each range of points.",
        sum(counts),
        name=name,
        games=sum(counts),
    )
    svg = bars_svg(
        chart_id, title, desc, labels, counts, x_title=_("Team total"), y_title=_("Games")
    )
    table = Table(
        title,
        [_("Team total"), _("Games")],
        [[label, str(count)] for label, count in zip(labels, counts, strict=True)],
    )
    return figure(svg, table)
