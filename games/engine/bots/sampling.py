"""What one seat knows about the cards it cannot see, and deals of them consistent with it.

A search bot may read only its `SeatView` (R6.3). From it this module derives the facts that
bind the hidden hands (cards played, suits a seat has shown it lacks, the cards this seat passed)
and draws complete deals of the unseen cards that agree with every one of them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..cards import BITS, HEARTS_MASK, POINTS_MASK, QS_INDEX, QS_MASK, SUIT_MASKS, indices_of
from ..views import PlayedCard, SeatView

AS_KS_MASK = QS_MASK << 1 | QS_MASK << 2
# How much likelier a seat that showed no Q♠ when it could safely drop it is to lack it: a seat
# void in the suit led discards the Q♠ if it has it, and a seat following a spade trick already
# won by the A♠ or K♠ drops its Q♠ under it. Kept mild: players do hold the Q♠ back at times.
QS_DOUBT = 0.25
SAMPLE_TRIES = 40  # random attempts before the flow fallback


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The facts a seat has about the hidden hands, as card sets; nothing it may not know."""

    seat: int
    players: int
    hand: int  # the seat's own cards
    played: int  # every card played this hand, complete tricks and the current one
    unseen: int  # the cards in the other seats' hands
    counts: tuple[int, ...]  # cards each seat holds now
    excluded: tuple[int, ...]  # per seat, cards it cannot hold (suits it showed it lacks)
    known: tuple[int, ...]  # per seat, cards known to be in its hand (this seat's pass)
    taken: tuple[int, ...]  # cards each seat has taken in complete tricks
    qs_weight: tuple[float, ...]  # relative likelihood that each seat holds the Q♠
    # R5.2: how many unseen cards lie face down in the widow rather than in a hand.
    widow: int = 0

    @classmethod
    def of_seat(
        cls,
        view: SeatView,
        *,
        deck: int,
        played: int,
        excluded: list[int],
        known: list[int],
        taken: list[int],
        qs_weight: list[float],
        widow: int = 0,
    ) -> Knowledge:
        """Return the view's seat's knowledge from what was read of the hand: the seat's own
        hand is known to it, so it excludes nothing there and weighs no Q♠ to itself."""
        me = view.seat
        hand = view.hand_mask
        known[me] = hand
        excluded[me] = 0
        qs_weight[me] = 0.0
        return cls(
            seat=me,
            players=view.players,
            hand=hand,
            played=played,
            unseen=deck & ~hand & ~played,
            counts=view.hand_counts,
            excluded=tuple(excluded),
            known=tuple(known),
            taken=tuple(taken),
            qs_weight=tuple(qs_weight),
            widow=widow,
        )


def knowledge(view: SeatView) -> Knowledge:
    """Return what the view's seat knows about the hidden cards during play."""
    n = view.players
    deck = view.rules.deck_mask
    excluded = [0] * n
    taken = [0] * n
    qs_weight = [1.0] * n
    played = 0
    broken = False
    tricks: list[tuple[tuple[PlayedCard, ...], int | None]] = [
        (t.plays, t.winner) for t in view.tricks
    ]
    tricks.append((view.trick, None))
    for number, (plays, winner) in enumerate(tricks):
        if not plays:
            continue
        if SUIT_MASKS[plays[0].card.index // 13] == HEARTS_MASK and not broken:
            # R3.5/R3.7: hearts led before they were broken, so the leader held only hearts.
            excluded[plays[0].seat] |= deck & ~HEARTS_MASK
        trick_mask = _read_trick(plays, number > 0, played, excluded, qs_weight)
        if winner is not None:
            taken[winner] |= trick_mask
        if trick_mask & POINTS_MASK:
            broken = True
        played |= trick_mask
    known = [0] * n
    if view.passed is not None and view.received is not None and view.pass_to is not None:
        passed = 0
        for passed_card in view.passed:
            passed |= 1 << passed_card.index
        known[view.pass_to] = passed & ~played
    return Knowledge.of_seat(
        view,
        deck=deck,
        played=played,
        excluded=excluded,
        known=known,
        taken=taken,
        qs_weight=qs_weight,
    )


def _read_trick(
    plays: tuple[PlayedCard, ...],
    after_first: bool,
    played: int,
    excluded: list[int],
    qs_weight: list[float],
) -> int:
    """Read one trick's cards into what each seat is known not to hold; return its cards.

    A seat that fails to follow is void in the suit led (R3.2). A seat that could have shed
    the Q♠ and did not (discarding something else after the first trick, or playing under
    the A♠ or K♠ while it is out) is less likely to hold it.
    """
    lead = plays[0].card.index
    lead_mask = SUIT_MASKS[lead // 13]
    trick_mask = 1 << lead
    top = lead
    for play in plays[1:]:
        card = play.card.index
        bit = 1 << card
        qs_out = not (played | trick_mask) & QS_MASK
        if not bit & lead_mask:
            excluded[play.seat] |= lead_mask  # R3.2: failing to follow shows a void
            if qs_out and after_first and card != QS_INDEX:
                qs_weight[play.seat] *= QS_DOUBT
        elif lead_mask == SUIT_MASKS[3] and qs_out and BITS[top] & AS_KS_MASK and card != QS_INDEX:
            qs_weight[play.seat] *= QS_DOUBT
        trick_mask |= bit
        if bit & lead_mask and card > top:
            top = card
    return trick_mask


def sample_hands(k: Knowledge, rng: random.Random, weighted: bool = True) -> list[int]:
    """Return every seat's hand: the seat's own, and the unseen cards dealt consistently.

    Cards go out most constrained suit first, each to a seat drawn in proportion to the room
    left in its hand, so the deals are close to uniform over the consistent ones; the Q♠ goes
    first, leaning away from seats whose play suggests they lack it (when `weighted`).
    """
    for _ in range(SAMPLE_TRIES):
        hands = _try_sample(k, rng, weighted)
        if hands is not None:
            return hands
    return _flow_sample(k, rng)


def to_deal(k: Knowledge) -> tuple[list[int], list[int], int]:
    """Return the hands to fill (each with its known cards), the room left in each, and the
    unseen cards not known to be anywhere: what a sample deals."""
    hands = list(k.known)
    need = [count - known.bit_count() for count, known in zip(k.counts, k.known, strict=True)]
    free = k.unseen
    for mask in k.known:
        free &= ~mask
    return hands, need, free


def _try_sample(k: Knowledge, rng: random.Random, weighted: bool) -> list[int] | None:
    n = k.players
    hands, need, free = to_deal(k)
    random_ = rng.random
    if free & QS_MASK:
        free ^= QS_MASK
        weights = [
            need[s] * (k.qs_weight[s] if weighted else 1.0) if not k.excluded[s] & QS_MASK else 0
            for s in range(n)
        ]
        if sum(weights) <= 0:
            weights = [need[s] if not k.excluded[s] & QS_MASK else 0 for s in range(n)]
        seat = _draw(weights, random_)
        if seat < 0:
            return None
        hands[seat] |= QS_MASK
        need[seat] -= 1
    if not deal_by_suit(hands, need, free, k.excluded, SUIT_MASKS, random_):
        return None
    return hands


def deal_by_suit(
    hands: list[int],
    need: list[int],
    free: int,
    excluded: Sequence[int],
    suit_masks: Sequence[int],
    random_: Callable[[], float],
) -> bool:
    """Deal the free cards into the hands (in place), or return False if a card finds no room.

    `need` is the room left in each hand and `excluded` the cards each may not hold. Suits
    that fewer hands may hold go first, so they are not crowded out; each card goes to a hand
    drawn in proportion to its room. `suit_masks` are the four suits' card sets (both copies
    of each card with two decks).
    """
    holders = range(len(hands))
    order = sorted(
        range(4), key=lambda s: sum(1 for t in holders if not excluded[t] & suit_masks[s])
    )
    for suit in order:
        cards = indices_of(free & suit_masks[suit])
        if not cards:
            continue
        bit = suit_masks[suit]
        eligible = [t for t in holders if need[t] and not excluded[t] & bit]
        for card in cards:
            weights = [need[t] for t in eligible]
            pick = _draw(weights, random_)
            if pick < 0:
                return False
            seat = eligible[pick]
            hands[seat] |= 1 << card
            need[seat] -= 1
            if not need[seat]:
                eligible.remove(seat)
    return True


def _draw(weights: list[float] | list[int], random_: Callable[[], float]) -> int:
    """Return an index drawn in proportion to its weight, or -1 when every weight is zero."""
    total = sum(weights)
    if total <= 0:
        return -1
    x = random_() * total
    for i, w in enumerate(weights):
        x -= w
        if x < 0 and w > 0:
            return i
    return max(i for i, w in enumerate(weights) if w > 0)


def _flow_sample(k: Knowledge, rng: random.Random) -> list[int]:
    """Return a consistent deal for the rare tight corner where random draws keep failing.

    Every exclusion here is a whole suit (a void shown, or all but hearts for a seat that led
    hearts unbroken), so a flow from suits to hands finds a deal in bounded steps.
    """
    hands, need, free = to_deal(k)
    return deal_by_flow(hands, need, free, k.excluded, SUIT_MASKS, rng)


def deal_by_flow(
    hands: list[int],
    need: list[int],
    free: int,
    excluded: Sequence[int],
    suit_masks: Sequence[int],
    rng: random.Random,
) -> list[int]:
    """Deal the free cards into the hands (in place) when every exclusion is whole suits, or
    raise ValueError if no deal fits.

    With whole suits excluded, a deal exists exactly when the numbers of cards of each suit
    can go to hands that may hold that suit, within each hand's room: a flow from suits to
    hands. That is found one card at a time along augmenting paths (a card may push one of
    another suit from a full hand to one with room), in a few hundred steps whatever the
    constraints, where a depth-first search over cards may backtrack for ever. The cards of
    each suit are then shuffled and handed out in those numbers.
    """
    holders = list(range(len(hands)))
    may_hold = [[h for h in holders if not excluded[h] & mask] for mask in suit_masks]
    room = list(need)
    given = [[0] * len(hands) for _ in suit_masks]  # given[suit][hand]: how many cards

    def place(suit: int, visited: set[int]) -> bool:
        """Find room for one more card of `suit`, moving other cards along if need be."""
        order = may_hold[suit][:]
        rng.shuffle(order)
        for h in order:
            if room[h]:
                room[h] -= 1
                given[suit][h] += 1
                return True
        for h in order:
            if h in visited:
                continue
            visited.add(h)
            for other in range(len(suit_masks)):
                if other != suit and given[other][h] and place(other, visited):
                    given[other][h] -= 1  # that card moved on, this one takes its place
                    given[suit][h] += 1
                    return True
        return False

    for suit, mask in enumerate(suit_masks):
        for _ in range((free & mask).bit_count()):
            if not place(suit, set()):
                raise ValueError("No deal of the hidden cards agrees with this view")
    for suit, mask in enumerate(suit_masks):
        cards = indices_of(free & mask)
        rng.shuffle(cards)
        for h in holders:
            for card in cards[: given[suit][h]]:
                hands[h] |= 1 << card
            del cards[: given[suit][h]]
    return hands
