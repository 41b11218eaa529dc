"""Pages: seasons, standings (per season and all time), a player's page, what-if.

Every page reads one service call's result; the standings come from
:mod:`scorekeeper.services.standings` in a fixed number of queries whatever the number of games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from wtforms import DateField, StringField  # type: ignore[import-untyped]
from wtforms.validators import DataRequired, Length, Optional  # type: ignore[import-untyped]

from scorekeeper import charts
from scorekeeper.extensions import NumberStyle, db, decimal, half_up
from scorekeeper.messages import say
from scorekeeper.models import Game, HouseRules
from scorekeeper.rules import PRESETS, RuleSet
from scorekeeper.services import games as game_service
from scorekeeper.services import players as player_service
from scorekeeper.services import rulesets
from scorekeeper.services import standings as service
from scorekeeper.services.errors import DamagedRecord, NotFound, ServiceError
from scorekeeper.services.standings import Line

from .forms import AppForm
from .players import played_games
from .rules_text import EN_DASH, ruleset_name

bp = Blueprint("seasons", __name__)


@bp.errorhandler(NotFound)
def _not_found(error: NotFound) -> ResponseReturnValue:
    messages = [say(p) for p in error.problems]
    return render_template("standings/not_found.html", messages=messages), 404


# ---------------------------------------------------------------------------
# Numbers as the tables show them


def whole(value: float | None) -> str:
    return EN_DASH if value is None else decimal(value, 0)


def signed_whole(value: float) -> str:
    """A margin: always with its sign, a real minus sign for losses."""
    number = int(half_up(value))
    return ("+" if number >= 0 else "") + decimal(number, 0)


def percent(value: float) -> str:
    """A share (0.125) as a whole percentage (13 %): a half rounds up, as everywhere."""
    return NumberStyle.current().percent.format(decimal(float(half_up(value, 2) * 100), 0))


def wins(line: Line) -> str:
    return decimal(float(line.wins), 2)


def books(line: Line) -> str:
    per_game = line.books_per_game
    kinds = ["clean", "dirty", "wild"]
    # Black threes keep their place before a house rule's own books (0 when a line has only
    # the latter), so the column's hint reads every line alike.
    if line.black_three_books or line.special_books:
        kinds.append("black_three")
    if line.special_books:
        kinds.append("special")
    return " / ".join(decimal(per_game[kind]) for kind in kinds)


@dataclass(frozen=True)
class Column:
    sort: str  # a key of services.standings.SORTS
    label: Any  # a lazy string: translated when the page is drawn
    value: Callable[[Line], str]
    hint: Any = ""


MAIN_COLUMNS = (
    Column("games", _l("Games"), lambda line: str(line.games)),
    Column("wins", _l("Wins"), wins, _l("ties shared")),
    Column("win_pct", _l("Win rate"), lambda line: percent(line.win_pct / 100)),
    Column("rating", _l("Rating"), lambda line: whole(line.rating)),
    Column("avg", _l("Points per game"), lambda line: whole(line.average_per_game)),
    Column("margin", _l("Average margin"), lambda line: signed_whole(line.average_margin)),
    Column("best", _l("Best game"), lambda line: whole(line.best)),
)
DETAIL_COLUMNS = (
    Column("points", _l("Points"), lambda line: whole(line.points)),
    Column("avg_deal", _l("Points per deal"), lambda line: whole(line.average_per_deal)),
    Column(
        "books", _l("Books per game"), books, _l("clean / dirty / wild (/ black three / special)")
    ),
    Column("going_out", _l("Went out"), lambda line: percent(line.going_out_rate)),
    Column("red_threes", _l("Red threes per game"), lambda line: decimal(line.red_threes_per_game)),
    Column("stock_outs", _l("Stock-outs"), lambda line: str(line.stock_outs)),
)


def _sort() -> str:
    sort = request.args.get("sort", service.DEFAULT_SORT)
    return sort if sort in service.SORTS else service.DEFAULT_SORT


def rules_label(ruleset_id: str) -> str:
    """Rules by name: a preset's, translated; house rules' own; house rules since deleted by
    the name their games keep (the id only if even that is unreadable)."""
    preset = PRESETS.get(ruleset_id)
    if preset:
        return ruleset_name(preset)
    names = _house_rules_names()
    if ruleset_id not in names:
        names[ruleset_id] = _name_kept_by_games(ruleset_id) or ruleset_id
    return names[ruleset_id]


def _name_kept_by_games(ruleset_id: str) -> str | None:
    """The name of rules no longer stored, as the latest game played by them keeps it (a
    game holds a copy of its rules): one query, only for rules that were deleted."""
    kept = db.session.scalar(
        db.select(Game.ruleset)
        .where(Game.ruleset_id == ruleset_id)
        .order_by(Game.id.desc())
        .limit(1)
    )
    name = kept.get("name") if isinstance(kept, dict) else None
    return name.strip() or None if isinstance(name, str) else None


def _house_rules_names() -> dict[str, str]:
    """House rules' names by id, read once a request.

    The pages that name rules read them whether or not a line has house rules, so they run
    as many queries with a few games as with thousands.
    """
    if "house_rules_names" not in g:
        rows = db.session.execute(db.select(HouseRules.slug, HouseRules.name))
        g.house_rules_names = {slug: name for slug, name in rows}
    names: dict[str, str] = g.house_rules_names
    return names


def sort_url(sort: str) -> str:
    """This page sorted by ``sort``."""
    args = {**(request.view_args or {}), **request.args.to_dict(), "sort": sort}
    return url_for(request.endpoint or "seasons.all_time", **args)


@bp.context_processor
def _helpers() -> dict[str, Any]:
    return {
        "rules_label": rules_label,
        "ruleset_name": ruleset_name,
        "say": say,
        "sort_url": sort_url,
        "signed": signed_whole,
        "decimal": decimal,
        "percent": percent,
        "whole": whole,
    }


# ---------------------------------------------------------------------------
# Seasons


class SeasonForm(AppForm):
    name = StringField(
        _l("Name"),
        validators=[
            DataRequired(_l("A season needs a name of 1 to 80 characters.")),
            Length(max=80, message=_l("A season needs a name of 1 to 80 characters.")),
        ],
    )
    starts_on = DateField(_l("Starts on (optional)"), validators=[Optional()])
    ends_on = DateField(_l("Ends on (optional)"), validators=[Optional()])


def _seasons_page(form: SeasonForm, status: int = 200) -> ResponseReturnValue:
    return render_template("seasons/index.html", seasons=service.seasons(), form=form), status


@bp.get("/seasons")
def index() -> ResponseReturnValue:
    return _seasons_page(SeasonForm())


@bp.post("/seasons")
def create() -> ResponseReturnValue:
    form = SeasonForm()
    if not form.validate():
        return _seasons_page(form, 400)
    try:
        season = player_service.create_season(
            form.name.data, form.starts_on.data, form.ends_on.data
        )
    except ServiceError as error:
        for problem in error.problems:
            target = getattr(form, problem.field, form.name)
            target.errors = [*target.errors, say(problem)]
        return _seasons_page(form, error.status)
    flash(_("Season %(name)s is ready.", name=season.name))
    return redirect(url_for("seasons.show", season_id=season.id))


@bp.route("/seasons/<int:season_id>/edit", methods=["GET", "POST"])
def edit(season_id: int) -> ResponseReturnValue:
    """Rename a season, change its dates, or go on to delete it."""
    season = service.get_season(season_id)
    form = SeasonForm(obj=season if request.method == "GET" else None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.validate():
            try:
                player_service.update_season(
                    season.id, form.name.data, form.starts_on.data, form.ends_on.data
                )
            except ServiceError as error:
                db.session.rollback()
                for problem in error.problems:
                    target = getattr(form, problem.field, form.name)
                    target.errors = [*target.errors, say(problem)]
                status = error.status
            else:
                flash(_("Season %(name)s is saved.", name=season.name))
                return redirect(url_for("seasons.show", season_id=season.id))
    return render_template("seasons/edit.html", season=season, form=form), status


@bp.route("/seasons/<int:season_id>/delete", methods=["GET", "POST"])
def delete(season_id: int) -> ResponseReturnValue:
    """Delete a season after asking: its games stay, in no season."""
    season = service.get_season(season_id)
    if request.method != "POST":
        games = service.season_game_count(season.id)
        return render_template("seasons/delete.html", season=season, games=games)
    name, games = player_service.delete_season(season.id)
    flash(
        ngettext(
            "The season %(name)s is deleted; its %(num)d game stays, in no season.",
            "The season %(name)s is deleted; its %(num)d games stay, in no season.",
            games,
            name=name,
        )
    )
    return redirect(url_for("seasons.index"))


# ---------------------------------------------------------------------------
# Standings


# Partnerships multiply with the years; a page shows the best ones unless asked for all.
PARTNERSHIPS_SHOWN = 30
# A player's page lists their games in progress up to this many (all: their games page).
IN_PROGRESS_SHOWN = 5


def _standings_page(season_id: int | None) -> ResponseReturnValue:
    sort = _sort()
    table = service.standings(season_id, sort)
    _house_rules_names()
    all_partnerships = request.args.get("partnerships") == "all"
    players = [(line.players[0], line.name) for line in table.players]
    chart_id = f"ratings-{season_id or 'all'}"
    title = (
        _("Ratings through %(season)s", season=table.season.name)
        if table.season
        else _("Ratings through every game")
    )
    return render_template(
        "standings/standings.html",
        table=table,
        sort=sort,
        main_columns=MAIN_COLUMNS,
        detail_columns=DETAIL_COLUMNS,
        partnerships=table.partnerships
        if all_partnerships
        else table.partnerships[:PARTNERSHIPS_SHOWN],
        player_urls=_player_urls(table.names),
        ratings_chart=charts.ratings_svg(chart_id, title, table.ratings, players)
        if table.ratings.games
        else None,
        scores_chart=charts.score_ranges_svg(f"scores-{season_id or 'all'}", table.players)
        if table.players
        else None,
        all_rulesets=rulesets.all_rulesets() if table.season else [],
        view_functions=current_app.view_functions,
    )


def _player_urls(names: dict[int, str]) -> dict[int, str]:
    # Built once per player rather than once per table cell.
    return {pid: url_for("seasons.player", player_id=pid) for pid in names}


@bp.get("/seasons/<int:season_id>")
def show(season_id: int) -> ResponseReturnValue:
    return _standings_page(season_id)


@bp.get("/standings")
def all_time() -> ResponseReturnValue:
    return _standings_page(None)


# ---------------------------------------------------------------------------
# A player's page


@bp.get("/players/<int:player_id>")
def player(player_id: int) -> ResponseReturnValue:
    """A player's page: their line, rating over time, partners, head to head, games in
    progress and latest finished games (every game they sat in is a page of its own,
    :func:`players.games`)."""
    stats = service.player_stats(player_id)
    try:
        views, in_progress = game_service.read_games(
            1, IN_PROGRESS_SHOWN, player_id=player_id, playing=True
        )
    except DamagedRecord:
        # A game in progress that cannot be read: its own page says what is damaged; the
        # player's figures still stand, without the list of games in progress.
        db.session.rollback()
        views, in_progress = [], 0
    _house_rules_names()
    name = stats.player.name
    return render_template(
        "standings/player.html",
        stats=stats,
        playing=played_games(views, player_id),
        more_playing=in_progress > len(views),
        main_columns=MAIN_COLUMNS,
        detail_columns=DETAIL_COLUMNS,
        rating_chart=charts.player_rating_svg(f"rating-{player_id}", name, stats.history)
        if stats.history
        else None,
        distribution_chart=charts.distribution_svg(
            f"distribution-{player_id}", name, stats.distribution
        )
        if stats.distribution
        else None,
    )


@bp.get("/players/<int:player_id>/stats")
def player_stats(player_id: int) -> ResponseReturnValue:
    """Where the statistics had a page of their own: they are the player's page now."""
    return redirect(url_for("seasons.player", player_id=player_id), 301)


# ---------------------------------------------------------------------------
# What if: the same games under other rules (read-only)


def _other_rules() -> tuple[str | None, list[RuleSet]]:
    """The rules asked for in ``?ruleset=`` (None when not asked yet), and every choice."""
    ref = request.args.get("ruleset", "").strip()
    return (ref or None), rulesets.all_rulesets()


@bp.get("/games/<int:game_id>/what-if")
def game_what_if(game_id: int) -> ResponseReturnValue:
    ref, choices = _other_rules()
    try:
        result = service.what_if_game(game_id, ref)
    except (NotFound, DamagedRecord):
        raise  # its own page: nothing to do with the rules asked for
    except ServiceError as error:
        messages = [say(p) for p in error.problems]
        return render_template("standings/refused.html", messages=messages), error.status
    return render_template(
        "standings/what_if_game.html", result=result, choices=choices, asked=ref is not None
    )


@bp.get("/seasons/<int:season_id>/what-if")
def season_what_if(season_id: int) -> ResponseReturnValue:
    ref, choices = _other_rules()
    result = service.what_if_season(season_id, ref)
    return render_template(
        "standings/what_if_season.html",
        result=result,
        choices=choices,
        asked=ref is not None,
        wins=lambda units: decimal(units / service.WIN_UNITS, 2),
    )
