"""The JSON API under /api: the scoring calculator, games and deals, the OpenAPI document."""

from __future__ import annotations

from flask import Blueprint

from scorekeeper.extensions import csrf

bp = Blueprint("api", __name__, url_prefix="/api")

# No CSRF token for the API: every write (POST/PUT) is refused with 415 unless its body is
# application/json, checked before the body is read (api.inputs.json_body). A page on another
# site can only make a browser send a cross-site request without a CORS preflight with a form
# encoding or text/plain; application/json needs a preflight, which this API never grants
# (it sends no CORS headers at all). So a forged cross-site write never reaches a service,
# and the session cookie (SameSite=Lax) is not what authorises the API anyway.
csrf.exempt(bp)

# The views register their routes on bp when imported.
from . import errors, exchange, games, openapi, play, scoring, standings  # noqa: E402, F401
