"""Fast playouts for search: a cheap heuristic player for every seat, through the trusting door.

The policy is the baseline bot's (lead low, duck under the winner, shed danger when void) on
bit masks, plus two modes that make moon shots visible to a search: a seat that holds every
point taken so far keeps taking tricks, and the searching seat then tries to take a point
trick from it (alone: the others are not counted on to).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import HEARTS_MASK, POINTS_MASK, QS_INDEX, QS_MASK, SUIT_MASKS
from ..rules import RuleSet
from ..scoring import hand_scores as scores_after
from ..state import PLAYING, Match

HIGH_SPADES = QS_MASK | QS_MASK << 1 | QS_MASK << 2  # Q♠ K♠ A♠
NOT_QS = ~QS_MASK
# A seat holding every point taken so far, and at least this many, is treated as shooting.
SHOOTER_POINTS = 8
# The same for another seat than the searching one, which then defends: sooner, because the
# tricks that stop a shot cheaply (a high heart kept, a point taken early) are gone by the
# time a random shooter has eight points.
THREAT_POINTS = 4
# The share of opponents' plays made at random, so playouts do not all follow one script.
NOISE = 0.1
SUITS4 = tuple((s * 13, SUIT_MASKS[s]) for s in range(4))


def low_rank(mask: int) -> int:
    """Return the lowest-ranked card of a non-empty set (ties: the lower suit)."""
    best, best_rank = -1, 99
    for base, suit in SUITS4:
        cards = mask & suit
        if cards:
            low = (cards & -cards).bit_length() - 1
            if low - base < best_rank:
                best, best_rank = low, low - base
    return best


def high_rank(mask: int) -> int:
    """Return the highest-ranked card of a non-empty set (ties: the higher suit)."""
    best, best_rank = -1, -1
    for base, suit in SUITS4:
        cards = mask & suit
        if cards:
            high = cards.bit_length() - 1
            if high - base >= best_rank:
                best, best_rank = high, high - base
    return best


def duck_card(m: Match, legal: int) -> int:
    """Return the baseline's choice: lead low, duck under the winner, shed danger when void."""
    trick = m.trick
    if not trick:
        return low_rank(legal & ~HIGH_SPADES or legal)
    lead = m.lead_mask
    if legal & lead:
        top = (m.trick_mask & lead).bit_length() - 1
        under = legal & ((1 << top) - 1)
        if under:
            return under.bit_length() - 1
        # We take it unless someone overtakes: spend the highest card, not the Q♠.
        return (legal & NOT_QS or legal).bit_length() - 1
    return shed_card(legal)


def shed_card(cards: int) -> int:
    """Return the card to discard when void: the Q♠, then high spades, the highest heart, the
    highest card (the baseline's choice, and the two-deck playouts' among faces)."""
    if cards & QS_MASK:
        return QS_INDEX
    high_spades = cards & HIGH_SPADES
    if high_spades:
        return high_spades.bit_length() - 1
    hearts = cards & HEARTS_MASK
    if hearts:
        return hearts.bit_length() - 1
    return high_rank(cards)


def shoot_card(m: Match, legal: int) -> int:
    """Return a shooter's choice: take every trick, keep the points away from the others."""
    if not m.trick:
        return high_rank(legal)
    lead = m.lead_mask
    if legal & lead:
        return legal.bit_length() - 1
    return low_rank(legal & ~POINTS_MASK or legal)


def defend_card(m: Match, legal: int, shooter: int) -> int:
    """Return a defender's choice while `shooter` is shooting: take a point trick from it.

    A lone defender stops a shot by winning one trick with a point in it, or by keeping a
    point card out of the shooter's tricks, so its high cards are its stoppers: it plays
    under a trick it cannot win with its lowest card, and when void discards its lowest card
    (never the Q♠) rather than its highest. Shedding the highest, as the baseline does, threw
    away the A♠ or the A♥ that would have taken a later trick from a random shooter.
    """
    trick = m.trick
    if not trick:
        return high_rank(legal)
    lead = m.lead_mask
    top = (m.trick_mask & lead).bit_length() - 1
    leader, n = m.leader, m.n
    # Once the shooter has played and another seat is winning, the shot is already stopped
    # if the trick holds a point, and points shed on it cannot reach the shooter.
    if (shooter - leader) % n < len(trick) and (leader + trick.index(top)) % n != shooter:
        return duck_card(m, legal)
    if legal & lead:
        over = legal & ~((1 << top) - 1)
        if over:
            return over.bit_length() - 1
        return (legal & -legal).bit_length() - 1
    return low_rank(legal & NOT_QS or legal)


def find_shooter(m: Match, me: int = -1) -> int:
    """Return the seat holding every point taken so far if it is enough to be shooting, or -1.

    Enough is SHOOTER_POINTS for the searching seat `me` (or when there is none) and
    THREAT_POINTS for the others.
    """
    holder = -1
    for seat, taken in enumerate(m.taken):
        if taken & POINTS_MASK:
            if holder >= 0:
                return -1
            holder = seat
    if holder < 0:
        return -1
    points = m.taken[holder] & POINTS_MASK
    count = (points & HEARTS_MASK).bit_count() + (13 if points & QS_MASK else 0)
    enough = SHOOTER_POINTS if me < 0 or holder == me else THREAT_POINTS
    return holder if count >= enough else -1


def play_out(
    m: Match,
    random_: Callable[[], float],
    shoot: int = -1,
    steady: int = -1,
    noise: float = NOISE,
) -> None:
    """Finish the current hand's tricks with the playout policy (the match stays in its phase).

    `shoot` is a seat that plays to take every trick from the start (the others only see it,
    and defend, once it holds enough points); `steady` a seat that never plays at random (the
    searching seat follows its own policy without noise); `noise` the share of random plays.
    """
    play = m.play_fast
    hunted = find_shooter(m, steady)
    legal = m.legal_mask() if m.phase == PLAYING else 0
    while legal:  # play_fast answers the next seat's legal plays, 0 once the tricks are over
        if legal & (legal - 1):
            seat = m.turn
            if seat != steady and random_() < noise:
                skip = random_() * legal.bit_count()  # as bots._random_bit, inlined
                while skip >= 1.0:
                    legal &= legal - 1
                    skip -= 1.0
                card = (legal & -legal).bit_length() - 1
            elif seat in (shoot, hunted):
                card = shoot_card(m, legal)
            elif hunted >= 0 and steady in (seat, hunted):
                # Only the searching seat defends against another seat's shot: the other
                # players may not (the baseline and random players do not), and counting on
                # them made the search leave every shot to them. Against its own shot all
                # the others defend, so that it does not overrate its chances.
                card = defend_card(m, legal, hunted)
            else:
                card = duck_card(m, legal)
        else:
            card = legal.bit_length() - 1
        legal = play(card)
        if not m.trick:
            hunted = find_shooter(m, steady)


def hand_points(taken: Sequence[int]) -> list[int]:
    """Return the points each seat took (R4.2)."""
    return [(t & HEARTS_MASK).bit_count() + (13 if t & QS_MASK else 0) for t in taken]


def hand_scores(
    rules: RuleSet, hand_no: int, totals: Sequence[int], taken: Sequence[int]
) -> list[int]:
    """Return each seat's score for a hand: the moon rule (R4.3, R4.6), then the bonus (R5.1)."""
    bonus_taker = None
    if rules.bonus_mask:
        bonus_taker = next(s for s, t in enumerate(taken) if t & rules.bonus_mask)
    for seat, t in enumerate(taken):
        if t & POINTS_MASK == POINTS_MASK:
            option = rules.moon
            if option == "ask":
                option = moon_option(rules, hand_no, totals, seat, bonus_taker)
            return scores_after(hand_points(taken), seat, option, 26, bonus_taker)
    return scores_after(hand_points(taken), None, None, 26, bonus_taker)


def moon_option(
    rules: RuleSet,
    hand_no: int,
    totals: Sequence[int],
    me: int,
    bonus_taker: int | None = None,
) -> str:
    """Return the option leaving the shooter best placed, winning outright if it can (R4.6).

    A shot is worth the rule set's moon points: 26, or 52 with two decks (R5.2).
    """
    best_key: tuple[bool, bool, bool, int] | None = None
    best = "subtract"
    points = [0] * len(totals)
    for option in ("subtract", "add"):
        scores = scores_after(points, me, option, rules.moon_points, bonus_taker)
        after = [t + v for t, v in zip(totals, scores, strict=True)]
        ended = rules.is_over(hand_no, after)
        others = min(t for s, t in enumerate(after) if s != me)
        key = (
            ended and after[me] < others,
            ended and after[me] <= others,
            not (ended and after[me] > others),
            others - after[me],
        )
        if best_key is None or key > best_key:
            best_key, best = key, option
    return best
