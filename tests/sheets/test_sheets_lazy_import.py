"""The app starts without WeasyPrint: it is imported only when a PDF is asked for."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

PROBE = textwrap.dedent(
    """
    import sys
    from scorekeeper import create_app

    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"}, instance_path=sys.argv[1]
    )
    client = app.test_client()
    assert client.get("/healthz").status_code == 200
    print("before", sorted(m for m in sys.modules if "weasyprint" in m))
    from scorekeeper.extensions import db
    with app.app_context():
        db.create_all()
    assert client.get("/sheets/blank.pdf").status_code == 200
    print("after", "weasyprint" in sys.modules)
    """
)


def test_weasyprint_is_imported_only_for_a_pdf(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path / "instance")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # Starting the app and serving a page loads no part of WeasyPrint (nor flask-weasyprint).
    assert "before []" in lines
    # The probe is honest: a sheet does load it.
    assert "after True" in lines
