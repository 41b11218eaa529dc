"""Score sheets on paper: a blank sheet for any rules, the filled sheet of a game, standings.

Each sheet is a standalone Jinja template (``templates/sheets/``) with a print stylesheet,
turned into a one-page PDF by WeasyPrint. WeasyPrint is imported only when a sheet is
rendered: importing it costs most of a second, and the app must start fast.
Blank sheets are cached in-process, keyed by the rules' own content, so editing house
rules makes a new sheet while an unchanged one is served at once.
"""

from __future__ import annotations

import gc
import hashlib
import io
import json
import mimetypes
import os
import string
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, is_dataclass, replace
from math import ceil
from typing import Any
from urllib.parse import unquote, urlsplit

from flask import Response, current_app, render_template, request, send_file, url_for
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.security import safe_join

from scorekeeper.extensions import MINUS, day_text
from scorekeeper.rules import CardClass, PlayStyle, RuleSet, TeamScore, TeamTally
from scorekeeper.services.games import CorrectionRecord, GameView, logged_text, read_logged
from scorekeeper.web import rules_text

MAX_COLUMNS = 7
CHECK_MARK = "\u2713"


@dataclass(frozen=True)
class Paper:
    id: str
    css_size: str
    width_mm: float
    height_mm: float


PAPERS: Mapping[str, Paper] = {
    "a4": Paper("a4", "A4 portrait", 210.0, 297.0),
    "letter": Paper("letter", "letter portrait", 215.9, 279.4),
}
MARGIN_MM = 8.0
PT_MM = 25.4 / 72
# A digit's width in ems of the sheet's type (DejaVu Sans; its bold digits are 0.70).
DIGIT_EM = 0.64
BOLD_DIGIT_EM = 0.7
# What a figure's other characters take, in ems: the signs, a space, the correction mark "†"
# (bold) after a corrected figure. Anything else is taken as wide as a bold digit.
CHAR_EM = {"\u2212": 0.84, "+": 0.84, "\u00d7": 0.84, " ": 0.32, "\u2020": 0.5}
# The correction mark's padding (sheet.css .mark).
MARK_PAD_MM = 0.3
# A cell of the deals loses half of each of its collapsed 0.5 pt borders (sheet.css).
CELL_BORDER_MM = 0.5 * PT_MM


def figure_em(text: str, bold: bool = False) -> float:
    """How wide ``text`` (a figure: digits, signs, spaces) prints, in ems of its type."""
    digit = BOLD_DIGIT_EM if bold else DIGIT_EM
    return sum(CHAR_EM.get(char, digit if char.isdigit() else BOLD_DIGIT_EM) for char in text)


PX_MM = 25.4 / 96  # WeasyPrint measures in CSS pixels
LINE_HEIGHT = 1.15
MAX_ROW_MM, MIN_ROW_MM = 9.0, 2.2
# Below this, three teams or more print their deals two blocks side by side (see _layout).
LEGIBLE_ROW_MM = 3.0
MIN_FONT_PT = 4.5
END_MARK = "sheet-end"


def number(value: int) -> str:
    """A number as the sheet prints it: a real minus sign, no thousands separator."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


# ---------------------------------------------------------------------------
# Which teams a sheet can have


def allowed_team_counts(rules: RuleSet) -> list[int]:
    """The numbers of teams these rules can seat, as many as fit on one sheet.

    Partnership rules always offer 2 to 4 columns (a sheet may serve a bigger table than the
    rules' usual player count), individual rules up to the most players they allow.
    """
    counts = {
        teams
        for players in range(rules.min_players, rules.max_players + 1)
        for teams, _size in rules.seatings(players)
    }
    if rules.play_style is PlayStyle.PARTNERSHIPS:
        counts |= {2, 3, 4}
    return sorted(n for n in counts if 2 <= n <= MAX_COLUMNS)


# ---------------------------------------------------------------------------
# The sheet as data: the templates only lay it out


@dataclass(frozen=True)
class Cell:
    count: str = ""  # how many (books, red threes), before the points
    points: str = ""
    corrected: bool = False
    zero: bool = False  # printed lighter: nothing happened here


@dataclass(frozen=True)
class Row:
    key: str
    label: str
    rate: str  # what one of it is worth, e.g. "x 500"; empty for sums
    kind: str  # "count" (count and points), "points", "score", "total" or "note"
    cells: tuple[Cell, ...] = ()


@dataclass(frozen=True)
class Block:
    """One deal: its heading and one row per line of the score."""

    number: int
    opening: str
    concealed: bool
    dealer: str | None  # None: a line to write the dealer on
    note: str
    rows: tuple[Row, ...]
    corrected: bool = False


@dataclass(frozen=True)
class TeamHead:
    letter: str
    name: str  # empty: a line to write the name on
    players: str = ""


@dataclass(frozen=True)
class RulesCard:
    cards: list[tuple[str, str]]
    books: list[tuple[str, str]]
    other_bonuses: list[tuple[str, str]]
    red_threes: str
    deals: list[tuple[int, str, str]]  # number, opening, what going out needs
    going_out: list[str]
    melds: list[str]


@dataclass(frozen=True)
class Layout:
    """Sizes that let any number of teams and deals fit on one page."""

    paper: Paper
    teams: int
    per_row: int  # deal blocks side by side
    row_mm: float
    font_pt: float
    card_font_pt: float
    line_rows: int = 0  # rows of the fixed row height on the page, all deals together

    # Column widths in percent of the page width; blocks side by side share the page.
    @property
    def gap_pct(self) -> float:
        return 2.0 if self.per_row > 1 else 0.0

    @property
    def _block_pct(self) -> float:
        return (100 - self.gap_pct * (self.per_row - 1)) / self.per_row

    @property
    def label_pct(self) -> float:
        if self.per_row > 1:
            # Half a page wide, three teams or more leave the labels less room.
            share = 0.37 if self.teams == 2 else (0.3 if self.teams <= 4 else 0.25)
        else:
            share = 0.24 if self.teams <= 4 else 0.19
        return round(self._block_pct * share, 3)

    @property
    def rate_pct(self) -> float:
        if self.per_row > 1:
            share = 0.12 if self.teams == 2 else (0.1 if self.teams <= 4 else 0.085)
        else:
            share = 0.08 if self.teams <= 4 else 0.065
        return round(self._block_pct * share, 3)

    @property
    def count_pct(self) -> float:
        """Each team has a narrow column for how many and a wider one for the points."""
        return round(self._team_pct * 0.34, 3)

    @property
    def points_pct(self) -> float:
        return round(self._team_pct * 0.66, 3)

    @property
    def _team_pct(self) -> float:
        return (self._block_pct - self.label_pct - self.rate_pct) / self.teams

    @property
    def dense(self) -> bool:
        """Three teams or more in blocks side by side: narrow columns, less padding."""
        return self.per_row > 1 and self.teams > 2

    @property
    def most_font_pt(self) -> float:
        """The largest type that writes a five-figure score (minus 15000) in a points cell."""
        return max(self._room_mm(self.points_pct) / (5 * DIGIT_EM * PT_MM), MIN_FONT_PT)

    def _room_mm(self, pct: float) -> float:
        """The width a column of ``pct`` percent of the page leaves for its text."""
        padding_mm = 0.8 if self.dense else 1.6
        return (self.paper.width_mm - 2 * MARGIN_MM) * pct / 100 - padding_mm - CELL_BORDER_MM

    def figure_scale(self, figure: str, column: str = "points", marked: bool = False) -> float:
        """How much to shrink a figure so it stays in its cell (1.0: as it is). Five
        characters fit a points cell at any type size the sheet chooses (see most_font_pt);
        house rules' bonuses of 10000 print -20000, which seven teams side by side have no
        room for. ``column``: "points", "sum" (a sum's cell, spanning the count column too)
        or "rate" (what one of a line is worth, "x -10000"; sums print bold); ``marked``:
        the figure carries the correction mark, which shrinks with it."""
        pct = {
            "points": self.points_pct,
            "sum": self.count_pct + self.points_pct,
            "rate": self.rate_pct,
        }[column]
        width_mm = self._room_mm(pct) - (MARK_PAD_MM if marked else 0.0)
        ems = figure_em(figure + ("\u2020" if marked else ""), bold=column == "sum")
        needed_mm = ems * self.font_pt * PT_MM
        return 1.0 if needed_mm <= width_mm else round(max(width_mm / needed_mm, 0.5), 2)

    def with_row(self, row_mm: float) -> Layout:
        """The same sheet with another row height, and the type size that goes with it."""
        row_mm = max(round(row_mm, 2), MIN_ROW_MM)
        return replace(
            self, row_mm=row_mm, font_pt=_font_for(row_mm, self.teams, self.most_font_pt)
        )

    def name_scale(self, name: str) -> float:
        """How much to shrink a team name so it takes at most about three lines."""
        width_mm = (self.paper.width_mm - 2 * MARGIN_MM) * self._team_pct / 100 - 1.6
        # DejaVu Sans Bold averages about 0.7 em per character, wide letters more.
        per_line = max(width_mm / (self.font_pt * 0.7 * PT_MM), 1.0)
        lines = len(name) / per_line
        return 1.0 if lines <= 3 else round(max(3 / lines, 0.45), 2)


@dataclass(frozen=True)
class MetaLine:
    """A line at the top of a filled sheet: a key ("Played on"), its text, a part in bold."""

    key: str
    text: str
    strong: str = ""
    css_class: str = ""

    @property
    def plain(self) -> str:
        """The line as printed, for measuring it."""
        line = f"{self.key} {self.text}" if self.key else self.text
        return f"{line} \u00b7 {self.strong}" if self.strong else line


@dataclass
class Sheet:
    title: str
    kicker: str  # over the title: "Hand and Foot · Game 12"
    rules_name: str
    teams: list[TeamHead]
    blocks: list[Block]
    card: RulesCard
    layout: Layout
    filled: bool = False
    meta: list[MetaLine] = field(default_factory=list)  # filled: when, who, how it ended
    totals: list[str] = field(default_factory=list)
    winners: set[int] = field(default_factory=set)
    footnotes: list[str] = field(default_factory=list)

    @property
    def block_rows(self) -> list[list[Block]]:
        step = self.layout.per_row
        return [self.blocks[i : i + step] for i in range(0, len(self.blocks), step)]


# ---------------------------------------------------------------------------
# The lines of a deal


@dataclass(frozen=True)
class _Line:
    key: str
    label: str
    rate: str
    kind: str
    # The count and the points of this line for a team, when the deal was played.
    value: Callable[[TeamTally, TeamScore], tuple[int | None, int]] | None = None
    # The tally field whose correction marks this line (its name in the correction log).
    field: str = ""
    # Other fields whose correction changes this line's figure.
    also: tuple[str, ...] = ()


def _times(points: int) -> str:
    return f"\u00d7 {number(points)}"


def _lines(rules: RuleSet, with_opening: bool = False) -> list[_Line]:
    """The lines of one deal block under ``rules``: only what these rules can score."""
    sign = rules_text.signed

    def count(name: str, bonus: int) -> Callable[[TeamTally, TeamScore], tuple[int | None, int]]:
        return lambda tally, _score: (getattr(tally, name), getattr(tally, name) * bonus)

    def part(key: str) -> Callable[[TeamTally, TeamScore], tuple[int | None, int]]:
        return lambda _tally, score: (None, score.breakdown[key])

    lines = [
        _Line(
            "clean_books",
            _("Clean books"),
            _times(rules.clean_book_bonus),
            "count",
            count("clean_books", rules.clean_book_bonus),
            "clean_books",
        ),
        _Line(
            "dirty_books",
            _("Dirty books"),
            _times(rules.dirty_book_bonus),
            "count",
            count("dirty_books", rules.dirty_book_bonus),
            "dirty_books",
        ),
    ]
    if rules.wild_books:
        lines.append(
            _Line(
                "wild_books",
                _("Wild books"),
                _times(rules.wild_book_bonus),
                "count",
                count("wild_books", rules.wild_book_bonus),
                "wild_books",
            )
        )
    if rules.black_three_books:
        lines.append(
            _Line(
                "black_three_books",
                _("Black-three books"),
                _times(rules.black_three_book_bonus),
                "count",
                count("black_three_books", rules.black_three_book_bonus),
                "black_three_books",
            )
        )
    for book in rules.special_books:

        def special(
            tally: TeamTally, _score: TeamScore, book_id: str = book.id, bonus: int = book.bonus
        ) -> tuple[int | None, int]:
            n = tally.special_books.get(book_id, 0)
            return n, n * bonus

        lines.append(
            _Line(
                f"special:{book.id}",
                book.name,
                _times(book.bonus),
                "count",
                special,
                # Marked when this book's own count changed (see _corrected_lines).
                f"special_books.{book.id}",
            )
        )
    if rules.red_threes_laid:
        lines.append(
            _Line(
                "red_threes",
                _("Red threes laid"),
                _times(rules.red_three_bonus),
                "count",
                lambda tally, score: (tally.red_threes, score.breakdown["red_threes"]),
                "red_threes",
            )
        )
    lines.append(
        _Line(
            "red_threes_caught",
            _("Red threes caught"),
            _times(-rules.red_three_penalty),
            "count",
            lambda tally, score: (tally.red_threes_caught, score.breakdown["red_threes_caught"]),
            "red_threes_caught",
        )
    )
    if rules.exact_draw_bonus:
        lines.append(
            _Line(
                "exact_draws",
                _("Drew exactly %(cards)d", cards=rules.hand_cards + rules.foot_cards),
                _times(rules.exact_draw_bonus),
                "count",
                lambda tally, score: (tally.exact_draws, score.breakdown["exact_draws"]),
                "exact_draws",
            )
        )
    lines.append(
        _Line(
            "going_out",
            _("Going out"),
            sign(rules.going_out_bonus),
            "count",
            part("going_out"),
            "went_out",
        )
    )
    lines.append(_Line("melded", _("Melded cards"), "+", "points", part("melded"), "melded"))
    if rules.black_three_books:
        lines.append(
            _Line(
                "black_threes_melded",
                _("Black 3s melded"),
                _times(-rules.card_values.black_threes),
                "points",
                part("black_threes_melded"),
                "black_three_books",
                # Black threes counted among the melded cards count here too.
                also=("melded",),
            )
        )
    lines.append(_Line("left", _("Cards left"), MINUS, "points", part("left"), "left"))
    if with_opening:
        lines.insert(
            0,
            _Line(
                "opening_meld",
                _("Opening meld"),
                "",
                "note",
                lambda tally, _score: (None, tally.opening_meld or 0),
                "opening_meld",
            ),
        )
    lines.append(
        _Line("deal_score", _("Deal score"), "=", "score", lambda _t, score: (None, score.score))
    )
    lines.append(_Line("running", _("Running total"), "", "total"))
    return lines


def _opening(rules: RuleSet, n: int) -> tuple[str, bool]:
    """What deal ``n``'s opening needs (its minimum, or a concealed book), and whether that is
    a concealed book: then no minimum counts (seed 003: "i fjerde runde har brug for en
    skjult canasta", instead of the points of the other deals)."""
    deal = rules.deal(n)
    if deal.opening_needs_concealed_book:
        # TRANSLATORS: what an opening needs in a deal, in a narrow column beside the
        # other deals' minimums (50, 90, 120).
        return _("concealed book"), True
    return number(deal.opening_minimum), False


# ---------------------------------------------------------------------------
# The rules card


def rules_card(rules: RuleSet, *, alone: bool | None = False) -> RulesCard:
    """The rules as the sheet prints them beside the deals (``alone``: everyone at this
    table plays alone, as partnership rules seat three or five; ``None``: a blank sheet whose
    table may be either)."""
    sign = rules_text.signed
    cards = [(label, number(points)) for label, points in rules_text.card_value_rows(rules)]
    cards[-1] = (cards[-1][0], sign(-rules.card_values.of(CardClass.BLACK_THREES)))
    books = [(row.label, number(row.bonus)) for row in rules_text.book_bonus_rows(rules)]
    other = [(_("Going out"), sign(rules.going_out_bonus))]
    if rules.exact_draw_bonus:
        other.append(
            (
                _("Exact draw (%(cards)d cards)", cards=rules.hand_cards + rules.foot_cards),
                sign(rules.exact_draw_bonus),
            )
        )
    deals = []
    for n in range(1, rules.deal_count + 1):
        deals.append((n, _opening(rules, n)[0], rules_text.go_out_phrase(rules.deal(n).go_out)))
    # The first phrase is the going-out bonus, already listed with the bonuses.
    going_out = rules_text.going_out_phrases(rules, alone=alone)[1:]
    melds = [
        _("Books of %(size)s.", size=rules_text.book_size_phrase(rules)),
        _("Melds need %(rule)s.", rule=rules_text.wild_rule_phrase(rules)),
    ]
    if rules.one_meld_per_rank:
        melds.append(_("One meld of each rank."))
    if not rules.wild_books:
        melds.append(_("No wild books."))
    return RulesCard(
        cards=cards,
        books=books,
        other_bonuses=other,
        red_threes=rules_text.sentence(rules_text.red_threes_phrase(rules)),
        deals=deals,
        going_out=going_out,
        melds=melds,
    )


# ---------------------------------------------------------------------------
# Sizes


def _font_for(row_mm: float, teams: int, most: float = 8.5) -> float:
    """Type that fits the row: larger rows take larger type, up to a comfortable size.

    ``most``: the largest type the columns are wide enough for (see Layout.most_font_pt).
    """
    font = min(max(row_mm * 1.45, MIN_FONT_PT), 8.5, most)
    return round(min(font, 7.5) if teams >= 6 else font, 2)


def _text_lines(phrases: Sequence[str], width_mm: float, font_pt: float, em: float = 0.56) -> int:
    """About how many lines ``phrases`` take in a column ``width_mm`` wide."""
    return sum(_lines_of(len(phrase), width_mm, font_pt, em) for phrase in phrases)


def _lines_of(letters: float, width_mm: float, font_pt: float, em: float = 0.56) -> int:
    """About how many lines ``letters`` average letters take in a column ``width_mm`` wide."""
    # DejaVu Sans averages a little over half an em (``em``) per letter; in bold, 0.7 em.
    per_line = max(int(width_mm / (font_pt * em * PT_MM)), 1)
    return ceil(letters / per_line)


def _card_mm(card: RulesCard, paper: Paper, font_pt: float) -> float:
    """The height of the rules card: its tallest column, a heading, padding and margin."""
    width = paper.width_mm - 2 * MARGIN_MM - 4
    columns = [
        1 + len(card.cards),
        1
        + len(card.books)
        + len(card.other_bonuses)
        + _text_lines(["Red threes: " + card.red_threes], width * 0.22 - 3, font_pt),
        2 + _text_lines([need for _n, _opening, need in card.deals], width * 0.35 * 0.68, font_pt),
        2
        + _text_lines(card.going_out, width * 0.28 - 6, font_pt)
        + _text_lines(card.melds, width * 0.28 - 6, font_pt),
    ]
    return max(columns) * font_pt * LINE_HEIGHT * PT_MM + 10.5


def _layout(
    paper: Paper,
    teams: int,
    card: RulesCard,
    blocks: Sequence[Block],
    extra_mm: float = 0.0,
    heads: Sequence[TeamHead] = (),
    header_mm: float = 13.0,
) -> Layout:
    """Row height and type size so that every deal fits on the page with the rules card.

    ``blocks`` are the deals as the sheet prints them (their headings and lines); ``heads``
    the teams as the first deals' headings name them; ``header_mm`` the height of the top of
    the page (see :func:`_top_mm`).

    An estimate from the parts of the page measured on real sheets; :func:`_render_pdf`
    corrects it when something still spills onto a second page, at the price of laying the
    whole sheet out again (about half the time of a filled sheet).
    """
    deals = len(blocks)
    lines = len(blocks[0].rows)
    card_font = 7.0 if deals <= 5 else 6.3
    footer_mm = 6.0
    available = (
        paper.height_mm
        - 2 * MARGIN_MM
        - header_mm
        - _card_mm(card, paper, card_font)
        - footer_mm
        - extra_mm
    )
    # The headings' texts do not change with the type size: measured once, not on every step.
    titles = _title_letters(blocks)
    notes = [block.note for block in blocks]
    dealers = [block.dealer or "" for block in blocks]
    labels = [row.label for row in blocks[0].rows]

    def row_for(per_row: int) -> float:
        """The tallest rows that let the deals fit, ``per_row`` blocks side by side."""
        grid_rows = ceil(deals / per_row)
        # Side by side, a deal heading that names its concealed book takes one more line.
        concealed = any(block.concealed for block in blocks) and per_row > 1
        probe = Layout(paper, teams, per_row, MIN_ROW_MM, 0, 0)
        most = probe.most_font_pt
        label_mm = (paper.width_mm - 2 * MARGIN_MM) * probe.label_pct / 100 - 1.6
        row_mm = MAX_ROW_MM
        while row_mm > MIN_ROW_MM:
            font_pt = _font_for(row_mm, teams, most)
            line_mm = font_pt * LINE_HEIGHT * PT_MM
            # A label too long for its cell (a special book's name) wraps: its row grows.
            taller = sum(
                max(_wrapped_lines(label, label_mm, font_pt) * line_mm + 0.4 - row_mm, 0)
                for label in labels
                if len(label) * 0.5 * font_pt * PT_MM > label_mm
            )
            table_mm = (
                grid_rows * (lines * row_mm + taller)
                + _headings_mm(paper, teams, per_row, font_pt, titles, notes, dealers, heads)
                + (grid_rows - 1) * 1.6
                + (0.45 * font_pt if concealed else 0)
                + 1.0
            )
            if table_mm <= available:
                break
            row_mm = round(row_mm - 0.1, 2)
        return row_mm

    # Two teams fit twice across the page; more need the full width for columns to write in,
    # unless the deals are so many (house rules allow 12) that rows a block wide would be too
    # low to read or write in: then two blocks side by side halve the rows.
    per_row = 2 if teams == 2 and deals > 1 else 1
    row_mm = row_for(per_row)
    if per_row == 1 and deals > 1 and row_mm < LEGIBLE_ROW_MM:
        side_by_side = row_for(2)
        if side_by_side > row_mm:
            per_row, row_mm = 2, side_by_side
    return Layout(
        paper=paper,
        teams=teams,
        per_row=per_row,
        row_mm=MIN_ROW_MM,
        font_pt=MIN_FONT_PT,
        card_font_pt=card_font,
        line_rows=ceil(deals / per_row) * lines,
    ).with_row(row_mm)


def _title_letters(blocks: Sequence[Block]) -> list[float]:
    """Each deal's title ("Deal 1 Opening 50") in average bold letters of its heading's type.

    The deal's number is set larger (1.2 times) than the opening minimum beside it.
    """
    return [
        len(_("Deal %(num)d", num=block.number)) * 1.2
        + 1
        + len(_("Opening %(points)s", points=block.opening))
        for block in blocks
    ]


def _headings_mm(
    paper: Paper,
    teams: int,
    per_row: int,
    font_pt: float,
    titles: Sequence[float],
    notes: Sequence[str],
    dealers: Sequence[str],
    heads: Sequence[TeamHead],
) -> float:
    """The height of the deals' headings, as measured on real sheets.

    Beside the teams (three teams or more), a heading is the deal's title, its dealer and its
    note in a row, over the team letters: a note makes the row wrap onto more lines. Side by
    side (two teams), a heading is the deal's title (which may wrap, in German say) over its
    dealer, a note under them is a paragraph of its own, and the first row of deals also
    names the teams, whose names and players may wrap: a row of deals is as tall as the
    tallest of its headings. ``titles`` are the deals' titles (see :func:`_title_letters`).
    """
    deals = len(titles)
    probe = Layout(paper, teams, per_row, row_mm=MIN_ROW_MM, font_pt=font_pt, card_font_pt=0)
    page_mm = paper.width_mm - 2 * MARGIN_MM
    line_mm = font_pt * LINE_HEIGHT * PT_MM
    title_mm = (probe.label_pct + probe.rate_pct) * page_mm / 100 - 1.6
    team_mm = probe._team_pct * page_mm / 100 - 1.6
    named = [
        line_mm
        * (1 + _text_lines([head.name], team_mm, font_pt * probe.name_scale(head.name), em=0.7))
        + line_mm
        * 0.85
        * _text_lines([head.players] if head.players else [], team_mm, font_pt * 0.85)
        + 2.0
        for head in heads
        if head.name
    ]
    if per_row == 1:
        # A heading without a note, as measured; a note adds the lines it makes the row wrap
        # onto. The title is bold (0.7 em a letter, 1.25 of the others' 0.56); the dealer
        # and the note each follow a 3 mm gap (about two letters). The first heading also
        # names the teams.
        total = 0.0
        for n, (title, note, dealer) in enumerate(zip(titles, notes, dealers, strict=True)):
            heading = 0.7 * font_pt + 3.4
            if note:
                before = title * 1.25 + 12 + len(dealer)
                after = before + 2 + len(note)
                # A note that looks to end the title's line may still wrap it (seven teams,
                # measured: 8.8 mm against 7.4 without, at 5.65 pt): one line at least, a
                # little over where it does not.
                heading += (
                    max(
                        _lines_of(after, title_mm, font_pt) - _lines_of(before, title_mm, font_pt),
                        1,
                    )
                    * line_mm
                )
            total += max([heading, *named]) if n == 0 else heading
        return total
    total = 0.0
    for first in range(1, deals + 1, per_row):
        row = range(first, min(first + per_row, deals + 1))
        # The title is in bold, like a team's name.
        title = max(titles[n - 1] for n in row)
        heading = 1.0 * font_pt + 1.8 + (_lines_of(title, title_mm, font_pt, em=0.7) - 1) * line_mm
        heading += max(
            (
                _text_lines([notes[n - 1]], title_mm, font_pt) * line_mm + 0.5
                for n in row
                if n <= len(notes) and notes[n - 1]
            ),
            default=0.0,
        )
        total += max([heading, *named]) if first == 1 else heading
    return total


def _kicker(heading: str) -> str:
    # Not inside an f-string: the message extractor would not find the text there.
    hand_and_foot: str = _("Hand and Foot")
    return f"{hand_and_foot} \u00b7 {heading}"


def _top_mm(paper: Paper, kicker: str, title: str, meta: Sequence[MetaLine]) -> float:
    """The height of a filled sheet's top: the title beside the lines that say the game.

    Three lines of the game (when, who, how it ended) and a title on one line make 13 mm; a
    result or a list of players too long for their column, or a long name of house rules,
    wrap onto more lines.
    """
    width = paper.width_mm - 2 * MARGIN_MM
    # 8 pt lines, 0.8 mm apart, in 42 % of the page; the result is in bold.
    meta_lines = _text_lines([line.plain for line in meta], width * 0.42, 8, em=0.6)
    meta_mm = meta_lines * 8 * LINE_HEIGHT * PT_MM + 0.8 * max(len(meta) - 1, 0)
    # A 7.5 pt kicker over the 14 pt title, in the other 58 % less 4 mm.
    titles_mm = (
        _text_lines([kicker], width * 0.58 - 4, 7.5) * 7.5 * LINE_HEIGHT
        # Bold: about a tenth wider than the regular type _wrapped_lines measures.
        + _wrapped_lines(title, width * 0.58 - 4, 14 * 1.1) * 14 * 1.1
    ) * PT_MM
    three_lines_mm = 3 * 8 * LINE_HEIGHT * PT_MM + 1.6
    return 13.0 + max(meta_mm, titles_mm, three_lines_mm) - three_lines_mm


# ---------------------------------------------------------------------------
# Blank sheet


def _letters(count: int) -> list[str]:
    return [string.ascii_uppercase[i] for i in range(count)]


def blank_sheet(rules: RuleSet, teams: int, paper: Paper, names: Sequence[str] = ()) -> Sheet:
    """A sheet to score ``rules`` by hand: every line of every deal, nothing filled in."""
    lines = _lines(rules)
    blank = tuple(Cell() for _i in range(teams))
    blocks = []
    for n in range(1, rules.deal_count + 1):
        minimum, concealed = _opening(rules, n)
        blocks.append(
            Block(
                number=n,
                opening=minimum,
                concealed=concealed,
                dealer=None,
                note="",
                rows=tuple(Row(ln.key, ln.label, ln.rate, ln.kind, blank) for ln in lines),
            )
        )
    heads = [
        TeamHead(letter, names[i] if i < len(names) else "")
        for i, letter in enumerate(_letters(teams))
    ]
    name = rules_text.ruleset_name(rules)
    # Five columns under the standard rules are five players alone: no partner to ask;
    # three may be three alone or three pairs: the partner's lines say "in partnerships".
    sizes = rules.team_sizes_for(teams)
    card = rules_card(rules, alone=True if sizes == [1] else None if 1 in sizes else False)
    kicker = _kicker(_("Score sheet"))
    # The date and the place are lines to write on; a long name of house rules may wrap.
    top_mm = _top_mm(paper, kicker, name, [])
    return Sheet(
        title=_("Score sheet: %(rules)s, %(teams)d teams", rules=name, teams=teams),
        kicker=kicker,
        rules_name=name,
        teams=heads,
        blocks=blocks,
        card=card,
        layout=_layout(paper, teams, card, blocks, heads=heads, header_mm=top_mm),
    )


# ---------------------------------------------------------------------------
# Filled sheet


def _corrected_lines(corrections: Sequence[CorrectionRecord]) -> set[tuple[int, int, str]]:
    """(deal, team, tally field) of every value changed and not put back since; for the
    special books, one field a book whose count changed (``special_books.<id>``)."""
    found = set()
    for c in corrections:
        if c.undone_at is not None:
            continue
        team = c.team_position if c.team_position is not None else -1
        found.add((c.deal_number, team, c.field))
        if c.field == "special_books":
            old, new = read_logged(c.old_value), read_logged(c.new_value)
            old = old if isinstance(old, Mapping) else {}
            new = new if isinstance(new, Mapping) else {}
            for book in set(old) | set(new):
                if old.get(book, 0) != new.get(book, 0):
                    found.add((c.deal_number, team, f"special_books.{book}"))
    return found


def _field_labels(rules: RuleSet) -> dict[str, str]:
    labels = {line.field: line.label for line in reversed(_lines(rules, with_opening=True))}
    labels["special_books"] = _("Special books")
    labels["went_out"] = _("Went out")
    return labels


def _value_text(rules: RuleSet, field_name: str, raw: str) -> str:
    """A logged value (JSON text) in words: numbers, yes/no, cards by kind."""
    value = read_logged(raw)
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if value is None:
        return "\u2014"
    if isinstance(value, int):
        return number(value)
    if isinstance(value, Mapping):
        if field_name == "special_books":
            names = {book.id: book.name for book in rules.special_books}
            parts = [f"{names.get(k, k)} {v}" for k, v in value.items() if v]
        else:
            labels = {card.value: label for card, label in rules_text.card_labels().items()}
            parts = [f"{v} \u00d7 {labels.get(k, k)}" for k, v in value.items() if v]
        return ", ".join(parts) or "0"
    return logged_text(value)


FOOTNOTE_PT = 6.5
MOST_FOOTNOTES = 24
# The most the footnotes may take of the page (about eleven lines): a longer log leaves its
# earlier changes to the game's correction log, so the deals keep rows one can read.
MOST_NOTES_MM = 30.0
# A team's name in a footnote: the sheet prints it whole over the deals.
NOTE_NAME_LETTERS = 24


def _letter_em(letter: str) -> float:
    """About how wide ``letter`` is in DejaVu Sans, in em."""
    if letter in " .,:;!|'()[]ilIjtfr":
        return 0.35
    if letter in "MWmw\u03a9\u00c6\u0152\u2014":
        return 1.0
    if letter.isdigit():
        return 0.64
    if unicodedata.east_asian_width(letter) in ("W", "F"):
        return 1.0
    if letter.isupper():
        return 0.77
    return 0.62


def _wrapped_lines(text: str, width_mm: float, font_pt: float) -> int:
    """How many lines ``text`` takes in a column ``width_mm`` wide, wrapped word by word.

    A word too long for a line starts a line of its own and is broken where it overflows
    (``overflow-wrap: anywhere``), as WeasyPrint does.
    """
    em_mm = font_pt * PT_MM
    lines, used = 1, 0.0
    space = _letter_em(" ") * em_mm
    for word in text.split():
        wide = sum(_letter_em(letter) for letter in word) * em_mm
        if used and used + space + wide > width_mm:
            lines, used = lines + 1, 0.0
        elif used:
            used += space
        while wide > width_mm:
            lines, wide = lines + 1, wide - width_mm
        used += wide
    return lines


def _notes_mm(notes: Sequence[str]) -> float:
    """The height of the footnotes: the notes, after their heading, in one paragraph."""
    if not notes:
        return 0.0
    width = PAPERS["letter"].width_mm - 2 * MARGIN_MM
    heading = _("Corrected after the deal was first entered:")
    lines = _wrapped_lines(f"\u2020 {heading} " + "; ".join(notes), width, FOOTNOTE_PT)
    return lines * FOOTNOTE_PT * LINE_HEIGHT * PT_MM + 1.5


def _earlier(count: int) -> str:
    """The note that stands for the changes left to the game's correction log."""
    return str(
        ngettext(
            "%(count)d earlier change is in the game's correction log",
            "%(count)d earlier changes are in the game's correction log",
            count,
            count=count,
        )
    )


def _footnotes(view: GameView) -> list[str]:
    """The correction log in words, the latest changes when it is too long for the page.

    At most :data:`MOST_FOOTNOTES` changes, and no more than fit in :data:`MOST_NOTES_MM`:
    long names or long values make fewer of them fit.
    """
    rules = view.rules
    labels = _field_labels(rules)
    corrections = list(view.game.corrections)
    notes = []
    for c in corrections[-MOST_FOOTNOTES:]:
        team = (
            view.team_names[c.team_position]
            if c.team_position is not None and c.team_position < len(view.team_names)
            else ""
        )
        if len(team) > NOTE_NAME_LETTERS:
            team = team[: NOTE_NAME_LETTERS - 1] + "\N{HORIZONTAL ELLIPSIS}"
        text = _(
            "Deal %(deal)d, %(team)s, %(field)s: %(old)s \u2192 %(new)s",
            deal=c.deal_number,
            team=team,
            field=labels.get(c.field, c.field),
            old=_value_text(rules, c.field, c.old_value),
            new=_value_text(rules, c.field, c.new_value),
        )
        if c.undone_at is not None:
            text = _("%(change)s (undone)", change=text)
        notes.append(text)
    earlier = len(corrections) - len(notes)
    while len(notes) > 1 and _notes_mm([_earlier(earlier), *notes]) > MOST_NOTES_MM:
        notes.pop(0)
        earlier += 1
    return [_earlier(earlier), *notes] if earlier else notes


def _status(view: GameView) -> tuple[str, str]:
    """The state of the game and who won, in words."""
    rules = view.rules
    played = len(view.deals)
    totals = [number(t) for t in view.totals]
    if view.game.abandoned_at is not None:
        status = ngettext(
            "Abandoned after %(played)d of %(num)d deal",
            "Abandoned after %(played)d of %(num)d deals",
            rules.deal_count,
            played=played,
        )
    elif view.finished:
        status = _("Finished")
    else:
        status = ngettext(
            "In progress: %(played)d of %(num)d deal played",
            "In progress: %(played)d of %(num)d deals played",
            rules.deal_count,
            played=played,
        )
    leaders = view.leaders
    if not leaders:
        return status, ""
    names = rules_text.join_and([view.team_names[i] for i in leaders])
    points = totals[leaders[0]]
    over = view.finished or view.game.abandoned_at is not None
    if view.winner is not None:
        result = _("Winner: %(team)s with %(points)s", team=names, points=points)
    elif over and len(leaders) > 1:
        result = _("Tie: %(teams)s with %(points)s", teams=names, points=points)
    else:
        result = _("Leading: %(team)s with %(points)s", team=names, points=points)
    return status, result


def game_sheet(view: GameView, paper: Paper) -> Sheet:
    """The sheet of a game as played: every entered value, the scores, the winner."""
    rules = view.rules
    teams = len(view.team_names)
    with_opening = any(
        result.tally.opening_meld is not None for deal in view.deals for result in deal.results
    ) or any(c.field == "opening_meld" for c in view.game.corrections)
    lines = _lines(rules, with_opening=with_opening)
    corrected = _corrected_lines(view.game.corrections)
    blocks = []
    for n in range(1, rules.deal_count + 1):
        minimum, concealed = _opening(rules, n)
        deal = view.deals[n - 1] if n <= len(view.deals) else None
        rows = []
        for line in lines:
            if deal is None:
                cells = tuple(Cell() for _i in range(teams))
            elif line.key == "running":
                cells = tuple(Cell(points=number(total)) for total in deal.running)
            else:
                cells = tuple(
                    _cell(
                        line,
                        result.tally,
                        result.score,
                        any((n, i, f) in corrected for f in (line.field, *line.also)),
                    )
                    for i, result in enumerate(deal.results)
                )
            rows.append(Row(line.key, line.label, line.rate, line.kind, cells))
        note = ""
        if deal is not None and deal.stock_out:
            note = _("The stock ran out: nobody went out.")
        blocks.append(
            Block(
                number=n,
                opening=minimum,
                concealed=concealed,
                dealer=view.dealer(n) or "",
                note=note,
                rows=tuple(rows),
                corrected=deal is not None and deal.corrected,
            )
        )
    heads = [
        TeamHead(
            letter,
            view.team_names[i],
            # The players under the name, unless the name is theirs in full; a name cut at its
            # longest (names.team_name_of) keeps them, as the name no longer shows them all.
            ", ".join(view.team_players[i])
            if view.team_players[i] != [view.team_names[i]]
            and " & ".join(view.team_players[i]) != view.team_names[i]
            else "",
        )
        for i, letter in enumerate(_letters(teams))
    ]
    name = rules_text.ruleset_name(rules)
    game = view.game
    date = day_text(game.played_on, format="long")
    status, result = _status(view)
    footnotes = _footnotes(view)
    card = rules_card(rules, alone=view.everyone_alone)
    # The star goes to the winner (or the tied leaders) once the game is over.
    winners = set(view.leaders) if view.finished else set()
    kicker = _kicker(_("Game %(id)d", id=game.id))
    meta = [
        MetaLine(_("Played on"), date),
        MetaLine(_("Players, in seat order:"), ", ".join(view.seats)),
        MetaLine("", status, strong=result, css_class="status"),
    ]
    return Sheet(
        title=_("Game %(id)d, %(date)s", id=game.id, date=date),
        kicker=kicker,
        rules_name=name,
        teams=heads,
        blocks=blocks,
        card=card,
        # The totals line and the footnotes take room from the deals.
        layout=_layout(
            paper,
            teams,
            card,
            blocks,
            extra_mm=8 + _notes_mm(footnotes),
            header_mm=_top_mm(paper, kicker, name, meta),
            heads=[
                # The winner's name gets a star after it.
                replace(head, name=head.name + " \u2605") if i in winners else head
                for i, head in enumerate(heads)
            ],
        ),
        filled=True,
        meta=meta,
        totals=[number(t) for t in view.totals],
        winners=winners,
        footnotes=footnotes,
    )


def _cell(line: _Line, tally: TeamTally, score: TeamScore, corrected: bool) -> Cell:
    if line.value is None:
        return Cell()
    count, points = line.value(tally, score)
    if line.key == "going_out":
        return Cell(
            count=CHECK_MARK if tally.went_out else "",
            points=number(points) if tally.went_out else "\u2013",
            corrected=corrected,
            zero=not tally.went_out,
        )
    if line.key == "opening_meld":
        text = number(tally.opening_meld) if tally.opening_meld is not None else "\u2013"
        return Cell(points=text, corrected=corrected, zero=tally.opening_meld is None)
    return Cell(
        count="" if count is None else str(count),
        points=number(points),
        corrected=corrected,
        zero=points == 0 and not count and line.kind != "score",
    )


# ---------------------------------------------------------------------------
# Rendering


def _render_pdf(
    template: str, layout: Layout | None, cache: _Cache | None = None, **context: Any
) -> bytes:
    """Render ``template`` to PDF bytes; a sheet with a ``layout`` always fits one page.

    With a ``cache``, a page printed before comes from it (see :func:`_pressed`).
    """
    with press.gc_paused():
        # Made in a call of its own: when it returns, nothing of the document is left (see
        # _Press.gc_paused), and the collector coming back finds it all garbage.
        return _pressed(template, layout, context, cache)


def _pressed(
    template: str, layout: Layout | None, context: dict[str, Any], cache: _Cache | None
) -> bytes:
    fetcher = _static_fetcher()
    stylesheet = _stylesheet()
    css = press.css_key(stylesheet)
    key = None
    for attempt in range(6):
        html = render_template(template, layout=layout, **context)
        if cache is not None and attempt == 0:
            # The PDF is made from the page, the stylesheet and the address its links would
            # resolve against, and from nothing else (a sheet fetches no image or font): the
            # same three give the same file, byte for byte.
            key = (hashlib.sha256(html.encode()).hexdigest(), request.url, css)
            pdf = cache.get(key)
            if pdf is not None:
                return pdf
        document = press.render(html, request.url, fetcher, stylesheet)
        if layout is None or len(document.pages) <= 1:
            break
        layout = _fitted(layout, document)
    for page in document.pages:
        # The end mark only measures the sheet; it is no chapter of the PDF.
        page.bookmarks = [mark for mark in page.bookmarks if mark[1] != END_MARK]
    pdf = press.write(document)
    # A stylesheet edited during the render may have printed this one: not kept.
    if cache is not None and key is not None and press.css_key(stylesheet) == css:
        cache.put(key, pdf)
    return pdf


class _Press:
    """What WeasyPrint needs for every sheet, made once: the parsed stylesheet and the fonts.

    A sheet linking ``css/sheet.css`` made WeasyPrint fetch and parse it again for every
    render, and a render given no font configuration builds a new one (fontconfig and Pango
    start from nothing, with no font or glyph cached). The press keeps one
    ``FontConfiguration`` and the stylesheet parsed with it, for the life of the process.

    The stylesheet is handed to WeasyPrint as a *user* stylesheet (``stylesheets=[...]``),
    no longer as the author stylesheet a ``<link>`` made it. Every rule of the template's own
    ``<style>`` and ``style=""`` attributes (author) now wins over every rule of sheet.css
    whatever their specificity, and an ``!important`` in sheet.css beats one in the template.
    The sheets print the same because the template's rules only set what sheet.css leaves
    alone (page size, type size, row height, column widths); a rule added to both must keep
    that in mind. ``tests/sheets/test_sheet_press.py`` checks the styles still apply.

    Renders are serialised by one lock. A ``FontConfiguration`` (a fontconfig configuration,
    a Pango font map, WeasyPrint's caches in plain dicts) is not safe for two threads at once,
    and a render is pure Python holding the GIL nearly all the time, so two renders in
    parallel would take as long as one after the other anyway; a configuration per thread
    would only cost memory and a cold first render on every thread of the server.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._css: Any = None
        self._css_key: str | None = None
        self._font_config: Any = None
        # What the stylesheet file held when last read: its stat, its digest and its bytes.
        # Its own lock: a warm cached sheet asks for the key and must not wait for a render.
        self._source_lock = threading.Lock()
        self._source: tuple[tuple[str, int, int, int, int], str, bytes] | None = None
        self.css_parses = 0  # how many times the stylesheet was parsed, for the tests
        self._gc_lock = threading.Lock()
        self._gc_renders = 0
        self._gc_was_enabled = False

    def _read(self, stylesheet: str) -> tuple[str, bytes]:
        """The stylesheet's content digest and bytes, read again only when its stat changed.

        The modification time alone misses an edit made within the same tick of a coarse
        clock, or a copy that keeps the old time (``cp -p``, an unpacked archive). The size,
        the inode (a file renamed into place) and the change time (set by the system on every
        write; no tool sets it back) catch those; a stat costs microseconds, so the warm
        cached sheet stays fast. The digest, not the stat, says whether the content changed:
        a file only touched keeps its parsed stylesheet and its cached sheets.
        """
        status = os.stat(stylesheet)
        stat = (stylesheet, status.st_mtime_ns, status.st_size, status.st_ino, status.st_ctime_ns)
        with self._source_lock:
            if self._source is None or self._source[0] != stat:
                with open(stylesheet, "rb") as file:
                    data = file.read()
                # Written while read, the bytes may be newer than the stat: the next call
                # sees a new stat and reads (and hashes) the file again.
                self._source = (stat, hashlib.sha256(data).hexdigest(), data)
            return self._source[1], self._source[2]

    def css_key(self, stylesheet: str) -> str:
        """A fingerprint of the stylesheet's content: an edit to the file gives a new one."""
        return self._read(stylesheet)[0]

    def _parts(self, stylesheet: str) -> tuple[Any, Any]:
        """The parsed stylesheet and its font configuration; called with the lock held."""
        # Keyed by the file's content: an edited sheet.css shows without a restart.
        key, data = self._read(stylesheet)
        if self._css_key != key:
            # Imported here: WeasyPrint takes most of a second to import.
            from weasyprint import CSS  # type: ignore[import-untyped]
            from weasyprint.text.fonts import FontConfiguration  # type: ignore[import-untyped]

            if self._font_config is None:
                self._font_config = FontConfiguration()
            # WeasyPrint wants the stylesheets of a document parsed with its font configuration.
            # Parsed from the very bytes the key was made of, with the file's own base URL,
            # as WeasyPrint reads a file given by name.
            self._css = CSS(
                file_obj=io.BytesIO(data), base_url=stylesheet, font_config=self._font_config
            )
            self._css_key = key
            self.css_parses += 1
        return self._css, self._font_config

    def render(self, html: str, base_url: str, url_fetcher: Any, stylesheet: str) -> Any:
        """Lay out ``html`` with the stylesheet at ``stylesheet``: a WeasyPrint document."""
        from weasyprint import HTML

        # Parsing the HTML touches no font: it needs no lock.
        parsed = HTML(string=html, base_url=base_url, url_fetcher=url_fetcher)
        with self._lock:
            css, font_config = self._parts(stylesheet)
            return parsed.render(stylesheets=[css], font_config=font_config)

    def write(self, document: Any) -> bytes:
        """The PDF of a rendered document (embedding its fonts uses the shared configuration)."""
        with self._lock:
            pdf: bytes = document.write_pdf()
        return pdf

    @contextmanager
    def gc_paused(self) -> Iterator[None]:
        """Python's cyclic garbage collector off while any render runs.

        A render allocates hundreds of thousands of objects (boxes, styles, layout state) that
        live until it ends. Each 700 of them start a collection, and every tenth and hundredth
        of those walks the older generations, up to every object of the app: about a fifth of
        a filled sheet's CPU time, to free next to nothing. What a render leaves behind is
        collected as the collector comes back on, when the last render in progress ends
        (renders of several threads overlap, hence the count), and only if it was on before
        the first. The render's own document must be let go of by then: a collection that
        finds it still alive moves it with all its boxes into an older generation, collected
        ten times more rarely, and with the collector off during most of the work the
        server does when printing, a batch of sheets piled up there (4 MB a filled sheet,
        measured) before it ever ran. The youngest two generations are collected: what was
        made since the pause began, and what a render ending earlier (below) moved on.
        While others still run, a render that ends collects the youngest generation itself:
        with the collector off nothing ages, so that is exactly what was made since the pause
        began, and a steady stream of overlapping sheets never keeps a burst's garbage alive.
        """
        with self._gc_lock:
            if self._gc_renders == 0:
                self._gc_was_enabled = gc.isenabled()
                gc.disable()
            self._gc_renders += 1
        try:
            yield
        finally:
            with self._gc_lock:
                self._gc_renders -= 1
                if self._gc_was_enabled:
                    if self._gc_renders == 0:
                        gc.enable()
                        gc.collect(1)
                    else:
                        gc.collect(0)


press = _Press()


def _stylesheet() -> str:
    """The path of the sheets' stylesheet, ``css/sheet.css`` in the app's static folder."""
    return os.path.join(current_app.static_folder or "", "css", "sheet.css")


def _static_fetcher() -> Any:
    """A WeasyPrint URL fetcher that reads this app's static files from disk, and nothing else.

    The sheets link nothing (the press hands WeasyPrint the stylesheet), but anything a sheet
    ever refers to is read in-process: the app never fetches itself over HTTP (a
    single-threaded server would wait for itself forever), and a sheet can never make the
    server fetch anything from the network. (flask-weasyprint's fetcher does the same through
    a WSGI test client, but leaves every file it serves open.)
    """
    from weasyprint.urls import URLFetcher, URLFetcherResponse  # type: ignore[import-untyped]

    folder = current_app.static_folder
    host = request.host
    prefix = url_for("static", filename="")

    class StaticFetcher(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> Any:
            parts = urlsplit(url)
            if parts.netloc != host or not parts.path.startswith(prefix) or folder is None:
                raise ValueError(f"a sheet may only use the app's own static files, not {url}")
            path = safe_join(folder, unquote(parts.path[len(prefix) :]))
            if path is None or not os.path.isfile(path):
                raise ValueError(f"no static file at {url}")
            with open(path, "rb") as file:
                body = file.read()
            kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
            return URLFetcherResponse(url, body, {"Content-Type": kind})

    return StaticFetcher()


def _fitted(layout: Layout, document: Any) -> Layout:
    """A smaller layout for a sheet that spilled onto more pages: rows shrink by the excess."""
    page_mm = layout.paper.height_mm - 2 * MARGIN_MM
    end_mm = None
    for number_, page in enumerate(document.pages):
        for _level, label, (_x, y), _state in page.bookmarks:
            if label == END_MARK:
                end_mm = number_ * page_mm + y * PX_MM - MARGIN_MM
    if layout.row_mm <= MIN_ROW_MM:
        # The rows cannot shrink any more: the rest of the type has to.
        return replace(
            layout,
            font_pt=max(layout.font_pt * 0.9, 3.5),
            card_font_pt=max(layout.card_font_pt * 0.9, 4.0),
        )
    if end_mm is None or not layout.line_rows:
        return layout.with_row(layout.row_mm * 0.88)
    excess = end_mm - page_mm
    # A little more than the excess: the page broke between two rows, not inside one.
    return layout.with_row(
        min(layout.row_mm - excess / layout.line_rows - 0.1, layout.row_mm * 0.97)
    )


class _Cache:
    """A small least-recently-used cache of rendered sheets, safe across threads."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._items: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> bytes | None:
        with self._lock:
            pdf = self._items.get(key)
            if pdf is not None:
                self._items.move_to_end(key)
            return pdf

    def put(self, key: tuple[Any, ...], pdf: bytes) -> None:
        with self._lock:
            self._items[key] = pdf
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


blank_cache = _Cache()
# Filled sheets printed again: a second copy, the sheet downloaded on another tablet. A few
# dozen of 26-40 kB each.
game_cache = _Cache(size=32)


def rules_hash(rules: RuleSet) -> str:
    """A fingerprint of everything the rules say: any edit gives a new one."""
    text = json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def blank_sheet_pdf(rules: RuleSet, teams: int, paper: Paper, names: Sequence[str] = ()) -> bytes:
    """The blank sheet as a PDF, from the cache when these exact options were printed before."""
    # With the stylesheet's key: a sheet printed before sheet.css was edited is not served.
    css = press.css_key(_stylesheet())
    key = (rules_hash(rules), teams, paper.id, tuple(names), str(get_locale()), css)
    pdf = blank_cache.get(key)
    if pdf is None:
        sheet = blank_sheet(rules, teams, paper, names)
        pdf = _render_pdf("sheets/score.html", sheet.layout, sheet=sheet)
        # A stylesheet edited during the render may have printed this one: not kept.
        if press.css_key(_stylesheet()) == css:
            blank_cache.put(key, pdf)
    return pdf


def game_sheet_pdf(view: GameView, paper: Paper) -> bytes:
    """The sheet of a game as a PDF; printed again unchanged, from the cache.

    The cache is keyed by the page itself, not by the game: whatever changes the sheet (a
    deal entered or corrected, a renamed player, the paper, the language, an edited
    sheet.css) changes the key, so nothing has to tell the cache to forget a game. The
    price of a print from the cache is reading the game and writing its page (about as much
    as the game page), not laying it out.
    """
    sheet = game_sheet(view, paper)
    return _render_pdf("sheets/score.html", sheet.layout, cache=game_cache, sheet=sheet)


# ---------------------------------------------------------------------------
# Standings


_TEXT_COLUMNS = frozenset({"name", "player", "players", "team", "partnership", "rules"})


def _standings_label(key: str) -> str:
    labels = {
        "rank": "#",
        "name": _("Name"),
        "player": _("Player"),
        "team": _("Partnership"),
        "partnership": _("Partnership"),
        "players": _("Players"),
        "rules": _("Rules"),
        "games": _("Games"),
        "played": _("Played"),
        "wins": _("Wins"),
        "won": _("Won"),
        "ties": _("Ties"),
        "losses": _("Losses"),
        "points": _("Points"),
        "total": _("Total"),
        "average": _("Average"),
        "per_game": _("Points per game"),
        "best": _("Best"),
        "rating": _("Rating"),
        "win_rate": _("Win rate"),
    }
    return str(labels.get(key, key.replace("_", " ").capitalize()))


def _plain_row(row: Any) -> dict[str, Any]:
    if is_dataclass(row) and not isinstance(row, type):
        return asdict(row)
    if isinstance(row, Mapping):
        return dict(row)
    raise TypeError(f"a standings row must be a mapping or a dataclass, not {type(row)!r}")


@dataclass(frozen=True)
class StandingsTable:
    heading: str
    columns: list[tuple[str, str, bool]]  # key, label, numeric
    rows: list[list[str]]


def _standings_table(heading: str, rows: Sequence[Any]) -> StandingsTable | None:
    plain = [_plain_row(row) for row in rows]
    if not plain:
        return None
    keys = list(plain[0])
    # Names read from the left; every figure (numbers, "50%", "2.5") lines up on the right.
    numeric = {key: key not in _TEXT_COLUMNS for key in keys}

    def text(value: Any) -> str:
        if isinstance(value, bool):
            return str(_("yes") if value else _("no"))
        if isinstance(value, int):
            return number(value)
        if isinstance(value, float):
            return (
                number(round(value)) if value.is_integer() else f"{value:.1f}".replace("-", MINUS)
            )
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        return "" if value is None else str(value)

    return StandingsTable(
        heading=heading,
        columns=[(key, _standings_label(key), numeric[key]) for key in keys],
        rows=[[text(r.get(key)) for key in keys] for r in plain],
    )


def render_standings_pdf(
    title: str,
    players_rows: Sequence[Any],
    partnership_rows: Sequence[Any],
    chart_svg: str | None = None,
    paper: Paper = PAPERS["a4"],
) -> bytes:
    """A standings sheet from plain rows (mappings or dataclasses, one key per column).

    The columns are the first row's keys, in order. ``chart_svg`` must be SVG markup the
    app made itself (it is inserted as is); every row value is escaped. Needs a request
    context (the stylesheet is read through the app).
    """
    tables = [
        table
        for table in (
            _standings_table(_("Players"), players_rows),
            _standings_table(_("Partnerships"), partnership_rows),
        )
        if table is not None
    ]
    with press.gc_paused():
        return _standings_fitted(
            title=title,
            tables=tables,
            chart=Markup(chart_svg) if chart_svg else None,
            paper=paper,
        )


# A season of many partnerships spills onto a second page: its type and chart are printed
# smaller, step by step, until it fits (or, at the last step, runs on: still readable).
STANDINGS_SCALES = (1.0, 0.85, 0.72, 0.62)


def _standings_fitted(**context: Any) -> bytes:
    fetcher, stylesheet = _static_fetcher(), _stylesheet()
    for scale in STANDINGS_SCALES:
        html = render_template("sheets/standings.html", scale=scale, **context)
        document = press.render(html, request.url, fetcher, stylesheet)
        if len(document.pages) <= 1:
            break
    return bytes(press.write(document))


# ---------------------------------------------------------------------------
# The response


def pdf_response(pdf: bytes, filename: str) -> Response:
    from io import BytesIO

    response = send_file(BytesIO(pdf), mimetype="application/pdf", download_name=filename)
    # Quoted, as every browser expects; the names are built from safe characters only.
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
