"""The installable app: service worker at the root scope, manifest, and "Connect a tablet"."""

from __future__ import annotations

import hashlib
import io
import json
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import segno
from flask import Blueprint, Response, current_app, render_template, request
from flask_babel import gettext as _
from markupsafe import Markup

from scorekeeper import serve

bp = Blueprint("pwa", __name__)

# Folders under static/ the service worker stores on install (cache-first afterwards).
_PRECACHED = ("css", "js", "icons")


@dataclass(frozen=True)
class Address:
    url: str
    qr_svg: Markup


def qr_svg(url: str, *, label: str | None = None) -> Markup:
    """An inline SVG QR code of ``url``, made here (segno), never fetched from a service.

    Black on white whatever the colour scheme: phone cameras read dark modules on a light
    background best. The SVG carries role="img" and an aria-label naming the URL.
    """
    buffer = io.BytesIO()
    segno.make(url, error="m").save(
        buffer,
        kind="svg",
        scale=1,
        border=4,  # the quiet zone scanners need
        xmldecl=False,
        svgns=True,
        omitsize=True,  # sized by CSS through its viewBox
        dark="#000",
        light="#fff",
        nl=False,
        svgclass="qr",
        lineclass=None,
    )
    svg = buffer.getvalue().decode("ascii")
    aria = label or _("QR code of %(url)s", url=url)
    # segno writes '<svg xmlns=... ' first; add the accessible name on the root element.
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{Markup.escape(aria)}" ', 1)
    return Markup(svg)


def connect_urls(port: int | None) -> list[str]:
    """The addresses a tablet on the same network can open, e.g. ``http://192.168.1.20:5000/``."""
    suffix = f":{port}" if port and port != 80 else ""
    return [f"http://{address}{suffix}/" for address in serve.lan_addresses()]


def _request_port() -> int | None:
    """The port this page was reached on; else PORT from the environment; else the default."""
    try:
        port = urlsplit(f"//{request.host}").port
    except ValueError:
        port = None
    if port is not None:
        return port
    raw = os.environ.get("PORT", "")
    return int(raw) if raw.isascii() and raw.isdigit() else None


@bp.get("/connect")
def connect() -> str:
    addresses = [Address(url, qr_svg(url)) for url in connect_urls(_request_port())]
    return render_template("pwa/connect.html", addresses=addresses)


def _static_files() -> list[Path]:
    root = Path(current_app.static_folder or "")
    return sorted(
        path for folder in _PRECACHED for path in (root / folder).rglob("*") if path.is_file()
    )


@bp.get("/sw.js")
def service_worker() -> Response:
    """static/sw.js served from the root so its scope is the whole app.

    Its version is a hash of the static files: when any of them changes the worker's bytes
    change, the browser installs the new worker and it drops the old cache, so cache-first
    never keeps stale CSS or scripts.
    """
    root = Path(current_app.static_folder or "")
    files = _static_files()
    digest = hashlib.sha256()
    for path in [root / "sw.js", *files]:
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    urls = [f"/static/{path.relative_to(root).as_posix()}" for path in files]
    source = (root / "sw.js").read_text(encoding="utf-8")
    source = source.replace('"__VERSION__"', json.dumps(digest.hexdigest()[:16]))
    source = source.replace('["__PRECACHE__"]', json.dumps(urls))
    response = Response(source, mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = "/"
    # Always ask the server: this is how the browser learns of a new version.
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest, with the type browsers expect and the app's translated name."""
    root = Path(current_app.static_folder or "")
    data = json.loads((root / "manifest.webmanifest").read_text(encoding="utf-8"))
    data["name"] = _("Scorekeeper for Hand and Foot")
    data["short_name"] = _("Scorekeeper")
    data["description"] = _("Keep score for Hand and Foot right at the table.")
    response = current_app.response_class(
        json.dumps(data, ensure_ascii=False, indent=2), mimetype="application/manifest+json"
    )
    response.headers["Cache-Control"] = "no-cache"
    return response
