"""Hearts rules engine: pure Python, standard library only (see README.md beside this file)."""

from .bots import BaselineBot, RandomBot, moon_choice, play_hand, random_playout
from .cards import CARDS, Card, cards_from_mask, mask_of, parse_cards
from .deal import Deal
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
from .record import moon_decision, pass_decision, play_decision, replay
from .rules import RuleSet
from .search import LEVELS, SearchBot, bot_for_level
from .state import FINISHED, HAND_OVER, MOON, PASSING, PHASES, PLAYING, Match, ScoreRow
from .views import CardOption, HandRecord, PlayedCard, PublicView, SeatView, TrickView

__all__ = [
    "CARDS",
    "FINISHED",
    "HAND_OVER",
    "LEVELS",
    "MOON",
    "PASSING",
    "PHASES",
    "PLAYING",
    "BadCard",
    "BadDeal",
    "BadDecision",
    "BadMoonChoice",
    "BadPass",
    "BadRules",
    "BadSnapshot",
    "BaselineBot",
    "Card",
    "CardNotHeld",
    "CardOption",
    "Deal",
    "EngineError",
    "HandRecord",
    "IllegalMove",
    "Match",
    "NotYourTurn",
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
    "mask_of",
    "moon_choice",
    "moon_decision",
    "parse_cards",
    "pass_decision",
    "play_decision",
    "play_hand",
    "random_playout",
    "replay",
]
