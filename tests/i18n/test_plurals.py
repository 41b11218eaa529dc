"""Counts take the plural form of each language: 1 deck and 2 decks, 1 Blatt and 2 Blätter.

Games imported from a file may be played with a single deck, house rules may have a single
deal, and French says "0 tour" and "1 tour" but "2 tours": wherever a number stands before a
noun, the text is a plural text, never one form with the number filled in.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale
from i18n_support import GERMAN_DEAL, ONE_DEAL, TEAMS, visible_text

from scorekeeper.extensions import db
from scorekeeper.messages import imported_text, say
from scorekeeper.models import Game
from scorekeeper.rules import (
    PRESETS,
    CardClass,
    Cards,
    TallyError,
    TeamTally,
    deal_hints,
    read_teams,
)
from scorekeeper.rules import validate_deal as validate
from scorekeeper.services import exchange, games
from scorekeeper.services.errors import Invalid
from scorekeeper.services.exchange import Counts, ImportSummary
from scorekeeper.services.games import TeamSpec
from scorekeeper.web import rules_text


def page(client: FlaskClient, url: str, lang: str) -> str:
    response = client.get(url, headers={"Accept-Language": lang})
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


def score(client: FlaskClient, lang: str, **body: Any) -> Any:
    body = {"ruleset": "standard", "deal": 1} | body
    return client.post("/api/score", json=body, headers={"Accept-Language": lang}).json


# Three red threes reported with one deck (two in it), five with two decks (four in them).
@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "but 1 deck holds only 2.", "but 2 decks hold only 4."),
        ("de", "aber 1 Blatt enthält nur 2.", "aber 2 Blätter enthalten nur 4."),
        ("nl", "maar 1 kaartspel bevat er maar 2.", "maar 2 kaartspellen bevatten er maar 4."),
        ("fr", "mais 1 jeu n'en contient que 2.", "mais 2 jeux n'en contiennent que 4."),
        ("da", "men 1 kortspil rummer kun 2.", "men 2 kortspil rummer kun 4."),
    ],
)
def test_the_decks_in_a_refusal_take_the_languages_plural(
    client: FlaskClient, lang: str, one: str, two: str
) -> None:
    single = score(client, lang, decks=1, teams=[{"red_threes": 3}, {}])
    assert single["errors"][0]["message"].endswith(one)
    double = score(client, lang, decks=2, teams=[{"red_threes": 5}, {}])
    assert double["errors"][0]["message"].endswith(two)


@pytest.mark.parametrize(
    ("lang", "one", "not_one"),
    [
        ("en", ["· 1 deck", "cards into each hand, 13 into each foot; 1 deck in play."], "1 decks"),
        ("de", ["· 1 Blatt", "1 Blatt im Spiel."], "1 Blätter"),
        ("nl", ["· 1 kaartspel", "1 kaartspel in het spel."], "1 kaartspellen"),
        ("fr", ["· 1 jeu de cartes", "1 jeu de cartes en jeu."], "1 jeux"),
        ("da", ["· 1 kortspil", "1 kortspil i brug."], "1 decks"),
    ],
)
def test_a_game_with_one_deck_says_one_deck(
    app: Flask, client: FlaskClient, lang: str, one: list[str], not_one: str
) -> None:
    with app.app_context():
        game = games.start_game("standard", TEAMS)
        # As a game imported from a file may be: the export format allows a single deck.
        stored = db.session.get(Game, game.id)
        assert stored is not None
        stored.decks = 1
        db.session.commit()
        game_id = game.id
    text = visible_text(page(client, f"/games/{game_id}", lang))
    assert [phrase for phrase in one if phrase not in text] == []
    assert not_one not in text


@pytest.mark.parametrize(
    ("lang", "before", "after", "chart"),
    [
        ("en", "0 of 1 deal played", "Final totals after 1 deal.", "After 1 deal:"),
        ("de", "0 von 1 Runde gespielt", "Endstand nach 1 Runde.", "Nach 1 Runde:"),
        ("nl", "0 van 1 deal gespeeld", "Eindstand na 1 deal.", "Na 1 deal:"),
        ("fr", "0 sur 1 tour joué", "Totaux finaux après 1 tour.", "Après 1 tour\u00a0:"),
        ("da", "0 af 1 runde spillet", "Slutstilling efter 1 runde.", "Efter 1 runde:"),
    ],
)
def test_a_game_of_one_deal_counts_one_deal(
    app: Flask, client: FlaskClient, lang: str, before: str, after: str, chart: str
) -> None:
    with app.app_context():
        game_id = games.start_game(ONE_DEAL, TEAMS).id
    assert before in visible_text(page(client, "/games", lang))
    with app.app_context():
        games.record_deal(game_id, GERMAN_DEAL)
    body = page(client, f"/games/{game_id}", lang)
    assert after in visible_text(body)
    # The running-totals chart describes itself to screen readers in the same words.
    assert chart in body


@pytest.mark.parametrize(
    ("lang", "refusal"),
    [
        ("en", "The one deal of this game is in; correct it instead."),
        ("de", "Die einzige Runde dieser Partie ist eingetragen; korrigiere sie stattdessen."),
        ("fr", "Le seul tour de cette partie est saisi\u00a0; corrigez-le plutôt."),
    ],
)
def test_a_deal_past_the_only_one_is_refused_in_the_singular(
    client: FlaskClient, one_deal_game_id: int, lang: str, refusal: str
) -> None:
    deal = [t.to_json() for t in GERMAN_DEAL]
    response = client.post(
        f"/api/games/{one_deal_game_id}/deals",
        json={"teams": deal},
        headers={"Accept-Language": lang},
    )
    assert response.status_code == 409
    assert response.json["errors"][0]["message"] == refusal


@pytest.mark.parametrize(
    ("lang", "red_threes"),
    [
        ("en", "Red threes: 1 laid, 0 caught"),
        ("de", "Rote Dreien: 1 ausgelegt, 0 erwischt"),
        ("fr", "Trois rouges : 1 posé, 0 pris"),
    ],
)
def test_one_red_three_laid(client: FlaskClient, game_id: int, lang: str, red_threes: str) -> None:
    assert red_threes in visible_text(page(client, f"/games/{game_id}", lang))


ONE_OF_EACH = ImportSummary(Counts(players=1, seasons=1, house_rules=1, games=1), Counts(games=1))
TWO_OF_EACH = ImportSummary(Counts(players=2, seasons=2, house_rules=2, games=2), Counts(games=2))


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        (
            "en",
            "Imported 1 game, 1 player, 1 season and 1 set of house rules; "
            "1 game was already there.",
            "Imported 2 games, 2 players, 2 seasons and 2 sets of house rules; "
            "2 games were already there.",
        ),
        (
            "de",
            "1 Partie, 1 Spieler, 1 Saison und 1 Hausregelwerk importiert; 1 Partie war schon da.",
            "2 Partien, 2 Spieler, 2 Saisons und 2 Hausregelwerke importiert; "
            "2 Partien waren schon da.",
        ),
        (
            "fr",
            "Importé\u00a0: 1 partie, 1 joueur, 1 saison et 1 ensemble de règles maison\u00a0; "
            "1 partie était déjà là.",
            "Importé\u00a0: 2 parties, 2 joueurs, 2 saisons et 2 ensembles de règles maison\u00a0; "
            "2 parties étaient déjà là.",
        ),
    ],
)
def test_what_an_import_added_counts_each_kind_in_its_plural(
    app: Flask, lang: str, one: str, two: str
) -> None:
    with app.test_request_context(), force_locale(lang):
        assert imported_text(ONE_OF_EACH) == one
        assert imported_text(TWO_OF_EACH) == two


@pytest.mark.parametrize(
    ("lang", "wait"),
    [
        ("en", "Too many wrong passcodes. Try again in 1 minute."),
        ("de", "Zu viele falsche Codes. Versuche es in 1 Minute noch einmal."),
    ],
)
def test_a_wait_of_one_minute_on_the_sign_in_page(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch, lang: str, wait: str
) -> None:
    from scorekeeper import auth

    with app.app_context():
        auth.set_passcode("hand-and-foot")
    monkeypatch.setattr(auth.FailureLimiter, "blocked_for", lambda _self, _key: 30.0)
    response = client.post(
        "/sign-in", data={"passcode": "hand-and-foot"}, headers={"Accept-Language": lang}
    )
    assert response.status_code == 429
    assert wait in visible_text(response.get_data(as_text=True))


@pytest.mark.parametrize(
    ("lang", "one"),
    [
        ("en", "but only 1 natural card was melded."),
        ("de", "aber nur 1 natürliche Karte wurde ausgelegt."),
        ("fr", "mais seulement 1 carte naturelle a été posée."),
        ("da", "men der blev kun meldt 1 naturligt kort."),
    ],
)
def test_one_natural_card_melded(app: Flask, lang: str, one: str) -> None:
    team = TeamTally(clean_books=1, melded=Cards.of_counts({CardClass.ACES: 1}))
    problems = [
        p for p in validate(PRESETS["standard"], 1, [team, TeamTally()]) if p.field == "melded"
    ]
    with app.test_request_context(), force_locale(lang):
        assert any(say(p).endswith(one) for p in problems), [say(p) for p in problems]


@pytest.mark.parametrize(
    ("lang", "start"),
    [
        ("en", "Team B melded nothing, so their foot was never picked up:"),
        ("nl", "Team B: niets gemeld, dus de voet is nooit opgepakt;"),
        ("de", "Partei B: nichts ausgelegt, also wurde der Fuß nie aufgenommen;"),
        ("fr", "Équipe B\u00a0: rien n'a été posé, donc le pied n'a jamais été ramassé\u00a0;"),
        ("da", "Hold B meldte intet, så foden blev aldrig taget op:"),
    ],
)
def test_a_player_alone_who_melded_nothing_holds_a_foot_not_a_teams(
    app: Flask, lang: str, start: str
) -> None:
    # The singular speaks of one player alone: their foot, not "the team's foot".
    out = TeamTally(clean_books=1, dirty_books=1, melded=Cards(points=300), went_out=True)
    teams = [out, TeamTally(left=Cards(points=50))]
    assert validate(PRESETS["simpson"], 1, teams, None, [1, 1]) == []
    hints = deal_hints(PRESETS["simpson"], 1, teams, [1, 1])
    with app.test_request_context(), force_locale(lang):
        assert [say(hint)[: len(start)] for hint in hints] == [start]


def test_one_team_given_is_one_team() -> None:
    with pytest.raises(TallyError) as refused:
        read_teams([{}])
    assert refused.value.problems[0].message.endswith("; 1 was given.")


@pytest.mark.parametrize(
    ("lang", "refusal"),
    [
        ("en", "With 5 players these rules need everyone playing alone."),
        ("de", "Mit 5 Spielern brauchen diese Regeln jeder für sich."),
        ("fr", "Avec 5 joueurs, ces règles demandent chacun pour soi."),
    ],
)
def test_the_ways_to_sit_down_are_said_in_the_language(
    client: FlaskClient, lang: str, refusal: str
) -> None:
    teams = [{"players": ["Ann", "Ben", "Cid"]}, {"players": ["Dee", "Eve"]}]
    response = client.post(
        "/api/games",
        json={"ruleset": "standard", "teams": teams},
        headers={"Accept-Language": lang},
    )
    assert response.status_code == 422
    assert refusal in [e["message"] for e in response.json["errors"]]


def test_several_ways_to_sit_down_are_joined_with_or(app: Flask) -> None:
    rules = PRESETS["standard"].to_dict() | {"id": "pairs-or-threes", "partnership_sizes": [2, 3]}
    with app.test_request_context(), force_locale("de"):
        with pytest.raises(Invalid) as refused:
            games.start_game(rules, [TeamSpec("", ["A", "B", "C", "D"]), TeamSpec("", ["E", "F"])])
        said = [say(p) for p in refused.value.problems]
    assert "Mit 6 Spielern brauchen diese Regeln 3 Parteien zu 2 oder 2 Parteien zu 3." in said


def test_a_hand_of_one_card(app: Flask) -> None:
    rules = replace(PRESETS["standard"], hand_cards=1)
    with app.test_request_context():
        assert rules_text.hand_and_foot_phrase(rules) == "1 card in the hand, 13 in the foot"


@pytest.mark.parametrize(
    ("lang", "too_many", "unfinished"),
    [
        (
            "en",
            "These rules play 1 deal; the file has 2.",
            "The game is marked finished but has 0 of its 1 deal.",
        ),
        (
            "de",
            "Diese Regeln spielen 1 Runde; die Datei hat 2.",
            "Die Partie ist als beendet markiert, hat aber nur 0 ihrer 1 Runde.",
        ),
        (
            "fr",
            "Ces règles se jouent en 1 tour\u00a0; le fichier en a 2.",
            "La partie est marquée comme terminée mais n'a que 0 de ses 1 tour.",
        ),
    ],
)
@pytest.mark.usefixtures("one_deal_game_id")
def test_an_import_of_a_one_deal_game_counts_one_deal(
    app: Flask, lang: str, too_many: str, unfinished: str
) -> None:
    with app.app_context():
        document = exchange.export_document()
    played = document["games"][0]
    # One deal too many for these rules, and the same game again with no deal but finished.
    played["deals"].append(played["deals"][0] | {"number": 2})
    empty = played | {"uid": "0" * 32, "deals": [], "totals": [0, 0], "corrections": []}
    document["games"].append(empty)
    with app.test_request_context(), force_locale(lang):
        with pytest.raises(Invalid) as refused:
            exchange.import_document(document)
        said = [say(problem) for problem in refused.value.problems]
    assert any(too_many in text for text in said), said
    assert any(unfinished in text for text in said), said
