"""Key pages in each language: nothing left in English, the game's own words, local dates."""

from __future__ import annotations

import html
import re
from datetime import date

import pytest
from babel.dates import format_date
from babel.numbers import format_percent
from flask import Flask
from flask.testing import FlaskClient
from i18n_support import (
    GERMAN_DEAL,
    LANGUAGES,
    TRANSLATED,
    catalogue,
    leftover_english,
    visible_text,
)

from scorekeeper.rules import PRESETS, CardClass
from scorekeeper.services import games, players

# A deal the app must refuse: 7 is no card total, and going out needs books.
BAD_DEAL = {"went_out": "0", "t0-melded": "7"}

# Words of the game as each seed says them (docs/glossary/<lang>.md), on the rules card.
RULES_CARD_WORDS = {
    "de": ["Buch", "reine", "gemischte", "wildes Buch", "Ausmachen", "Fuß", "Runde",
           "Rote Dreien", "erste Meldung", "Platzhalter", "Ziehstapel", "Ablagestapel"],
    "nl": ["boek", "schone", "vuile", "wild boek", "uitgaan", "voet", "deal",
           "rode drieën", "eerste meld", "wilde kaarten", "voorraadstapel", "aflegstapel"],
    "fr": ["livre", "propres", "sales", "livre sauvage", "sortir", "pied", "tour",
           "trois rouges", "ouverture", "cartes sauvages", "pioche", "défausse"],
    "da": ["bunke", "rene", "beskidte", "vild bunke", "gå ud", "fod", "runde",
           "røde treer", "første meld", "vilde kort", "lageret", "kasseringsbunken"],
}  # fmt: skip
GAME_WORDS = {
    "de": ["Runde 1", "Ausgemacht", "2 reine Bücher", "1 wildes Buch", "Punktezettel"],
    "nl": ["Deal 1", "Uitgegaan", "2 schone boeken", "1 wild boek", "Scoreblad"],
    "fr": ["Tour 1", "Sortie", "2 livres propres", "1 livre sauvage", "Feuille de marque"],
    "da": ["Runde 1", "Gik ud", "2 rene bunker", "1 vild bunke", "Scoreark"],
}
REFUSAL_WORDS = {
    "de": ["Nichts wurde gespeichert", "Ausmachen nicht möglich", "keine mögliche Kartensumme"],
    "nl": ["Er is niets opgeslagen", "uitgaan kan niet", "geen mogelijk kaarttotaal"],
    "fr": ["Rien n'a été enregistré", "impossible de sortir", "pas un total de cartes possible"],
    "da": ["Intet blev gemt", "kan ikke gå ud", "ikke en mulig kortsum"],
}


def spaced(text: str) -> str:
    """``text`` with its spaces as the page text has them (no-break spaces are spaces)."""
    return " ".join(text.split())


def page(client: FlaskClient, lang: str, url: str, status: int = 200) -> str:
    response = client.get(url, headers={"Accept-Language": lang})
    assert response.status_code == status, url
    body = response.get_data(as_text=True)
    assert f'<html lang="{lang}">' in body
    return visible_text(body)


def no_english(text: str, lang: str) -> None:
    assert leftover_english(text, lang) == [], text


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/games/new",
        "/games",
        "/players",
        "/players/merge",
        "/rules",
        "/house-rules/new",
        "/seasons",
        "/settings",
        "/connect",
    ],
)
def test_pages_without_a_game_are_all_in_the_language(
    client: FlaskClient, lang: str, url: str
) -> None:
    no_english(page(client, lang, url), lang)


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("ruleset", ["standard", "saskatchewan", "simpson", "brouillette"])
def test_the_rules_card_speaks_the_seeds_words(
    client: FlaskClient, lang: str, ruleset: str
) -> None:
    text = page(client, lang, f"/rules/{ruleset}")
    no_english(text, lang)
    if ruleset == "standard":
        missing = [w for w in RULES_CARD_WORDS[lang] if w.lower() not in text.lower()]
        assert missing == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_game_with_a_deal_in_the_language(client: FlaskClient, game_id: int, lang: str) -> None:
    text = page(client, lang, f"/games/{game_id}")
    no_english(text, lang)
    assert [w for w in GAME_WORDS[lang] if w not in text] == []
    # The date as that language writes it, and the score as entered.
    assert spaced(format_date(date(2026, 11, 29), locale=lang)) in text
    assert "3855" in text
    no_english(page(client, lang, f"/games/{game_id}/corrections"), lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_refused_deal_explains_itself_in_the_language(
    client: FlaskClient, game_id: int, lang: str
) -> None:
    response = client.post(
        f"/games/{game_id}/deals/new", data=BAD_DEAL, headers={"Accept-Language": lang}
    )
    assert response.status_code == 422
    text = visible_text(response.get_data(as_text=True))
    no_english(text, lang)
    assert [w for w in REFUSAL_WORDS[lang] if w not in text] == []


# Each card count's hint and each entry's label as the catalogue says them.
CARD_HINT = {"de": "je %d", "nl": "%d per stuk", "fr": "%d chacun", "da": "%d stykket"}
MELDED = {
    "de": "Ausgelegte Karten",
    "nl": "Gemelde kaarten",
    "fr": "Cartes posées",
    "da": "Meldte kort",
}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_deal_forms_labels_and_hints_are_in_the_language(
    client: FlaskClient, game_id: int, lang: str
) -> None:
    """Looked up once per form: still every team's, in the request's language."""
    body = client.get(f"/games/{game_id}/deals/new", headers={"Accept-Language": lang}).get_data(
        as_text=True
    )
    rules = PRESETS["standard"]
    for team in (0, 1):
        for card in CardClass:
            if card is CardClass.BLACK_THREES:
                continue  # melded only in black-three books, which standard has not
            hint = CARD_HINT[lang] % rules.card_values.of(card)
            found = re.search(
                rf'<p class="hint" id="t{team}-melded-{card.value}-hint">([^<]*)</p>', body
            )
            assert found is not None and html.unescape(found.group(1)) == hint, (team, card)
    assert body.count(MELDED[lang]) >= 2
    # Another request in English on the same app: nothing kept from the one before.
    english = client.get(f"/games/{game_id}/deals/new", headers={"Accept-Language": "en"})
    assert '<p class="hint" id="t1-melded-jokers-hint">50 each</p>' in english.get_data(
        as_text=True
    )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_standings_in_the_language_with_local_numbers(
    client: FlaskClient, finished_game_id: int, lang: str
) -> None:
    for url in ("/standings", "/seasons/1"):
        text = page(client, lang, url)
        no_english(text, lang)
        # Ann and Ben won their only game: a win rate of 100 % as the language writes it.
        assert spaced(format_percent(1, locale=lang)) in text, url


def test_english_stays_english(client: FlaskClient, game_id: int) -> None:
    text = page(client, "en", f"/games/{game_id}")
    assert "Went out" in text
    assert "2 clean books, 2 dirty books and 1 wild book" in text
    assert spaced(format_date(date(2026, 11, 29), locale="en")) in text


CHART_WORDS = {
    "de": ["Wertung", "Partie", "Punkte in einer Partie", "Punkte pro Partie"],
    "nl": ["Rating", "Spel", "Punten in een spel", "Scores per spel"],
    "fr": ["Cote", "Partie", "Points dans une partie", "Scores par partie"],
    "da": ["Rating", "Spil", "Point i et spil", "Point pr. spil"],
}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_chart_labels_in_the_language(
    client: FlaskClient, finished_game_id: int, lang: str
) -> None:
    body = client.get("/seasons/1", headers={"Accept-Language": lang}).get_data(as_text=True)
    charts = re.findall(r"<svg\b.*?</svg>", body, re.S)
    assert len(charts) >= 2
    labels = [html.unescape(t.strip()) for t in re.findall(r">([^<>]+)<", "".join(charts))]
    assert [w for w in CHART_WORDS[lang] if w not in labels] == [], labels
    assert leftover_english(" ".join(labels), lang) == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_form_values_stay_machine_readable(client: FlaskClient, game_id: int, lang: str) -> None:
    """Fields hold plain digits and ISO dates whatever the language shows around them."""
    edit = client.get(f"/games/{game_id}/deals/1/edit", headers={"Accept-Language": lang})
    assert edit.status_code == 200
    body = edit.get_data(as_text=True)
    assert re.search(r'name="t0-melded"[^>]*value="555"|value="555"[^>]*name="t0-melded"', body)
    new = client.get("/games/new", headers={"Accept-Language": lang}).get_data(as_text=True)
    dates = re.findall(r'<input[^>]*type="date"[^>]*>', new)
    assert dates
    for field in dates:
        value = re.search(r'value="([^"]*)"', field)
        assert value is None or re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.group(1)), field


@pytest.mark.parametrize("lang", TRANSLATED)
def test_pages_that_refuse_say_so_in_the_language(
    client: FlaskClient, game_id: int, lang: str
) -> None:
    for url in ("/no-such-page", "/games/999999", "/rules/no-such-rules"):
        no_english(page(client, lang, url, status=404), lang)
    no_english(page(client, lang, f"/games/{game_id}/abandon"), lang)


@pytest.mark.parametrize(
    ("lang", "total"),
    [("en", "11,565"), ("de", "11.565"), ("nl", "11.565"), ("fr", "11\u202f565"), ("da", "11.565")],
)
def test_big_totals_are_grouped_the_languages_way(
    app: Flask, client: FlaskClient, game_id: int, lang: str, total: str
) -> None:
    """Three of the German seed's deals make 11565: grouped as the language groups digits;
    a four-digit score stays as the seed writes it (3855)."""
    with app.app_context():
        games.record_deal(game_id, GERMAN_DEAL)
        games.record_deal(game_id, GERMAN_DEAL)
    for url in (f"/games/{game_id}", "/games"):
        body = client.get(url, headers={"Accept-Language": lang}).get_data(as_text=True)
        assert f'<span class="num total">{total}</span>' in body or (
            f'<span class="num team-total">{total}</span>' in body
        ), url
    body = client.get(f"/games/{game_id}", headers={"Accept-Language": lang}).get_data(as_text=True)
    assert '<span class="num">3855</span>' in body


@pytest.mark.parametrize(
    ("lang", "total"),
    [("en", "15,420"), ("de", "15.420"), ("fr", "15\u202f420"), ("da", "15.420")],
)
def test_a_players_pages_group_a_game_total_as_the_game_page_does(
    app: Flask, client: FlaskClient, finished_game_id: int, lang: str, total: str
) -> None:
    """Four of the German seed's deals make 15420 for Ann's team: her page and her statistics
    write it as the game page does, not as a bare run of digits."""
    with app.app_context():
        ann = players.named("Ann")
        assert ann is not None
        ann_id = ann.id
    for url in (f"/games/{finished_game_id}", f"/players/{ann_id}", f"/players/{ann_id}/games"):
        body = client.get(url, headers={"Accept-Language": lang}).get_data(as_text=True)
        assert f">{total}</" in body, url
        assert ">15420<" not in body, url


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_checkers_keys_letter_the_face_cards_as_the_language_does(
    client: FlaskClient, game_id: int, lang: str
) -> None:
    body = client.get(f"/games/{game_id}", headers={"Accept-Language": lang}).get_data(as_text=True)
    keys = re.findall(r'data-card="(\w+)" data-rank="([^"]+)"\s+aria-label="([^"]+)"', body)
    # The ranks as POST /api/opening names them, whatever the language letters them.
    assert [card for card, _rank, _label in keys] == [
        "joker", "2", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"
    ]  # fmt: skip
    letters = [html.unescape(rank) for _card, rank, _label in keys]
    assert letters[1] == "2" and letters[6:] == ["10", "9", "8", "7", "6", "5", "4"]
    # The same letters as the card classes' label, "8, 9, 10, J, Q, K" in that language.
    eights = "8, 9, 10, J, Q, K"
    label = eights if lang == "en" else catalogue(lang)[eights].string
    jack, queen, king = label.split(", ")[3:]
    assert letters[3:6] == [king, queen, jack]
    if lang == "de":  # the German seed's own example: "B B B Joker", "A 8 4"
        assert letters[2:6] == ["A", "K", "D", "B"]
        assert html.unescape(keys[4][2]) == "Dame hinzufügen (10 Punkte)"
    if lang == "en":
        assert letters[:6] == ["Joker", "2", "A", "K", "Q", "J"]
        assert keys[2][2] == "Add ace (20 points)"


def test_french_lists_keep_a_no_break_space_before_each_semicolon(
    client: FlaskClient, game_id: int
) -> None:
    """Phrases joined by the code, not only whole catalogue texts (docs/glossary/fr.md)."""
    body = client.get(f"/games/{game_id}", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    # Standard rules: the partner has played from the foot; the partner gave permission.
    assert "De plus\u00a0: le partenaire a commencé à jouer son pied\u00a0; " in html.unescape(body)
    assert " ;" not in html.unescape(body)  # a plain space would let the line break there
    started = client.get(f"/games/{game_id}/start", headers={"Accept-Language": "fr"})
    assert "</strong>\u00a0: " in html.unescape(started.get_data(as_text=True))  # team: players
