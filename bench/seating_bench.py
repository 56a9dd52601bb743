"""Seating benchmark: how long seating a tournament round takes, by entrants and table size.

Run from the repository root: `python bench/seating_bench.py [--entrants 60] [--rounds 10]`.
Each size seats the same entrants round after round, with random standings as the ranking and
every earlier round's meetings to avoid, and reports the CPU time of each round's seating.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.tournaments.seating import pairs_at, repeat_meetings, seat_round  # noqa: E402


def main() -> int:
    """Seat the rounds at each preferred size and print the timings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    everyone = range(args.entrants)
    print(f"{args.entrants} entrants, {args.rounds} rounds; CPU ms per round's seating")
    print(f"{'size':>4} {'median':>8} {'max':>8} {'repeats in last round':>22}")
    for preferred in range(3, 8):
        met: Counter[frozenset[int]] = Counter()
        timings = []
        repeats = 0
        for number in range(args.rounds):
            ranking = random.Random(number).sample(everyone, len(everyone)) if number else None
            started = time.process_time()
            tables = seat_round(everyone, preferred, met=met, ranking=ranking, seed=number)
            timings.append((time.process_time() - started) * 1000)
            repeats = repeat_meetings(tables, met)
            met.update(pairs_at(tables))
        print(
            f"{preferred:>4} {statistics.median(timings):>8.1f} {max(timings):>8.1f} {repeats:>22}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
