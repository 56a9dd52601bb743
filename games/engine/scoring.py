"""A hand's scores from the points taken: the moon rule (R4.3), then the Omnibus bonus (R5.1).

Also the score sheet's row (`ScoreRow`), which the match, its views and its records share.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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


@dataclass(frozen=True)
class ScoreRow:
    """One hand on the score sheet (R4.1): points taken, scores after the moon rule, totals."""

    points: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    moon: int | None = None
    moon_option: str | None = None
    # R5.1: the seat that took the Omnibus bonus card (None in the other games).
    bonus: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form (totals are derived, so left out; "bonus" only in Omnibus)."""
        data: dict[str, Any] = {
            "points": list(self.points),
            "scores": list(self.scores),
            "moon": self.moon,
            "option": self.moon_option,
        }
        if self.bonus is not None:
            data["bonus"] = self.bonus
        return data
