"""The trusting door agrees with the checked one, and playouts through it are legal games.

play_fast answers the next seat's legal plays so that a playout needs one call per card; that
answer must be what legal_mask() and the checked door say, in every variant and table size.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Deal, Match, RuleSet
from games.engine.bots import random_playout
from games.engine.cards import ALL_CARDS, cards_from_mask, indices_of
from games.engine.phases import MOON, PASSING, PLAYING
from games.engine.rules import PLAYER_RANGES

PROPERTY = settings(max_examples=40, deadline=None, derandomize=True)
tables = st.sampled_from(
    [(variant, players) for variant, sizes in PLAYER_RANGES.items() for players in sizes]
)
seeds = st.integers(min_value=0, max_value=2**32)


def random_pick(mask: int, rng: random.Random) -> int:
    """Return one card index of a non-empty set, uniformly at random."""
    return rng.choice(indices_of(mask))


@PROPERTY
@given(table=tables, seed=seeds)
def test_play_fast_answers_the_legal_plays_of_the_next_seat(table, seed) -> None:
    variant, players = table
    rules = RuleSet(players=players, variant=variant, target=500)
    fast, checked = Match.new(rules), Match.new(rules)
    rng = random.Random(seed)
    for _ in range(4):  # every pass direction of a four-player cycle
        deal = Deal.from_random(rules, rng)
        fast.start_hand_fast(deal)
        checked.start_hand(deal)
        if fast.phase == PASSING:
            for seat in range(players):
                cards = rng.sample(indices_of(fast.hands[seat]), 3)
                fast.pass_fast(seat, sum(1 << i for i in cards))
                checked.pass_cards(seat, [ALL_CARDS[i] for i in cards])
        legal = fast.legal_mask()
        while fast.phase == PLAYING:
            assert legal == fast.legal_mask()
            assert cards_from_mask(legal) == checked.legal_plays(checked.turn)
            card = random_pick(legal, rng)
            checked.play(checked.turn, ALL_CARDS[card])
            legal = fast.play_fast(card)
        assert legal == 0
        if fast.phase == MOON:
            option = rng.choice(("subtract", "add"))
            fast.moon_fast(option)
            checked.choose_moon(checked.to_act()[0], option)
        assert fast.snapshot() == checked.snapshot()


@PROPERTY
@given(table=tables, seed=seeds)
def test_a_random_playout_replays_through_the_checked_door(table, seed) -> None:
    variant, players = table
    rules = RuleSet(players=players, variant=variant, target=500)
    played, checked = Match.new(rules), Match.new(rules)
    rng = random.Random(seed)
    for _ in range(4):
        deal = Deal.from_random(rules, rng)
        played.start_hand_fast(deal)
        checked.start_hand(deal)
        random_playout(played, rng)
        for seat, passed in enumerate(played.passes):
            if passed is not None:
                checked.pass_cards(seat, cards_from_mask(passed))
        for _, cards, _ in played.tricks:
            for card in cards:
                checked.play(checked.turn, ALL_CARDS[card])
        if checked.phase == MOON:
            checked.choose_moon(checked.to_act()[0], played.sheet[-1].moon_option or "")
        assert checked.snapshot() == played.snapshot()


def test_random_playout_is_the_same_for_the_same_seed() -> None:
    rules = RuleSet(players=4, target=500)
    outcomes = []
    for _ in range(2):
        match, rng = Match.new(rules), random.Random(11)
        for _ in range(4):
            match.start_hand_fast(Deal.from_random(rules, rng))
            random_playout(match, rng)
        outcomes.append(match.snapshot())
    assert outcomes[0] == outcomes[1]
