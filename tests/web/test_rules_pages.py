"""The rules pages: every preset listed, and each one readable as a card at the table."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import PRESETS, BookCount
from scorekeeper.services import rulesets
from scorekeeper.web import rules_text

MINUS = "\u2212"
EN_DASH = "\u2013"


def text_of(markup: str) -> str:
    """The page's words, as a reader sees them: no tags, entities decoded, spaces collapsed."""
    markup = re.sub(r"<(script|style)\b.*?</\1>", " ", markup, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", markup))).strip()


def deal_rows(markup: str) -> list[list[str]]:
    """The cells of the deals table, one list per deal."""
    table = re.search(r'<table class="sheet rules-deals">.*?<tbody>(.*?)</tbody>', markup, re.S)
    assert table, "the page has no table of deals"
    rows = re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)
    return [
        [text_of(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in rows
    ]


def test_rules_lists_every_preset_by_id_and_name(client: FlaskClient) -> None:
    response = client.get("/rules")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert len(PRESETS) == 8
    for preset_id, rules in PRESETS.items():
        assert f'href="/rules/{preset_id}"' in page
        assert html.escape(rules.name, quote=False) in page
    assert 'href="/house-rules/new"' in page
    assert "No house rules yet" in page


def test_home_page_links_to_the_rules(client: FlaskClient) -> None:
    assert 'href="/rules"' in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("preset_id", list(PRESETS))
def test_every_preset_shows_minimums_bonuses_and_going_out(
    client: FlaskClient, preset_id: str
) -> None:
    rules = PRESETS[preset_id]
    response = client.get(f"/rules/{preset_id}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    words = text_of(page)
    rows = deal_rows(page)
    assert [row[0] for row in rows] == ["1", "2", "3", "4"]
    # The minimum is the first thing in its cell (a concealed-book note may follow).
    assert [row[1].split()[0] for row in rows] == ["50", "90", "120", "150"]
    with client.application.test_request_context():
        expected_go_out = [rules_text.go_out_phrase(deal.go_out) for deal in rules.deals]
    assert [row[2] for row in rows] == expected_go_out
    assert f"Clean book no wild card {rules.clean_book_bonus}" in words
    assert f"Dirty book one or more wild cards {rules.dirty_book_bonus}" in words
    assert ("Wild book wild cards only" in words) is rules.wild_books
    assert f"Going out earns +{rules.going_out_bonus}." in words
    assert f'href="/games/new?ruleset={preset_id}"' in page
    assert f'href="/house-rules/new?base={preset_id}"' in page
    # Presets cannot be edited or deleted, only copied into house rules.
    assert "/edit" not in page and "/delete" not in page


# What a player must read on each preset's card, in the card's own words.
PRESET_FACTS = {
    "standard": [
        "2 clean, 2 dirty and 1 wild book",
        "Wild book wild cards only 1500",
        f"at most 1 wild card in a meld of 3{EN_DASH}5 cards, 2 in 6{EN_DASH}7",
        "exactly 7 cards",
        f"Laid face up at once for +100 each; {MINUS}100 each when caught",
        # Three, five or seven players play alone: the partner's conditions say when.
        "In partnerships, your partner must have played from their foot first.",
        "In partnerships, ask your partner",
        "If someone must draw from an empty stock, nobody goes out: the deal ends.",
        "You may go out by melding your last cards, without a discard.",
        "4 players: 2 teams of 2 · 5 decks",
        "6 players: 3 teams of 2 or 2 teams of 3 · 7 decks",
        "5 players: everyone plays alone",
        "When the players cannot pair up, everyone plays alone.",
        "A second meld of a rank may be started once the first is a book.",
        "13 cards in the hand, 13 in the foot",
        "the top 7 cards",
        "Jokers 50 2s 20 Aces 20 8, 9, 10, J, Q, K 10 4, 5, 6, 7 5 Black 3s 5",
    ],
    "no-wild-books": [
        "Going out needs 2 clean and 2 dirty books in every deal.",
        "There are no wild books in these rules.",
    ],
    "eleven-card": [
        "1 clean and 1 dirty book",
        "At least 4 natural cards beside wild cards: no wild card in a meld of "
        f"3{EN_DASH}4 cards, at most 1 wild card in a meld of 5 cards, 2 in 6, 3 in 7.",
        "The last card must be discarded",
        "11 cards in the hand, 11 in the foot",
        # "cinq à six jeux de cartes", whoever sits down
        "The number of players + 1, but at least 5 and at most 6",
        "2 players: everyone plays alone · 5 decks",
        # "la personne ou l'équipe": teams or individuals
        "4 players: 2 teams of 2 or everyone plays alone · 5 decks",
        "6 players: 3 teams of 2, 2 teams of 3 or everyone plays alone · 6 decks",
        "Players may play in teams or each alone, as the table likes.",
    ],
    "saskatchewan": [
        "opens with a concealed book (canasta)",
        "Deal 4: The opening meld must be a concealed book (canasta)",
        "1 clean, 1 dirty and 1 wild book",
        "7 or more cards",
        "More natural cards than wild cards",
        "the whole pile",
        "11 cards in the hand, 13 in the foot",
    ],
    "simpson": [
        f"Discarded at once, never laid; {MINUS}500 each when caught",
        "Picking up exactly 22 cards in the first grab at the deal (before topping up or "
        "putting cards back) earns +100",
        "Every player alone, 2 to 7 players",
        "4 players: everyone plays alone",
        "Clean book no wild card 300",
        "Dirty book one or more wild cards 100",
        "The last card must be discarded",
        "One meld of each rank: it grows, and no second one is started.",
    ],
    "brouillette": [
        "Black-three book each black 3 in it still counts "
        + MINUS
        + "5; a clean book for going out 300",
        f"{MINUS}500 each when caught",
        "What going out needs changes from deal to deal",
        "You may go out by melding your last cards, without a discard.",
    ],
    "brouillette-low": [
        "Black-three book each black 3 in it still counts "
        + MINUS
        + "5; a clean book for going out 100",
        "Clean book no wild card 300",
    ],
    "brouillette-partners": [
        "Partnerships: teams of 2, 4 to 6 players. Played in partnerships only: nobody plays "
        "alone.",
        "4 players: 2 teams of 2",
        "6 players: 3 teams of 2",
        "One meld of each rank: it grows, and no second one is started.",
    ],
}


@pytest.mark.parametrize("preset_id", sorted(PRESETS))
def test_the_card_says_where_black_threes_count(client: FlaskClient, preset_id: str) -> None:
    """Brouillette's black 3s count -5 even melded ("altid ... selvom melded"): its card must
    not say they count only when left, as every other preset's card does."""
    words = text_of(client.get(f"/rules/{preset_id}").get_data(as_text=True))
    melded = "Black 3s count against you wherever they are: melded, even in a black-three book"
    left = "Black 3s only ever count against you when left in hand or foot."
    assert (melded in words, left in words) == (
        PRESETS[preset_id].black_three_books,
        not PRESETS[preset_id].black_three_books,
    )
    assert preset_id.startswith("brouillette") is PRESETS[preset_id].black_three_books


def test_the_partner_version_of_brouillette_has_no_table_of_five(client: FlaskClient) -> None:
    words = text_of(client.get("/rules/brouillette-partners").get_data(as_text=True))
    assert "5 players" not in words


@pytest.mark.parametrize(("preset_id", "facts"), PRESET_FACTS.items())
def test_each_preset_card_says_its_own_rules(
    client: FlaskClient, preset_id: str, facts: list[str]
) -> None:
    words = text_of(client.get(f"/rules/{preset_id}").get_data(as_text=True))
    for fact in facts:
        assert fact in words


def test_saskatchewan_marks_only_the_last_deal_as_concealed(client: FlaskClient) -> None:
    rows = deal_rows(client.get("/rules/saskatchewan").get_data(as_text=True))
    assert ["concealed" in row[1] for row in rows] == [False, False, False, True]


@pytest.mark.parametrize(
    ("preset_id", "go_out"),
    [
        ("brouillette", ["1 clean and 1 dirty book"] * 3 + ["2 clean and 2 dirty books"]),
        ("brouillette-partners", ["2 clean and 2 dirty books"] * 3 + ["4 clean and 4 dirty books"]),
        ("standard", ["2 clean, 2 dirty and 1 wild book"] * 4),
    ],
)
def test_going_out_is_said_per_deal(client: FlaskClient, preset_id: str, go_out: list[str]) -> None:
    rows = deal_rows(client.get(f"/rules/{preset_id}").get_data(as_text=True))
    assert [row[2] for row in rows] == go_out


def test_a_missing_ruleset_gets_a_friendly_404(client: FlaskClient) -> None:
    response = client.get("/rules/no-such-rules")
    assert response.status_code == 404
    page = response.get_data(as_text=True)
    assert "There are no rules called “no-such-rules”" in page
    assert 'href="/rules"' in page
    assert "Traceback" not in page


def test_house_rules_show_on_the_list_and_by_slug_or_number(
    app: Flask, client: FlaskClient
) -> None:
    with app.app_context():
        house = rulesets.create_house_rules("Grandma's rules", "simpson", {"going_out_bonus": 250})
        slug, number = house.slug, house.id
    page = client.get("/rules").get_data(as_text=True)
    assert "No house rules yet" not in page
    assert f'href="/rules/{slug}"' in page
    assert "Based on Steve Simpson (every player alone)" in text_of(page)
    for ref in (slug, str(number)):
        shown = client.get(f"/rules/{ref}")
        assert shown.status_code == 200
        words = text_of(shown.get_data(as_text=True))
        assert "Grandma's rules" in words
        assert "Going out earns +250." in words
        assert f'href="/house-rules/{slug}/edit"' in shown.get_data(as_text=True)
        assert f'href="/house-rules/{slug}/delete"' in shown.get_data(as_text=True)


def test_house_rules_of_players_alone_ask_nothing_of_a_partner(
    app: Flask, client: FlaskClient
) -> None:
    """The standard rules turned into a game of players alone keep their partner ticks (the
    editor leaves them): the card must not tell a player alone about a partner."""
    with app.app_context():
        solo = rulesets.create_house_rules("Solo", "standard", {"play_style": "individuals"})
        slug = solo.slug
    words = text_of(client.get(f"/rules/{slug}").get_data(as_text=True))
    assert "Every player alone" in words
    assert "your partner" not in words.lower()
    standard = text_of(client.get("/rules/standard").get_data(as_text=True))
    assert "In partnerships, your partner must have played from their foot first." in standard
    # Brouillette's partner version seats nobody alone: its partners need no "In partnerships".
    pairs = text_of(client.get("/rules/brouillette-partners").get_data(as_text=True))
    assert "Ask your partner “May I go out?” first, and follow the answer." in pairs
    assert "In partnerships" not in pairs


# --- the phrases other pages reuse ---------------------------------------------------


@pytest.mark.parametrize(
    ("need", "phrase"),
    [
        (BookCount(clean=2, dirty=2, wild=1), "2 clean, 2 dirty and 1 wild book"),
        (BookCount(clean=1, dirty=1), "1 clean and 1 dirty book"),
        (BookCount(clean=2, dirty=2), "2 clean and 2 dirty books"),
        (BookCount(clean=3), "3 clean books"),
        (BookCount(wild=1), "1 wild book"),
        (BookCount(), "no books at all"),
    ],
)
def test_go_out_phrase(app: Flask, need: BookCount, phrase: str) -> None:
    with app.test_request_context():
        assert rules_text.go_out_phrase(need) == phrase


@pytest.mark.parametrize(
    ("preset_id", "phrase"),
    [
        ("standard", f"at most 1 wild card in a meld of 3{EN_DASH}5 cards, 2 in 6{EN_DASH}7"),
        (
            "saskatchewan",
            f"at most 1 wild card in a meld of 3{EN_DASH}4 cards, 2 in 5{EN_DASH}6, 3 in 7, "
            "and so on in longer melds",
        ),
        (
            "eleven-card",
            f"no wild card in a meld of 3{EN_DASH}4 cards, "
            "at most 1 wild card in a meld of 5 cards, 2 in 6, 3 in 7",
        ),
    ],
)
def test_wild_limit_phrase_follows_max_wilds(app: Flask, preset_id: str, phrase: str) -> None:
    with app.test_request_context():
        assert rules_text.wild_limit_phrase(PRESETS[preset_id]) == phrase


@pytest.mark.parametrize(
    ("preset_id", "players", "phrase"),
    [
        ("standard", 4, "4 players: 2 teams of 2"),
        ("standard", 6, "6 players: 3 teams of 2 or 2 teams of 3"),
        ("standard", 3, "3 players: everyone plays alone"),
        ("simpson", 4, "4 players: everyone plays alone"),
        ("brouillette-partners", 6, "6 players: 3 teams of 2"),
        ("eleven-card", 4, "4 players: 2 teams of 2 or everyone plays alone"),
    ],
)
def test_seatings_phrase(app: Flask, preset_id: str, players: int, phrase: str) -> None:
    with app.test_request_context():
        assert rules_text.seatings_phrase(PRESETS[preset_id], players) == phrase


def test_signed_points_use_a_real_minus_sign() -> None:
    assert rules_text.signed(-500) == f"{MINUS}500"
    assert rules_text.signed(100) == "+100"


def test_the_wild_card_limit_excepts_wild_melds_and_grown_books(client: FlaskClient) -> None:
    """A meld of wild cards only is a wild book in the making, where wild books exist; where
    books grow past their size, the limit's list goes on."""
    standard = text_of(client.get("/rules/standard").get_data(as_text=True))
    simpson = text_of(client.get("/rules/simpson").get_data(as_text=True))
    exception = "A meld of wild cards only, on its way to a wild book, needs no natural card."
    assert exception in standard
    assert exception not in simpson  # no wild books
    assert "and so on in longer melds" in simpson
    assert "and so on in longer melds" not in standard


def house_rules_page(
    app: Flask, client: FlaskClient, name: str, base: str, changes: dict[str, object]
) -> str:
    """The words of the rules page of house rules made from ``base`` with ``changes``."""
    with app.app_context():
        slug = rulesets.create_house_rules(name, base, changes).slug
    return text_of(client.get(f"/rules/{slug}").get_data(as_text=True))


def test_black_threes_worth_nothing_are_not_said_to_count_against_you(
    app: Flask, client: FlaskClient
) -> None:
    words = house_rules_page(
        app, client, "Free 3s", "standard", {"card_values": {"black_threes": 0}}
    )
    assert "Black 3s count nothing, wherever they are." in words
    assert "count against you" not in words
    standard = text_of(client.get("/rules/standard").get_data(as_text=True))
    assert "Black 3s only ever count against you when left in hand or foot." in standard
    # Brouillette's black-three book: its black 3s still count, unless they are worth nothing.
    free = {"card_values": {"black_threes": 0}}
    words = house_rules_page(app, client, "Free black books", "brouillette", free)
    assert "Black-three book a clean book for going out 300" in words
    assert "still counts" not in words
    brouillette = text_of(client.get("/rules/brouillette").get_data(as_text=True))
    assert f"each black 3 in it still counts {MINUS}5; a clean book for going out" in brouillette


def test_partnership_rules_where_players_may_choose_to_play_alone_say_so(
    app: Flask, client: FlaskClient
) -> None:
    """Alone by choice, but not when unpaired: four players may play as two pairs or each
    alone, three cannot sit down; the page must not say that nobody plays alone."""
    choice = {"alone_by_choice": True, "alone_when_unpaired": False}
    words = house_rules_page(app, client, "Pairs or alone", "standard", choice)
    assert "Players who can pair up may also each play alone; a table that cannot pair up " in words
    assert "nobody plays alone" not in words
    assert "4 players: 2 teams of 2 or everyone plays alone" in words
    assert "In partnerships, your partner must have played from their foot first." in words


def test_points_are_signed_as_a_score_sheet_writes_them(app: Flask, client: FlaskClient) -> None:
    assert [rules_text.signed(points) for points in (100, 0, -500)] == ["+100", "0", "\u2212500"]
    words = house_rules_page(app, client, "Free red 3s", "standard", {"red_three_penalty": 0})
    assert "0 each when caught" in words and "+0" not in words
