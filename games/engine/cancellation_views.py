"""What each seat, and a spectator, may know of a Cancellation match (R5.2, R6.3).

The same `PublicView` and `SeatView` as the standard game, with the Cancellation attributes
filled in (see views.py): `dealer`, `widow_size`, `widow_taker`, `widow`, `carried`, and for
each trick `cancelled` and `taker`. The widow is face down: during the hand anyone sees its
size and, once trick 1's cards are taken, who took it; its cards, and the points in them, are
shown only once the hand is over (its taker's `points_taken` leaves them out until then).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .cancellation import NOT_WON, CancellationMatch, cancelled_of, points_of
from .cards import ALL_CARDS, cards_from_mask
from .phases import FINISHED, HAND_OVER, MOON, PLAYING
from .rules import MAX_CANCELLATION_PLAYERS
from .state import register_views
from .viewing import hand_fields
from .views import HandRecord, PlayedCard, PublicView, SeatView, TrickView

_PLAYED = tuple(
    tuple(PlayedCard(seat, card) for card in ALL_CARDS) for seat in range(MAX_CANCELLATION_PLAYERS)
)


def _plays(leader: int, cards: tuple[int, ...] | list[int], n: int) -> tuple[PlayedCard, ...]:
    return tuple(_PLAYED[(leader + i) % n][c] for i, c in enumerate(cards))


@lru_cache(maxsize=4096)
def _trick_view(leader: int, cards: tuple[int, ...], winner: int, taker: int, n: int) -> TrickView:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return TrickView(
        leader,
        _plays(leader, cards, n),
        None if winner == NOT_WON else winner,
        points_of(mask),
        cancelled=cards_from_mask(cancelled_of(mask)),
        taker=None if taker == NOT_WON else taker,
    )


def _public_fields(match: CancellationMatch) -> dict[str, Any]:
    n = match.n
    tricks = tuple(
        _trick_view(leader, cards, winner, taker, n)
        for (leader, cards, winner), taker in zip(match.tricks, match.takers, strict=True)
    )
    over = match.phase in (MOON, HAND_OVER, FINISHED) and match.deal is not None
    record = None
    points = match.points_taken
    if over:
        record = HandRecord(
            deal=match.deal.hands,  # type: ignore[union-attr]
            passes=(None,) * n,
            tricks=tricks,
            widow=cards_from_mask(match.widow),
        )
    elif match.widow_taker is not None:
        # The widow is face down until the hand ends: its points are not shown before.
        hidden = points_of(match.widow)
        points = tuple(p - hidden if s == match.widow_taker else p for s, p in enumerate(points))
    playing = match.phase == PLAYING
    return {
        "rules": match.rules,
        "players": n,
        "hand_no": match.hand_no,
        "phase": match.phase,
        "pass_direction": "none",
        "to_act": match.to_act(),
        "has_passed": (False,) * n,
        "hand_counts": tuple(h.bit_count() for h in match.hands),
        "leader": match.leader if playing else None,
        "trick": _plays(match.leader, match.trick, n),
        "tricks": tricks,
        "first_trick": playing and match.first,
        "hearts_broken": match.broken if playing else False,
        "points_taken": points,
        "totals": tuple(match.totals),
        "sheet": tuple(match.sheet),
        "shooter": match.shooter if match.phase == MOON else None,
        "winners": match.winners,
        "record": record,
        "dealer": match.dealer if match.hand_no else None,
        "widow_size": match.widow.bit_count(),
        "widow_taker": match.widow_taker,
        "widow": cards_from_mask(match.widow) if over else None,
        "carried": cards_from_mask(match.carried) if playing else (),
    }


def public_view(match: CancellationMatch) -> PublicView:
    """Return the spectator's view of a Cancellation match."""
    return PublicView(**_public_fields(match))


def seat_view(match: CancellationMatch, seat: int) -> SeatView:
    """Return one seat's view; it holds no other seat's cards and not the widow's in play."""
    return SeatView(
        **_public_fields(match),
        **hand_fields(match, seat),
        passed=None,
        pass_to=None,
        received=None,
        pass_from=None,
    )


register_views(CancellationMatch, seat_view, public_view)
