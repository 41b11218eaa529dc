"""Home page and health check."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("main", __name__)


@bp.get("/")
def index() -> str:
    return render_template("main/index.html")


@bp.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}
