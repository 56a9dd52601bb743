"""A finished match's result: each seat's place, decided once as the match ends and stored.

The rule (README, "Results"; the rules page, "Leaving a match"):

- A person whose seat a bot took for good has *left*: out of time too often, handed over by
  the others, resigned, or withdrawn from a tournament (`Seat.has_left`). A single timeout
  after which the person plays on changes nothing.
- Those who stayed (people and bots) are placed among themselves by their final totals, the
  lowest first, equal totals sharing a place, as if every leaver's seat had been a bot's.
- Everyone who left is placed after all of them, leavers among themselves by total. A leaver
  never wins, even with the lowest total.
- A match in which every person left is unrated: bots made their decisions.

`places` turns the engine's `Outcome` (places by total, R4.5) into the site's places; nothing
else places anyone. `LockedTable` stores its answer on
each seat (`Seat.rank`) in the transaction that finishes the match; the table, *Your turn*,
player and bot pages, the leaderboard, ratings, tournament standings, e-mails, the exports and
`rebuild_stats` all read that stored place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from games import engine

if TYPE_CHECKING:
    from games.models import Match, Seat


def places(outcome: engine.Outcome, left: Sequence[bool]) -> list[int]:
    """Return each seat's place: those who stayed first by total, then those who left.

    The engine's places (by total alone) stand when nobody left; otherwise those who stayed
    and those who left are each placed among themselves, the engine's way, one after the other.

    >>> from games.engine import Outcome
    >>> places(Outcome.of([30, 10, 20, 20], []), [False] * 4)
    [4, 1, 2, 2]
    >>> places(Outcome.of([5, 40, 60, 80], []), [True, False, False, False])
    [4, 1, 2, 3]
    >>> places(Outcome.of([1, 2, 50, 70], []), [True, True, False, False])
    [3, 4, 1, 2]
    """
    totals = outcome.totals
    stayed = [seat for seat, gone in enumerate(left) if not gone]
    gone = [seat for seat, went in enumerate(left) if went]
    result = [0] * len(totals)
    for seats, after in ((stayed, 0), (gone, len(stayed))):
        ranked = engine.places_by_total([totals[seat] for seat in seats])
        for seat, place in zip(seats, ranked, strict=True):
            result[seat] = after + place
    return result


def rating_places(seats: Sequence[Seat]) -> list[int]:
    """Return the places a rating reads for these seats of one finished match, seat by seat.

    The stored places, except that every leaver is rated as last, sharing the place of the
    last of them: how a bot played their seat on after they left is not theirs.
    """
    last = max(seat.rank or 0 for seat in seats)
    return [last if seat.has_left else (seat.rank or last) for seat in seats]


def is_rated(match: Match, seats: Sequence[Seat]) -> bool:
    """Say whether a finished match moves ratings.

    Only a rated match (its creator's choice; a tournament's always is) that is public (a
    public rating must not reveal a private result), and in which some person stayed to the
    end (when every person left, bots made the decisions that decided it).
    """
    people = [seat for seat in seats if seat.user_id is not None]
    stayed = [seat for seat in people if not seat.has_left]
    return match.rated and not match.is_private and bool(stayed)
