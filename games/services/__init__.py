"""The only code that changes a match: each action is one transaction on a locked match row."""

from games.services import challenges
from games.services.errors import (
    ActionRefused,
    BadInput,
    Conflict,
    IllegalPlay,
    NotAllowed,
    NotFound,
    StaleVersion,
    TooManyOpen,
)
from games.services.lobby import (
    add_bot,
    create_match,
    join_match,
    leave_match,
    remove_bot,
    start_match,
    start_seated_match,
)
from games.services.match_options import MatchOptions
from games.services.play import choose_moon, pass_cards, play_card, resign
from games.services.replay import log_matches_snapshot, replay_match
from games.services.table import Changed

__all__ = [
    "ActionRefused",
    "BadInput",
    "Changed",
    "Conflict",
    "IllegalPlay",
    "MatchOptions",
    "NotAllowed",
    "NotFound",
    "StaleVersion",
    "TooManyOpen",
    "add_bot",
    "challenges",
    "choose_moon",
    "create_match",
    "join_match",
    "leave_match",
    "log_matches_snapshot",
    "pass_cards",
    "play_card",
    "remove_bot",
    "replay_match",
    "resign",
    "start_match",
    "start_seated_match",
]
