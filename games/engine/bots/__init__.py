"""The bots' room: the baseline and random bots, the search levels and what they are made of.

Everything here reads a `SeatView` or plays a `Match` through its doors; nothing in the rules'
room (`games.engine`'s own modules) imports it. `bots.py` is the baseline, `search.py` the
search levels, with `sampling.py` and `cancellation_sampling.py` (deals a seat cannot rule
out), `playout.py` and `cancellation_playout.py` (finishing a hand on bit masks) and
`passing.py` (the search bot's pass); `bench.py` times the engine with these players.
"""

from .bots import BaselineBot, Bot, RandomBot, moon_choice, play_hand, random_playout
from .search import LEVELS, SearchBot, bot_for_level

__all__ = [
    "LEVELS",
    "BaselineBot",
    "Bot",
    "RandomBot",
    "SearchBot",
    "bot_for_level",
    "moon_choice",
    "play_hand",
    "random_playout",
]
