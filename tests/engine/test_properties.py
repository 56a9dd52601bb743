"""Invariants over random deals and random legal play, at every table size (hypothesis)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Deal, Decision, Match, RuleSet, replay
from games.engine.bots import RandomBot

from .helpers import cards_in

PROPERTY = settings(max_examples=25, deadline=None, derandomize=True)
tables = st.integers(min_value=3, max_value=7)
seeds = st.integers(min_value=0, max_value=2**32)
moons = st.sampled_from(["ask", "subtract", "add"])
targets = st.integers(min_value=25, max_value=60)


def simulate(
    rules: RuleSet, seed: int, hook: Callable[[Match], None] | None = None, max_hands: int = 100
) -> tuple[Match, list[Deal], list[dict]]:
    """Play a whole match with random legal decisions through the checked door."""
    rng = random.Random(seed)
    bots = [RandomBot(rng.getrandbits(32)) for _ in range(rules.players)]
    match = Match.new(rules)
    deals: list[Deal] = []
    decisions: list[dict] = []
    while not match.is_finished:
        assert len(deals) < max_hands, "the match never ends"
        deals.append(Deal.from_seed(rules, rng.getrandbits(32)))
        match.start_hand(deals[-1])
        while match.phase in ("passing", "playing", "moon"):
            if hook:
                hook(match)
            seat = rng.choice(match.to_act())
            decision = bots[seat].choose(match.view(seat))
            match.apply(decision)
            decisions.append(decision)
        if hook:
            hook(match)
    return match, deals, decisions


@PROPERTY
@given(players=tables, seed=seeds, moon=moons, target=targets)
def test_every_match_ends_with_the_lowest_totals_winning(players, seed, moon, target) -> None:
    rules = RuleSet(players=players, moon=moon, target=target)
    match, deals, _ = simulate(rules, seed)
    assert match.is_finished and max(match.totals) >= target
    assert all(max(row.totals) < target for row in match.sheet[:-1])
    low = min(match.totals)
    assert match.winners == tuple(s for s in range(players) if match.totals[s] == low)
    assert len(match.sheet) == len(deals)


@PROPERTY
@given(players=tables, seed=seeds)
def test_every_card_is_played_exactly_once_and_26_points_are_taken(players, seed) -> None:
    rules = RuleSet(players=players, target=25)
    deck = sorted(i for i in range(52) if rules.deck_mask >> i & 1)

    def hook(match: Match) -> None:
        if match.phase in ("moon", "hand_over", "finished"):
            played = [i for _, cards, _ in match.tricks for i in cards]
            assert sorted(played) == deck
            assert sum(match.points_taken) == 26
        if match.phase in ("hand_over", "finished") and match.deal is not None:
            assert sum(match.sheet[-1].points) == 26

    simulate(rules, seed, hook)


@PROPERTY
@given(players=tables, seed=seeds)
def test_passing_conserves_cards(players, seed) -> None:
    rules = RuleSet(players=players, target=25)
    seen: dict[int, list[int]] = {}

    def hook(match: Match) -> None:
        if match.phase == "passing" and all(p is None for p in match.passes):
            seen["dealt"] = list(match.hands)
        if match.phase == "playing" and not match.tricks and not match.trick and match.pass_offset:
            union = 0
            for mask in match.hands:
                assert mask.bit_count() == rules.hand_size
                union |= mask
            assert union == rules.deck_mask
            n, off = players, match.pass_offset
            for s in range(n):
                sent, got = match.passes[s], match.passes[(s - off) % n]
                assert match.received[s] == got
                assert match.hands[s] == seen["dealt"][s] & ~sent | got

    simulate(rules, seed, hook)


@PROPERTY
@given(players=tables, seed=seeds, moon=moons)
def test_replay_equals_the_live_state(players, seed, moon) -> None:
    rules = RuleSet(players=players, moon=moon, target=25)
    checkpoints: list[dict] = []
    match, deals, decisions = simulate(rules, seed, lambda m: checkpoints.append(m.snapshot()))
    stored = json.loads(json.dumps([d.to_dict() for d in decisions]))
    again = replay(rules, [d.to_dict() for d in deals], [Decision.from_dict(d) for d in stored])
    assert again.snapshot() == match.snapshot()
    # Any intermediate snapshot restores to the same state.
    rng = random.Random(seed)
    for snap in rng.sample(checkpoints, min(5, len(checkpoints))):
        assert Match.from_snapshot(json.loads(json.dumps(snap))).snapshot() == snap


@PROPERTY
@given(players=tables, seed=seeds)
def test_a_seat_view_never_shows_another_seats_unplayed_cards(players, seed) -> None:
    rules = RuleSet(players=players, target=25)

    def hook(match: Match) -> None:
        exchanged = match.phase != "passing"
        secret = []
        for s in range(players):
            mask = match.hands[s]
            if not exchanged and match.passes[s] is not None:
                mask |= match.passes[s]  # a pass in flight still belongs to its sender
            secret.append(mask)
        for seat in range(players):
            visible = 0
            for card in cards_in(match.view(seat)):
                visible |= 1 << card.index
            # A seat knows the cards it passed (R6.3), wherever they are now.
            known = match.passes[seat] or 0
            for other in range(players):
                if other != seat:
                    assert not visible & secret[other] & ~known
        public = 0
        for card in cards_in(match.public_view()):
            public |= 1 << card.index
        for mask in secret:
            assert not public & mask

    simulate(rules, seed, hook, max_hands=100)
