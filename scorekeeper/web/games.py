"""Pages: games at the table, from the first deal to the winner.

Every view parses the form, calls one service function, then redirects or re-renders;
a refused write re-renders the form with everything typed and changes nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from datetime import date
from math import ceil
from typing import Any

from flask import (
    Blueprint,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError

from scorekeeper import charts
from scorekeeper.extensions import db
from scorekeeper.messages import say
from scorekeeper.models import Game, Season
from scorekeeper.rules import (
    BOUNDS,
    PRESETS,
    BookCount,
    CardClass,
    Problem,
    RuleSet,
    TeamTally,
    deal_hints,
    score_team,
    validate_deal,
)
from scorekeeper.rules.i18n import N_
from scorekeeper.rules.play import check_go_out
from scorekeeper.security import not_a_form
from scorekeeper.services import games as service
from scorekeeper.services import players as player_service
from scorekeeper.services import rulesets
from scorekeeper.services.errors import (
    Conflict,
    DamagedRecord,
    Malformed,
    NotFound,
    ServiceError,
    StaleDeal,
)

from . import game_forms as forms
from . import rules_text
from .game_forms import _, ngettext

bp = Blueprint("games", __name__)

PER_PAGE = 20
# The session key remembering the game this browser just deleted or abandoned, for undo.
UNDO_KEY = "games_undo"


@bp.errorhandler(NotFound)
def _not_found(error: NotFound) -> ResponseReturnValue:
    return render_template("games/not_found.html", messages=[say(p) for p in error.problems]), 404


@bp.errorhandler(CSRFError)
def _untrusted_form(error: CSRFError) -> ResponseReturnValue:
    """A deal form or the new-game form whose token no longer holds (its browser's session
    was lost, or it came from elsewhere) is shown again as typed, with a new token: nothing is
    saved, nothing typed is lost. Other forms get the plain refusal."""
    args = request.view_args or {}
    if request.is_json:  # the token is checked first; the body is what is wrong
        return render_template("errors.html", code=400, error=not_a_form()), 400
    if request.endpoint == "games.new":
        # The table's names, typed on a tablet: shown again as typed, nothing started.
        start = _new_game_form(request.form.get("ruleset"), request.form.get("seating"))
        forms.read_new_game(start, request.form)
        flash(
            _(
                "Nothing was started: this page was opened before this browser's session "
                "began, so it could not be trusted. What you typed is still here; check it and "
                "start the game again."
            ),
            "error",
        )
        return render_template("games/new.html", form=start), 400
    if request.endpoint in ("games.new_deal", "games.edit_deal"):
        try:
            view = service.read_game(args["game_id"])
        except (NotFound, DamagedRecord):
            return render_template("errors.html", code=400, error=error, expired=True), 400
        untrusted = _(
            "Nothing was saved: this page was opened before this browser's session began, "
            "so it could not be trusted. What you typed is still here; check it and save again."
        )
        number: int | None
        meant = None
        if "number" in args:  # a correction, of a deal that was played
            number = args["number"] if _is_played(view, args["number"]) else None
        else:  # a new deal, the one the form was opened for
            number = view.next_deal
            meant = _whole(request.form.get("number", ""))
            if meant is not None and meant != number and _is_played(view, meant):
                flash(untrusted, "error")  # another tablet saved it meanwhile: both entries
                return _saved_first(view, meant)
        if number is not None:
            flash(untrusted, "error")
            form = _deal_form(view, number)
            forms.read_deal_form(form, request.form)  # what was typed, judged on saving
            if meant is not None and meant > number:
                form.add_problems([_past_the_next(meant, number)])
            version = _whole(request.form.get("version", ""))
            if version is not None:
                form.version = version  # a correction still says which version it changes
            return _render_deal(view, form, 400)
    return render_template("errors.html", code=400, error=error, expired=True), 400


@bp.context_processor
def _phrases() -> dict[str, Any]:
    return {
        "go_out_phrase": _go_out_phrase,
        "opening_phrase": _opening_phrase,
        "ruleset_name": rules_text.ruleset_name,
        "ruleset_description": rules_text.ruleset_description,
        "books_phrase": forms.books_phrase,
        "presets": PRESETS,
        "today": date.today().isoformat(),
    }


def _go_out_phrase(rules: RuleSet, number: int, alone: bool = False) -> str:
    # The rules card says the books the same way; this page adds what else it takes.
    books = str(rules_text.go_out_phrase(rules.deal(number).go_out))
    return forms.go_out_phrase(rules, number, books, alone=alone)


def _opening_phrase(rules: RuleSet, number: int) -> str:
    what = str(rules_text.opening_phrase(rules.deal(number)))
    return _("The opening meld needs %(what)s.", what=what)


# ---------------------------------------------------------------------------
# The list and the start


@bp.get("/games")
def index() -> ResponseReturnValue:
    page = max(request.args.get("page", 1, type=int) or 1, 1)
    views, total = service.read_games(page, PER_PAGE)
    pages = max(ceil(total / PER_PAGE), 1)
    return render_template(
        "games/index.html",
        views=views,
        page=page,
        pages=pages,
        total=total,
        undo=_undo_offer("delete"),
    )


def _new_game_form(ruleset: str | None, seating: str | None) -> forms.NewGameForm:
    options = rulesets.all_rulesets()
    rules = options[0]
    if ruleset:
        # An unknown id in a link: offer the usual rules instead.
        with contextlib.suppress(ServiceError):
            rules = rulesets.resolve(ruleset)
    if all(option.id != rules.id for option in options):
        options.append(rules)
    return forms.NewGameForm(
        rulesets=options,
        rules=rules,
        seating=forms.pick_seating(rules, seating),
        seasons=list(db.session.scalars(db.select(Season).order_by(Season.name))),
        known_players=[player.name for player in player_service.all_players()],
    )


@bp.route("/games/new", methods=["GET", "POST"])
def new() -> ResponseReturnValue:
    source = request.form if request.method == "POST" else request.args
    form = _new_game_form(source.get("ruleset"), source.get("seating"))
    if request.method != "POST":  # GET, or HEAD: a read that must never write
        # The season running today is the likely one; the table can still choose another.
        running = player_service.season_on(date.today(), form.seasons)
        if running is not None and "season" not in request.args:
            form.values["season"] = str(running.id)
        form.carry_over(request.args)
        return render_template("games/new.html", form=form)
    game_input, problems = forms.read_new_game(form, request.form)
    form.keep_left_out(request.form.getlist("left_out"))  # shown again if the start is refused
    # A seat of the table chosen left empty is refused, even where fewer players could sit
    # (two pairs with a name each are not two players alone); said first, beside the rest.
    blank = form.blank_seats()
    if problems or blank:
        form.add_problems([blank, *problems] if blank else problems)
        return render_template("games/new.html", form=form), 400 if problems else 422
    try:
        game = service.start_game(
            game_input.ruleset,
            game_input.teams,
            season_id=game_input.season_id,
            played_on=game_input.played_on,
            first_dealer_seat=game_input.first_dealer_seat,
        )
    except ServiceError as error:
        form.add_problems(error.problems)
        return render_template("games/new.html", form=form), error.status
    flash(_("The game has started."))
    return redirect(url_for("games.started", game_id=game.id))


@bp.get("/games/<int:game_id>/start")
def started(game_id: int) -> ResponseReturnValue:
    view = service.read_game(game_id)
    return render_template("games/started.html", view=view)


# ---------------------------------------------------------------------------
# The score sheet


@bp.get("/games/<int:game_id>")
def show(game_id: int) -> ResponseReturnValue:
    view = service.read_game(game_id)
    # The running totals as a chart, with its data table for screen readers and print.
    chart = charts.running_totals_svg(view) if view.deals else None
    return render_template(
        "games/show.html",
        view=view,
        chart=chart,
        undo=_undo_offer("abandon", game_id),
        stamp=view.stamp,
        go_out_now=_go_out_now(view),
        opening_keys=rules_text.card_keys(),
        opening_bounds=BOUNDS["opening_meld"],
        # The most the deal tracker's counters go to: a count's bound, or what the rules allow.
        tracker_most={
            **{
                field: BOUNDS[field][1]
                for field in ("clean_books", "dirty_books", "wild_books", "red_threes")
            },
            "black_three_books": view.rules.most_black_three_books,
        },
    )


def _go_out_now(view: service.GameView) -> list[str]:
    """What each team needs to go out in the next deal before anything is laid."""
    number = view.next_deal
    if number is None:
        return []
    return [
        rules_text.go_out_check_phrase(
            check_go_out(view.rules, number, BookCount(), players=len(players), in_foot=0),
            len(players),
        )
        for players in view.team_players
    ]


@bp.get("/games/<int:game_id>/stamp")
def stamp(game_id: int) -> ResponseReturnValue:
    """What changed, for another tablet's page to refresh itself (see static/js/table.js)."""
    response = jsonify(stamp=service.change_stamp(game_id))
    response.headers["Cache-Control"] = "no-store"
    return response


# ---------------------------------------------------------------------------
# Deals


def _deal_form(view: service.GameView, number: int) -> forms.DealForm:
    return forms.deal_form(view.rules, number, view.team_names, view.team_players)


def _render_deal(
    view: service.GameView,
    form: forms.DealForm,
    status: int = 200,
    *,
    stale: service.DealView | None = None,
    yours: list[Any] | None = None,
    stale_messages: list[str] | None = None,
) -> ResponseReturnValue:
    rules = view.rules
    need = rules.deal(form.number).go_out
    # Totals before this deal, for the live preview's "new total".
    before = view.deals[form.number - 2].running if form.number > 1 else [0] * len(view.team_names)
    return (
        render_template(
            "games/deal_form.html",
            view=view,
            form=form,
            stale=stale,
            yours=yours,
            stale_messages=stale_messages or [],
            stamp=view.stamp,
            before=before,
            # A team that went out has at least these books: choosing it fills them in.
            go_out_books={
                f"{kind}_books": count
                for kind, count in (
                    ("clean", need.clean),
                    ("dirty", need.dirty),
                    ("wild", need.wild),
                )
                if count
            },
            # How many black-three books stand for clean books going out needs.
            black_three_counted=rules.most_black_three_books,
        ),
        status,
    )


def _read(view: service.GameView, form: forms.DealForm) -> tuple[list[Any] | None, list[Problem]]:
    """The typed tallies, or every problem of form and rules found without saving anything."""
    items, problems = forms.read_deal_form(form, request.form)
    try:
        tallies = service.tallies_from_mapping(items)
    except Malformed as error:
        return None, [*problems, *error.problems]
    if problems:
        # Say everything at once: the rules' verdict too, though nothing is saved yet.
        game = view.game
        problems += validate_deal(view.rules, form.number, tallies, game.decks, game.team_sizes)
        return None, problems
    return tallies, []


def _past_the_next(meant: int, number: int) -> Problem:
    """Entries typed for deal ``meant``, now past the game's next deal ``number``."""
    later = N_(
        "This form was opened for deal %(meant)d, but the next deal of this game is %(deal)d: "
        "check that these are the entries of deal %(deal)d, then save again."
    )
    return Problem(None, "number", later, {"meant": meant, "deal": number})


@bp.route("/games/<int:game_id>/deals/new", methods=["GET", "POST"])
def new_deal(game_id: int) -> ResponseReturnValue:
    view = service.read_game(game_id)
    number = view.next_deal
    meant: int | None = None
    if request.method == "POST":
        # The form says which deal it was opened for; another tablet may have saved it since.
        meant = _whole(request.form.get("number", ""))
        if meant is not None and meant != number and _is_played(view, meant):
            return _saved_first(view, meant)
    if number is None:
        if view.game.abandoned_at is not None:
            flash(
                _(
                    "This game was abandoned, so no more deals can be entered; only the tablet "
                    "that abandoned it can undo that."
                ),
                "error",
            )
        else:
            flash(_("All deals of this game are in; correct a deal instead."), "error")
        return redirect(url_for("games.show", game_id=game_id))
    form = _deal_form(view, number)
    if request.method != "POST":  # GET, or HEAD: a read that must never write
        return _render_deal(view, form)
    tallies, problems = _read(view, form)
    if meant is None and "number" in request.form:
        # Which deal these entries were typed for cannot be read (a damaged form): saved as
        # the next deal they might land on another. Shown again, with the number to save as.
        unknown = N_(
            "This form does not say which deal it was for: check that these are the "
            "entries of deal %(deal)d, then save again."
        )
        tallies, problems = None, [Problem(None, "number", unknown, {"deal": number}), *problems]
    elif meant is not None and meant > number:
        # Typed for a deal past the next (the game went back since: a restored backup, an
        # undone save on another tablet): saved as the next one only once the table says so.
        tallies, problems = None, [_past_the_next(meant, number), *problems]
    if tallies is None:
        form.add_problems(problems)
        return _render_deal(view, form, 400)
    try:
        service.record_deal(game_id, tallies, number)
    except Conflict as error:
        db.session.rollback()
        now = service.read_game(game_id)
        if _is_played(now, number):
            return _saved_first(now, number)
        for problem in error.problems:
            flash(say(problem), "error")
        return redirect(url_for("games.show", game_id=game_id))
    except ServiceError as error:
        form.add_problems(error.problems)
        return _render_deal(view, form, error.status)
    flash(_("Deal %(deal)d saved.", deal=number))
    _flash_hints(view, number, tallies)
    return redirect(url_for("games.show", game_id=game_id, _anchor=f"deal-{number}"))


def _flash_hints(view: service.GameView, number: int, tallies: Sequence[TeamTally]) -> None:
    """What looks forgotten in the deal just saved (the form's live check said it before
    saving, where the page has JavaScript): saved all the same, to correct if it is wrong."""
    for hint in deal_hints(view.rules, number, tallies, view.game.team_sizes):
        flash(
            _(
                "Check deal %(deal)d: %(hint)s Correct the deal if something was missed.",
                deal=number,
                hint=say(hint),
            ),
            "hint",
        )


def _whole(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


def _is_played(view: service.GameView, number: int) -> bool:
    return any(deal.number == number for deal in view.deals)


def _saved_first(view: service.GameView, number: int) -> ResponseReturnValue:
    """Another tablet saved this deal first: show both entries; saving again corrects it."""
    saved = _played(view, number)
    form = _deal_form(view, number)
    tallies, _problems = _read(view, form)
    form.version = saved.version
    yours = (
        None if tallies is None else [(tally, score_team(view.rules, tally)) for tally in tallies]
    )
    message = Problem(
        None,
        "version",
        N_(
            "Someone else saved deal %(deal)d first. Nothing you typed was saved: compare "
            "the two entries below."
        ),
        {"deal": number},
    )
    return _render_deal(view, form, 409, stale=saved, yours=yours, stale_messages=[say(message)])


def _played(view: service.GameView, number: int) -> service.DealView:
    for deal in view.deals:
        if deal.number == number:
            return deal
    raise NotFound.say(N_("Deal %(deal)d has not been played yet."), field="deal", deal=number)


@bp.route("/games/<int:game_id>/deals/<int:number>/edit", methods=["GET", "POST"])
def edit_deal(game_id: int, number: int) -> ResponseReturnValue:
    view = service.read_game(game_id)
    saved = _played(view, number)
    form = _deal_form(view, number)
    if request.method != "POST":  # GET, or HEAD: a read that must never write
        forms.fill_from_tallies(form, [r.tally for r in saved.results], saved.version)
        return _render_deal(view, form)
    version = _whole(request.form.get("version", ""))
    if version is None:
        # Without the version read, a save could overwrite someone else's: read it again.
        flash(_("The form was out of date; here is deal %(deal)d as saved now.", deal=number))
        return redirect(url_for("games.edit_deal", game_id=game_id, number=number))
    form.version = version
    tallies, problems = _read(view, form)
    if tallies is None:
        form.add_problems(problems)
        return _render_deal(view, form, 400)
    try:
        version = service.correct_deal(game_id, number, form.version, tallies)
    except StaleDeal as error:
        current: service.DealView = error.current
        form.version = current.version
        yours = [score_team(view.rules, tally) for tally in tallies]
        return _render_deal(
            view,
            form,
            409,
            stale=current,
            yours=list(zip(tallies, yours, strict=True)),
            stale_messages=[say(p) for p in error.problems],
        )
    except ServiceError as error:
        form.add_problems(error.problems)
        return _render_deal(view, form, error.status)
    if version == form.version:
        # A category of its own, naming the deal: the game page's script forgets the form's
        # copy on it (table.js).
        flash(_("Nothing changed in deal %(deal)d.", deal=number), f"unchanged-{number}")
    else:
        flash(_("Deal %(deal)d corrected.", deal=number))
        _flash_hints(view, number, tallies)
    return redirect(url_for("games.show", game_id=game_id, _anchor=f"deal-{number}"))


# ---------------------------------------------------------------------------
# The correction log


def _shown_value(rules: RuleSet, where: str, text: str) -> str:
    """A logged value as the table would say it."""
    value = service.read_logged(text)
    if value is None:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, dict):
        if where == "special_books":
            parts = [
                f"{forms.field_label(rules, f'special_books.{key}')} {count}"
                for key, count in value.items()
                if count
            ]
        else:
            parts = []
            for key, count in value.items():
                try:
                    label = forms.card_label(CardClass(key))
                except ValueError:
                    label = key
                if count:
                    # "2 times Aces": the labels are column headings, plural whatever the count.
                    parts.append(f"{count} \N{MULTIPLICATION SIGN} {label}")
        return ", ".join(parts) or _("none")
    if where in forms.CARD_ENTRIES and isinstance(value, int):
        return ngettext("%(num)d point", "%(num)d points", value)
    return service.logged_text(value)


@bp.get("/games/<int:game_id>/corrections")
def corrections(game_id: int) -> ResponseReturnValue:
    view = service.read_game(game_id)
    rows = []
    log = sorted(view.game.corrections, key=lambda c: c.id, reverse=True)
    for c in log:
        team = (
            view.team_names[c.team_position]
            if c.team_position is not None and c.team_position < len(view.team_names)
            else ""
        )
        rows.append(
            {
                "deal": c.deal_number,
                "batch": c.batch,
                "team": team,
                "field": forms.field_label(view.rules, c.field),
                "old": _shown_value(view.rules, c.field, c.old_value),
                "new": _shown_value(view.rules, c.field, c.new_value),
                "when": c.created_at,
                "undone": c.undone_at,
            }
        )
    can_undo = any(c.undone_at is None for c in log)
    return render_template("games/corrections.html", view=view, rows=rows, can_undo=can_undo)


@bp.post("/games/<int:game_id>/corrections/undo")
def undo_correction(game_id: int) -> ResponseReturnValue:
    try:
        number = service.undo_last_correction(game_id)
    except Conflict as error:
        for problem in error.problems:
            flash(say(problem), "error")
        return redirect(url_for("games.corrections", game_id=game_id))
    if number is None:
        flash(_("There is no correction to undo."), "error")
    else:
        flash(_("The last correction of deal %(deal)d was undone.", deal=number))
    return redirect(url_for("games.corrections", game_id=game_id))


# ---------------------------------------------------------------------------
# Abandon, delete, undo


def _offer_undo(action: str, game_id: int) -> None:
    """Remember what this browser just did to the game, for undo; what it did to the same
    game before (abandoned it, then deleted it) comes back once this is undone."""
    before = session.get(UNDO_KEY)
    kept = before if isinstance(before, dict) and before.get("game") == game_id else None
    session[UNDO_KEY] = {"action": action, "game": game_id, "before": kept}


def _undo_offer(action: str, game_id: int | None = None) -> Game | None:
    """The game this browser session just deleted or abandoned, while it can still be undone."""
    offer = session.get(UNDO_KEY)
    if not isinstance(offer, dict) or offer.get("action") != action:
        return None
    remembered = offer.get("game")
    if not isinstance(remembered, int) or (game_id is not None and remembered != game_id):
        return None
    game = db.session.get(Game, remembered)
    if game is None:
        return None
    still = game.deleted_at if action == "delete" else game.abandoned_at
    return game if still is not None else None


@bp.route("/games/<int:game_id>/abandon", methods=["GET", "POST"])
def abandon(game_id: int) -> ResponseReturnValue:
    view = service.read_game(game_id)
    try:
        if view.finished:  # the page does not offer it; an old link or another tablet might
            raise service.finished_not_abandoned(game_id)
        if request.method != "POST":  # GET, or HEAD: a read that must never write
            return render_template(
                "games/confirm.html", view=view, game=view.game, action="abandon"
            )
        service.abandon_game(game_id)
    except Conflict as error:
        flash(" ".join(say(p) for p in error.problems), "error")
        return redirect(url_for("games.show", game_id=game_id))
    _offer_undo("abandon", game_id)
    flash(_("The game was abandoned."))
    return redirect(url_for("games.show", game_id=game_id))


@bp.route("/games/<int:game_id>/delete", methods=["GET", "POST"])
def delete(game_id: int) -> ResponseReturnValue:
    """Delete a game, also one whose stored rules or deals no longer read: the way out the
    refusal of such a game offers, since every list that shows it refuses too."""
    if request.method != "POST":  # GET, or HEAD: a read that must never write
        view: service.GameView | None
        try:
            view = service.read_game(game_id)
            game = view.game
        except DamagedRecord:  # no scores to show: its date and teams say which game it is
            view, game = None, service.read_record(game_id)
        return render_template("games/confirm.html", view=view, game=game, action="delete")
    service.delete_game(game_id)
    _offer_undo("delete", game_id)
    flash(_("The game was deleted."))
    return redirect(url_for("games.index"))


@bp.post("/games/<int:game_id>/restore")
def restore(game_id: int) -> ResponseReturnValue:
    offer = session.get(UNDO_KEY)
    if not isinstance(offer, dict) or offer.get("game") != game_id:
        # Only the browser that deleted or abandoned a game can take it back.
        flash(_("Only the tablet that deleted or abandoned this game can undo it."), "error")
        return redirect(url_for("games.index"))
    service.restore_game(game_id, "delete" if offer.get("action") == "delete" else "abandon")
    before = offer.get("before")
    if isinstance(before, dict):
        session[UNDO_KEY] = before  # what it did before, undone next
    else:
        session.pop(UNDO_KEY, None)
    try:
        service.read_record(game_id)  # not scored: a damaged game is back all the same
    except NotFound:  # another tablet deleted it meanwhile; only that one can bring it back
        flash(
            _(
                "Your abandon was undone, but another tablet has deleted this game since; "
                "only that tablet can bring it back."
            ),
            "error",
        )
        return redirect(url_for("games.index"))
    flash(_("The game is back."))
    return redirect(url_for("games.show", game_id=game_id))
