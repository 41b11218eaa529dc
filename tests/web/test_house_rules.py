"""The house-rules editor: made, refused, edited and deleted through its pages."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from database_support import database_url
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Game, HouseRules
from scorekeeper.rules import PRESETS, RuleSet, RuleSetError
from scorekeeper.services import games, rulesets
from scorekeeper.web.rules_forms import BOUNDS

Fields = dict[str, list[str]]


class _FormReader(HTMLParser):
    """What a browser would send for the page's POST form, as it was rendered."""

    def __init__(self) -> None:
        super().__init__()
        self.action: str | None = None
        self.fields: Fields = {}
        self._in_form = False
        self._select: str | None = None
        self._select_value: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {key: value or "" for key, value in attrs}
        if tag == "form" and attr.get("method") == "post":
            self._in_form, self.action = True, attr.get("action")
        if not self._in_form:
            return
        name = attr.get("name")
        if tag == "input" and name:
            kind = attr.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in attr:
                    self.fields.setdefault(name, []).append(attr.get("value") or "on")
            elif kind != "submit":
                self.fields.setdefault(name, []).append(attr.get("value", ""))
        elif tag == "select" and name:
            self._select, self._select_value = name, None
        elif tag == "option" and self._select:
            if self._select_value is None or "selected" in attr:
                self._select_value = attr.get("value", "")
        elif tag == "textarea" and name:
            self._textarea = name
            self.fields[name] = [""]

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._in_form = False
        elif tag == "select" and self._select:
            self.fields[self._select] = [self._select_value or ""]
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea:
            # A browser drops the one newline that follows <textarea>.
            self.fields[self._textarea][0] += data.removeprefix("\n")


def read_form(page: str) -> tuple[str, Fields]:
    reader = _FormReader()
    reader.feed(page)
    assert reader.action, "the page has no POST form"
    return html.unescape(reader.action), reader.fields


def submit(
    client: FlaskClient, url: str, changes: Mapping[str, str | list[str] | None] | None = None
) -> Any:
    """Open ``url``, change some fields (None unticks a box or empties a list), send the form."""
    page = client.get(url)
    assert page.status_code == 200
    action, fields = read_form(page.get_data(as_text=True))
    for name, value in (changes or {}).items():
        if value is None:
            fields.pop(name, None)
        else:
            fields[name] = [value] if isinstance(value, str) else value
    return client.post(action, data=fields)


def house_rules_count(app: Flask) -> int:
    with app.app_context():
        return int(db.session.scalar(db.select(func.count()).select_from(HouseRules)) or 0)


def saved(app: Flask, slug: str) -> RuleSet:
    with app.app_context():
        return rulesets.resolve(slug)


def text_of(markup: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", markup))).strip()


def error_beside(page: str, field_id: str) -> str:
    """The error message shown next to the field with this id (empty when there is none)."""
    found = re.search(rf'<p class="error" id="{re.escape(field_id)}-error">(.*?)</p>', page, re.S)
    return html.unescape(found.group(1)) if found else ""


def value_of(page: str, name: str) -> str:
    found = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*value="([^"]*)"', page)
    assert found, f"no input {name}"
    return html.unescape(found.group(1))


# --- making house rules ----------------------------------------------------------------


def test_make_house_rules_from_standard(app: Flask, client: FlaskClient) -> None:
    response = submit(
        client,
        "/house-rules/new?base=standard",
        {
            "name": "Friday night",
            "going_out_bonus": "200",
            "deal_count": "5",
            "deals-4-opening_minimum": "150",
        },
    )
    assert response.status_code == 302
    assert response.headers["Location"] == "/rules/friday-night"

    rules = saved(app, "friday-night")
    standard = PRESETS["standard"]
    # Everything the form did not change is the standard's, to the last field.
    assert rules == replace(
        standard,
        id="friday-night",
        name="Friday night",
        description="",
        source="",
        going_out_bonus=200,
        deals=(*standard.deals, standard.deals[-1]),
        based_on="standard",
    )
    assert rules.opening_minimums == (50, 90, 120, 150, 150)

    shown = client.get("/rules/friday-night", follow_redirects=True).get_data(as_text=True)
    words = text_of(shown)
    assert "Friday night" in words
    assert "Going out earns +200." in words
    assert "5 deals" in words
    assert "House rules based on Standard partnership" in words
    listing = client.get("/rules").get_data(as_text=True)
    assert 'href="/rules/friday-night"' in listing
    assert "Friday night" in listing


def test_saving_shows_a_message_on_the_new_page(client: FlaskClient) -> None:
    response = submit(client, "/house-rules/new?base=simpson", {"name": "Simple"})
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Your house rules “Simple” are saved." in html.unescape(page)


@pytest.mark.parametrize("preset_id", list(PRESETS))
def test_the_form_keeps_every_rule_it_was_filled_with(
    app: Flask, client: FlaskClient, preset_id: str
) -> None:
    """Sent back unchanged, the form of any preset saves that preset's rules exactly."""
    response = submit(client, f"/house-rules/new?base={preset_id}", {"name": "Copy"})
    assert response.status_code == 302
    preset = PRESETS[preset_id]
    assert saved(app, "copy") == replace(
        preset, id="copy", name="Copy", description="", source="", based_on=preset_id
    )


def test_more_deals_than_rows_repeat_the_last_row(app: Flask, client: FlaskClient) -> None:
    response = submit(
        client, "/house-rules/new?base=standard", {"name": "Long game", "deal_count": "10"}
    )
    assert response.status_code == 302
    assert saved(app, "long-game").opening_minimums == (50, 90, 120, 150, *[150] * 6)


def test_rows_beyond_the_deal_count_are_ignored(app: Flask, client: FlaskClient) -> None:
    response = submit(
        client,
        "/house-rules/new?base=standard",
        {
            "name": "Three deals",
            "deal_count": "3",
            # Nonsense in an unused row must neither count nor stop the save.
            "deals-5-opening_minimum": "abc",
            "deals-6-go_out-wild": "-4",
        },
    )
    assert response.status_code == 302
    assert saved(app, "three-deals").opening_minimums == (50, 90, 120)


def test_special_books_and_every_other_field_are_saved(app: Flask, client: FlaskClient) -> None:
    response = submit(
        client,
        "/house-rules/new?base=standard",
        {
            "name": "Everything",
            "description": "Sevens are special.",
            "source": "Aunt Mary",
            "deals-0-opening_minimum": "60",
            "deals-3-opening_needs_concealed_book": "y",
            "deals-1-go_out-clean": "3",
            "card_values-twos": "25",
            "book_size": "8",
            "books_may_grow": "y",
            "one_meld_per_rank": "y",
            "wild_limit": "min_naturals",
            "min_naturals": "5",
            "special_books-0-name": "Book of sevens",
            "special_books-0-bonus": "1000",
            "special_books-0-min_points": "35",
            "special_books-0-counts_as": "clean",
            "special_books-2-name": "Red threes",
            "special_books-2-id": "red-3s",
            "special_books-2-bonus": "2500",
            "red_threes_laid": None,
            "red_three_penalty": "300",
            "permission_to_go_out": None,
            "must_discard_to_go_out": "y",
            "exact_draw_bonus": "100",
            "play_style": "individuals",
            "partnership_sizes": None,
            "alone_when_unpaired": None,
            "alone_by_choice": "y",
            "min_players": "3",
            "max_players": "5",
            "extra_decks": "2",
            "min_decks": "6",
            "max_decks": "",
            "hand_cards": "11",
            "foot_cards": "12",
            "discard_whole_pile": "y",
        },
    )
    assert response.status_code == 302, text_of(response.get_data(as_text=True))
    rules = saved(app, "everything").to_dict()
    assert rules["description"] == "Sevens are special."
    assert rules["source"] == "Aunt Mary"
    assert rules["deals"][0]["opening_minimum"] == 60
    assert rules["deals"][3]["opening_needs_concealed_book"] is True
    assert rules["deals"][1]["go_out"] == {"clean": 3, "dirty": 2, "wild": 1}
    assert rules["card_values"]["twos"] == 25
    assert (rules["book_size"], rules["books_may_grow"]) == (8, True)
    assert rules["one_meld_per_rank"] is True
    # Unticked: nobody who cannot pair up plays alone (everyone plays alone anyway here).
    assert rules["alone_when_unpaired"] is False
    assert rules["alone_by_choice"] is True
    assert (rules["wild_limit"], rules["min_naturals"]) == ("min_naturals", 5)
    assert rules["special_books"] == [
        {
            "id": "book-of-sevens",
            "name": "Book of sevens",
            "bonus": 1000,
            "min_points": 35,
            "counts_as": "clean",
        },
        {"id": "red-3s", "name": "Red threes", "bonus": 2500, "min_points": 0, "counts_as": None},
    ]
    assert (rules["red_threes_laid"], rules["red_three_penalty"]) == (False, 300)
    assert rules["permission_to_go_out"] is False
    assert rules["must_discard_to_go_out"] is True
    assert rules["exact_draw_bonus"] == 100
    assert (rules["play_style"], rules["partnership_sizes"]) == ("individuals", [])
    assert (rules["min_players"], rules["max_players"], rules["extra_decks"]) == (3, 5, 2)
    assert (rules["min_decks"], rules["max_decks"]) == (6, 0)  # left empty: no ceiling
    assert (rules["hand_cards"], rules["foot_cards"]) == (11, 12)
    assert rules["discard_pickup"] is None

    words = text_of(client.get("/rules/everything").get_data(as_text=True))
    assert "Book of sevens its cards are worth at least 35; counts as a clean book" in words
    assert "Red threes 2500" in words
    assert "the whole pile" in words
    assert "Decks The number of players + 2, but at least 6 " in words
    assert "3 players: everyone plays alone · 6 decks" in words
    assert "5 players: everyone plays alone · 7 decks" in words


def test_a_house_rules_base_is_copied_too(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        rulesets.create_house_rules("Ours", "saskatchewan", {"going_out_bonus": 400})
    response = submit(client, "/house-rules/new?base=ours", {"name": "Ours again"})
    assert response.status_code == 302
    again = saved(app, "ours-again")
    assert again.going_out_bonus == 400
    assert again.discard_pickup is None
    assert again.based_on == "ours"


def test_an_unknown_base_is_a_friendly_404(client: FlaskClient) -> None:
    response = client.get("/house-rules/new?base=nothing-like-it")
    assert response.status_code == 404
    assert "There are no rules called “nothing-like-it”" in response.get_data(as_text=True)


# --- refused ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "changes", "field_id", "message"),
    [
        (
            "no-wild-books",
            {"deals-0-go_out-wild": "1"},
            "deals-0-go_out-wild",
            "Deal 1 asks for a wild book to go out, but these rules have no wild books.",
        ),
        (
            "standard",
            {"going_out_bonus": "-100"},
            "going_out_bonus",
            "Going-out bonus must be between 0 and 10000.",
        ),
        (
            "standard",
            {"card_values-twos": "-20"},
            "card_values-twos",
            "2s must be between 1 and 1000.",
        ),
        (
            "standard",
            {"deals-2-opening_minimum": ""},
            "deals-2-opening_minimum",
            "Fill in a number.",
        ),
        ("standard", {"name": ""}, "name", "House rules need a name."),
        (
            "standard",
            {"min_players": "6", "max_players": "4"},
            "max_players",
            "Players must run from at least 2 to at most 10, the least first.",
        ),
        (
            "eleven-card",
            {"min_decks": "6", "max_decks": "5"},
            "max_decks",
            "The fewest decks cannot be more than the most decks.",
        ),
        (
            "standard",
            {"max_decks": "3"},
            "max_decks",
            "3 decks hold 162 cards, too few to deal 7 players 26 cards each.",
        ),
        (
            # Nine players alone are nine teams, and a game has eight at the most.
            "simpson",
            {"max_players": "10"},
            "max_players",
            "With 9 players these rules would seat 9 teams, but a game has 8 at the most.",
        ),
        (
            # A deck a player and no more: two players of 60 cards each need more than 108.
            "standard",
            {"hand_cards": "30", "foot_cards": "30", "extra_decks": "0"},
            "extra_decks",
            "2 decks hold 108 cards, too few to deal 2 players 60 cards each.",
        ),
        (
            # Seven players and fourteen decks besides one each: 21, and a game has 20 at most.
            "standard",
            {"extra_decks": "14"},
            "extra_decks",
            "With 7 players these rules would play with 21 decks, but a game has 20 at the most.",
        ),
        (
            "standard",
            {"partnership_sizes": None},
            "partnership_sizes",
            "Partnership play needs at least one team size.",
        ),
        (
            "standard",
            {"discard_whole_pile": None, "discard_pickup": ""},
            "discard_pickup",
            "Say how many cards a pickup takes, or tick “the whole pile”.",
        ),
        (
            "standard",
            {"special_books-0-bonus": "1000"},
            "special_books-0-name",
            "A special book needs a name.",
        ),
    ],
)
def test_a_refused_form_saves_nothing_and_says_why_beside_the_field(
    app: Flask,
    client: FlaskClient,
    base: str,
    changes: dict[str, str | None],
    field_id: str,
    message: str,
) -> None:
    response = submit(client, f"/house-rules/new?base={base}", {"name": "Refused", **changes})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert error_beside(page, field_id) == message
    assert "Nothing was saved" in page
    # The summary is where the keyboard starts (static/js/app.js), and it leads to the field.
    assert '<div class="form-errors" role="alert" tabindex="-1" id="form-errors">' in page
    assert f'<a href="#{field_id}">Check the fields marked below.</a>' in page
    assert house_rules_count(app) == 0
    # What was typed stays in the form.
    assert value_of(page, "name") == changes.get("name", "Refused")
    for name, value in changes.items():
        if value and not name.startswith(("partnership", "discard_whole")):
            assert value_of(page, name) == value


def test_a_name_already_taken_is_refused_beside_it(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        rulesets.create_house_rules("Friday", "standard", {})
    response = submit(client, "/house-rules/new?base=simpson", {"name": "friday"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert error_beside(page, "name") == "There are already rules called friday."
    assert value_of(page, "name") == "friday"
    assert house_rules_count(app) == 1


def test_a_presets_name_in_the_tables_language_is_taken(app: Flask, client: FlaskClient) -> None:
    # The German list of rules shows "Standard mit Partnern": a house rule named so would
    # look like the preset there.
    page = client.get("/house-rules/new?base=simpson", headers={"Accept-Language": "de"})
    action, fields = read_form(page.get_data(as_text=True))
    fields["name"] = ["standard MIT partnern"]
    response = client.post(action, data=fields, headers={"Accept-Language": "de"})
    assert response.status_code == 422
    assert error_beside(response.get_data(as_text=True), "name") == (
        "Es gibt schon Regeln namens standard MIT partnern."
    )
    assert house_rules_count(app) == 0
    # In English it is no preset's name; and rules keep their own name when edited.
    assert submit(client, "/house-rules/new?base=simpson", {"name": "Standard mit Partnern"})
    assert house_rules_count(app) == 1
    edit = client.get("/house-rules/standard-mit-partnern/edit", headers={"Accept-Language": "de"})
    action, fields = read_form(edit.get_data(as_text=True))
    fields["going_out_bonus"] = ["150"]
    saved_page = client.post(action, data=fields, headers={"Accept-Language": "de"})
    assert saved_page.status_code == 302
    assert saved(app, "standard-mit-partnern").going_out_bonus == 150


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("de", "Keine gültige, ganze Zahl."),
        ("da", "Ikke et gyldigt heltal."),
        ("fr", "Ce n'est pas un nombre entier valide."),
    ],
)
def test_a_number_that_is_no_whole_number_is_said_in_the_tables_language(
    app: Flask, client: FlaskClient, language: str, message: str
) -> None:
    """Also in a deal's row (a form inside the form), and in Danish, which WTForms lacks."""
    said_in = {"Accept-Language": language}
    page = client.get("/house-rules/new?base=standard", headers=said_in)
    action, fields = read_form(page.get_data(as_text=True))
    fields.update(name=["Halves"], going_out_bonus=["2.5"])
    fields["deals-0-opening_minimum"] = ["2.5"]
    response = client.post(action, data=fields, headers=said_in)
    assert response.status_code == 422
    html = response.get_data(as_text=True).replace("&#39;", "'")
    assert error_beside(html, "going_out_bonus") == message
    assert error_beside(html, "deals-0-opening_minimum") == message
    assert house_rules_count(app) == 0


def test_every_refused_field_is_said_in_one_go(app: Flask, client: FlaskClient) -> None:
    """A number the form cannot read, one the rules core refuses as read (jokers below 0) and
    one it refuses once the rules are put together (no cards in the hand): all three at once,
    each beside its field and said once, not one per try."""
    changes = {"card_values-twos": "2.5", "card_values-jokers": "-50", "hand_cards": "0"}
    for url in ("/house-rules/new?base=standard", "/house-rules/friday/edit"):
        if url.endswith("/edit"):
            with app.app_context():
                rulesets.create_house_rules("Friday", "standard", {})
        response = submit(client, url, {"name": "Friday", **changes})
        assert response.status_code == 422, url
        page = response.get_data(as_text=True)
        assert error_beside(page, "card_values-twos") == "Not a valid integer value.", url
        assert "between 1 and 1000" in error_beside(page, "card_values-jokers"), url
        assert error_beside(page, "hand_cards") == (
            "Hand and foot each hold between 1 and 30 cards."
        ), url
        assert value_of(page, "card_values-twos") == "2.5"
    assert saved(app, "friday").card_values.jokers == 50


@pytest.mark.parametrize("name", ["", "friday"])
def test_a_refused_name_and_refused_rules_are_said_in_one_go(
    app: Flask, client: FlaskClient, name: str
) -> None:
    """A table that left the name out (or took one in use) and typed an impossible rule hears
    of both at once, not of the second only after putting the first right."""
    with app.app_context():
        rulesets.create_house_rules("Friday", "standard", {})
    changes = {"name": name, "deals-0-opening_minimum": "-5", "red_three_penalty": "-1"}
    for url in ("/house-rules/new?base=standard", "/house-rules/friday/edit"):
        response = submit(client, url, changes)
        assert response.status_code == 422, url
        page = response.get_data(as_text=True)
        # Friday may be renamed friday: a name is only taken by other rules.
        assert bool(error_beside(page, "name")) != (name == "friday" and url.endswith("/edit"))
        assert "must be between 0 and 5000" in error_beside(page, "deals-0-opening_minimum"), url
        assert "must be between 0 and 10000" in error_beside(page, "red_three_penalty"), url
        assert value_of(page, "deals-0-opening_minimum") == "-5"
    assert house_rules_count(app) == 1
    assert saved(app, "friday").deals[0].opening_minimum == 50


def test_a_refused_form_keeps_the_base_it_started_from(app: Flask, client: FlaskClient) -> None:
    response = submit(
        client, "/house-rules/new?base=simpson", {"name": "", "red_three_penalty": "0"}
    )
    assert response.status_code == 422
    action, fields = read_form(response.get_data(as_text=True))
    assert fields["base"] == ["simpson"]
    fields["name"] = ["Mild Simpson"]
    assert client.post(action, data=fields).status_code == 302
    mild = saved(app, "mild-simpson")
    assert mild.red_three_penalty == 0
    assert mild.based_on == "simpson"


# --- editing and deleting -------------------------------------------------------------------


@pytest.fixture
def friday(app: Flask) -> str:
    with app.app_context():
        return rulesets.create_house_rules("Friday", "standard", {"going_out_bonus": 250}).slug


def test_the_edit_form_is_filled_with_the_saved_rules(client: FlaskClient, friday: str) -> None:
    page = client.get(f"/house-rules/{friday}/edit").get_data(as_text=True)
    assert value_of(page, "name") == "Friday"
    assert value_of(page, "going_out_bonus") == "250"
    assert value_of(page, "deals-3-opening_minimum") == "150"
    assert "Start from" not in page  # the base is only chosen for new house rules


def test_edit_changes_the_house_rules(app: Flask, client: FlaskClient, friday: str) -> None:
    response = submit(
        client,
        f"/house-rules/{friday}/edit",
        {"name": "Friday late", "going_out_bonus": "300", "deals-0-opening_minimum": "60"},
    )
    assert response.status_code == 302
    assert response.headers["Location"] == f"/rules/{friday}"
    rules = saved(app, friday)
    assert (rules.name, rules.going_out_bonus, rules.opening_minimums[0]) == (
        "Friday late",
        300,
        60,
    )
    # The rest is as it was.
    assert rules.deals[1:] == PRESETS["standard"].deals[1:]
    words = text_of(client.get(f"/rules/{friday}").get_data(as_text=True))
    assert "Friday late" in words and "Going out earns +300." in words


def test_a_refused_edit_changes_nothing(app: Flask, client: FlaskClient, friday: str) -> None:
    before = saved(app, friday)
    response = submit(client, f"/house-rules/{friday}/edit", {"going_out_bonus": "-1"})
    assert response.status_code == 422
    assert error_beside(response.get_data(as_text=True), "going_out_bonus")
    assert saved(app, friday) == before


def test_delete_asks_first_then_removes(app: Flask, client: FlaskClient, friday: str) -> None:
    confirm = client.get(f"/house-rules/{friday}/delete")
    assert confirm.status_code == 200
    assert "Delete “Friday”?" in html.unescape(confirm.get_data(as_text=True))
    assert house_rules_count(app) == 1  # asking deletes nothing

    action, fields = read_form(confirm.get_data(as_text=True))
    response = client.post(action, data=fields)
    assert response.status_code == 302
    assert response.headers["Location"] == "/rules"
    assert house_rules_count(app) == 0
    listing = client.get("/rules").get_data(as_text=True)
    assert "The house rules “Friday” are deleted." in html.unescape(listing)
    assert 'href="/rules/friday"' not in listing
    assert client.get(f"/rules/{friday}").status_code == 404
    assert client.get(f"/house-rules/{friday}/edit").status_code == 404


def test_presets_cannot_be_edited_or_deleted(client: FlaskClient) -> None:
    assert client.get("/house-rules/standard/edit").status_code == 404
    assert client.post("/house-rules/standard/delete").status_code == 404
    assert client.get("/rules/standard").status_code == 200


# --- games keep their own copy ---------------------------------------------------------------


def start(slug: str) -> int:
    game = games.start_game(
        slug,
        [games.TeamSpec("Ann & Ben", ["Ann", "Ben"]), games.TeamSpec("Cid & Dee", ["Cid", "Dee"])],
    )
    return int(game.id)


def test_a_game_keeps_its_rules_when_the_house_rules_change(
    app: Flask, client: FlaskClient
) -> None:
    submit(client, "/house-rules/new?base=standard", {"name": "Club", "going_out_bonus": "200"})
    with app.app_context():
        game_id = start("club")
    submit(client, "/house-rules/club/edit", {"going_out_bonus": "500", "deal_count": "3"})
    assert saved(app, "club").going_out_bonus == 500

    with app.app_context():
        view = games.view_game(games.load_game(game_id))
        assert view.rules.going_out_bonus == 200
        assert view.rules.deal_count == 4

    # Deleting the house rules touches no game either.
    action, fields = read_form(client.get("/house-rules/club/delete").get_data(as_text=True))
    client.post(action, data=fields)
    with app.app_context():
        assert db.session.get(Game, game_id) is not None
        assert games.view_game(games.load_game(game_id)).rules.going_out_bonus == 200


# --- CSRF --------------------------------------------------------------------------------------


@pytest.fixture
def csrf_app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path / "csrf.sqlite"),
            "WTF_CSRF_ENABLED": True,
        },
        instance_path=str(tmp_path / "instance"),
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_csrf_refuses_a_post_without_the_token_and_accepts_the_forms_own(
    csrf_app: Flask,
) -> None:
    client = csrf_app.test_client()
    action, fields = read_form(client.get("/house-rules/new?base=standard").get_data(as_text=True))
    assert fields.get("csrf_token", [""])[0], "the form carries a CSRF token"
    fields["name"] = ["Guarded"]

    forged = {name: values for name, values in fields.items() if name != "csrf_token"}
    refused = client.post(action, data=forged)
    assert refused.status_code == 400
    assert "Nothing was saved" in refused.get_data(as_text=True)
    assert house_rules_count(csrf_app) == 0

    accepted = client.post(action, data=fields)
    assert accepted.status_code == 302
    assert house_rules_count(csrf_app) == 1

    # Deleting needs the token as well.
    assert client.post("/house-rules/guarded/delete").status_code == 400
    assert house_rules_count(csrf_app) == 1
    action, fields = read_form(client.get("/house-rules/guarded/delete").get_data(as_text=True))
    assert client.post(action, data=fields).status_code == 302
    assert house_rules_count(csrf_app) == 0


# --- the form's bounds are the rules core's ---------------------------------------------------


def _override(bound: str, value: int) -> dict[str, Any]:
    """A RuleSet override that puts ``value`` where the form's ``bound`` applies."""
    return {
        "deal_count": {"deal_count": value},
        "opening_minimum": {"deals": [{"opening_minimum": value}] * 4},
        "go_out": {"deals": [{"go_out": {"clean": value}}] * 4},
        "card_value": {"card_values": {"jokers": value}},
        "black_three_value": {"card_values": {"black_threes": value}},
        "bonus": {"going_out_bonus": value},
        "special_bonus": {"special_books": [{"id": "s", "name": "S", "bonus": value}]},
        "special_min_points": {"special_books": [{"id": "s", "name": "S", "min_points": value}]},
        "book_size": {"book_size": value},
        "min_naturals": {"wild_limit": "min_naturals", "min_naturals": value, "book_size": 13},
        "players": {"min_players": value} if value <= 2 else {"max_players": value},
        # Decks are one per player and these: a game of two has the most room for them.
        "extra_decks": {"extra_decks": value, "max_players": 2},
        "decks_bound": {"min_decks": value, "max_decks": value},
        "cards": {"hand_cards": value},
        "discard_pickup": {"discard_pickup": value},
    }[bound]


def _accepted(overrides: dict[str, Any]) -> bool:
    try:
        PRESETS["standard"].derive(overrides, id="bounds", name="Bounds")
    except RuleSetError:
        return False
    return True


@pytest.mark.parametrize("bound", list(BOUNDS))
def test_form_bounds_are_exactly_what_the_rules_core_accepts(bound: str) -> None:
    low, high = BOUNDS[bound]
    assert _accepted(_override(bound, low))
    assert _accepted(_override(bound, high))
    assert not _accepted(_override(bound, low - 1))
    assert not _accepted(_override(bound, high + 1))


# Form fields and the bounds their min/max attributes must carry.
FIELD_BOUNDS = {
    "deal_count": "deal_count",
    "deals-0-opening_minimum": "opening_minimum",
    "deals-7-go_out-wild": "go_out",
    "card_values-jokers": "card_value",
    "card_values-fours_to_sevens": "card_value",
    "card_values-black_threes": "black_three_value",
    "going_out_bonus": "bonus",
    "red_three_penalty": "bonus",
    "exact_draw_bonus": "bonus",
    "special_books-2-bonus": "special_bonus",
    "special_books-0-min_points": "special_min_points",
    "book_size": "book_size",
    "min_naturals": "min_naturals",
    "min_players": "players",
    "max_players": "players",
    "extra_decks": "extra_decks",
    "min_decks": "decks_bound",
    "max_decks": "decks_bound",
    "hand_cards": "cards",
    "foot_cards": "cards",
    "discard_pickup": "discard_pickup",
}


def test_the_form_inputs_carry_those_bounds(client: FlaskClient) -> None:
    page = client.get("/house-rules/new?base=standard").get_data(as_text=True)
    for name, bound in FIELD_BOUNDS.items():
        tag = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*>', page)
        assert tag, name
        low, high = BOUNDS[bound]
        assert f'min="{low}"' in tag.group(0) and f'max="{high}"' in tag.group(0), name
