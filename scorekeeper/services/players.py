"""Players: the people seen at the table, renamed and merged when one person has two entries."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from sqlalchemy import func, update
from sqlalchemy.orm import selectinload

from scorekeeper.extensions import db
from scorekeeper.models import LARGEST_ID, Game, Player, Season, Team, TeamMember
from scorekeeper.rules.i18n import N_
from scorekeeper.rules.tally import NAME_LONGEST

from . import summaries
from .errors import Conflict, Invalid, NotFound
from .names import name_key, team_name_of, visible
from .standings import get_season, season_game_count


def all_players() -> list[Player]:
    return list(db.session.scalars(db.select(Player).order_by(func.lower(Player.name))))


def get_player(player_id: int) -> Player:
    player = db.session.get(Player, player_id) if 0 < player_id <= LARGEST_ID else None
    if player is None:
        raise NotFound.say(N_("There is no player %(id)s."), field="player", id=player_id)
    return player


def _clean_name(name: str) -> str:
    # The length as sent counts, as the API's schema says: spaces around it included.
    too_long = len(name) > NAME_LONGEST
    name = visible(name)
    if not name or too_long:
        raise Invalid.say(
            N_("A player's name has 1 to %(longest)d characters."),
            field="name",
            longest=NAME_LONGEST,
        )
    return name


def named(name: str) -> Player | None:
    """The player called ``name`` (whatever the case, and what cannot be seen around it)."""
    wanted = name_key(name)
    alike = [p for p in all_players() if name_key(p.name) == wanted]
    # One stored with the very name first: one with a line break inside may be kept from before.
    return next((p for p in alike if p.name.casefold() == wanted), alike[0] if alike else None)


def rename_player(player_id: int, name: str) -> Player:
    player = get_player(player_id)
    name = _clean_name(name)
    other = named(name)
    if other is not None and other.id != player.id:
        raise Conflict.say(
            N_("%(name)s already exists; merge the two entries instead."), field="name", name=name
        )
    named_after = _teams_named_after([player.id])
    player.name = name
    _name_again(named_after)
    db.session.commit()
    return player


def _auto_name(team: Team) -> str:
    """The name a game gives a team nobody named (:func:`team_name_of`)."""
    return team_name_of(member.player.name for member in team.members)


def _teams_named_after(player_ids: list[int]) -> list[Team]:
    """The teams of these players that carry their players' names, not one of their own."""
    teams = db.session.scalars(
        db.select(Team)
        .where(
            Team.id.in_(db.select(TeamMember.team_id).where(TeamMember.player_id.in_(player_ids)))
        )
        .options(selectinload(Team.members).joinedload(TeamMember.player))
    ).all()
    return [team for team in teams if team.name.casefold() == _auto_name(team).casefold()]


def _name_again(teams: list[Team]) -> None:
    """Teams that carried their players' names carry them as they are now (a renamed or
    merged player): the game pages, the sheets and the game lists say what the standings
    say. A name of the team's own ("Foxes") is left as it is."""
    for team in teams:  # its members are the ones loaded, a merged one moved already
        team.name = _auto_name(team)


def merge_players(keep_id: int, merge_id: int) -> Player:
    """Move every game of ``merge_id`` onto ``keep_id`` and remove the duplicate entry."""
    keep, gone = check_merge(keep_id, merge_id)
    named_after = _teams_named_after([gone.id])  # the kept name stays as it is
    for membership in list(gone.memberships):
        membership.player = keep
    db.session.flush()
    _name_again(named_after)
    db.session.delete(gone)
    summaries.bump()
    db.session.commit()
    return keep


def check_merge(keep_id: int, merge_id: int) -> tuple[Player, Player]:
    """The two entries to merge, or why they cannot be (asked before the merge is confirmed,
    so nobody says "Yes, merge them" to be told then that it cannot be done)."""
    if keep_id == merge_id:
        raise Invalid.say(N_("Choose two different players to merge."), field="merge")
    keep, gone = get_player(keep_id), get_player(merge_id)
    shared = db.session.scalar(
        db.select(func.count())
        .select_from(TeamMember)
        .where(
            TeamMember.player_id == keep.id,
            TeamMember.team_id.in_(
                db.select(Team.id).where(
                    Team.game_id.in_(
                        db.select(Team.game_id)
                        .join(TeamMember)
                        .where(TeamMember.player_id == gone.id)
                    )
                )
            ),
        )
    )
    if shared:
        raise Conflict.say(
            N_("%(a)s and %(b)s played in the same game, so they are two people."),
            field="merge",
            a=keep.name,
            b=gone.name,
        )
    return keep, gone


def season_on(day: date, seasons: Iterable[Season]) -> Season | None:
    """The one season whose dates hold ``day``; none if no season or more than one does.

    A season without dates holds no day; one with only a start (or only an end) is open on
    the other side.
    """
    holding = [
        season
        for season in seasons
        if (season.starts_on or season.ends_on)
        and (season.starts_on is None or season.starts_on <= day)
        and (season.ends_on is None or day <= season.ends_on)
    ]
    return holding[0] if len(holding) == 1 else None


def create_season(name: str, starts_on: date | None = None, ends_on: date | None = None) -> Season:
    name = _season_fields(name, starts_on, ends_on)
    season = Season(name=name, starts_on=starts_on, ends_on=ends_on)
    db.session.add(season)
    db.session.commit()
    return season


def update_season(
    season_id: int, name: str, starts_on: date | None = None, ends_on: date | None = None
) -> Season:
    """Rename a season or change its dates (labels: the games it holds stay its own)."""
    season = get_season(season_id)
    season.name = _season_fields(name, starts_on, ends_on, season_id=season.id)
    season.starts_on, season.ends_on = starts_on, ends_on
    db.session.commit()
    return season


def delete_season(season_id: int) -> tuple[str, int]:
    """Remove a season; its games stay, in no season. Its name and how many games it held."""
    season = get_season(season_id)
    name = season.name
    moved = season_game_count(season.id)
    db.session.execute(update(Game).where(Game.season_id == season.id).values(season_id=None))
    db.session.delete(season)
    # The standings kept for this season's number must not be shown for a new season that
    # may be given the same number.
    summaries.bump()
    db.session.commit()
    return name, moved


def _season_fields(
    name: str, starts_on: date | None, ends_on: date | None, season_id: int | None = None
) -> str:
    """The season's name as kept, after checking it and the dates."""
    too_long = len(name) > 80  # as sent, like a player's name
    name = visible(name)
    if not name or too_long:
        raise Invalid.say(N_("A season needs a name of 1 to 80 characters."), field="name")
    if starts_on and ends_on and ends_on < starts_on:
        raise Invalid.say(N_("A season cannot end before it starts."), field="ends_on")
    seasons = db.session.scalars(db.select(Season).where(Season.id != (season_id or 0)))
    if any(name_key(s.name) == name_key(name) for s in seasons):
        raise Conflict.say(
            N_("There is already a season called %(name)s."), field="name", name=name
        )
    return name
