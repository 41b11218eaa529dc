"""The rules of Hand and Foot as data, and scoring and validating a deal by them.

Standard library only: no framework, no I/O, no clock.

Glossary (the names this code uses, from the game itself):

- **game**: a fixed number of *deals* (four in every seed); the team with most points wins.
- **deal**: one scoring round, from dealing the cards to someone going out or the stock
  running out. Never called a "hand".
- **hand** / **foot**: the two packets every player is dealt; the hand is played first,
  the foot picked up when the hand is empty.
- **team**: a partnership, or a single player in individual play (a team of one).
- **meld**: three or more cards of one rank (4 to ace) on the table; **wild cards** are
  jokers and 2s, **natural cards** everything from 4 to ace.
- **book** (Saskatchewan: *canasta*): a completed meld of seven cards. **clean**: no wild
  card; **dirty**: one or more wild cards; **wild**: wild cards only. Some rules add
  **black-three books** and house **special books**.
- **red three**: laid face up at once for a bonus; one **caught** (still hidden in a foot
  never picked up when the deal ends) costs a penalty.
- **black three**: only ever discarded to block the pile; one left costs its value.
- **opening meld**: a team's first meld in a deal; its card values must reach the deal's
  **opening minimum** (50 / 90 / 120 / 150).
- **going out**: a player empties hand and foot, which ends the deal; allowed only with the
  books the deal requires. When the **stock runs out** nobody goes out.
- **exact draw**: picking up exactly the right number of cards at the deal (Simpson: 22).
- **RuleSet**: one house-rule system as data; the **presets** are the seeds' systems.

The same words in German, Dutch, French and Danish, as each seed says them, are listed in
``docs/glossary/``; the translations use those and only those.
"""

from .cards import CARD_CLASS_LABELS, CardClass, CardValues, cards_in_play, red_threes_in_play
from .presets import PRESETS
from .problems import Problem
from .ruleset import (
    BookCount,
    BookKind,
    DealRule,
    PlayStyle,
    RuleSet,
    RuleSetError,
    SpecialBook,
    WildLimit,
    check_ruleset,
)
from .scoring import BREAKDOWN_KEYS, TeamScore, score_deal, score_team
from .tally import BOUNDS, Cards, TallyError, TeamTally, read_kept, read_team, read_teams
from .validation import deal_hints, default_decks, team_label, team_phrase, validate_deal

__all__ = [
    "BOUNDS",
    "BREAKDOWN_KEYS",
    "CARD_CLASS_LABELS",
    "PRESETS",
    "BookCount",
    "BookKind",
    "CardClass",
    "CardValues",
    "Cards",
    "DealRule",
    "PlayStyle",
    "Problem",
    "RuleSet",
    "RuleSetError",
    "SpecialBook",
    "TallyError",
    "TeamScore",
    "TeamTally",
    "WildLimit",
    "cards_in_play",
    "check_ruleset",
    "deal_hints",
    "default_decks",
    "read_kept",
    "read_team",
    "read_teams",
    "red_threes_in_play",
    "score_deal",
    "score_team",
    "team_label",
    "team_phrase",
    "validate_deal",
]
