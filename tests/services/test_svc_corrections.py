"""Correcting past deals: the log, the version that stops silent overwrites, and undo."""

from __future__ import annotations

import json

import pytest
from flask import Flask
from svc_support import (
    fresh_game,
    going_out,
    play,
    refused,
    snapshot,
    standard_deal,
    standard_game,
    staying,
)

from scorekeeper.extensions import db
from scorekeeper.models import Correction
from scorekeeper.rules import PRESETS, CardClass, Cards, TeamTally, score_team
from scorekeeper.services import games
from scorekeeper.services.errors import Conflict, Invalid, Malformed, NotFound, StaleDeal

STANDARD = PRESETS["standard"]


def _stored(game_id: int, number: int = 1) -> list[TeamTally]:
    deal = fresh_game(game_id).deals[number - 1]
    return [result.tally() for result in deal.results]


def _version(game_id: int, number: int = 1) -> int:
    return int(fresh_game(game_id).deals[number - 1].version)


def _log(game_id: int) -> list[tuple[int, int, int | None, str, object, object, bool]]:
    return [
        (
            c.deal_number,
            c.batch,
            c.team_position,
            c.field,
            json.loads(c.old_value),
            json.loads(c.new_value),
            c.undone_at is not None,
        )
        for c in games.corrections(game_id)
    ]


@pytest.fixture
def game_id(ctx: Flask) -> int:
    game_id = standard_game()
    play(game_id, 2)
    return game_id


def test_a_correction_logs_every_changed_field_with_old_and_new(game_id: int) -> None:
    corrected = [
        going_out(red_threes=2),
        staying(clean_books=2, melded=Cards(points=330), left=Cards(points=0)),
    ]

    saved = games.correct_deal(game_id, 1, 1, corrected)

    assert saved == 2
    assert _version(game_id) == 2
    assert _stored(game_id) == corrected
    assert _log(game_id) == [
        (1, 1, 0, "red_threes", 1, 2, False),
        (1, 1, 1, "clean_books", 1, 2, False),
        (1, 1, 1, "melded", 260, 330, False),
        (1, 1, 1, "left", 135, 0, False),
    ]
    game = fresh_game(game_id)
    assert [r.score for r in game.deals[0].results] == [
        score_team(STANDARD, t).score for t in corrected
    ]
    view = games.view_game(games.load_game(game_id))
    assert [d.corrected for d in view.deals] == [True, False]
    assert view.totals == [
        sum(r.score.score for d in view.deals for r in d.results if r is d.results[i])
        for i in range(2)
    ]


def test_card_counts_instead_of_points_are_logged_as_counts(game_id: int) -> None:
    counts = Cards.of_counts({CardClass.EIGHTS_TO_KINGS: 7, CardClass.FOURS_TO_SEVENS: 10})

    games.correct_deal(game_id, 2, 1, [going_out(), staying(melded=counts)])

    ((_, _, team, field, old, new, _),) = _log(game_id)
    assert (team, field, old) == (1, "melded", 260)
    assert new == {
        "jokers": 0,
        "twos": 0,
        "aces": 0,
        "eights_to_kings": 7,
        "fours_to_sevens": 10,
        "black_threes": 0,
    }


def test_saving_the_same_values_logs_nothing_and_keeps_the_version(game_id: int) -> None:
    before = snapshot()

    saved = games.correct_deal(game_id, 1, 1, standard_deal())

    assert saved == 1
    assert snapshot() == before
    assert _version(game_id) == 1
    assert _log(game_id) == []


def test_successive_corrections_get_their_own_batches(game_id: int) -> None:
    games.correct_deal(game_id, 1, 1, [going_out(red_threes=2), staying()])
    games.correct_deal(game_id, 2, 1, [going_out(), staying(red_threes=1)])
    games.correct_deal(game_id, 1, 2, [going_out(red_threes=3), staying()])

    assert [
        (deal, batch, field, old, new) for deal, batch, _, field, old, new, _ in _log(game_id)
    ] == [
        (1, 1, "red_threes", 1, 2),
        (2, 2, "red_threes", 0, 1),
        (1, 3, "red_threes", 2, 3),
    ]
    assert (_version(game_id, 1), _version(game_id, 2)) == (3, 2)


def test_a_stale_version_is_refused_and_shows_what_is_stored(game_id: int) -> None:
    theirs = [going_out(red_threes=2), staying()]
    games.correct_deal(game_id, 1, 1, theirs)  # the other tablet saved first

    error = refused(
        StaleDeal,
        lambda: games.correct_deal(game_id, 1, 1, [going_out(), staying(red_threes=1)]),
        status=409,
    )

    assert isinstance(error, StaleDeal)
    assert isinstance(error, Conflict)
    assert error.problems[0].field == "version"
    assert error.current.number == 1
    assert error.current.version == 2
    assert [r.tally.red_threes for r in error.current.results] == [2, 0]
    assert _stored(game_id) == theirs


@pytest.mark.parametrize("version", [0, 3])
def test_a_version_never_read_is_stale_too(game_id: int, version: int) -> None:
    refused(StaleDeal, lambda: games.correct_deal(game_id, 1, version, standard_deal()))


def test_an_impossible_correction_is_refused_whole(game_id: int) -> None:
    refused(
        Invalid,
        lambda: games.correct_deal(game_id, 1, 1, [going_out(), going_out()]),
        status=422,
    )
    refused(Malformed, lambda: games.correct_deal(game_id, 1, 1, [going_out()]))
    assert _version(game_id) == 1


def test_a_deal_not_played_cannot_be_corrected(game_id: int) -> None:
    refused(NotFound, lambda: games.correct_deal(game_id, 3, 1, standard_deal()), status=404)
    refused(NotFound, lambda: games.correct_deal(404, 1, 1, standard_deal()))


def test_a_finished_game_can_still_be_corrected(game_id: int) -> None:
    play(game_id, 2)
    assert games.view_game(games.load_game(game_id)).finished

    games.correct_deal(game_id, 4, 1, [going_out(red_threes=0), staying()])

    view = games.view_game(games.load_game(game_id))
    assert view.finished
    assert view.deals[3].results[0].tally.red_threes == 0


def test_two_tablets_saving_the_same_version_one_wins(
    ctx: Flask, game_id: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both read version 1, both save: the second is refused by the version guard itself."""
    commits: list[str] = []
    real_commit = games._commit_deal

    def spy(number: int, game_id: int) -> None:
        try:
            real_commit(number, game_id)
        except StaleDeal:
            commits.append("refused")
            raise
        commits.append("saved")

    monkeypatch.setattr(games, "_commit_deal", spy)
    ours = [going_out(), staying(red_threes=1)]
    theirs = [going_out(red_threes=2), staying()]
    # Our request has read the deal (version 1) and holds on to it while it works.
    held = games.load_game(game_id)
    assert held.deals[0].version == 1
    with ctx.app_context():  # the other tablet: another request, another session
        assert db.session() is not None
        games.correct_deal(game_id, 1, 1, theirs)
        db.session.remove()
    # Our session still believes version 1, so only the UPDATE ... WHERE version = 1 can
    # notice that someone else saved in between.
    assert held.deals[0].version == 1
    before = snapshot()

    with pytest.raises(StaleDeal) as caught:
        games.correct_deal(game_id, 1, 1, ours)

    # Refused at the commit, by UPDATE deal ... WHERE version = 1 matching no row.
    assert commits == ["saved", "refused"]
    assert caught.value.current.version == 2
    assert [r.tally.red_threes for r in caught.value.current.results] == [2, 0]
    assert snapshot() == before
    assert _stored(game_id) == theirs
    assert [field for _, _, _, field, *_ in _log(game_id)] == ["red_threes"]


def test_two_sessions_on_the_same_file_one_wins(ctx: Flask, game_id: int) -> None:
    """The same race from two app contexts pushed side by side, each with its own session."""
    first, second = ctx.app_context(), ctx.app_context()
    first.push()
    held_first = games.load_game(game_id).deals[0]
    second.push()
    held_second = games.load_game(game_id).deals[0]
    assert held_first.version == held_second.version == 1
    games.correct_deal(game_id, 1, 1, [going_out(red_threes=2), staying()])
    db.session.remove()
    second.pop()

    with pytest.raises(StaleDeal):
        games.correct_deal(game_id, 1, 1, [going_out(), staying(red_threes=1)])
    db.session.remove()
    first.pop()

    assert [t.red_threes for t in _stored(game_id)] == [2, 0]


def test_undo_puts_back_exactly_what_was_there_and_bumps_the_version(game_id: int) -> None:
    original = _stored(game_id)
    original_scores = [r.score for r in fresh_game(game_id).deals[0].results]
    counts = Cards.of_counts({CardClass.EIGHTS_TO_KINGS: 7, CardClass.FOURS_TO_SEVENS: 10})
    games.correct_deal(
        game_id,
        1,
        1,
        [going_out(opening_meld=90), staying(melded=counts, left=Cards(points=0))],
    )

    assert games.undo_last_correction(game_id) == 1

    assert _stored(game_id) == original
    results = fresh_game(game_id).deals[0].results
    assert [r.score for r in results] == original_scores
    assert (results[1].melded_points, results[1].melded_counts) == (260, None)
    assert results[0].opening_meld is None
    assert _version(game_id) == 3
    assert all(undone for *_, undone in _log(game_id))
    view = games.view_game(games.load_game(game_id))
    assert not view.deals[0].corrected


def test_undo_goes_back_one_save_at_a_time(game_id: int) -> None:
    games.correct_deal(game_id, 1, 1, [going_out(red_threes=2), staying()])
    games.correct_deal(game_id, 2, 1, [going_out(), staying(red_threes=1)])

    assert games.undo_last_correction(game_id) == 2
    assert [t.red_threes for t in _stored(game_id, 2)] == [1, 0]
    assert [t.red_threes for t in _stored(game_id, 1)] == [2, 0]
    assert games.undo_last_correction(game_id) == 1
    assert [t.red_threes for t in _stored(game_id, 1)] == [1, 0]
    before = snapshot()
    assert games.undo_last_correction(game_id) is None
    assert snapshot() == before


def test_undo_takes_one_deal_back_even_when_two_saves_share_a_batch(game_id: int) -> None:
    games.correct_deal(game_id, 1, 1, [going_out(red_threes=2), staying()])
    games.correct_deal(game_id, 2, 1, [going_out(), staying(red_threes=1)])
    # As an imported log may have it: both saves numbered batch 1.
    db.session.execute(db.update(Correction).where(Correction.game_id == game_id).values(batch=1))
    db.session.commit()

    assert games.undo_last_correction(game_id) == 2
    assert [t.red_threes for t in _stored(game_id, 2)] == [1, 0]
    assert [t.red_threes for t in _stored(game_id, 1)] == [2, 0]  # deal 1 untouched
    assert games.undo_last_correction(game_id) == 1
    assert [t.red_threes for t in _stored(game_id, 1)] == [1, 0]
    assert games.undo_last_correction(game_id) is None


def test_a_version_read_before_an_undo_is_stale(game_id: int) -> None:
    games.correct_deal(game_id, 1, 1, [going_out(red_threes=2), staying()])
    games.undo_last_correction(game_id)

    refused(StaleDeal, lambda: games.correct_deal(game_id, 1, 2, standard_deal()))
    games.correct_deal(game_id, 1, 3, [going_out(red_threes=3), staying()])
    assert _version(game_id) == 4


def test_the_log_is_kept_per_game(game_id: int) -> None:
    other = standard_game()
    play(other, 1)
    games.correct_deal(other, 1, 1, [going_out(red_threes=2), staying()])

    assert _log(game_id) == []
    assert len(_log(other)) == 1
    assert db.session.scalar(db.select(db.func.count()).select_from(Correction)) == 1


# An undo puts back what the log kept. A log imported from a file, or changed by hand, may
# keep what no team can report, an impossible deal, or a team the game does not have.


def _log_says(game_id: int, **values: object) -> None:
    """Every correction of the game rewritten straight in the database."""
    db.session.execute(db.update(Correction).where(Correction.game_id == game_id).values(**values))
    db.session.commit()


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"field": "clean_books", "old_value": '"abc"'}, "clean_books must be a whole number."),
        ({"field": "clean_books", "old_value": "null"}, "clean_books must be a whole number."),
        ({"field": "clean_books", "old_value": "-5"}, "clean_books must be between 0 and 60."),
        ({"field": "melded", "old_value": str(10**30)}, "melded must be between 0 and 20000."),
        ({"field": "melded", "old_value": '{"jokers": "x"}'}, "melded.jokers must be a whole"),
        ({"field": "went_out", "old_value": '"yes"'}, "went_out must be true or false."),
        ({"old_value": "two"}, "red_threes must be a whole number."),  # not JSON at all
        # JSON nested deeper than Python reads (it ended in a RecursionError).
        ({"old_value": "[" * 100_000 + "]" * 100_000}, "red_threes must be a whole number."),
        ({"field": "melded", "old_value": "[" * 500 + "]" * 500}, "melded must be a whole"),
        ({"old_value": "NaN"}, "red_threes must be a whole number."),
        # Values a team can report, but not in one deal: the deal's check refuses them.
        ({"field": "clean_books", "old_value": "59"}, "books need at least 423 natural cards"),
        ({"field": "name", "old_value": '"Zed"'}, "name is not a field a correction changes."),
        ({"team_position": 7}, "names a team this game does not have"),
        ({"team_position": None}, "names a team this game does not have"),
    ],
)
def test_undo_refuses_to_put_back_what_no_deal_can_hold(
    game_id: int, values: dict[str, object], words: str
) -> None:
    games.correct_deal(game_id, 1, 1, [going_out(red_threes=2), staying()])
    _log_says(game_id, **values)

    error = refused(Conflict, lambda: games.undo_last_correction(game_id), status=409)

    headline, *reasons = (problem.message for problem in error.problems)
    assert headline == (
        f"The last correction of deal 1 of game {game_id} cannot be undone: what it would put "
        "back is not possible. Nothing was changed; correct the deal instead."
    )
    assert any(words in reason for reason in reasons), reasons
    # As it says: the deal can still be corrected.
    assert games.correct_deal(game_id, 1, 2, standard_deal()) == 3
