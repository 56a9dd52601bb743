"""Whole matches to the target by baseline bots, with forced moon shots and every moon rule."""

from __future__ import annotations

import pytest

from games.engine import BaselineBot, Deal, Match, RandomBot, RuleSet, replay
from games.engine.bots import moon_choice, play_hand

from .helpers import baseline_bots, each_table, moon_deal

MOON_HANDS = {2: 0, 3: 1}  # hand number -> seat forced to shoot the moon


def play_match(rules: RuleSet, bots, seed: int = 0):
    """Play a match to its end; hands 2 and 3 are forced moon shots."""
    match = Match.new(rules)
    deals, decisions, asked = [], [], []
    while not match.is_finished:
        hand_no = match.hand_no + 1
        if hand_no in MOON_HANDS:
            deal = moon_deal(rules, hand_no, MOON_HANDS[hand_no])
        else:
            deal = Deal.from_seed(rules, seed * 1000 + hand_no)
        deals.append(deal)
        match.start_hand(deal)

        def record(decision, match=match):
            decisions.append(decision)
            if decision.kind == "moon":
                asked.append(decision)

        play_hand(match, bots, record)
        assert match.hand_no < 60
    return match, deals, decisions, asked


@each_table
@pytest.mark.parametrize("moon", ["ask", "subtract", "add"])
def test_baseline_bots_play_whole_matches_with_moon_shots(players: int, moon: str) -> None:
    rules = RuleSet(players=players, moon=moon)
    match, deals, decisions, asked = play_match(rules, baseline_bots(players))
    assert match.is_finished and max(match.totals) >= rules.target
    assert match.winners and all(match.totals[w] == min(match.totals) for w in match.winners)
    for hand_no, shooter in MOON_HANDS.items():
        row = match.sheet[hand_no - 1]
        assert row.moon == shooter and row.points[shooter] == 26
        if moon == "ask":
            assert row.moon_option in ("subtract", "add")
        else:
            assert row.moon_option == moon
    if moon == "ask":
        assert [d.seat for d in asked][:2] == [0, 1]
    else:
        assert not asked
    assert replay(rules, deals, decisions) == match


@each_table
def test_bot_moon_choice_in_a_match_follows_R4_6(players: int) -> None:
    rules = RuleSet(players=players, target=100)
    match = Match.new(rules)
    match.totals = [80] * players
    match.totals[0] = 50
    match.start_hand(moon_deal(rules, 1, shooter=0))
    bots = baseline_bots(players)
    while match.phase != "moon":
        seat = match.to_act()[0]
        match.apply(bots[seat].choose(match.view(seat)))
    # Adding 26 ends the match at 106 against 50: an outright win.
    assert moon_choice(match.view(0)) == "add"
    match.apply(bots[0].choose(match.view(0)))
    assert match.is_finished and match.winners == (0,)


@each_table
def test_random_and_baseline_bots_only_make_legal_decisions(players: int) -> None:
    rules = RuleSet(players=players, target=60)
    bots = [RandomBot(s) if s % 2 else BaselineBot() for s in range(players)]
    match, _, decisions, _ = play_match(rules, bots, seed=3)
    assert match.is_finished
    assert len(decisions) > 50


def test_baseline_bot_ducks_and_sheds() -> None:
    from .helpers import fill_hands, ready_to_play

    rules = RuleSet(players=4)
    hands = fill_hands(
        rules,
        {
            0: ["2C", "AD"],
            1: ["KC", "3C", "4C"],
            2: ["QS", "2H", "5D"],
            3: ["AC", "TC"],
        },
        avoid={2: "C"},
    )
    match = ready_to_play(rules, hands, hand_no=4)
    bot = BaselineBot()
    match.play(0, "2C")
    # Seat 1 ducks under the 2♣? It cannot; with the K♣ and low clubs it plays the highest.
    assert str(bot.choose(match.view(1))) == "KC"
    match.play(1, "KC")
    # Seat 2, void in clubs on the first trick, may not shed points: it sheds a high card.
    choice = str(bot.choose(match.view(2)))
    assert choice not in ("QS", "2H")
    match.play(2, choice)
    # Seat 3 ducks under the K♣ with the highest club that still loses, keeping the A♣.
    below = [c for c in match.hand(3) if c.suit == "C" and c.rank != "A"]
    assert str(bot.choose(match.view(3))) == str(max(below))
