"""The house-rules editor's form: every field of a RuleSet, in words a card player reads.

The form only checks what it must to build the overrides (numbers are numbers, a name is
there); whether the rules make sense is the rules core's call, made through
``services.rulesets``. Its problems come back onto the fields with :meth:`apply_problems`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import (  # type: ignore[import-untyped]
    BooleanField,
    Field,
    FieldList,
    FormField,
    HiddenField,
    IntegerField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.validators import (  # type: ignore[import-untyped]
    InputRequired,
    Length,
    Optional,
    ValidationError,
)
from wtforms.widgets import CheckboxInput, ListWidget  # type: ignore[import-untyped]

from scorekeeper.messages import say
from scorekeeper.rules import PRESETS, BookKind, CardClass, PlayStyle, Problem, RuleSet, WildLimit
from scorekeeper.rules.ruleset import MOST_DECKS
from scorekeeper.services.names import name_key, visible

from . import rules_text
from .forms import AppForm, SubForm

# Rows the page shows: deals beyond the deal count are ignored, so a table can add a
# fifth deal without JavaScript. Saved rules with more deals get more rows.
DEAL_ROWS = 8
SPECIAL_BOOK_ROWS = 3

# The bounds of scorekeeper/rules/ruleset.py (its _Reader and check_ruleset), repeated as
# HTML min/max so the tablet's keyboard refuses what the rules core would refuse anyway.
# tests/web/test_house_rules.py checks that they match.
BOUNDS: dict[str, tuple[int, int]] = {
    "deal_count": (1, 12),
    "opening_minimum": (0, 5000),
    "go_out": (0, 20),
    # Every card that can be melded must be worth something; black threes may be free.
    "card_value": (1, 1000),
    "black_three_value": (0, 1000),
    "bonus": (0, 10_000),
    "special_bonus": (0, 10_000),
    "special_min_points": (0, 5000),
    "book_size": (3, 13),
    "min_naturals": (1, 12),
    "players": (2, 10),
    "extra_decks": (0, MOST_DECKS - 2),  # two players at the least: 20 decks at the most
    "decks_bound": (0, MOST_DECKS),
    "cards": (1, 30),
    "discard_pickup": (1, 100),
}
NAME_LONGEST = 80
DESCRIPTION_LONGEST = 2000
SOURCE_LONGEST = 200
BOOK_ID_LONGEST = 63
BOOK_NAME_LONGEST = 80
PARTNERSHIP_SIZES = (2, 3, 4)

_REQUIRED = _l("Fill in a number.")


def _number(label: Any, bounds: str, *, required: bool = True) -> Any:
    low, high = BOUNDS[bounds]
    validators = [InputRequired(message=_REQUIRED)] if required else [Optional()]
    return IntegerField(label, validators, render_kw={"min": low, "max": high, "step": 1})


class MultiCheckboxField(SelectMultipleField):  # type: ignore[misc]
    """A row of checkboxes: easier to tap than a multiple select."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class GoOutForm(SubForm):
    # Left empty means none: most deals ask for one or two kinds only.
    clean = _number(_l("Clean books"), "go_out", required=False)
    dirty = _number(_l("Dirty books"), "go_out", required=False)
    wild = _number(_l("Wild books"), "go_out", required=False)


class DealForm(SubForm):
    # Required only for the deals in play; HouseRulesForm.validate checks it.
    opening_minimum = _number(_l("Opening minimum"), "opening_minimum", required=False)
    opening_needs_concealed_book = BooleanField(_l("The opening must be a concealed book"))
    go_out = FormField(GoOutForm, label=_l("Going out needs"))


class CardValuesForm(SubForm):
    jokers = _number(_l("Jokers"), "card_value")
    twos = _number(_l("2s"), "card_value")
    aces = _number(_l("Aces"), "card_value")
    eights_to_kings = _number(_l("8, 9, 10, J, Q, K"), "card_value")
    fours_to_sevens = _number(_l("4, 5, 6, 7"), "card_value")
    black_threes = _number(_l("Black 3s"), "black_three_value")


class SpecialBookForm(SubForm):
    name = StringField(
        _l("Name of the book"),
        [Optional(), Length(max=BOOK_NAME_LONGEST)],
        render_kw={"maxlength": BOOK_NAME_LONGEST},
    )
    id = StringField(
        _l("Short name for the score sheet"),
        [Optional(), Length(max=BOOK_ID_LONGEST)],
        render_kw={"maxlength": BOOK_ID_LONGEST, "autocapitalize": "none"},
    )
    bonus = _number(_l("Bonus"), "special_bonus", required=False)
    min_points = _number(_l("Its cards are worth at least"), "special_min_points", required=False)
    counts_as = SelectField(
        _l("Counts for going out as"),
        choices=[
            SelectChoice("", _l("nothing")),
            SelectChoice(BookKind.CLEAN.value, _l("a clean book")),
            SelectChoice(BookKind.DIRTY.value, _l("a dirty book")),
            SelectChoice(BookKind.WILD.value, _l("a wild book")),
        ],
    )

    def is_blank(self) -> bool:
        """Nothing typed in this row (it is then ignored)."""
        typed = [
            field.raw_data[0] if field.raw_data else ""
            for field in (self.name, self.id, self.bonus, self.min_points)
        ]
        return not any(str(text).strip() for text in typed) and not self.counts_as.data


class HouseRulesForm(AppForm):
    # The rules' own name when they are edited: keeping it is never refused.
    own_name: str | None = None
    # The rules the new house rules start from (a preset id or a house-rules slug).
    base = HiddenField()
    name = StringField(
        _l("Name"),
        [
            InputRequired(message=_l("House rules need a name.")),
            Length(max=NAME_LONGEST),
        ],
        render_kw={"maxlength": NAME_LONGEST, "autocomplete": "off"},
    )
    description = TextAreaField(
        _l("Description"),
        [Optional(), Length(max=DESCRIPTION_LONGEST)],
        render_kw={"maxlength": DESCRIPTION_LONGEST, "rows": 3},
    )
    source = StringField(
        _l("Where these rules come from"),
        [Optional(), Length(max=SOURCE_LONGEST)],
        render_kw={"maxlength": SOURCE_LONGEST},
    )

    deal_count = _number(_l("Number of deals"), "deal_count")
    deals = FieldList(FormField(DealForm), min_entries=DEAL_ROWS)

    card_values = FormField(CardValuesForm, label=_l("Card values"))

    book_size = _number(_l("Cards in a book"), "book_size")
    books_may_grow = BooleanField(_l("Books may grow past that size"))
    one_meld_per_rank = BooleanField(_l("Only one meld of each rank (no second book of a rank)"))
    wild_limit = SelectField(
        _l("Wild cards in a meld"),
        choices=[
            SelectChoice(
                WildLimit.TWICE_AS_MANY_NATURALS.value,
                _l("At least twice as many natural cards as wild cards"),
            ),
            SelectChoice(WildLimit.MORE_NATURALS.value, _l("More natural cards than wild cards")),
            SelectChoice(
                WildLimit.MIN_NATURALS.value, _l("Wild cards only beside enough natural cards")
            ),
        ],
    )
    min_naturals = _number(
        _l("Natural cards needed beside wild cards"), "min_naturals", required=False
    )

    clean_book_bonus = _number(_l("Clean book bonus"), "bonus")
    dirty_book_bonus = _number(_l("Dirty book bonus"), "bonus")
    wild_books = BooleanField(_l("Wild books (wild cards only) exist"))
    wild_book_bonus = _number(_l("Wild book bonus"), "bonus", required=False)
    black_three_books = BooleanField(_l("Black-three books exist"))
    black_three_book_bonus = _number(_l("Black-three book bonus"), "bonus", required=False)
    special_books = FieldList(FormField(SpecialBookForm), min_entries=SPECIAL_BOOK_ROWS)

    red_threes_laid = BooleanField(_l("Red threes are laid face up for a bonus"))
    red_three_bonus = _number(_l("Bonus for each red three laid"), "bonus")
    red_three_penalty = _number(_l("Penalty for each red three caught"), "bonus")

    going_out_bonus = _number(_l("Going-out bonus"), "bonus")
    partner_in_foot_to_go_out = BooleanField(_l("The partner must have played from their foot"))
    permission_to_go_out = BooleanField(_l("Ask the partner's permission to go out"))
    must_discard_to_go_out = BooleanField(_l("The last card must be discarded"))
    exact_draw_bonus = _number(
        _l("Bonus for picking up exactly the right number of cards"), "bonus", required=False
    )

    play_style = SelectField(
        _l("Play"),
        choices=[
            SelectChoice(PlayStyle.PARTNERSHIPS.value, _l("In partnerships")),
            SelectChoice(PlayStyle.INDIVIDUALS.value, _l("Every player alone")),
        ],
    )
    partnership_sizes = MultiCheckboxField(
        _l("Team sizes"),
        coerce=int,
        choices=[
            SelectChoice(size, _l("teams of %(num)d", num=size)) for size in PARTNERSHIP_SIZES
        ],
        validate_choice=True,
    )
    alone_when_unpaired = BooleanField(_l("Players who cannot pair up play alone"))
    alone_by_choice = BooleanField(_l("Players who could pair up may also each play alone"))
    min_players = _number(_l("Fewest players"), "players")
    max_players = _number(_l("Most players"), "players")
    extra_decks = _number(_l("Decks besides one per player"), "extra_decks")
    # Left empty means no bound, as 0 does.
    min_decks = _number(_l("Fewest decks"), "decks_bound", required=False)
    max_decks = _number(_l("Most decks"), "decks_bound", required=False)
    hand_cards = _number(_l("Cards in the hand"), "cards")
    foot_cards = _number(_l("Cards in the foot"), "cards")
    discard_whole_pile = BooleanField(_l("A pickup takes the whole pile"))
    discard_pickup = _number(
        _l("Cards a pickup takes from the top"), "discard_pickup", required=False
    )

    # --- filling in ------------------------------------------------------------

    @staticmethod
    def initial_data(
        rules: RuleSet, *, name: str = "", description: str = "", source: str = ""
    ) -> dict[str, Any]:
        """The form's data for ``rules``: every field filled in, spare rows copy the last deal."""
        rows = max(DEAL_ROWS, rules.deal_count)
        last = rules.deals[-1]
        deals = [rules.deals[i] if i < rules.deal_count else last for i in range(rows)]
        books = [
            {
                "name": book.name,
                "id": book.id,
                "bonus": book.bonus,
                "min_points": book.min_points or None,
                "counts_as": book.counts_as.value if book.counts_as else "",
            }
            for book in rules.special_books
        ]
        books += [{} for _ in range(SPECIAL_BOOK_ROWS - len(books))]
        return {
            "name": name,
            "description": description,
            "source": source,
            "deal_count": rules.deal_count,
            "deals": [
                {
                    "opening_minimum": deal.opening_minimum,
                    "opening_needs_concealed_book": deal.opening_needs_concealed_book,
                    "go_out": {
                        "clean": deal.go_out.clean,
                        "dirty": deal.go_out.dirty,
                        "wild": deal.go_out.wild,
                    },
                }
                for deal in deals
            ],
            "card_values": {card.value: rules.card_values.of(card) for card in CardClass},
            "book_size": rules.book_size,
            "books_may_grow": rules.books_may_grow,
            "one_meld_per_rank": rules.one_meld_per_rank,
            "wild_limit": rules.wild_limit.value,
            "min_naturals": rules.min_naturals or None,
            "clean_book_bonus": rules.clean_book_bonus,
            "dirty_book_bonus": rules.dirty_book_bonus,
            "wild_books": rules.wild_books,
            "wild_book_bonus": rules.wild_book_bonus,
            "black_three_books": rules.black_three_books,
            "black_three_book_bonus": rules.black_three_book_bonus,
            "special_books": books,
            "red_threes_laid": rules.red_threes_laid,
            "red_three_bonus": rules.red_three_bonus,
            "red_three_penalty": rules.red_three_penalty,
            "going_out_bonus": rules.going_out_bonus,
            "partner_in_foot_to_go_out": rules.partner_in_foot_to_go_out,
            "permission_to_go_out": rules.permission_to_go_out,
            "must_discard_to_go_out": rules.must_discard_to_go_out,
            "exact_draw_bonus": rules.exact_draw_bonus,
            "play_style": rules.play_style.value,
            "partnership_sizes": list(rules.partnership_sizes),
            "alone_when_unpaired": rules.alone_when_unpaired,
            "alone_by_choice": rules.alone_by_choice,
            "min_players": rules.min_players,
            "max_players": rules.max_players,
            "extra_decks": rules.extra_decks,
            "min_decks": rules.min_decks,
            "max_decks": rules.max_decks,
            "hand_cards": rules.hand_cards,
            "foot_cards": rules.foot_cards,
            "discard_whole_pile": rules.discard_pickup is None,
            "discard_pickup": rules.discard_pickup,
        }

    # --- checking ----------------------------------------------------------------

    def used_deal_rows(self) -> int:
        """How many deal rows are in play (all of them while the count is unreadable)."""
        count = self.deal_count.data
        low, high = BOUNDS["deal_count"]
        if isinstance(count, int) and low <= count <= high:
            return min(count, len(self.deals.entries))
        return len(self.deals.entries)

    def validate(self, extra_validators: Any = None) -> bool:
        super().validate(extra_validators)
        used = self.used_deal_rows()
        for i, entry in enumerate(self.deals.entries):
            if i >= used:
                # Rows beyond the deal count are ignored, whatever is typed there.
                for subfield in _leaves(entry):
                    subfield.errors = []
            elif entry.form.opening_minimum.data is None and not entry.form.opening_minimum.errors:
                entry.form.opening_minimum.errors = [_REQUIRED]
        if (
            not self.discard_whole_pile.data
            and self.discard_pickup.data is None
            and not self.discard_pickup.errors
        ):
            self.discard_pickup.errors = [
                _l("Say how many cards a pickup takes, or tick “the whole pile”.")
            ]
        for entry in self.special_books.entries:
            book = entry.form
            if not book.is_blank() and not (book.name.data or "").strip() and not book.name.errors:
                book.name.errors = [_l("A special book needs a name.")]
        return not self.has_errors()

    def has_errors(self) -> bool:
        return bool(self.form_errors) or any(f.errors for f in _leaves(self))

    def first_refused(self) -> str | None:
        """The id of the first field the form refused, for the summary to link to."""
        return next((f.id for f in _leaves(self) if f.errors), None)

    def only_the_name_refused(self) -> bool:
        """Whether the name is all the form refused: the rules it says can still be checked."""
        return (
            bool(self.name.errors)
            and not self.form_errors
            and all(not f.errors or f is self.name for f in _leaves(self))
        )

    # --- building the rules ------------------------------------------------------

    def special_book_rows(self) -> list[int]:
        """The rows that hold a special book, in order (blank rows are skipped)."""
        return [
            i for i, entry in enumerate(self.special_books.entries) if not entry.form.is_blank()
        ]

    def overrides(self) -> dict[str, Any]:
        """The RuleSet overrides (JSON form) this form says; call after ``validate``."""
        deals = []
        for entry in self.deals.entries[: self.used_deal_rows()]:
            deal = entry.form
            deals.append(
                {
                    "opening_minimum": deal.opening_minimum.data,
                    "opening_needs_concealed_book": bool(deal.opening_needs_concealed_book.data),
                    "go_out": {
                        kind: getattr(deal.go_out.form, kind).data or 0
                        for kind in ("clean", "dirty", "wild")
                    },
                }
            )
        books = []
        for i in self.special_book_rows():
            book = self.special_books.entries[i].form
            name = (book.name.data or "").strip()
            books.append(
                {
                    "id": (book.id.data or "").strip() or _book_id(name),
                    "name": name,
                    "bonus": book.bonus.data or 0,
                    "min_points": book.min_points.data or 0,
                    "counts_as": book.counts_as.data or None,
                }
            )
        return {
            "description": (self.description.data or "").strip(),
            "source": (self.source.data or "").strip(),
            "deals": deals,
            # Past the rows shown, more deals repeat the last row (the reader's rule).
            "deal_count": self.deal_count.data,
            "card_values": {
                card.value: getattr(self.card_values.form, card.value).data for card in CardClass
            },
            "book_size": self.book_size.data,
            "books_may_grow": bool(self.books_may_grow.data),
            "one_meld_per_rank": bool(self.one_meld_per_rank.data),
            "wild_limit": self.wild_limit.data,
            "min_naturals": self.min_naturals.data or 0,
            "clean_book_bonus": self.clean_book_bonus.data,
            "dirty_book_bonus": self.dirty_book_bonus.data,
            "wild_books": bool(self.wild_books.data),
            "wild_book_bonus": self.wild_book_bonus.data or 0,
            "black_three_books": bool(self.black_three_books.data),
            "black_three_book_bonus": self.black_three_book_bonus.data or 0,
            "special_books": books,
            "red_threes_laid": bool(self.red_threes_laid.data),
            "red_three_bonus": self.red_three_bonus.data,
            "red_three_penalty": self.red_three_penalty.data,
            "going_out_bonus": self.going_out_bonus.data,
            "partner_in_foot_to_go_out": bool(self.partner_in_foot_to_go_out.data),
            "permission_to_go_out": bool(self.permission_to_go_out.data),
            "must_discard_to_go_out": bool(self.must_discard_to_go_out.data),
            "exact_draw_bonus": self.exact_draw_bonus.data or 0,
            "play_style": self.play_style.data,
            "partnership_sizes": sorted(self.partnership_sizes.data or []),
            "alone_when_unpaired": bool(self.alone_when_unpaired.data),
            "alone_by_choice": bool(self.alone_by_choice.data),
            "min_players": self.min_players.data,
            "max_players": self.max_players.data,
            "extra_decks": self.extra_decks.data,
            "min_decks": self.min_decks.data or 0,
            "max_decks": self.max_decks.data or 0,
            "hand_cards": self.hand_cards.data,
            "foot_cards": self.foot_cards.data,
            "discard_pickup": None if self.discard_whole_pile.data else self.discard_pickup.data,
        }

    # --- problems from the rules core -------------------------------------------

    def validate_name(self, field: Field) -> None:
        """A preset's name as the list of rules shows it, in the table's language, is taken
        (the service compares the presets' English names, and every house rules' name)."""
        name = visible(field.data or "")
        wanted = name_key(name)
        if self.own_name is not None and name_key(self.own_name) == wanted:
            return
        if any(name_key(rules_text.ruleset_name(p)) == wanted for p in PRESETS.values()):
            raise ValidationError(_("There are already rules called %(name)s.", name=name))

    def not_refused(self, problems: Iterable[Problem]) -> list[Problem]:
        """The rules core's ``problems`` of fields the form has not refused already (a
        number it could not read is said once, in the form's words)."""
        kept = []
        for problem in problems:
            target = self._field_for(problem.field)
            if target is None or not target.errors:
                kept.append(problem)
        return kept

    def apply_problems(self, problems: Iterable[Problem]) -> list[str]:
        """Put each problem beside its field; return the messages no field can show."""
        unplaced: list[str] = []
        for problem in problems:
            target = self._field_for(problem.field)
            if target is None:
                unplaced.append(say(problem))
                continue
            # Beside the field, its label reads better than the API's name for it.
            params = {**problem.params, "field": str(target.label.text)}
            message = say(replace(problem, params=params) if "field" in problem.params else problem)
            target.errors = [*target.errors, message]
        return unplaced

    def _field_for(self, path: str) -> Any:
        tokens = _path(path)
        if not tokens:
            return None
        head = tokens[0]
        if head in ("deals", "opening_minimums") and len(tokens) == 1:
            return self.deal_count
        if head == "special_books" and len(tokens) > 1 and isinstance(tokens[1], int):
            rows = self.special_book_rows()
            if tokens[1] >= len(rows):
                return None
            tokens = [head, rows[tokens[1]], *tokens[2:]]
        current: Any = self
        for token in tokens:
            if isinstance(current, FieldList):
                if not isinstance(token, int) or token >= len(current.entries):
                    return None
                current = current.entries[token]
            elif isinstance(current, FormField) or current is self:
                form = current if current is self else current.form
                if not isinstance(token, str) or token not in form._fields:
                    return None
                current = form._fields[token]
            else:
                # A leaf with more path left, e.g. partnership_sizes[1]: the field itself.
                break
        if isinstance(current, FieldList | FormField) or current is self:
            return None
        return current


class DeleteForm(AppForm):
    """Only the CSRF token: deleting needs a deliberate, same-site POST."""


def _leaves(container: Any) -> Iterable[Any]:
    """Every plain field inside a form, a FormField or a FieldList."""
    fields: Iterable[Any]
    if isinstance(container, FieldList):
        fields = container.entries
    elif isinstance(container, FormField):
        fields = container.form
    else:
        fields = container
    for field in fields:
        if isinstance(field, FieldList | FormField):
            yield from _leaves(field)
        elif isinstance(field, Field):
            yield field


_TOKEN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


def _path(path: str) -> list[str | int]:
    """``deals[1].go_out.wild`` -> ``["deals", 1, "go_out", "wild"]``."""
    return [int(index) if index else name for name, index in _TOKEN.findall(path)]


def _book_id(name: str) -> str:
    """A short id for a special book from its name, for tables that leave the id empty."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:BOOK_ID_LONGEST] or "special"
