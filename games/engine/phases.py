"""The phases a match goes through (R6.1): a module of its own, so any module may name them.

`passing` (every seat chooses its cards), `playing`, `moon` (an "ask" match waits for the
shooter's choice), `hand_over` (waiting for the next deal, also before hand 1) and `finished`.
The values are the strings stored in snapshots and shown to templates.
"""

from __future__ import annotations

PASSING, PLAYING, MOON, HAND_OVER, FINISHED = "passing", "playing", "moon", "hand_over", "finished"
PHASES = (PASSING, PLAYING, MOON, HAND_OVER, FINISHED)
