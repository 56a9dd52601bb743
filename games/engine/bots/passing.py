"""Choosing three cards to pass (R2.1) with a plan: make voids, shed dangerous spades and hearts.

A pass is chosen before anything is seen of the other hands, so a search would only sample
blind; a scored heuristic does nearly as well at no cost. Each card gets a danger score, the
three worst go, and the score is recomputed after each pick so a short suit is passed whole.
"""

from __future__ import annotations

from ..cards import HEARTS_MASK, QS_INDEX, QS_MASK, SUIT_MASKS, indices_of

SPADES_MASK = SUIT_MASKS[3]
AS_KS = QS_MASK << 1 | QS_MASK << 2
JACK = 9  # rank index of the jack (2 is 0, ace is 12)


def spade_cover(hand: int, hand_size: int) -> bool:
    """Say whether a hand has enough low spades to keep the Q♠ and its seniors safely."""
    low = (hand & SPADES_MASK & (QS_MASK - 1)).bit_count()
    # Four below the queen in a 13-card hand; proportionally fewer in smaller hands.
    return low >= max(2, (4 * hand_size + 12) // 13)


def is_moon_hand(hand: int) -> bool:
    """Say whether a hand is strong enough to try for all the points (R4.3)."""
    hearts = hand & HEARTS_MASK
    top_hearts = hearts >> (2 * 13 + JACK)  # J♥ Q♥ K♥ A♥
    others = hand & ~HEARTS_MASK
    high_others = sum(1 for i in indices_of(others) if i % 13 >= JACK)
    return (
        hearts.bit_count() >= 6
        and top_hearts & 0b1100 == 0b1100  # A♥ and K♥
        and high_others * 2 >= others.bit_count()
    )


def card_danger(card: int, hand: int, slots: int, cover: bool) -> float:
    """Return how much a card hurts to keep; `slots` cards may still be passed."""
    suit, rank = divmod(card, 13)
    bit = 1 << card
    if suit == 3:
        if card == QS_INDEX:
            return 0.5 if cover else 100.0
        if bit & AS_KS:
            # Without cover the A♠ and K♠ catch the Q♠; with it they are safe enough.
            return 1.0 if cover else 80.0 + rank
        return rank * 0.5  # low spades protect: keep them
    if suit == 2:
        return 10.0 + rank * 4 if rank >= JACK else float(rank)
    danger = rank * 3.0
    length = (hand & SUIT_MASKS[suit]).bit_count()
    if length <= slots:
        danger += 25.0  # this pass can empty the suit: a void lets us discard later
    return danger


def choose_pass(hand: int, hand_size: int) -> int:
    """Return the three cards to pass, as a card set."""
    if is_moon_hand(hand):
        # Keep the control for a shot: pass the lowest cards that are not hearts.
        pool = indices_of(hand & ~HEARTS_MASK) or indices_of(hand)
        pool.sort(key=lambda i: (i % 13, i))
        chosen = pool[:3]
        for extra in indices_of(hand):
            if len(chosen) == 3:
                break
            if extra not in chosen:
                chosen.append(extra)
        return sum(1 << i for i in chosen)
    cover = spade_cover(hand, hand_size)
    chosen_mask = 0
    left = hand
    for slots in (3, 2, 1):
        best = max(indices_of(left), key=lambda i: (card_danger(i, left, slots, cover), i))
        chosen_mask |= 1 << best
        left ^= 1 << best
    return chosen_mask
