"""The language follows the browser, can be switched on every page, and is remembered."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from i18n_support import LANGUAGES

LANGUAGE_NAMES = ["English", "Deutsch", "Nederlands", "Français", "Dansk"]


def heading(client: FlaskClient, url: str = "/", **headers: str) -> str:
    body = client.get(url, headers=headers).get_data(as_text=True)
    found = re.search(r'<html lang="([a-z]+)">', body)
    assert found
    return found.group(1)


def test_the_browsers_language_decides_by_default(client: FlaskClient) -> None:
    assert heading(client, **{"Accept-Language": "fr-CH, fr;q=0.9, en;q=0.5"}) == "fr"
    assert heading(client, **{"Accept-Language": "da"}) == "da"
    assert heading(client, **{"Accept-Language": "ja"}) == "en"
    assert heading(client) == "en"


@pytest.mark.parametrize("url", ["/", "/games", "/games/new", "/rules/standard", "/settings"])
def test_every_page_offers_every_language_as_a_plain_link(client: FlaskClient, url: str) -> None:
    body = client.get(url, headers={"Accept-Language": "nl"}).get_data(as_text=True)
    nav = re.search(r'<nav class="language-switch" aria-label="Taal">(.*?)</nav>', body, re.S)
    assert nav, "a labelled language navigation"
    links = re.findall(r'<a href="([^"]+)" lang="([a-z]+)"[^>]*>([^<]+)</a>', nav.group(1))
    assert [(lang, name) for _href, lang, name in links] == list(
        zip(LANGUAGES, LANGUAGE_NAMES, strict=True)
    )
    # Each link comes back to this very page; the current language is marked.
    for href, lang, _name in links:
        assert href.startswith(f"/language/{lang}?next=")
    assert re.search(r'lang="nl"\s+hreflang="nl" aria-current="true"', nav.group(1))


def test_switching_is_remembered_over_the_browsers_language(client: FlaskClient) -> None:
    response = client.get("/language/de?next=/rules/standard")
    assert response.status_code == 303
    assert response.headers["Location"] == "/rules/standard"
    cookie = client.get_cookie("lang")
    assert cookie is not None and cookie.value == "de"
    assert cookie.expires is not None  # a long-lived cookie, not only for this browser session
    assert heading(client, "/rules/standard", **{"Accept-Language": "fr"}) == "de"


def test_the_cookie_alone_remembers_the_language_after_the_session_ends(app: Flask) -> None:
    first = app.test_client()
    first.get("/language/da?next=/")
    later = app.test_client()  # a new browser session: no session cookie any more
    later.set_cookie("lang", "da")
    assert heading(later, **{"Accept-Language": "en"}) == "da"


def test_a_query_keeps_its_place_when_switching(client: FlaskClient) -> None:
    body = client.get("/games?page=1").get_data(as_text=True)
    assert 'href="/language/fr?next=/games?page%3D1"' in body
    response = client.get("/language/fr?next=/games?page%3D1")
    assert response.headers["Location"] == "/games?page=1"


@pytest.mark.parametrize(
    "target",
    [
        "https://example.com/",
        "//example.com/",
        "/\\example.com",
        "/\t/example.com",
        "/\n/example.com",
        " //example.com",
        "",
    ],
)
def test_the_switch_never_sends_the_browser_elsewhere(client: FlaskClient, target: str) -> None:
    response = client.get("/language/nl", query_string={"next": target})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_an_unknown_language_is_not_found(client: FlaskClient) -> None:
    assert client.get("/language/xx?next=/").status_code == 404
    assert client.get_cookie("lang") is None


def test_switching_needs_no_passcode(app: Flask, client: FlaskClient) -> None:
    app.config["TABLE_PASSCODE"] = "secret-table"
    response = client.get("/language/de?next=/")
    assert response.status_code == 303
    assert heading(client) == "de"
