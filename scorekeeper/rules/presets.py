"""The house-rule systems of the seed rule texts, each one value of RuleSet.

``standard`` follows the Dutch, German and Danish texts; the others name the
seed they come from. Where RULES.md leaves a number open, the seed decides;
the choices are listed in the README's "Rules presets" section.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from .i18n import N_
from .ruleset import BookCount, DealRule, PlayStyle, RuleSet, WildLimit

MINIMUMS = (50, 90, 120, 150)


def _deals(*go_out: BookCount, concealed_last: bool = False) -> tuple[DealRule, ...]:
    """Four deals with the usual minimums; one go-out rule for all, or one per deal."""
    rules = go_out if len(go_out) == len(MINIMUMS) else go_out * len(MINIMUMS)
    return tuple(
        DealRule(
            opening_minimum=minimum,
            go_out=need,
            opening_needs_concealed_book=concealed_last and number == len(MINIMUMS),
        )
        for number, (minimum, need) in enumerate(zip(MINIMUMS, rules, strict=True), start=1)
    )


STANDARD = RuleSet(
    id="standard",
    name=N_("Standard partnership"),
    description=N_(
        "Four players in two partnerships, 13 cards in hand and foot, books of exactly "
        "seven; going out needs two clean, two dirty and one wild book."
    ),
    source="000 (nl), 001 (de), 003 (da)",
    deals=_deals(BookCount(clean=2, dirty=2, wild=1)),
)

NO_WILD_BOOKS = replace(
    STANDARD,
    id="no-wild-books",
    name=N_("Easier going out (no wild books)"),
    description=N_(
        "Standard rules without wild books: going out needs two clean and two dirty books."
    ),
    source="001 (de), Varianten: Leichter ausmachen",
    wild_books=False,
    wild_book_bonus=0,
    deals=_deals(BookCount(clean=2, dirty=2)),
    based_on="standard",
)

ELEVEN_CARD = replace(
    STANDARD,
    id="eleven-card",
    name=N_("Eleven-card"),
    description=N_(
        "11 cards in hand and foot; wild cards only in melds with at least four natural "
        "cards, no wild books; going out needs one clean and one dirty book and a last discard."
    ),
    source="002 (fr)",
    # "La personne ou l'équipe avec le score le plus élevé l'emporte": teams or individuals.
    alone_by_choice=True,
    min_decks=5,  # "cinq à six jeux de cartes"
    max_decks=6,
    hand_cards=11,
    foot_cards=11,
    wild_limit=WildLimit.MIN_NATURALS,
    min_naturals=4,
    wild_books=False,
    wild_book_bonus=0,
    deals=_deals(BookCount(clean=1, dirty=1)),
    partner_in_foot_to_go_out=False,
    permission_to_go_out=False,
    must_discard_to_go_out=True,
    based_on="standard",
)

SASKATCHEWAN = replace(
    STANDARD,
    id="saskatchewan",
    name=N_("Saskatchewan"),
    description=N_(
        "11 cards in hand, 13 in foot; canastas of seven or more cards with more naturals "
        "than wild cards; the whole pile is picked up; the last deal opens with a concealed "
        "canasta; going out needs one clean, one dirty and one wild canasta."
    ),
    source="003 (da), Saskatchewan Hand and Foot",
    hand_cards=11,
    foot_cards=13,
    discard_pickup=None,
    books_may_grow=True,
    wild_limit=WildLimit.MORE_NATURALS,
    deals=_deals(BookCount(clean=1, dirty=1, wild=1), concealed_last=True),
    based_on="standard",
)

SIMPSON = RuleSet(
    id="simpson",
    name=N_("Steve Simpson (every player alone)"),
    description=N_(
        "Every player alone, 11 cards in hand and foot; red threes are discarded at once and "
        "cost 500 each when caught; no wild books; books of seven or more; drawing exactly "
        "22 cards in the first grab at the deal earns 100."
    ),
    source="003 (da), Steve Simpson",
    play_style=PlayStyle.INDIVIDUALS,
    partnership_sizes=(),
    hand_cards=11,
    foot_cards=11,
    books_may_grow=True,
    one_meld_per_rank=True,
    wild_limit=WildLimit.MORE_NATURALS,
    clean_book_bonus=300,
    dirty_book_bonus=100,
    wild_books=False,
    wild_book_bonus=0,
    red_threes_laid=False,
    red_three_bonus=0,
    red_three_penalty=500,
    partner_in_foot_to_go_out=False,
    permission_to_go_out=False,
    must_discard_to_go_out=True,
    exact_draw_bonus=100,
    deals=_deals(BookCount(clean=1, dirty=1)),
)

BROUILLETTE = replace(
    SIMPSON,
    id="brouillette",
    name=N_("Brian Brouillette (higher scoring)"),
    description=N_(
        "Simpson's rules with clean books 500 and dirty books 300, a black-three book worth "
        "300, going out without a last discard, and two clean and two dirty books to go out "
        "in the last deal."
    ),
    source="003 (da), Brian Brouillette",
    clean_book_bonus=500,
    dirty_book_bonus=300,
    black_three_books=True,
    black_three_book_bonus=300,
    must_discard_to_go_out=False,
    deals=_deals(
        BookCount(clean=1, dirty=1),
        BookCount(clean=1, dirty=1),
        BookCount(clean=1, dirty=1),
        BookCount(clean=2, dirty=2),
    ),
    based_on="simpson",
)

BROUILLETTE_LOW = replace(
    BROUILLETTE,
    id="brouillette-low",
    name=N_("Brian Brouillette (lower scoring)"),
    description=N_(
        "Brouillette's rules with Simpson's bonuses: clean books 300, dirty books 100, "
        "a black-three book 100."
    ),
    source="003 (da), Brian Brouillette",
    clean_book_bonus=300,
    dirty_book_bonus=100,
    black_three_book_bonus=100,
    based_on="brouillette",
)

BROUILLETTE_PARTNERS = replace(
    BROUILLETTE,
    id="brouillette-partners",
    name=N_("Brian Brouillette (partnerships)"),
    description=N_(
        "Brouillette's rules played in pairs with one shared set of melds; going out needs "
        "two clean and two dirty books, four of each in the last deal, and the partner's "
        "permission."
    ),
    source="003 (da), Brian Brouillette, partner version",
    play_style=PlayStyle.PARTNERSHIPS,
    partnership_sizes=(2,),
    # Played in pairs only: five players cannot play these rules.
    alone_when_unpaired=False,
    min_players=4,
    max_players=6,
    permission_to_go_out=True,
    deals=_deals(
        BookCount(clean=2, dirty=2),
        BookCount(clean=2, dirty=2),
        BookCount(clean=2, dirty=2),
        BookCount(clean=4, dirty=4),
    ),
    based_on="brouillette",
)

PRESETS: Mapping[str, RuleSet] = MappingProxyType(
    {
        rules.id: rules
        for rules in (
            STANDARD,
            NO_WILD_BOOKS,
            ELEVEN_CARD,
            SASKATCHEWAN,
            SIMPSON,
            BROUILLETTE,
            BROUILLETTE_LOW,
            BROUILLETTE_PARTNERS,
        )
    }
)
