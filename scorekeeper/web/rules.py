"""Pages: the rules presets, one ruleset as a card for the table, and the house-rules editor."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from flask import (
    Blueprint,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError

from scorekeeper.extensions import db
from scorekeeper.models import LARGEST_ID, HouseRules
from scorekeeper.rules import PRESETS, RuleSet
from scorekeeper.services import rulesets
from scorekeeper.services.errors import ServiceError
from scorekeeper.sheets import allowed_team_counts

from . import rules_text
from .rules_forms import DeleteForm, HouseRulesForm

bp = Blueprint("rules", __name__)


@dataclass(frozen=True)
class _Found:
    rules: RuleSet
    house: HouseRules | None  # None for a preset


def _find(ref: str) -> _Found | None:
    """A preset by id, or house rules by slug (or by number, as the API names them)."""
    if ref in PRESETS:
        return _Found(PRESETS[ref], None)
    house = _house(ref)
    if house is None:
        return None
    return _Found(house.rules(), house)


def _house(ref: str) -> HouseRules | None:
    """House rules by slug or number, their rules not read: damaged ones can still go."""
    # By slug first: a slug may be all digits ("2024"), and then it is not a row number.
    house: HouseRules | None = db.session.scalar(db.select(HouseRules).filter_by(slug=ref))
    # isascii: "²".isdigit() is true, but int() refuses it.
    if house is None and ref.isascii() and ref.isdigit() and 0 < int(ref) <= LARGEST_ID:
        house = db.session.get(HouseRules, int(ref))
    return house


def _not_found(ref: str) -> ResponseReturnValue:
    return render_template("rules/not_found.html", ref=ref), 404


def _new_game_url(ruleset_id: str) -> str:
    # The games blueprint builds that page; until it has, link to its path.
    if "games.new" in current_app.view_functions:
        return url_for("games.new", ruleset=ruleset_id)
    return f"{request.script_root}/games/new?{urlencode({'ruleset': ruleset_id})}"


@bp.errorhandler(CSRFError)
def _expired_form(error: CSRFError) -> ResponseReturnValue:
    return render_template("rules/expired.html"), 400


@bp.get("/rules")
def index() -> ResponseReturnValue:
    every = rulesets.all_rulesets()
    presets = [rules for rules in every if rules_text.is_preset(rules)]
    house = [rules for rules in every if not rules_text.is_preset(rules)]
    return render_template("rules/index.html", presets=presets, house=house, text=rules_text)


@bp.get("/rules/<ruleset_id>")
def show(ruleset_id: str) -> ResponseReturnValue:
    found = _find(ruleset_id)
    if found is None:
        return _not_found(ruleset_id)
    return render_template(
        "rules/show.html",
        rules=found.rules,
        house=found.house,
        new_game_url=_new_game_url(found.rules.id),
        text=rules_text,
        sheet_teams=allowed_team_counts(found.rules),
    )


@bp.route("/house-rules/new", methods=["GET", "POST"])
def new_house_rules() -> ResponseReturnValue:
    is_post = request.method == "POST"
    base_ref = (request.form if is_post else request.args).get("base") or "standard"
    base = _find(base_ref)
    if is_post:
        form = HouseRulesForm()
    elif base is None:
        return _not_found(base_ref)
    else:
        form = HouseRulesForm(data=HouseRulesForm.initial_data(base.rules))
    form.base.data = base.rules.id if base else base_ref
    unplaced: list[str] = []
    valid = form.validate_on_submit()
    if valid:
        # A house-rules base goes to the service by number: its slug could look like one.
        service_base = str(base.house.id) if base and base.house else base_ref
        try:
            house = rulesets.create_house_rules(form.name.data, service_base, form.overrides())
        except ServiceError as error:
            db.session.rollback()
            unplaced = form.apply_problems(error.problems)
        else:
            flash(_("Your house rules “%(name)s” are saved.", name=house.name))
            return redirect(url_for(".show", ruleset_id=house.slug))
    if is_post and base is not None and (not valid or form.only_the_name_refused()):
        unplaced += form.apply_problems(
            form.not_refused(rulesets.rules_problems(base.rules, form.overrides()))
        )
    return _editor(form, unplaced, base=base.rules if base else None, house=None)


@bp.route("/house-rules/<slug>/edit", methods=["GET", "POST"])
def edit_house_rules(slug: str) -> ResponseReturnValue:
    found = _find(slug)
    if found is None or found.house is None:
        return _not_found(slug)
    house, rules = found.house, found.rules
    form = HouseRulesForm(
        data=None
        if request.method == "POST"
        else HouseRulesForm.initial_data(
            rules, name=house.name, description=rules.description, source=rules.source
        )
    )
    form.own_name = house.name
    unplaced: list[str] = []
    valid = form.validate_on_submit()
    if valid:
        try:
            rulesets.update_house_rules(house.id, form.name.data, form.overrides())
        except ServiceError as error:
            db.session.rollback()
            unplaced = form.apply_problems(error.problems)
        else:
            flash(_("Your changes to “%(name)s” are saved.", name=house.name))
            return redirect(url_for(".show", ruleset_id=house.slug))
    if request.method == "POST" and (not valid or form.only_the_name_refused()):
        unplaced += form.apply_problems(
            form.not_refused(rulesets.rules_problems(rules, form.overrides()))
        )
    return _editor(form, unplaced, base=None, house=house)


def _editor(
    form: HouseRulesForm, unplaced: list[str], *, base: RuleSet | None, house: HouseRules | None
) -> ResponseReturnValue:
    refused = request.method == "POST"  # a POST that gets here was not saved
    return render_template(
        "rules/edit.html",
        form=form,
        unplaced=unplaced,
        refused=refused,
        base=base,
        house=house,
        choices=rulesets.all_rulesets() if house is None else [],
        text=rules_text,
    ), (422 if refused else 200)


@bp.route("/house-rules/<slug>/delete", methods=["GET", "POST"])
def delete_house_rules(slug: str) -> ResponseReturnValue:
    """GET asks "are you sure?"; the POST from that page deletes.

    The rules are not read: house rules whose stored copy is damaged can still be deleted
    (the page that refuses to show them links here), and no game loses anything by it.
    """
    house = None if slug in PRESETS else _house(slug)
    if house is None:
        return _not_found(slug)
    form = DeleteForm()
    if form.validate_on_submit():
        name = house.name
        # Games keep their own copy of the rules: deleting touches no game.
        rulesets.delete_house_rules(house.id)
        flash(_("The house rules “%(name)s” are deleted.", name=name))
        return redirect(url_for(".index"))
    return render_template("rules/delete.html", form=form, house=house)
