"""Replay 500 four-player hands recorded by an independent engine and agree card for card."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine import Deal, Match, RuleSet

HERE = Path(__file__).parent / "conformance"
FILES = ("hearts4-uniform.jsonl", "hearts4-moon.jsonl", "hearts4-edge.jsonl")
# The record gives each hand's pass direction; our hand numbers 1..4 pass left, right, across, none.
HAND_FOR_OFFSET = {1: 1, 3: 2, 2: 3, 0: 4}


def load(name: str) -> list[dict]:
    with open(HERE / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def replay_record(record: dict, moon: str) -> Match:
    """Replay one recorded hand through the checked door, asserting every legal set on the way."""
    rules = RuleSet(players=4, moon=moon)
    match = Match.new(rules)
    match.hand_no = HAND_FOR_OFFSET[record["pass_offset"]] - 1
    match.start_hand(Deal.from_hands(rules, record["deal"]))
    assert match.pass_direction == record["pass_direction"]
    for seat, cards in enumerate(record["passes"]):
        if cards:
            match.pass_cards(seat, cards)
    assert [[str(c) for c in match.hand(s)] for s in range(4)] == record["hands_after_pass"]
    assert match.to_act() == (record["first_leader"],)
    for number, step in enumerate(record["plays"]):
        seat = step["seat"]
        assert match.to_act() == (seat,), f"play {number}"
        legal = [str(c) for c in match.legal_plays(seat)]
        assert legal == step["legal"], f"play {number}: legal set"
        for card in match.hand(seat):
            assert (match.why_illegal(seat, card) is None) == (str(card) in legal)
        match.play(seat, step["card"])
    return match


@pytest.mark.parametrize("name", FILES)
def test_conformance_hands_agree(name: str) -> None:
    records = load(name)
    assert len(records) == {"hearts4-edge.jsonl": 100}.get(name, 200)
    for record in records:
        match = replay_record(record, "add")
        assert [w for _, _, w in match.tricks] == record["trick_winners"]
        tricks = match.public_view().tricks
        assert [t.taker for t in tricks] == [t.winner for t in tricks] == record["trick_winners"]
        row = match.sheet[-1]
        assert list(row.points) == record["raw_points_taken"]
        assert row.moon == record["moon"]
        assert list(row.scores) == record["points"]


def test_conformance_moon_hands_with_subtract() -> None:
    shot = [r for r in load("hearts4-moon.jsonl") if r["moon"] is not None]
    assert len(shot) >= 10
    for record in shot:
        match = replay_record(record, "subtract")
        expected = [-26 if s == record["moon"] else 0 for s in range(4)]
        assert list(match.sheet[-1].scores) == expected


def test_conformance_moon_hands_ask_the_shooter() -> None:
    record = next(r for r in load("hearts4-moon.jsonl") if r["moon"] is not None)
    match = replay_record(record, "ask")
    assert match.phase == "moon"
    assert match.to_act() == (record["moon"],)
    match.choose_moon(record["moon"], "add")
    assert list(match.sheet[-1].scores) == record["points"]
