"""Random four-player hands per second: this engine against OpenSpiel's, driven from Python.

Both play whole hands the same way: deal, pass, every trick, score, each player choosing
uniformly among its legal moves (OpenSpiel also draws the pass direction and each dealt card
as chance moves). Rounds alternate between the engines so both see the same machine load.

Needs the optional `open_spiel` package (`pip install -e '.[spiel]'`). Run from the repository
root: `python bench/spiel_compare.py [--hands N] [--rounds R]`.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bench import random_hands  # noqa: E402


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


def main(argv: Sequence[str] | None = None) -> int:
    """Print hands per second for both engines, round by round, and the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands per engine per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()}, one process; {args.hands} hands per round")
    ours, theirs = [], []
    random_hands(4, 200, -1)
    spiel_hands(200, -1)
    for r in range(args.rounds):
        start = time.perf_counter()
        random_hands(4, args.hands, r)
        ours.append(args.hands / (time.perf_counter() - start))
        start = time.perf_counter()
        spiel_hands(args.hands, r)
        theirs.append(args.hands / (time.perf_counter() - start))
        print(f"round {r + 1}: this engine {ours[-1]:,.0f} hands/s, OpenSpiel {theirs[-1]:,.0f}")
    mine, spiel = statistics.median(ours), statistics.median(theirs)
    print(f"median: this engine {mine:,.0f} hands/s, OpenSpiel {spiel:,.0f}: {mine / spiel:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
