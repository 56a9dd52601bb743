"""Clocks under load: how late timeouts all due at once are met while bots finish a round.

A club's worst moment for its clocks: staff ask the bots to finish a tournament round (a long
job, hundreds of the strong bot's decisions) just as many decisions' time runs out. Each side
is served as the README's default profile serves it (`manage.py serve`: daphne and whatever
workers it starts, on a SQLite file of its own). Once it is up, a script sets the scene:

- `--timeouts` players, each at a timed table with three easy bots, each owing a card (not a
  pass: a timed-out card is chosen by the strong bot's search), all with the same deadline,
  `--lead` seconds ahead (the tables are made with the site's clock, `games.lib.clock.now`,
  held at one moment, as its tests hold it);
- a tournament round of `--tables` tables of `--table-size` players, played to 100 points,
  which the bots are asked to finish ("Finish by bots now": a queued task) 3 s before the
  deadline, so that they are still at it when the timeouts fall due.

The bench then reads the database every 50 ms and notes when each table's timeout appears.
Lateness is that moment less the deadline. It reports p50, p99 and the worst, how many were
met, and how far the round had come.

    python bench/clock_under_load.py                         # this checkout
    python bench/clock_under_load.py --other /path/to/other  # and another, side by side

With `--other`, the sides run one after the other, the order alternating by `--rounds`.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from benchlib import free_port, percentile, production_env  # beside this script

ROOT = Path(__file__).resolve().parent.parent

# Run by `manage.py shell` in the side's own checkout: the scene, then its ids as JSON.
SETUP = """
import json, time, random
from datetime import datetime, timedelta, timezone
from games.lib import clock
from django.contrib.auth import get_user_model
from games import engine, services
from games.models import Match, Seat, Tournament, Entry
from games.services import MatchOptions
from games.services import tournaments as tours

deadline = datetime.fromtimestamp({deadline}, tz=timezone.utc)
allowance = 3600
User = get_user_model()
staff = User.objects.create_superuser("bench-staff", password="x")
bot = engine.BaselineBot()
tables = []
# The site's clock held back (as its tests do): every decision's time starts at one moment.
clock.now = lambda: deadline - timedelta(seconds=allowance)
if True:
    for number in range({timeouts}):
        user = User.objects.create_user(f"timed{{number}}", password="x")
        options = MatchOptions(bots=3, target=100, decision_seconds=allowance,
                               bot_levels=("easy",) * 3)
        match = services.create_match(user, options)
        for _ in range(20):
            match.refresh_from_db()
            state = engine.Match.from_snapshot(match.snapshot)
            if state.phase == engine.PLAYING and state.turn == 0:
                break
            decision = bot.choose(state.view(0)).to_dict()
            services.pass_cards(user, match.pk, match.version, decision["cards"])
        seat = Seat.objects.get(match=match, position=0)
        assert seat.to_act and seat.deadline == deadline, (seat.to_act, seat.deadline)
        tables.append(match.pk)
tournament = Tournament.objects.create(
    name="Bench Cup", slug="bench-cup", variant="standard", table_size={table_size},
    round_count=2, hands=0, duplicate_deals=False,
)
for number in range({table_size} * {round_tables}):
    player = User.objects.create_user(f"entrant{{number}}", password="x")
    Entry.objects.create(tournament=tournament, user=player)
tours.seat_next_round(tournament.pk)
round_ = tours.start_round(tournament.pk, staff)
from games.background.round_deadline_tasks import finish_round_now
# Asked just before the deadline: the bots are still at it when the timeouts fall due.
finish_round_now.using(run_after=deadline - timedelta(seconds=3)).enqueue(round_.pk)
round_matches = list(round_.tables.values_list("match_id", flat=True))
print(json.dumps({{"tables": tables, "round": round_matches}}))
"""


@dataclass
class Side:
    """One checkout, and the Python that runs it."""

    root: Path
    python: str

    @property
    def name(self) -> str:
        return self.root.name


@dataclass
class Result:
    lateness: list[float]
    met: int
    wanted: int
    round_finished: int
    round_tables: int
    seconds_to_last: float


def wait_up(port: int, process: subprocess.Popen, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5):
                return
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(f"serve ended with status {process.returncode}") from None
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def timeouts_seen(database: Path, tables: list[int]) -> set[int]:
    marks = ",".join("?" * len(tables))
    sql = (
        f"SELECT DISTINCT match_id FROM games_action WHERE actor = 'timeout' "
        f"AND match_id IN ({marks})"
    )
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30) as db:
        return {row[0] for row in db.execute(sql, tables)}


def finished(database: Path, matches: list[int]) -> int:
    marks = ",".join("?" * len(matches))
    sql = f"SELECT count(*) FROM games_match WHERE status = 'finished' AND id IN ({marks})"
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30) as db:
        return db.execute(sql, matches).fetchone()[0]


def run_side(side: Side, options: argparse.Namespace, workdir: Path) -> Result:
    database = workdir / f"{side.name}-{time.monotonic_ns()}.sqlite3"
    env = production_env(dict(os.environ))
    env["DATABASE_URL"] = f"sqlite:///{database}"
    port = free_port()
    log = (workdir / f"{side.name}-serve.log").open("ab")
    serve = subprocess.Popen(
        [side.python, "manage.py", "serve", "--no-demo", "--port", str(port)],
        cwd=side.root, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        wait_up(port, serve)
        deadline = time.time() + options.lead
        code = SETUP.format(
            deadline=deadline, timeouts=options.timeouts, table_size=options.table_size,
            round_tables=options.tables,
        )  # fmt: skip
        done = subprocess.run(
            [side.python, "manage.py", "shell", "-c", code],
            cwd=side.root, env=env, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        if done.returncode:
            raise RuntimeError(f"setting the scene failed:\n{done.stderr[-3000:]}")
        scene = json.loads(done.stdout.strip().splitlines()[-1])
        if time.time() > deadline - 1:
            raise RuntimeError("setting the scene took longer than --lead: raise it")
        tables, round_matches = scene["tables"], scene["round"]
        seen_at: dict[int, float] = {}
        give_up = deadline + options.patience
        while len(seen_at) < len(tables) and time.time() < give_up:
            now = time.time()
            for match_id in timeouts_seen(database, tables) - seen_at.keys():
                seen_at[match_id] = now
            time.sleep(0.05)
        lateness = sorted(max(0.0, at - deadline) for at in seen_at.values())
        return Result(
            lateness=lateness,
            met=len(seen_at),
            wanted=len(tables),
            round_finished=finished(database, round_matches),
            round_tables=len(round_matches),
            seconds_to_last=lateness[-1] if lateness else float("nan"),
        )
    finally:
        stop(serve)
        log.close()


def describe(side: Side, result: Result) -> str:
    if not result.lateness:
        return f"{side.name}: no timeout met in time"
    late = result.lateness
    return (
        f"{side.name}: {result.met} of {result.wanted} met; lateness p50 "
        f"{percentile(late, 0.5):.2f} s, p99 {percentile(late, 0.99):.2f} s, worst "
        f"{late[-1]:.2f} s; the round's tables finished by then: {result.round_finished} of "
        f"{result.round_tables}; load average {os.getloadavg()[0]:.1f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeouts", type=int, default=100)
    parser.add_argument("--tables", type=int, default=1, help="tables in the round")
    parser.add_argument("--table-size", type=int, default=7)
    parser.add_argument("--lead", type=float, default=45.0, help="seconds to set the scene")
    parser.add_argument("--patience", type=float, default=120.0, help="seconds to wait at most")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each side")
    parser.add_argument("--other", type=Path, help="another checkout, run side by side")
    parser.add_argument("--other-python", help="its Python (default: its .venv)")
    options = parser.parse_args()
    sides = [Side(ROOT, sys.executable)]
    if options.other:
        other = options.other.resolve()
        sides.append(Side(other, options.other_python or str(other / ".venv/bin/python")))
    with tempfile.TemporaryDirectory(prefix="clock-bench-") as workdir:
        for number in range(options.rounds):
            order = sides if number % 2 == 0 else list(reversed(sides))
            for side in order:
                print(describe(side, run_side(side, options, Path(workdir))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
