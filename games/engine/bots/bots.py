"""Bots: each sees only its seat's view and answers with a `Decision` (decisions.py)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from ..cards import (
    ALL_CARDS,
    CARDS,
    HEARTS_MASK,
    POINTS_MASK,
    QS_INDEX,
    QS_MASK,
    SUIT_MASKS,
    indices_of,
)
from ..decisions import Decision, MoonChoice, Play, pass_of
from ..errors import WrongPhase
from ..scoring import hand_scores
from ..state import MOON, PASSING, PLAYING, Match
from ..views import SeatView

HIGH_SPADES = QS_MASK | QS_MASK << 1 | QS_MASK << 2  # Q♠ K♠ A♠


class Bot(Protocol):
    """Anything that turns a seat's view into a decision."""

    def choose(self, view: SeatView) -> Decision: ...


def _top(mask: int) -> int:
    return mask.bit_length() - 1


def _by_rank(mask: int, highest: bool) -> int:
    """Return the card of highest (or lowest) rank in a set, whatever its suit."""
    pick = max if highest else min
    return pick(indices_of(mask), key=lambda i: (i % 13, i))


def moon_choice(view: SeatView) -> str:
    """Return the option that leaves the shooter best placed, winning outright if it can (R4.6).

    The hand's scores count the moon (26, or 52 with two decks) and the Omnibus bonus (R5.4).
    """
    me = view.seat
    best_key, best = None, "subtract"
    points = [0] * view.players
    moon_points = view.rules.moon_points
    for option in ("subtract", "add"):
        scores = hand_scores(points, me, option, moon_points, view.bonus_taker)
        totals = [t + v for t, v in zip(view.totals, scores, strict=True)]
        ended = view.rules.is_over(view.hand_no, totals)
        others = min(t for s, t in enumerate(totals) if s != me)
        outright = ended and totals[me] < others
        shared = ended and totals[me] <= others
        lost = ended and not shared
        key = (outright, shared, not lost, others - totals[me])
        if best_key is None or key > best_key:
            best_key, best = key, option
    return best


class BaselineBot:
    """A simple, always-legal player: pass danger, duck under the winner, shed danger when void."""

    def choose(self, view: SeatView) -> Decision:
        """Return this bot's decision for its seat's view."""
        if view.phase == PASSING:
            return pass_of(view.seat, self.choose_pass(view))
        if view.phase == MOON:
            return MoonChoice(view.seat, moon_choice(view))
        if view.phase == PLAYING and view.my_turn:
            if view.rules.two_decks:
                return Play(view.seat, ALL_CARDS[choose_two_deck_play(view)])
            return Play(view.seat, CARDS[self.choose_play(view)])
        raise WrongPhase("There is nothing for this seat to decide now")

    def choose_pass(self, view: SeatView) -> list[str]:
        """Return the three most dangerous cards: high spades, then high hearts, then high cards."""

        def danger(i: int) -> tuple[int, int]:
            bit = 1 << i
            group = 2 if bit & HIGH_SPADES else 1 if bit & HEARTS_MASK else 0
            return (group, i % 13)

        ranked = sorted(indices_of(view.hand_mask), key=danger, reverse=True)
        return [CARDS[i].text for i in ranked[:3]]

    def choose_play(self, view: SeatView) -> int:
        """Return the index of the card to play."""
        legal = view.legal_mask
        if legal & (legal - 1) == 0:
            return _top(legal)
        if not view.trick:
            # Lead low, and never lead the spades that could draw the Q♠ onto us.
            safe = legal & ~HIGH_SPADES
            return _by_rank(safe or legal, highest=False)
        lead_suit = view.trick[0].card.index // 13
        lead_mask = SUIT_MASKS[lead_suit]
        trick_mask = 0
        for played in view.trick:
            trick_mask |= 1 << played.card.index
        winning = _top(trick_mask & lead_mask)
        bonus = view.rules.bonus_mask
        if legal & lead_mask:
            if bonus and not trick_mask & POINTS_MASK:
                take = _take_bonus(view, legal, trick_mask, winning, bonus)
                if take >= 0:
                    return take
            under = legal & ((1 << winning) - 1)
            if under:
                return _top(under)  # duck with the highest card that still loses
            # We take this trick anyway (unless someone overtakes): spend the highest card,
            # but not the Q♠ on our own trick.
            return _top(legal & ~QS_MASK or legal)
        # Void in the suit led: shed the Q♠, then high spades, then hearts, then high cards;
        # never the Omnibus bonus card, worth -10 to whoever takes it (R5.1).
        if legal & QS_MASK:
            return QS_INDEX
        high_spades = legal & HIGH_SPADES
        if high_spades:
            return _top(high_spades)
        if legal & HEARTS_MASK:
            return _top(legal & HEARTS_MASK)
        return _by_rank(legal & ~bonus or legal, highest=True)


def _take_bonus(view: SeatView, legal: int, trick: int, winning: int, bonus: int) -> int:
    """Return a card that wins the Omnibus bonus card on a trick without points, or -1.

    Worth -10 (R5.1), the bonus card is taken when it is safe: it is in the trick (or we hold
    it and it would win), and we play last, so nobody can overtake or drop points on it.
    """
    if len(view.trick) != view.players - 1:
        return -1
    if legal & bonus and bonus > 1 << winning:
        return _top(bonus)  # our own bonus card wins the trick
    if trick & bonus:
        over = legal & ~((1 << winning) - 1) & ~QS_MASK
        if over:
            return (over & -over).bit_length() - 1  # the lowest card that wins it
    return -1


def choose_two_deck_play(view: SeatView) -> int:
    """Return the index (0..103) of the baseline's play in Cancellation Hearts (R5.2).

    The baseline's plan on two decks: lead low, duck under the winning card, shed danger when
    void. Identical cards change what ducks: a card whose twin is in the trick is cancelled and
    can never win it, so it is as safe a duck as a low card, and playing the twin of the winning
    card cancels it, so the next card down wins instead.
    """
    legal = view.legal_mask
    if legal & (legal - 1) == 0:
        return _top(legal)
    cards = indices_of(legal)
    if not view.trick:
        # Lead low by rank, never the high spades that could draw a Q♠ onto us.
        safe = [c for c in cards if not 1 << (c % 52) & HIGH_SPADES] or cards
        return min(safe, key=lambda c: (c % 13, c))
    lead_suit = view.trick[0].card.index % 52 // 13
    following = [c for c in cards if c % 52 // 13 == lead_suit]
    if following:
        return _two_deck_follow(view, lead_suit, following)
    return _two_deck_shed(cards)


def _two_deck_follow(view: SeatView, lead_suit: int, following: list[int]) -> int:
    """Follow suit on two decks: duck with the highest card that cannot win, else play high."""
    played = [p.card.index % 52 for p in view.trick]
    once = {f for f in played if played.count(f) == 1}
    live = [f for f in once if f // 13 == lead_suit]
    winning = max(live) if live else -1
    # A card whose twin is in the trick is cancelled and cannot win it (the twin of the
    # winning card included: the next live card wins instead).
    under = [c for c in following if c % 52 in once or c % 52 < winning]
    if under:
        return max(under, key=lambda c: (c % 52, c))  # duck with the highest loser
    return max(following, key=lambda c: (c % 52 != QS_INDEX, c % 52, c))


def _two_deck_shed(cards: list[int]) -> int:
    """Void in the suit led: shed a Q♠, then high spades, then the highest heart or card."""
    for group in (QS_MASK, HIGH_SPADES, HEARTS_MASK):
        shed = [c for c in cards if 1 << (c % 52) & group]
        if shed:
            return max(shed, key=lambda c: (c % 52, c))
    return max(cards, key=lambda c: (c % 13, c))


class RandomBot:
    """A player choosing uniformly among legal decisions, from its own seeded Random."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Decision:
        """Return a uniformly random legal decision for the seat's view."""
        if view.phase == PASSING:
            return pass_of(view.seat, self.rng.sample(view.hand, 3))
        if view.phase == MOON:
            return MoonChoice(view.seat, self.rng.choice(("subtract", "add")))
        if view.phase == PLAYING and view.my_turn:
            return Play(view.seat, self.rng.choice(view.legal))
        raise WrongPhase("There is nothing for this seat to decide now")


def play_hand(
    match: Match,
    bots: Sequence[Bot],
    on_decision: Callable[[Decision], None] | None = None,
) -> None:
    """Let the bots decide, each from its own view, until the current hand is scored."""
    while match.phase in (PASSING, PLAYING, MOON):
        for seat in match.to_act():
            decision = bots[seat].choose(match.view(seat))
            match.apply(decision)
            if on_decision is not None:
                on_decision(decision)


def random_playout(match: Match, rng: random.Random) -> None:
    """Finish the current hand with uniformly random legal decisions, through the trusting door."""
    random_ = rng.random
    if match.phase == PASSING:
        for seat in match.to_act():
            hand, chosen = match.hands[seat], 0
            for _ in range(3):
                pick = _random_bit(hand, random_)
                chosen |= pick
                hand ^= pick
            match.pass_fast(seat, chosen)
    play = match.play_fast
    legal = match.legal_mask() if match.phase == PLAYING else 0
    while legal:  # play_fast answers the next seat's legal plays, 0 once the tricks are over
        count = legal.bit_count()
        if count > 1:
            # Inlined _random_bit: this loop is the benchmark's hot path.
            skip = random_() * count
            while skip >= 1.0:
                legal &= legal - 1
                skip -= 1.0
            legal &= -legal
        legal = play(legal.bit_length() - 1)
    if match.phase == MOON:
        match.moon_fast("subtract" if random_() < 0.5 else "add")


def _random_bit(mask: int, random_: Callable[[], float]) -> int:
    """Return one set bit of a non-empty mask, uniformly at random."""
    # Drop int(random_() * count) low bits; the lowest remaining bit is the pick. Counting the
    # float down is cheaper than int() and range(), and drops exactly as many bits: taking 1.0
    # from a float this small is exact.
    skip = random_() * mask.bit_count()
    while skip >= 1.0:
        mask &= mask - 1
        skip -= 1.0
    return mask & -mask
