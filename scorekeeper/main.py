"""Home page and health check."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, url_for

bp = Blueprint("main", __name__)


@bp.app_context_processor
def _nav_urls() -> dict[str, str]:
    # The rules blueprint is registered separately; until then link to its path.
    if "rules.index" in current_app.view_functions:
        return {"rules_url": url_for("rules.index")}
    return {"rules_url": "/rules"}


@bp.get("/")
def index() -> str:
    return render_template("main/index.html")


@bp.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}
