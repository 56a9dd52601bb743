"""Compare this checkout with another on the HTTP benchmark, both served at the same time.

On a shared machine the same code measures 6.6 ms a card in one run and 9.2 ms in the next,
so two versions run one after the other differ by more than most changes do. Here each round
starts `http_bench.py` from both checkouts at once, each playing half the matches against
its own server (its own database, and its own Redis database on PostgreSQL): both servers
see the same machine at the same moment, and the noise mostly cancels out of each round's
difference.

    python bench/http_compare.py ../before                  # PostgreSQL, 3 rounds
    python bench/http_compare.py ../before --profile sqlite --rounds 5 --target 30

The other checkout needs a `bench/http_bench.py` with the same options (any since this
script was added). On PostgreSQL both sides run as many daphne processes as `--servers` says
(one per core by default); against a checkout whose benchmark predates `--servers` (one
process), this side runs one too, so that both serve alike. Prints, per round and side, the
played card's p50 and p99, `/healthz`'s p50, their ratio and the signed-in poll's p50; then
each figure's median over the rounds, and the median of the rounds' differences (this
checkout minus the other).
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
FIGURES = {
    "play": re.compile(r"^play request\s+p50 ([\d.]+) ms", re.M),
    "play_p99": re.compile(r"^play request\s+p50 [\d.]+ ms\s+p99 ([\d.]+) ms", re.M),
    "healthz": re.compile(r"^trivial view /healthz p50 ([\d.]+) ms", re.M),
    "poll": re.compile(r"^signed-in poll \(204\)\s+p50 ([\d.]+) ms", re.M),
    "errors": re.compile(r"^errors\s+(\d+)", re.M),
}


@dataclass
class Side:
    """One checkout, and where its runs keep their data."""

    label: str
    root: Path
    database: str
    redis_db: int
    servers: int | None = None  # daphne processes on PostgreSQL; None: the benchmark's default


def command(side: Side, options: argparse.Namespace) -> list[str]:
    return [
        sys.executable, str(side.root / "bench" / "http_bench.py"),
        "--profile", options.profile, "--matches", str(options.matches // 2),
        "--target", str(options.target), "--think", str(options.think),
        "--database", side.database, "--redis-url", f"redis://127.0.0.1:6379/{side.redis_db}",
    ] + (["--servers", str(side.servers)] if side.servers else [])  # fmt: skip


def figures_of(output: str) -> dict[str, float]:
    """Read a run's figures from what `http_bench.py` printed."""
    found = {}
    for name, pattern in FIGURES.items():
        match = pattern.search(output)
        if match is None:
            raise RuntimeError(f"no {name} figure in the run's output:\n{output[-2000:]}")
        found[name] = float(match.group(1))
    found["ratio"] = found["play"] / found["healthz"]
    return found


def one_round(sides: list[Side], options: argparse.Namespace) -> list[dict[str, float]]:
    """Run both sides at once; return each one's figures."""
    runs = [
        subprocess.Popen(
            command(side, options),
            cwd=side.root,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )  # fmt: skip
        for side in sides
    ]
    outputs = [run.communicate()[0] for run in runs]
    return [figures_of(output) for output in outputs]


def line(label: str, figures: dict[str, float]) -> str:
    return (
        f"{label:12s} play {figures['play']:5.1f} (p99 {figures['play_p99']:5.1f})  "
        f"healthz {figures['healthz']:4.1f}  "
        f"ratio {figures['ratio']:4.2f}x  poll {figures['poll']:4.1f}  "
        f"errors {figures['errors']:.0f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the other checkout's top folder")
    parser.add_argument("--profile", choices=["sqlite", "postgres"], default="postgres")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--matches", type=int, default=50, help="in all, half on each side")
    parser.add_argument("--target", type=int, default=50)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--servers", type=int, help="daphne processes per side on PostgreSQL")
    options = parser.parse_args()
    other = options.other.resolve()
    if not (other / "bench" / "http_bench.py").is_file():
        parser.error(f"{other} has no bench/http_bench.py")
    sides = [
        Side("this", HERE, "hearts_compare_this", 4, options.servers),
        Side(other.name or "other", other, "hearts_compare_other", 5, options.servers),
    ]
    if '"--servers"' not in (other / "bench" / "http_bench.py").read_text():
        sides[0].servers, sides[1].servers = 1, None  # the other side serves with one process
    print(
        f"{sides[0].root} against {other}: {options.profile}, {options.rounds} rounds of "
        f"{options.matches // 2} matches a side at once, target {options.target} (ms, p50)"
    )
    rounds = []
    for number in range(1, options.rounds + 1):
        figures = one_round(sides, options)
        rounds.append(figures)
        for side, side_figures in zip(sides, figures, strict=True):
            print(line(f"{number}: {side.label}", side_figures))
    print("medians over the rounds")
    for index, side in enumerate(sides):
        medians = {k: statistics.median(r[index][k] for r in rounds) for k in rounds[0][0]}
        print(line(side.label, medians))
    print("this minus the other, median of the rounds' differences")
    for name in ("play", "play_p99", "healthz", "ratio", "poll"):
        difference = statistics.median(r[0][name] - r[1][name] for r in rounds)
        print(f"  {name:8s} {difference:+.2f}")
    failed = any(r[index]["errors"] for r in rounds for index in range(2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
