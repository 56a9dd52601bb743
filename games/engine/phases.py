"""The phases a match goes through (R6.1): a module of its own, so any module may name them.

`Phase` is a `StrEnum`: each member *is* its string ("passing", …), so comparisons with plain
strings, JSON snapshots stored before the enum existed and templates all see the same values.
The module-level names (`PASSING` …, `PHASES`) are the members themselves, kept for callers.

>>> Phase("hand_over") is HAND_OVER
True
>>> PLAYING == "playing", str(MOON)
(True, 'moon')
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where a match stands; the value is what snapshots store."""

    PASSING = "passing"  # every seat chooses the cards it passes (R2)
    PLAYING = "playing"  # tricks (R3)
    MOON = "moon"  # an "ask" match waits for the shooter's choice (R4.3)
    HAND_OVER = "hand_over"  # waiting for the next deal, also before hand 1
    FINISHED = "finished"  # the match is over (R4.5, R4.7)


PASSING = Phase.PASSING
PLAYING = Phase.PLAYING
MOON = Phase.MOON
HAND_OVER = Phase.HAND_OVER
FINISHED = Phase.FINISHED
PHASES = tuple(Phase)
