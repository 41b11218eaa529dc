"""The demo command: a season of valid games, the same for the same seed."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from database_support import database_url
from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import select

from scorekeeper import create_app, demo
from scorekeeper.extensions import db
from scorekeeper.models import Deal, Game, HouseRules, Player, Season
from scorekeeper.rules import PRESETS, RuleSet, deal_hints, score_team, validate_deal
from scorekeeper.services import games as game_service

# Timestamps say when the demo ran, not what it played: everything else must repeat.
CLOCK_COLUMNS = {"created_at", "updated_at", "finished_at", "undone_at"}


def _app(path: Path) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url(path / "demo.sqlite"),
            "WTF_CSRF_ENABLED": False,
        },
        instance_path=str(path / "instance"),
    )


@pytest.fixture
def fresh_app(tmp_path: Path) -> Iterator[Flask]:
    """A second app on its own database file, tables created."""
    app = _app(tmp_path / "second")
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def canonical_dump(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in key order, without the clock columns and random game uids."""
    dump: dict[str, list[tuple[Any, ...]]] = {}
    with app.app_context():
        for table in db.metadata.sorted_tables:
            columns = [c for c in table.columns if c.name not in {*CLOCK_COLUMNS, "uid"}]
            rows = db.session.execute(select(*columns).order_by(*table.primary_key)).all()
            dump[table.name] = [tuple(row) for row in rows]
        # Whether a game finished is data; when it finished is the clock.
        dump["finished"] = [
            (game.id, game.finished_at is not None)
            for game in db.session.scalars(select(Game).order_by(Game.id))
        ]
    return dump


def _run(runner: FlaskCliRunner, *args: str) -> str:
    result = runner.invoke(args=["demo", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_demo_plays_twenty_valid_four_deal_games(app: Flask, runner: FlaskCliRunner) -> None:
    output = _run(runner, "--games", "20", "--seed", "7")

    assert "20/20 games" in output
    assert "Played 20 games with 80 deals" in output
    with app.app_context():
        games = db.session.scalars(select(Game).order_by(Game.id)).all()
        assert len(games) == 20
        for game in games:
            view = game_service.view_game(game_service.load_game(game.id))
            rules = view.rules
            assert [deal.number for deal in view.deals] == [1, 2, 3, 4]
            assert view.finished
            for deal in view.deals:
                tallies = [result.tally for result in deal.results]
                assert validate_deal(rules, deal.number, tallies, game.decks) == []
            for deal_row in game.deals:
                for result in deal_row.results:
                    # The stored score is the rules' score of the stored tally.
                    assert result.score == score_team(rules, result.tally()).score


def test_demo_is_varied_like_a_real_season(app: Flask, runner: FlaskCliRunner) -> None:
    _run(runner, "--games", "20", "--seed", "7")

    with app.app_context():
        games = db.session.scalars(select(Game)).all()
        views = [game_service.view_game(game_service.load_game(g.id)) for g in games]
        results = [r for v in views for d in v.deals for r in d.results]
        deals = [d for v in views for d in v.deals]

        assert len({g.ruleset_id for g in games}) >= 3
        assert Counter(g.ruleset_id for g in games).most_common(1)[0][0] == "standard"
        assert {len(team) for v in views for team in v.team_players} >= {1, 2}
        assert any(d.stock_out for d in deals)
        assert sum(not d.stock_out for d in deals) > len(deals) // 2
        assert any(r.tally.melded.counted for r in results)
        assert sum(not r.tally.melded.counted for r in results) > len(results) // 2
        assert any(r.tally.opening_meld is not None for r in results)
        assert any(r.tally.red_threes for r in results)
        assert any(r.tally.red_threes_caught for r in results)
        # Twelve regulars, and partnerships that come back evening after evening.
        assert db.session.scalar(select(db.func.count()).select_from(Player)) == 12
        pairs = Counter(
            tuple(sorted(team)) for v in views for team in v.team_players if len(team) == 2
        )
        assert pairs.most_common(1)[0][1] >= 3
        # One season holds them all, on dates inside it and not from the clock.
        season = db.session.scalars(select(Season)).one()
        assert {g.season_id for g in games} == {season.id}
        assert (season.starts_on, season.ends_on) == demo.season_dates(7)
        first, last = demo.season_dates(7)
        assert all(first <= g.played_on <= last for g in games)


def test_the_same_seed_gives_the_same_data(
    app: Flask, runner: FlaskCliRunner, fresh_app: Flask
) -> None:
    _run(runner, "--games", "20", "--seed", "7")
    _run(fresh_app.test_cli_runner(), "--games", "20", "--seed", "7")

    first, second = canonical_dump(app), canonical_dump(fresh_app)
    assert len(first["deal_result"]) >= 160
    assert first == second


def test_another_seed_gives_other_games(
    app: Flask, runner: FlaskCliRunner, fresh_app: Flask
) -> None:
    _run(runner, "--games", "5", "--seed", "7")
    _run(fresh_app.test_cli_runner(), "--games", "5", "--seed", "8")

    assert canonical_dump(app)["deal_result"] != canonical_dump(fresh_app)["deal_result"]


def test_a_second_run_adds_games_to_the_named_season(app: Flask, runner: FlaskCliRunner) -> None:
    first = _run(runner, "--games", "3", "--seed", "1", "--season", "Winter league")
    second = _run(runner, "--games", "2", "--seed", "2", "--season", "Winter league")

    assert "new seasons: 1, new house rules: 1." in first
    assert "new seasons: 0, new house rules: 0." in second
    with app.app_context():
        season = db.session.scalars(select(Season)).one()
        assert season.name == "Winter league"
        assert db.session.scalar(select(db.func.count()).select_from(Game)) == 5
        assert db.session.scalar(select(db.func.count()).select_from(HouseRules)) == 1
        assert db.session.scalar(select(db.func.count()).select_from(Deal)) == 20


def test_demo_without_tables_says_what_to_do(tmp_path: Path) -> None:
    app = _app(tmp_path)  # no create_all, no migration
    result = app.test_cli_runner().invoke(args=["demo", "--games", "1"])

    assert result.exit_code == 1
    assert "flask --app scorekeeper db upgrade" in result.output
    with app.app_context():
        db.engine.dispose()


def test_a_season_name_the_rules_refuse_is_said_plainly(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["demo", "--games", "1", "--season", "x" * 81])

    assert result.exit_code == 1
    assert "A season needs a name of 1 to 80 characters." in result.output
    assert "Traceback" not in result.output


def test_demo_refuses_zero_games(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["demo", "--games", "0"])

    assert result.exit_code == 2
    assert "--games" in result.output


def _rules(table: demo.Table) -> RuleSet:
    if table.rules == demo.HOUSE_RULES_SLUG:
        return PRESETS["standard"].derive(
            demo.HOUSE_RULES_OVERRIDES, id=demo.HOUSE_RULES_SLUG, name=demo.HOUSE_RULES_NAME
        )
    return PRESETS[table.rules]


@pytest.mark.parametrize("table", demo.TABLES, ids=lambda t: f"{t.rules}-{t.players}x{t.team_size}")
def test_every_table_gets_valid_deals_without_falling_back(table: demo.Table) -> None:
    rules = _rules(table)
    teams = table.players // table.team_size
    assert (teams, table.team_size) in rules.seatings(table.players)
    decks = rules.decks_for(table.players)
    rng = random.Random(table.rules)
    went_out = stock_out = 0
    for _game in range(15):
        maker = demo.DealMaker(rules, [table.team_size] * teams, decks, rng)
        for number in range(1, rules.deal_count + 1):
            tallies, fell_back = maker.deal(number)
            assert not fell_back
            assert validate_deal(rules, number, tallies, decks) == []
            sizes = [table.team_size] * teams
            assert deal_hints(rules, number, tallies, sizes) == [], tallies
            out = [t for t in tallies if t.went_out]
            went_out += len(out)
            stock_out += not out
            for team in out:
                need = rules.deal(number).go_out
                assert team.clean_books >= need.clean
                assert team.dirty_books >= need.dirty
                assert team.wild_books >= need.wild
    assert went_out > stock_out > 0


def test_the_fallback_deal_is_valid_under_every_preset(monkeypatch: pytest.MonkeyPatch) -> None:
    def short(self: demo.DealMaker, number: int) -> list[Any]:
        raise demo._Short

    monkeypatch.setattr(demo.DealMaker, "_attempt", short)
    for rules in PRESETS.values():
        maker = demo.DealMaker(rules, [1, 1, 1], rules.decks_for(3), random.Random(1))
        for number in range(1, rules.deal_count + 1):
            tallies, fell_back = maker.deal(number)
            assert fell_back
            assert validate_deal(rules, number, tallies, rules.decks_for(3)) == []
            assert deal_hints(rules, number, tallies, [1, 1, 1]) == []
