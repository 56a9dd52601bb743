"""Engine states kept between moves in this process, so that a move seldom rebuilds its state.

Rebuilding a match from its snapshot replays the hand so far through the checked door (about
a twentieth of a move's time). The state each committed move leaves behind is kept here with
the snapshot it was saved as; the next move on the match, if the stored snapshot is still
exactly that one, starts from a copy of it instead. Any change the snapshot does not show
cannot matter: the snapshot alone determines the state (`engine.Match.from_snapshot`). A
change made elsewhere (another process, the admin) changes the snapshot, and the state is
rebuilt from it as before.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games import engine
from games.services.recent import Recent

# Enough for every match in play on a busy site; a state is a few kilobytes. The setting
# ENGINE_STATES_KEPT (0 keeps none: every move rebuilds its state) overrides it.
LIMIT = 5000

# A snapshot is the engine's JSON form of a match (`engine.Match.snapshot`).
_states: Recent[int, tuple[dict[str, Any], engine.Match]] = Recent()


def load(match_id: int, snapshot: dict[str, Any]) -> engine.Match:
    """Return the match's engine state for this snapshot: a copy of the kept one, or rebuilt."""
    kept = _states.get(match_id)
    if kept is not None and kept[0] == snapshot:
        return kept[1].copy()
    return engine.Match.from_snapshot(snapshot)


def keep(match_id: int, snapshot: dict[str, Any], state: engine.Match) -> None:
    """Remember the state a committed move saved as `snapshot` (never changed afterwards)."""
    _states.put(match_id, (snapshot, state), getattr(settings, "ENGINE_STATES_KEPT", LIMIT))


def forget() -> None:
    """Forget every kept state."""
    _states.clear()
