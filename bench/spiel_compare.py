"""Random four-player hands per second: this engine against OpenSpiel's, driven from Python.

Both play whole hands the same way: deal, pass, every trick, score, each player choosing
uniformly among its legal moves (OpenSpiel also draws the pass direction and each dealt card
as chance moves). Rounds alternate between the engines so both see the same machine load.

Needs the optional `open_spiel` package (`pip install -e '.[spiel]'`). Run from the repository
root: `python bench/spiel_compare.py [--hands N] [--rounds R]`.
"""

from __future__ import annotations

import argparse
import functools
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bots.bench import random_hands  # noqa: E402


def spiel_hands(hands: int, seed: int) -> None:
    """Play `hands` random hands of OpenSpiel's Hearts."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    random_ = random.Random(seed).random
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(random_() * len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(random_() * len(actions))])


def timed(run: Callable[[], None], hands: int) -> tuple[float, float]:
    """Run; return hands per wall-clock second and per CPU second of this process."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return hands / (time.perf_counter() - wall), hands / (time.process_time() - cpu)


def main(argv: Sequence[str] | None = None) -> int:
    """Print hands per second for both engines, round by round, and the median ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands per engine per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()}, one process; {args.hands} hands per round")
    random_hands(4, 200, -1)
    spiel_hands(200, -1)
    # Per round, hands per wall-clock second and per CPU second of this process; the ratio is
    # taken round by round, so that a burst of load on another process sinks one round only.
    ratios, cpu_ratios = [], []
    for r in range(args.rounds):
        ours = timed(functools.partial(random_hands, 4, args.hands, r), args.hands)
        theirs = timed(functools.partial(spiel_hands, args.hands, r), args.hands)
        ratios.append(ours[0] / theirs[0])
        cpu_ratios.append(ours[1] / theirs[1])
        print(
            f"round {r + 1}: this engine {ours[0]:,.0f} hands/s ({ours[1]:,.0f} per CPU s),"
            f" OpenSpiel {theirs[0]:,.0f} ({theirs[1]:,.0f}): {ratios[-1]:.2f}x"
            f" ({cpu_ratios[-1]:.2f}x per CPU s)"
        )
    print(
        f"median of the rounds' ratios: {statistics.median(ratios):.2f}x wall-clock,"
        f" {statistics.median(cpu_ratios):.2f}x per CPU second"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
