"""Players renamed and merged, seasons created; and problems said outside a request."""

from __future__ import annotations

from datetime import date

import pytest
from flask import Flask
from sqlalchemy import func, select
from svc_support import alone, pairs, play, refused, standard_game

from scorekeeper.extensions import db
from scorekeeper.messages import problems_json, say
from scorekeeper.models import Player, Season, TeamMember
from scorekeeper.rules import Problem
from scorekeeper.rules.i18n import N_
from scorekeeper.rules.tally import NAME_LONGEST
from scorekeeper.services import games, players
from scorekeeper.services.errors import Conflict, Invalid, NotFound, ServiceError
from scorekeeper.services.games import TeamSpec
from scorekeeper.services.names import team_name_of


def _player(name: str) -> Player:
    player: Player | None = db.session.scalar(select(Player).where(Player.name == name))
    assert player is not None
    return player


def test_players_are_listed_by_name_whatever_the_case(ctx: Flask) -> None:
    games.start_game("standard", pairs("cy", "Ann", "ben", "Di"))

    assert [p.name for p in players.all_players()] == ["Ann", "ben", "cy", "Di"]


def test_a_player_can_be_renamed_and_games_show_the_new_name(ctx: Flask) -> None:
    game_id = standard_game()

    renamed = players.rename_player(_player("Ann").id, "  Annie ")

    assert renamed.name == "Annie"
    view = games.view_game(games.load_game(game_id))
    assert view.team_players[0] == ["Annie", "Ben"]
    # The team was named after its players: it follows them, as the standings do.
    assert view.team_names[0] == "Annie & Ben"
    assert view.team_names[1] == "Cy & Di"


def test_a_team_with_a_name_of_its_own_keeps_it_when_a_player_is_renamed(ctx: Flask) -> None:
    game = games.start_game(
        "standard", [TeamSpec("Foxes", ["Ann", "Ben"]), TeamSpec("", ["cy", "Di"])]
    )
    solo = games.start_game("simpson", alone("Ann", "Cy", "Eve"))

    players.rename_player(_player("Ann").id, "Annie")
    players.rename_player(_player("cy").id, "Cyril")

    assert games.view_game(games.load_game(game.id)).team_names == ["Foxes", "Cyril & Di"]
    assert games.view_game(games.load_game(solo.id)).team_names == ["Annie", "Cyril", "Eve"]


def test_a_team_named_after_long_names_is_cut_alike_when_a_player_is_renamed(
    ctx: Flask,
) -> None:
    # Two names of 50 characters make a team name longer than a team may have: the game cuts
    # it, and a rename names the team again as a game would, cut at the same place.
    first, second = "A" * 49 + "n", "B" * 49 + "n"
    game = games.start_game("standard", [TeamSpec("", [first, second]), TeamSpec("", ["Cy", "Di"])])
    name = games.view_game(games.load_game(game.id)).team_names[0]
    assert name == f"{first} & {second}"[:NAME_LONGEST] != f"{first} & {second}"

    players.rename_player(_player(first).id, "Z" * 49 + "n")

    renamed = games.view_game(games.load_game(game.id)).team_names[0]
    assert renamed == ("Z" * 49 + f"n & {second}")[:NAME_LONGEST]
    assert renamed == team_name_of(["Z" * 49 + "n", second])


def test_renaming_to_the_same_name_in_another_case_is_fine(ctx: Flask) -> None:
    standard_game()

    assert players.rename_player(_player("Ann").id, "ANN").name == "ANN"


@pytest.mark.parametrize("name", ["Ben", "ben", " BEN "])
def test_renaming_to_an_existing_name_is_a_conflict(ctx: Flask, name: str) -> None:
    standard_game()
    ann = _player("Ann").id

    error = refused(Conflict, lambda: players.rename_player(ann, name), status=409)

    assert error.problems[0].field == "name"


def test_renaming_to_an_existing_accented_name_is_a_conflict(ctx: Flask) -> None:
    standard_game(names=("Émile", "Ben", "Cy", "Di"))
    ben = _player("Ben").id

    refused(Conflict, lambda: players.rename_player(ben, "Émile"))


@pytest.mark.parametrize("name", ["", "   ", "x" * 81, "\u200b", " \u200b\u200d\u2067 ", "\u00a0"])
def test_a_name_must_be_one_to_eighty_characters(ctx: Flask, name: str) -> None:
    standard_game()
    ann = _player("Ann").id

    refused(Invalid, lambda: players.rename_player(ann, name), status=422)


def test_nothing_unseen_is_kept_around_a_name(ctx: Flask) -> None:
    # A zero-width space would make two "Ann"s that look alike; a joiner inside stays.
    standard_game()
    ann = _player("Ann").id
    assert players.rename_player(ann, "\u200bAnna\u200b ").name == "Anna"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert players.rename_player(ann, f"Ann {family}").name == f"Ann {family}"
    # What this Python does not know yet (a newer emoji) or draws as nothing is not trimmed
    # and trimmed, in that order: only the blanks count as nothing.
    assert players.rename_player(ann, "Ann \U0001fae8").name == "Ann \U0001fae8"
    assert players.rename_player(ann, "\U0001fa77").name == "\U0001fa77"
    refused(Invalid, lambda: players.rename_player(ann, "\u3164\u2800"))
    game = games.start_game("standard", pairs("\u200bCy", "Di", "Ed", "Fay\u2060"))
    seated = [[m.player.name for m in team.members] for team in game.teams]
    assert seated == [["Cy", "Di"], ["Ed", "Fay"]]
    # A player whose name is only unseen characters is no player.
    invisible = [TeamSpec("", ["\u200b", "\u200d"]), TeamSpec("", ["Gus", "Hal"])]
    error = refused(Invalid, lambda: games.start_game("standard", invisible))
    assert error.problems[0].field == "teams[0].players"


def test_a_line_break_inside_a_name_is_one_space(ctx: Flask) -> None:
    # Sent through the API or pasted: a page would show "Ann Bo" either way.
    standard_game()
    ann = _player("Ann").id
    assert players.rename_player(ann, "Ann\r\n\tBo\x1b").name == "Ann Bo"
    assert players.rename_player(ann, "Ann\u2028Bo  Li").name == "Ann Bo  Li"  # typed spaces stay
    game = games.start_game("standard", pairs("Cy\nDi", "Ed", "Fay", "Gus"))
    assert game.teams[0].members[0].player.name == "Cy Di"
    assert players.create_season("Spring\t2027").name == "Spring 2027"
    refused(Conflict, lambda: players.create_season("spring\n2027"))


def test_a_name_stored_with_a_line_break_is_the_one_typed_with_a_space(ctx: Flask) -> None:
    # Stored before names were cleaned so: found again, not made twice.
    standard_game()
    _player("Ann").name = "Ann\nBo"
    db.session.add(Season(name="Spring\n2027"))
    db.session.commit()

    assert players.named("ann bo") == _player("Ann\nBo")
    refused(Conflict, lambda: players.rename_player(_player("Ben").id, "Ann Bo"))
    refused(Conflict, lambda: players.create_season("Spring 2027"))
    game = games.start_game("standard", pairs("Ann Bo", "Di", "Ed", "Fay"))
    assert game.teams[0].members[0].player == _player("Ann\nBo")
    # Kept from before, both: the one stored with the very name typed is the one meant,
    # whichever was stored first.
    first, later = _player("Ann\nBo"), _player("Ben")
    first.name = "Ann"
    db.session.flush()
    first.name, later.name = "ann bo", "Ann\nBo"  # the line break stored later
    db.session.commit()
    assert players.named("Ann Bo") == first
    game = games.start_game("standard", pairs("Ann Bo", "Gus", "Hal", "Ivy"))
    assert game.teams[0].members[0].player == first


def test_renaming_nobody_is_not_found(ctx: Flask) -> None:
    refused(NotFound, lambda: players.rename_player(42, "Ann"))
    refused(NotFound, lambda: players.get_player(42))


def test_merging_moves_every_game_and_removes_the_duplicate(ctx: Flask) -> None:
    first = standard_game(names=("Ann", "Ben", "Cy", "Di"))
    second = standard_game(names=("Anne", "Eve", "Cy", "Di"))
    play(second, 1)
    keep, gone = _player("Ann").id, _player("Anne").id

    kept = players.merge_players(keep, gone)

    assert kept.id == keep
    assert db.session.get(Player, gone) is None
    assert games.view_game(games.load_game(first)).team_players[0] == ["Ann", "Ben"]
    assert games.view_game(games.load_game(second)).team_players[0] == ["Ann", "Eve"]
    memberships = db.session.scalars(select(TeamMember).where(TeamMember.player_id == keep)).all()
    assert len(memberships) == 2
    assert db.session.scalar(select(func.count()).select_from(Player)) == 5
    # The merged game's deals and scores are untouched.
    assert len(games.load_game(second).deals) == 1


def test_two_people_who_shared_a_team_cannot_be_merged(ctx: Flask) -> None:
    standard_game()
    ann, ben = _player("Ann").id, _player("Ben").id

    error = refused(Conflict, lambda: players.merge_players(ann, ben), status=409)

    assert error.problems[0].field == "merge"


def test_two_people_who_sat_at_one_table_cannot_be_merged(ctx: Flask) -> None:
    # Ann and Cy played against each other: merging them would seat one person twice.
    standard_game()
    ann, cy = _player("Ann").id, _player("Cy").id

    refused(Conflict, lambda: players.merge_players(ann, cy))


def test_two_people_who_played_alone_at_one_table_cannot_be_merged(ctx: Flask) -> None:
    games.start_game("simpson", alone("Ann", "Ben", "Cy"))
    ann, ben = _player("Ann").id, _player("Ben").id

    refused(Conflict, lambda: players.merge_players(ann, ben))


def test_merging_needs_two_different_players_that_exist(ctx: Flask) -> None:
    standard_game()
    ann = _player("Ann").id

    refused(Invalid, lambda: players.merge_players(ann, ann))
    refused(NotFound, lambda: players.merge_players(ann, 99))
    refused(NotFound, lambda: players.merge_players(99, ann))


def test_a_merged_player_is_found_again_by_the_kept_name(ctx: Flask) -> None:
    standard_game(names=("Ann", "Ben", "Cy", "Di"))
    standard_game(names=("Anne", "Eve", "Cy", "Di"))
    players.merge_players(_player("Ann").id, _player("Anne").id)

    game = games.start_game("standard", [TeamSpec("", ["ann", "Eve"]), TeamSpec("", ["Cy", "Di"])])

    assert game.teams[0].members[0].player.name == "Ann"
    assert db.session.scalar(select(func.count()).select_from(Player)) == 5


def test_a_merged_players_teams_take_the_kept_name(ctx: Flask) -> None:
    first = standard_game(names=("Ann", "Ben", "Cy", "Di"))
    second = standard_game(names=("Anne", "Eve", "Cy", "Di"))
    named = games.start_game("standard", [TeamSpec("Sharks", ["Anne", "Ben"]), *pairs("Cy", "Di")])

    players.merge_players(_player("Ann").id, _player("Anne").id)

    names = [games.view_game(games.load_game(g)).team_names[0] for g in (first, second, named.id)]
    assert names == ["Ann & Ben", "Ann & Eve", "Sharks"]


def test_a_season_has_a_name_and_optional_dates(ctx: Flask) -> None:
    season = players.create_season("  Winter 2026 ", date(2026, 1, 1), date(2026, 3, 31))
    open_ended = players.create_season("Forever")

    assert (season.name, season.starts_on, season.ends_on) == (
        "Winter 2026",
        date(2026, 1, 1),
        date(2026, 3, 31),
    )
    assert (open_ended.starts_on, open_ended.ends_on) == (None, None)
    assert db.session.scalar(select(func.count()).select_from(Season)) == 2


@pytest.mark.parametrize(
    ("name", "starts_on", "ends_on", "error", "field"),
    [
        ("", None, None, Invalid, "name"),
        ("  ", None, None, Invalid, "name"),
        ("x" * 81, None, None, Invalid, "name"),
        ("Backwards", date(2026, 3, 1), date(2026, 2, 1), Invalid, "ends_on"),
        ("Winter", None, None, Conflict, "name"),
        ("WINTER", None, None, Conflict, "name"),
    ],
)
def test_impossible_seasons_are_refused(
    ctx: Flask,
    name: str,
    starts_on: date | None,
    ends_on: date | None,
    error: type[ServiceError],
    field: str,
) -> None:
    players.create_season("Winter")

    refused_error = refused(error, lambda: players.create_season(name, starts_on, ends_on))

    assert refused_error.problems[0].field == field


def test_a_season_with_an_accented_name_is_refused_twice(ctx: Flask) -> None:
    players.create_season("Été 2026")

    refused(Conflict, lambda: players.create_season("Été 2026"))


def test_problems_are_said_outside_a_request_too(ctx: Flask) -> None:
    # The command line (flask demo, imports) has an app context but no request.
    problem = Problem(None, "name", N_("There is already a season called %(name)s."), {"name": "X"})

    assert say(problem) == "There is already a season called X."
    assert problems_json([problem]) == [
        {"team": None, "field": "name", "message": "There is already a season called X."}
    ]
