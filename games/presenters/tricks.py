"""The last completed trick: this hand's, or the previous hand's while this one has none yet.

Every card played to a trick is public (R6.3), so players and spectators see the same trick.
The previous hand's last trick comes from the move that closed that hand when it is the one
being answered (`LockedTable.save` hands it on), and is read from the action log, in one
query, otherwise.
"""

from __future__ import annotations

from collections import Counter
from typing import TypedDict

from games import engine
from games.models import Action, Match

from .table import Place, Play, plays_of


class ShownTrick(TypedDict):
    """A completed trick as the page shows it (see `shown_trick`)."""

    hand: int | None
    number: int
    plays: list[Play]
    winner: Place | None
    taker: Place | None
    points: int


def last_trick(
    match: Match,
    view: engine.PublicView | None,
    by_pos: dict[int, Place],
    closed: tuple[int, engine.TrickView] | None = None,
) -> ShownTrick | None:
    """Return the latest completed trick: its hand, number, cards in play order, winner, points.

    `hand` is None for a trick of the hand in play, and the hand's number for the last trick of
    the previous hand, shown until the current hand completes its first trick.
    """
    if not view:
        return None
    if view.tricks:
        return shown_trick(view.tricks[-1], by_pos, hand=None, number=len(view.tricks))
    if view.hand_no > 1:
        previous = view.hand_no - 1
        if closed is not None and closed[0] == previous:
            return shown_trick(closed[1], by_pos, hand=previous, number=view.rules.tricks_per_hand)
        return _previous_hand_last_trick(match, view, by_pos)
    return None


def shown_trick(
    trick: engine.TrickView, by_pos: dict[int, Place], *, hand: int | None, number: int
) -> ShownTrick:
    """A completed trick as shown. In Cancellation Hearts (R5.2) a trick whose every card of
    the suit led was cancelled has no winner; its cards go to `taker`, None while they wait."""
    return {
        "hand": hand,
        "number": number,
        "plays": plays_of(trick.plays, by_pos, trick.cancelled),
        "winner": by_pos[trick.winner] if trick.winner is not None else None,
        "taker": by_pos[trick.taker] if trick.taker is not None else None,
        "points": trick.points,
    }


def _previous_hand_last_trick(
    match: Match, view: engine.PublicView, by_pos: dict[int, Place]
) -> ShownTrick | None:
    n = view.players
    logged = (
        Action.objects.filter(match=match, hand__number=view.hand_no - 1, kind=Action.Kind.PLAY)
        .order_by("-seq")
        .values_list("seat", "value")[:n]
    )
    plays = [(seat, engine.Card.parse(value)) for seat, value in logged]
    plays.reverse()
    leader = plays[0][0] if plays else 0
    # A whole trick: one card from each seat, in playing order from the leader.
    if [seat for seat, _ in plays] != [(leader + i) % n for i in range(n)]:
        return None
    cards = [card for _, card in plays]
    # R3.4, and R5.2's cancelled pairs: a hand's last trick not won goes to its leader.
    winner = engine.winner_of_trick(view.rules, leader, cards)
    faces = Counter(card.face_text for card in cards)
    trick = engine.TrickView(
        leader=leader,
        plays=tuple(engine.PlayedCard(seat, card) for seat, card in plays),
        winner=winner,
        points=sum(card.points for card in cards),
        cancelled=tuple(card for card in cards if faces[card.face_text] > 1),
        taker=leader if winner is None else winner,
    )
    return shown_trick(trick, by_pos, hand=view.hand_no - 1, number=view.rules.tricks_per_hand)
