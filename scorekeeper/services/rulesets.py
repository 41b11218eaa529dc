"""Rules presets and the table's own house rules."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from scorekeeper.extensions import db
from scorekeeper.models import LARGEST_ID, Game, HouseRules, utcnow
from scorekeeper.rules import PRESETS, Problem, RuleSet, RuleSetError
from scorekeeper.rules.i18n import N_

from .errors import Conflict, Invalid, Malformed, NotFound
from .names import name_key, visible


def all_rulesets() -> list[RuleSet]:
    """The presets, then the saved house rules by name."""
    house = db.session.scalars(db.select(HouseRules).order_by(HouseRules.name)).all()
    return [*PRESETS.values(), *(rules.rules() for rules in house)]


def find_house_rules(ref: str | int) -> HouseRules | None:
    house: HouseRules | None
    if isinstance(ref, str) and ref.isascii() and ref.isdigit():
        ref = int(ref)
    if isinstance(ref, int):
        # Row numbers past LARGEST_ID cannot exist (and PostgreSQL refuses to look them up).
        house = db.session.get(HouseRules, ref) if 0 < ref <= LARGEST_ID else None
    else:
        house = db.session.scalar(db.select(HouseRules).filter_by(slug=ref))
    return house


def resolve(ref: Any) -> RuleSet:
    """A preset id, a house-rules id (slug or number), or a whole ruleset object."""
    if isinstance(ref, Mapping):
        if isinstance(ref.get("house"), bool):
            # An entry of GET /api/rulesets sent back as listed: its "house" flag says where
            # the rules are kept, it is not a rule. Any other "house" is refused as unknown.
            ref = {key: value for key, value in ref.items() if key != "house"}
        try:
            return RuleSet.from_dict(ref)
        except RuleSetError as error:
            raise Invalid(error.problems) from error
    if isinstance(ref, bool) or not isinstance(ref, str | int):
        raise Malformed.say(
            N_("ruleset must be a rules id or a whole ruleset object."), field="ruleset"
        )
    if isinstance(ref, str) and ref in PRESETS:
        return PRESETS[ref]
    house = find_house_rules(ref)
    if house is None:
        raise NotFound.say(N_("There are no rules called %(id)s."), field="ruleset", id=str(ref))
    return house.rules()


def _slug(name: str) -> str:
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    slug = re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:50] or "house-rules"
    if slug.isdigit():
        slug = f"rules-{slug}"  # an all-digit slug would read as a row number
    candidate, n = slug, 2
    while candidate in PRESETS or find_house_rules(candidate) is not None or _played(candidate):
        candidate, n = f"{slug}-{n}", n + 1
    return candidate


def _played(slug: str) -> bool:
    """Whether games were played under rules of this id: house rules deleted since keep
    it, and the standings tell rules apart by it, so new rules never take it again."""
    found = db.session.scalar(db.select(Game.id).where(Game.ruleset_id == slug).limit(1))
    return found is not None


def _check_name(name: str, own: HouseRules | None = None) -> str:
    """The name as shown; refused when it is empty, too long, or already names other rules
    (whatever the case: two "Friday" in the list of rules cannot be told apart). Rules that
    keep their own name are never refused for it: two alike may be kept from before."""
    name = visible(name)
    if not name or len(name) > 80:
        raise Invalid.say(N_("House rules need a name of 1 to 80 characters."), field="name")
    wanted = name_key(name)
    if own is not None and name_key(own.name) == wanted:
        return name
    others = db.session.scalars(db.select(HouseRules.name))
    taken = [*(rules.name for rules in PRESETS.values()), *others]
    if any(name_key(other) == wanted for other in taken):
        raise Conflict.say(N_("There are already rules called %(name)s."), field="name", name=name)
    return name


def rules_problems(base: RuleSet, overrides: Mapping[str, Any]) -> list[Problem]:
    """What the rules core refuses in ``overrides`` over ``base``, saving nothing: the
    editor lists these beside a name it had to refuse, so that one try says everything."""
    try:
        base.derive(dict(overrides))
    except RuleSetError as error:
        return list(error.problems)
    return []


def create_house_rules(name: str, base: str, overrides: Mapping[str, Any]) -> HouseRules:
    """Save new house rules: the ``base`` rules with ``overrides`` applied.

    The base's description and source are not the new rules' own (a preset's would stay in
    English in every language): they start empty unless ``overrides`` give them, as the
    rules editor does.
    """
    name = _check_name(name)
    parent = resolve(base)
    slug = _slug(name)
    try:
        rules = parent.derive({"description": "", "source": "", **overrides}, id=slug, name=name)
    except RuleSetError as error:
        raise Invalid(error.problems) from error
    house = HouseRules(slug=slug, name=name, ruleset=rules.to_dict())
    db.session.add(house)
    db.session.commit()
    return house


def update_house_rules(ref: str | int, name: str, overrides: Mapping[str, Any]) -> HouseRules:
    """Change saved house rules; games already started keep their own copy."""
    house = find_house_rules(ref)
    if house is None:
        raise NotFound.say(N_("There are no rules called %(id)s."), field="ruleset", id=str(ref))
    name = _check_name(name, own=house)
    try:
        rules = house.rules().derive(dict(overrides), name=name)
    except RuleSetError as error:
        raise Invalid(error.problems) from error
    house.name = name
    house.ruleset = rules.to_dict()
    house.updated_at = utcnow()
    db.session.commit()
    return house


def delete_house_rules(ref: str | int) -> None:
    house = find_house_rules(ref)
    if house is None:
        raise NotFound.say(N_("There are no rules called %(id)s."), field="ruleset", id=str(ref))
    db.session.delete(house)
    db.session.commit()


__all__ = [
    "Malformed",
    "all_rulesets",
    "create_house_rules",
    "delete_house_rules",
    "find_house_rules",
    "resolve",
    "update_house_rules",
]
