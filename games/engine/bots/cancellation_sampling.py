"""What one seat knows of the hidden cards in Cancellation Hearts (R5.2), and deals of them.

The two-deck twin of sampling.py. A seat sees its own hand, every card played (each copy by
its code, so a trick tells which copy went), who took each trick, the seats' card counts and
the widow's size, but not the widow's cards until the hand is over (R6.3). The facts that bind
the hidden cards are the counts, the suits a seat showed it lacks (both copies: a seat that
cannot follow holds neither) and a heart led before hearts were broken (a hand of hearts
only). The unseen cards are every copy that is neither held nor played: the others' hands
and the widow, which may hold anything.

The copies need no bookkeeping of their own: each copy is a bit, and the unseen set holds
exactly the copies not yet seen, so dealing those bits deals each face as often as it is
still out. Which copy a seat holds never changes the game (cancellation.py).
"""

from __future__ import annotations

import random

from ..cancellation import HEARTS2, POINTS2, SUITS2
from ..cards import DECK_SIZE, HEARTS, TWO_DECKS
from ..views import SeatView
from .sampling import Knowledge, deal_by_flow, deal_by_suit, to_deal

# Random attempts before the flow (about 0.2 ms each at two decks, the flow 0.5 ms). Fewer than
# the one-deck SAMPLE_TRIES: late in a hand with many voids shown, random draws can fail nearly
# every time, and forty failures a deal would multiply a decision's time by ten.
TWO_DECK_TRIES = 8


def two_deck_knowledge(view: SeatView) -> Knowledge:
    """Return what the view's seat knows about the hidden cards during a Cancellation hand."""
    n = view.players
    excluded = [0] * n
    taken = [0] * n
    played = 0
    broken = False
    tricks = [(t.plays, t.taker) for t in view.tricks]
    tricks.append((view.trick, None))
    for plays, taker in tricks:
        if not plays:
            continue
        suit = plays[0].card.index % DECK_SIZE // 13
        lead_mask = SUITS2[suit]
        if suit == HEARTS and not broken:
            # R5.4: hearts led before they were broken, so the leader held only hearts.
            excluded[plays[0].seat] |= TWO_DECKS & ~HEARTS2
        trick_mask = 0
        for play in plays:
            bit = 1 << play.card.index
            if not bit & lead_mask:
                excluded[play.seat] |= lead_mask  # R3.2: failing to follow shows a void
            trick_mask |= bit
        if taker is not None:
            taken[taker] |= trick_mask  # the widow's cards stay unseen: not counted here
        if trick_mask & POINTS2:
            broken = True  # R5.4: also on a trick not won; the widow never breaks hearts
        played |= trick_mask
    return Knowledge.of_seat(
        view,
        deck=TWO_DECKS,
        played=played,
        excluded=excluded,
        known=[0] * n,
        taken=taken,
        qs_weight=[1.0] * n,  # no leaning: two Q♠ and bigger tables make a missed drop weak
        widow=view.widow_size,
    )


def sample_two_deck_deal(k: Knowledge, rng: random.Random) -> tuple[list[int], int]:
    """Return every seat's hand and the widow: the seat's own, the unseen cards dealt
    consistently with `k`.

    The widow is dealt as one more hand that may hold any card, so the draws (each card to
    a hand in proportion to its room, most constrained suit first) stay close to uniform over
    the consistent deals, the widow included.
    """
    for _ in range(TWO_DECK_TRIES):
        hands, need, free, excluded = _start(k)
        if deal_by_suit(hands, need, free, excluded, SUITS2, rng.random):
            return hands[:-1], hands[-1]
    # Every fact excludes whole suits (voids, a hand of hearts only), so a flow always finds
    # a deal when one exists.
    hands, need, free, excluded = _start(k)
    hands = deal_by_flow(hands, need, free, excluded, SUITS2, rng)
    return hands[:-1], hands[-1]


def _start(k: Knowledge) -> tuple[list[int], list[int], int, list[int]]:
    """Return the hands to fill (the widow last), their room, the cards to deal, and what
    each hand may not hold."""
    hands, need, free = to_deal(k)
    return [*hands, 0], [*need, k.widow], free, [*k.excluded, 0]
