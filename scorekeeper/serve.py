"""Serve the app on the local network with waitress: ``python -m scorekeeper.serve``.

Environment: ``PORT`` (5000), ``DATABASE_URL``, ``SCOREKEEPER_INSTANCE_PATH`` (the folder of
the database, secret key and config.py; ``instance/`` by default), ``SCOREKEEPER_PROXIES``.
This server never runs in debug mode, whatever ``FLASK_DEBUG`` says.
"""

from __future__ import annotations

import os
import socket

from flask import Flask
from waitress import serve

from scorekeeper import create_app, memory

DEFAULT_PORT = 5000


def lan_addresses() -> list[str]:
    """IPv4 addresses a tablet on the same network can reach; 127.0.0.1 if none found."""
    addresses: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            # Connecting a UDP socket sends nothing: it only asks the kernel which local
            # address would route there, i.e. the primary LAN address.
            s.connect(("10.255.255.255", 1))
            address = str(s.getsockname()[0])
            if address and not address.startswith("0."):
                addresses.append(address)
    except OSError:
        pass
    return addresses or ["127.0.0.1"]


def _port() -> int:
    raw = os.environ.get("PORT", str(DEFAULT_PORT))
    try:
        return int(raw)
    except ValueError:
        raise SystemExit(f"PORT must be a number, not {raw!r}") from None


def build_app() -> Flask:
    """The app as served: never in debug mode (no tracebacks, no debugger, for anyone)."""
    # Over FLASK_DEBUG and instance/config.py alike: a table's server is never a debugger.
    return create_app({"DEBUG": False})


def body_limit(app: Flask) -> int:
    """The most waitress takes in one request before the app sees it (it answers 413 past
    that, without buffering the rest): an import, the largest thing the app reads, with room
    for the form around the file. Waitress's own default is 1 GiB."""
    from scorekeeper.services.exchange import import_limit

    largest = max(import_limit(app.config), int(app.config["MAX_CONTENT_LENGTH"] or 0))
    return largest + 64 * 1024


def main() -> None:
    app = build_app()
    port = _port()
    urls = ", ".join(f"http://{address}:{port}/" for address in lan_addresses())
    print(f"Scorekeeper is running. On a tablet on the same network, open: {urls}", flush=True)
    print(f"On this machine: http://127.0.0.1:{port}/  (Ctrl+C to stop)", flush=True)
    # A QR code of the first address, so a tablet can join by pointing its camera.
    import segno

    first = f"http://{lan_addresses()[0]}:{port}/"
    print("Or scan this code (also shown on the Connect page, /connect):", flush=True)
    segno.make(first).terminal(compact=True)
    memory.one_arena()  # before waitress starts its threads (see scorekeeper.memory)
    memory.settle()  # the start's objects out of the collector's way
    serve(app, host="0.0.0.0", port=port, max_request_body_size=body_limit(app))


if __name__ == "__main__":
    main()
