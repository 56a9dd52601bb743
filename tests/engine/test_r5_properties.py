"""Invariants of the R5 variants over random deals and random legal play (hypothesis)."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Match, RuleSet, replay

from .test_properties import simulate

PROPERTY = settings(max_examples=20, deadline=None, derandomize=True)
seeds = st.integers(min_value=0, max_value=2**32)
moons = st.sampled_from(["ask", "subtract", "add"])


def check_hands(match: Match, deals, decisions, hand_points: int) -> None:
    rules = match.rules
    for deal in deals:
        dealt = [c for hand in deal.hands for c in hand] + list(deal.widow_cards)
        assert len(dealt) == len(set(dealt))  # every copy once
        copies = Counter(c.face_text for c in dealt)
        assert set(copies.values()) == {2 if rules.two_decks else 1}
    for row in match.sheet:
        assert sum(row.points) == hand_points
        bonus = -10 if rules.variant == "omnibus" else 0
        if row.moon is None:
            assert sum(row.scores) == hand_points + bonus
        elif row.moon_option == "subtract":
            assert sum(row.scores) == -hand_points + bonus
        else:
            assert sum(row.scores) == hand_points * (rules.players - 1) + bonus
    assert replay(rules, deals, decisions) == match
    assert Match.from_snapshot(json.loads(json.dumps(match.snapshot()))) == match


@PROPERTY
@given(
    players=st.integers(min_value=3, max_value=7),
    seed=seeds,
    moon=moons,
    bonus=st.sampled_from(["JD", "TD"]),
)
def test_R5_1_omnibus_hands_add_up(players, seed, moon, bonus) -> None:
    rules = RuleSet(players=players, moon=moon, target=40, variant="omnibus", bonus_card=bonus)
    match, deals, decisions = simulate(rules, seed)
    assert all(row.bonus is not None for row in match.sheet)
    check_hands(match, deals, decisions, 26)


@PROPERTY
@given(players=st.integers(min_value=5, max_value=10), seed=seeds, moon=moons)
def test_R5_2_cancellation_hands_add_up(players, seed, moon) -> None:
    rules = RuleSet(players=players, moon=moon, target=80, variant="cancellation")
    match, deals, decisions = simulate(rules, seed)
    assert match.is_finished and max(match.totals) >= 80
    check_hands(match, deals, decisions, 52)
