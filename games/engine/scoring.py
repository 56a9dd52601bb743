"""A hand's scores from the points taken: the moon rule (R4.3), then the Omnibus bonus (R5.1)."""

from __future__ import annotations

from collections.abc import Sequence

from .rules import BONUS_POINTS


def hand_scores(
    points: Sequence[int],
    shooter: int | None = None,
    option: str | None = None,
    moon_points: int = 26,
    bonus_taker: int | None = None,
) -> list[int]:
    """Return what a hand adds to each total.

    A shooter's `moon_points` (26, or 52 with two decks) become minus that for them ("subtract")
    or plus that for everyone else ("add"). The bonus card's -10 is added after the moon choice
    (R5.4): a shooter who also took it scores -36 or -10.
    """
    n = len(points)
    if shooter is None:
        scores = list(points)
    elif option == "subtract":
        scores = [-moon_points if s == shooter else 0 for s in range(n)]
    else:
        scores = [0 if s == shooter else moon_points for s in range(n)]
    if bonus_taker is not None:
        scores[bonus_taker] += BONUS_POINTS
    return scores
