"""Benchmark: full hands per second through the engine, random players and baseline bots.

Run `python -m games.engine.bench` (or `python bench/engine_bench.py`); `--help` for options.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from ..deal import Deal
from ..rules import VARIANTS, RuleSet, players_allowed
from ..state import HAND_OVER, Match
from .bots import BaselineBot, play_hand, random_playout


def random_hands(players: int, hands: int, seed: int, variant: str = "standard") -> None:
    """Shuffle, pass, play every trick and score `hands` hands with uniformly random players."""
    rules = RuleSet(players=players, target=500, variant=variant)
    rng = random.Random(seed)
    match = Match.new(rules)
    for _ in range(hands):
        if match.phase != HAND_OVER:
            match = Match.new(rules)
        match.start_hand_fast(Deal.from_random(rules, rng))
        random_playout(match, rng)


def bot_hands(players: int, hands: int, seed: int, variant: str = "standard") -> None:
    """Play `hands` hands with baseline bots, each deciding from its seat's view (checked door)."""
    rules = RuleSet(players=players, target=500, variant=variant)
    rng = random.Random(seed)
    bots = [BaselineBot() for _ in range(players)]
    match = Match.new(rules)
    for _ in range(hands):
        if match.phase != HAND_OVER:
            match = Match.new(rules)
        match.start_hand(Deal.from_rng(rules, rng))
        play_hand(match, bots)


def measure(
    run: Callable[[int, int, int, str], None],
    players: int,
    hands: int,
    repeats: int,
    variant: str = "standard",
) -> float:
    """Return the median hands per second over `repeats` timed runs, after an untimed warm-up."""
    run(players, max(hands // 5, 1), -1, variant)
    rates = []
    for repeat in range(repeats):
        start = time.perf_counter()
        run(players, hands, repeat, variant)
        rates.append(hands / (time.perf_counter() - start))
    return statistics.median(rates)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the median hands per second for each table size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000, help="random hands per timed run")
    parser.add_argument("--bot-hands", type=int, default=500, help="bot hands per timed run")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs; the median is shown")
    parser.add_argument("--players", type=int, nargs="*", help="default: every size allowed")
    parser.add_argument("--variant", choices=VARIANTS, default="standard", help="R5 variant")
    args = parser.parse_args(argv)
    sizes = list(players_allowed(args.variant))
    if args.variant == "standard":
        sizes = [4, 3, 5, 6, 7]  # the order the figures were always printed in
    print(f"Python {platform.python_version()} on {platform.machine()}, one process, one core")
    print(f"median of {args.repeats} runs; random: {args.hands} hands/run, bots: {args.bot_hands}")
    if args.variant != "standard":
        print(f"variant: {args.variant}")
    print(f"{'players':>7}  {'random hands/s':>14}  {'baseline-bot hands/s':>20}")
    for players in args.players or sizes:
        rnd = measure(random_hands, players, args.hands, args.repeats, args.variant)
        bot = measure(bot_hands, players, args.bot_hands, args.repeats, args.variant)
        print(f"{players:>7}  {rnd:>14,.0f}  {bot:>20,.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
