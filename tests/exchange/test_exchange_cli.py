"""flask --app scorekeeper export | import | backup | restore."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from exchange_support import close, fresh_app, standings_facts, table_counts
from flask import Flask
from flask.testing import FlaskCliRunner
from standings_support import Season

from scorekeeper.services import backups, games


def test_export_json_to_a_file_and_import_it_elsewhere(
    app: Flask, runner: FlaskCliRunner, season: Season, tmp_path: Path
) -> None:
    out = tmp_path / "all.json"
    result = runner.invoke(args=["export", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "Exported to" in result.output
    assert json.loads(out.read_text("utf-8"))["format"] == "scorekeeper-export"

    other = fresh_app(tmp_path, "cli-other")
    try:
        other_runner = other.test_cli_runner()
        result = other_runner.invoke(args=["import", str(out)])
        assert result.exit_code == 0, result.output
        assert "Imported 7 games, 5 players, 1 season and 0 sets of house rules" in result.output
        assert standings_facts(other) == standings_facts(app)
        again = other_runner.invoke(args=["import", str(out)])
        assert again.exit_code == 0 and "7 games were already there" in again.output
    finally:
        close(other)


def test_export_one_season_by_name_and_csv(
    app: Flask, runner: FlaskCliRunner, season: Season, tmp_path: Path
) -> None:
    result = runner.invoke(args=["export", "--season", "winter"])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)["games"]) == 6

    out = tmp_path / "winter.zip"
    result = runner.invoke(args=["export", "--format", "csv", "--season", "1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "deals.csv" in zipfile.ZipFile(out).namelist()

    assert runner.invoke(args=["export", "--format", "csv"]).exit_code != 0
    unknown = runner.invoke(args=["export", "--season", "Summer"])
    assert unknown.exit_code != 0 and "There is no season Summer" in unknown.output


def test_import_refuses_a_broken_file_naming_where(
    app: Flask, runner: FlaskCliRunner, season: Season, tmp_path: Path
) -> None:
    out = tmp_path / "all.json"
    runner.invoke(args=["export", "-o", str(out)])
    document = json.loads(out.read_text("utf-8"))
    document["games"][2]["deals"][0]["teams"][1]["red_threes"] = "three"
    out.write_text(json.dumps(document), "utf-8")
    other = fresh_app(tmp_path, "cli-broken")
    try:
        before = table_counts(other)
        result = other.test_cli_runner().invoke(args=["import", str(out)])
        assert result.exit_code != 0
        assert "games[2].deals[0].teams[1].red_threes" in result.output
        assert "must be a whole number" in result.output
        assert table_counts(other) == before
    finally:
        close(other)


@pytest.mark.sqlite_only(reason="the app's backups are SQLite files; PostgreSQL uses pg_dump")
def test_backup_list_and_restore_with_confirmation(
    app: Flask, runner: FlaskCliRunner, season: Season
) -> None:
    result = runner.invoke(args=["backup"])
    assert result.exit_code == 0, result.output
    assert "Backed up to" in result.output
    with app.app_context():
        (made,) = backups.list_backups()
        games.delete_game(season.g1)
    listing = runner.invoke(args=["backup", "--list"])
    assert made.name in listing.output

    # Without --yes it asks; answering no changes nothing.
    refused = runner.invoke(args=["restore", made.name], input="n\n")
    assert refused.exit_code != 0 and "Aborted" in refused.output
    with app.app_context():
        assert games.db.session.get(games.Game, season.g1).deleted_at is not None

    done = runner.invoke(args=["restore", str(made.path), "--yes"])
    assert done.exit_code == 0, done.output
    assert "Restored" in done.output
    with app.app_context():
        assert games.db.session.get(games.Game, season.g1).deleted_at is None
        kinds = sorted(b.kind for b in backups.list_backups())
    assert kinds == ["before-restore", "manual"]


def test_restore_refuses_a_file_that_is_not_a_backup(
    app: Flask, runner: FlaskCliRunner, season: Season, tmp_path: Path
) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_text("hello", "utf-8")
    before = table_counts(app)
    result = runner.invoke(args=["restore", str(junk), "--yes"])
    assert result.exit_code != 0 and "junk.sqlite" in result.output
    missing = runner.invoke(args=["restore", "no-such-backup.sqlite", "--yes"])
    assert missing.exit_code != 0 and "There is no backup called" in missing.output
    assert table_counts(app) == before


def test_an_export_that_fails_halfway_leaves_the_earlier_file_as_it_was(
    app: Flask,
    runner: FlaskCliRunner,
    season: Season,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from scorekeeper.services import exchange

    out = tmp_path / "all.json"
    assert runner.invoke(args=["export", "-o", str(out)]).exit_code == 0
    earlier = out.read_bytes()

    def broken(self: exchange.Export, **_: object) -> Iterator[str]:
        yield '{"format": "scorekeeper-export",'
        raise RuntimeError("the disk went away")

    monkeypatch.setattr(exchange.Export, "json_chunks", broken)
    result = runner.invoke(args=["export", "-o", str(out)])
    assert result.exit_code != 0
    assert out.read_bytes() == earlier
    assert not list(tmp_path.glob("all.json*.partial"))
