"""Bad input: a specific ValueError with a readable message, and the state unchanged."""

from __future__ import annotations

import pytest

import games.engine as engine
from games.engine import (
    BadCard,
    BadDeal,
    BadDecision,
    BadPass,
    CardNotHeld,
    Deal,
    IllegalMove,
    Match,
    NotYourTurn,
    RuleSet,
    WrongPhase,
)

from .helpers import each_table, texts


def test_every_engine_error_is_a_value_error() -> None:
    errors = [getattr(engine, n) for n in engine.__all__ if n.startswith("Bad")]
    errors += [CardNotHeld, IllegalMove, NotYourTurn, WrongPhase, engine.EngineError]
    for error in errors:
        assert issubclass(error, ValueError)
        assert issubclass(error, engine.EngineError)


@each_table
def test_bad_decisions_are_refused_and_change_nothing(players: int) -> None:
    rules = RuleSet(players=players)
    match = Match.new(rules)
    match.start_hand(Deal.from_seed(rules, 1))
    hand = texts(match.hand(0))
    before = match.snapshot()
    bad = [
        ("not a dict", BadDecision),
        ({"type": "pass", "cards": hand[:3]}, BadDecision),
        ({"type": "fold", "seat": 0}, BadDecision),
        ({"type": "pass", "seat": 0, "cards": "2C 3C 4C"}, BadDecision),
        ({"type": "pass", "seat": players, "cards": hand[:3]}, NotYourTurn),
        ({"type": "pass", "seat": 0, "cards": hand[:2] + ["ZZ"]}, BadCard),
        ({"type": "pass", "seat": 0, "cards": hand[:1] * 3}, BadPass),
        ({"type": "play", "seat": 0, "card": hand[0]}, WrongPhase),
        ({"type": "moon", "seat": 0, "option": "add"}, WrongPhase),
    ]
    for data, error in bad:
        # A decision's JSON form is read by Decision.from_dict, which refuses a malformed one;
        # the match refuses a well-formed one it does not allow.
        with pytest.raises(error) as err:
            match.apply(engine.Decision.from_dict(data))
        assert str(err.value) and err.value.message == str(err.value)
        assert match.snapshot() == before
    with pytest.raises(BadDecision):
        match.apply("not a decision")  # type: ignore[arg-type]
    assert match.snapshot() == before


@each_table
def test_out_of_turn_and_not_held_plays_are_refused(players: int) -> None:
    rules = RuleSet(players=players)
    match = Match.new(rules)
    match.hand_no = 1 if players != 4 else 3  # a right pass, or the four-player hold hand
    match.start_hand(Deal.from_seed(rules, 2))
    if match.phase == "passing":
        for seat in match.to_act():
            match.pass_cards(seat, texts(match.hand(seat))[:3])
    leader = match.to_act()[0]
    other = (leader + 1) % players
    before = match.snapshot()
    with pytest.raises(NotYourTurn, match=f"seat {leader}'s turn"):
        match.play(other, match.hand(other)[0])
    with pytest.raises(CardNotHeld, match="do not hold"):
        match.play(leader, match.hand(other)[0])
    with pytest.raises(BadCard):
        match.play(leader, "1C")
    with pytest.raises(WrongPhase):
        match.choose_moon(leader, "add")
    assert match.snapshot() == before


def test_start_hand_refuses_a_deal_for_another_table() -> None:
    match = Match.new(RuleSet(players=4))
    with pytest.raises(BadDeal):
        match.start_hand(Deal.from_seed(RuleSet(players=5), 1))
    with pytest.raises(BadDeal):
        match.start_hand("2C 3C")  # type: ignore[arg-type]
    assert match.hand_no == 0 and match.phase == "hand_over"
