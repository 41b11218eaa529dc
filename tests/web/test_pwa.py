"""The installable app without a browser: /sw.js, the manifest and "Connect a tablet"."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web import pwa


@pytest.fixture(autouse=True)
def _fixed_lan(monkeypatch: pytest.MonkeyPatch) -> None:
    # Whatever network the test machine is on, the page shows what lan_addresses() finds.
    monkeypatch.setattr(pwa.serve, "lan_addresses", lambda: ["192.168.1.20", "10.0.0.7"])


def test_connect_shows_each_address_with_the_port_and_a_qr_code(client: FlaskClient) -> None:
    response = client.get("/connect", headers={"Host": "localhost:5123"})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    for url in ("http://192.168.1.20:5123/", "http://10.0.0.7:5123/"):
        assert f'<a href="{url}">{url}</a>' in html
        assert f'aria-label="QR code of {url}"' in html
    assert html.count('<svg role="img"') == 2
    assert 'aria-current="page">Connect</a>' in html


def test_connect_without_a_port_uses_the_port_setting(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PORT", "8080")
    html = client.get("/connect", headers={"Host": "scores.local"}).get_data(as_text=True)
    assert "http://192.168.1.20:8080/" in html
    monkeypatch.delenv("PORT")
    html = client.get("/connect", headers={"Host": "scores.local"}).get_data(as_text=True)
    assert '<a href="http://192.168.1.20/">' in html


def test_qr_code_is_local_svg_that_encodes_the_url() -> None:
    svg = str(pwa.qr_svg("http://192.168.1.20:5000/"))
    assert svg.startswith('<svg role="img" aria-label="QR code of http://192.168.1.20:5000/"')
    assert "<script" not in svg and "href" not in svg  # a picture, nothing fetched
    # A longer URL needs a bigger code: the content really is encoded.
    small = re.search(r'viewBox="0 0 (\d+)', svg)
    big = re.search(r'viewBox="0 0 (\d+)', str(pwa.qr_svg("http://192.168.1.20:5000/" + "x" * 80)))
    assert small and big and int(big[1]) > int(small[1])


def test_connect_urls_omit_port_80() -> None:
    assert pwa.connect_urls(80) == ["http://192.168.1.20/", "http://10.0.0.7/"]
    assert pwa.connect_urls(5000)[0] == "http://192.168.1.20:5000/"


def test_service_worker_is_served_at_the_root(app: Flask, client: FlaskClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Service-Worker-Allowed"] == "/"
    assert response.headers["Cache-Control"] == "no-cache"
    source = response.get_data(as_text=True)
    assert "__VERSION__" not in source and "__PRECACHE__" not in source
    precache = json.loads(re.search(r"var PRECACHE = (\[.*?\]);", source)[1])  # type: ignore[index]
    assert "/static/css/app.css" in precache and "/static/js/app.js" in precache
    for url in precache:
        with client.get(url) as static:  # closed: static files are streamed
            assert static.status_code == 200, url
    # POSTs are never answered from a cache: the worker only handles GET.
    assert 'request.method !== "GET"' in source


def test_service_worker_version_follows_the_static_files(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    def version() -> str:
        source = client.get("/sw.js").get_data(as_text=True)
        return re.search(r'var VERSION = "(\w+)"', source)[1]  # type: ignore[index]

    before = version()
    assert version() == before
    static = tmp_path / "static"
    for name in ("sw.js", "css/app.css", "js/app.js"):
        (static / name).parent.mkdir(parents=True, exist_ok=True)
        (static / name).write_bytes((Path(app.static_folder or "") / name).read_bytes())
    app.static_folder = str(static)
    same_files = version()
    (static / "css" / "app.css").write_text("body { color: red; }\n")
    assert version() != same_files


def test_manifest(client: FlaskClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = response.get_json(force=True)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["short_name"] == "Scorekeeper"
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as image:
            assert image.status_code == 200, icon["src"]
            assert image.mimetype == icon["type"]


def test_every_page_links_the_manifest_and_scripts(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<script src="/static/js/theme.js"></script>' in html
    assert '<script src="/static/js/app.js" defer></script>' in html
    # No inline script anywhere: the CSP allows only our own files.
    assert re.findall(r"<script(?![^>]*\bsrc=)", html) == []
