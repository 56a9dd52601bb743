"""R4: scoring, the moon, totals, the end of the match and its winners."""

from __future__ import annotations

import random

import pytest

from games.engine import (
    BadMoonChoice,
    BadRules,
    BaselineBot,
    Card,
    Deal,
    Match,
    MoonChoice,
    NotYourTurn,
    RuleSet,
    WrongPhase,
)
from games.engine.bots import random_playout

from .helpers import each_table, moon_deal


def moon_match(players: int, moon: str = "ask", target: int = 100, totals=None) -> Match:
    """Return a match whose first hand is a forced moon shot by seat 1, played to its end."""
    rules = RuleSet(players=players, moon=moon, target=target)
    match = Match.new(rules)
    if totals is not None:
        match.totals = list(totals)
    match.start_hand(moon_deal(rules, 1, shooter=1))
    random_playout_checked(match, random.Random(players))
    return match


def random_playout_checked(match: Match, rng: random.Random) -> None:
    """Play the hand to the moon choice or its end with random legal cards, checked door."""
    if match.phase == "passing":
        # Baseline passes keep the constructed shot intact.
        for seat in range(match.n):
            match.apply(BaselineBot().choose(match.view(seat)))
    while match.phase == "playing":
        seat = match.to_act()[0]
        match.play(seat, rng.choice(match.legal_plays(seat)))


@each_table
def test_R4_1_score_sheet_has_a_row_per_hand_with_running_totals(players: int) -> None:
    rules = RuleSet(players=players, target=500, moon="add")
    match = Match.new(rules)
    rng = random.Random(players)
    running = [0] * players
    for hand_no in range(1, 5):
        match.start_hand(Deal.from_rng(rules, rng))
        random_playout(match, rng)
        assert len(match.sheet) == hand_no
        row = match.sheet[-1]
        running = [t + s for t, s in zip(running, row.scores, strict=True)]
        assert list(row.totals) == running == match.totals
        assert len(match.public_view().sheet) == hand_no


@each_table
def test_R4_2_one_per_heart_thirteen_for_the_queen(players: int) -> None:
    rules = RuleSet(players=players, target=500)
    rng = random.Random(7 * players)
    match = Match.new(rules)
    match.start_hand(Deal.from_rng(rules, rng))
    random_playout(match, rng)
    expected = [0] * players
    for _, cards, winner in match.tricks:
        for i in cards:
            card = Card.from_index(i)
            expected[winner] += 13 if str(card) == "QS" else int(card.suit == "H")
    assert list(match.sheet[-1].points) == expected
    assert sum(expected) == 26


@each_table
def test_R4_3_moon_shooter_chooses_subtract(players: int) -> None:
    match = moon_match(players)
    assert match.phase == "moon"
    assert match.to_act() == (1,)
    assert match.public_view().shooter == 1
    before = match.snapshot()
    with pytest.raises(NotYourTurn):
        match.choose_moon(0, "subtract")
    with pytest.raises(BadMoonChoice):
        match.choose_moon(1, "halve")
    assert match.snapshot() == before
    match.choose_moon(1, "subtract")
    row = match.sheet[-1]
    assert row.points[1] == 26
    assert list(row.scores) == [-26 if s == 1 else 0 for s in range(players)]
    assert (row.moon, row.moon_option) == (1, "subtract")
    assert match.phase == "hand_over"


@each_table
def test_R4_3_moon_shooter_chooses_add(players: int) -> None:
    match = moon_match(players)
    match.apply(MoonChoice(1, "add"))
    assert list(match.sheet[-1].scores) == [0 if s == 1 else 26 for s in range(players)]
    assert match.sheet[-1].moon_option == "add"


@each_table
@pytest.mark.parametrize("option", ["subtract", "add"])
def test_R4_3_standing_moon_choice_needs_no_decision(players: int, option: str) -> None:
    match = moon_match(players, moon=option)
    assert match.phase == "hand_over"
    row = match.sheet[-1]
    assert (row.moon, row.moon_option) == (1, option)
    assert sum(row.scores) == (-26 if option == "subtract" else 26 * (players - 1))


@each_table
def test_R4_4_totals_may_go_below_zero(players: int) -> None:
    match = moon_match(players, moon="subtract")
    assert match.totals[1] == -26
    assert match.public_view().totals[1] == -26


@each_table
def test_R4_5_match_ends_when_a_total_reaches_the_target(players: int) -> None:
    exactly = moon_match(players, moon="add", target=26)
    assert exactly.is_finished and exactly.phase == "finished"
    assert max(exactly.totals) == 26
    with pytest.raises(WrongPhase, match="match is over"):
        exactly.start_hand(Deal.from_seed(exactly.rules, 1))
    short = moon_match(players, moon="add", target=27)
    assert not short.is_finished and short.phase == "hand_over"
    assert short.winners == ()


@pytest.mark.parametrize("target", [24, 501, 0, -100, "100", 100.0])
def test_R4_5_target_must_be_25_to_500(target: object) -> None:
    with pytest.raises(BadRules) as err:
        RuleSet(target=target)  # type: ignore[arg-type]
    assert err.value.rule == "R4.5"
    assert RuleSet(target=25).target == 25 and RuleSet(target=500).target == 500


@each_table
def test_R4_6_lowest_total_wins(players: int) -> None:
    match = moon_match(players, moon="add", target=25)
    assert match.winners == (1,)


@each_table
def test_R4_6_equal_lowest_totals_share_the_win(players: int) -> None:
    totals = [26 if s == 1 else 0 for s in range(players)]
    match = moon_match(players, moon="add", target=25, totals=totals)
    assert match.totals == [26] * players
    assert match.winners == tuple(range(players))
    totals[0] = 26  # seat 0 ends on 52: everyone else shares the win
    match = moon_match(players, moon="add", target=25, totals=totals)
    assert match.winners == tuple(range(1, players))


@each_table
def test_R4_6_bot_shooter_takes_the_option_that_wins(players: int) -> None:
    # Adding 26 to the others ends the match (target 100) with the shooter lowest: take it.
    totals = [80] * players
    totals[1] = 60
    match = moon_match(players, totals=totals)
    assert BaselineBot().choose(match.view(1)) == MoonChoice(1, "add")
    # Adding would end the match with seat 0 lowest; subtracting keeps the shooter in the game.
    totals = [90] * players
    totals[0], totals[1] = 40, 90
    match = moon_match(players, totals=totals)
    assert BaselineBot().choose(match.view(1)) == MoonChoice(1, "subtract")
