"""The game pages' forms: starting a game, entering or correcting a deal.

Plain ``request.form`` parsing: the deal form's inputs depend on the game's rules and its
number of teams, which a static WTForms class cannot describe well. CSRFProtect checks
every POST; the templates carry ``csrf_token()``.

Input names are stable so scripts can enhance the pages: a team's field is
``t<team>-<field>`` (``t0-clean_books``, ``t1-melded-jokers``, ``t0-special_books-sevens``),
the mode of a card entry ``t0-melded_mode`` (points | counts), who went out ``went_out``
(a team index or ``none``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from flask_babel import get_translations, gettext
from flask_babel import ngettext as _ngettext
from werkzeug.datastructures import MultiDict

from scorekeeper.messages import say
from scorekeeper.models import Season
from scorekeeper.rules import (
    BOUNDS,
    CardClass,
    PlayStyle,
    Problem,
    RuleSet,
    TeamTally,
)
from scorekeeper.rules.i18n import N_, NP_
from scorekeeper.rules.tally import NAME_LONGEST
from scorekeeper.services.games import TeamSpec

from . import rules_text


def _(message: str, **params: Any) -> str:
    """gettext, typed: Flask-Babel has no type hints."""
    return str(gettext(message, **params))


def ngettext(singular: str, plural: str, num: int, **params: Any) -> str:
    return str(_ngettext(singular, plural, num, **params))


MAX_TEAMS = BOUNDS["teams"][1]
# Partnerships of up to four are possible in house rules; the presets use two or three.
MAX_TEAM_SIZE = 4
STOCK_OUT = "none"
POINTS, COUNTS = "points", "counts"
CARD_ENTRIES = ("melded", "left")

# The texts (msgids) of the fields' labels, translated where they are shown.
FIELD_LABELS: Mapping[str, str] = {
    "clean_books": N_("Clean books"),
    "dirty_books": N_("Dirty books"),
    "wild_books": N_("Wild books"),
    "black_three_books": N_("Black-three books"),
    "special_books": N_("Special books"),
    "red_threes": N_("Red threes laid"),
    "red_threes_caught": N_("Red threes caught"),
    "melded": N_("Cards melded"),
    "left": N_("Cards left in hand and foot"),
    "went_out": N_("Who went out"),
    "opening_meld": N_("Opening meld"),
    "exact_draws": N_("Exact draws"),
}


def card_label(card: CardClass) -> str:
    """A card class as the rules card names it, e.g. "Jokers", "8, 9, 10, J, Q, K"."""
    return str(rules_text.card_labels()[card])


def field_name(team: int, where: str) -> str:
    """The input of one team's field: ``t0-clean_books``, ``t1-melded-jokers``."""
    return f"t{team}-{where.replace('.', '-')}"


def mode_name(team: int, entry: str) -> str:
    return f"t{team}-{entry}_mode"


def field_label(rules: RuleSet, where: str) -> str:
    """A field as the table calls it, e.g. ``melded.jokers`` → "Cards melded: jokers"."""
    head, _dot, rest = where.partition(".")
    if head == "special_books" and rest:
        book = rules.special_book(rest)
        return book.name if book else rest
    label = _(FIELD_LABELS[head]) if head in FIELD_LABELS else head
    if rest:
        try:
            card = CardClass(rest)
        except ValueError:
            return f"{label}: {rest}"
        return _("%(entry)s: %(cards)s", entry=label, cards=card_label(card))
    return label


def message(rules: RuleSet, problem: Problem) -> str:
    """The problem in words: the field named as the form labels it, not as the API spells it."""
    where = problem.params.get("field")
    if isinstance(where, str):
        problem = replace(problem, params={**problem.params, "field": field_label(rules, where)})
    return say(problem)


def _number(raw: str | None, *, blank: int | None = 0) -> Any:
    """A typed number for the rules reader: digits become an int, anything else stays text.

    Text is left for :func:`scorekeeper.rules.read_team`, which reports it as not a whole
    number; huge numbers are capped so the reader reports them as out of bounds.
    """
    text = (raw or "").strip()
    if not text:
        return blank
    if re.fullmatch(r"[+-]?[0-9]+", text):
        if len(text.lstrip("+-")) > 9:
            return -(10**9) if text.startswith("-") else 10**9
        return int(text)
    return text


# ---------------------------------------------------------------------------
# The deal form


@dataclass(frozen=True)
class NumberInput:
    where: str  # the scoring API's field, e.g. "melded.jokers"
    name: str  # the input's name and id
    label: str
    low: int
    high: int
    hint: str = ""
    # A card counter's points a card, as the subtotal of the cards counted adds them.
    value: int | None = None


@dataclass(frozen=True)
class CardEntry:
    """Melded or left cards: a point total, or a count per card class."""

    entry: str  # "melded" | "left"
    label: str
    mode: str  # the radio group's name
    points: NumberInput
    counts: list[NumberInput]


@dataclass(frozen=True)
class TeamInputs:
    index: int
    name: str
    players: list[str]
    books: list[NumberInput]
    threes: list[NumberInput]
    cards: list[CardEntry]
    extras: list[NumberInput]

    @property
    def numbers(self) -> list[NumberInput]:
        return [*self.books, *self.threes, *self.extras]


def _input(
    team: int, where: str, label: str, bounds: str, hint: str = "", value: int | None = None
) -> NumberInput:
    low, high = BOUNDS[bounds]
    return NumberInput(where, field_name(team, where), label, low, high, hint, value)


@dataclass(frozen=True)
class FormTexts:
    """The deal form's words in the request's language, looked up once per form.

    Every ``gettext`` finds the request's catalogue again (some 25 µs each); a deal form of
    two teams has about 60 labels and hints, nearly all the same for every team.
    """

    fields: dict[str, str]
    cards: dict[CardClass, str]
    points: str
    each: str  # "%(points)d each", filled in for each card class
    hidden: str  # red threes caught, where they are laid at once
    held: str  # red threes caught, where they are discarded
    black_melded: str  # "%(points)s": melded black 3s, taken off apart from the rest
    black_points: str  # the melded points, where black-three books take their black 3s off
    opening: str
    opening_alone: str  # for a player alone
    exact: str  # "%(cards)d" and "%(bonus)d" filled in from the rules

    @classmethod
    def now(cls) -> FormTexts:
        word = get_translations().ugettext
        return cls(
            fields={name: word(msgid) for name, msgid in FIELD_LABELS.items()},
            cards=rules_text.card_labels(),
            points=word(N_("Points")),
            each=word(N_("%(points)d each")),
            hidden=word(N_("Still hidden in a foot never picked up.")),
            held=word(
                N_("Every red three still held when the deal ends, in the hand or in a foot.")
            ),
            black_melded=word(N_("%(points)s each, taken off apart from the points counted.")),
            black_points=word(N_("Without the black 3s: each black-three book takes off its own.")),
            opening=word(N_("Optional: the points of the team's first meld.")),
            opening_alone=word(N_("Optional: the points of the player's first meld.")),
            exact=word(
                N_(
                    "Players who picked up exactly %(cards)d cards in their first grab at the "
                    "deal: +%(bonus)d each."
                )
            ),
        )


def team_inputs(
    rules: RuleSet, index: int, name: str, players: list[str], texts: FormTexts
) -> TeamInputs:
    """The inputs one team fills in after a deal, only those its rules can use."""
    labels = texts.fields

    def number(where: str, hint: str = "") -> NumberInput:
        return _input(index, where, labels[where], where, hint)

    books = [number("clean_books"), number("dirty_books")]
    if rules.wild_books:
        books.append(number("wild_books"))
    if rules.black_three_books:
        books.append(number("black_three_books"))
    for book in rules.special_books:
        books.append(_input(index, f"special_books.{book.id}", book.name, "special_books"))
    threes = []
    if rules.red_threes_laid:
        threes.append(number("red_threes"))
    threes.append(
        number("red_threes_caught", texts.hidden if rules.red_threes_laid else texts.held)
    )
    cards = []
    for entry in CARD_ENTRIES:
        classes = [
            card
            for card in CardClass
            # Black threes are melded only in black-three books.
            if entry == "left" or card is not CardClass.BLACK_THREES or rules.black_three_books
        ]
        # Melded black 3s count against the team, apart from the melded points: those leave
        # them out, each black-three book taking its own off (scoring.melded_black_threes).
        apart = entry == "melded" and rules.black_three_books and rules.card_values.black_threes
        counts = []
        for card in classes:
            if apart and card is CardClass.BLACK_THREES:
                off = rules_text.signed(-rules.card_values.black_threes)
                hint, value = texts.black_melded % {"points": off}, 0
            else:
                value = rules.card_values.of(card)
                hint = texts.each % {"points": value}
            where = f"{entry}.{card.value}"
            counts.append(_input(index, where, texts.cards[card], "cards", hint, value))
        cards.append(
            CardEntry(
                entry=entry,
                label=labels[entry],
                mode=mode_name(index, entry),
                points=_input(
                    index, entry, texts.points, "points", texts.black_points if apart else ""
                ),
                counts=counts,
            )
        )
    extras = [number("opening_meld", texts.opening_alone if len(players) == 1 else texts.opening)]
    if rules.exact_draw_bonus:
        dealt = rules.hand_cards + rules.foot_cards
        exact = texts.exact % {"cards": dealt, "bonus": rules.exact_draw_bonus}
        draws = number("exact_draws", exact)
        # One exact draw a player at most: a player alone steps from 0 to 1.
        if players:
            draws = replace(draws, high=min(draws.high, len(players)))
        extras.append(draws)
    return TeamInputs(index, name, players, books, threes, cards, extras)


@dataclass
class DealForm:
    """The deal form's inputs, what is in them, and what is wrong with them."""

    rules: RuleSet
    number: int
    teams: list[TeamInputs]
    values: dict[str, str] = field(default_factory=dict)
    errors: dict[str, list[str]] = field(default_factory=dict)
    # (message, input to jump to or None), in the order found.
    summary: list[tuple[str, str | None]] = field(default_factory=list)
    version: int | None = None

    def value(self, name: str) -> str:
        return self.values.get(name, "")

    def counted(self, entry: CardEntry) -> bool:
        """Whether the entry's cards are read from its counts: counting was chosen, or
        counts were typed and the total left blank (a forgotten switch is forgiven)."""
        if self.values.get(entry.mode) == COUNTS:
            return True
        counts_typed = any(self.value(count.name).strip() for count in entry.counts)
        return counts_typed and not self.value(entry.points.name).strip()

    @property
    def went_out(self) -> str:
        return self.values.get("went_out", "")

    @property
    def known_names(self) -> set[str]:
        names = {"went_out"}
        for team in self.teams:
            names.update(number.name for number in team.numbers)
            for entry in team.cards:
                names.add(entry.mode)
                names.add(entry.points.name)
                names.update(count.name for count in entry.counts)
        return names

    def add_problems(self, problems: Sequence[Problem]) -> None:
        """Show each problem next to its input, and all of them in the summary."""
        known = self.known_names
        for problem in problems:
            text = listed = message(self.rules, problem)
            if (
                problem.team is not None
                and "team" not in problem.params
                and (0 <= problem.team < len(self.teams))
            ):
                # "Cards left must be between 0 and 20000.": beside the box, in the team's
                # column, that is clear; the summary says whose it is.
                team = self.teams[problem.team].name
                listed = _("%(team)s: %(problem)s", team=team, problem=text)
            target: str | None = None
            if problem.field == "went_out":
                target = "went_out"
            elif problem.team is not None:
                name = field_name(problem.team, problem.field)
                target = name if name in known else None
            if target is not None:
                self.errors.setdefault(target, []).append(text)
            self.summary.append((listed, self._link(target)))

    def _link(self, target: str | None) -> str | None:
        """Where the summary sends the player: a total that was counted card by card is
        out of sight (the counters stand in for it), so the first counter filled in."""
        for team in self.teams:
            for entry in team.cards:
                if entry.points.name == target and entry.counts and self.counted(entry):
                    filled = (c for c in entry.counts if self.value(c.name).strip())
                    return next(filled, entry.counts[0]).name
        return target

    def entry_errors(self, entry: CardEntry) -> list[str]:
        """Problems with a card entry as a whole (its total), shown beside the group."""
        return self.errors.get(entry.points.name, [])


def deal_form(
    rules: RuleSet,
    number: int,
    team_names: Sequence[str],
    team_players: Sequence[list[str]],
) -> DealForm:
    texts = FormTexts.now()
    teams = [
        team_inputs(rules, i, name, list(players), texts)
        for i, (name, players) in enumerate(zip(team_names, team_players, strict=True))
    ]
    return DealForm(rules=rules, number=number, teams=teams)


def fill_from_tallies(form: DealForm, tallies: Sequence[TeamTally], version: int) -> None:
    """Put a saved deal into the form, to be corrected."""
    values: dict[str, str] = {}
    for team, tally in zip(form.teams, tallies, strict=True):
        data = tally.to_json()
        for number in team.numbers:
            head, _dot, rest = number.where.partition(".")
            if head == "special_books":
                values[number.name] = str(tally.special_books.get(rest, 0))
            elif head == "opening_meld":
                values[number.name] = "" if tally.opening_meld is None else str(tally.opening_meld)
            else:
                values[number.name] = str(data[head])
        for entry in team.cards:
            cards = getattr(tally, entry.entry)
            if cards.counted:
                values[entry.mode] = COUNTS
                for count in entry.counts:
                    card = CardClass(count.where.partition(".")[2])
                    values[count.name] = str(cards.count(card))
            else:
                values[entry.mode] = POINTS
                values[entry.points.name] = str(cards.points or 0)
    out = [i for i, tally in enumerate(tallies) if tally.went_out]
    values["went_out"] = str(out[0]) if out else STOCK_OUT
    form.values = values
    form.version = version


def read_deal_form(
    form: DealForm, data: Mapping[str, str]
) -> tuple[list[dict[str, Any]], list[Problem]]:
    """The typed values kept in ``form``; each team's tally as the scoring API's mapping.

    Blank boxes count as 0 (the opening meld: not reported). The problems returned are
    only those of the form itself (who went out); the rules reader judges the numbers.
    """
    known = form.known_names
    form.values = {name: str(data.get(name, "")) for name in known if name in data}
    problems: list[Problem] = []
    choice = form.went_out
    choices = {STOCK_OUT, *(str(team.index) for team in form.teams)}
    if choice not in choices:
        alone = all(len(team.players) == 1 for team in form.teams)
        problems.append(
            Problem(
                None,
                "went_out",
                N_("Choose the player who went out, or that the stock ran out.")
                if alone
                else N_("Choose the team that went out, or that the stock ran out."),
                {},
            )
        )
    items: list[dict[str, Any]] = []
    for team in form.teams:
        item: dict[str, Any] = {"name": team.name, "went_out": choice == str(team.index)}
        special: dict[str, Any] = {}
        for number in team.numbers:
            head, _dot, rest = number.where.partition(".")
            raw = form.value(number.name)
            if head == "special_books":
                special[rest] = _number(raw)
            elif head == "opening_meld":
                item[head] = _number(raw, blank=None)
            else:
                item[head] = _number(raw)
        if special:
            item["special_books"] = special
        for entry in team.cards:
            item[entry.entry] = _cards(form, entry)
        items.append(item)
    return items, problems


def _cards(form: DealForm, entry: CardEntry) -> Any:
    if form.counted(entry):
        return {
            count.where.partition(".")[2]: _number(form.value(count.name)) for count in entry.counts
        }
    return _number(form.value(entry.points.name))


# ---------------------------------------------------------------------------
# Starting a game


@dataclass(frozen=True)
class Seating:
    teams: int
    size: int

    @property
    def key(self) -> str:
        return f"{self.teams}x{self.size}"

    @property
    def players(self) -> int:
        return self.teams * self.size

    def label(self) -> str:
        if self.size == 1:
            return _("%(players)d players, each alone", players=self.players)
        return _(
            "%(players)d players: %(teams)d teams of %(size)d",
            players=self.players,
            teams=self.teams,
            size=self.size,
        )


def seatings(rules: RuleSet) -> list[Seating]:
    """Every way these rules seat a table that the form has rows for."""
    found = []
    for players in range(rules.min_players, rules.max_players + 1):
        for teams, size in rules.seatings(players):
            if teams <= MAX_TEAMS and size <= MAX_TEAM_SIZE:
                found.append(Seating(teams, size))
    return found


def default_seating(rules: RuleSet) -> Seating:
    options = seatings(rules)
    if not options:
        return Seating(2, 1)
    players = 4 if rules.play_style is PlayStyle.PARTNERSHIPS else 3
    return next((s for s in options if s.players == players), options[0])


def pick_seating(rules: RuleSet, key: str | None) -> Seating:
    """The seating asked for, if these rules allow it; otherwise one of as many players
    (four partners become four players alone under rules where everyone plays alone, and
    nobody typed in loses a seat); otherwise the usual one."""
    options = seatings(rules)
    asked = next((s for s in options if s.key == key), None)
    if asked is not None:
        return asked
    teams, _x, size = (key or "").partition("x")
    if teams.isascii() and teams.isdigit() and size.isascii() and size.isdigit():
        players = int(teams) * int(size)
        same = next((s for s in options if s.players == players), None)
        if same is not None:
            return same
    return default_seating(rules)


def player_name(team: int, seat: int) -> str:
    return f"t{team}-p{seat}"


@dataclass
class NewGameForm:
    rulesets: list[RuleSet]
    rules: RuleSet
    seating: Seating
    seasons: list[Season]
    known_players: list[str]
    values: dict[str, str] = field(default_factory=dict)
    errors: dict[str, list[str]] = field(default_factory=dict)
    summary: list[tuple[str, str | None]] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)

    def value(self, name: str) -> str:
        return self.values.get(name, "")

    @property
    def seatings(self) -> list[Seating]:
        return seatings(self.rules)

    @property
    def seats(self) -> list[tuple[int, int, int]]:
        """(seat, team, player) around the table: partners sit apart, teams alternate."""
        return [
            (player * self.seating.teams + team, team, player)
            for player in range(self.seating.size)
            for team in range(self.seating.teams)
        ]

    @property
    def name_inputs(self) -> list[str]:
        """The players' name boxes, team by team, as the page lays them out."""
        return [
            player_name(team, player)
            for team in range(self.seating.teams)
            for player in range(self.seating.size)
        ]

    def keep_left_out(self, names: Sequence[str]) -> None:
        """Names typed for seats the table no longer has, kept to seat again (at most as
        many as the largest table has seats)."""
        kept = [name.strip()[:NAME_LONGEST] for name in names if name.strip()]
        self.left_out = kept[: MAX_TEAMS * MAX_TEAM_SIZE]

    @property
    def left_out_notice(self) -> str:
        """Who was typed in but has no seat at this table, in words; empty when nobody."""
        if not self.left_out:
            return ""
        return ngettext(
            "No seat at this table for %(names)s: choose more players above to seat them again.",
            "No seats at this table for %(names)s: choose more players above to seat them again.",
            len(self.left_out),
            names=and_list(self.left_out),
        )

    def carry_over(self, typed: MultiDict[str, str]) -> None:
        """What was typed before the table was set again for other rules or seats (the
        page's script sends it along): each ``player`` name into the boxes in the same
        order (those beyond them kept as ``left_out``), the date and the season, and the team
        names while the teams stay as they were (``seated``, the seating the names were typed
        for: players regrouped are other teams).
        Nothing is checked here: the game is started by the form's POST, which checks
        everything."""
        players = typed.getlist("player")
        carried = dict(zip(self.name_inputs, players, strict=False))
        # Names typed for seats this table no longer has: the page says who they are.
        self.keep_left_out(players[len(self.name_inputs) :])
        if typed.get("seated") == self.seating.key:
            names = (f"t{team}-name" for team in range(self.seating.teams))
            carried.update((name, typed[name]) for name in names if typed.get(name))
        carried.update((key, typed[key]) for key in ("played_on", "season") if key in typed)
        self.values.update((key, value[: NAME_LONGEST * 4]) for key, value in carried.items())

    def blank_seats(self) -> Problem | None:
        """Seats of the table chosen left without a name while others have one: the table
        sat down as it chose, so a seat is forgotten (two pairs with one name each are not
        two players alone: the decks and the partnerships would be wrong)."""
        blank = sum(1 for name in self.name_inputs if not self.value(name).strip())
        named = len(self.name_inputs) - blank
        if not blank or not named:
            return None  # nobody named: each team is told it needs a player
        # Another table of as many players as were named, where the rules seat one.
        seatable = self.rules.min_players <= named <= self.rules.max_players
        if seatable and self.rules.seatings(named):
            template = NP_(
                "%(num)d seat has no name: fill it in, or choose a table of %(count)d "
                "players above.",
                "%(num)d seats have no name: fill them in, or choose a table of %(count)d "
                "players above.",
                "num",
            )
        else:
            template = NP_(
                "%(num)d seat has no name: fill it in.",
                "%(num)d seats have no name: fill them in.",
                "num",
            )
        return Problem(None, BLANK_SEATS, template, {"num": blank, "count": named})

    def add_problems(self, problems: Sequence[Problem]) -> None:
        for problem in problems:
            text = say(problem)
            if problem.field == BLANK_SEATS:
                # Said with the names, its link on the first empty seat.
                self.errors.setdefault("players", []).append(text)
                empty = next(name for name in self.name_inputs if not self.value(name).strip())
                self.summary.append((text, empty))
                continue
            target = _new_game_target(problem.field)
            if target is not None:
                self.errors.setdefault(target, []).append(text)
            self.summary.append((text, target))


_TEAM_FIELD = re.compile(r"teams\[(\d+)\]\.(players|name)")
BLANK_SEATS = "seats"  # a new-game problem's field: seats of the table chosen left empty


def _new_game_target(where: str) -> str | None:
    if match := _TEAM_FIELD.fullmatch(where):
        index, part = match.groups()
        return f"t{index}-players" if part == "players" else f"t{index}-name"
    return {
        "teams": "players",
        "ruleset": "ruleset",
        "season": "season",
        "played_on": "played_on",
        "first_dealer_seat": "first_dealer",
    }.get(where)


@dataclass(frozen=True)
class NewGame:
    ruleset: str
    teams: list[TeamSpec]
    season_id: int | None
    played_on: date | None
    first_dealer_seat: int


def read_new_game(form: NewGameForm, data: Mapping[str, str]) -> tuple[NewGame, list[Problem]]:
    """What the start form asks for, and what in it is not even well formed."""
    names = ["ruleset", "seating", "season", "played_on", "first_dealer"]
    for team in range(MAX_TEAMS):
        names.append(f"t{team}-name")
        names.extend(player_name(team, seat) for seat in range(MAX_TEAM_SIZE))
    # Cut absurdly long text before it is echoed back into the form.
    form.values = {name: str(data[name])[: NAME_LONGEST * 4] for name in names if name in data}
    problems: list[Problem] = []

    teams = []
    for index in range(MAX_TEAMS):
        players = [form.value(player_name(index, seat)) for seat in range(MAX_TEAM_SIZE)]
        team_name = form.value(f"t{index}-name")
        # Rows beyond the chosen seating count only when someone typed into them.
        if index < form.seating.teams or team_name.strip() or any(p.strip() for p in players):
            teams.append(TeamSpec(name=team_name, players=players))

    season_id: int | None = None
    season = form.value("season").strip()
    if season:
        if season.isascii() and season.isdigit() and len(season) < 10:
            season_id = int(season)
        else:
            problems.append(Problem(None, "season", N_("Choose a season from the list."), {}))

    played_on: date | None = None
    raw_date = form.value("played_on").strip()
    if raw_date:
        try:
            played_on = date.fromisoformat(raw_date)
        except ValueError:
            problems.append(
                Problem(
                    None, "played_on", N_("Give the date as year-month-day, e.g. 2026-11-29."), {}
                )
            )

    dealer = form.value("first_dealer").strip() or "0"
    first_dealer = 0
    if dealer.isascii() and dealer.isdigit() and len(dealer) < 4:
        first_dealer = int(dealer)
    else:
        problems.append(
            Problem(
                None,
                "first_dealer_seat",
                N_("The first dealer must be one of the players."),
                {},
            )
        )
    game = NewGame(
        ruleset=form.value("ruleset") or form.rules.id,
        teams=teams,
        season_id=season_id,
        played_on=played_on,
        first_dealer_seat=first_dealer,
    )
    return game, problems


# ---------------------------------------------------------------------------
# Words for the sheet


def books_phrase(clean: int, dirty: int, wild: int) -> str:
    parts = []
    if clean:
        parts.append(ngettext("%(num)d clean book", "%(num)d clean books", clean))
    if dirty:
        parts.append(ngettext("%(num)d dirty book", "%(num)d dirty books", dirty))
    if wild:
        parts.append(ngettext("%(num)d wild book", "%(num)d wild books", wild))
    if not parts:
        return _("no books")
    return and_list(parts)


def and_list(parts: Sequence[str]) -> str:
    """ "Ann", "Ann and Ben", "Ann, Ben and Cid": at least one part."""
    if len(parts) == 1:
        return parts[0]
    return _("%(some)s and %(last)s", some=", ".join(parts[:-1]), last=parts[-1])


def go_out_phrase(
    rules: RuleSet, number: int, books: str | None = None, *, alone: bool = False
) -> str:
    """What going out needs in deal ``number``, in a sentence (``books``: said already;
    ``alone``: everyone at the table plays alone, so nobody has a partner to wait for)."""
    deal = rules.deal(number)
    need = books or books_phrase(deal.go_out.clean, deal.go_out.dirty, deal.go_out.wild)
    extra = []
    partners = rules.has_partners(alone=alone)
    if partners and rules.partner_in_foot_to_go_out:
        extra.append(_("the partner has played from the foot"))
    if partners and rules.permission_to_go_out:
        extra.append(_("the partner gave permission"))
    if rules.must_discard_to_go_out:
        extra.append(_("a last card is discarded"))
    if not deal.go_out:
        sentence = _("Going out needs no books.")
    else:
        sentence = _("Going out needs %(books)s.", books=need)
    if extra:
        more = rules_text.semicolon_list(extra)
        sentence = _("%(sentence)s Also: %(more)s.", sentence=sentence, more=more)
    return sentence
