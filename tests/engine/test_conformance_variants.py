"""Replay whole matches of the R5 variants recorded by an independent engine, card for card.

See `conformance/variants/README.md`. Both copies of a card share a name in the vectors: a legal
set names each face once, and a play naming a face removes one copy (the engine's plain-name rule).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.engine import Deal, Match, RuleSet

HERE = Path(__file__).parent / "conformance" / "variants"
MOON_POLICY = {"ask-random": "ask", "always-subtract": "subtract", "always-add": "add"}


def load(name: str) -> list[dict[str, Any]]:
    with open(HERE / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def faces(cards: Any) -> list[str]:
    """Return the sorted distinct faces ("QS" for both copies) of some cards."""
    return [f for f in dict.fromkeys(c.face_text for c in sorted(cards))]


def face_list(cards: Any) -> list[str]:
    """Return the faces of some cards, sorted, one per copy (as the vectors list a hand)."""
    return [c.face_text for c in sorted(cards)]


def replay_match(record: dict[str, Any]) -> Match:
    """Replay one recorded match through the checked door, asserting every step on the way."""
    n = record["n"]
    rules = RuleSet(
        players=n, target=record["target"], moon=MOON_POLICY[record["moon_policy"]],
        **record["rules"],
    )  # fmt: skip
    match = Match.new(rules)
    two_decks = rules.variant == "cancellation"
    for hand in record["hands"]:
        where = f"hand {hand['number']}"
        assert match.phase == "hand_over", where
        match.start_hand(Deal.from_hands(rules, hand["deal"]))
        assert match.hand_no == hand["number"]
        assert [face_list(match.hand(s)) for s in range(n)] == hand["deal"], where
        assert match.pass_direction == hand["pass_direction"], where
        for seat, cards in enumerate(hand["passes"]):
            match.pass_cards(seat, cards)
        assert [face_list(match.hand(s)) for s in range(n)] == hand["hands_after_pass"], where
        assert match.to_act() == (hand["first_leader"],), where
        if two_decks:
            view = match.public_view()
            assert view.dealer == hand["dealer"], where
            assert view.widow_size == len(hand["widow"]), where
            assert view.widow is None, where
        for number, step in enumerate(hand["plays"]):
            seat = step["seat"]
            assert match.to_act() == (seat,), f"{where}, play {number}"
            legal = match.legal_plays(seat)
            assert faces(legal) == step["legal"], f"{where}, play {number}: legal set"
            for card in match.hand(seat):
                assert (match.why_illegal(seat, card) is None) == (card in legal)
            match.play(seat, step["card"])
        view = match.public_view()
        tricks = view.tricks
        assert [t.winner for t in tricks] == hand["trick_winners"], where
        if two_decks:
            assert [t.taker for t in tricks] == hand["trick_takers"], where
            assert [faces(t.cancelled) for t in tricks] == hand["cancelled"], where
            assert view.widow_taker == hand["widow_taker"], where
            assert view.widow is not None and face_list(view.widow) == hand["widow"], where
        else:
            assert view.bonus_taker == hand["bonus_taker"], where
        # Every trick of a finished hand has gone to someone: to its winner when it was won.
        assert all(t.taker is not None for t in tricks), where
        assert all(t.taker == t.winner for t in tricks if t.winner is not None), where
        if match.phase == "moon":
            assert rules.moon == "ask"
            assert match.to_act() == (hand["moon"],), where
            match.choose_moon(hand["moon"], hand["moon_choice"])
        row = match.sheet[-1]
        assert list(row.points) == hand["raw_points"], where
        assert row.moon == hand["moon"], where
        assert row.moon_option == hand["moon_choice"], where
        assert list(row.scores) == hand["hand_points"], where
        assert list(row.totals) == hand["totals_after"], where
        if not two_decks:
            assert row.bonus == hand["bonus_taker"], where
    assert match.is_finished
    assert list(match.totals) == record["final_totals"]
    assert list(match.winners) == record["winners"]
    return match


@pytest.mark.parametrize(
    ("name", "count"), [("omnibus.jsonl", 20), ("cancellation.jsonl", 24)], ids=lambda v: str(v)
)
def test_R5_conformance_matches_agree(name: str, count: int) -> None:
    records = load(name)
    assert len(records) == count
    for record in records:
        match = replay_match(record)
        # The whole match survives a snapshot round trip.
        assert Match.from_snapshot(match.snapshot()) == match


def test_R5_conformance_covers_the_rare_branches() -> None:
    """The vectors do exercise what they claim, so agreeing with them means something."""
    hands = [h for r in load("cancellation.jsonl") for h in r["hands"]]
    assert any(None in h["trick_winners"] for h in hands)  # a trick not won
    assert any(h["trick_winners"][-1] is None for h in hands)  # ... on the last trick
    assert any(h["trick_winners"][0] is None and h["widow"] for h in hands)  # widow carried
    assert any(h["moon"] is not None for h in hands)
    omnibus = [h for r in load("omnibus.jsonl") for h in r["hands"]]
    assert any(h["moon"] is not None and h["bonus_taker"] == h["moon"] for h in omnibus)
    assert any(h["moon"] is not None and h["bonus_taker"] != h["moon"] for h in omnibus)
