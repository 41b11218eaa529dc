"""Pages: players, the people seen at the table; rename and merge duplicate entries."""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext
from sqlalchemy import func
from wtforms import SelectField, StringField  # type: ignore[import-untyped]
from wtforms.validators import (  # type: ignore[import-untyped]
    DataRequired,
    Length,
    ValidationError,
)

from scorekeeper.extensions import db
from scorekeeper.messages import say
from scorekeeper.models import Game, Player, Team, TeamMember
from scorekeeper.rules.tally import NAME_LONGEST
from scorekeeper.services import games as game_service
from scorekeeper.services import players as service
from scorekeeper.services.errors import Conflict, NotFound, ServiceError
from scorekeeper.services.names import visible

from .forms import AppForm
from .game_forms import _

bp = Blueprint("players", __name__)
# A regular's games run into the thousands over the years: a page shows this many.
PER_PAGE = 20


@bp.errorhandler(NotFound)
def _not_found(error: NotFound) -> ResponseReturnValue:
    return render_template("games/not_found.html", messages=[say(p) for p in error.problems]), 404


def games_played() -> dict[int, int]:
    """Games (not deleted) each player sat in, by player id."""
    rows = db.session.execute(
        db.select(TeamMember.player_id, func.count(func.distinct(Team.game_id)))
        .join(Team, TeamMember.team_id == Team.id)
        .join(Game, Team.game_id == Game.id)
        .where(Game.deleted_at.is_(None))
        .group_by(TeamMember.player_id)
    )
    return {player_id: count for player_id, count in rows}


@bp.get("/players")
def index() -> ResponseReturnValue:
    return render_template(
        "players/index.html", players=service.all_players(), played=games_played()
    )


@dataclass(frozen=True)
class PlayedGame:
    view: game_service.GameView
    team: int


def played_games(views: list[game_service.GameView], player_id: int) -> list[PlayedGame]:
    """Each game with the player's own team in it."""
    return [
        PlayedGame(
            view,
            next(
                team.position
                for team in view.game.teams
                if any(member.player.id == player_id for member in team.members)
            ),
        )
        for view in views
    ]


@bp.get("/players/<int:player_id>/games")
def games(player_id: int) -> ResponseReturnValue:
    """Every game a player sat in, finished or not, newest first and paged (their page,
    ``/players/<id>``, shows their statistics, games in progress and latest finished games)."""
    player = service.get_player(player_id)
    page = max(request.args.get("page", 1, type=int) or 1, 1)
    views, total = game_service.read_games(page, PER_PAGE, player_id=player.id)
    played = played_games(views, player.id)
    return render_template(
        "players/games.html",
        player=player,
        played=played,
        total=total,
        page=page,
        pages=max(ceil(total / PER_PAGE), 1),
    )


class RenameForm(AppForm):
    name = StringField(
        lazy_gettext("New name"),
        validators=[
            DataRequired(message=lazy_gettext("Type the new name.")),
            Length(max=NAME_LONGEST, message=lazy_gettext("A name has at most 80 characters.")),
        ],
    )


@bp.route("/players/<int:player_id>/rename", methods=["GET", "POST"])
def rename(player_id: int) -> ResponseReturnValue:
    player = service.get_player(player_id)
    form = RenameForm(data={"name": player.name} if request.method == "GET" else None)
    other: Player | None = None
    if form.validate_on_submit():
        old = player.name
        if visible(form.name.data or "") == old:
            flash(_("Nothing changed: the name is still %(name)s.", name=old))
            return redirect(url_for("seasons.player", player_id=player_id))
        try:
            service.rename_player(player_id, form.name.data or "")
        except ServiceError as error:
            db.session.rollback()
            form.name.errors = [*form.name.errors, *(say(p) for p in error.problems)]
            if isinstance(error, Conflict):
                other = service.named(form.name.data or "")
            return render_template(
                "players/rename.html", player=player, form=form, other=other
            ), error.status
        flash(_("%(old)s is now called %(new)s.", old=old, new=player.name))
        return redirect(url_for("seasons.player", player_id=player_id))
    status = 400 if form.errors else 200
    return render_template("players/rename.html", player=player, form=form, other=other), status


class MergeForm(AppForm):
    keep = SelectField(lazy_gettext("Keep this entry"), coerce=int)
    merge = SelectField(lazy_gettext("Merge this duplicate into it"), coerce=int)

    def validate_merge(self, field: SelectField) -> None:
        if field.data == self.keep.data:
            raise ValidationError(_("Choose two different entries."))


def _merge_pair(players: list[Player]) -> dict[str, int | None]:
    """The two entries a link asks to merge; where it names one, the other list starts on
    someone else (both lists on the same player could only be refused)."""
    keep = request.args.get("keep", type=int)
    merge = request.args.get("merge", type=int)
    named = keep if keep is not None else merge
    other = next((p.id for p in players if p.id != named), None)
    if keep is None and merge is not None:
        keep = other
    elif keep is not None and (merge is None or merge == keep):
        merge = other
    return {"keep": keep, "merge": merge}


@bp.route("/players/merge", methods=["GET", "POST"])
def merge() -> ResponseReturnValue:
    players = service.all_players()
    choices = [(p.id, p.name) for p in players]
    form = MergeForm(data=_merge_pair(players) if request.method == "GET" else None)
    form.keep.choices = choices
    form.merge.choices = choices
    played = games_played()
    if len(players) < 2:
        return render_template("players/merge.html", form=None, played=played)
    if not form.validate_on_submit():
        status = 400 if form.errors else 200
        return render_template("players/merge.html", form=form, played=played), status
    keep = next(p for p in players if p.id == form.keep.data)
    gone = next(p for p in players if p.id == form.merge.data)
    keep_name, gone_name = keep.name, gone.name
    try:
        if request.form.get("confirm") != "yes":
            # Two people who sat at one table are refused before anyone is asked to confirm.
            service.check_merge(keep.id, gone.id)
            # The confirmation step: say exactly what will happen, then ask again.
            return render_template(
                "players/merge_confirm.html", form=form, keep=keep, gone=gone, played=played
            )
        service.merge_players(keep.id, gone.id)
    except ServiceError as error:
        db.session.rollback()
        form.merge.errors = [*form.merge.errors, *(say(p) for p in error.problems)]
        return render_template("players/merge.html", form=form, played=played), error.status
    flash(_("%(gone)s was merged into %(keep)s.", gone=gone_name, keep=keep_name))
    return redirect(url_for("seasons.player", player_id=keep.id))
