"""Messages of the rules core in every language: plural forms, team labels, the JSON API."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale

from scorekeeper.messages import say
from scorekeeper.rules import PRESETS, Problem, TeamTally, validate_deal
from scorekeeper.rules.i18n import NP_, Phrase, render


def wild_book_problem(count: int) -> Problem:
    rules = PRESETS["no-wild-books"]
    return validate_deal(rules, 1, [TeamTally(wild_books=count), TeamTally()])[0]


def test_english_picks_the_singular_for_one() -> None:
    assert wild_book_problem(1).message == (
        "Team A reports 1 wild book, but these rules have no wild books."
    )
    assert wild_book_problem(2).message == (
        "Team A reports 2 wild books, but these rules have no wild books."
    )


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("de", "Partei A: 1 wildes Buch gemeldet,", "Partei A: 2 wilde Bücher gemeldet,"),
        ("nl", "Team A: 1 wild boek opgegeven,", "Team A: 2 wilde boeken opgegeven,"),
        (
            "fr",
            "Équipe A\u00a0: 1 livre sauvage annoncé,",
            "Équipe A\u00a0: 2 livres sauvages annoncés,",
        ),
        ("da", "Hold A opgiver 1 vild bunke,", "Hold A opgiver 2 vilde bunker,"),
    ],
)
def test_each_language_picks_its_plural_form_and_names_the_team(
    app: Flask, lang: str, one: str, two: str
) -> None:
    with app.test_request_context(), force_locale(lang):
        assert say(wild_book_problem(1)).startswith(one)
        assert say(wild_book_problem(2)).startswith(two)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("de", "Ann & Ben: 1 wildes Buch gemeldet,"),  # not "Ann & Ben meldet"
        ("nl", "Ann & Ben: 1 wild boek opgegeven,"),  # not "Ann & Ben geeft … op"
        ("fr", "Ann & Ben\u00a0: 1 livre sauvage annoncé,"),  # not "Ann & Ben annonce"
    ],
)
def test_a_named_team_keeps_its_name_and_no_verb_agrees_with_it(
    app: Flask, lang: str, said: str
) -> None:
    """A team is one player, two ("Ann & Ben") or a name of its own: in German, Dutch and
    French a verb or a possessive agreeing with it would be wrong for some of them, so the
    messages name the team first, then a colon."""
    rules = PRESETS["no-wild-books"]
    problem = validate_deal(rules, 1, [TeamTally(name="Ann & Ben", wild_books=1), TeamTally()])[0]
    with app.test_request_context(), force_locale(lang):
        assert say(problem).startswith(said)


def test_several_teams_are_named_in_the_language(app: Flask) -> None:
    teams = [TeamTally(went_out=True, clean_books=2, dirty_books=2, wild_books=1)] * 2
    problems = [p for p in validate_deal(PRESETS["standard"], 1, teams) if p.field == "went_out"]
    assert problems[0].message.endswith("2 teams report going out: Team A, Team B.")
    with app.test_request_context(), force_locale("fr"):
        assert say(problems[0]).endswith(
            "équipes annoncent être sorties\u00a0: Équipe A, Équipe B."
        )


def test_render_without_translations_is_english() -> None:
    template = NP_("%(n)d red three", "%(n)d red threes", "n")
    assert render(template, {"n": 1}) == "1 red three"
    assert render(template, {"n": 3}) == "3 red threes"
    assert str(Phrase("Team %(letter)s", {"letter": "C"})) == "Team C"


def score(client: FlaskClient, lang: str, teams: list[dict[str, Any]]) -> Any:
    return client.post(
        "/api/score",
        json={"ruleset": "no-wild-books", "deal": 1, "teams": teams},
        headers={"Accept-Language": lang},
    )


def test_api_messages_follow_accept_language(client: FlaskClient) -> None:
    teams = [{"wild_books": 1}, {}]
    german = score(client, "de-DE,de;q=0.9", teams)
    assert german.status_code == 422
    assert german.json["errors"][0]["message"] == (
        "Partei A: 1 wildes Buch gemeldet, aber diese Regeln kennen keine wilden Bücher."
    )
    english = score(client, "en", teams)
    assert english.json["errors"][0]["message"] == (
        "Team A reports 1 wild book, but these rules have no wild books."
    )
    # Field names stay as the API spells them, whatever the language.
    assert german.json["errors"][0]["field"] == english.json["errors"][0]["field"] == "wild_books"


def test_api_refusals_of_the_services_follow_accept_language(client: FlaskClient) -> None:
    response = client.get("/api/games/999999", headers={"Accept-Language": "da"})
    assert response.status_code == 404
    assert "Der er intet spil 999999." in response.get_data(as_text=True)


GOING_OUT = {"clean_books": 2, "dirty_books": 2, "wild_books": 1, "went_out": True, "melded": 555}


@pytest.mark.parametrize(
    ("lang", "first", "second"),
    [
        ("en", "Team A", "Team B"),
        ("de", "Partei A", "Partei B"),
        ("nl", "Team A", "Team B"),
        ("fr", "Équipe A", "Équipe B"),
        ("da", "Hold A", "Hold B"),
    ],
)
def test_the_calculator_names_unnamed_teams_in_the_language(
    client: FlaskClient, lang: str, first: str, second: str
) -> None:
    scored = client.post(
        "/api/score",
        json={"ruleset": "standard", "deal": 1, "teams": [GOING_OUT, {"melded": 220}]},
        headers={"Accept-Language": lang},
    )
    assert scored.status_code == 200
    assert [team["name"] for team in scored.json["teams"]] == [first, second]
    # The same words as the refusals of the same request, and of the web pages.
    refused = score(client, lang, [{"wild_books": 1}, {}])
    assert refused.json["errors"][0]["message"].startswith(f"{first}")
    assert refused.json["errors"][0]["message"][len(first)] in " :\u00a0"


def test_the_calculator_keeps_a_teams_own_name(client: FlaskClient) -> None:
    named = client.post(
        "/api/score",
        json={
            "ruleset": "standard",
            "deal": 1,
            "teams": [GOING_OUT | {"name": "Ann & Ben"}, {"melded": 220}],
        },
        headers={"Accept-Language": "de"},
    )
    assert [team["name"] for team in named.json["teams"]] == ["Ann & Ben", "Partei B"]


def test_a_game_without_team_names_is_named_alike_by_the_api_and_the_web(
    client: FlaskClient,
) -> None:
    """What a game stores is the table's data, not words of one language: both ways of
    starting a game name an unnamed team after its players, whatever the browser speaks."""
    api = client.post(
        "/api/games",
        json={
            "ruleset": "standard",
            "teams": [{"players": ["Ann", "Ben"]}, {"players": ["Cid", "Dee"]}],
        },
        headers={"Accept-Language": "de"},
    )
    assert api.status_code == 201
    web = client.post(
        "/games/new",
        data={
            "ruleset": "standard",
            "t0-p0": "Eve",
            "t0-p1": "Fay",
            "t1-p0": "Gus",
            "t1-p1": "Hal",
        },
        headers={"Accept-Language": "fr"},
    )
    assert web.status_code == 302
    web_game = web.headers["Location"].split("/")[2]
    read = [
        client.get(url, headers={"Accept-Language": "nl"}).json
        for url in (api.headers["Location"], f"/api/games/{web_game}")
    ]
    assert [[team["name"] for team in game["teams"]] for game in read] == [
        ["Ann & Ben", "Cid & Dee"],
        ["Eve & Fay", "Gus & Hal"],
    ]
