"""Validating a deal: everything the table cannot have meant, said plainly.

Validation never raises on odd input; it returns a list of problems, each naming
the team (by index) and the field, with a message a card player understands.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any

from .cards import (
    NATURAL_CLASSES,
    NATURAL_RANKS,
    PER_DECK,
    SUITS,
    WILD_CLASSES,
    CardClass,
    books_fit,
    cards_in_play,
    least_book_worth,
    red_threes_in_play,
)
from .i18n import N_, NP_, Phrase, Template
from .layout import lays_out, meld_room, ranks_lay_out
from .problems import Problem
from .ruleset import BookCount, BookKind, PlayStyle, RuleSet, WildLimit
from .tally import TeamTally

_KIND_FIELDS = {
    BookKind.CLEAN: "clean_books",
    BookKind.DIRTY: "dirty_books",
    BookKind.WILD: "wild_books",
}
_GO_OUT_SHORT = {
    BookKind.CLEAN: N_("%(team)s cannot go out: %(have)d of the %(need)d clean books required."),
    BookKind.DIRTY: N_("%(team)s cannot go out: %(have)d of the %(need)d dirty books required."),
    BookKind.WILD: N_("%(team)s cannot go out: %(have)d of the %(need)d wild books required."),
}
_GO_OUT_NONE = {
    BookKind.CLEAN: N_("%(team)s cannot go out: going out in deal %(deal)d needs a clean book."),
    BookKind.DIRTY: N_("%(team)s cannot go out: going out in deal %(deal)d needs a dirty book."),
    BookKind.WILD: N_("%(team)s cannot go out: going out in deal %(deal)d needs a wild book."),
}
# Cards left that the players who did not go out cannot be holding (see cards_still_held):
# by whether the team went out, when nothing at all is reported left.
_NOTHING_LEFT = {
    False: NP_(
        "%(team)s did not go out, so at least one card is still in hand or foot, but no "
        "card is reported left.",
        "%(team)s did not go out, so each of their %(count)d players still holds at least one "
        "card in hand or foot, but no card is reported left.",
    ),
    True: NP_(
        "%(team)s went out, but their player who did not go out still holds at least one card "
        "in hand or foot, and no card is reported left.",
        "%(team)s went out, but each of their %(count)d players who did not go out still holds "
        "at least one card in hand or foot, and no card is reported left.",
    ),
}
# Too few: %(count)d players who did not go out, each holding a card besides any red three
# caught (see cards_still_held).
_TOO_FEW_LEFT = NP_(
    "%(team)s reports %(cards)d card left in hand and foot, but %(count)d of their players did "
    "not go out and each still holds at least one card.",
    "%(team)s reports %(cards)d cards left in hand and foot, but %(count)d of their players "
    "did not go out and each still holds at least one card.",
    "cards",
)
# A team that melded nothing never emptied a hand, so no foot of it was picked up: the feet
# alone are still held, %(feet)d cards besides any red three caught in them (see
# cards_still_held). By count, then by points.
_FEET_NOT_LEFT = NP_(
    "%(team)s melded nothing, so their foot was never picked up: that foot alone holds "
    "%(feet)d cards besides any red three caught, but %(cards)d are reported left.",
    "%(team)s melded nothing, so none of their %(count)d players picked up a foot: the feet "
    "alone hold %(feet)d cards besides any red three caught, but %(cards)d are reported left.",
)
_FEET_WORTH_MORE = NP_(
    "%(team)s melded nothing, so their foot was never picked up: that foot alone holds "
    "%(feet)d cards besides any red three caught, worth at least %(least)d, but cards worth "
    "%(points)d are reported left.",
    "%(team)s melded nothing, so none of their %(count)d players picked up a foot: the feet "
    "alone hold %(feet)d cards besides any red three caught, worth at least %(least)d, but "
    "cards worth %(points)d are reported left.",
)
# Where the packets are dealt exactly and a red three is laid and replaced, the hands, which
# only grew, are still held too: %(held)d cards in all.
_UNPLAYED_NOT_LEFT = NP_(
    "%(team)s melded nothing, so their hand was never emptied and their foot never picked up: "
    "the two hold at least %(held)d cards besides any red three caught, but %(cards)d are "
    "reported left.",
    "%(team)s melded nothing, so none of their %(count)d players emptied a hand or picked up "
    "a foot: their hands and feet hold at least %(held)d cards besides any red three caught, "
    "but %(cards)d are reported left.",
)
_UNPLAYED_WORTH_MORE = NP_(
    "%(team)s melded nothing, so their hand was never emptied and their foot never picked up: "
    "the two hold at least %(held)d cards besides any red three caught, worth at least "
    "%(least)d, but cards worth %(points)d are reported left.",
    "%(team)s melded nothing, so none of their %(count)d players emptied a hand or picked up "
    "a foot: their hands and feet hold at least %(held)d cards besides any red three caught, "
    "worth at least %(least)d, but cards worth %(points)d are reported left.",
)
_TOO_LITTLE_LEFT = N_(
    "%(team)s reports cards worth %(points)d left in hand and foot, but %(count)d of their "
    "players did not go out and each still holds at least one card: cards worth at least "
    "%(least)d."
)
_WILD_LIMIT_TEXT = {
    WildLimit.TWICE_AS_MANY_NATURALS: NP_(
        "%(team)s melded %(wilds)d wild card %(beside)s: every meld "
        "needs at least twice as many natural cards as wild cards.",
        "%(team)s melded %(wilds)d wild cards %(beside)s: every meld "
        "needs at least twice as many natural cards as wild cards.",
        "wilds",
    ),
    WildLimit.MORE_NATURALS: NP_(
        "%(team)s melded %(wilds)d wild card %(beside)s: every meld "
        "needs more natural cards than wild cards.",
        "%(team)s melded %(wilds)d wild cards %(beside)s: every meld "
        "needs more natural cards than wild cards.",
        "wilds",
    ),
    WildLimit.MIN_NATURALS: NP_(
        "%(team)s melded %(wilds)d wild card %(beside)s: wild cards "
        "may only join a meld of at least %(least)d natural cards.",
        "%(team)s melded %(wilds)d wild cards %(beside)s: wild cards "
        "may only join a meld of at least %(least)d natural cards.",
        "wilds",
    ),
}
# "with only 1 natural card": its own number, its own plural.
_BESIDE = NP_(
    "with only %(naturals)d natural card", "with only %(naturals)d natural cards", "naturals"
)
# The same, where some wild cards were set aside for a meld of wild cards only: the wild
# cards counted are those left, and the sentence says where the others went.
_BESIDE_SPARE = NP_(
    "besides %(spare)d in a meld of wild cards only, with only %(naturals)d natural card",
    "besides %(spare)d in a meld of wild cards only, with only %(naturals)d natural cards",
    "naturals",
)
# What is left besides the clean and wild books, each with its own plural.
_NATURALS_LEFT = NP_("%(count)d natural card", "%(count)d natural cards")
_WILDS_LEFT = NP_("%(count)d wild card", "%(count)d wild cards")
# Melded cards that fit the books and melds with every rank pooled, but not one rank at a
# time: by (clean or dirty books reported, wild books reported).
_RANKS_TEXT = {
    (False, False): N_(
        "%(team)s's melded cards cannot be laid out in melds: with no clean or dirty book, "
        "each rank's natural cards make one meld at the most, of 3 to %(largest)d cards with "
        "wild cards (all aces are one rank), and %(naturals)s and %(wilds)s make no such "
        "melds."
    ),
    (False, True): N_(
        "%(team)s's melded cards cannot be laid out in melds: with no clean or dirty book, "
        "each rank's natural cards make one meld at the most, of 3 to %(largest)d cards with "
        "wild cards (all aces are one rank), and %(naturals)s and %(wilds)s besides their "
        "wild books make no such melds."
    ),
    (True, False): N_(
        "%(team)s's melded cards cannot be laid out in books and melds of one rank each: "
        "beside their books, each rank's natural cards make one unfinished meld at the most, "
        "of 3 to %(largest)d cards with wild cards (all aces are one rank), and "
        "%(naturals)s and %(wilds)s make no such books and melds."
    ),
    (True, True): N_(
        "%(team)s's melded cards cannot be laid out in books and melds of one rank each: "
        "beside their books, each rank's natural cards make one unfinished meld at the most, "
        "of 3 to %(largest)d cards with wild cards (all aces are one rank), and "
        "%(naturals)s and %(wilds)s besides their wild books make no such books and melds."
    ),
}
# The same limits, as the end of a sentence.
_WILD_RULE_TEXT = {
    WildLimit.TWICE_AS_MANY_NATURALS: N_(
        "every meld needs at least twice as many natural cards as wild cards."
    ),
    WildLimit.MORE_NATURALS: N_("every meld needs more natural cards than wild cards."),
    WildLimit.MIN_NATURALS: N_(
        "wild cards may only join a meld of at least %(least)d natural cards."
    ),
}
_CLASS_TEXT = {
    CardClass.JOKERS: N_("jokers"),
    CardClass.TWOS: N_("2s"),
    CardClass.ACES: N_("aces"),
    CardClass.EIGHTS_TO_KINGS: N_("cards from 8 to king"),
    CardClass.FOURS_TO_SEVENS: N_("cards from 4 to 7"),
    CardClass.BLACK_THREES: N_("black 3s"),
}


# Books entered as points that run out of the cheapest ranks: one team's, or all teams'
# together; each without and with natural cards counted elsewhere.
_SHORT_RANKS: dict[tuple[bool, bool], Template] = {
    (True, False): NP_(
        "%(team)s melded cards worth %(melded)d, but their books cannot all be of the "
        "cheapest ranks: a book is of one rank, and %(decks)d deck holds only "
        "%(most)d cards of each, so their books alone hold cards worth at least "
        "%(least)d.",
        "%(team)s melded cards worth %(melded)d, but their books cannot all be of the "
        "cheapest ranks: a book is of one rank, and %(decks)d decks hold only "
        "%(most)d cards of each, so their books alone hold cards worth at least "
        "%(least)d.",
        "decks",
    ),
    (True, True): NP_(
        "%(team)s melded cards worth %(melded)d, but their books cannot all be of the "
        "cheapest ranks: a book is of one rank, %(decks)d deck holds only %(most)d "
        "cards of each, and %(counted)d natural cards are counted elsewhere, so their "
        "books alone hold cards worth at least %(least)d.",
        "%(team)s melded cards worth %(melded)d, but their books cannot all be of the "
        "cheapest ranks: a book is of one rank, %(decks)d decks hold only %(most)d "
        "cards of each, and %(counted)d natural cards are counted elsewhere, so their "
        "books alone hold cards worth at least %(least)d.",
        "decks",
    ),
    (False, False): NP_(
        "The teams' books cannot all be of the cheapest ranks: a book is of one "
        "rank, and %(decks)d deck holds only %(most)d cards of each, so together "
        "they hold cards worth at least %(least)d, but the teams melded "
        "%(melded)d.",
        "The teams' books cannot all be of the cheapest ranks: a book is of one "
        "rank, and %(decks)d decks hold only %(most)d cards of each, so together "
        "they hold cards worth at least %(least)d, but the teams melded "
        "%(melded)d.",
        "decks",
    ),
    (False, True): NP_(
        "The teams' books cannot all be of the cheapest ranks: a book is of one "
        "rank, %(decks)d deck holds only %(most)d cards of each, and %(counted)d "
        "natural cards are counted, so together the books hold cards worth at "
        "least %(least)d, but the teams melded %(melded)d.",
        "The teams' books cannot all be of the cheapest ranks: a book is of one "
        "rank, %(decks)d decks hold only %(most)d cards of each, and %(counted)d "
        "natural cards are counted, so together the books hold cards worth at "
        "least %(least)d, but the teams melded %(melded)d.",
        "decks",
    ),
}

# The same, where the rules allow one meld of each rank: a team's books are of as many ranks.
_ONE_BOOK_A_RANK: dict[tuple[bool, bool], Template] = {
    (True, False): N_(
        "%(team)s melded cards worth %(melded)d, but these rules allow one meld of each rank, "
        "so each of their books is of another rank, and those books alone hold cards worth at "
        "least %(least)d."
    ),
    (True, True): N_(
        "%(team)s melded cards worth %(melded)d, but these rules allow one meld of each rank, "
        "so each of their books is of another rank, and with %(counted)d natural cards counted "
        "elsewhere, those books alone hold cards worth at least %(least)d."
    ),
    (False, False): NP_(
        "The teams' books cannot all be of the cheapest ranks: each team has one book of a "
        "rank at the most, and %(decks)d deck holds only %(most)d cards of each, so together "
        "they hold cards worth at least %(least)d, but the teams melded %(melded)d.",
        "The teams' books cannot all be of the cheapest ranks: each team has one book of a "
        "rank at the most, and %(decks)d decks hold only %(most)d cards of each, so together "
        "they hold cards worth at least %(least)d, but the teams melded %(melded)d.",
        "decks",
    ),
    (False, True): NP_(
        "The teams' books cannot all be of the cheapest ranks: each team has one book of a "
        "rank at the most, %(decks)d deck holds only %(most)d cards of each, and %(counted)d "
        "natural cards are counted, so together the books hold cards worth at least "
        "%(least)d, but the teams melded %(melded)d.",
        "The teams' books cannot all be of the cheapest ranks: each team has one book of a "
        "rank at the most, %(decks)d decks hold only %(most)d cards of each, and %(counted)d "
        "natural cards are counted, so together the books hold cards worth at least "
        "%(least)d, but the teams melded %(melded)d.",
        "decks",
    ),
}

_WILD_CARDS = N_("wild cards")
_BLACK = (CardClass.BLACK_THREES,)
# Fields of a team's cards and books: a problem at one says the cards do not add up.
_CARD_FIELDS = ("melded", "left", "clean_books", "dirty_books", "wild_books", "black_three_books")


def team_label(team: TeamTally, index: int) -> str:
    """The team's name, or 'Team A', 'Team B', … when it has none (in English)."""
    return str(team_phrase(team, index))


def team_phrase(team: TeamTally, index: int) -> str | Phrase:
    """The team's name, or 'Team A', 'Team B', … as a phrase said in the table's language."""
    if team.name:
        return team.name
    letter = string.ascii_uppercase[index] if index < 26 else str(index + 1)
    return Phrase(N_("Team %(letter)s"), {"letter": letter})


def _classes(team: TeamTally) -> list[tuple[int, int]]:
    """For each of :data:`NATURAL_CLASSES`, the cards the team melded and the ranks the class
    has (aces are one rank, 8 to king six, 4 to 7 four)."""
    return [(team.melded.count(card), PER_DECK[card] // SUITS) for card in NATURAL_CLASSES]


def default_decks(rules: RuleSet, teams: int) -> int:
    return rules.decks_for(teams * rules.default_team_size())


class _Checker:
    def __init__(
        self,
        rules: RuleSet,
        deal_number: int,
        teams: Sequence[TeamTally],
        decks: int,
        sizes: Sequence[int] | None = None,
        scarcity: bool = True,
    ):
        self.scarcity = scarcity
        self.rules = rules
        self.deal_number = deal_number
        self.deal = rules.deal(deal_number)
        self.teams = teams
        self.decks = decks
        self.sizes = sizes
        self.in_play = cards_in_play(decks)
        self.problems: list[Problem] = []

    def held(self, classes: Sequence[CardClass]) -> int:
        """How many cards of these classes the decks in play hold."""
        return sum(self.in_play[card] for card in classes)

    def players(self, i: int) -> int:
        """How many players team ``i`` has: as seated when told, else the most these rules seat
        in one team. Rules played in partnerships seat players alone when the players cannot
        pair up (three at a table), and then each plays hand and foot on their own."""
        if self.sizes is not None:
            return self.sizes[i]
        rules = self.rules
        return (
            1 if rules.play_style is PlayStyle.INDIVIDUALS else max((*rules.partnership_sizes, 1))
        )

    def fail(self, index: int | None, where: str, template: Template, **params: Any) -> None:
        if index is not None:
            params.setdefault("team", team_phrase(self.teams[index], index))
        params.setdefault("deal", self.deal_number)
        params.setdefault("decks", self.decks)
        self.problems.append(Problem(index, where, template, params))

    # --- one team --------------------------------------------------------

    def one_meld_of_each_rank(self, i: int, team: TeamTally) -> None:
        """With one meld of each rank, a team has at most one book of each: 4 to ace, and
        black threes where they make books."""
        books = team.clean_books + team.dirty_books + sum(team.special_books.values())
        if books > NATURAL_RANKS:
            self.fail(
                i,
                "clean_books",
                N_(
                    "%(team)s reports %(count)d books, but these rules allow one meld of each "
                    "rank, and there are only %(ranks)d ranks from 4 to ace."
                ),
                count=books,
                ranks=NATURAL_RANKS,
            )
        if team.black_three_books > 1:
            self.fail(
                i,
                "black_three_books",
                N_(
                    "%(team)s reports %(count)d black-three books, but these rules allow one "
                    "meld of each rank: one of black threes at most."
                ),
                count=team.black_three_books,
            )
        elif team.melded.counted and books <= NATURAL_RANKS:
            self.books_of_the_ranks_counted(i, team)

    def books_of_the_ranks_counted(self, i: int, team: TeamTally) -> None:
        """Melded cards counted by class, one meld of each rank: each clean or dirty book is
        of a rank of its own, holding its natural cards, so a class of cards makes no more
        books than it has ranks and than its cards fill (four 4s-to-7s ranks and 30 of their
        cards are no five books)."""
        rules = self.rules
        size = rules.book_size
        dirty_needs = size - rules.max_wilds(size)
        clean, dirty = team.clean_books, team.dirty_books
        naturals = sum(team.melded.count(card) for card in NATURAL_CLASSES)
        if naturals < size * clean + dirty_needs * dirty:
            return  # too few natural cards for the books at all: counted_melds says so
        # (clean, dirty) books placed so far in the classes seen.
        placed = {(0, 0)}
        for cards, ranks in _classes(team):
            placed = {
                (c + here, d + there)
                for c, d in placed
                for here in range(min(ranks, cards // size, clean - c) + 1)
                for there in range(min(ranks - here, dirty - d) + 1)
                if here * size + there * dirty_needs <= cards
            }
        if (clean, dirty) not in placed:
            self.fail(
                i,
                "melded",
                NP_(
                    "%(team)s reports %(count)d book (%(clean)d clean, %(dirty)d dirty), but "
                    "these rules allow one meld of each rank, and the natural cards they melded "
                    "cannot make that many books each of a rank of its own.",
                    "%(team)s reports %(count)d books (%(clean)d clean, %(dirty)d dirty), but "
                    "these rules allow one meld of each rank, and the natural cards they melded "
                    "cannot make that many books each of a rank of its own.",
                    "count",
                ),
                count=clean + dirty,
                clean=clean,
                dirty=dirty,
            )

    def team(self, i: int, team: TeamTally) -> None:
        self.bans(i, team)
        if self.rules.one_meld_per_rank:
            self.one_meld_of_each_rank(i, team)
        self.card_totals(i, team)
        self.books_against_melded(i, team)
        if team.melded.counted:
            self.counted_melds(i, team)
        self.opening(i, team)
        if team.went_out:
            self.going_out(i, team)

    def bans(self, i: int, team: TeamTally) -> None:
        rules = self.rules
        if team.wild_books and not rules.wild_books:
            self.fail(
                i,
                "wild_books",
                NP_(
                    "%(team)s reports %(count)d wild book, but these rules have no wild books.",
                    "%(team)s reports %(count)d wild books, but these rules have no wild books.",
                ),
                count=team.wild_books,
            )
        if team.black_three_books and not rules.black_three_books:
            self.fail(
                i,
                "black_three_books",
                NP_(
                    "%(team)s reports %(count)d black-three book, but these rules have no "
                    "black-three books.",
                    "%(team)s reports %(count)d black-three books, but these rules have no "
                    "black-three books.",
                ),
                count=team.black_three_books,
            )
        if team.red_threes and not rules.red_threes_laid:
            self.fail(
                i,
                "red_threes",
                NP_(
                    "%(team)s reports %(count)d red three laid, but in these rules red threes "
                    "are discarded at once and never laid.",
                    "%(team)s reports %(count)d red threes laid, but in these rules red threes "
                    "are discarded at once and never laid.",
                ),
                count=team.red_threes,
            )
        # Where red threes are laid as soon as they are found (the dealt hand, a draw, the
        # foot picked up), only a foot never picked up hides one: seed 003, "tælles eventuelle
        # røde treer i din fod sammen med alle de andre kort". A player who went out picked up
        # their foot, so then only the other players' feet can; where going out takes every
        # foot of the team, or the team is one player, :meth:`going_out` says so.
        hiding = self.players(i) - int(team.went_out)
        feet = hiding * rules.foot_cards
        too_many = rules.red_threes_laid and team.red_threes_caught > feet
        if too_many and not team.went_out:
            self.fail(
                i,
                "red_threes_caught",
                NP_(
                    "%(team)s reports %(count)d red three caught, but red threes are laid as "
                    "soon as they are found, so only feet never picked up hide them: %(feet)d "
                    "cards at most.",
                    "%(team)s reports %(count)d red threes caught, but red threes are laid as "
                    "soon as they are found, so only feet never picked up hide them: %(feet)d "
                    "cards at most.",
                ),
                count=team.red_threes_caught,
                feet=feet,
            )
        elif too_many and hiding and not rules.partner_in_foot_to_go_out:
            self.fail(
                i,
                "red_threes_caught",
                NP_(
                    "%(team)s reports %(count)d red three caught, but one of their players went "
                    "out, so only the feet of the others can hide one: %(feet)d cards at most.",
                    "%(team)s reports %(count)d red threes caught, but one of their players went "
                    "out, so only the feet of the others can hide them: %(feet)d cards at most.",
                ),
                count=team.red_threes_caught,
                feet=feet,
            )
        for book_id, count in team.special_books.items():
            if count and rules.special_book(book_id) is None:
                self.fail(
                    i,
                    f"special_books.{book_id}",
                    N_("%(team)s reports a special book %(book)s that these rules do not have."),
                    book=book_id,
                )
        if team.exact_draws and not rules.exact_draw_bonus:
            self.fail(
                i,
                "exact_draws",
                N_("%(team)s reports exact draws, but these rules give no bonus for them."),
            )
        most = self.players(i)
        if team.exact_draws > most == 1:
            self.fail(
                i,
                "exact_draws",
                N_("%(team)s reports %(count)d exact draws, but plays alone: 1 at most."),
                count=team.exact_draws,
            )
        elif team.exact_draws > most:
            self.fail(
                i,
                "exact_draws",
                NP_(
                    "%(team)s reports %(count)d exact draws, but a team has at most %(most)d "
                    "player.",
                    "%(team)s reports %(count)d exact draws, but a team has at most %(most)d "
                    "players.",
                    "most",
                ),
                count=team.exact_draws,
                most=most,
            )

    def card_totals(self, i: int, team: TeamTally) -> None:
        step = self.rules.card_values.step
        for where, cards in (("melded", team.melded), ("left", team.left)):
            if not cards.counted and (cards.points or 0) % step:
                self.fail(
                    i,
                    where,
                    N_(
                        "%(team)s: %(points)d is not a possible card total; every card is worth "
                        "a multiple of %(step)d."
                    ),
                    points=cards.points,
                    step=step,
                )
        if team.opening_meld is not None and team.opening_meld % step:
            self.fail(
                i,
                "opening_meld",
                N_(
                    "%(team)s: an opening meld of %(points)d is impossible; every card is worth a "
                    "multiple of %(step)d."
                ),
                points=team.opening_meld,
                step=step,
            )
        if team.melded.counted:
            black = team.melded.count(CardClass.BLACK_THREES)
            needed = team.black_three_books * self.rules.book_size
            if black and not self.rules.black_three_books:
                self.fail(
                    i,
                    "melded.black_threes",
                    NP_(
                        "%(team)s reports %(count)d black 3 melded, but black 3s can never be "
                        "melded in these rules.",
                        "%(team)s reports %(count)d black 3s melded, but black 3s can never be "
                        "melded in these rules.",
                    ),
                    count=black,
                )
            elif black and self.black_threes_laid_out(team, black - needed):
                pass
            elif black and not team.black_three_books:
                self.fail(
                    i,
                    "melded.black_threes",
                    NP_(
                        "%(team)s reports %(count)d black 3 melded but no black-three book: "
                        "black 3s outside a book make one meld of 3 to %(most)d.",
                        "%(team)s reports %(count)d black 3s melded but no black-three book: "
                        "black 3s outside a book make one meld of 3 to %(most)d.",
                    ),
                    count=black,
                    most=self.rules.book_size - 1,
                )
            elif black > needed and not self.rules.one_meld_per_rank:
                self.fail(
                    i,
                    "melded.black_threes",
                    NP_(
                        "%(team)s reports %(count)d black 3s melded: their %(books)d black-three "
                        "book holds %(need)d of them, and the other %(rest)d cannot be one meld "
                        "of 3 to %(most)d.",
                        "%(team)s reports %(count)d black 3s melded: their %(books)d black-three "
                        "books hold %(need)d of them, and the other %(rest)d cannot be one meld "
                        "of 3 to %(most)d.",
                        "books",
                    ),
                    count=black,
                    books=team.black_three_books,
                    need=needed,
                    rest=black - needed,
                    most=self.rules.book_size - 1,
                )
            elif black != needed:
                self.fail(
                    i,
                    "melded.black_threes",
                    NP_(
                        "%(team)s reports %(count)d black 3s melded, but their %(books)d "
                        "black-three book holds %(need)d of them.",
                        "%(team)s reports %(count)d black 3s melded, but their %(books)d "
                        "black-three books hold %(need)d of them.",
                        "books",
                    )
                    if not self.rules.books_may_grow
                    else NP_(
                        "%(team)s reports %(count)d black 3s melded, but their %(books)d "
                        "black-three book holds at least %(need)d of them.",
                        "%(team)s reports %(count)d black 3s melded, but their %(books)d "
                        "black-three books hold at least %(need)d of them.",
                        "books",
                    ),
                    count=black,
                    books=team.black_three_books,
                    need=needed,
                )

    def black_threes_laid_out(self, team: TeamTally, extra: int) -> bool:
        """Whether the black 3s melded beyond those its black-three books need (``extra``) fit:
        none; any number in a book that may grow; or one unfinished meld of 3 to one short of
        a book (003: black 3s make a meld of their own, without wild cards), which rules of
        one meld of each rank allow only when there is no black-three book."""
        rules = self.rules
        if extra == 0 or (extra > 0 and rules.books_may_grow and team.black_three_books):
            return True
        one_meld = rules.one_meld_per_rank and team.black_three_books
        return 3 <= extra < rules.book_size and not one_meld

    def least_book_points(self, team: TeamTally) -> int:
        rules = self.rules
        size = rules.book_size
        values = rules.card_values
        cheapest_dirty = self.cheapest_dirty_book()
        least = (
            team.clean_books * size * values.cheapest_natural
            + team.dirty_books * cheapest_dirty
            + team.wild_books * size * values.cheapest_wild
        )
        return least + self.special_book_points(team)

    def cheapest_dirty_book(self) -> int:
        """The least a dirty book is worth: one wild card, or as many as it may hold when
        wild cards cost less than natural ones (2s worth 5 beside 4s worth 10)."""
        rules = self.rules
        size, values = rules.book_size, rules.card_values
        wilds = rules.max_wilds(size) if values.cheapest_wild < values.cheapest_natural else 1
        return wilds * values.cheapest_wild + (size - wilds) * values.cheapest_natural

    def special_book_points(self, team: TeamTally) -> int:
        least = 0
        for book_id, count in team.special_books.items():
            special = self.rules.special_book(book_id)
            if special is not None:
                least += count * special.min_points
        return least

    def naturals_set_aside(self, books_of: Sequence[int]) -> tuple[int, ...]:
        """The natural cards counted in the deal that are in none of the books of the teams
        ``books_of``, of each of :data:`NATURAL_CLASSES`: every card left, and the melded
        cards the other teams counted."""
        return tuple(
            sum(
                t.left.count(card) + (0 if i in books_of else t.melded.count(card))
                for i, t in enumerate(self.teams)
            )
            for card in NATURAL_CLASSES
        )

    def least_by_rank(self, books_of: Sequence[int], *, one_meld_a_rank: bool = True) -> int:
        """The least the books of the teams ``books_of`` are worth together, every book of
        one rank: the cheapest ranks run out (5 decks hold 20 cards of each), and with one
        meld of each rank a team has one book of a rank at the most (unless not
        ``one_meld_a_rank``: what the cards alone allow). No more than
        :meth:`least_book_points` when the books cannot all be made: that is said apart."""
        rules = self.rules
        size = rules.book_size
        teams = [self.teams[i] for i in books_of]
        natural = least_book_worth(
            sum(t.clean_books for t in teams),
            sum(t.dirty_books for t in teams),
            SUITS * self.decks,
            size,
            size - rules.max_wilds(size),
            rules.card_values,
            self.naturals_set_aside(books_of),
            books_per_rank=len(teams) if rules.one_meld_per_rank and one_meld_a_rank else None,
        )
        plain = sum(self.least_book_points(t) for t in teams)
        if natural is None:
            return plain
        wild = sum(t.wild_books for t in teams) * size * rules.card_values.cheapest_wild
        special = sum(self.special_book_points(t) for t in teams)
        return max(plain, natural + wild + special)

    def books_against_melded(self, i: int, team: TeamTally) -> None:
        values = self.rules.card_values
        melded = team.melded.value(values, without=(CardClass.BLACK_THREES,))
        least = self.least_book_points(team)
        books = team.clean_books + team.dirty_books + team.wild_books
        if melded < least:
            self.fail(
                i,
                "melded",
                NP_(
                    "%(team)s melded cards worth %(melded)d, but their %(books)d book alone holds "
                    "cards worth at least %(least)d (a clean book at least %(clean)d, a dirty "
                    "book %(dirty)d, a wild book %(wild)d).",
                    "%(team)s melded cards worth %(melded)d, but their %(books)d books alone hold "
                    "cards worth at least %(least)d (a clean book at least %(clean)d, a dirty "
                    "book %(dirty)d, a wild book %(wild)d).",
                    "books",
                ),
                melded=melded,
                least=least,
                books=books,
                clean=self.rules.book_size * values.cheapest_natural,
                dirty=self.cheapest_dirty_book(),
                wild=self.rules.book_size * values.cheapest_wild,
            )
        if self.scarcity and least <= melded < (by_rank := self.least_by_rank([i])):
            self.short_ranks(i, melded, by_rank)
        smallest_meld = 3 * values.cheapest_natural
        if 0 < melded < smallest_meld:
            self.fail(
                i,
                "melded",
                N_(
                    "%(team)s melded cards worth %(melded)d, but a meld has at least three cards, "
                    "worth at least %(least)d."
                ),
                melded=melded,
                least=smallest_meld,
            )
        total_value = self.worth_of_all_cards()
        left = team.left.value(values)
        beyond = {
            "melded": NP_(
                "%(team)s melded cards worth %(points)d, but all the cards of %(decks)d deck "
                "are worth only %(most)d.",
                "%(team)s melded cards worth %(points)d, but all the cards of %(decks)d decks "
                "are worth only %(most)d.",
                "decks",
            ),
            "left": NP_(
                "%(team)s has cards worth %(points)d left in hand and foot, but all the cards "
                "of %(decks)d deck are worth only %(most)d.",
                "%(team)s has cards worth %(points)d left in hand and foot, but all the cards "
                "of %(decks)d decks are worth only %(most)d.",
                "decks",
            ),
        }
        for where, points in (("melded", melded), ("left", left)):
            if points > total_value:
                self.fail(i, where, beyond[where], points=points, most=total_value)
        # Black 3s too: every card melded or left is a different card of the decks.
        melded_cards = team.melded.value(values)
        everything = melded_cards + left
        if melded <= total_value and left <= total_value and everything > total_value:
            self.fail(
                i,
                "left",
                NP_(
                    "%(team)s reports cards worth %(melded)d melded and %(left)d left, "
                    "%(points)d in all, but all the cards of %(decks)d deck are worth only "
                    "%(most)d.",
                    "%(team)s reports cards worth %(melded)d melded and %(left)d left, "
                    "%(points)d in all, but all the cards of %(decks)d decks are worth only "
                    "%(most)d.",
                    "decks",
                ),
                melded=melded_cards,
                left=left,
                points=everything,
                most=total_value,
            )

    def worth_of_all_cards(self) -> int:
        values = self.rules.card_values
        return sum(values.of(card) * n for card, n in self.in_play.items())

    def counted_melds(self, i: int, team: TeamTally) -> None:
        rules = self.rules
        size = rules.book_size
        naturals = sum(team.melded.count(card) for card in NATURAL_CLASSES)
        wilds = sum(team.melded.count(card) for card in WILD_CLASSES)
        need_naturals = size * team.clean_books + (size - rules.max_wilds(size)) * team.dirty_books
        need_wilds = size * team.wild_books + team.dirty_books
        if naturals < need_naturals and team.dirty_books:
            self.fail(
                i,
                "melded",
                NP_(
                    "%(team)s's books need at least %(need)d natural cards, but only %(have)d "
                    "natural card was melded; a dirty book of %(size)d cards holds at most "
                    "%(most)d wild cards.",
                    "%(team)s's books need at least %(need)d natural cards, but only %(have)d "
                    "natural cards were melded; a dirty book of %(size)d cards holds at most "
                    "%(most)d wild cards.",
                    "have",
                ),
                need=need_naturals,
                have=naturals,
                size=size,
                most=rules.max_wilds(size),
            )
        elif naturals < need_naturals:
            self.fail(
                i,
                "melded",
                NP_(
                    "%(team)s's books need at least %(need)d natural cards, but only %(have)d "
                    "natural card was melded.",
                    "%(team)s's books need at least %(need)d natural cards, but only %(have)d "
                    "natural cards were melded.",
                    "have",
                ),
                need=need_naturals,
                have=naturals,
            )
        if wilds < need_wilds:
            self.fail(
                i,
                "melded",
                NP_(
                    "%(team)s's books need at least %(need)s, but only %(have)d wild card was "
                    "melded.",
                    "%(team)s's books need at least %(need)s, but only %(have)d wild cards were "
                    "melded.",
                    "have",
                ),
                need=Phrase(_WILDS_LEFT, {"count": need_wilds}),
                have=wilds,
            )
        if team.special_books or naturals < need_naturals or wilds < need_wilds:
            return  # what special books hold is unknown; shortfalls are reported already
        books = team.clean_books + team.dirty_books + team.wild_books
        loose = naturals + wilds - size * books  # cards in melds that are not books (yet)
        # Where books may grow, cards beside them may have joined them; with no book, not.
        if (not rules.books_may_grow or not books) and 0 < loose < 3:
            self.fail(
                i,
                "melded",
                NP_(
                    "%(team)s melded %(loose)d card besides their books, but a meld has at least "
                    "three cards.",
                    "%(team)s melded %(loose)d cards besides their books, but a meld has at least "
                    "three cards.",
                    "loose",
                ),
                loose=loose,
            )
            return
        # A wild canasta that may grow holds any number of wild cards: none needs naturals.
        if not (rules.books_may_grow and rules.wild_books and team.wild_books):
            # Wild cards that can sit in an unfinished meld of wild cards only: those not in
            # a book (a dirty book holds one at the least), if they are three or more.
            besides = wilds - size * team.wild_books - team.dirty_books
            spare = min(besides, size - 1) if rules.wild_books and besides >= 3 else 0
            in_naturals = wilds - size * team.wild_books - spare
            if in_naturals > 0 and not naturals and not rules.wild_books:
                self.fail(
                    i,
                    "melded",
                    NP_(
                        "%(team)s melded %(wilds)d wild card and no natural card, but these rules "
                        "have no melds of wild cards only.",
                        "%(team)s melded %(wilds)d wild cards and no natural card, but these "
                        "rules have no melds of wild cards only.",
                        "wilds",
                    ),
                    wilds=in_naturals,
                )
                return
            if in_naturals > 0 and not naturals:
                # Seven jokers and no wild book reported: the wild book is what is missing.
                self.fail(
                    i,
                    "melded",
                    NP_(
                        "%(team)s melded %(wilds)d wild card and no natural card, with wild "
                        "books reported: %(books)d. Wild cards alone make wild books and at "
                        "most one meld of fewer than %(size)d cards.",
                        "%(team)s melded %(wilds)d wild cards and no natural card, with wild "
                        "books reported: %(books)d. Wild cards alone make wild books and at "
                        "most one meld of fewer than %(size)d cards.",
                        "wilds",
                    )
                    if size > 3  # a meld of wild cards has three cards and is no book yet
                    else NP_(
                        "%(team)s melded %(wilds)d wild card and no natural card, with wild "
                        "books reported: %(books)d. Wild cards alone make wild books only.",
                        "%(team)s melded %(wilds)d wild cards and no natural card, with wild "
                        "books reported: %(books)d. Wild cards alone make wild books only.",
                        "wilds",
                    ),
                    wilds=wilds,
                    books=team.wild_books,
                    size=size,
                )
                return
            if in_naturals > 0 and not self.wild_limit_kept(
                naturals, in_naturals, team.dirty_books
            ):
                self.fail(
                    i,
                    "melded",
                    _WILD_LIMIT_TEXT[rules.wild_limit],
                    wilds=in_naturals,
                    beside=Phrase(_BESIDE_SPARE, {"spare": spare, "naturals": naturals})
                    if spare
                    else Phrase(_BESIDE, {"naturals": naturals}),
                    least=rules.min_naturals,
                )
                return
        if naturals > self.held(NATURAL_CLASSES) or wilds > self.held(WILD_CLASSES):
            return  # more cards than the decks hold: the supply check says so
        clean, dirty, wild = team.clean_books, team.dirty_books, team.wild_books
        if not self.unfinished_melds_hold_the_rest(i, team):
            return
        if not lays_out(rules, clean, dirty, wild, naturals, wilds):
            self.fail(
                i,
                "melded",
                N_(
                    "%(team)s's melded cards cannot be laid out in books and melds: besides "
                    "their clean and wild books, %(naturals)s and %(wilds)s are left for their "
                    "dirty books and for melds of 3 to %(largest)d cards, and %(rule)s"
                )
                if size > 3
                else N_(
                    "%(team)s's melded cards cannot be laid out in books: besides their clean "
                    "and wild books, %(naturals)s and %(wilds)s are left for their dirty books, "
                    "and %(rule)s"
                ),
                naturals=Phrase(_NATURALS_LEFT, {"count": naturals - size * clean}),
                wilds=Phrase(_WILDS_LEFT, {"count": wilds - size * wild}),
                largest=size - 1,
                rule=Phrase(_WILD_RULE_TEXT[rules.wild_limit], {"least": rules.min_naturals}),
            )
        elif self.scarcity and size > 4 and not self.ranks_lay_out(team, wilds):
            # Not on import: a club's export from before this check still imports whole. Nor
            # with books of 3 or 4 cards, whose melds beside them the messages do not name.
            self.fail(
                i,
                "melded",
                _RANKS_TEXT[(bool(clean + dirty), bool(wild))],
                naturals=Phrase(_NATURALS_LEFT, {"count": naturals}),
                wilds=Phrase(_WILDS_LEFT, {"count": wilds - size * wild}),
                largest=size - 1,
            )

    def ranks_lay_out(self, team: TeamTally, wilds: int) -> bool:
        """Whether a team's natural cards, counted by class (:func:`_classes`), make its
        books one rank each and one unfinished meld a rank at the most with its ``wilds``
        wild cards (see :func:`layout.ranks_lay_out`)."""
        return ranks_lay_out(
            self.rules, _classes(team), team.clean_books, team.dirty_books, team.wild_books, wilds
        )

    def unfinished_melds_hold_the_rest(self, i: int, team: TeamTally) -> bool:
        """A team has one unfinished meld of a rank at the most (seeds 000, 001, 003), of
        fewer cards than a book: past that, a rank's natural cards are in books. Aces are one
        rank: seven aces with no book cannot be. False (and said) when the books cannot hold
        what the unfinished melds cannot."""
        size = self.rules.book_size
        must = sum(max(0, cards - meld_room(self.rules, ranks)) for cards, ranks in _classes(team))
        clean, dirty = team.clean_books, team.dirty_books
        if not must or (self.rules.books_may_grow and clean + dirty):
            return True  # books that may grow take any natural card to spare
        # A clean book holds a book's worth of natural cards, a dirty one a card fewer at most.
        room = size * clean + (size - 1) * dirty
        if must <= room:
            return True
        self.fail(
            i,
            "melded",
            NP_(
                "%(team)s melded more natural cards than their melds can hold: a team has one "
                "unfinished meld of a rank at the most, of up to %(largest)d cards, so "
                "%(must)d of them must be in books, but their books hold %(room)d natural card "
                "at the most.",
                "%(team)s melded more natural cards than their melds can hold: a team has one "
                "unfinished meld of a rank at the most, of up to %(largest)d cards, so "
                "%(must)d of them must be in books, but their books hold %(room)d natural cards "
                "at the most.",
                "room",
            ),
            largest=size - 1,
            must=must,
            room=room,
        )
        return False

    def wild_limit_kept(self, naturals: int, in_naturals: int, dirty_books: int) -> bool:
        """The wild-card limit summed over every meld: ``in_naturals`` wild cards that must
        sit beside some of the ``naturals`` melded."""
        rules = self.rules
        size = rules.book_size
        if rules.wild_limit is WildLimit.TWICE_AS_MANY_NATURALS:
            return naturals >= 2 * in_naturals
        if rules.wild_limit is WildLimit.MORE_NATURALS:
            return naturals >= in_naturals + max(1, dirty_books)
        if rules.books_may_grow:
            return naturals >= rules.min_naturals
        melds = naturals // rules.min_naturals
        return in_naturals <= melds * (size - rules.min_naturals)

    def opening(self, i: int, team: TeamTally) -> None:
        rules = self.rules
        deal = self.deal
        melded = team.melded.value(rules.card_values, without=(CardClass.BLACK_THREES,))
        books = (
            team.clean_books + team.dirty_books + team.wild_books + sum(team.special_books.values())
        )
        if deal.opening_needs_concealed_book:
            if (melded or team.opening_meld) and not books:
                self.fail(
                    i,
                    "opening_meld",
                    N_(
                        "%(team)s melded in deal %(deal)d without a book, but these rules open "
                        "deal %(deal)d with a concealed book."
                    ),
                )
            elif team.opening_meld is not None and team.opening_meld > melded:
                self._opening_beyond_melded(i, team.opening_meld, melded)
            return
        minimum = deal.opening_minimum
        if team.opening_meld is not None and (team.opening_meld or melded):
            if team.opening_meld < minimum:
                self.fail(
                    i,
                    "opening_meld",
                    N_(
                        "%(team)s opened with %(points)d, but deal %(deal)d needs an opening meld "
                        "of at least %(minimum)d."
                    ),
                    points=team.opening_meld,
                    minimum=minimum,
                )
            elif team.opening_meld > melded:
                self._opening_beyond_melded(i, team.opening_meld, melded)
        elif 0 < melded < minimum:
            # The opening's cards never leave the table, so the melded total reaches it.
            self.fail(
                i,
                "melded",
                N_(
                    "%(team)s melded cards worth %(melded)d, less than the %(minimum)d an opening "
                    "meld needs in deal %(deal)d."
                ),
                melded=melded,
                minimum=minimum,
            )

    def _opening_beyond_melded(self, i: int, opening: int, melded: int) -> None:
        self.fail(
            i,
            "opening_meld",
            N_(
                "%(team)s opened with %(points)d, but melded cards worth only %(melded)d "
                "in all; the opening stays on the table."
            ),
            points=opening,
            melded=melded,
        )

    def going_out(self, i: int, team: TeamTally) -> None:
        rules = self.rules
        have = {
            BookKind.CLEAN: rules.clean_for_going_out(team.clean_books, team.black_three_books),
            BookKind.DIRTY: team.dirty_books,
            BookKind.WILD: team.wild_books,
        }
        for book_id, count in team.special_books.items():
            special = rules.special_book(book_id)
            if special is not None and special.counts_as is not None:
                have[special.counts_as] += count
        missing = self.deal.go_out.shortfall(BookCount(**{k.value: n for k, n in have.items()}))
        for kind in BookKind:
            need = getattr(self.deal.go_out, kind.value)
            if getattr(missing, kind.value):
                template = _GO_OUT_SHORT[kind] if need > 1 else _GO_OUT_NONE[kind]
                self.fail(i, _KIND_FIELDS[kind], template, have=have[kind], need=need)
        alone = self.players(i) == 1
        left = team.left.value(rules.card_values)
        if alone and (left or team.left.cards):
            self.fail(
                i,
                "left",
                N_(
                    "%(team)s went out, so no cards can be left in hand or foot, but cards worth "
                    "%(points)d are reported left."
                ),
                points=left,
            )
        if team.red_threes_caught and alone:
            # Whatever the rules do with red threes, a player who went out holds no card.
            self.fail(
                i,
                "red_threes_caught",
                NP_(
                    "%(team)s went out, so holds no card, and the %(count)d red three "
                    "reported caught cannot have been held.",
                    "%(team)s went out, so holds no card, and none of the %(count)d red "
                    "threes reported caught can have been held.",
                ),
                count=team.red_threes_caught,
            )
        elif team.red_threes_caught and rules.partner_in_foot_to_go_out:
            self.fail(
                i,
                "red_threes_caught",
                NP_(
                    "%(team)s went out, so every foot of the team was picked up and the "
                    "%(count)d red three reported caught cannot have been hidden in one.",
                    "%(team)s went out, so every foot of the team was picked up and none of the "
                    "%(count)d red threes reported caught can have been hidden in one.",
                ),
                count=team.red_threes_caught,
            )

    def cards_still_held(self, i: int, team: TeamTally) -> None:
        """Every player who did not go out holds a card at the end of the deal: nobody may
        meld or discard their last card without going out (seed 001: "Solange du nicht
        ausmachen darfst, muss dir nach dem Ablegen mindestens eine Karte bleiben"; 000 and
        003 alike). A red three caught stands for no such card: it is caught in a foot never
        picked up, "sammen med alle de andre kort" (seed 003), so its holder still has the
        hand and the rest of that foot. Without the seating, a team is taken to have one
        player: the least any table seats. A team that melded nothing holds more: every hand
        of it, never emptied, and every foot, never picked up.

        A hint, not a refusal (see :func:`deal_hints`): RULES.md does not list it among what
        is impossible, and a calculator asked about a team's books alone must still answer."""
        players = self.sizes[i] if self.sizes is not None else 1
        holding = players - (1 if team.went_out else 0)
        if holding <= 0:
            return
        values = self.rules.card_values
        least = values.cheapest
        cards, points = team.left.cards, team.left.value(values)
        # By points, where the cheapest card is worth 0 (house rules may so value black
        # threes), no total is too little.
        nothing_left = (cards == 0) if team.left.counted else (points == 0 and least > 0)
        if nothing_left:
            self.fail(i, "left", _NOTHING_LEFT[team.went_out], count=holding)
            return
        if not team.went_out and self.melded_nothing(team):
            # Nobody of the team emptied a hand, so every foot is still held, less its red
            # threes caught, and so is every hand where the rules make sure of it.
            hands = self.rules.unopened_holds_hand
            held = max(players * self.rules.unopened_cards - team.red_threes_caught, players)
            too_few, worth_more, said = (
                (_UNPLAYED_NOT_LEFT, _UNPLAYED_WORTH_MORE, {"held": held})
                if hands
                else (_FEET_NOT_LEFT, _FEET_WORTH_MORE, {"feet": held})
            )
            if team.left.counted:
                if cards < held:
                    self.fail(i, "left", too_few, count=players, cards=cards, **said)
            elif points < held * least:
                self.fail(
                    i, "left", worth_more, count=players, least=held * least, points=points, **said
                )
            return
        if team.left.counted:
            if cards < holding:
                self.fail(i, "left", _TOO_FEW_LEFT, count=holding, cards=cards)
        elif points < holding * least:
            self.fail(
                i, "left", _TOO_LITTLE_LEFT, count=holding, points=points, least=holding * least
            )

    @staticmethod
    def melded_nothing(team: TeamTally) -> bool:
        """Whether a team reports no book and no card melded."""
        books = (
            team.clean_books
            + team.dirty_books
            + team.wild_books
            + team.black_three_books
            + sum(team.special_books.values())
        )
        return not books and not team.melded.cards and not team.melded.points

    # --- the whole deal --------------------------------------------------

    def whole_deal(self) -> None:
        out = [i for i, team in enumerate(self.teams) if team.went_out]
        if len(out) > 1:
            self.fail(
                None,
                "went_out",
                N_(
                    "Only one team can go out in a deal, but %(count)d teams report going out: "
                    "%(names)s."
                ),
                count=len(out),
                names=tuple(team_phrase(self.teams[i], i) for i in out),
            )
        self.supply()

    def supply(self) -> None:
        """Nothing may need more cards than the decks in play hold."""
        rules = self.rules
        size = rules.book_size
        in_play = self.in_play
        red = [t.red_threes + t.red_threes_caught for t in self.teams]
        self._limit(
            "red_threes",
            red,
            red_threes_in_play(self.decks),
            NP_(
                "%(team)s reports %(count)d red threes, but %(decks)d deck holds only %(most)d.",
                "%(team)s reports %(count)d red threes, but %(decks)d decks hold only %(most)d.",
                "decks",
            ),
            NP_(
                "The teams report %(count)d red threes together, but %(decks)d deck holds only "
                "%(most)d.",
                "The teams report %(count)d red threes together, but %(decks)d decks hold only "
                "%(most)d.",
                "decks",
            ),
        )
        values = rules.card_values
        worth = self.worth_of_all_cards()
        points = [t.melded.value(values) + t.left.value(values) for t in self.teams]
        if all(p <= worth for p in points) and sum(points) > worth:
            self.fail(
                None,
                "melded",
                NP_(
                    "The teams report cards worth %(points)d together, but all the cards of "
                    "%(decks)d deck are worth only %(most)d.",
                    "The teams report cards worth %(points)d together, but all the cards of "
                    "%(decks)d decks are worth only %(most)d.",
                    "decks",
                ),
                points=sum(points),
                most=worth,
            )
        for card in CardClass:
            counts = [t.melded.count(card) + t.left.count(card) for t in self.teams]
            # Point at the cards left when the team melded none of this class.
            fields = [
                f"left.{card.value}"
                if t.left.count(card) and not t.melded.count(card)
                else f"melded.{card.value}"
                for t in self.teams
            ]
            self._limit(
                f"melded.{card.value}",
                counts,
                in_play[card],
                NP_(
                    "%(team)s reports %(count)d %(cards)s, but %(decks)d deck holds only %(most)d.",
                    "%(team)s reports %(count)d %(cards)s, but %(decks)d decks hold only %(most)d.",
                    "decks",
                ),
                NP_(
                    "The teams report %(count)d %(cards)s together, but %(decks)d deck holds only "
                    "%(most)d.",
                    "The teams report %(count)d %(cards)s together, but %(decks)d decks hold only "
                    "%(most)d.",
                    "decks",
                ),
                team_fields=fields,
                cards=Phrase(_CLASS_TEXT[card]),
            )
        wild_supply = self.held(WILD_CLASSES)
        natural_supply = self.held(NATURAL_CLASSES)
        wilds = [size * t.wild_books + t.dirty_books for t in self.teams]
        naturals = [
            size * t.clean_books + (size - rules.max_wilds(size)) * t.dirty_books
            for t in self.teams
        ]
        if all(n <= natural_supply for n in naturals) and sum(naturals) <= natural_supply:
            self.books_of_one_rank()
        black = [size * t.black_three_books for t in self.teams]
        self._limit(
            "wild_books",
            wilds,
            wild_supply,
            NP_(
                "%(team)s's books need at least %(count)d wild cards, but %(decks)d deck holds "
                "only %(most)d.",
                "%(team)s's books need at least %(count)d wild cards, but %(decks)d decks hold "
                "only %(most)d.",
                "decks",
            ),
            NP_(
                "The teams' books need at least %(count)d wild cards together, but %(decks)d deck "
                "holds only %(most)d.",
                "The teams' books need at least %(count)d wild cards together, but %(decks)d decks "
                "hold only %(most)d.",
                "decks",
            ),
        )
        self._limit(
            "clean_books",
            naturals,
            natural_supply,
            NP_(
                "%(team)s's books need at least %(count)d natural cards, but %(decks)d deck holds "
                "only %(most)d.",
                "%(team)s's books need at least %(count)d natural cards, but %(decks)d decks hold "
                "only %(most)d.",
                "decks",
            ),
            NP_(
                "The teams' books need at least %(count)d natural cards together, but %(decks)d "
                "deck holds only %(most)d.",
                "The teams' books need at least %(count)d natural cards together, but %(decks)d "
                "decks hold only %(most)d.",
                "decks",
            ),
        )
        self._limit(
            "black_three_books",
            black,
            in_play[CardClass.BLACK_THREES],
            NP_(
                "%(team)s's black-three books need %(count)d black 3s, but %(decks)d deck holds "
                "only %(most)d.",
                "%(team)s's black-three books need %(count)d black 3s, but %(decks)d decks hold "
                "only %(most)d.",
                "decks",
            ),
            NP_(
                "The teams' black-three books need %(count)d black 3s together, but %(decks)d "
                "deck holds only %(most)d.",
                "The teams' black-three books need %(count)d black 3s together, but %(decks)d "
                "decks hold only %(most)d.",
                "decks",
            ),
        )
        if self.scarcity:
            self.books_beside_counted_cards()

    def books_beside_counted_cards(self) -> None:
        """Cards counted anywhere (left, or melded by count) are not in the books of a team
        that gave its melded cards as points: the books take what the decks hold besides."""
        if any(p.field.startswith(_CARD_FIELDS) for p in self.problems):
            return  # the cards do not add up already: one thing at a time
        size = self.rules.book_size
        by_points = [i for i, team in enumerate(self.teams) if not team.melded.counted]
        points = [self.teams[i] for i in by_points]
        for where, classes, need in (
            ("wild_books", WILD_CLASSES, sum(size * t.wild_books + t.dirty_books for t in points)),
            (
                "black_three_books",
                (CardClass.BLACK_THREES,),
                sum(size * t.black_three_books for t in points),
            ),
        ):
            counted = sum(
                t.melded.count(card) + t.left.count(card) for t in self.teams for card in classes
            )
            most = self.held(classes)
            if need and need + counted > most:
                self.fail(
                    None,
                    where,
                    NP_(
                        "The books entered as points need at least %(need)d %(cards)s, and "
                        "%(counted)d more are counted, %(count)d in all, but %(decks)d deck "
                        "holds only %(most)d.",
                        "The books entered as points need at least %(need)d %(cards)s, and "
                        "%(counted)d more are counted, %(count)d in all, but %(decks)d decks "
                        "hold only %(most)d.",
                        "decks",
                    ),
                    need=need,
                    counted=counted,
                    count=need + counted,
                    most=most,
                    cards=Phrase(_WILD_CARDS if where == "wild_books" else _CLASS_TEXT[classes[0]]),
                )
                return
        self.wild_cards_by_price(by_points)
        card_problems = any(p.field.startswith(_CARD_FIELDS) for p in self.problems)
        if len(self.teams) > 1 and not card_problems:
            values = self.rules.card_values
            melded = sum(t.melded.value(values, without=_BLACK) for t in self.teams)
            least = self.least_by_rank(range(len(self.teams)))
            if melded < least:
                self.short_ranks(None, melded, least)

    def short_ranks(self, index: int | None, melded: int, least: int) -> None:
        """The books of team ``index`` (or of all teams) are worth ``least`` at the least, the
        cheapest ranks run out: more than the ``melded`` cards are worth."""
        books_of = range(len(self.teams)) if index is None else [index]
        counted = sum(self.naturals_set_aside(books_of))
        # The rule of one meld of each rank is said when it is what raises the least.
        one_a_rank = (
            self.rules.one_meld_per_rank
            and self.least_by_rank(books_of, one_meld_a_rank=False) < least
        )
        self.fail(
            index,
            "melded",
            (_ONE_BOOK_A_RANK if one_a_rank else _SHORT_RANKS)[index is not None, counted > 0],
            melded=melded,
            most=SUITS * self.decks,
            least=least,
            counted=counted,
        )

    def wild_cards_by_price(self, by_points: Sequence[int]) -> None:
        """The least a wild book is worth takes the cheaper wild cards (2s): past the 2s the
        decks hold, its wild cards are the dearer jokers, and its least worth goes up."""
        values = self.rules.card_values
        cheap, dear = sorted(WILD_CLASSES, key=values.of)
        dearer = values.of(dear) - values.of(cheap)
        if dearer <= 0:
            return
        size = self.rules.book_size
        counted = sum(t.melded.count(cheap) + t.left.count(cheap) for t in self.teams)
        free = self.in_play[cheap] - counted
        cheap_needed = 0
        for i in by_points:
            team = self.teams[i]
            need = size * team.wild_books + team.dirty_books
            if not need:
                continue
            melded = team.melded.value(values)
            least = self.least_book_points(team)
            dear_needed = max(0, need - free)
            if melded < least + dearer * dear_needed:
                self.fail(
                    i,
                    "melded",
                    N_(
                        "%(team)s melded cards worth %(melded)d, but their books need %(need)d "
                        "wild cards and only %(free)d %(cheap)s are not counted elsewhere; with "
                        "%(dear)s for the rest, their books alone hold cards worth at least "
                        "%(least)d."
                    ),
                    melded=melded,
                    need=need,
                    free=free,
                    cheap=Phrase(_CLASS_TEXT[cheap]),
                    dear=Phrase(_CLASS_TEXT[dear]),
                    least=least + dearer * dear_needed,
                )
                return
            # The most dear cards its points leave room for; the rest of its wild cards are 2s.
            cheap_needed += max(0, need - (melded - least) // dearer)
        if cheap_needed > free:
            self.fail(
                None,
                "melded",
                N_(
                    "The teams' melded points leave room for so few %(dear)s that their books "
                    "need at least %(count)d %(cheap)s together, but only %(free)d %(cheap)s are "
                    "not counted elsewhere."
                ),
                count=cheap_needed,
                free=free,
                cheap=Phrase(_CLASS_TEXT[cheap]),
                dear=Phrase(_CLASS_TEXT[dear]),
            )

    def books_of_one_rank(self) -> None:
        """Every book of natural cards is of one rank, and the decks hold so many of each."""
        size = self.rules.book_size
        per_rank = SUITS * self.decks
        dirty_needs = size - self.rules.max_wilds(size)

        def fit(clean: int, dirty: int) -> bool:
            return books_fit(clean, dirty, per_rank, size, dirty_needs)

        over = [i for i, t in enumerate(self.teams) if not fit(t.clean_books, t.dirty_books)]
        for i in over:
            team = self.teams[i]
            self.fail(
                i,
                "clean_books",
                NP_(
                    "%(team)s reports %(clean)d clean and %(dirty)d dirty books, but they cannot "
                    "all be made: a book is of one rank, and %(decks)d deck holds only %(most)d "
                    "cards of each rank.",
                    "%(team)s reports %(clean)d clean and %(dirty)d dirty books, but they cannot "
                    "all be made: a book is of one rank, and %(decks)d decks hold only %(most)d "
                    "cards of each rank.",
                    "decks",
                ),
                clean=team.clean_books,
                dirty=team.dirty_books,
                most=per_rank,
            )
        clean = sum(t.clean_books for t in self.teams)
        dirty = sum(t.dirty_books for t in self.teams)
        if not over and not fit(clean, dirty):
            self.fail(
                None,
                "clean_books",
                NP_(
                    "The teams report %(clean)d clean and %(dirty)d dirty books together, but "
                    "they cannot all be made: a book is of one rank, and %(decks)d deck holds "
                    "only %(most)d cards of each rank.",
                    "The teams report %(clean)d clean and %(dirty)d dirty books together, but "
                    "they cannot all be made: a book is of one rank, and %(decks)d decks hold "
                    "only %(most)d cards of each rank.",
                    "decks",
                ),
                clean=clean,
                dirty=dirty,
                most=per_rank,
            )

    def _limit(
        self,
        where: str,
        needs: list[int],
        most: int,
        one: Template,
        together: Template,
        team_fields: Sequence[str] = (),
        **params: Any,
    ) -> None:
        """Report each team over ``most`` (at its own field, if given), else all teams together."""
        over = [i for i, need in enumerate(needs) if need > most]
        for i in over:
            field = team_fields[i] if team_fields else where
            self.fail(i, field, one, count=needs[i], most=most, **params)
        if not over and sum(needs) > most:
            self.fail(None, where, together, count=sum(needs), most=most, **params)


def _checker(
    rules: RuleSet,
    deal_number: int,
    teams: Sequence[TeamTally],
    decks: int | None,
    team_sizes: Sequence[int] | None,
    scarcity: bool = True,
) -> _Checker | None:
    """The checker of a deal, or None when the deal is outside the game."""
    if team_sizes is not None and len(team_sizes) != len(teams):
        raise ValueError(f"{len(team_sizes)} team sizes for {len(teams)} teams")
    if not 1 <= deal_number <= rules.deal_count:
        return None
    decks = decks or default_decks(rules, len(teams))
    return _Checker(rules, deal_number, teams, decks, team_sizes, scarcity)


def deal_hints(
    rules: RuleSet,
    deal_number: int,
    teams: Sequence[TeamTally],
    team_sizes: Sequence[int] | None = None,
) -> list[Problem]:
    """What looks forgotten in a deal the rules allow, for the table to check before saving
    (nothing is refused for it): a team whose players still hold cards with none reported
    left, the commonest slip at the table, or a team that melded nothing with fewer cards left
    than its feet, never picked up, hold. ``team_sizes`` as for :func:`validate_deal`."""
    checker = _checker(rules, deal_number, teams, None, team_sizes)
    if checker is None:
        return []
    for i, team in enumerate(teams):
        checker.cards_still_held(i, team)
    return checker.problems


def validate_deal(
    rules: RuleSet,
    deal_number: int,
    teams: Sequence[TeamTally],
    decks: int | None = None,
    team_sizes: Sequence[int] | None = None,
    *,
    scarcity: bool = True,
) -> list[Problem]:
    """Every problem in a deal's tally under ``rules``; an empty list when it is possible.

    ``team_sizes`` (players per team, in team order) is how the game is seated; without it,
    each team is taken to have as many players as these rules seat in one team at most.
    ``scarcity``: whether books entered as points are checked against what runs short in the
    decks (the 2s, the ranks from 4 to 7, the cards counted elsewhere), as since 2026-12-04;
    without it, as every version before checked them (an import of their exports), nor are
    melded cards counted by class checked rank by rank (as since 2026-12-07).
    """
    checker = _checker(rules, deal_number, teams, decks, team_sizes, scarcity)
    if checker is None:
        return [
            Problem(
                None,
                "deal",
                NP_(
                    "Deal %(deal)d is outside a game of %(deals)d deal.",
                    "Deal %(deal)d is outside a game of %(deals)d deals.",
                    "deals",
                ),
                {"deal": deal_number, "deals": rules.deal_count},
            )
        ]
    for i, team in enumerate(teams):
        checker.team(i, team)
    checker.whole_deal()
    return checker.problems
