"""R6: match flow, reproducible deals and decisions, and what each seat may see."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import (
    BadDeal,
    BadSnapshot,
    Deal,
    Decision,
    Match,
    NotYourTurn,
    RuleSet,
    WrongPhase,
    play_decision,
    replay,
)
from games.engine.bots import RandomBot, play_hand

from .helpers import cards_in, each_table, texts


def recorded_match(players: int, hands: int, seed: int = 5):
    """Play `hands` hands with random bots; return the match, its deals and its decisions."""
    rules = RuleSet(players=players, target=500)
    match = Match.new(rules)
    bots = [RandomBot(seed * 10 + s) for s in range(players)]
    deals, decisions = [], []
    for h in range(hands):
        deals.append(Deal.from_seed(rules, seed * 1000 + h))
        match.start_hand(deals[-1])
        play_hand(match, bots, decisions.append)
    return match, deals, decisions


@each_table
def test_R6_1_each_hand_deals_passes_plays_and_scores(players: int) -> None:
    rules = RuleSet(players=players)
    match = Match.new(rules)
    assert match.phase == "hand_over" and match.hand_no == 0
    with pytest.raises(WrongPhase):
        match.play(0, "2C")
    match.start_hand(Deal.from_seed(rules, 1))
    assert (match.hand_no, match.phase) == (1, "passing")
    with pytest.raises(WrongPhase):
        match.start_hand(Deal.from_seed(rules, 2))
    with pytest.raises(WrongPhase):
        match.choose_moon(0, "add")
    seen = []
    bots = [RandomBot(s) for s in range(players)]
    while match.phase != "hand_over":
        seen.append(match.phase)
        seat = match.to_act()[0]
        match.apply(bots[seat].choose(match.view(seat)))
    assert seen[0] == "passing" and "playing" in seen
    assert seen.index("playing") == players
    assert len(match.tricks) == rules.hand_size
    with pytest.raises(WrongPhase):
        match.pass_cards(0, ["2C", "3C", "4C"])
    match.start_hand(Deal.from_seed(rules, 2))
    assert match.hand_no == 2


def test_R6_1_four_player_hold_hand_skips_the_pass() -> None:
    _, _, decisions = recorded_match(4, 4)
    kinds = [d.kind for d in decisions]
    assert kinds.count("pass") == 3 * 4  # hands 1-3 pass, hand 4 holds
    assert kinds[-52:] == ["play"] * 52


@each_table
def test_R6_2_same_seed_same_deal(players: int) -> None:
    rules = RuleSet(players=players)
    assert Deal.from_seed(rules, 42) == Deal.from_seed(rules, 42)
    assert Deal.from_seed(rules, 42) != Deal.from_seed(rules, 43)
    deal = Deal.from_seed(rules, 42)
    again = Deal.from_dict(rules, json.loads(json.dumps(deal.to_dict())))
    assert again == deal and again.seed == 42
    assert Deal.from_dict(rules, {"seed": 42}) == deal
    with pytest.raises(BadDeal):
        Deal.from_dict(rules, {"hands": ["2C"] * players})


@each_table
def test_R6_2_same_deal_and_decisions_reproduce_the_game(players: int) -> None:
    match, deals, decisions = recorded_match(players, 3)
    stored = json.loads(json.dumps([d.to_dict() for d in decisions]))
    again = replay(match.rules, deals, [Decision.from_dict(d) for d in stored])
    assert again.snapshot() == match.snapshot()
    assert again == match
    trusted = replay(match.rules, [d.to_dict() for d in deals], decisions, checked=False)
    assert trusted == match
    with pytest.raises(BadSnapshot):
        replay(match.rules, deals[:1], decisions)
    with pytest.raises(BadSnapshot):
        replay(match.rules, deals + deals[:1], decisions[:5])


@each_table
def test_R6_2_snapshot_round_trips_through_json_at_every_step(players: int) -> None:
    rules = RuleSet(players=players, target=500)
    match = Match.new(rules)
    rng = random.Random(players)
    bots = [RandomBot(s) for s in range(players)]
    match.start_hand(Deal.from_seed(rules, 9))
    steps = 0
    while True:
        data = json.loads(json.dumps(match.snapshot()))
        assert Match.from_snapshot(data) == match
        if match.phase == "hand_over":
            break
        seat = rng.choice(match.to_act())
        match.apply(bots[seat].choose(match.view(seat)))
        steps += 1
    assert steps == players + players * rules.hand_size


def test_R6_2_inconsistent_snapshots_are_refused() -> None:
    match, _, _ = recorded_match(4, 1)
    match.start_hand(Deal.from_seed(match.rules, 77))
    data = match.snapshot()
    for key, value in [("phase", "finished"), ("totals", [0, 0, 0, 0]), ("plays", "AS")]:
        with pytest.raises(BadSnapshot):
            Match.from_snapshot({**data, key: value})
    with pytest.raises(BadSnapshot):
        Match.from_snapshot({**data, "rules": {"players": 4, "omnibus": True}})


@each_table
def test_R6_3_a_seat_sees_its_own_hand_and_no_other(players: int) -> None:
    rules = RuleSet(players=players)
    match = Match.new(rules)
    match.start_hand(Deal.from_seed(rules, 11))
    bots = [RandomBot(s) for s in range(players)]
    match.apply(bots[0].choose(match.view(0)))  # seat 0 has passed, the others have not
    for seat in range(players):
        view = match.view(seat)
        assert view.hand == match.hand(seat)
        others = set()
        for other in range(players):
            if other != seat:
                others |= set(match.hand(other))
        others |= set(match.view(0).passed or ()) if seat != 0 else set()
        assert not cards_in(view) & others
        assert view.hand_counts == tuple(len(match.hand(s)) for s in range(players))
    public = match.public_view()
    assert not hasattr(public, "hand")
    assert not cards_in(public)


@each_table
def test_R6_3_played_cards_and_winners_are_seen_by_all(players: int) -> None:
    match, _, _ = recorded_match(players, 1)
    match.start_hand(Deal.from_seed(match.rules, 3))
    bots = [RandomBot(s) for s in range(players)]
    while len(match.tricks) < 2 or not match.trick:
        seat = match.to_act()[0]
        match.apply(bots[seat].choose(match.view(seat)))
    public = match.public_view()
    assert [t.winner for t in public.tricks] == [w for _, _, w in match.tricks]
    assert [p.card.index for p in public.trick] == match.trick
    assert public.record is None  # the deal stays secret while the hand is played
    assert public.totals == tuple(match.totals)


@each_table
def test_R6_3_after_the_hand_its_full_record_is_shown(players: int) -> None:
    match, deals, _ = recorded_match(players, 1)
    record = match.view(0).record
    assert record is not None
    assert record.deal == deals[0].hands
    assert all(p is not None and len(p) == 3 for p in record.passes)
    assert len(record.tricks) == match.rules.hand_size


@each_table
def test_R6_3_views_list_legal_plays_and_reasons(players: int) -> None:
    rules = RuleSet(players=players)
    match = Match.new(rules)
    match.start_hand(Deal.from_seed(rules, 4))
    for seat in range(players):
        match.pass_cards(seat, texts(match.hand(seat)[:3]))
    seat = match.to_act()[0]
    view = match.view(seat)
    assert view.my_turn and len(view.legal) == 1
    assert [o.card for o in view.options] == list(view.hand)
    assert all(o.reason for o in view.options if not o.legal)
    waiting = match.view((seat + 1) % players)
    assert not waiting.my_turn and waiting.legal == ()
    assert all("turn" in o.reason for o in waiting.options)
    with pytest.raises(NotYourTurn):
        match.play((seat + 1) % players, waiting.hand[0])
    assert play_decision(seat, view.legal[0]).to_dict() == {
        "type": "play",
        "seat": seat,
        "card": str(view.legal[0]),
    }


@each_table
def test_copy_is_independent_of_the_original(players: int) -> None:
    match, _, _ = recorded_match(players, 1)
    match.start_hand(Deal.from_seed(match.rules, 8))
    before = match.snapshot()
    probe = match.copy()
    assert probe == match
    while probe.phase != "hand_over":
        seat = probe.to_act()[0]
        probe.apply(RandomBot(seat).choose(probe.view(seat)))
    assert match.snapshot() == before
    assert probe.hand_no == match.hand_no and len(probe.sheet) == len(match.sheet) + 1


@each_table
def test_R6_2_a_new_match_snapshot_round_trips(players: int) -> None:
    match = Match.new(RuleSet(players=players, target=50, moon="add"))
    data = json.loads(json.dumps(match.snapshot()))
    assert data["phase"] == "hand_over" and data["deal"] is None
    assert Match.from_snapshot(data) == match


def test_R4_2_points_stay_in_play_until_every_heart_and_the_queen_is_played() -> None:
    from games.engine import Deal, Match, RuleSet

    rules = RuleSet(players=4, moon="add", target=500)
    match = Match.new(rules)
    match.start_hand(Deal.from_seed(rules, 9))
    assert match.points_in_play
    while match.phase in ("passing", "playing"):
        if match.phase == "passing":
            for seat in match.to_act():
                match.pass_cards(seat, match.hand(seat)[:3])
            continue
        left = [c for s in range(4) for c in match.hand(s) if c.suit == "H" or str(c) == "QS"]
        on_table = [p.card for p in match.view(0).trick if p.card.points]
        assert match.points_in_play == bool(left or on_table)
        match.play(match.turn, match.legal_plays(match.turn)[0])
    assert not match.points_in_play
