"""R4.7: a match of a fixed number of hands ends after exactly that many, whatever the totals."""

from __future__ import annotations

import random

import pytest

from games.engine import (
    BadRules,
    BadSnapshot,
    BaselineBot,
    Deal,
    Match,
    RuleSet,
    WrongPhase,
    replay,
)
from games.engine.bots import play_hand, random_playout

from .helpers import each_table, moon_deal


def play_hands(rules: RuleSet, count: int, seed: int = 3) -> tuple[Match, list[Deal], list]:
    """Play `count` hands with baseline bots; return the match, its deals and its decisions."""
    match = Match.new(rules)
    bots = [BaselineBot() for _ in range(rules.players)]
    deals: list[Deal] = []
    decisions: list = []
    for number in range(count):
        deals.append(Deal.from_seed(rules, seed * 100 + number))
        match.start_hand(deals[-1])
        play_hand(match, bots, decisions.append)
    return match, deals, decisions


@each_table
def test_R4_7_match_ends_after_exactly_the_fixed_number_of_hands(players: int) -> None:
    rules = RuleSet(players=players, hands=3)
    match, _, _ = play_hands(rules, 2)
    assert match.phase == "hand_over" and not match.is_finished
    assert match.winners == ()
    match.start_hand(Deal.from_seed(rules, 99))
    play_hand(match, [BaselineBot() for _ in range(players)])
    assert match.is_finished and match.hand_no == 3 and len(match.sheet) == 3
    with pytest.raises(WrongPhase, match="match is over"):
        match.start_hand(Deal.from_seed(rules, 100))


@each_table
def test_R4_7_the_target_plays_no_part_in_a_fixed_length_match(players: int) -> None:
    # A moon shot adds 26 to everyone else: past a target of 25, yet the match goes on.
    rules = RuleSet(players=players, target=25, moon="add", hands=2)
    match = Match.new(rules)
    match.start_hand(moon_deal(rules, 1, shooter=1))
    for seat in range(players):
        match.apply(BaselineBot().choose(match.view(seat)))
    random_playout(match, random.Random(players))
    assert max(match.totals) >= 25
    assert match.phase == "hand_over"


@each_table
def test_R4_7_lowest_total_wins_and_ties_are_co_winners(players: int) -> None:
    rules = RuleSet(players=players, hands=1, moon="add")
    match = Match.new(rules)
    match.totals = [26 if s == 1 else 0 for s in range(players)]
    match.start_hand(moon_deal(rules, 1, shooter=1))
    for seat in range(players):
        match.apply(BaselineBot().choose(match.view(seat)))
    random_playout(match, random.Random(players))
    assert match.is_finished
    assert match.totals == [26] * players
    assert match.winners == tuple(range(players))


def test_R4_7_a_fixed_length_match_replays_and_survives_its_snapshot() -> None:
    rules = RuleSet(players=4, hands=2)
    match, deals, decisions = play_hands(rules, 2)
    assert match.is_finished
    assert replay(rules, deals, decisions) == match
    again = Match.from_snapshot(match.snapshot())
    assert again.is_finished and again.totals == match.totals
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert rules.to_dict()["hands"] == 2


def test_R4_7_a_snapshot_with_a_hand_after_the_last_one_is_refused() -> None:
    rules = RuleSet(players=4, hands=1)
    longer = RuleSet(players=4, hands=2)
    match, _, _ = play_hands(longer, 2)
    data = match.snapshot()
    data["rules"] = rules.to_dict()
    with pytest.raises(BadSnapshot, match="already ended"):
        Match.from_snapshot(data)


def test_R4_7_playing_to_the_target_stays_the_default_and_is_stored_as_before() -> None:
    assert RuleSet().hands == 0
    # A match stored before fixed lengths existed has the same JSON form as one stored now.
    assert RuleSet().to_dict() == {"players": 4, "target": 100, "moon": "ask"}
    assert RuleSet.from_dict({"players": 4, "target": 100, "moon": "ask"}).hands == 0


@pytest.mark.parametrize("hands", [-1, 51, 1000, "2", 2.0, True, None])
def test_R4_7_the_number_of_hands_must_be_1_to_50(hands: object) -> None:
    with pytest.raises(BadRules) as err:
        RuleSet(hands=hands)  # type: ignore[arg-type]
    assert err.value.rule == "R4.7"
    assert "1 to 50 hands" in err.value.message
    assert RuleSet(hands=1).hands == 1 and RuleSet(hands=50).hands == 50
