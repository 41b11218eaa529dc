"""The rules in words: parts of a RuleSet turned into phrases a player reads at the table.

The rules card (``/rules/<id>``), the blank score sheet and the tablet's "can we go out?"
panel all say the rules the same way, so every phrase is built here from the RuleSet data
and translated into the table's language. Needs an app context (Flask-Babel).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _gettext
from flask_babel import ngettext as _ngettext
from flask_babel import pgettext as _pgettext

from scorekeeper.extensions import MINUS
from scorekeeper.rules import (
    PRESETS,
    BookCount,
    BookKind,
    CardClass,
    DealRule,
    PlayStyle,
    RuleSet,
    SpecialBook,
    WildLimit,
)
from scorekeeper.rules.cards import RANK_CLASSES
from scorekeeper.rules.i18n import N_
from scorekeeper.rules.play import GoOutCheck, OpeningCheck

EN_DASH = "\u2013"
SMALLEST_MELD = 3


# Typed wrappers: Flask-Babel has no type hints. The names stay the ones pybabel extracts.
def _(message: str, **params: Any) -> str:
    return str(_gettext(message, **params))


def ngettext(singular: str, plural: str, num: int, **params: Any) -> str:
    return str(_ngettext(singular, plural, num, **params))


def signed(points: int) -> str:
    """Points with the sign a score sheet writes: +100, a real minus sign for -500, and
    no sign for nothing (house rules may make a red three caught cost 0)."""
    if not points:
        return "0"
    return f"+{points}" if points > 0 else f"{MINUS}{-points}"


def sentence(text: str) -> str:
    """``text`` with a capital first letter (the phrases below start small to be embeddable)."""
    return text[:1].upper() + text[1:]


def join_and(items: Sequence[str]) -> str:
    """``a, b and c`` in the table's language."""
    if len(items) <= 1:
        return "".join(items)
    return _("%(items)s and %(last)s", items=", ".join(items[:-1]), last=items[-1])


def join_or(items: Sequence[str]) -> str:
    """``a, b or c`` in the table's language."""
    if len(items) <= 1:
        return "".join(items)
    return _("%(items)s or %(last)s", items=", ".join(items[:-1]), last=items[-1])


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}{EN_DASH}{last}"


# --- names -------------------------------------------------------------------


def is_preset(rules: RuleSet) -> bool:
    """A preset (translated name and description) rather than a table's own house rules."""
    return PRESETS.get(rules.id) == rules


def ruleset_name(rules: RuleSet) -> str:
    # Presets carry N_-marked English names; house rules are named by the table itself.
    return _(rules.name) if is_preset(rules) else rules.name


def ruleset_description(rules: RuleSet) -> str:
    if not rules.description:
        return ""
    return _(rules.description) if is_preset(rules) else rules.description


def base_name(rules: RuleSet) -> str | None:
    """The name of the preset these rules were derived from, if it is one."""
    base = rules.based_on
    if base is not None and base in PRESETS:
        return _(PRESETS[base].name)
    return base


def summary_phrase(rules: RuleSet) -> str:
    """One line for a list of rulesets: deals, who plays, cards dealt."""
    deals = ngettext("%(num)d deal", "%(num)d deals", rules.deal_count)
    return " · ".join((deals, play_style_phrase(rules), hand_and_foot_phrase(rules)))


# --- deals -------------------------------------------------------------------


def go_out_phrase(need: BookCount) -> str:
    """What going out needs, e.g. "2 clean, 2 dirty and 1 wild book"."""
    counts = [
        (need.clean, ngettext("%(num)d clean", "%(num)d clean", need.clean)),
        (need.dirty, ngettext("%(num)d dirty", "%(num)d dirty", need.dirty)),
        (need.wild, ngettext("%(num)d wild", "%(num)d wild", need.wild)),
    ]
    parts = [(n, words) for n, words in counts if n]
    if not parts:
        return _("no books at all")
    # The noun agrees with the last number, as a player says it: "2 clean and 1 dirty book".
    last = parts[-1][0]
    return ngettext(
        "%(kinds)s book", "%(kinds)s books", last, kinds=join_and([words for _n, words in parts])
    )


def go_out_rule_phrase(rules: RuleSet) -> str:
    """The books going out needs, said once when every deal asks the same."""
    needs = {deal.go_out for deal in rules.deals}
    if len(needs) == 1:
        return _(
            "Going out needs %(books)s in every deal.", books=go_out_phrase(rules.deals[0].go_out)
        )
    return _("What going out needs changes from deal to deal: see the table of deals.")


def opening_phrase(deal: DealRule) -> str:
    """What the first meld of a deal must be, e.g. "at least 90 points"."""
    points = ngettext("at least %(num)d point", "at least %(num)d points", deal.opening_minimum)
    if deal.opening_needs_concealed_book:
        # The concealed book replaces the points minimum (see the README's presets notes).
        return _("a concealed book (canasta) from the player's own hand instead of points")
    return points


def concealed_book_note() -> str:
    return _(
        "The opening meld must be a concealed book (canasta) from the player's own hand; "
        "its points do not need to reach the minimum."
    )


# --- cards -------------------------------------------------------------------


def card_labels() -> dict[CardClass, str]:
    return {
        CardClass.JOKERS: _("Jokers"),
        CardClass.TWOS: _("2s"),
        CardClass.ACES: _("Aces"),
        CardClass.EIGHTS_TO_KINGS: _("8, 9, 10, J, Q, K"),
        CardClass.FOURS_TO_SEVENS: _("4, 5, 6, 7"),
        CardClass.BLACK_THREES: _("Black 3s"),
    }


@dataclass(frozen=True)
class CardKey:
    """A key of the opening-meld checker: the letter on the card, what it is called aloud
    (for a screen reader), its card class, and its rank as ``POST /api/opening`` names it."""

    letter: str
    name: str
    card: CardClass
    rank: str


def card_keys() -> list[CardKey]:
    """The checker's keys, the face cards lettered as the table's own cards are (and as the
    card classes' labels letter them: "8, 9, 10, B, D, K" in German)."""
    # The names begin "Add %(card)s (%(num)d points)", a key's label for a screen reader.
    faces = (
        # TRANSLATORS: the letter in the corner of an ace.
        (_pgettext("letter on a card", "A"), _("ace"), "A"),
        # TRANSLATORS: the letter in the corner of a king, as in "8, 9, 10, J, Q, K".
        (_pgettext("letter on a card", "K"), _("king"), "K"),
        # TRANSLATORS: the letter in the corner of a queen, as in "8, 9, 10, J, Q, K".
        (_pgettext("letter on a card", "Q"), _("queen"), "Q"),
        # TRANSLATORS: the letter in the corner of a jack, as in "8, 9, 10, J, Q, K".
        (_pgettext("letter on a card", "J"), _("jack"), "J"),
    )
    joker = _("Joker")
    return [
        CardKey(joker, joker, CardClass.JOKERS, "joker"),
        CardKey("2", "2", CardClass.TWOS, "2"),
        *(CardKey(str(letter), name, RANK_CLASSES[rank], rank) for letter, name, rank in faces),
        *(
            CardKey(rank, rank, RANK_CLASSES[rank], rank)
            for rank in ("10", "9", "8", "7", "6", "5", "4")
        ),
    ]


def card_value_rows(rules: RuleSet) -> list[tuple[str, int]]:
    """(card, points) in the order of a score sheet."""
    labels = card_labels()
    return [(labels[card], rules.card_values.of(card)) for card in CardClass]


def hand_and_foot_phrase(rules: RuleSet) -> str:
    return ngettext(
        "%(num)d card in the hand, %(foot)d in the foot",
        "%(num)d cards in the hand, %(foot)d in the foot",
        rules.hand_cards,
        foot=rules.foot_cards,
    )


def discard_pickup_phrase(rules: RuleSet) -> str:
    """How much of the discard pile a pickup takes."""
    if rules.discard_pickup is None:
        return _("the whole pile")
    return ngettext("the top card", "the top %(num)d cards", rules.discard_pickup)


# --- books -------------------------------------------------------------------


def book_size_phrase(rules: RuleSet) -> str:
    if rules.books_may_grow:
        return ngettext("%(num)d or more cards", "%(num)d or more cards", rules.book_size)
    return ngettext("exactly %(num)d card", "exactly %(num)d cards", rules.book_size)


def meld_per_rank_phrase(rules: RuleSet) -> str:
    """Whether a team may start a second meld of a rank."""
    if rules.one_meld_per_rank:
        return _("One meld of each rank: it grows, and no second one is started.")
    return _("A second meld of a rank may be started once the first is a book.")


def play_alone_phrase(rules: RuleSet) -> str | None:
    """What happens to players of partnership rules who cannot pair up."""
    if rules.play_style is not PlayStyle.PARTNERSHIPS:
        return None
    if rules.alone_by_choice and rules.alone_when_unpaired:
        return _("Players may play in teams or each alone, as the table likes.")
    if rules.alone_when_unpaired:
        return _("When the players cannot pair up, everyone plays alone.")
    if rules.alone_by_choice:
        return _(
            "Players who can pair up may also each play alone; a table that cannot pair up "
            "cannot play these rules."
        )
    return _("Played in partnerships only: nobody plays alone.")


def wild_rule_phrase(rules: RuleSet) -> str:
    """The principle of the wild-card limit, e.g. "at least twice as many natural cards"."""
    if rules.wild_limit is WildLimit.TWICE_AS_MANY_NATURALS:
        return _("at least twice as many natural cards as wild cards")
    if rules.wild_limit is WildLimit.MORE_NATURALS:
        return _("more natural cards than wild cards")
    return ngettext(
        "at least %(num)d natural card beside wild cards",
        "at least %(num)d natural cards beside wild cards",
        rules.min_naturals,
    )


@dataclass(frozen=True)
class _WildGroup:
    wilds: int
    first: int
    last: int


def _wild_groups(rules: RuleSet) -> list[_WildGroup]:
    groups: list[_WildGroup] = []
    for cards in range(SMALLEST_MELD, max(rules.book_size, SMALLEST_MELD) + 1):
        wilds = rules.max_wilds(cards)
        if groups and groups[-1].wilds == wilds:
            groups[-1] = _WildGroup(wilds, groups[-1].first, cards)
        else:
            groups.append(_WildGroup(wilds, cards, cards))
    return groups


def wild_limit_phrase(rules: RuleSet) -> str:
    """The wild-card limit by meld size: "at most 1 wild card in a meld of 3-5 cards, 2 in 6-7".

    (The ranges are written with an en dash.)
    """
    parts: list[str] = []
    said_at_most = False
    for group in _wild_groups(rules):
        cards = _span(group.first, group.last)
        if group.wilds == 0:
            parts.append(_("no wild card in a meld of %(cards)s cards", cards=cards))
        elif not said_at_most:
            parts.append(
                ngettext(
                    "at most %(num)d wild card in a meld of %(cards)s cards",
                    "at most %(num)d wild cards in a meld of %(cards)s cards",
                    group.wilds,
                    cards=cards,
                )
            )
            said_at_most = True
        else:
            parts.append(_("%(num)d in %(cards)s", num=group.wilds, cards=cards))
    if rules.books_may_grow:
        # The list stops at the book's size; a book grown past it follows the same principle
        # (a Saskatchewan canasta of 9 cards may hold 4 wild cards).
        parts.append(_("and so on in longer melds"))
    return ", ".join(parts)


def semicolon_list(parts: Sequence[str]) -> str:
    """Parts of a sentence, one after the other: "1 dirty book to go; pick up the foot"."""
    # TRANSLATORS: what goes between the parts of a list, as in "1 dirty book to go; 1 player
    # still has to play from the foot". French puts a no-break space before the semicolon.
    return str(_pgettext("between the parts of a list", "; ")).join(parts)


def book_kind_name(kind: BookKind) -> str:
    return {
        BookKind.CLEAN: _("clean book"),
        BookKind.DIRTY: _("dirty book"),
        BookKind.WILD: _("wild book"),
    }[kind]


def special_book_phrase(book: SpecialBook) -> str:
    """What else a special book means, e.g. "its cards are worth at least 35; counts as ..."."""
    parts: list[str] = []
    if book.min_points:
        parts.append(_("its cards are worth at least %(num)d", num=book.min_points))
    if book.counts_as is not None:
        parts.append(_("counts as a %(kind)s for going out", kind=book_kind_name(book.counts_as)))
    return semicolon_list(parts)


@dataclass(frozen=True)
class BonusRow:
    label: str
    bonus: int
    note: str = ""


def book_bonus_rows(rules: RuleSet) -> list[BonusRow]:
    """Every book these rules reward, with its bonus; only the kinds that exist."""
    rows = [
        BonusRow(_("Clean book"), rules.clean_book_bonus, _("no wild card")),
        BonusRow(_("Dirty book"), rules.dirty_book_bonus, _("one or more wild cards")),
    ]
    if rules.wild_books:
        rows.append(BonusRow(_("Wild book"), rules.wild_book_bonus, _("wild cards only")))
    if rules.black_three_books:
        rows.append(
            BonusRow(
                _("Black-three book"),
                rules.black_three_book_bonus,
                _(
                    "each black 3 in it still counts %(points)s; a clean book for going out",
                    points=signed(-rules.card_values.black_threes),
                )
                if rules.card_values.black_threes
                else _("a clean book for going out"),
            )
        )
    rows.extend(
        BonusRow(book.name, book.bonus, special_book_phrase(book)) for book in rules.special_books
    )
    return rows


# --- red threes and going out ----------------------------------------------------


def red_threes_phrase(rules: RuleSet) -> str:
    penalty = signed(-rules.red_three_penalty)
    if rules.red_threes_laid:
        return _(
            "laid face up at once for %(bonus)s each; %(penalty)s each when caught "
            "(still hidden when the deal ends)",
            bonus=signed(rules.red_three_bonus),
            penalty=penalty,
        )
    return _(
        "discarded at once, never laid; %(penalty)s each when caught "
        "(still held when the deal ends, in the hand or in a foot)",
        penalty=penalty,
    )


def going_out_phrases(rules: RuleSet, *, alone: bool | None = False) -> list[str]:
    """The going-out bonus and every condition besides the books (those differ per deal).

    ``alone``: everyone at the table plays alone, so nobody has a partner to wait for;
    ``None`` where the table is not known (the rules page): the partner's conditions then
    say they hold in partnerships where these rules also seat players alone.
    """
    phrases = [_("Going out earns %(bonus)s.", bonus=signed(rules.going_out_bonus))]
    if rules.has_partners(alone=bool(alone)):
        # Where these rules also seat players alone, the partner's conditions say when they hold.
        mixed = alone is None and rules.seats_players_alone
        for holds, plain, in_partnerships in (
            # "... seinen Fuß aufgenommen und mindestens einen Zug damit gespielt hat" (seed 001)
            (
                rules.partner_in_foot_to_go_out,
                N_("Your partner must have played from their foot first."),
                N_("In partnerships, your partner must have played from their foot first."),
            ),
            (
                rules.permission_to_go_out,
                N_("Ask your partner “May I go out?” first, and follow the answer."),
                N_(
                    "In partnerships, ask your partner “May I go out?” first, "
                    "and follow the answer."
                ),
            ),
        ):
            if holds:
                phrases.append(_(in_partnerships if mixed else plain))
    if rules.must_discard_to_go_out:
        phrases.append(_("The last card must be discarded: melding every card is not going out."))
    else:
        phrases.append(_("You may go out by melding your last cards, without a discard."))
    # The deal ends when someone must draw from an empty stock, not when it empties (seed 001:
    # "Muss jemand ziehen und der Ziehstapel ist leer, endet die Runde sofort").
    phrases.append(_("If someone must draw from an empty stock, nobody goes out: the deal ends."))
    return phrases


def exact_draw_phrase(rules: RuleSet) -> str | None:
    """The bonus for picking up exactly the right number of cards at the deal, if any."""
    if not rules.exact_draw_bonus:
        return None
    return _(
        "Picking up exactly %(cards)d cards in the first grab at the deal (before topping up or "
        "putting cards back) earns %(bonus)s for each player who does.",
        cards=rules.hand_cards + rules.foot_cards,
        bonus=signed(rules.exact_draw_bonus),
    )


# --- players -------------------------------------------------------------------


def play_style_phrase(rules: RuleSet) -> str:
    if rules.play_style is PlayStyle.PARTNERSHIPS and rules.partnership_sizes:
        sizes = join_or([str(size) for size in rules.partnership_sizes])
        return _("partnerships: teams of %(sizes)s", sizes=sizes)
    return _("every player alone")


def players_phrase(rules: RuleSet) -> str:
    if rules.min_players == rules.max_players:
        return ngettext("%(num)d player", "%(num)d players", rules.min_players)
    return _("%(low)d to %(high)d players", low=rules.min_players, high=rules.max_players)


def seating_options_phrase(rules: RuleSet, players: int) -> str:
    """How ``players`` sit down: "3 teams of 2 or 2 teams of 3", "everyone plays alone"."""
    options = [
        ngettext("%(num)d team of %(size)d", "%(num)d teams of %(size)d", teams, size=size)
        if size > 1
        else _("everyone plays alone")
        for teams, size in rules.seatings(players)
    ]
    return join_or(options)


def seatings_phrase(rules: RuleSet, players: int) -> str:
    """E.g. "4 players: 2 teams of 2"."""
    return ngettext(
        "%(num)d player: %(seating)s",
        "%(num)d players: %(seating)s",
        players,
        seating=seating_options_phrase(rules, players),
    )


def decks_phrase(rules: RuleSet, players: int) -> str:
    decks = rules.decks_for(players)
    return ngettext("%(num)d deck", "%(num)d decks", decks)


def decks_rule_phrase(rules: RuleSet) -> str:
    """The rule behind the deck count: "the number of players + 1", and its bounds."""
    if not rules.extra_decks:
        rule = _("one deck per player")
    else:
        rule = _("the number of players + %(extra)d", extra=rules.extra_decks)
    least, most = rules.min_decks, rules.max_decks
    if least and most:
        return _(
            "%(rule)s, but at least %(least)d and at most %(most)d",
            rule=rule,
            least=least,
            most=most,
        )
    if least:
        return _("%(rule)s, but at least %(least)d", rule=rule, least=least)
    if most:
        return _("%(rule)s, but at most %(most)d", rule=rule, most=most)
    return rule


def player_counts(rules: RuleSet) -> list[int]:
    """The numbers of players these rules can seat (partnerships only: not five)."""
    return [n for n in range(rules.min_players, rules.max_players + 1) if rules.seatings(n)]


# --- while a deal is played -------------------------------------------------


def opening_check_phrase(check: OpeningCheck, deal: int) -> str:
    """The verdict on a planned opening meld, e.g. "Not enough: 60 points, 30 short of 90."."""
    if check.concealed_book and check.pickup_pair is not None:
        return _(
            "Not enough: deal %(deal)d opens with a concealed book (canasta) from the "
            "player's own hand, never with a pickup of the discard pile.",
            deal=deal,
        )
    if check.pickup_wild and not check.pickup_ok:
        if not check.wild_melds:
            return _(
                "Not enough: these rules have no wild books, so no meld can take a wild card "
                "from the top of the discard pile."
            )
        return ngettext(
            "Not enough: picking up a wild card from the discard pile needs two more of the "
            "same from the hand (two 2s for a 2, two jokers for a joker), and the hand adds "
            "%(num)d.",
            "Not enough: picking up a wild card from the discard pile needs two more of the "
            "same from the hand (two 2s for a 2, two jokers for a joker), and the hand adds "
            "%(num)d.",
            check.pickup_pair or 0,
        )
    if not check.pickup_ok:
        return ngettext(
            "Not enough: picking up the discard pile needs two natural cards of the top "
            "discard's rank from the hand besides it, and the hand adds %(num)d.",
            "Not enough: picking up the discard pile needs two natural cards of the top "
            "discard's rank from the hand besides it, and the hand adds %(num)d.",
            check.pickup_pair or 0,
        )
    if check.concealed_book and check.book is None:
        return _(
            "Deal %(deal)d opens with a concealed book (canasta) from the player's own hand, "
            "not with points.",
            deal=deal,
        )
    if not check.melds:
        return _(
            "Not enough: no melds yet. These cards, %(points)d points, cannot all be laid in "
            "melds of three or more cards of a rank within the wild-card limit.",
            points=check.value,
        )
    if check.concealed_book:
        if check.enough:
            return _(
                "Enough: these cards hold a complete book (canasta), which deal %(deal)d asks "
                "for, as long as it comes from the player's own hand, not the discard pile.",
                deal=deal,
            )
        return _(
            "Not enough: deal %(deal)d opens with a concealed book (canasta) from the "
            "player's own hand, and these cards hold none.",
            deal=deal,
        )
    if check.enough:
        return _(
            "Enough: %(points)d points reach the %(minimum)d deal %(deal)d needs.",
            points=check.value,
            minimum=check.minimum,
            deal=deal,
        )
    return _(
        "Not enough: %(points)d points, %(short)d short of the %(minimum)d deal %(deal)d needs.",
        points=check.value,
        short=check.short,
        minimum=check.minimum,
        deal=deal,
    )


def go_out_check_phrase(check: GoOutCheck, players: int) -> str:
    """What a team still needs to go out, e.g. "1 dirty and 1 wild book to go; ..."."""
    parts: list[str] = []
    if check.missing:
        parts.append(_("%(books)s to go", books=go_out_phrase(check.missing)))
    if check.feet_missing:
        if players > 1:
            parts.append(
                ngettext(
                    "%(num)d player still has to play from the foot",
                    "%(num)d players still have to play from the foot",
                    check.feet_missing,
                )
            )
        else:
            parts.append(_("pick up the foot first"))
    if parts:
        return _("Not yet: %(needs)s.", needs=semicolon_list(parts))
    if check.permission:
        return _("Ready to go out (ask the partner first).")
    return _("Ready to go out.")
