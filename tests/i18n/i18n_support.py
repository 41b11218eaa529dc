"""Helpers of the translation tests: catalogues, page text, the words of each language, games."""

from __future__ import annotations

import html
import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from scorekeeper.rules import PRESETS, Cards, TeamTally
from scorekeeper.services.games import TeamSpec

TRANSLATIONS = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"
# English is the source language: its catalogue may leave every text as written.
TRANSLATED = ("de", "nl", "fr", "da")
LANGUAGES = ("en", *TRANSLATED)


def catalogue(lang: str) -> Catalog:
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=lang)


def template() -> Catalog:
    with (TRANSLATIONS / "messages.pot").open("rb") as f:
        return read_po(f)


def visible_text(page: str) -> str:
    """What a reader sees: no tags, scripts, styles or attribute values; entities decoded."""
    page = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", page, flags=re.S | re.I)
    page = re.sub(r"<[^>]+>", " ", page)
    return " ".join(html.unescape(page).split())


# English words a translated page must not show. Each language may keep the ones its
# players use themselves (Dutch says "deal" and "team", German and Danish "Start").
ENGLISH_WORDS = (
    "the",
    "and",
    "with",
    "of",
    "Deal",
    "deals",
    "Game",
    "Games",
    "Players",
    "Player",
    "Standings",
    "Rules",
    "Settings",
    "Save",
    "Enter",
    "Clean",
    "clean",
    "Dirty",
    "dirty",
    "book",
    "books",
    "Going out",
    "going out",
    "went out",
    "red threes",
    "melded",
    "Season",
    "Score sheet",
    "Team",
    "Home",
    "Choose",
    "Print",
    "Start",
    "points",
    "Opening",
    "Bonuses",
    "Paper",
    "Language",
    "Correct",
    "Delete",
    "Abandon",
    "Sign in",
    "passcode",
)
KEPT = {
    "de": {"Start"},
    "nl": {"Deal", "deals", "Team", "Start", "of"},  # Dutch "of" is "or"
    "fr": {"points"},
    "da": {"Start"},
}
# Names that stay as they are in every language: the game, the presets, the people.
NAMES = (
    "Hand and Foot",
    "Steve Simpson",
    "Brian Brouillette",
    "openskill, Plackett-Luce",
    "US Letter",
)


def leftover_english(text: str, lang: str) -> list[str]:
    for name in NAMES:
        text = text.replace(name, " ")
    return [
        word
        for word in ENGLISH_WORDS
        if word not in KEPT[lang] and re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)
    ]


# The German seed's worked example: Ann & Ben go out with 3855, Cid & Dee make 615.
GERMAN_DEAL = [
    TeamTally(
        clean_books=2,
        dirty_books=2,
        wild_books=1,
        red_threes=1,
        melded=Cards(points=555),
        went_out=True,
    ),
    TeamTally(clean_books=1, red_threes=1, melded=Cards(points=220), left=Cards(points=205)),
]

# The two teams of every game these tests start.
TEAMS = [TeamSpec("", ["Ann", "Ben"]), TeamSpec("", ["Cid", "Dee"])]
# Standard rules cut to their first deal, so that every count of deals is a count of one.
_STANDARD = PRESETS["standard"].to_dict()
ONE_DEAL = _STANDARD | {"id": "one-deal", "name": "One deal", "deals": _STANDARD["deals"][:1]}
