"""Fast playouts for Cancellation Hearts (R5.2): playout.py's policy on two decks.

Every seat plays the baseline's plan (lead low, duck under the winning card, shed danger when
void), made aware of cancellation: a card whose twin is already in the trick cancels and can
never win it, so it is as safe a duck as a low card; playing the twin of the winning card
cancels it and the next live card wins. The policy looks at faces (a one-deck card set, see
`faces`) and plays the first copy it holds of the face it picks, since either copy plays alike.

There are no moon modes here: a shot needs all 26 hearts and both Q♠ among 5 to 10 players,
which a playout almost never sees. The hand is scored by the engine itself (52 points, the
moon of every copy, the widow to its taker), so a playout's outcome is the one the match
would record.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import DECK_SIZE, FULL_DECK
from ..state import MOON, PLAYING, Match
from .playout import HIGH_SPADES, NOISE, NOT_QS, low_rank, moon_option, shed_card


def faces(mask: int) -> int:
    """Return the faces of a two-deck card set as a one-deck set (both copies fold onto one)."""
    return (mask | mask >> DECK_SIZE) & FULL_DECK


def copy_held(face: int, cards: int) -> int:
    """Return the index of a copy of `face` in `cards`: the first copy if there, else the second."""
    return face if cards >> face & 1 else face + DECK_SIZE


def duck_two_decks(m: Match, legal: int) -> int:
    """Return the policy's card (0..103): lead low, duck under the winner, shed danger when void.

    `m` is a CancellationMatch (typed as its base class, whose fields are all it reads).
    """
    held = faces(legal)
    if not m.trick:
        # Lead low by rank, and not the high spades that could draw a Q♠ onto us.
        return copy_held(low_rank(held & ~HIGH_SPADES or held), legal)
    lead = m.lead_mask & FULL_DECK
    follow = held & lead
    if follow:
        trick = m.trick_mask
        once = (trick ^ trick >> DECK_SIZE) & FULL_DECK  # faces played once: not cancelled
        return copy_held(follow_face(follow, once & lead), legal)
    return copy_held(shed_card(held), legal)


def follow_face(follow: int, live: int) -> int:
    """Return the face to follow suit with: the highest that cannot win the trick, else the
    highest but the Q♠.

    `live` holds the faces of the suit led played once so far; the highest of them wins now
    (none: every card of the suit led is cancelled, and any new card would win). A twin of a
    live face cancels it and cannot win; a face below the winner loses.
    """
    losers = follow & live
    top = live.bit_length() - 1
    if top >= 0:
        losers |= follow & ((1 << top) - 1)
    if losers:
        return losers.bit_length() - 1  # duck with the highest card that cannot win
    # We take it unless someone overtakes or cancels our card: spend the highest, not a Q♠.
    return (follow & NOT_QS or follow).bit_length() - 1


def play_out_two_decks(
    m: Match,
    random_: Callable[[], float],
    steady: int = -1,
    noise: float = NOISE,
) -> None:
    """Finish the current hand's tricks with the policy (the match stays in its phase).

    `steady` is a seat that never plays at random (the searching seat); the others play a
    random legal card with probability `noise`, so playouts do not all follow one script.
    """
    play = m.play_fast
    legal = m.legal_mask() if m.phase == PLAYING else 0
    while legal:  # play_fast answers the next seat's legal plays, 0 once the tricks are over
        if legal & (legal - 1):
            if m.turn != steady and random_() < noise:
                skip = random_() * legal.bit_count()  # as bots._random_bit, inlined
                while skip >= 1.0:
                    legal &= legal - 1
                    skip -= 1.0
                card = (legal & -legal).bit_length() - 1
            else:
                card = duck_two_decks(m, legal)
        else:
            card = legal.bit_length() - 1
        legal = play(card)


def two_deck_scores(m: Match, totals: Sequence[int]) -> list[int]:
    """Return each seat's score for the hand just played out, as the engine scored it.

    `totals` are the totals before the hand. A moon shot waiting for its choice ("ask") is
    settled with the option best for the shooter (R4.6), as a bot would choose.
    """
    if m.phase == MOON:
        assert m.shooter is not None  # the engine names the shooter when it asks
        m.moon_fast(moon_option(m.rules, m.hand_no, totals, m.shooter))
    return list(m.sheet[-1].scores)
