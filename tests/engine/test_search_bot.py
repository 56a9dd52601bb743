"""The search bot: legal, blind to hidden cards, deterministic, within budget, at every size."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import BaselineBot, Deal, Match, RandomBot, RuleSet, SearchBot, bot_for_level
from games.engine.bots import play_hand, random_playout
from games.engine.cards import CARDS, SUIT_MASKS, indices_of, mask_of
from games.engine.phases import MOON, PASSING, PLAYING

from .helpers import each_table, moon_deal

PROPERTY = settings(max_examples=25, deadline=None, derandomize=True)
tables = st.sampled_from((3, 4, 5, 6, 7))
seeds = st.integers(min_value=0, max_value=2**31)
SMALL = 40  # playouts per decision: enough to exercise the search, quick enough for tests


def random_state(
    players: int, seed: int, steps: int, hand_no: int = 1, variant: str = "standard"
) -> Match:
    """Return a match part-way through a hand, reached by random legal decisions."""
    rules = RuleSet(players=players, variant=variant)
    rng = random.Random(seed)
    match = Match.new(rules)
    match.hand_no = hand_no - 1
    match.start_hand(Deal.from_seed(rules, seed))
    bots = [RandomBot(seed + s) for s in range(players)]
    for _ in range(steps):
        if match.phase not in (PASSING, PLAYING):
            break
        seat = match.to_act()[0] if match.phase == PLAYING else rng.choice(match.to_act())
        match.apply(bots[seat].choose(match.view(seat)))
    return match


@PROPERTY
@given(
    players=tables,
    seed=seeds,
    steps=st.integers(0, 120),
    hand_no=st.integers(1, 4),
)
def test_every_decision_is_legal(players: int, seed: int, steps: int, hand_no: int) -> None:
    match = random_state(players, seed, steps, hand_no)
    bot = SearchBot(seed=seed, playouts=SMALL)
    # Finish the hand with the search bot deciding for every seat, through the checked door.
    while match.phase in (PASSING, PLAYING, MOON):
        for seat in match.to_act():
            match.apply(bot.choose(match.view(seat)))  # raises on any illegal decision
    assert match.phase not in (PASSING, PLAYING)


def swap_hidden(match: Match, me: int, rng: random.Random) -> Match | None:
    """Return a copy where two other seats swap unseen cards of one suit, or None if none can.

    Same-suit swaps keep every void shown and every count; the seat's own passed cards stay
    where it knows they are.
    """
    known = match.passes[me] or 0 if match.phase == PLAYING else 0
    others = [s for s in range(match.n) if s != me]
    rng.shuffle(others)
    for a in others:
        for b in others:
            if a >= b:
                continue
            for suit in rng.sample(range(4), 4):
                mask = SUIT_MASKS[suit] & ~known
                xs, ys = indices_of(match.hands[a] & mask), indices_of(match.hands[b] & mask)
                if xs and ys:
                    x, y = rng.choice(xs), rng.choice(ys)
                    other = match.copy()
                    other.hands[a] ^= 1 << x | 1 << y
                    other.hands[b] ^= 1 << x | 1 << y
                    return other
    return None


@PROPERTY
@given(players=tables, seed=seeds, steps=st.integers(0, 100))
def test_never_reads_a_hidden_card(players: int, seed: int, steps: int) -> None:
    match = random_state(players, seed, steps)
    if match.phase != PLAYING:
        return
    me = match.turn
    other = swap_hidden(match, me, random.Random(seed))
    if other is None:
        return
    assert other.hands != match.hands
    assert other.view(me) == match.view(me)  # the seat cannot tell the two states apart
    first = SearchBot(seed=seed, playouts=SMALL).choose(match.view(me))
    second = SearchBot(seed=seed, playouts=SMALL).choose(other.view(me))
    assert first == second


@each_table
def test_deterministic_for_a_seed(players: int) -> None:
    for seed in range(4):
        match = random_state(players, seed, 4 + 3 * seed)
        if match.phase != PLAYING:
            continue
        view = match.view(match.turn)
        one = SearchBot(seed=7, playouts=SMALL)
        decisions = {str(SearchBot(seed=7, playouts=SMALL).choose(view)) for _ in range(2)}
        decisions.add(str(one.choose(view)))
        decisions.add(str(one.choose(view)))  # a bot's earlier decisions change nothing
        assert len(decisions) == 1


@each_table
@pytest.mark.parametrize("budget", [17, 80])
def test_respects_its_playout_budget(players: int, budget: int) -> None:
    bot = SearchBot(seed=1, playouts=budget)
    searched = 0
    for seed in range(2):
        match = random_state(players, seed, 0)
        while match.phase in (PASSING, PLAYING):
            for seat in match.to_act():
                match.apply(bot.choose(match.view(seat)))
                assert bot.last_playouts <= budget
                searched += bot.last_playouts > 0
    assert searched


@each_table
def test_plays_whole_matches_with_a_moon_shot(players: int) -> None:
    rules = RuleSet(players=players, target=60)
    bots = [SearchBot(seed=s, playouts=20) if s % 2 == 0 else BaselineBot() for s in range(players)]
    match = Match.new(rules)
    while not match.is_finished:
        hand_no = match.hand_no + 1
        deal = moon_deal(rules, 1, 0) if hand_no == 1 else Deal.from_seed(rules, hand_no)
        match.start_hand(deal)
        play_hand(match, bots)
        assert hand_no < 40
    # Hand 1 is a forced shot for seat 0, a search bot, which chose its option (R4.3, R4.6).
    assert match.sheet[0].moon == 0 and match.sheet[0].moon_option in ("subtract", "add")
    assert match.winners


def test_levels() -> None:
    assert isinstance(bot_for_level("easy", 1), BaselineBot)
    assert isinstance(bot_for_level("normal", 1), SearchBot)
    assert isinstance(bot_for_level("strong", 1), SearchBot)
    with pytest.raises(ValueError):
        bot_for_level("godlike", 1)


def test_random_playout_still_finishes_hands() -> None:
    rules = RuleSet()
    match = Match.new(rules)
    match.start_hand(Deal.from_seed(rules, 3))
    random_playout(match, random.Random(3))
    assert match.phase not in (PASSING, PLAYING)


def shooter_state() -> Match:
    """Return trick 12 of a hand where seat 1 took every trick, 23 points, and leads the 5♥.

    Seat 2 holds the 9♥ and 2♥: ducking with the 2♥ lets seat 1 take the last trick with the
    A♠, seat 2's last heart on it, and shoot the moon; the 9♥ stops it for 2 points.
    """
    rules = RuleSet()
    left = {1: ["5H", "AS"], 2: ["9H", "2H"], 3: ["2S", "3S"], 0: ["4S", "5S"]}
    held = mask_of([c for cards in left.values() for c in cards])
    pools = [sorted(indices_of(rules.deck_mask & ~held & SUIT_MASKS[s])) for s in range(4)]
    tricks = []
    # Spades first (the Q♠ breaks hearts), then clubs, diamonds, hearts; seat 1 leads the
    # highest card left and wins; voids shown are in suits nobody holds any more.
    for suit in (3, 3, 0, 0, 0, 1, 1, 1, 2, 2, 2):
        cards = [pools[suit].pop()]
        for _ in range(3):
            cards.append((pools[suit] or pools[0] or pools[1]).pop(0))
        tricks.append((1, tuple(cards), 1))
    match = Match.new(rules)
    match.hand_no = 4
    match.phase = PLAYING
    match.hands = [mask_of(left[s]) for s in range(4)]
    match.tricks = tricks
    for _, cards, _ in tricks:
        match.taken[1] |= mask_of(CARDS[c] for c in cards)
    match.broken, match.first = True, False
    match.leader = match.turn = 1
    match.play(1, "5H")
    return match


def test_stops_a_shooter() -> None:
    match = shooter_state()
    assert match.points_taken == (0, 23, 0, 0)
    view = match.view(2)
    assert str(BaselineBot().choose(view)) == "2H"  # the baseline ducks and lets it happen
    for seed in range(3):
        assert str(SearchBot(seed=seed, playouts=60).choose(view)) == "9H"


def test_a_caller_can_stop_the_search_after_one_deal() -> None:
    match = shooter_state()
    bot = SearchBot(seed=1, playouts=500, stop=lambda: True)
    bot.choose(match.view(2))
    assert bot.last_playouts == 2  # one deal, each of the two distinct cards once
