"""A finished match's outcome: totals, winners, places and moons, as one frozen value.

Places are by totals alone (R4.5: the lowest total wins; equal totals share a place, and the
next place counts every seat above it: 1, 2, 2, 4). The engine knows nothing of who left a
match or of ratings; the site's result rule (games/services/results.py) starts from here.

>>> outcome = Outcome.of((40, 102, 40, 75), (ScoreRow((26, 0, 0, 0), (0, 26, 26, 26), (0, 26,
...     26, 26), moon=0, moon_option="add"),))
>>> outcome.winners, outcome.places, outcome.moons
((0, 2), (1, 4, 1, 3), (1, 0, 0, 0))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .scoring import ScoreRow


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a match ended, seat by seat: `places[s]` is 1 for a winner, `moons[s]` its shots."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    places: tuple[int, ...]
    moons: tuple[int, ...]

    @classmethod
    def of(cls, totals: Sequence[int], sheet: Sequence[ScoreRow]) -> Outcome:
        """Return the outcome of final totals and the score sheet that led to them."""
        low = min(totals)
        moons = [0] * len(totals)
        for row in sheet:
            if row.moon is not None:
                moons[row.moon] += 1
        return cls(
            totals=tuple(totals),
            winners=tuple(s for s, t in enumerate(totals) if t == low),
            places=places_by_total(totals),
            moons=tuple(moons),
        )


def places_by_total(totals: Sequence[int]) -> tuple[int, ...]:
    """Return each seat's place by its total (R4.5): 1 for the lowest, ties sharing a place.

    >>> places_by_total([30, 10, 20, 20])
    (4, 1, 2, 2)
    """
    return tuple(1 + sum(other < total for other in totals) for total in totals)
