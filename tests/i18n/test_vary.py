"""Caches keep one copy of a page per language: ``Vary: Accept-Language, Cookie``.

The language comes from the browser's Accept-Language, unless this device chose one (the
``lang`` cookie, the session cookie). Without the header a cache in between, or the
browser's own, may hand the Dutch page it kept to a German tablet.
"""

from __future__ import annotations

import pytest
from flask import Flask, Response
from flask.testing import FlaskClient
from flask_babel import gettext


def varies_by(response: Response) -> list[str]:
    """The header names in Vary, as HTTP compares them: without regard to case."""
    return [name.lower() for name in response.vary]


@pytest.mark.parametrize(
    "url",
    ["/", "/games", "/rules/standard", "/settings", "/manifest.webmanifest", "/no-such-page"],
)
def test_pages_in_the_negotiated_language_vary_by_it(client: FlaskClient, url: str) -> None:
    dutch = client.get(url, headers={"Accept-Language": "nl"})
    german = client.get(url, headers={"Accept-Language": "de"})
    assert dutch.get_data() != german.get_data(), "the page does differ by language"
    for response in (dutch, german):
        assert set(varies_by(response)) >= {"accept-language", "cookie"}, url
        assert len(varies_by(response)) == len(set(varies_by(response))), "each name once"


def test_the_cookie_counts_too_when_it_chose_the_language(client: FlaskClient) -> None:
    client.set_cookie("lang", "da")
    response = client.get("/", headers={"Accept-Language": "nl"})
    assert '<html lang="da">' in response.get_data(as_text=True)
    assert {"accept-language", "cookie"} <= set(varies_by(response))


def test_api_refusals_in_the_language_vary_by_it(client: FlaskClient) -> None:
    response = client.get("/api/games/999999", headers={"Accept-Language": "fr"})
    assert response.status_code == 404
    assert "Il n'y a pas de partie 999999." in response.get_data(as_text=True)
    assert {"accept-language", "cookie"} <= set(varies_by(response))


@pytest.mark.parametrize("url", ["/static/css/app.css", "/static/js/table.js", "/sw.js"])
def test_files_that_never_choose_a_language_do_not_vary(client: FlaskClient, url: str) -> None:
    with (
        client.get(url, headers={"Accept-Language": "nl"}) as dutch,
        client.get(url, headers={"Accept-Language": "de"}) as german,
    ):
        assert dutch.status_code == 200
        assert dutch.get_data() == german.get_data()
        assert "accept-language" not in varies_by(dutch)


def test_a_vary_set_by_the_view_is_kept(app: Flask) -> None:
    @app.get("/test-only/compressed")
    def compressed() -> Response:
        response = Response(gettext("Players"))
        response.headers["Vary"] = "Accept-Encoding, cookie"
        return response

    response = app.test_client().get("/test-only/compressed", headers={"Accept-Language": "de"})
    assert response.get_data(as_text=True) == "Spieler"
    assert sorted(varies_by(response)) == ["accept-encoding", "accept-language", "cookie"]
