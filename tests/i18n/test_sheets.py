"""Printed sheets in any of the five languages, whatever language the page is in."""

from __future__ import annotations

import subprocess
import tempfile
from datetime import date, datetime

import pytest
from flask import Flask, render_template_string
from flask.testing import FlaskClient
from i18n_support import LANGUAGES, ONE_DEAL, TEAMS, TRANSLATED, leftover_english

from scorekeeper import sheets
from scorekeeper.services import games

# What a blank standard sheet must say in each language (docs/glossary/<lang>.md). Where the
# game is played is a location, not a ranking's place ("Platz", "Plads").
BLANK_WORDS = {
    "en": ["Hand and Foot", "Score sheet", "Clean books", "Dirty books", "Red threes caught",
           "Location"],
    "de": ["Punktezettel", "Reine Bücher", "Gemischte Bücher", "Wilde Bücher", "Runde",
           "Rote Dreien erwischt", "Ausmachen", "Ort"],
    "nl": ["Score van de deal", "Schone boeken", "Vuile boeken", "Wilde boeken", "Deal",
           "Rode drieën gevangen", "Uitgaan", "Locatie"],
    "fr": ["Feuille de marque", "Livres propres", "Livres sales", "Livres sauvages", "Tour",
           "Trois rouges pris", "Sortie", "Lieu"],
    "da": ["Scoreark", "Rene bunker", "Beskidte bunker", "Vilde bunker", "Runde",
           "Røde treer fanget", "Gå ud", "Sted"],
}  # fmt: skip
# A filled sheet adds who went out, the winner so far and the players.
FILLED_WORDS = {
    "en": ["In progress: 1 of 4 deals played", "Leading: Ann & Ben with 3855", "Played on",
           "Dealer: Ann"],
    "de": ["Läuft: 1 von 4 Runden gespielt", "In Führung: Ann & Ben mit 3855", "Gespielt am",
           "Geber: Ann"],
    "nl": ["Bezig: 1 van 4 deals gespeeld", "Aan kop: Ann & Ben met 3855", "Gespeeld op",
           "Deler: Ann"],
    "fr": ["En cours\u00a0: 1 sur 4 tours joués", "En tête\u00a0: Ann & Ben avec 3855", "Jouée le",
           "Donneur\u00a0: Ann"],
    "da": ["I gang: 1 af 4 runder spillet", "Fører: Ann & Ben med 3855", "Spillet den",
           "Giver: Ann"],
}  # fmt: skip


def pdf_text(pdf: bytes) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as file:
        file.write(pdf)
        file.flush()
        done = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", file.name, "-"],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
    return " ".join(done.stdout.split())


def spaced(text: str) -> str:
    return " ".join(text.split())


def pdf(client: FlaskClient, url: str, **query: str) -> bytes:
    # The page language is English on purpose: the sheet's own language must win.
    response = client.get(url, query_string=query, headers={"Accept-Language": "en"})
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/pdf"
    return response.data


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_blank_sheet_in_each_language(client: FlaskClient, lang: str) -> None:
    text = pdf_text(pdf(client, "/sheets/blank.pdf", ruleset="standard", lang=lang))
    assert [w for w in BLANK_WORDS[lang] if spaced(w).lower() not in text.lower()] == []
    if lang != "en":
        assert leftover_english(text, lang) == [], text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_filled_sheet_in_each_language(client: FlaskClient, game_id: int, lang: str) -> None:
    text = pdf_text(pdf(client, f"/games/{game_id}/sheet.pdf", lang=lang))
    assert [w for w in FILLED_WORDS[lang] if spaced(w) not in text] == []
    assert "3855" in text
    if lang != "en":
        assert leftover_english(text, lang) == [], text


def test_the_first_of_a_month_is_the_1er_in_french(app: Flask, client: FlaskClient) -> None:
    """French writes the first of a month as an ordinal; Babel's "1 décembre" does not."""
    with app.app_context():
        first = games.start_game("standard", TEAMS, played_on=date(2026, 12, 1)).id
        second = games.start_game("standard", TEAMS, played_on=date(2026, 12, 2)).id
    assert "Jouée le 1er décembre 2026" in pdf_text(
        pdf(client, f"/games/{first}/sheet.pdf", lang="fr")
    )
    assert "Jouée le 2 décembre 2026" in pdf_text(
        pdf(client, f"/games/{second}/sheet.pdf", lang="fr")
    )
    assert "Played on December 1, 2026" in pdf_text(
        pdf(client, f"/games/{first}/sheet.pdf", lang="en")
    )
    page = client.get(f"/games/{first}", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "1er déc. 2026" in page
    page = client.get(f"/games/{second}", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "2 déc. 2026" in page and "2er" not in page
    # A moment too (a correction's, a backup's): "le 1er déc. 2026, 20:15:00".
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        moment = render_template_string(
            "{{ when|datetimeformat('medium') }}", when=datetime(2026, 12, 1, 12, 0)
        )
    assert moment.startswith("1er déc. 2026")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_season_standings_in_each_language(
    client: FlaskClient, finished_game_id: int, lang: str
) -> None:
    text = pdf_text(pdf(client, "/seasons/1/standings.pdf", lang=lang))
    assert "Winter" in text and "Ann" in text
    assert leftover_english(text, lang) == [], text


def test_without_a_language_the_sheet_follows_the_page(client: FlaskClient) -> None:
    response = client.get("/sheets/blank.pdf", headers={"Accept-Language": "da"})
    assert "Rene bunker" in pdf_text(response.data)
    assert (
        'filename="scoresheet-standard-2-teams-a4.pdf"' in response.headers["Content-Disposition"]
    )


def test_a_sheet_asked_for_in_a_language_says_so_in_its_file_name(
    client: FlaskClient, game_id: int
) -> None:
    response = client.get("/sheets/blank.pdf?lang=fr")
    assert (
        'filename="scoresheet-standard-2-teams-a4-fr.pdf"'
        in response.headers["Content-Disposition"]
    )
    response = client.get(f"/games/{game_id}/sheet.pdf?lang=nl")
    assert f'filename="game-{game_id}-2026-11-29-nl.pdf"' in response.headers["Content-Disposition"]


def test_the_blank_sheet_cache_keeps_each_language_apart(client: FlaskClient) -> None:
    german = pdf(client, "/sheets/blank.pdf", lang="de")
    french = pdf(client, "/sheets/blank.pdf", lang="fr")
    assert len(sheets.blank_cache) == 2
    assert pdf(client, "/sheets/blank.pdf", lang="de") == german
    assert "Livres propres" in pdf_text(french) and "Livres propres" not in pdf_text(german)
    assert len(sheets.blank_cache) == 2


@pytest.mark.parametrize("lang", ["xx", "english", "de-DE", "../en"])
def test_an_unknown_language_is_refused_in_the_pages_language(
    client: FlaskClient, lang: str
) -> None:
    response = client.get(
        "/sheets/blank.pdf", query_string={"lang": lang}, headers={"Accept-Language": "de"}
    )
    assert response.status_code == 400
    assert "Die Sprache des Zettels muss eine von en, de, nl, fr, da sein" in response.get_data(
        as_text=True
    )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_sheet_form_offers_the_languages_with_the_pages_own_chosen(
    client: FlaskClient, game_id: int, finished_game_id: int, lang: str
) -> None:
    for url in ("/rules/standard", f"/games/{game_id}", "/seasons/1"):
        body = client.get(url, headers={"Accept-Language": lang}).get_data(as_text=True)
        assert f'<option value="{lang}" lang="{lang}" selected>' in body, url
        assert body.count('name="lang"') == 1, url


ONE_DEAL_STATUS = {
    "en": ("In progress: 0 of 1 deal played", "Abandoned after 0 of 1 deal"),
    "de": ("Läuft: 0 von 1 Runde gespielt", "Abgebrochen nach 0 von 1 Runde"),
    "nl": ("Bezig: 0 van 1 deal gespeeld", "Afgebroken na 0 van 1 deal"),
    "fr": ("En cours\u00a0: 0 sur 1 tour joué", "Abandonnée après 0 sur 1 tour"),
    "da": ("I gang: 0 af 1 runde spillet", "Opgivet efter 0 af 1 runde"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_sheet_of_a_one_deal_game_counts_one_deal(
    app: Flask, client: FlaskClient, lang: str
) -> None:
    with app.app_context():
        game_id = games.start_game(ONE_DEAL, TEAMS).id
    in_play, abandoned = ONE_DEAL_STATUS[lang]
    assert spaced(in_play) in pdf_text(pdf(client, f"/games/{game_id}/sheet.pdf", lang=lang))
    with app.app_context():
        games.abandon_game(game_id)
    assert spaced(abandoned) in pdf_text(pdf(client, f"/games/{game_id}/sheet.pdf", lang=lang))
