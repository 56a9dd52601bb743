"""Live events through one daphne process: N open sockets, cards played, time to every browser.

The script serves the site with one daphne process, signs players in over HTTP and opens N
WebSocket connections the way `games/static/games/live.js` does: each one sends
`{"follow": <match>}` and waits for the answer. Most are idle pages following matches where
nobody moves; four people are seated at each of a few active matches, one page each. Then
cards are played in the active matches over HTTP, as the page's htmx forms send them (with
the CSRF token), and every event every page should hear is timed:

- from the commit: each event says when the server sent it (`sent`, taken in the relay that
  runs right after the commit), compared with this process's clock on the same machine;
- from the POST: when this process began sending the request that made the move.

    python bench/ws_bench.py                                  # 500 sockets, SQLite
    python bench/ws_bench.py --connections 1000 --matches 20 --moves 30
    python bench/ws_bench.py --profile redis                  # SQLite + Redis channel layer
    python bench/ws_bench.py --profile postgres               # PostgreSQL + Redis

Prints p50/p99/max over all deliveries, deliveries missed (must be 0), and daphne's resident
memory before and after opening the N sockets, per socket. The client is one asyncio loop; it
reports its own CPU and loop lag, so a saturated client shows. Pages here do not fetch their
regions after each event (a browser does): only the next player's page does, to see its cards.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchlib import free_port, percentile, production_env, reset_postgres  # beside this script
from ws_clients import (  # beside this script, which Python puts first on the path
    PASSWORD,
    Browser,
    Run,
    Tab,
    close_tabs,
    listen,
    open_tabs,
    play_match,
    watch_loop,
)

ROOT = Path(__file__).resolve().parent.parent
SEATS = 4


# Runs inside the site (`manage.py shell -c`): players, active matches past the pass (so
# every move is a card until the first hand ends), idle open matches; prints one JSON line.
SETUP = """
import json
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from games import engine, services
from games.models import Match

hashed = make_password(PASSWORD)
users = {}
for name in SEATED + IDLE:
    user = get_user_model().objects.create(username=name, password=hashed)
    users[name] = user
options = services.MatchOptions(players=4, auto_play_forced=False, auto_finish=False)
active = []
for first in range(0, len(SEATED), 4):
    people = [users[name] for name in SEATED[first:first + 4]]
    match = services.create_match(people[0], options)
    for person in people[1:]:
        match = services.join_match(person, match.pk, match.invite_code).match
    for position, person in enumerate(people):
        match.refresh_from_db()
        hand = engine.Match.from_snapshot(match.snapshot).view(position).hand
        services.pass_cards(person, match.pk, match.version, [str(c) for c in hand[:3]])
    match.refresh_from_db()
    active.append({"id": match.pk, "players": [p.username for p in people]})
idle = [services.create_match(users[name], services.MatchOptions()).pk for name in IDLE]
ids = {name: user.pk for name, user in users.items()}
print(json.dumps({"active": active, "idle": idle, "ids": ids}))
"""


def rss_kb(pid: int) -> int:
    """Return a process's resident memory in KB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def cpu_seconds(pid: int) -> float:
    """Return the user + system CPU time a process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ----- the site -------------------------------------------------------------------------------


def site_env(args: argparse.Namespace, workdir: Path) -> dict[str, str]:
    """Return the environment of a production-like site in the profile asked for."""
    env = production_env(os.environ)
    env["DATABASE_URL"] = f"sqlite:///{workdir / 'bench.sqlite3'}"
    if args.profile in ("redis", "postgres"):
        env["REDIS_URL"] = args.redis_url
    if args.profile == "postgres":
        env["DATABASE_URL"] = reset_postgres(args.pg_database)
    return env


def flush_redis(url: str) -> None:
    """Empty the Redis database the channel layer will use: groups left by an earlier run."""
    import redis

    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return done.stdout


def prepare(env: dict[str, str], seated: list[str], idle: list[str]) -> dict:
    """Migrate, collect static files, create the players and the matches; return them."""
    manage(env, "migrate", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    code = f"PASSWORD = {PASSWORD!r}\nSEATED = {seated!r}\nIDLE = {idle!r}\n{SETUP}"
    return json.loads(manage(env, "shell", "-c", code).strip().splitlines()[-1])


async def settle(pid: int, seconds: float = 15.0) -> int:
    """Wait until the server's memory stops moving (two readings a second apart agree)."""
    previous = rss_kb(pid)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await asyncio.sleep(1.0)
        now = rss_kb(pid)
        if abs(now - previous) < 64:
            return now
        previous = now
    return previous


# ----- one run -----------------------------------------------------------------------------------


@dataclass
class Layout:
    """Who sits where and which page follows what."""

    seated: list[str]
    idle: list[str]
    tabs: list[Tab]


def lay_out(connections: int, matches: int, idle_users: int) -> Layout:
    seated = [f"seat{i:03d}" for i in range(matches * SEATS)]
    idle_count = connections - len(seated)
    if idle_count < 0:
        raise SystemExit(f"{connections} connections cannot seat {matches} matches of {SEATS}")
    idle = [f"idle{i:03d}" for i in range(min(idle_users, idle_count))]
    return Layout(seated, idle, [])


async def measure(args: argparse.Namespace, port: int, pid: int, site: dict, layout: Layout):
    run = Run()
    ids = site["ids"]
    browsers = {name: Browser(port) for name in layout.seated + layout.idle}
    gate = asyncio.Semaphore(4)  # the password hash is slow on purpose; keep the server busy

    async def log_in(name: str) -> None:
        async with gate:
            await browsers[name].log_in(name)

    began = time.perf_counter()
    await asyncio.gather(*(log_in(name) for name in browsers))
    print(f"signed in             {len(browsers)} players in {time.perf_counter() - began:.1f} s")

    seated_tabs = []
    for match in site["active"]:
        for name in match["players"]:
            seated_tabs.append(Tab(len(seated_tabs), name, match["id"]))
    idle_tabs = []
    for i in range(args.connections - len(seated_tabs)):
        user, match = layout.idle[i % len(layout.idle)], site["idle"][i % len(site["idle"])]
        idle_tabs.append(Tab(len(seated_tabs) + i, user, match))
    tabs = seated_tabs + idle_tabs

    # Warm up: the first sockets load code and fill caches that later ones share.
    warm = [Tab(-1 - i, tab.user, tab.match) for i, tab in enumerate(tabs[:20])]
    await open_tabs(warm, browsers, run)
    await close_tabs(warm)
    before = await settle(pid)
    began = time.perf_counter()
    await open_tabs(tabs, browsers, run)
    opened = time.perf_counter() - began
    after = await settle(pid)
    listeners = [asyncio.create_task(listen(tab, run)) for tab in tabs]
    print(f"sockets open          {len(tabs)} in {opened:.1f} s; playing")

    stop = asyncio.Event()
    watcher = asyncio.create_task(watch_loop(run, stop))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    server_cpu, began = cpu_seconds(pid), time.perf_counter()
    await asyncio.gather(
        *(
            play_match(match, tabs, browsers, ids, args.moves, args.think, run)
            for match in site["active"]
        )
    )
    wall = time.perf_counter() - began
    done = resource.getrusage(resource.RUSAGE_SELF)
    client_cpu = (done.ru_utime + done.ru_stime - usage.ru_utime - usage.ru_stime) / wall
    server_cpu = (cpu_seconds(pid) - server_cpu) / wall
    stop.set()
    await watcher
    await asyncio.sleep(0.5)  # anything late or stray shows up now
    played = {(tab.number, "following", tab.match) for tab in tabs}
    for key, delivery in run.heard.items():
        if key not in run.expected and key[:3] not in played and key[0] >= 0:
            run.unexpected.append(f"tab {key[0]} heard {delivery.event}")
    for task in listeners:
        task.cancel()
    await close_tabs(tabs)
    return run, {
        "before": before, "after": after, "tabs": len(tabs), "seated": len(seated_tabs),
        "wall": wall, "client_cpu": client_cpu, "server_cpu": server_cpu,
    }  # fmt: skip


def serve(env: dict[str, str], port: int, log: Path) -> subprocess.Popen:
    """Start daphne; its log goes to a file, which (unlike a pipe) never fills and blocks it."""
    with log.open("wb") as output:
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "hearts_site.asgi:application"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=output,
        )  # fmt: skip
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise RuntimeError(log.read_text()) from None
            time.sleep(0.2)


def describe(profile: str) -> str:
    return {
        "sqlite": "SQLite file, in-memory channel layer",
        "redis": "SQLite file, Redis channel layer",
        "postgres": "PostgreSQL, Redis channel layer",
    }[profile]


def report(args: argparse.Namespace, run: Run, figures: dict, layout: Layout) -> bool:
    """Print the run's table; say whether every target was met."""
    per_socket = (figures["after"] - figures["before"]) / figures["tabs"]
    deliveries = len(run.from_post_ms)
    lag99 = percentile(run.lag_ms, 0.99) if run.lag_ms else 0.0

    def row(name: str, values: list[float], target: str = "") -> None:
        if not values:
            print(f"{name:<32}{'(none)':>10}")
            return
        cells = [percentile(values, 0.5), percentile(values, 0.99), max(values)]
        print(f"{name:<32}" + "".join(f"{v:>8.1f} ms" for v in cells) + f"   {target}")

    print(
        f"\n== {describe(args.profile)}: {figures['tabs']} sockets to one daphne "
        f"({figures['seated']} seated at {len(layout.seated) // SEATS} matches, "
        f"{figures['tabs'] - figures['seated']} idle over {len(layout.idle)} users)"
    )
    moves = sum(run.moves.values())
    kinds = ", ".join(f"{count} {kind}" for kind, count in run.moves.items() if count)
    print(f"moves                 {moves} ({kinds}) in {figures['wall']:.1f} s")
    print(
        f"deliveries            {deliveries} heard, {len(run.missed)} missed, "
        f"{len(run.unexpected)} unexpected   (every seated page: match.updated; "
        "whoever's turn it became: turn.notify)"
    )
    print(f"{'':<32}{'p50':>11}{'p99':>11}{'max':>11}")
    row("commit -> page (all deliveries)", run.from_commit_ms, "target: p99 < 50 ms")
    row("commit -> last page of a move", run.last_seat_ms)
    row("POST sent -> page", run.from_post_ms)
    row("POST answered (the mover's)", run.post_ms)
    print(
        f"daphne memory (VmRSS) {figures['before'] / 1024:.1f} MB before, "
        f"{figures['after'] / 1024:.1f} MB with the sockets open: {per_socket:.1f} KB per socket"
        f"   target: < 100 KB"
    )
    print(f"server CPU            {figures['server_cpu']:.0%} of a core while playing")
    # Lag alone may be the machine's other work; a busy loop is this process's own doing.
    saturated = figures["client_cpu"] > 0.7
    print(
        f"client                {figures['client_cpu']:.0%} of a core, loop lag p99 {lag99:.1f} ms"
        + ("   SATURATED: the client limits these figures" if saturated else " (not saturated)")
    )
    for problem in (run.errors + run.missed + run.unexpected)[:10]:
        print(f"  ! {problem}")
    p99 = percentile(run.from_commit_ms, 0.99) if run.from_commit_ms else float("inf")
    met = not (run.errors or run.missed or run.unexpected) and p99 < 50 and per_socket < 100
    print(
        "rerun                 python bench/ws_bench.py "
        f"--profile {args.profile} --connections {args.connections} "
        f"--matches {args.matches} --moves {args.moves} --think {args.think:g}"
    )
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=500, help="sockets to open in all")
    parser.add_argument("--matches", type=int, default=10, help="active matches of 4 people")
    parser.add_argument("--moves", type=int, default=24, help="moves made in each active match")
    parser.add_argument("--profile", choices=["sqlite", "redis", "postgres"], default="sqlite")
    parser.add_argument(
        "--think", type=float, default=0.5, help="mean seconds between moves in a match"
    )
    parser.add_argument("--idle-users", type=int, default=50, help="users the idle pages share")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/6")
    parser.add_argument("--pg-database", default="hearts_ws")
    args = parser.parse_args()
    # Every socket is a file descriptor here and another in the server, which inherits this.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * args.connections)), hard))
    layout = lay_out(args.connections, args.matches, args.idle_users)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; server and client share them")
    workdir = Path(tempfile.mkdtemp(prefix="hearts-ws-bench-"))
    try:
        env = site_env(args, workdir)
        if "REDIS_URL" in env:
            flush_redis(env["REDIS_URL"])
        site = prepare(env, layout.seated, layout.idle)
        port, log = free_port(), workdir / "server.log"
        server = serve(env, port, log)
        try:
            run, figures = asyncio.run(measure(args, port, server.pid, site, layout))
        finally:
            server.terminate()
            server.wait(timeout=20)
        logged = log.read_text()
        if "Traceback" in logged or "ERROR" in logged:
            kept = workdir.parent / "hearts-ws-bench-server.log"
            shutil.copy(log, kept)
            run.errors.append(
                f"the server logged errors ({logged.count('Traceback')} tracebacks): {kept}"
            )
        return 0 if report(args, run, figures, layout) else 1
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
