"""Measuring one filled database: every page in-process, its limit, PDFs, and a real server.

Times are wall-clock milliseconds per request (``time.perf_counter``); p50/p95 over the
requests made. The SQL query count of a request is counted with a SQLAlchemy event listener.

The *limit* of a page is the same template rendered again with the context the view built
(captured with Flask's ``template_rendered`` signal, re-rendered inside the same request, so
no query can run): what the page would cost if getting its data were free. A write (saving
or correcting a deal) renders nothing; its limit is the rules core's check and scores of
the same tallies plus a bare ``sqlite3`` transaction inserting as many rows into a scratch
table of the same database file: what any save must do at least.
"""

from __future__ import annotations

import http.client
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any
from unittest import mock

from flask import Flask, request_finished, template_rendered
from sqlalchemy import event, func, select

from bench.fill import make_app
from scorekeeper import PROJECT_ROOT
from scorekeeper.extensions import db
from scorekeeper.models import Game, Player, Team
from scorekeeper.rules import RuleSet, score_team, validate_deal
from scorekeeper.services import games as game_service
from scorekeeper.services.games import TeamSpec

# Each page is asked for this many times, or for as long as BUDGET_S allows (at least MIN_RUNS).
BUDGET_S = 8.0
MIN_RUNS = 3
COLD_STARTS = 3
# Standings computed again after a correction: the median of this many.
RECOMPUTE_RUNS = 5
LIMIT_RUNS = 10
INPUT = re.compile(r"<input[^>]*>", re.S)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


@dataclass
class PageFigures:
    times: list[float] = field(default_factory=list)
    queries: int = 0
    first: float = 0.0
    limit: list[float] = field(default_factory=list)
    limit_queries: int = 0
    wsgi: list[float] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        p50 = statistics.median(self.times) if self.times else float("nan")
        limit = statistics.median(self.limit) if self.limit else None
        out: dict[str, Any] = {
            "p50_ms": ms(p50),
            "p95_ms": ms(percentile(self.times, 0.95)),
            "queries": self.queries,
            "limit_p50_ms": ms(limit) if limit is not None else None,
            "ratio": round(p50 / limit, 2) if limit else None,
            "runs": len(self.times),
            "first_ms": ms(self.first),
            "limit_queries": self.limit_queries,
        }
        if self.wsgi:
            out["wsgi_p50_ms"] = ms(statistics.median(self.wsgi))
            out["wsgi_p95_ms"] = ms(percentile(self.wsgi, 0.95))
        return out


class Probe:
    """Counts the queries of a request; captures and re-renders its page for the limit."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.queries = 0
        self.counting = True
        self.capture = False
        self.rendered: list[tuple[Any, dict[str, Any]]] = []
        self.limit: list[float] = []
        self.limit_queries = 0
        with app.app_context():
            event.listen(db.engine, "before_cursor_execute", self._query)
        template_rendered.connect(self._rendered, app)
        request_finished.connect(self._finished, app)

    def _query(self, *_args: Any) -> None:
        if self.counting:
            self.queries += 1
        else:
            self.limit_queries += 1

    def _rendered(self, _app: Flask, template: Any, context: dict[str, Any], **_: Any) -> None:
        if self.capture:
            self.rendered.append((template, dict(context)))

    def _finished(self, _app: Flask, **_: Any) -> None:
        if not (self.capture and self.rendered):
            return
        # The page's own template renders last (charts and macros render before it).
        template, captured = self.rendered[-1]
        self.counting = False
        for _run in range(LIMIT_RUNS):
            started = time.perf_counter()
            template.render(captured)
            self.limit.append(time.perf_counter() - started)
        self.counting = True


def _form_values(html: str) -> dict[str, str]:
    """The values a form carries, as a browser would send them back."""
    data: dict[str, str] = {}
    for tag in INPUT.findall(html):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or name.group(1) == "csrf_token":
            continue
        value = re.search(r'value="([^"]*)"', tag)
        kind = re.search(r'type="([^"]+)"', tag)
        if kind and kind.group(1) == "radio" and " checked" not in tag:
            continue
        data[name.group(1)] = value.group(1) if value else ""
    return data


@dataclass
class Targets:
    game_id: int  # the latest finished game
    player_id: int
    fresh: list[int]  # games started for the bench, no deal yet
    correct: tuple[int, int, int, list[int]]  # deal number, team, version, left points to cycle


def _targets(app: Flask, fresh: int) -> Targets:
    with app.app_context():
        # The latest finished game of two teams: the same shape of game at every size.
        two_teams = (
            select(Team.game_id).group_by(Team.game_id).having(func.count() == 2).scalar_subquery()
        )
        game_id = db.session.scalar(
            select(Game.id)
            .where(Game.id.in_(two_teams), Game.finished_at.is_not(None))
            .order_by(Game.id.desc())
            .limit(1)
        )
        assert game_id is not None, "the database holds no game"
        player_id = db.session.scalar(select(Player.id).order_by(Player.id).limit(1))
        view = game_service.view_game(game_service.load_game(game_id))
        rules = view.rules
        # Same team sizes, players of their own: the club's pages stay as the demo made them.
        specs = [
            TeamSpec(f"Bench {i}", [f"Bench {i}{j}" for j in range(len(players))])
            for i, players in enumerate(view.team_players)
        ]
        started = []
        for _ in range(fresh):
            game = game_service.start_game(
                dict(view.game.ruleset), specs, played_on=view.game.played_on
            )
            started.append(game.id)
        correct = _correction(view, rules)
        db.session.remove()
    assert player_id is not None
    return Targets(game_id, player_id, started, correct)


def _correction(view: game_service.GameView, rules: RuleSet) -> tuple[int, int, int, list[int]]:
    """A deal and team whose cards left can change by one step and back, both valid."""
    step = rules.card_values.step
    for deal in view.deals:
        tallies = [result.tally for result in deal.results]
        for index, tally in enumerate(tallies):
            if tally.went_out or tally.left.counted:
                continue
            old = tally.left.points or 0
            from dataclasses import replace

            from scorekeeper.rules import Cards

            changed = list(tallies)
            changed[index] = replace(tally, left=Cards(points=old + step))
            if not validate_deal(rules, deal.number, changed, view.game.decks):
                return deal.number, index, deal.version, [old + step, old]
    raise RuntimeError("no deal of the latest game can be corrected back and forth")


def _timed(
    make: Callable[[], Any],
    probe: Probe,
    runs: int,
    expect: int,
    before: Callable[[int], Any] | None = None,
) -> PageFigures:
    figures = PageFigures()
    deadline = time.perf_counter() + BUDGET_S
    for n in range(runs + 1):  # the first request warms up and is reported apart
        if n > MIN_RUNS and time.perf_counter() > deadline:
            break
        if before is not None:
            before(n)
        probe.queries = 0
        started = time.perf_counter()
        response = make()
        # A streamed response (the export) is made while it is read: read it all, then close.
        response.get_data()
        elapsed = time.perf_counter() - started
        response.close()
        if response.status_code != expect:
            raise RuntimeError(
                f"{response.request.path}: {response.status_code}, expected {expect}\n"
                + response.get_data(as_text=True)[:2000]
            )
        if n == 0:
            figures.first = elapsed
        else:
            figures.times.append(elapsed)
            figures.queries = probe.queries
    return figures


def _limit(client: Any, probe: Probe, url: str, figures: PageFigures) -> None:
    probe.capture, probe.rendered, probe.limit, probe.limit_queries = True, [], [], 0
    client.get(url).close()
    probe.capture = False
    figures.limit, figures.limit_queries = list(probe.limit), probe.limit_queries


def _write_floor(app: Flask, targets: Targets, database: Path) -> tuple[list[float], list[float]]:
    """The least a save and a correction must do: check, score, insert the rows, commit."""
    with app.app_context():
        view = game_service.view_game(game_service.load_game(targets.game_id))
        db.session.remove()
    rules, decks = view.rules, view.game.decks
    deal = view.deals[0]
    tallies = [result.tally for result in deal.results]
    columns = ", ".join(f"c{i} INTEGER" for i in range(18))
    con = sqlite3.connect(database, isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "busy_timeout=5000"):
        con.execute(f"PRAGMA {pragma}")
    con.execute("CREATE TABLE IF NOT EXISTS bench_floor_deal (id INTEGER PRIMARY KEY, c TEXT)")
    con.execute(
        f"CREATE TABLE IF NOT EXISTS bench_floor_result (id INTEGER PRIMARY KEY, {columns})"
    )
    marks = ", ".join("?" for _ in range(18))

    def once(correction: bool) -> float:
        started = time.perf_counter()
        problems = validate_deal(rules, deal.number, tallies, decks)
        scores = [score_team(rules, tally).score for tally in tallies]
        assert not problems
        con.execute("BEGIN")
        if correction:
            con.execute("UPDATE bench_floor_deal SET c = c || 'x' WHERE id = 1")
            con.execute(
                "INSERT INTO bench_floor_result (c0) VALUES (?)", (scores[0],)
            )  # the correction log's row
        else:
            con.execute("INSERT INTO bench_floor_deal (c) VALUES ('deal')")
        con.executemany(
            f"INSERT INTO bench_floor_result VALUES (NULL, {marks})",
            [(score, *range(17)) for score in scores],
        )
        con.execute("COMMIT")
        return time.perf_counter() - started

    once(False)
    save = [once(False) for _ in range(LIMIT_RUNS * 3)]
    correct = [once(True) for _ in range(LIMIT_RUNS * 3)]
    con.execute("DROP TABLE bench_floor_deal")
    con.execute("DROP TABLE bench_floor_result")
    con.close()
    return save, correct


GET_PAGES: dict[str, Callable[[Targets], str]] = {
    "home": lambda t: "/",
    "game": lambda t: f"/games/{t.game_id}",
    "deal_entry": lambda t: f"/games/{t.fresh[0]}/deals/new",
    "standings": lambda t: "/standings",
    "standings_api": lambda t: "/api/standings",
    "player": lambda t: f"/players/{t.player_id}",
    "player_games": lambda t: f"/players/{t.player_id}/games",
    "export": lambda t: "/api/export.json",
}


def has_export(app: Flask) -> bool:
    return any(rule.rule == "/api/export.json" for rule in app.url_map.iter_rules())


def measure_in_process(
    database: Path, runs: int, skip: tuple[str, ...] = (), pdf_runs: int = 8
) -> dict[str, Any]:
    """Every page against this database through Flask's test client."""
    app = make_app(database)
    targets = _targets(app, runs + 2)
    probe = Probe(app)
    client = app.test_client()
    pages: dict[str, PageFigures] = {}
    missing = []
    for name, url_of in GET_PAGES.items():
        if name == "export" and not has_export(app):
            missing.append(name)
            continue
        if name in skip:
            continue
        url = url_of(targets)
        figures = _timed(partial(client.get, url), probe, runs, 200)
        _limit(client, probe, url, figures)
        pages[name] = figures

    save_floor, correct_floor = _write_floor(app, targets, database)

    # Saving deal 1 of a fresh game each time, with the values of the latest game's deal 1.
    source = _form_values(
        client.get(f"/games/{targets.game_id}/deals/1/edit").get_data(as_text=True)
    )
    source.pop("version", None)
    fresh = iter(targets.fresh[1:])

    def shown(_n: int) -> None:
        # The game page a save redirects to shows its "Deal 1 saved." and so takes it out
        # of the session; unread, 30 of them would make every save's cookie longer.
        with client.session_transaction() as session:
            session.pop("_flashes", None)

    pages["deal_save"] = _timed(
        lambda: client.post(f"/games/{next(fresh)}/deals/new", data=source),
        probe,
        runs,
        302,
        before=shown,
    )
    pages["deal_save"].limit = save_floor

    number, team, _version, cycle = targets.correct
    edit = f"/games/{targets.game_id}/deals/{number}/edit"
    form: dict[str, str] = {}
    left = f"t{team}-left"

    def fetch_form() -> None:
        form.clear()
        form.update(_form_values(client.get(edit).get_data(as_text=True)))

    def read_form(n: int) -> None:
        fetch_form()
        form[left] = str(cycle[n % 2])

    pages["deal_correct"] = _timed(
        lambda: client.post(edit, data=form), probe, runs, 302, before=read_form
    )
    pages["deal_correct"].limit = correct_floor

    # A correction changed a finished game: the next standings request computes them again.
    # The median of a few, each after a correction of its own.
    recomputes = []
    for _ in range(RECOMPUTE_RUNS):
        fetch_form()
        # The other of the two values: each correction changes the deal.
        form[left] = str(cycle[1] if form[left] == str(cycle[0]) else cycle[0])
        assert client.post(edit, data=form).status_code == 302
        started = time.perf_counter()
        client.get("/standings")
        recomputes.append(time.perf_counter() - started)
    recompute = statistics.median(recomputes)

    pdf = _pdfs(app, client, targets, pdf_runs)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    return {
        "pages": pages,
        "missing": missing,
        "targets": targets,
        "standings_recompute_ms": ms(recompute),
        "pdf": pdf,
    }


def _pdfs(app: Flask, client: Any, targets: Targets, runs: int) -> dict[str, float]:
    from scorekeeper import sheets

    url = f"/games/{targets.game_id}/sheet.pdf"
    # A game's sheet printed for the first time: laid out, not taken from the cache.
    filled = _pdf_times(client, url, runs, before=sheets.game_cache.clear)
    # Printed again, unchanged (a second copy, another tablet): from the cache.
    filled_again = _pdf_times(client, url, max(runs, 3))
    blank_url = "/sheets/blank.pdf?ruleset=standard&teams=2"
    sheets.blank_cache.clear()
    blank_cold = _pdf_times(client, blank_url, 1)
    blank_warm = _pdf_times(client, blank_url, max(runs, 3))

    # The same HTML the filled sheet was made from, straight through WeasyPrint.
    captured: list[tuple[Any, dict[str, Any]]] = []

    def keep(_app: Flask, template: Any, context: dict[str, Any], **_: Any) -> None:
        captured.append((template, dict(context)))

    template_rendered.connect(keep, app)
    client.get(url)
    template_rendered.disconnect(keep, app)
    template, context = captured[-1]
    bare = []
    from flask import url_for
    from weasyprint import CSS, HTML  # type: ignore[import-untyped]
    from weasyprint.text.fonts import FontConfiguration  # type: ignore[import-untyped]

    with app.test_request_context(url, base_url="http://localhost"):
        html = template.render(context)
        # The app's own fetcher and base URL, as the sheet has them.
        fetcher = sheets._static_fetcher()
        base_url = "http://localhost" + url
        stylesheet = url_for("static", filename="css/sheet.css", _external=True)
        for _ in range(runs):
            started = time.perf_counter()
            # WeasyPrint on its own, as for a page that links its stylesheet: a new font
            # configuration, the stylesheet fetched and parsed with it, the page laid out.
            # Nothing is kept from one render to the next, and the garbage collector runs.
            font_config = FontConfiguration()
            css = CSS(url=stylesheet, url_fetcher=fetcher, font_config=font_config)
            HTML(string=html, base_url=base_url, url_fetcher=fetcher).write_pdf(
                stylesheets=[css], font_config=font_config
            )
            bare.append(time.perf_counter() - started)
        db.session.remove()
    return {
        "filled_ms": ms(statistics.median(filled)),
        "filled_again_ms": ms(statistics.median(filled_again)),
        "filled_layouts": _layouts_per_sheet(app, client),
        "blank_cold_ms": ms(blank_cold[0]),
        "blank_warm_ms": ms(statistics.median(blank_warm)),
        "bare_weasyprint_ms": ms(statistics.median(bare)),
    }


def _layouts_per_sheet(app: Flask, client: Any, games: int = 20) -> float:
    """How many times WeasyPrint lays out a filled sheet, on average over the latest games.

    A sheet whose first layout spills onto a second page is laid out again with smaller rows
    (twice the time); one figure for the sheet of one game would not show how often.
    """
    from scorekeeper import sheets

    with app.app_context():
        ids = db.session.scalars(
            select(Game.id)
            .where(Game.finished_at.is_not(None))
            .order_by(Game.id.desc())
            .limit(games)
        ).all()
        db.session.remove()
    sheets.game_cache.clear()
    with mock.patch.object(sheets.press, "render", side_effect=sheets.press.render) as render:
        for game_id in ids:
            assert client.get(f"/games/{game_id}/sheet.pdf").status_code == 200
    return round(render.call_count / max(len(ids), 1), 2)


def _pdf_times(
    client: Any, url: str, runs: int, before: Callable[[], None] | None = None
) -> list[float]:
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        started = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - started)
        assert response.status_code == 200, url
        assert response.data.startswith(b"%PDF"), url
    return times


# ---------------------------------------------------------------------------
# The real server: waitress in its own process


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(port: int, path: str) -> tuple[int, float]:
    con = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    con.request("GET", path)
    response = con.getresponse()
    response.read()
    elapsed = time.perf_counter() - started
    con.close()
    return response.status, elapsed


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def _start_server(database: Path) -> tuple[subprocess.Popen[bytes], int, float]:
    """A fresh waitress process on the database, its port, and the seconds to its first answer."""
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "PYTHONPATH": str(PROJECT_ROOT)}
    started = time.perf_counter()
    server = subprocess.Popen(
        [sys.executable, "-m", "bench.serve", str(port), str(database.parent / "instance")],
        env=env,
        cwd=PROJECT_ROOT,
    )
    while True:
        try:
            status, _ = _get(port, "/healthz")
            if status == 200:
                return server, port, time.perf_counter() - started
        except OSError:
            if server.poll() is not None:
                raise RuntimeError("the server did not start") from None
            time.sleep(0.005)


def measure_wsgi(
    database: Path, runs: int, targets: Targets, export: bool, skip: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Start waitress on the database: cold start, every GET page, PDFs, peak memory."""
    # Start-up is noisy: the cold start is the median of three fresh processes, the last
    # of which stays up for the pages, the PDFs and the memory figure.
    starts = []
    for _ in range(COLD_STARTS - 1):
        server, _, seconds = _start_server(database)
        starts.append(seconds)
        server.terminate()
        server.wait(timeout=30)
    server, port, seconds = _start_server(database)
    starts.append(seconds)
    try:
        cold = statistics.median(starts)
        pages: dict[str, list[float]] = {}
        for name, url_of in GET_PAGES.items():
            if (name == "export" and not export) or name in skip:
                continue
            url = url_of(targets)
            times = []
            deadline = time.perf_counter() + BUDGET_S
            for n in range(runs + 1):
                if n > MIN_RUNS and time.perf_counter() > deadline:
                    break
                status, elapsed = _get(port, url)
                if status != 200:
                    raise RuntimeError(f"{url} through waitress: {status}")
                if n:
                    times.append(elapsed)
            pages[name] = times
        blank_first = _get(port, "/sheets/blank.pdf?ruleset=standard&teams=3")[1]
        # Three sheets laid out (a sheet printed again would come from the cache).
        for options in ("", "?paper=letter", "?lang=de"):
            _get(port, f"/games/{targets.game_id}/sheet.pdf{options}")
        rss = _peak_rss_mb(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return {
        "cold_start_ms": ms(cold),
        "pages": pages,
        "peak_rss_mb": rss,
        "blank_first_ms": ms(blank_first),
    }
