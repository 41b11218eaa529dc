"""The benchmark's machinery, at a tiny size: fast fills are honest, the report has its shape.

No timing is asserted here: speed is measured by ``make bench``, never judged by a test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from flask import Flask

from bench.fill import bulk_demo, dump_rows, make_app
from bench.run import run
from scorekeeper.demo import run_demo
from scorekeeper.extensions import db
from scorekeeper.services import standings


def _filled(tmp_path: Path, name: str, bulk: bool, games: int, seed: int) -> tuple[Flask, object]:
    app = make_app(tmp_path / name)
    app.config["TESTING"] = True
    with app.app_context():
        db.create_all()
        summary = (bulk_demo if bulk else run_demo)(games, seed)
    return app, summary


def _contents(app: Flask) -> tuple[object, object, object]:
    with app.app_context():
        table = standings.standings(None)
        lines = sorted(
            (line.names, line.games, line.win_units, line.points, line.rating)
            for line in [*table.players, *table.partnerships]
        )
        rows = dump_rows()
        db.session.remove()
        db.engine.dispose()
    return rows, lines, table.games


def test_a_bulk_fill_writes_the_rows_the_services_write(tmp_path: Path) -> None:
    # Seed 8 gives two typo corrections in 30 games: the correction path is compared too.
    service_app, by_service = _filled(tmp_path, "services.sqlite", False, 30, 8)
    bulk_app, by_bulk = _filled(tmp_path, "bulk.sqlite", True, 30, 8)
    assert by_bulk == by_service
    assert by_service.corrections > 0  # type: ignore[attr-defined]
    assert _contents(bulk_app) == _contents(service_app)


def test_the_benchmark_reports_every_page_with_the_same_queries_at_two_sizes(
    tmp_path: Path,
) -> None:
    report = run([4, 12], runs=2, folder=tmp_path, cache=None, pdf_runs=1)
    assert report["sizes"] == [4, 12]
    for name in ("home", "game", "deal_entry", "deal_save", "deal_correct", "standings"):
        assert name in report["pages"]
    for name in ("standings_api", "player", "player_games"):
        assert name in report["pages"]
    assert ("export" in report["pages"]) != ("export" in report["missing"])
    for name, by_size in report["pages"].items():
        assert set(by_size) == {"4", "12"}, name
        for figures in by_size.values():
            assert {"p50_ms", "p95_ms", "queries", "limit_p50_ms", "ratio"} <= set(figures)
            assert figures["limit_queries"] == 0, name  # a limit reads nothing
        assert by_size["4"]["queries"] == by_size["12"]["queries"], name
        assert by_size["4"]["queries"] > 0 or name == "home", name
    assert {"filled_ms", "filled_again_ms", "blank_warm_ms", "bare_weasyprint_ms"} <= set(
        report["pdf"]
    )
    # Every finished game's sheet laid out once: its first layout fits the page.
    assert report["pdf"]["filled_layouts"] == 1.0
    assert report["cold_start_ms"] > 0
    assert report["peak_rss_mb"] > 0
    json.dumps(report)  # the report is JSON as it is


def test_nothing_heavy_is_imported_to_serve(tmp_path: Path) -> None:
    """Cold start: Alembic (Flask-Migrate) and WeasyPrint load only when they are used."""
    code = (
        "import sys\n"
        "from scorekeeper import create_app\n"
        f"app = create_app({{'SQLALCHEMY_DATABASE_URI': 'sqlite:///{tmp_path}/x.sqlite'}},"
        f" instance_path={str(tmp_path / 'instance')!r})\n"
        "app.test_client().get('/healthz')\n"
        "heavy = [m for m in ('alembic', 'flask_migrate', 'weasyprint') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip() == ""
