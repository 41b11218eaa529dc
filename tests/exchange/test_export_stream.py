"""The export read as rows and streamed: the same bytes as before, few queries, one snapshot.

The reference is the export as it was written before it streamed (kept below, word for
word but for names): every game loaded as model objects into one document, then
``json.dumps`` of the whole, and the CSV zip built from that document.
"""

from __future__ import annotations

import csv
import gc
import io
import json
import time
import zipfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from database_support import database_url
from flask import Flask
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.orm import selectinload
from standings_support import OUT_STD, STAY_A, STAY_B, Season

from bench.fill import bulk_demo
from scorekeeper import create_app
from scorekeeper.demo import run_demo
from scorekeeper.extensions import db
from scorekeeper.jsontext import IndentedJson
from scorekeeper.models import (
    Deal,
    DealResult,
    Game,
    HouseRules,
    Player,
    Team,
    TeamMember,
    utcnow,
)
from scorekeeper.models import Season as SeasonRow
from scorekeeper.rules import CardClass, Cards, RuleSet, TeamTally, score_team
from scorekeeper.rules.tally import COUNT_FIELDS
from scorekeeper.services import exchange, games, rulesets, standings
from scorekeeper.services.errors import NotFound

# ---------------------------------------------------------------------------
# The export as it was before it streamed: the reference of every comparison below


def _old_stamp(value: datetime | None) -> str | None:
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.isoformat()


def _old_day(value: date | None) -> str | None:
    return value.isoformat() if value else None


def _old_games(season_id: int | None) -> list[Game]:
    query = (
        db.select(Game)
        .options(
            selectinload(Game.season),
            selectinload(Game.teams).selectinload(Team.members).selectinload(TeamMember.player),
            selectinload(Game.deals).selectinload(Deal.results),
            selectinload(Game.corrections),
        )
        .order_by(Game.played_on, Game.id)
    )
    if season_id is not None:
        query = query.where(Game.season_id == season_id)
    return list(db.session.scalars(query))


def _old_result_json(result: DealResult, rules: RuleSet) -> dict[str, Any]:
    data = result.tally().to_json()
    del data["name"]
    data["score"] = score_team(rules, result.tally()).score
    return data


def _old_game_json(game: Game) -> dict[str, Any]:
    rules = game.rules()
    totals = [0] * len(game.teams)
    deals = []
    for deal in game.deals:
        teams = [_old_result_json(result, rules) for result in deal.results]
        for result, data in zip(deal.results, teams, strict=True):
            totals[result.position] += data["score"]
        deals.append(
            {
                "number": deal.number,
                "version": deal.version,
                "created_at": _old_stamp(deal.created_at),
                "updated_at": _old_stamp(deal.updated_at),
                "teams": teams,
            }
        )
    return {
        "uid": game.uid,
        "played_on": _old_day(game.played_on),
        "season": game.season.name if game.season else None,
        "ruleset_id": game.ruleset_id,
        "ruleset": game.ruleset,
        "decks": game.decks,
        "first_dealer_seat": game.first_dealer_seat,
        "created_at": _old_stamp(game.created_at),
        "finished_at": _old_stamp(game.finished_at),
        "abandoned_at": _old_stamp(game.abandoned_at),
        "deleted_at": _old_stamp(game.deleted_at),
        "teams": [
            {"name": team.name, "players": [m.player.name for m in team.members]}
            for team in game.teams
        ],
        "deals": deals,
        "totals": totals,
        "corrections": [
            {
                "deal": c.deal_number,
                "batch": c.batch,
                "team": c.team_position,
                "field": c.field,
                "old": json.loads(c.old_value),
                "new": json.loads(c.new_value),
                "created_at": _old_stamp(c.created_at),
                "undone_at": _old_stamp(c.undone_at),
            }
            for c in game.corrections
        ],
    }


def old_document(season_id: int | None = None) -> dict[str, Any]:
    season = standings.get_season(season_id) if season_id is not None else None
    found = _old_games(season_id)
    if season is None:
        players = list(db.session.scalars(db.select(Player).order_by(Player.id)))
        seasons = list(db.session.scalars(db.select(SeasonRow).order_by(SeasonRow.id)))
        house = list(db.session.scalars(db.select(HouseRules).order_by(HouseRules.id)))
    else:
        seen = {m.player_id for game in found for team in game.teams for m in team.members}
        players = list(
            db.session.scalars(db.select(Player).where(Player.id.in_(seen)).order_by(Player.id))
        )
        seasons = [season]
        used = {game.ruleset_id for game in found}
        house = list(
            db.session.scalars(
                db.select(HouseRules).where(HouseRules.slug.in_(used)).order_by(HouseRules.id)
            )
        )
    return {
        "format": exchange.FORMAT,
        "version": exchange.VERSION,
        "exported_at": _old_stamp(utcnow()),
        "season": season.name if season else None,
        "players": [{"name": p.name, "created_at": _old_stamp(p.created_at)} for p in players],
        "seasons": [
            {
                "name": s.name,
                "starts_on": _old_day(s.starts_on),
                "ends_on": _old_day(s.ends_on),
                "created_at": _old_stamp(s.created_at),
            }
            for s in seasons
        ],
        "house_rules": [
            {
                "id": h.slug,
                "name": h.name,
                "ruleset": h.ruleset,
                "created_at": _old_stamp(h.created_at),
                "updated_at": _old_stamp(h.updated_at),
            }
            for h in house
        ],
        "games": [_old_game_json(game) for game in found],
    }


def _old_csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([exchange.safe_cell(value) for value in row])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def _old_state(game: Game) -> str:
    if game.deleted_at is not None:
        return "deleted"
    if game.abandoned_at is not None:
        return "abandoned"
    return "finished" if game.finished_at is not None else "in play"


_OLD_CARDS = [card.value for card in CardClass]
_OLD_DEAL_COLUMNS = [
    "game",
    "played_on",
    "season",
    "ruleset",
    "deal",
    "team",
    "team_name",
    "players",
    *COUNT_FIELDS,
    "special_books",
    "melded_points",
    *(f"melded_{card}" for card in _OLD_CARDS),
    "left_points",
    *(f"left_{card}" for card in _OLD_CARDS),
    "went_out",
    "opening_meld",
    "score",
    "running_total",
]


def old_csv(season_id: int | None = None) -> bytes:
    document = old_document(season_id)
    found = document["games"]
    files: dict[str, bytes] = {
        "players.csv": _old_csv(
            ["name", "created_at"], ([p["name"], p["created_at"]] for p in document["players"])
        ),
        "seasons.csv": _old_csv(
            ["name", "starts_on", "ends_on"],
            ([s["name"], s["starts_on"], s["ends_on"]] for s in document["seasons"]),
        ),
    }
    states = {game.uid: _old_state(game) for game in _old_games(season_id)}
    files["games.csv"] = _old_csv(
        [
            "game",
            "played_on",
            "season",
            "ruleset",
            "ruleset_name",
            "decks",
            "deals",
            "state",
            "winner",
            "teams",
        ],
        (
            [
                g["uid"],
                g["played_on"],
                g["season"],
                g["ruleset_id"],
                g["ruleset"].get("name", ""),
                g["decks"],
                len(g["deals"]),
                states.get(g["uid"], ""),
                _old_winner(g),
                " | ".join(t["name"] for t in g["teams"]),
            ]
            for g in found
        ),
    )
    files["teams.csv"] = _old_csv(
        ["game", "played_on", "team", "team_name", "players", "total"],
        (
            [g["uid"], g["played_on"], i + 1, t["name"], ", ".join(t["players"]), g["totals"][i]]
            for g in found
            for i, t in enumerate(g["teams"])
        ),
    )
    files["deals.csv"] = _old_csv(_OLD_DEAL_COLUMNS, _old_deal_rows(found))
    files["corrections.csv"] = _old_csv(
        ["game", "deal", "team", "field", "old", "new", "created_at", "undone_at"],
        (
            [
                g["uid"],
                c["deal"],
                None if c["team"] is None else c["team"] + 1,
                c["field"],
                json.dumps(c["old"]),
                json.dumps(c["new"]),
                c["created_at"],
                c["undone_at"],
            ]
            for g in found
            for c in g["corrections"]
        ),
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _old_winner(game: Mapping[str, Any]) -> str:
    totals = game["totals"]
    if not game["finished_at"] or not totals:
        return ""
    best = max(totals)
    return " = ".join(
        t["name"] for t, total in zip(game["teams"], totals, strict=True) if total == best
    )


def _old_cards(value: Any) -> list[Any]:
    if isinstance(value, Mapping):
        return [None, *(value.get(card, 0) for card in _OLD_CARDS)]
    return [value, *([None] * len(_OLD_CARDS))]


def _old_deal_rows(found: Sequence[Mapping[str, Any]]) -> Iterable[list[Any]]:
    for g in found:
        running = [0] * len(g["teams"])
        for deal in g["deals"]:
            for i, team in enumerate(deal["teams"]):
                running[i] += team["score"]
                yield [
                    g["uid"],
                    g["played_on"],
                    g["season"],
                    g["ruleset_id"],
                    deal["number"],
                    i + 1,
                    g["teams"][i]["name"],
                    ", ".join(g["teams"][i]["players"]),
                    *(team[key] for key in COUNT_FIELDS),
                    json.dumps(team["special_books"]) if team["special_books"] else "",
                    *_old_cards(team["melded"]),
                    *_old_cards(team["left"]),
                    team["went_out"],
                    team["opening_meld"],
                    team["score"],
                    running[i],
                ]


# ---------------------------------------------------------------------------
# Helpers and data


def stamped(document: dict[str, Any], text: str | bytes) -> dict[str, Any]:
    """``document`` with the moment of the export ``text`` (the one field two exports differ in)."""
    return {**document, "exported_at": json.loads(text)["exported_at"]}


def file_text(document: dict[str, Any]) -> str:
    """The settings page's download, as it was written."""
    return json.dumps(document, ensure_ascii=False, indent=1)


def api_text(app: Flask, document: dict[str, Any]) -> bytes:
    """The API's answer, as it was written: the document returned as a dict."""
    return app.json.response(document).get_data()


class Queries:
    """Counts the statements sent to the database while it is on."""

    def __init__(self, app: Flask) -> None:
        self.count = 0
        with app.app_context():
            event.listen(db.engine, "before_cursor_execute", self._seen)

    def _seen(self, *_args: Any) -> None:
        self.count += 1

    def of(self, action: Any) -> int:
        self.count = 0
        action()
        return self.count


@pytest.fixture(autouse=True)
def _fixed_zip_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    # A zip stamps each file with the time it was written: the same second for both exports.
    moment = datetime(2025, 3, 1, 20, 15, 30).timestamp()
    monkeypatch.setattr(
        zipfile, "time", SimpleNamespace(time=lambda: moment, localtime=time.localtime)
    )


SEVENS = {"id": "sevens", "name": "Book of sevens", "bonus": 1000, "min_points": 35}


def add_the_unusual(app: Flask, played: Season) -> None:
    """What the season lacks: names that JSON escapes, card counts, special books, corrections.

    Also a game with no deal yet, and rules that differ from every game's copy.
    """
    with app.app_context():
        house = rulesets.create_house_rules(
            'Zoë\'s "sevens" \\ rules', "standard", {"special_books": [SEVENS], "deal_count": 2}
        )
        game = games.start_game(
            house.slug,
            [
                games.TeamSpec('Zoë "the shark" 🂡', ["Zoë", "李雷"]),
                games.TeamSpec("", ["Søren", "O'Brien the second"]),
            ],
            played_on=date(2025, 2, 2),
        )
        # A tab inside a name, kept from before such names were given a space instead.
        game.teams[1].members[1].player.name = "O'Brien\tthe second"
        counted = Cards.of_counts({CardClass.ACES: 2, CardClass.EIGHTS_TO_KINGS: 10})
        games.record_deal(
            game.id,
            [
                TeamTally(clean_books=1, special_books={"sevens": 1}, melded=counted),
                TeamTally(melded=Cards(points=60), left=Cards.of_counts({CardClass.JOKERS: 1})),
            ],
        )
        games.record_deal(game.id, [STAY_A, STAY_B])
        games.correct_deal(
            game.id, 2, 1, [STAY_A, TeamTally(melded=Cards(points=160), left=Cards(points=30))]
        )
        games.correct_deal(played.g1, 4, 1, [OUT_STD, STAY_A])
        games.undo_last_correction(played.g1)
        games.start_game(
            "standard",
            [games.TeamSpec("", ["Ann", "Ben"]), games.TeamSpec("", ["Cleo", "Dan"])],
            played_on=date(2025, 2, 3),
        )
        # Editing house rules never changes the copy its games keep.
        rulesets.update_house_rules(house.slug, house.name, {"deal_count": 3})


@pytest.fixture
def rich(app: Flask, season: Season) -> Season:
    """The hand-computed season, the unusual above, and a few generated games."""
    add_the_unusual(app, season)
    with app.app_context():
        run_demo(8, seed=3)
    return season


# ---------------------------------------------------------------------------
# The same bytes as before


def test_the_json_file_is_the_text_json_dumps_wrote_of_the_whole_document(
    app: Flask, rich: Season
) -> None:
    with app.app_context():
        text = exchange.export_json()
        reference = old_document()
        document = exchange.export_document()
    assert len(reference["games"]) == 7 + 2 + 8
    assert text == file_text(stamped(reference, text))
    assert document == {**reference, "exported_at": document["exported_at"]}
    # The unusual is really there, escaped as json.dumps escapes it.
    assert '"Zoë \\"the shark\\" 🂡"' in text and '"O\'Brien\\tthe second"' in text
    assert '"sevens": 1' in text and '"jokers": 1' in text


def test_one_season_is_the_same_text_as_before(app: Flask, rich: Season) -> None:
    with app.app_context():
        text = exchange.export_json(rich.season_id)
        reference = old_document(rich.season_id)
    assert reference["season"] == "Winter" and len(reference["games"]) == 6
    assert text == file_text(stamped(reference, text))


def test_every_download_is_the_same_bytes_as_before(app: Flask, rich: Season) -> None:
    client = app.test_client()
    with app.app_context():
        reference = old_document()
        winter = old_document(rich.season_id)
    for url, document in (
        ("/settings/export.json", reference),
        (f"/settings/export.json?season={rich.season_id}", winter),
    ):
        response = client.get(url)
        assert response.status_code == 200 and response.content_length is None  # streamed
        assert response.mimetype == "application/json"
        assert response.data == file_text(stamped(document, response.data)).encode("utf-8")
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="scorekeeper-season-{rich.season_id}.json"'
    )
    for url, document in (
        ("/api/export.json", reference),
        (f"/api/export.json?season={rich.season_id}", winter),
    ):
        response = client.get(url)
        assert response.status_code == 200 and response.content_length is None  # streamed
        assert response.content_type == "application/json"
        assert response.data == api_text(app, stamped(document, response.data))
        if document is reference:
            # Søren and a playing card, as the API's ASCII-only JSON writes them.
            assert b"S\\u00f8ren" in response.data and b"\\ud83c\\udca1" in response.data
    assert response.headers["Content-Disposition"] == (
        f'inline; filename="scorekeeper-season-{rich.season_id}.json"'
    )


def test_the_command_writes_the_same_file(app: Flask, rich: Season, tmp_path: Path) -> None:
    out = tmp_path / "export.json"
    result = app.test_cli_runner().invoke(args=["export", "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert f"({len(data)} bytes)" in result.output
    with app.app_context():
        assert data == file_text(stamped(old_document(), data)).encode("utf-8")
    shown = app.test_cli_runner().invoke(args=["export", "--season", "Winter"])
    with app.app_context():
        winter = old_document(rich.season_id)
    assert shown.output == file_text(stamped(winter, shown.output)) + "\n"


@pytest.mark.parametrize("scope", ["all", "season"])
def test_the_csv_zip_is_the_same_bytes_as_before(app: Flask, rich: Season, scope: str) -> None:
    season_id = rich.season_id if scope == "season" else None
    with app.app_context():
        data = exchange.export_csv(season_id)
        reference = old_csv(season_id)
    assert data == reference
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        deals = archive.read("deals.csv").decode("utf-8-sig")
    assert deals.count("\r\n") > 30
    query = "" if season_id is None else f"?season={season_id}"
    response = app.test_client().get(f"/settings/export.zip{query}")
    assert response.status_code == 200 and response.mimetype == "application/zip"
    assert response.data == reference


def test_an_empty_database_exports_as_before(app: Flask) -> None:
    client = app.test_client()
    with app.app_context():
        reference = old_document()
        text = exchange.export_json()
        assert exchange.export_csv() == old_csv()
    assert reference["games"] == [] and '"games": []' in text
    assert text == file_text(stamped(reference, text))
    response = client.get("/api/export.json")
    assert response.data == api_text(app, stamped(reference, response.data))


# ---------------------------------------------------------------------------
# A fixed number of queries


def _fill(tmp_path: Path, name: str, count: int) -> Flask:
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url(tmp_path / f"{name}.sqlite")},
        instance_path=str(tmp_path / f"instance-{name}"),
    )
    with app.app_context():
        db.create_all()
        # The demo's games, written in one go: the same rows the services would write.
        bulk_demo(count, seed=5)
    return app


def test_the_queries_are_as_many_for_three_times_the_games(tmp_path: Path) -> None:
    # Enough games that loading their deals' results in batches would take more batches.
    small, large = _fill(tmp_path, "small", 60), _fill(tmp_path, "large", 180)
    counts = []
    for app, played in ((small, 60), (large, 180)):
        queries = Queries(app)
        client = app.test_client()
        with app.app_context():
            season_id = db.session.scalar(db.select(SeasonRow.id))
            assert len(exchange.export_document()["games"]) == played
        urls = {
            "json": "/settings/export.json",
            "api": "/api/export.json",
            "season": f"/api/export.json?season={season_id}",
            "zip": "/settings/export.zip",
        }
        figures = {}
        for name, url in urls.items():
            queries.count = 0
            response = client.get(url)
            assert response.status_code == 200 and response.data
            figures[name] = queries.count
        with app.app_context():
            figures["document"] = queries.of(exchange.export_document)
        counts.append(figures)
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    assert counts[0] == counts[1]
    # Players, seasons, house rules, games, teams, deals, corrections (and a season's own),
    # and the check of every stored tally before the first byte.
    assert all(count <= 10 for count in counts[0].values()), counts


# ---------------------------------------------------------------------------
# One snapshot from the first byte to the last


@pytest.fixture
def writer(app: Flask, tmp_path: Path) -> Iterator[Flask]:
    """Another app on the same database: another tablet at the table."""
    other = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]},
        instance_path=str(tmp_path / "instance-writer"),
    )
    yield other
    with other.app_context():
        db.session.remove()
        db.engine.dispose()


def play_meanwhile(writer: Flask, played: Season) -> None:
    """Save a deal of the game in play and a game with a new player, from the other app."""
    with writer.app_context():
        games.record_deal(played.g6, [STAY_A, STAY_B])
        newcomer = games.start_game(
            "standard",
            [games.TeamSpec("", ["Newcomer", "Ann"]), games.TeamSpec("", ["Ben", "Cleo"])],
            played_on=date(2025, 3, 1),
        )
        games.record_deal(newcomer.id, [STAY_A, STAY_B])


def read_back(text: str | bytes) -> None:
    """The text is a whole export: its totals add up and every seated player is in it."""
    exchange.read_document(json.loads(text))


def test_a_write_after_the_export_began_is_not_in_it(
    app: Flask, season: Season, writer: Flask
) -> None:
    with app.app_context():
        before = exchange.export_document()
        export = exchange.open_export()
        play_meanwhile(writer, season)
        text = "".join(export.json_chunks())
        read_back(text)
        assert text == file_text(stamped(before, text))
        # The writes were saved: the next export has them.
        after = exchange.export_document()
    assert len(after["games"]) == len(before["games"]) + 1
    assert "Newcomer" in {p["name"] for p in after["players"]}


@pytest.mark.parametrize("url", ["/settings/export.json", "/api/export.json"])
@pytest.mark.parametrize("sent", [0, 2], ids=["before the first piece", "after two pieces"])
def test_a_write_during_a_download_is_not_in_it(
    app: Flask,
    season: Season,
    writer: Flask,
    monkeypatch: pytest.MonkeyPatch,
    url: str,
    sent: int,
) -> None:
    monkeypatch.setattr(exchange, "_CHUNK", 1)  # a piece for every game
    with app.app_context():
        before = exchange.export_document()
    with app.test_request_context(url):
        # The response as the server gets it: its header read, nothing of it sent yet.
        response = app.full_dispatch_request()
    pieces = response.iter_encoded()
    head = b"".join(next(pieces) for _ in range(sent))
    assert head.count(b'"uid"') == sent
    play_meanwhile(writer, season)
    data = head + b"".join(pieces)
    response.close()
    with app.app_context():
        read_back(data)
        if url.startswith("/api"):
            assert data == api_text(app, stamped(before, data))
        else:
            assert data == file_text(stamped(before, data)).encode("utf-8")
        # The writes were saved: the next export has them.
        assert len(exchange.export_document()["games"]) == len(before["games"]) + 1


def test_an_unknown_season_is_refused_before_anything_is_sent(app: Flask, season: Season) -> None:
    client = app.test_client()
    for url in (
        "/settings/export.json?season=99",
        f"/settings/export.json?season={2**40}",
        "/settings/export.zip?season=99",
    ):
        response = client.get(url)
        assert response.status_code == 404 and response.content_length  # a page, not a stream
    refused = client.get("/api/export.json?season=99")
    assert refused.status_code == 404 and refused.content_length
    assert refused.get_json()["errors"][0]["field"] == "season"
    with app.app_context():
        with pytest.raises(NotFound):
            exchange.open_export(99)
        assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]


def test_every_export_gives_its_connection_back(app: Flask, season: Season) -> None:
    client = app.test_client()
    with app.app_context():
        pool = db.engine.pool
        exchange.export_document()
        exchange.export_csv()
        assert "".join(exchange.open_export().json_chunks())
        client.get("/api/export.json").close()
        assert pool.checkedout() == 0  # type: ignore[attr-defined]
    # A download dropped before its first piece, and one dropped after it.
    for url in ("/settings/export.json", "/api/export.json"):
        with app.test_request_context(url):
            response = app.full_dispatch_request()
            assert response.is_streamed
            response.close()
        with app.app_context():
            assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]
        client.get(url).close()
        with app.app_context():
            assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]


def test_a_failure_after_connecting_gives_the_connection_back(
    app: Flask, season: Season, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("injected")

    with app.app_context():
        pool = db.engine.pool
        before = pool.checkedout()  # type: ignore[attr-defined]
        # What the snapshot does once connected: BEGIN on SQLite, its isolation on
        # PostgreSQL. Broken only for the export: the test database's own teardown uses both.
        with (
            monkeypatch.context() as patched,
            pytest.raises(RuntimeError, match="injected") as failed,
        ):
            patched.setattr(Connection, "exec_driver_sql", broken)
            patched.setattr(Connection, "execution_options", broken)
            exchange.open_export()
        # Closed, not left to the garbage collector: the error still holds the frame that
        # held the connection, as an error report or a debugger would.
        assert failed.value.__traceback__ is not None
        assert pool.checkedout() == before  # type: ignore[attr-defined]


@pytest.mark.sqlite_only(reason="the DBAPI connection's own transaction is sqlite3's")
def test_a_connection_already_in_a_transaction_keeps_it_as_the_snapshot(
    app: Flask, season: Season, writer: Flask
) -> None:
    def begun(dbapi_connection: Any, *_args: Any) -> None:
        dbapi_connection.execute("BEGIN")

    with app.app_context():
        before = exchange.export_document()
        engine = db.engine
        # Every connection handed out already in a transaction, as sqlite3 leaves one opened
        # with autocommit=False: a second BEGIN would be refused.
        event.listen(engine, "checkout", begun)
        try:
            export = exchange.open_export()
        finally:
            event.remove(engine, "checkout", begun)
        play_meanwhile(writer, season)
        text = "".join(export.json_chunks())
        read_back(text)
        assert text == file_text(stamped(before, text))
        assert engine.pool.checkedout() == 0  # type: ignore[attr-defined]
        assert len(exchange.export_document()["games"]) == len(before["games"]) + 1


def test_a_download_left_half_read_and_never_closed_is_harmless(
    app: Flask, season: Season, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As a careless client (or the benchmark's own timing) leaves it: the first piece taken,
    # the rest never asked for, the response never closed. Pages go on working meanwhile.
    monkeypatch.setattr(exchange, "_CHUNK", 1)
    client = app.test_client()
    for url in ("/settings/export.json", "/api/export.json"):
        left = [client.get(url), client.get(url)]
        assert [response.status_code for response in left] == [200, 200]
        del left[0]  # collected while the other is still half read
        gc.collect()
        assert client.get("/standings").status_code == 200
        del left
        gc.collect()
        assert client.get(url).data.count(b'"uid"') == 7
    with app.app_context():
        assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------
# The indented JSON writer: json.dumps's own text

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=5), inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.integers(-3, 3) | st.booleans() | st.none(), inner, max_size=3)
    ),
    max_leaves=20,
)


@given(value=_VALUES, indent=st.integers(0, 3), depth=st.integers(0, 3), ascii=st.booleans())
def test_indented_json_is_the_text_json_dumps_writes(
    value: Any, indent: int, depth: int, ascii: bool
) -> None:
    expected = json.dumps(value, indent=indent, ensure_ascii=ascii)
    written = IndentedJson(indent, ensure_ascii=ascii).dumps(value, depth)
    assert written == expected.replace("\n", "\n" + " " * indent * depth)
