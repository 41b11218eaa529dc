"""Properties that hold for any tally, any preset and any input, however odd."""

from __future__ import annotations

import json
from collections import Counter
from random import Random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    BOUNDS,
    BREAKDOWN_KEYS,
    PRESETS,
    CardClass,
    Cards,
    PlayStyle,
    RuleSet,
    RuleSetError,
    TallyError,
    TeamTally,
    read_team,
    read_teams,
    score_team,
    validate_deal,
)


def bounded(key: str) -> st.SearchStrategy[int]:
    low, high = BOUNDS[key]
    return st.integers(low, high)


# The presets, and house rules that reach what no preset has: special books, five deals,
# eleven-card books that may grow, jesters (2s) worth 25.
HOUSE_RULES = [
    PRESETS["standard"].derive(
        {
            "special_books": [
                {"id": "sevens", "name": "Sevens", "bonus": 1000, "min_points": 35,
                 "counts_as": "clean"},
                {"id": "red-threes", "name": "Red threes", "bonus": 500},
            ],
            "deal_count": 5,
            "opening_minimums": [60, 90, 120, 150, 200],
        },
        id="house",
        name="House rules",
    ),
    PRESETS["eleven-card"].derive(
        {"books_may_grow": True, "card_values": {"twos": 25}}, id="grow", name="Growing books"
    ),
    # Wild cards cheaper than every natural card: a dirty book is cheapest with the most.
    PRESETS["standard"].derive(
        {"card_values": {"twos": 5, "jokers": 10, "fours_to_sevens": 10}},
        id="cheap", name="Cheap wild cards",
    ),
]  # fmt: skip
rulesets = st.sampled_from([*PRESETS.values(), *HOUSE_RULES])

card_counts = st.builds(
    Cards.of_counts,
    st.fixed_dictionaries({card: bounded("cards") for card in CardClass}),
)
card_points = st.builds(Cards, points=bounded("points"))
# Mostly small numbers, as at a real table, but now and then anything within the bounds.
small_counts = st.builds(
    Cards.of_counts,
    st.fixed_dictionaries({card: st.integers(0, 12) for card in CardClass}),
)
small_points = st.builds(Cards, points=st.integers(0, 400).map(lambda n: n * 5))
cards = st.one_of(small_points, small_counts, card_points, card_counts)


def book_count(key: str) -> st.SearchStrategy[int]:
    return st.one_of(st.integers(0, 5), bounded(key))


tallies = st.builds(
    TeamTally,
    name=st.one_of(st.just(""), st.text(max_size=20).map(str.strip)),
    clean_books=book_count("clean_books"),
    dirty_books=book_count("dirty_books"),
    wild_books=book_count("wild_books"),
    black_three_books=book_count("black_three_books"),
    special_books=st.dictionaries(
        st.sampled_from(["sevens", "red-threes", "unknown"]), bounded("special_books"), max_size=2
    ),
    red_threes=book_count("red_threes"),
    red_threes_caught=book_count("red_threes_caught"),
    melded=cards,
    left=cards,
    went_out=st.booleans(),
    opening_meld=st.one_of(st.none(), bounded("opening_meld")),
    exact_draws=bounded("exact_draws"),
)

deal_numbers = st.integers(-2, 7)
decks = st.one_of(st.none(), bounded("decks"))

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-10, 600),
    st.floats(),
    st.text(max_size=12),
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(st.text(max_size=8), children, max_size=3),
    ),
    max_leaves=6,
)

TEAM_KEYS = [*TeamTally().to_json(), "nonsense"]
CARD_KEYS = [card.value for card in CardClass] + ["queens"]
# Garbage shaped like a tally, so that it reaches every branch of the reader.
tally_shaped = st.dictionaries(
    st.sampled_from(TEAM_KEYS),
    st.one_of(
        json_scalars,
        json_values,
        st.dictionaries(st.sampled_from(CARD_KEYS), json_scalars, max_size=4),
    ),
    max_size=6,
)


@given(rulesets, tallies)
def test_the_breakdown_always_adds_up_to_the_score(rules: RuleSet, team: TeamTally) -> None:
    score = score_team(rules, team)
    assert tuple(score.breakdown) == BREAKDOWN_KEYS
    assert sum(score.breakdown.values()) == score.score


@given(rulesets, deal_numbers, st.lists(tallies, max_size=BOUNDS["teams"][1]), decks)
def test_validation_never_raises_and_every_problem_reads_as_words(
    rules: RuleSet, deal: int, teams: list[TeamTally], deck_count: int | None
) -> None:
    problems = validate_deal(rules, deal, teams, deck_count)
    if not 1 <= deal <= rules.deal_count:
        assert [p.field for p in problems] == ["deal"]
    for problem in problems:
        assert problem.team is None or 0 <= problem.team < len(teams)
        assert problem.field
        message = problem.message
        assert message
        for team in teams:  # a team's own name may hold anything
            message = message.replace(team.name, "") if team.name else message
        assert "%(" not in message
        json.dumps(problem.to_dict())


@given(tallies)
def test_a_tally_round_trips_through_its_json_form(team: TeamTally) -> None:
    assert read_team(json.loads(json.dumps(team.to_json()))) == team


@given(st.one_of(json_values, tally_shaped))
def test_reading_a_team_from_garbage_returns_a_tally_or_raises_tally_error(data: Any) -> None:
    try:
        team = read_team(data, 0)
    except TallyError as error:
        assert error.problems
        for problem in error.problems:
            assert problem.team == 0
            assert problem.message
    else:
        assert isinstance(team, TeamTally)


@given(st.one_of(json_values, st.lists(st.one_of(tally_shaped, json_scalars), max_size=9)))
def test_reading_teams_from_garbage_returns_tallies_or_raises_tally_error(data: Any) -> None:
    try:
        teams = read_teams(data)
    except TallyError as error:
        assert error.problems
        assert all(problem.message for problem in error.problems)
    else:
        assert all(isinstance(team, TeamTally) for team in teams)


# --- rulesets ---------------------------------------------------------------------------

INT_RULES = [
    "clean_book_bonus",
    "dirty_book_bonus",
    "black_three_book_bonus",
    "red_three_bonus",
    "red_three_penalty",
    "going_out_bonus",
    "exact_draw_bonus",
]
BOOL_RULES = [
    "alone_when_unpaired",
    "books_may_grow",
    "one_meld_per_rank",
    "black_three_books",
    "red_threes_laid",
    "partner_in_foot_to_go_out",
    "permission_to_go_out",
    "must_discard_to_go_out",
]


@st.composite
def valid_overrides(draw: st.DrawFn, base: RuleSet) -> dict[str, Any]:
    """House-rule overrides that make sense on ``base``."""
    overrides: dict[str, Any] = {}
    for key in draw(st.lists(st.sampled_from(INT_RULES), unique=True, max_size=4)):
        overrides[key] = draw(st.integers(0, 10_000))
    for key in draw(st.lists(st.sampled_from(BOOL_RULES), unique=True, max_size=3)):
        overrides[key] = draw(st.booleans())
    if draw(st.booleans()):
        overrides["card_values"] = draw(
            st.dictionaries(st.sampled_from(CARD_KEYS[:-1]), st.integers(1, 1000), max_size=3)
        )
    if draw(st.booleans()):
        count = draw(st.integers(1, 12))
        overrides["deal_count"] = count
        overrides["opening_minimums"] = draw(
            st.lists(st.integers(0, 5000), min_size=count, max_size=count)
        )
    if draw(st.booleans()):
        wild = st.integers(0, 20) if base.wild_books else st.just(0)
        go_out = st.fixed_dictionaries(
            {"clean": st.integers(0, 20), "dirty": st.integers(0, 20), "wild": wild}
        )
        overrides["deals"] = draw(st.lists(st.fixed_dictionaries({"go_out": go_out}), max_size=12))
        if overrides.get("one_meld_per_rank", base.one_meld_per_rank):
            # One meld of each rank: no more books to go out than the 11 ranks, 4 to ace.
            for deal in overrides["deals"]:
                deal["go_out"]["clean"] = min(deal["go_out"]["clean"], 11)
                deal["go_out"]["dirty"] = min(deal["go_out"]["dirty"], 11 - deal["go_out"]["clean"])
        if not overrides["deals"]:
            del overrides["deals"]
        elif "opening_minimums" in overrides:
            del overrides["deal_count"]
            overrides["opening_minimums"] = overrides["opening_minimums"][:1] * len(
                overrides["deals"]
            )
    if draw(st.booleans()):
        kinds = ["clean", "dirty", *(["wild"] if base.wild_books else []), None]
        overrides["special_books"] = draw(
            st.lists(
                st.fixed_dictionaries(
                    {
                        "id": st.sampled_from(["sevens", "aces", "red-threes", "canasta-5"]),
                        "name": st.sampled_from(["Sevens", "Book of aces", "Ladies' book"]),
                        "bonus": st.integers(0, 10_000),
                        "min_points": st.integers(0, 5000),
                        "counts_as": st.sampled_from(kinds),
                    }
                ),
                max_size=3,
                unique_by=lambda book: book["id"],
            )
        )
    return overrides


@given(st.data())
def test_valid_house_rules_round_trip_through_json(data: st.DataObject) -> None:
    base = data.draw(rulesets)
    overrides = data.draw(valid_overrides(base))
    rules = base.derive(json.loads(json.dumps(overrides)), id="table", name="Our table")
    assert rules.based_on == base.id
    for key in INT_RULES + BOOL_RULES:
        if key in overrides:
            assert getattr(rules, key) == overrides[key]
    if "opening_minimums" in overrides:
        assert list(rules.opening_minimums) == overrides["opening_minimums"]
    again = RuleSet.from_dict(json.loads(json.dumps(rules.to_dict())))
    assert again == rules
    assert again.derive({}) == rules


RULE_KEYS = [*PRESETS["standard"].to_dict(), "deal_count", "opening_minimums", "nonsense"]
ruleset_shaped = st.dictionaries(st.sampled_from(RULE_KEYS), json_values, max_size=8)


@given(rulesets, st.one_of(ruleset_shaped, json_values))
def test_odd_house_rules_are_refused_with_rule_set_error_only(base: RuleSet, data: Any) -> None:
    try:
        rules = base.derive(data)
    except RuleSetError as error:
        assert error.problems
        assert all(problem.message for problem in error.problems)
    else:
        assert RuleSet.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


@given(st.one_of(ruleset_shaped, json_values))
def test_a_ruleset_from_garbage_is_refused_with_rule_set_error_only(data: Any) -> None:
    try:
        RuleSet.from_dict(data)
    except RuleSetError as error:
        assert error.problems


# --- deals that really happened are never refused ----------------------------------------

# The natural ranks: ace, 8 to king, 4 to 7.
RANKS = (
    [CardClass.ACES] + [CardClass.EIGHTS_TO_KINGS] * 6 + [CardClass.FOURS_TO_SEVENS] * 4
)  # fmt: skip
WILDS = (CardClass.JOKERS, CardClass.TWOS)


class Stock:
    """The cards of ``decks`` decks, handed out meld by meld."""

    def __init__(self, decks: int, rng: Random) -> None:
        self.rng = rng
        self.ranks = [4 * decks] * len(RANKS)
        self.wilds = {CardClass.JOKERS: 2 * decks, CardClass.TWOS: 4 * decks}
        self.black_threes = 2 * decks
        self.red_threes = 2 * decks

    def meld(self, rank: int | None, naturals: int, wilds: int) -> Counter[CardClass]:
        """Take a meld of one rank with these wild cards, or nothing if the stock is short."""
        have = self.ranks[rank] if rank is not None else 0
        if have < naturals or sum(self.wilds.values()) < wilds:
            return Counter()
        twos = self.wilds[CardClass.TWOS]
        jokers = self.rng.randint(max(0, wilds - twos), min(wilds, self.wilds[CardClass.JOKERS]))
        cards = Counter({CardClass.JOKERS: jokers, CardClass.TWOS: wilds - jokers})
        if rank is not None:
            self.ranks[rank] -= naturals
            cards[RANKS[rank]] += naturals
        self.wilds[CardClass.JOKERS] -= jokers
        self.wilds[CardClass.TWOS] -= wilds - jokers
        return cards

    def give_back(self, melds: list[tuple[int | None, Counter[CardClass]]]) -> None:
        for rank, cards in melds:
            if rank is not None:
                self.ranks[rank] += cards[RANKS[rank]]
            for wild in WILDS:
                self.wilds[wild] += cards[wild]
            self.black_threes += cards[CardClass.BLACK_THREES]

    def hand(self) -> Counter[CardClass]:
        """A few cards that stayed in a hand or a foot."""
        left: Counter[CardClass] = Counter()
        for _ in range(self.rng.randint(0, 16)):
            pick = self.rng.randrange(len(RANKS) + 3)
            if pick < len(RANKS):
                if self.ranks[pick]:
                    self.ranks[pick] -= 1
                    left[RANKS[pick]] += 1
            elif pick < len(RANKS) + 2:
                wild = WILDS[pick - len(RANKS)]
                if self.wilds[wild]:
                    self.wilds[wild] -= 1
                    left[wild] += 1
            elif self.black_threes:
                self.black_threes -= 1
                left[CardClass.BLACK_THREES] += 1
        return left


def team_at_the_table(
    rules: RuleSet,
    deal: int,
    stock: Stock,
    team_size: int,
    goes_out: bool,
    *,
    crowded: bool = False,
) -> TeamTally:
    """One team's tally, built from melds it could really have laid; ``crowded``: many books,
    mostly of the cheapest ranks and of wild cards, until the decks run short of them."""
    rng = stock.rng
    grow = rules.books_may_grow
    melds: list[tuple[int | None, Counter[CardClass]]] = []
    books: Counter[str] = Counter()
    unfinished: set[int | None] = set()  # one unfinished meld a rank; None: of wild cards
    taken: set[int | str] = set()  # with one meld of each rank: the ranks melded so far
    kinds = ["clean", "dirty", "meld"]
    kinds += ["wild", "wild meld"] if rules.wild_books else []
    kinds += ["black three", "black meld"] if rules.black_three_books else []
    for _ in range(rng.randint(0, 30 if crowded else 9)):
        kind = rng.choice(kinds)
        size = rng.randint(7, 9) if grow else 7
        rank: int | None = rng.randrange(len(RANKS))
        if crowded and rng.random() < 0.7:
            rank = rng.randrange(len(RANKS) - 4, len(RANKS))  # 4 to 7
            kind = rng.choice([*kinds, "clean", "wild"] if rules.wild_books else kinds)
        cards: Counter[CardClass] = Counter()
        key: int | str = "black three" if "black" in kind else "wild" if "wild" in kind else rank
        if rules.one_meld_per_rank and key in taken:
            continue
        if kind == "clean":
            cards = stock.meld(rank, size, 0)
        elif kind == "dirty" and rules.max_wilds(size):
            wilds = rng.randint(1, rules.max_wilds(size))
            cards = stock.meld(rank, size - wilds, wilds)
        elif kind == "wild":
            rank = None
            cards = stock.meld(None, 0, size)
        elif kind == "black three" and stock.black_threes >= size:
            rank = None
            stock.black_threes -= size
            cards = Counter({CardClass.BLACK_THREES: size})
        elif kind == "black meld" and -1 not in unfinished:
            # One unfinished meld of black 3s at most (none beside a book that may grow: the
            # book would hold them).
            total = rng.randint(3, rules.book_size - 1)
            if stock.black_threes >= total and not (grow and books["black three"]):
                rank = None
                stock.black_threes -= total
                cards = Counter({CardClass.BLACK_THREES: total})
                unfinished.add(-1)
        elif kind == "meld" and rank not in unfinished:
            total = rng.randint(3, 6)
            wilds = rng.randint(0, rules.max_wilds(total))
            cards = stock.meld(rank, total - wilds, wilds)
            unfinished.add(rank)
        elif kind == "wild meld" and None not in unfinished:
            rank = None
            cards = stock.meld(None, 0, rng.randint(3, 6))
            unfinished.add(None)
        if cards:
            melds.append((rank, cards))
            books[kind] += 1
            taken.add(key)
    melded = sum((cards for _, cards in melds), Counter[CardClass]())
    values = rules.card_values
    worth = values.total({c: n for c, n in melded.items() if c is not CardClass.BLACK_THREES})
    rule = rules.deal(deal)
    if (rule.opening_needs_concealed_book and worth and not books.keys() & {"clean", "dirty"}) or (
        not rule.opening_needs_concealed_book and 0 < worth < rule.opening_minimum
    ):
        # This team never got down: its cards go back.
        stock.give_back(melds)
        melded, books, worth = Counter(), Counter(), 0
    need = rule.go_out
    went_out = (
        goes_out
        and books["clean"] >= need.clean
        and books["dirty"] >= need.dirty
        and books["wild"] >= need.wild
    )
    alone = team_size == 1
    left = Counter[CardClass]() if went_out and alone else stock.hand()
    laid = rng.randint(0, min(3, stock.red_threes)) if rules.red_threes_laid else 0
    stock.red_threes -= laid
    may_catch = not (went_out and (alone or rules.partner_in_foot_to_go_out))
    caught = rng.randint(0, min(2, stock.red_threes)) if may_catch else 0
    stock.red_threes -= caught
    opening = None
    if worth and not rule.opening_needs_concealed_book and rng.random() < 0.5:
        lowest = -(-rule.opening_minimum // 5)
        opening = rng.randint(lowest, worth // 5) * 5
    counted = rng.random() < 0.5
    # Cards left are counted or not, whichever way the melded cards were given.
    left_counted = counted if not crowded else rng.random() < 0.5
    return TeamTally(
        clean_books=books["clean"],
        dirty_books=books["dirty"],
        wild_books=books["wild"],
        black_three_books=books["black three"],
        red_threes=laid,
        red_threes_caught=caught,
        melded=Cards.of_counts(melded) if counted else Cards(points=worth),
        left=Cards.of_counts(left) if left_counted else Cards(points=values.total(left)),
        went_out=went_out,
        opening_meld=opening,
        exact_draws=rng.randint(0, team_size) if rules.exact_draw_bonus else 0,
    )


def a_possible_deal(
    rules: RuleSet, rng: Random, *, crowded: bool = False
) -> tuple[int, list[TeamTally], int]:
    """A deal number, the tallies of a deal that could really have been played, and the decks
    (``crowded``: fewer decks, and teams that lay many books of what runs short first)."""
    deal = rng.randint(1, rules.deal_count)
    if rules.play_style is PlayStyle.INDIVIDUALS:
        team_count, team_size = rng.randint(2, 6), 1
    else:
        team_count, team_size = rng.choice(rules.seatings(rng.choice([4, 6])))
    decks = rules.decks_for(team_count * team_size)
    if crowded:
        decks = rng.randint(1, decks)
    stock = Stock(decks, rng)
    out = rng.choice([None, *range(team_count)])
    teams = [
        team_at_the_table(rules, deal, stock, team_size, goes_out=i == out, crowded=crowded)
        for i in range(team_count)
    ]
    return deal, teams, decks


@given(rulesets, st.randoms(use_true_random=True))
def test_a_deal_that_could_really_have_been_played_is_never_refused(
    rules: RuleSet, rng: Random
) -> None:
    deal, teams, decks = a_possible_deal(rules, rng)
    problems = validate_deal(rules, deal, teams, decks)
    assert [problem.message for problem in problems] == [], (deal, decks, teams)


@settings(max_examples=400)
@given(rulesets, st.randoms(use_true_random=True))
def test_a_crowded_deal_that_could_really_have_been_played_is_never_refused(
    rules: RuleSet, rng: Random
) -> None:
    # Where the 2s, the ranks from 4 to 7 and the black 3s run out, the least books are worth
    # goes up: a real deal is still never refused.
    deal, teams, decks = a_possible_deal(rules, rng, crowded=True)
    problems = validate_deal(rules, deal, teams, decks)
    assert [problem.message for problem in problems] == [], (deal, decks, teams)
