"""Export to JSON and import again: the same standings, nothing twice, broken files refused."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from exchange_support import close, fresh_app, standings_facts, table_counts
from flask import Flask
from standings_support import OUT_STD, Season

from scorekeeper.extensions import db
from scorekeeper.models import DealResult, Game, HouseRules, Player
from scorekeeper.rules import Cards, RuleSet, TeamTally, read_team, validate_deal
from scorekeeper.services import exchange, games, players, rulesets
from scorekeeper.services.errors import Invalid


def export(app: Flask, season_id: int | None = None) -> dict[str, Any]:
    with app.app_context():
        return exchange.export_document(season_id)


def import_into(app: Flask, document: Any) -> exchange.ImportSummary:
    with app.app_context():
        return exchange.import_document(document)


@pytest.fixture
def other(tmp_path: Path) -> Any:
    app = fresh_app(tmp_path, "other")
    yield app
    close(app)


def with_corrections_and_house_rules(app: Flask, played: Season) -> None:
    """Add what the season lacks: a corrected deal, an undone correction, house rules."""
    with app.app_context():
        house = rulesets.create_house_rules("Sunday rules", "standard", {"deal_count": 2})
        game = games.start_game(
            house.slug,
            [games.TeamSpec("Aces", ["Ann", "Fay"]), games.TeamSpec("", ["Gus", "Ben"])],
            played_on=date(2025, 2, 2),
        )
        games.record_deal(
            game.id,
            [TeamTally(melded=Cards(points=100)), TeamTally(melded=Cards(points=60))],
        )
        games.record_deal(
            game.id,
            [TeamTally(melded=Cards(points=90), left=Cards(points=150)), TeamTally()],
        )
        games.correct_deal(
            played.g1, 4, 1, [TeamTally(clean_books=1, melded=Cards(points=250)), TeamTally()]
        )
        games.correct_deal(
            played.g3,
            2,
            1,
            [
                TeamTally(
                    clean_books=1, dirty_books=1, melded=Cards(points=250), left=Cards(points=50)
                ),
                OUT_STD,
            ],
        )
        games.undo_last_correction(played.g3)


def test_a_round_trip_into_an_empty_database_gives_the_same_standings(
    app: Flask, season: Season, other: Flask
) -> None:
    with_corrections_and_house_rules(app, season)
    document = export(app)
    before = standings_facts(app)
    assert before["all time"]["players"] and before["Winter"]["partnerships"]

    summary = import_into(other, json.loads(json.dumps(document)))

    assert summary.imported.games == 8 and summary.skipped.games == 0
    assert summary.imported.players == 7 and summary.imported.house_rules == 1
    assert standings_facts(other) == before
    # And the data itself: exporting the imported database gives the same document.
    again = export(other)
    assert {**again, "exported_at": None} == {**document, "exported_at": None}
    # Every table holds as many rows, but the log of the standings' steps: the games were
    # finished, corrected and deleted one step at a time there, imported in one step here.
    imported, played = table_counts(other), table_counts(app)
    assert imported.pop("standings_change") == 1 < played.pop("standings_change")
    assert imported == played


def test_the_document_keeps_every_tally_field_and_the_corrections(
    app: Flask, season: Season
) -> None:
    with_corrections_and_house_rules(app, season)
    document = export(app)
    assert document["format"] == exchange.FORMAT and document["version"] == exchange.VERSION
    g1 = next(g for g in document["games"] if g["played_on"] == "2025-01-03")
    assert g1["ruleset"]["id"] == "standard" and g1["ruleset"]["deals"]
    assert g1["teams"] == [
        {"name": "Ann & Ben", "players": ["Ann", "Ben"]},
        {"name": "Cleo & Dan", "players": ["Cleo", "Dan"]},
    ]
    first = g1["deals"][0]["teams"][0]
    assert first["wild_books"] == 1 and first["went_out"] is True and first["score"] == 3600
    assert set(first) >= {"clean_books", "special_books", "melded", "left", "opening_meld"}
    assert g1["deals"][3]["version"] == 2
    assert {c["field"] for c in g1["corrections"]} == {
        "clean_books",
        "dirty_books",
        "melded",
        "left",
    }
    g3 = next(g for g in document["games"] if g["played_on"] == "2025-01-17")
    assert all(c["undone_at"] for c in g3["corrections"])
    states = {g["played_on"]: g for g in document["games"]}
    assert states["2025-01-24"]["abandoned_at"] and states["2025-01-25"]["deleted_at"]
    assert states["2025-01-26"]["finished_at"] is None
    assert document["house_rules"][0]["id"] == "sunday-rules"


def test_house_rules_of_another_id_but_a_name_in_the_list_come_in_renamed(
    app: Flask, season: Season, other: Flask
) -> None:
    """Two "Sunday rules" in the list of rules could not be told apart: the second of
    another id comes in as "Sunday rules (2)" (its rules' own name too), a preset's name as
    "Standard partnership (2)"; its games keep their own copy of the rules."""
    with_corrections_and_house_rules(app, season)
    document = export(app)
    with other.app_context():
        # The other table's own, renamed after it was made: another id, the same name.
        ours = rulesets.create_house_rules("Our Sunday", "standard", {})
        rulesets.update_house_rules(ours.slug, "SUNDAY rules", {})
    twin = copy.deepcopy(document["house_rules"][0])
    twin["id"] = twin["ruleset"]["id"] = "sunday-rules-b"
    preset_named = copy.deepcopy(twin)
    preset_named["id"] = preset_named["ruleset"]["id"] = "like-standard"
    preset_named["name"] = preset_named["ruleset"]["name"] = "Standard partnership"
    document["house_rules"] += [twin, preset_named]

    summary = import_into(other, document)

    assert summary.imported.house_rules == 3
    with other.app_context():
        rows = db.session.scalars(db.select(HouseRules)).all()
        names = {house.slug: house.name for house in rows}
        kept = {house.slug: house.ruleset["name"] for house in rows}
    assert names == {
        "our-sunday": "SUNDAY rules",  # the other table's own keeps its name
        "sunday-rules": "Sunday rules (2)",
        "sunday-rules-b": "Sunday rules (3)",
        "like-standard": "Standard partnership (2)",
    }
    assert kept == names


def test_importing_the_same_file_twice_adds_nothing_the_second_time(
    app: Flask, season: Season, other: Flask
) -> None:
    document = export(app)
    import_into(other, document)
    once = table_counts(other)
    facts = standings_facts(other)

    summary = import_into(other, document)

    assert summary.imported.as_dict() == {"players": 0, "seasons": 0, "house_rules": 0, "games": 0}
    assert summary.skipped.games == 7 and summary.skipped.players == 5
    assert table_counts(other) == once
    assert standings_facts(other) == facts


def test_a_moment_in_another_zone_is_kept_in_utc(app: Flask, season: Season, other: Flask) -> None:
    # README: the database keeps every moment in UTC, and so do exports. A file written by
    # another tool may say 10:00 at +05:00: that is 05:00 UTC, not 10:00.
    document = export(app)
    document["games"][0]["created_at"] = "2024-01-01T10:00:00+05:00"
    import_into(other, document)
    again = {game["uid"]: game for game in export(other)["games"]}
    assert again[document["games"][0]["uid"]]["created_at"] == "2024-01-01T05:00:00+00:00"


def test_a_finished_game_marked_abandoned_still_imports(
    app: Flask, season: Season, other: Flask
) -> None:
    # Until 2026-12-03 a finished game could be abandoned: such a club's export imports
    # whole, the game as it was (out of the standings).
    document = export(app)
    document["games"][5]["abandoned_at"] = document["games"][5]["finished_at"]
    import_into(other, document)
    again = {game["uid"]: game for game in export(other)["games"]}
    assert again[document["games"][5]["uid"]]["abandoned_at"] is not None


def test_a_name_stored_with_a_line_break_is_found_again_on_import(
    app: Flask, season: Season
) -> None:
    # Stored before names were cleaned; the import reads "Ann Lee": the same player.
    with app.app_context():
        ann = db.session.scalar(db.select(Player).filter_by(name="Ann"))
        assert ann is not None
        ann.name = "Ann\nLee"
        db.session.commit()
    document = export(app)
    before = table_counts(app)

    summary = import_into(app, document)

    assert summary.imported.players == 0 and summary.imported.games == 0
    assert table_counts(app) == before


def test_names_alike_but_for_a_line_break_import_whole(
    app: Flask, season: Season, other: Flask
) -> None:
    # Both kept from before a line break inside a name became a space: two players still.
    with app.app_context():
        for old, new in (("Ann", "Ann\nLee"), ("Ben", "Ann Lee")):
            player = db.session.scalar(db.select(Player).filter_by(name=old))
            assert player is not None
            player.name = new
        db.session.commit()
    document = export(app)

    summary = import_into(other, document)

    assert summary.imported.games == len(document["games"])
    with other.app_context():
        names = set(db.session.scalars(db.select(Player.name)))
    assert {"Ann\nLee", "Ann Lee"} <= names


def imported_older_deal(app: Flask, other: Flask, **entry: Any) -> DealResult:
    """An export whose first team of a game's first deal says ``entry`` (refused when entered
    today, accepted by an earlier version), imported whole: that team's stored result."""
    document = export(app)
    game = next(g for g in document["games"] if g["deals"] and not g["corrections"])
    first = game["deals"][0]["teams"][0]
    first.update({"clean_books": 0, "dirty_books": 0, "wild_books": 0, "went_out": False, **entry})
    first["opening_meld"] = None
    for deal in game["deals"]:
        for team in deal["teams"]:
            team.pop("score", None)
    game.pop("totals", None)
    rules = rulesets.resolve(game["ruleset"]) if isinstance(game["ruleset"], str) else None
    if rules is None:
        rules = RuleSet.from_dict(game["ruleset"])
    tallies = [read_team(t, i) for i, t in enumerate(game["deals"][0]["teams"])]
    assert validate_deal(rules, 1, tallies, game["decks"])  # refused when entered today

    summary = import_into(other, document)

    assert summary.imported.games == len(document["games"])
    with other.app_context():
        stored = db.session.scalar(db.select(Game).filter_by(uid=game["uid"]))
        assert stored is not None
        result: DealResult = stored.deals[0].results[0]
        db.session.expunge(result)
    return result


def test_an_older_export_with_books_the_2s_and_ranks_cannot_hold_imports_whole(
    app: Flask, season: Season, other: Flask
) -> None:
    # Until 2026-12-04 nine clean books entered as 315 points were accepted (eight at most
    # can be of 4s to 7s): a club's older file still imports, deal and all.
    assert imported_older_deal(app, other, clean_books=9, melded=315).clean_books == 9


def test_an_older_export_with_melds_no_rank_can_make_imports_whole(
    app: Flask, season: Season, other: Flask
) -> None:
    # Until 2026-12-07 three aces and one eight melded with no book were accepted (the eight
    # is no meld, ranks apart): a club's older file still imports, deal and all.
    melded = {"aces": 3, "eights_to_kings": 1}
    counts = imported_older_deal(app, other, melded=melded).melded_counts
    assert counts is not None
    assert {card: n for card, n in counts.items() if n} == melded


def test_importing_into_a_database_with_its_own_games_keeps_them(
    app: Flask, season: Season, other: Flask
) -> None:
    with other.app_context():
        # The same person typed differently, and a game only this database has.
        game = games.start_game(
            "standard",
            [games.TeamSpec("", ["ANN", "Zed"]), games.TeamSpec("", ["Yan", "Xia"])],
            played_on=date(2024, 6, 1),
        )
        for _ in range(4):
            games.record_deal(game.id, [TeamTally(), TeamTally()])
        players.create_season("winter")
    import_into(other, export(app))
    with other.app_context():
        names = sorted(p.name for p in db.session.scalars(db.select(Player)))
        assert names == ["ANN", "Ben", "Cleo", "Dan", "Eve", "Xia", "Yan", "Zed"]
        assert db.session.scalar(db.select(db.func.count()).select_from(Game)) == 8
        # The season's games joined the season already there (names match case-insensitively).
        assert (
            sorted(g.season.name for g in db.session.scalars(db.select(Game)) if g.season)
            == ["winter"] * 6
        )


def test_one_season_exports_only_its_games_players_and_rules(
    app: Flask, season: Season, other: Flask
) -> None:
    document = export(app, season.season_id)
    assert document["season"] == "Winter"
    assert [s["name"] for s in document["seasons"]] == ["Winter"]
    assert len(document["games"]) == 6  # G1 to G6; G7 has no season
    assert all(g["season"] == "Winter" for g in document["games"])
    import_into(other, document)
    assert standings_facts(other)["Winter"] == standings_facts(app)["Winter"]


# ---------------------------------------------------------------------------
# Broken files: refused whole, with what is wrong and where


def _first_game(document: dict[str, Any]) -> dict[str, Any]:
    return document["games"][0]


def wrong_version(d: dict[str, Any]) -> None:
    d["version"] = 99


def not_an_export(d: dict[str, Any]) -> None:
    d["format"] = "something-else"


def invalid_tally(d: dict[str, Any]) -> None:
    d["games"][5]["deals"][1]["teams"][0]["melded"] = -5


def not_a_card_class(d: dict[str, Any]) -> None:
    d["games"][5]["deals"][1]["teams"][1]["left"] = {"queens": 2}


def impossible_deal(d: dict[str, Any]) -> None:
    # Both teams went out of the same deal.
    for team in d["games"][5]["deals"][0]["teams"]:
        team["went_out"] = True


def unknown_ruleset(d: dict[str, Any]) -> None:
    d["games"][5]["ruleset"] = "no-such-rules"


def broken_ruleset(d: dict[str, Any]) -> None:
    d["games"][5]["ruleset"]["deals"] = "four"


def inconsistent_totals(d: dict[str, Any]) -> None:
    d["games"][5]["totals"][0] += 100


def inconsistent_score(d: dict[str, Any]) -> None:
    d["games"][5]["deals"][2]["teams"][1]["score"] = 1


def score_as_text(d: dict[str, Any]) -> None:
    d["games"][5]["deals"][2]["teams"][1]["score"] = str(
        d["games"][5]["deals"][2]["teams"][1]["score"]
    )


def time_past_9999_in_utc(d: dict[str, Any]) -> None:
    d["games"][5]["created_at"] = "9999-12-31T23:59:59-05:00"


def _house(slug: str, rules_id: str, bonus: int = 500) -> dict[str, Any]:
    base = rulesets.resolve("standard").to_dict()
    rules = {**base, "id": rules_id, "name": "Ours", "based_on": "standard"}
    return {"id": slug, "name": "Ours", "ruleset": {**rules, "clean_book_bonus": bonus}}


def house_rules_id_not_its_rules(d: dict[str, Any]) -> None:
    # /rules/<id> and the games' "ruleset" name house rules by one id: /rules/other would
    # find nothing.
    d["house_rules"] = [_house("other", "ours")]


def house_rules_listed_twice(d: dict[str, Any]) -> None:
    # Which of the two would a game named "ours" be played under?
    d["house_rules"] = [_house("ours", "ours", 700), _house("ours", "ours", 901)]


def unknown_player(d: dict[str, Any]) -> None:
    d["games"][5]["teams"][0]["players"][0] = "Nobody"


def same_team_names(d: dict[str, Any]) -> None:
    d["games"][5]["teams"][1]["name"] = d["games"][5]["teams"][0]["name"].upper()


def duplicate_game(d: dict[str, Any]) -> None:
    d["games"].append(copy.deepcopy(d["games"][0]))


def missing_deal_teams(d: dict[str, Any]) -> None:
    del d["games"][5]["deals"][3]["teams"][1]


def finished_too_soon(d: dict[str, Any]) -> None:
    del d["games"][5]["deals"][3]
    d["games"][5]["totals"] = None


def no_games(d: dict[str, Any]) -> None:
    del d["games"]


def extra_key(d: dict[str, Any]) -> None:
    d["notes"] = "added by hand"


def season_not_a_name(d: dict[str, Any]) -> None:
    d["season"] = {"name": "Winter"}


def bad_export_time(d: dict[str, Any]) -> None:
    d["exported_at"] = "last Saturday"


BROKEN: list[tuple[Callable[[dict[str, Any]], None], str, str]] = [
    (no_games, "games", "is missing"),
    (extra_key, "notes", "not part of an export"),
    (season_not_a_name, "season", "name of a season"),
    (bad_export_time, "exported_at", "date and time"),
    (wrong_version, "version", "format version 99"),
    (not_an_export, "format", "not a scorekeeper export"),
    (invalid_tally, "games[5].deals[1].teams[0].melded", "between"),
    (not_a_card_class, "games[5].deals[1].teams[1].left.queens", "not a card class"),
    (impossible_deal, "games[5].deals[0].teams", "Only one team can go out"),
    (unknown_ruleset, "games[5].ruleset", "no rules called no-such-rules"),
    (broken_ruleset, "games[5].ruleset", ""),
    (inconsistent_totals, "games[5].totals", "add up to"),
    (inconsistent_score, "games[5].deals[2].teams[1].score", "says 1"),
    (score_as_text, "games[5].deals[2].teams[1].score", "must be a whole number"),
    (house_rules_id_not_its_rules, "house_rules[0].id", "must be the same"),
    (house_rules_listed_twice, "house_rules[1].id", "appears twice"),
    (time_past_9999_in_utc, "games[5].created_at", "date and time"),
    (unknown_player, "games[5].teams[0].players[0]", "Nobody is not in the file's players"),
    (duplicate_game, "uid", "appears twice"),
    (same_team_names, "games[5].teams[1].name", "same name"),
    (missing_deal_teams, "games[5].deals[3].teams", "one entry for each of the 2 teams"),
    (finished_too_soon, "games[5].finished_at", "marked finished"),
]


@pytest.mark.parametrize(
    ("damage", "where", "words"), BROKEN, ids=lambda v: getattr(v, "__name__", None)
)
def test_a_broken_file_is_refused_whole_and_changes_nothing(
    app: Flask,
    season: Season,
    other: Flask,
    damage: Callable[[dict[str, Any]], None],
    where: str,
    words: str,
) -> None:
    document = export(app)
    # G5 (finished, then deleted) is the broken one: the games before and after it are fine,
    # and none of them may be written either.
    assert document["games"][5]["played_on"] == "2025-01-25"
    damage(document)
    before = table_counts(other)

    with pytest.raises(Invalid) as refused:
        import_into(other, document)

    assert table_counts(other) == before
    problems = refused.value.problems
    assert any(where in p.field for p in problems), [(p.field, p.message) for p in problems]
    assert any(words in p.message for p in problems), [p.message for p in problems]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (b'{"format": "scorekeeper-export", "version": 1, "games": [', "line 1, column"),
        (b"\xff\xfe not text", "not UTF-8"),
        (b"[1, 2, 3]", "not a scorekeeper export"),
        (b'{"format": "scorekeeper-export", "version": NaN}', "not valid JSON"),
        (b"", "not valid JSON"),
    ],
)
def test_a_file_that_is_not_an_export_is_refused(app: Flask, text: bytes, words: str) -> None:
    before = table_counts(app)
    with app.app_context(), pytest.raises(Invalid) as refused:
        exchange.import_text(text)
    assert words in refused.value.problems[0].message
    assert table_counts(app) == before


def test_a_file_broken_everywhere_lists_a_bounded_number_of_problems(
    app: Flask, season: Season, other: Flask
) -> None:
    document = export(app)
    for game in document["games"]:
        game["played_on"] = "yesterday"
        game["decks"] = 0
    document["games"] *= 20
    with pytest.raises(Invalid) as refused:
        import_into(other, document)
    assert len(refused.value.problems) == exchange.MOST_PROBLEMS
    assert refused.value.problems[0].field == "games[0].played_on"


def test_an_import_that_races_another_writer_is_undone_whole(
    app: Flask, season: Season, other: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    document = export(app)
    write = exchange._write

    def racing(parsed: Any, summary: exchange.ImportSummary) -> None:
        write(parsed, summary)
        # Another tablet's new player of the same name lands at the same moment.
        db.session.add(Player(name="Ann"))

    monkeypatch.setattr(exchange, "_write", racing)
    before = table_counts(other)
    with pytest.raises(exchange.Conflict):
        import_into(other, document)
    assert table_counts(other) == before
