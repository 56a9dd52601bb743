"""A small arena run: the strong bot beats random players on duplicate deals."""

from __future__ import annotations

import importlib.util
import random
import statistics
import sys
from pathlib import Path

import pytest

ARENA = Path(__file__).resolve().parents[2] / "bench" / "arena.py"


def load_arena():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("arena", ARENA)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["arena"] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


def test_strong_beats_random() -> None:
    arena = load_arena()
    results = [
        arena.play_deal(("strong", "random", 4, seed, False, "standard")) for seed in (11, 12)
    ]
    # Random players take about 8 points a hand, the strong bot about 1: a margin of 3 is
    # far inside what these fixed deals give.
    assert statistics.fmean(r.diff for r in results) > 3
    assert all(r.seat_hands == [4, 4] for r in results)


def test_a_cancellation_search_beats_random() -> None:
    arena = load_arena()
    deal = ("search:60", "random", 6, 11, False, "cancellation")
    results = [arena.play_deal(deal[:3] + (seed,) + deal[4:]) for seed in (11, 12)]
    # At six players random players take about 8.7 of the 52 points a hand; the search bot
    # took 12 to 17 points a hand fewer than them on these deals.
    assert statistics.fmean(r.diff for r in results) > 4
    assert all(r.seat_hands == [6, 6] for r in results)


def test_the_arena_refuses_a_table_size_the_variant_does_not_seat() -> None:
    arena = load_arena()
    with pytest.raises(SystemExit):
        arena.main(["--variant", "cancellation", "--players", "4", "--deals", "1"])


def test_the_oracle_searches_the_deal_as_it_lies() -> None:
    """bench/oracle.py, the arena's upper bound: every world it searches is the true deal."""
    arena = load_arena()
    from bench.oracle import OracleSearchBot
    from games.engine import Deal, Match, RuleSet
    from games.engine.bots.sampling import knowledge

    rules = RuleSet(players=4)
    match = Match.new(rules)
    match.hand_no = 3  # the fourth hand holds its cards: play starts at once
    match.start_hand(Deal.from_seed(rules, 7))
    seat = match.turn
    bot = arena.make_bot("oracle:60", 1, 4)
    assert isinstance(bot, OracleSearchBot)
    bot.see(match)
    view = match.view(seat)
    worlds = bot._worlds(view, knowledge(view))
    for seed in (1, 2):
        worlds.deal(random.Random(seed))
        assert worlds.template.hands == match.hands
    result = arena.play_deal(("oracle:60", "random", 4, 11, False, "standard"))
    assert result.seat_hands == [4, 4]
