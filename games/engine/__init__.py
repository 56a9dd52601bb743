"""Hearts rules engine: pure Python, standard library only (see README.md beside this file)."""

# Importing the package imports every module that registers itself with state.py (the variant,
# the views, the record), so that Match works fully whichever engine module a caller names.
from . import cancellation_views as cancellation_views
from . import viewing as viewing
from .bots import (
    LEVELS,
    BaselineBot,
    RandomBot,
    SearchBot,
    bot_for_level,
    moon_choice,
    play_hand,
    random_playout,
)
from .cancellation import CancellationMatch, winner_of_trick
from .cards import ALL_CARDS, CARDS, SECOND_COPIES, Card, cards_from_mask, mask_of, parse_cards
from .deal import Deal
from .decisions import Decision, MoonChoice, Pass, Play
from .errors import (
    BadCard,
    BadDeal,
    BadDecision,
    BadMoonChoice,
    BadPass,
    BadRules,
    BadSnapshot,
    CardNotHeld,
    EngineError,
    IllegalMove,
    NotYourTurn,
    WrongPhase,
)
from .outcome import Outcome, places_by_total
from .phases import Phase
from .record import moon_decision, pass_decision, play_decision, replay
from .rules import (
    BONUS_CARDS,
    CANCELLATION,
    MAX_TABLE,
    OMNIBUS,
    STANDARD,
    VARIANTS,
    RuleSet,
    check_players,
    players_allowed,
)
from .state import FINISHED, HAND_OVER, MOON, PASSING, PHASES, PLAYING, Match, ScoreRow
from .views import CardOption, HandRecord, PlayedCard, PublicView, SeatView, TrickView

__all__ = [
    "Play",
    "Pass",
    "MoonChoice",
    "Decision",
    "ALL_CARDS",
    "BONUS_CARDS",
    "CANCELLATION",
    "CARDS",
    "FINISHED",
    "HAND_OVER",
    "LEVELS",
    "MAX_TABLE",
    "MOON",
    "OMNIBUS",
    "PASSING",
    "PHASES",
    "PLAYING",
    "SECOND_COPIES",
    "STANDARD",
    "VARIANTS",
    "BadCard",
    "BadDeal",
    "BadDecision",
    "BadMoonChoice",
    "BadPass",
    "BadRules",
    "BadSnapshot",
    "BaselineBot",
    "CancellationMatch",
    "Card",
    "CardNotHeld",
    "CardOption",
    "Deal",
    "EngineError",
    "HandRecord",
    "IllegalMove",
    "Match",
    "NotYourTurn",
    "Outcome",
    "places_by_total",
    "Phase",
    "PlayedCard",
    "PublicView",
    "RandomBot",
    "RuleSet",
    "ScoreRow",
    "SearchBot",
    "SeatView",
    "TrickView",
    "WrongPhase",
    "bot_for_level",
    "cards_from_mask",
    "check_players",
    "mask_of",
    "moon_choice",
    "moon_decision",
    "parse_cards",
    "pass_decision",
    "play_decision",
    "play_hand",
    "players_allowed",
    "random_playout",
    "replay",
    "winner_of_trick",
]
