"""Saturation: the cards per second a server sustains with the played card's p99 within 100 ms.

Players who never pause (no thinking time) play matches against bots over HTTP, the way the
browser does (`http_bench.py`'s player); their number grows step by step, each step lasting
`--seconds`, until the played card's p99 passes `--limit` ms. Each step reports the played
cards answered per second (one request each; the bots' cards that follow it are played in the
same request and not counted), their p50 and p99, and errors. The figure that matters is the
highest rate among the steps whose p99 stayed within the limit.

    python bench/saturation.py --profile sqlite                     # one daphne process
    python bench/saturation.py --profile postgres                   # two daphne processes
    python bench/saturation.py --profile sqlite --other ../before   # and another checkout
    python bench/saturation.py --other . --other-env STOCK_SERVING=1  # a shortcut turned off

With `--other`, the other checkout (its own `.venv`, or `--other-python`) is served too, on a
database of its own, and every step runs on both, one right after the other, the order
alternating from step to step: both see the machine at nearly the same time, and the run
ends with both sides' figures and their ratio. A side whose p99 has passed the limit keeps
stepping while the other has not, so that both tables cover the same numbers of players.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchlib import percentile, production_env, reset_postgres  # beside this script
from http_bench import (
    Browser,
    Checkout,
    Figures,
    Server,
    create_players,
    manage,
    play_match,
    start_servers,
    stop_servers,
)

APPLICATION = "hearts_site.asgi:application"
WARM_UP = 2.0  # seconds of each step not counted: the players' first requests open matches


@dataclass
class Step:
    """One number of players on one side: what it measured."""

    players: int
    seconds: float
    play_ms: list[float]
    errors: list[str]

    @property
    def rate(self) -> float:
        return len(self.play_ms) / self.seconds

    @property
    def p50(self) -> float:
        return percentile(self.play_ms, 0.5) if self.play_ms else float("nan")

    @property
    def p99(self) -> float:
        return percentile(self.play_ms, 0.99) if self.play_ms else float("inf")


@dataclass
class Side:
    """A served checkout, its players signed in, and the steps measured on it."""

    label: str
    servers: list[Server]
    browsers: list[Browser]
    steps: list[Step] = field(default_factory=list)

    def best(self, limit: float) -> Step | None:
        """The step with the highest rate among those within the limit."""
        within = [step for step in self.steps if step.p99 <= limit and not step.errors]
        return max(within, key=lambda step: step.rate, default=None)


def serve(
    label: str, checkout: Checkout, options: argparse.Namespace, workdir: Path, database: str,
    redis_db: int, players: int, extra_env: dict[str, str] | None = None,
) -> Side:  # fmt: skip
    """Set a checkout's database up, start its servers and sign its players in."""
    folder = workdir / label
    folder.mkdir()
    env = production_env(os.environ) | (extra_env or {})
    if options.profile == "sqlite":
        env["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
        count = 1  # the in-memory channel layer reaches only its own process
    else:
        env["DATABASE_URL"] = reset_postgres(database)
        env["REDIS_URL"] = f"redis://127.0.0.1:6379/{redis_db}"
        count = options.servers
    manage(env, "migrate", "-v0", checkout=checkout)
    manage(env, "collectstatic", "--noinput", "-v0", checkout=checkout)
    names = create_players(env, players, checkout)
    servers = start_servers(count, APPLICATION, env, folder, options.profile, False, checkout)
    browsers = []
    for number, name in enumerate(names):
        # Each player keeps to one server, as a browser's connection through a proxy does.
        browser = Browser(servers[number % len(servers)].port)
        browser.login(name)
        browsers.append(browser)
    return Side(label, servers, browsers)


def run_step(side: Side, players: int, options: argparse.Namespace) -> Step:
    """Let `players` of the side's players play without pause for the step's time."""
    figures = Figures()
    began = time.monotonic()
    until = began + WARM_UP + options.seconds

    def keep_playing(browser: Browser) -> None:
        while time.monotonic() < until:
            play_match(browser, options.target, 0.0, figures, threading.Barrier(1), until)

    threads = [
        threading.Thread(target=keep_playing, args=(browser,))
        for browser in side.browsers[:players]
    ]
    for thread in threads:
        thread.start()
    time.sleep(WARM_UP)
    with figures.lock:
        figures.play_ms.clear()  # only the cards played after the warm-up count
        counted_from = time.monotonic()
    for thread in threads:
        thread.join()
    seconds = time.monotonic() - counted_from
    return Step(players, seconds, list(figures.play_ms), list(figures.errors))


def print_step(side: Side, step: Step) -> None:
    print(
        f"{side.label:>6}  {step.players:3d} players  {step.rate:6.1f} cards/s  "
        f"p50 {step.p50:6.1f} ms  p99 {step.p99:6.1f} ms  n={len(step.play_ms)}"
        + (f"  errors {len(step.errors)}: {step.errors[0]}" if step.errors else ""),
        flush=True,
    )


def report(sides: list[Side], limit: float) -> None:
    print(f"\np99 of the played card by number of players (ms; limit {limit:g}):")
    counts = sorted({step.players for side in sides for step in side.steps})
    print("players  " + "  ".join(f"{side.label:>18}" for side in sides))
    for count in counts:
        cells = []
        for side in sides:
            step = next((s for s in side.steps if s.players == count), None)
            cells.append(f"{step.p99:7.1f} @ {step.rate:5.1f}/s" if step else " " * 18)
        print(f"{count:7d}  " + "  ".join(f"{cell:>18}" for cell in cells))
    print()
    bests = []
    for side in sides:
        best = side.best(limit)
        bests.append(best)
        if best is None:
            print(f"{side.label}: no step kept the p99 within {limit:g} ms")
        else:
            print(
                f"{side.label}: {best.rate:.1f} cards/s sustained with p99 {best.p99:.1f} ms "
                f"({best.players} players)"
            )
    if len(bests) == 2 and all(bests):
        print(f"ratio {sides[0].label} / {sides[1].label}: {bests[0].rate / bests[1].rate:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--steps", default="1,2,4,6,8,12,16,24", help="numbers of players")
    parser.add_argument("--seconds", type=float, default=20.0, help="counted time per step")
    parser.add_argument("--limit", type=float, default=100.0, help="p99 limit, in ms")
    parser.add_argument("--target", type=int, default=100, help="each match's target score")
    parser.add_argument("--servers", type=int, default=2, help="daphne processes (PostgreSQL)")
    parser.add_argument("--other", type=Path, help="another checkout, served side by side")
    parser.add_argument("--other-python", help="its Python (default: its .venv)")
    parser.add_argument(
        "--other-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set for the other side's servers; with `--other .`, a shortcut turned off",
    )
    options = parser.parse_args()
    if any("=" not in pair for pair in options.other_env):
        parser.error("--other-env takes NAME=VALUE")
    steps = sorted(int(n) for n in options.steps.split(","))
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores; servers and players share "
        f"them; {options.profile}, {options.seconds:g} s per step"
    )
    workdir = Path(tempfile.mkdtemp(prefix="hearts-saturation-"))
    sides: list[Side] = []
    try:
        sides.append(serve("this", Checkout(), options, workdir, "hearts_sat_this", 4, steps[-1]))
        if options.other:
            other = options.other.resolve()
            python = options.other_python or str(other / ".venv" / "bin" / "python")
            checkout = Checkout(other, python)
            extra_env = dict(pair.split("=", 1) for pair in options.other_env)
            other_side = serve(
                "other", checkout, options, workdir, "hearts_sat_other", 5, steps[-1], extra_env
            )
            sides.append(other_side)
        for number, players in enumerate(steps):
            order = sides if number % 2 == 0 else sides[::-1]
            for side in order:
                step = run_step(side, players, options)
                side.steps.append(step)
                print_step(side, step)
            if all(side.steps[-1].p99 > options.limit for side in sides):
                break
    finally:
        for side in sides:
            stop_servers(side.servers)
            logged = b"".join(server.log.read_bytes() for server in side.servers)
            if b"Traceback" in logged:
                kept = Path(tempfile.gettempdir()) / f"hearts-saturation-{side.label}.log"
                kept.write_bytes(logged)  # the work folder is deleted below
                print(f"{side.label}: the servers logged tracebacks; see {kept}")
        shutil.rmtree(workdir, ignore_errors=True)
    report(sides, options.limit)
    return 1 if any(step.errors for side in sides for step in side.steps) else 0


if __name__ == "__main__":
    sys.exit(main())
