"""The search bot: determinized Monte Carlo over deals consistent with what its seat knows.

For each decision in play the bot draws deals of the hidden cards that agree with its view
(sampling.py), plays every legal card in each of them, finishes the hand with the playout
policy (playout.py) and keeps the card whose outcomes are best on average. Every candidate is
tried in the same deals with the same playout randomness, so they are compared on equal terms.
The outcome is judged as the match judges it: points against the other seats' average, and,
when the hand can end the match, the placement it leaves (R4.5, R4.6).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import NamedTuple

from ..cancellation import NOT_WON, POINTS2, SUITS2, CancellationMatch
from ..cards import ALL_CARDS, CARDS, DECK_SIZE, POINTS_MASK, QS_INDEX, indices_of, mask_of
from ..decisions import Decision, MoonChoice, Play, pass_of
from ..errors import WrongPhase
from ..rules import RuleSet
from ..state import MOON, PASSING, PLAYING, Match
from ..views import SeatView
from .bots import BaselineBot, Bot, moon_choice
from .cancellation_playout import copy_held, faces, play_out_two_decks, two_deck_scores
from .cancellation_sampling import sample_two_deck_deal, two_deck_knowledge
from .passing import choose_pass
from .playout import NOISE, hand_scores, play_out
from .sampling import Knowledge, knowledge, sample_hands

# How many points a better match placement is worth against points in this hand, when the
# hand can end the match: finishing first rather than last outweighs nearly any hand.
PLACE_WEIGHT = 40.0
# Extra points counted against a playout in which another seat shot the moon. Against the
# others' average a shot costs us only about 8.7 points, and the sampled deals see few of the
# shots that get through (a weak or random player does not defend, and holds what it holds):
# counted at that price the search let a random seat shoot in 1.4% of hands, ducking the one
# trick that would have stopped it to save a point or two. The dread makes such a trick worth
# taking; 0 turns it off.
MOON_DREAD = 13.0
MASK64 = (1 << 64) - 1


def mix(seed: int, items: list[int]) -> int:
    """Return a 64-bit number from a seed and integers (stable across processes, unlike hash)."""
    h = seed & MASK64
    for x in items:
        h = (h * 1_000_003 + x + 1) & MASK64
        h ^= h >> 29
    return h


def view_seed(seed: int, view: SeatView) -> int:
    """Return the random seed of one decision: from the bot's seed and what the seat sees only."""
    items = [view.seat, view.hand_no, view.hand_mask & 0xFFFFFFFF, view.hand_mask >> 32]
    for trick in view.tricks:
        items.extend(p.card.index for p in trick.plays)
    items.extend(p.card.index for p in view.trick)
    return mix(seed, items)


def utility(
    rules: RuleSet, hand_no: int, totals: tuple[int, ...], me: int, scores: list[int]
) -> float:
    """Return how good a hand's scores are for seat `me` (higher is better)."""
    n = len(scores)
    mine = scores[me]
    value = (sum(scores) - mine) / (n - 1) - mine
    after = [t + s for t, s in zip(totals, scores, strict=True)]
    if rules.is_over(hand_no, after):
        mine = after[me]
        beaten = sum(1.0 if t > mine else 0.5 if t == mine else 0.0 for t in after) - 0.5
        value += PLACE_WEIGHT * beaten / (n - 1)
    return value


def world_template(view: SeatView, k: Knowledge) -> Match:
    """Return a match in this view's position with empty hands, to copy for each sampled deal."""
    m = Match(view.rules)
    m.hand_no = view.hand_no
    m.phase = PLAYING
    m.turn = view.seat
    m.leader = view.leader if view.leader is not None else view.seat
    m.trick = [p.card.index for p in view.trick]
    for card in m.trick:
        m.trick_mask |= 1 << card
    if m.trick:
        m.lead_mask = 0x1FFF << (13 * (m.trick[0] // 13))
    m.tricks = [
        (t.leader, tuple(p.card.index for p in t.plays), t.winner or 0) for t in view.tricks
    ]
    m.taken = list(k.taken)
    m.broken = view.hearts_broken
    m.first = view.first_trick
    m.totals = list(view.totals)
    m.passes = [0] * m.n
    return m


def two_deck_template(view: SeatView, k: Knowledge) -> CancellationMatch:
    """Return a Cancellation match in this view's position with empty hands and no widow,
    to copy for each sampled deal (R5.2): the tricks with their winners and takers, the
    cards of tricks not won that wait for the next winner, who took the widow if anyone has.
    """
    m = CancellationMatch(view.rules)
    m.hand_no = view.hand_no
    m.phase = PLAYING
    m.turn = view.seat
    m.leader = view.leader if view.leader is not None else view.seat
    m.dealer = view.dealer if view.dealer is not None else -1
    m.trick = [p.card.index for p in view.trick]
    for card in m.trick:
        m.trick_mask |= 1 << card
    if m.trick:
        m.lead_mask = SUITS2[m.trick[0] % DECK_SIZE // 13]
    m.tricks = [
        (t.leader, tuple(p.card.index for p in t.plays), NOT_WON if t.winner is None else t.winner)
        for t in view.tricks
    ]
    m.takers = [NOT_WON if t.taker is None else t.taker for t in view.tricks]
    m.taken = list(k.taken)
    m.pending = mask_of(view.carried)
    m.widow_taker = view.widow_taker
    m.broken = view.hearts_broken
    m.first = view.first_trick
    m.totals = list(view.totals)
    m.passes = [0] * m.n
    return m


def moon_alive(k: Knowledge) -> bool:
    """Say whether this seat could still take every point: worth searching a shot too."""
    for seat, taken in enumerate(k.taken):
        if seat != k.seat and taken & POINTS_MASK:
            return False
    hand = indices_of(k.hand)
    high = sum(1 for i in hand if i % 13 >= 10)  # queens, kings, aces
    mine = k.taken[k.seat] & POINTS_MASK
    return bool(mine) or high * 5 >= len(hand) * 2


def distinct_plays(legal: int, live: int) -> list[int]:
    """Return one card for each set of legal cards that would play alike.

    Two cards of a suit with no live card between them (none unseen, none on the table) win
    and lose the same tricks, so only the lowest is searched; the Q♠ is never merged, as its
    points set it apart.
    """
    out: list[int] = []
    previous = -2
    for card in indices_of(legal):
        if (
            out
            and previous // 13 == card // 13
            and not live & ((1 << card) - (2 << previous))
            and QS_INDEX not in (card, previous)
        ):
            previous = card
            continue
        out.append(card)
        previous = card
    return out


def distinct_two_deck_plays(legal: int, live: int) -> list[int]:
    """Return one card for each set of legal cards that would play alike, with two decks.

    The two copies of a card are one candidate (the first copy held is searched). Two faces
    of a suit play alike when no live copy (unseen or on the table) has a face from the lower
    to the higher, both included: a live twin of either could cancel one and not the other
    (R5.2). The Q♠ is never merged.
    """
    live = faces(live)
    out: list[int] = []
    previous = -2
    for face in indices_of(faces(legal)):
        if (
            out
            and previous // 13 == face // 13
            and not live & ((2 << face) - (1 << previous))
            and QS_INDEX not in (face, previous)
        ):
            previous = face
            continue
        out.append(copy_held(face, legal))
        previous = face
    return out


class Worlds(NamedTuple):
    """How a search draws its deals and plays them out: one deck, or two (R5.2)."""

    template: Match  # the view's position with the hidden cards left out
    deal: Callable[[random.Random], None]  # put a sampled deal of them into the template
    finish: Callable[[Match, Callable[[], float], int], None]  # (match, random, plan)
    scores: Callable[[Match], list[int]]  # each seat's score for the finished hand


class SearchBot:
    """A player that searches sampled deals; deterministic for its seed and the view.

    `playouts` bounds the playouts per decision (at least one per legal card). The engine has
    no clock: a caller wanting a time budget passes `stop`, asked before each new deal after
    the first, which ends the search early when it returns True (at the cost of determinism).
    The other options turn parts off, to measure what each is worth: `infer` (reading the
    Q♠ from play), `plan_moon` (searching a shot too), `plan_pass` (else the baseline's pass),
    `noise` (the share of random plays by the other seats in playouts), `moon_dread` (the
    extra cost of another seat's shot, MOON_DREAD).
    """

    def __init__(
        self,
        seed: int = 0,
        playouts: int = 600,
        stop: Callable[[], bool] | None = None,
        infer: bool = True,
        plan_moon: bool = False,
        plan_pass: bool = True,
        noise: float = NOISE,
        moon_dread: float = MOON_DREAD,
    ) -> None:
        self.seed = seed
        self.playouts = playouts
        self.stop = stop
        self.infer = infer
        self.plan_moon = plan_moon
        self.plan_pass = plan_pass
        self.noise = noise
        self.moon_dread = moon_dread
        self.last_playouts = 0  # playouts run by the latest decision

    def choose(self, view: SeatView) -> Decision:
        """Return this bot's decision for its seat's view.

        Omnibus is searched with its bonus card counted in every outcome (R5.1); Cancellation
        (R5.2) with two-deck sampling and playouts, the two copies of a card one candidate.
        """
        if view.phase == PASSING and view.passed is None:
            if not self.plan_pass:
                return BaselineBot().choose(view)
            mask = choose_pass(view.hand_mask, view.rules.hand_size)
            return pass_of(view.seat, [CARDS[i] for i in indices_of(mask)])
        if view.phase == MOON and view.shooter == view.seat:
            return MoonChoice(view.seat, moon_choice(view))
        if view.phase == PLAYING and view.my_turn:
            return Play(view.seat, ALL_CARDS[self.choose_play(view)])
        raise WrongPhase("There is nothing for this seat to decide now")

    def choose_play(self, view: SeatView) -> int:
        """Return the index of the card to play."""
        self.last_playouts = 0
        legal = view.legal_mask
        if not legal & (legal - 1):
            return legal.bit_length() - 1
        two_decks = view.rules.two_decks
        k = two_deck_knowledge(view) if two_decks else knowledge(view)
        trick_mask = 0
        for p in view.trick:
            trick_mask |= 1 << p.card.index
        if two_decks:
            # Cards of tricks not won still go to the next winner (R5.2).
            at_stake = (k.unseen | k.hand | trick_mask | mask_of(view.carried)) & POINTS2
            candidates = distinct_two_deck_plays(legal, k.unseen | trick_mask)
        else:
            at_stake = (k.unseen | k.hand | trick_mask) & POINTS_MASK
            candidates = distinct_plays(legal, k.unseen | trick_mask)
        if not at_stake:
            return (legal & -legal).bit_length() - 1  # no points left: nothing to win or lose
        if len(candidates) == 1:
            return candidates[0]
        return self._search(view, k, candidates)

    def _worlds(self, view: SeatView, k: Knowledge) -> Worlds:
        """Return how to build and play out the sampled deals of this view's game."""
        if view.rules.two_decks:
            return self._two_deck_worlds(view, k)
        me, rules, hand_no, totals = view.seat, view.rules, view.hand_no, view.totals
        noise = self.noise
        template = world_template(view, k)
        weighted = self.infer

        def deal(rng: random.Random) -> None:
            template.hands = sample_hands(k, rng, weighted=weighted)

        def finish(m: Match, random_: Callable[[], float], plan: int) -> None:
            play_out(m, random_, plan, me, noise)

        def scores(m: Match) -> list[int]:
            return hand_scores(rules, hand_no, totals, m.taken)

        return Worlds(template, deal, finish, scores)

    def _two_deck_worlds(self, view: SeatView, k: Knowledge) -> Worlds:
        """Return the worlds of a Cancellation hand: the widow is sampled with the hands, and
        goes where the engine would put it (with trick 1's cards, or to the seat that took
        them), so that its points count for its taker and toward a moon (R5.4)."""
        me, totals, noise = view.seat, view.totals, self.noise
        template = two_deck_template(view, k)
        carried, taker, taken = template.pending, view.widow_taker, k.taken

        def deal(rng: random.Random) -> None:
            hands, widow = sample_two_deck_deal(k, rng)
            template.hands = hands
            template.widow = widow
            if taker is None:
                template.pending = carried | widow
            else:
                template.taken = list(taken)
                template.taken[taker] |= widow

        def finish(m: Match, random_: Callable[[], float], plan: int) -> None:
            play_out_two_decks(m, random_, me, noise)

        def scores(m: Match) -> list[int]:
            return two_deck_scores(m, totals)

        return Worlds(template, deal, finish, scores)

    def _search(self, view: SeatView, k: Knowledge, candidates: list[int]) -> int:
        me, rules, hand_no, totals = view.seat, view.rules, view.hand_no, view.totals
        dread = self.moon_dread
        rng = random.Random(view_seed(self.seed, view))
        playout_rng = random.Random()
        template, deal, finish, score = self._worlds(view, k)
        # A shot of one's own is searched in the standard game and Omnibus only: with two
        # decks it needs every heart and both Q♠ among 5 to 10 players.
        shot = self.plan_moon and not rules.two_decks and moon_alive(k)
        plans = [-1, me] if shot else [-1]
        width = len(candidates) * len(plans)
        if width > self.playouts and len(plans) > 1:
            plans = [-1]
            width = len(candidates)
        worlds = max(1, self.playouts // width)
        sums = [[0.0] * len(candidates) for _ in plans]
        for world in range(worlds):
            if self.stop is not None and world and self.stop():
                break
            deal(rng)
            playout_seed = rng.getrandbits(64)
            for ci, card in enumerate(candidates):
                for pi, plan in enumerate(plans):
                    m = template.copy()
                    m.play_fast(card)
                    playout_rng.seed(playout_seed)
                    finish(m, playout_rng.random, plan)
                    value = utility(rules, hand_no, totals, me, score(m))
                    # The engine names the seat that took every point once the hand ends.
                    if dread and m.shooter is not None and m.shooter != me:
                        value -= dread
                    sums[pi][ci] += value
                    self.last_playouts += 1
        # The better plan for each card (ducking, or shooting the moon), then the best card;
        # ties go to the lowest card.
        best = max(
            range(len(candidates)), key=lambda ci: (max(row[ci] for row in sums), -candidates[ci])
        )
        return candidates[best]


LEVELS = ("easy", "normal", "strong")
# Playouts per decision for each level, chosen so that the decision times meet their goals
# on one core (bench/arena.py measures them). Cancellation keeps them at every table size: a
# two-deck playout plays about 100 cards whatever the size (20 tricks of 5 to 10 of 10), and
# its decisions measured well inside the goals at 6 and 10 players, so nothing is scaled.
LEVEL_PLAYOUTS = {"normal": 120, "strong": 600}


def bot_for_level(level: str, seed: int = 0) -> Bot:
    """Return the bot for a level: "easy" (the baseline), "normal" or "strong"."""
    if level == "easy":
        return BaselineBot()
    if level in LEVEL_PLAYOUTS:
        return SearchBot(seed=seed, playouts=LEVEL_PLAYOUTS[level])
    raise ValueError(f"Unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")
