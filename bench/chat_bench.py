"""Table chat under load: how long a message takes to reach the other seats' open pages.

The script serves the site itself (by default one daphne process, SQLite, the in-memory
channel layer, as the README's other runs) and seats 7 people at each of 50 active 7-player
matches: 350 people, each with one open page. A page is what a browser holds: its session
and CSRF cookies (from a GET of the match page) and a WebSocket following its match as
`games/static/games/live.js` does. When a page hears `chat.updated` for its match it fetches
the chat region (`#chat`'s `data-chat-url`, with the HX-Request header) as the script's htmx
call does; the sender's own page too, as in a browser.

Each match sends a message every `--interval` seconds on average (uniform jitter from half to
one and a half times that), by a seat chosen at random, through the chat's POST route
(`/matches/<id>/chat/say/`) with the CSRF token, as the page's htmx form sends it. Each message
holds a word of its own. A message has reached a page when that page has heard a
`chat.updated` event that arrived after the POST began AND the GET that event started has
returned a body holding the message's word; the time is taken from when the POST began.
The goal: p99 <= 100 ms over every (message, other seat) pair at 50 matches.

    python bench/chat_bench.py                          # 50 matches, a message every 3 s each
    python bench/chat_bench.py --interval 2 --seconds 90
    python bench/chat_bench.py --profile postgres       # PostgreSQL + Redis, 2 daphne processes

Prints the delivery's p50/p99/max, the sender's POST p50/p99, the chat GETs' p50/p99, errors
and deliveries missed (both must be 0), daphne's CPU while chatting and this client's own CPU
and loop lag (a saturated client shows). Sessions are made by the setup step (a password's
hash costs 0.6 s on purpose: 350 sign-ins would take minutes); every request after that goes
through the site's ordinary middleware, CSRF included.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchlib import free_port, percentile  # beside this script
from ws_bench import cpu_seconds, flush_redis, manage, serve, site_env  # beside this script
from ws_clients import Browser, Tab, open_tabs  # beside this script

ROOT = Path(__file__).resolve().parent.parent
SEATS = 7
WAIT_FOR_DELIVERY = 5.0  # seconds after the POST's answer before a page counts as missed
GOAL_MS = 100.0

# Runs inside the site (`manage.py shell -c`): the people, the active 7-player matches (every
# seat a person: the last to join starts the match), a session for each; one JSON line.
SETUP = """
import json
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.sessions.backends.cached_db import SessionStore
from games import services
from games.models import Match, MatchStatus

hashed = make_password("bench-password-1")
options = services.MatchOptions(players=7, free_chat=True)
matches, sessions = [], {}
for number in range(MATCHES):
    names = [f"chat{number:03d}s{seat}" for seat in range(7)]
    people = [get_user_model().objects.create(username=name, password=hashed) for name in names]
    match = services.create_match(people[0], options)
    for person in people[1:]:
        match = services.join_match(person, match.pk, match.invite_code).match
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.ACTIVE, (match.pk, match.status)
    matches.append({"id": match.pk, "players": names})
    for person in people:
        store = SessionStore()
        store[SESSION_KEY] = str(person.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = person.get_session_auth_hash()
        store.create()
        sessions[person.username] = store.session_key
print(json.dumps({"matches": matches, "sessions": sessions}))
"""


# ----- the site -------------------------------------------------------------------------------


def prepare(env: dict[str, str], matches: int) -> dict:
    manage(env, "migrate", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    code = f"MATCHES = {matches}\n{SETUP}"
    return json.loads(manage(env, "shell", "-c", code).strip().splitlines()[-1])


# ----- the pages ------------------------------------------------------------------------------


@dataclass
class Figures:
    delivery_ms: list[float] = field(default_factory=list)  # POST began -> other page shows it
    last_seat_ms: list[float] = field(default_factory=list)  # ... the sixth page of a message
    post_ms: list[float] = field(default_factory=list)
    get_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    lag_ms: list[float] = field(default_factory=list)
    attempted: int = 0
    sent: int = 0
    events: int = 0
    # (tab number, word) -> when that page's chat region first showed the word
    shown: dict[tuple[int, str], float] = field(default_factory=dict)
    # match -> (word, when its POST began) of messages still on their way
    pending: dict[int, list[tuple[str, float]]] = field(default_factory=dict)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    heard: dict = field(default_factory=dict)  # `open_tabs` notes each "following" answer
    newest: dict[int, int] = field(default_factory=dict)  # tab -> newest message id it shows
    skipped: int = 0  # events a page needed no fetch for


MESSAGE_ID = re.compile(r'data-message="(\d+)"')


def newest_in(body: str) -> int:
    """The newest message id a chat answer holds (0: none)."""
    return max((int(found) for found in MESSAGE_ID.findall(body)), default=0)


async def fetch_chat(tab: Tab, browser: Browser, url: str, heard: float, run: Figures) -> None:
    """The page's htmx GET of what its chat lacks (`?after=` the newest message it shows; the
    whole region while it shows none), started by an event heard at `heard`."""
    newest = run.newest.get(tab.number, 0)
    began = time.time()
    try:
        status, _, body = await browser.request(
            "GET", f"{url}?after={newest}" if newest else url, htmx=True
        )
    except Exception as error:
        run.errors.append(f"tab {tab.number}: chat GET failed: {error!r}")
        return
    returned = time.time()
    run.get_ms.append((returned - began) * 1000)
    if status != 200:
        run.errors.append(f"tab {tab.number}: chat GET answered {status}")
        return
    run.newest[tab.number] = max(newest, newest_in(body))
    # Only messages whose POST began before this page heard the event count as brought by it.
    fresh = [
        word
        for word, posted in run.pending.get(tab.match, [])
        if posted <= heard and (tab.number, word) not in run.shown and word in body
    ]
    if fresh:
        for word in fresh:
            run.shown[(tab.number, word)] = returned
        async with run.changed:
            run.changed.notify_all()


async def page(tab: Tab, browser: Browser, url: str, run: Figures) -> None:
    """What live.js does with its socket here: on `chat.updated`, nothing if the page shows
    the message already (its sender's does: the POST's answer), else fetch what it lacks,
    one request at a time, asking again once the one out has answered."""
    assert tab.socket is not None
    again = asyncio.Event()

    async def fetcher() -> None:
        while True:
            await again.wait()
            again.clear()
            await fetch_chat(tab, browser, url, last_heard[0], run)

    last_heard = [0.0]
    worker = asyncio.create_task(fetcher())
    try:
        async for raw in tab.socket:
            heard = time.time()
            event = json.loads(raw)
            if event.get("type") == "chat.updated" and event.get("match") == tab.match:
                run.events += 1
                if event.get("message", 0) <= run.newest.get(tab.number, 0):
                    run.skipped += 1
                    continue
                last_heard[0] = heard
                again.set()
    except asyncio.CancelledError:
        raise
    except Exception as error:  # a dropped socket is a finding, not a crash of the bench
        run.errors.append(f"tab {tab.number} stopped listening: {error!r}")
    finally:
        worker.cancel()


async def say(match: dict, tabs: list[Tab], browsers: dict[str, Browser], number: int,
              rng: random.Random, run: Figures) -> None:  # fmt: skip
    """One message from a seat chosen at random; wait until the other six pages show it."""
    sender = rng.randrange(SEATS)
    word = f"w{match['id']}x{number}q{rng.randrange(10**6):06d}"
    text = f"Seat {sender + 1} says {word}: nice trick!"
    others = [
        tab for tab in tabs if tab.match == match["id"] and tab.user != match["players"][sender]
    ]
    run.attempted += 1
    posted = time.time()
    run.pending.setdefault(match["id"], []).append((word, posted))
    browser = browsers[match["players"][sender]]
    try:
        status, _, body = await browser.request(
            "POST", f"/matches/{match['id']}/chat/say/", [("text", text)], htmx=True
        )
    except Exception as error:
        run.errors.append(f"match {match['id']}: POST failed: {error!r}")
        run.pending[match["id"]].remove((word, posted))
        return
    run.post_ms.append((time.time() - posted) * 1000)
    if status != 200 or word not in body:
        run.errors.append(f"match {match['id']}: POST answered {status} {body[:200]!r}")
        run.pending[match["id"]].remove((word, posted))
        return
    run.sent += 1
    sender_tab = next(
        t for t in tabs if t.match == match["id"] and t.user == match["players"][sender]
    )
    run.newest[sender_tab.number] = max(run.newest.get(sender_tab.number, 0), newest_in(body))
    deadline = time.monotonic() + WAIT_FOR_DELIVERY
    keys = {(tab.number, word) for tab in others}
    async with run.changed:
        while (missing := keys - run.shown.keys()) and (left := deadline - time.monotonic()) > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(run.changed.wait(), left)
    run.pending[match["id"]].remove((word, posted))
    run.missed += [f"match {match['id']} {word}: tab {n} never showed it" for n, _ in missing]
    times = [(run.shown[key] - posted) * 1000 for key in keys - missing]
    run.delivery_ms += times
    if times and not missing:
        run.last_seat_ms.append(max(times))


async def chat_in(match: dict, tabs: list[Tab], browsers: dict[str, Browser],
                  args: argparse.Namespace, run: Figures) -> None:  # fmt: skip
    """Send this match's messages at its rate until the time is up; wait for the last ones."""
    rng = random.Random(match["id"])
    await asyncio.sleep(rng.uniform(0, args.interval))  # the matches do not start in step
    end = time.monotonic() + args.seconds
    messages: set[asyncio.Task] = set()
    number = 0
    while time.monotonic() < end:
        messages.add(asyncio.create_task(say(match, tabs, browsers, number, rng, run)))
        number += 1
        await asyncio.sleep(args.interval * rng.uniform(0.5, 1.5))
    await asyncio.gather(*messages)


async def watch_loop(run: Figures, stop: asyncio.Event) -> None:
    """Measure how late this process's loop wakes up: its lag shows a saturated client."""
    while not stop.is_set():
        began = time.perf_counter()
        await asyncio.sleep(0.005)
        run.lag_ms.append((time.perf_counter() - began - 0.005) * 1000)


async def measure(args: argparse.Namespace, ports: list[int], pids: list[int], site: dict):
    run = Figures()
    names = [name for match in site["matches"] for name in match["players"]]
    # Each person's browser talks to one server (its HTTP and its socket), in turn by person.
    browsers = {name: Browser(ports[i % len(ports)]) for i, name in enumerate(names)}
    for name, browser in browsers.items():
        browser.cookies["sessionid"] = site["sessions"][name]
    match_of = {name: match["id"] for match in site["matches"] for name in match["players"]}
    gate = asyncio.Semaphore(8)

    async def load_page(name: str) -> None:  # the match page: the CSRF cookie, the chat's URL
        async with gate:
            status, _, body = await browsers[name].request("GET", f"/matches/{match_of[name]}/")
        if (
            status != 200
            or 'data-chat-url="' not in body
            or "csrftoken" not in browsers[name].cookies
        ):
            raise RuntimeError(f"{name}: the match page answered {status} without a chat or CSRF")

    began = time.perf_counter()
    await asyncio.gather(*(load_page(name) for name in names))
    print(f"pages loaded          {len(names)} in {time.perf_counter() - began:.1f} s")
    tabs = [Tab(i, name, match_of[name]) for i, name in enumerate(names)]
    await open_tabs(tabs, browsers, run)  # type: ignore[arg-type]
    urls = {tab.number: f"/matches/{tab.match}/chat/" for tab in tabs}
    pages = [
        asyncio.create_task(page(tab, browsers[tab.user], urls[tab.number], run)) for tab in tabs
    ]
    rate = len(site["matches"]) / args.interval
    print(
        f"sockets open          {len(tabs)}; chatting for {args.seconds:g} s, "
        f"~{rate:.1f} messages/s"
    )

    stop = asyncio.Event()
    watcher = asyncio.create_task(watch_loop(run, stop))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    before, began = [cpu_seconds(pid) for pid in pids], time.perf_counter()
    await asyncio.gather(*(chat_in(match, tabs, browsers, args, run) for match in site["matches"]))
    wall = time.perf_counter() - began
    done = resource.getrusage(resource.RUSAGE_SELF)
    client_cpu = (done.ru_utime + done.ru_stime - usage.ru_utime - usage.ru_stime) / wall
    server_cpu = [(cpu_seconds(pid) - cpu) / wall for pid, cpu in zip(pids, before, strict=True)]
    stop.set()
    await watcher
    for task in pages:
        task.cancel()
    await asyncio.gather(*(tab.socket.close() for tab in tabs if tab.socket))
    return run, {"wall": wall, "client_cpu": client_cpu, "server_cpu": server_cpu}


def report(args: argparse.Namespace, run: Figures, figures: dict, matches: int) -> bool:
    def row(name: str, values: list[float], target: str = "") -> None:
        if not values:
            print(f"{name:<34}{'(none)':>10}")
            return
        cells = [percentile(values, 0.5), percentile(values, 0.99), max(values)]
        print(f"{name:<34}" + "".join(f"{v:>8.1f} ms" for v in cells) + f"   {target}")

    where = (
        "one daphne, SQLite file, in-memory channel layer"
        if args.profile == "sqlite"
        else f"{args.servers} daphne, PostgreSQL, Redis channel layer and cache"
    )
    print(f"\n== {where}: {matches} matches of {SEATS} people, {matches * SEATS} open pages")
    print(
        f"messages              {run.attempted} posted over {args.seconds:g} s "
        f"({run.attempted / args.seconds:.1f}/s; one a match every {args.interval:g} s "
        f"x U(0.5, 1.5)), {run.sent} answered 200; {run.events} events heard "
        f"({run.skipped} needing no fetch); "
        f"{figures['wall']:.1f} s until the last delivery"
    )
    print(
        f"deliveries            {len(run.delivery_ms)} (message, other seat), "
        f"{len(run.missed)} missed, {len(run.errors)} errors"
    )
    print(f"{'':<34}{'p50':>11}{'p99':>11}{'max':>11}")
    row("POST began -> other page shows it", run.delivery_ms, f"goal: p99 <= {GOAL_MS:g} ms")
    row("  ... the sixth page of a message", run.last_seat_ms)
    row("sender's POST answered", run.post_ms)
    row("a page's chat GET", run.get_ms)
    cpus = ", ".join(f"{cpu:.0%}" for cpu in figures["server_cpu"])
    print(f"daphne CPU            {cpus} of a core while chatting")
    lag99 = percentile(run.lag_ms, 0.99) if run.lag_ms else 0.0
    saturated = figures["client_cpu"] > 0.7
    print(
        f"client                {figures['client_cpu']:.0%} of a core, loop lag p99 {lag99:.1f} ms"
        + ("   SATURATED: the client limits these figures" if saturated else " (not saturated)")
    )
    for problem in (run.errors + run.missed)[:10]:
        print(f"  ! {problem}")
    rerun = f"python bench/chat_bench.py --profile {args.profile} --matches {args.matches} "
    rerun += f"--interval {args.interval:g} --seconds {args.seconds:g}"
    if args.profile == "postgres":
        rerun += f" --servers {args.servers}"
    print(f"rerun                 {rerun}")
    p99 = percentile(run.delivery_ms, 0.99) if run.delivery_ms else float("inf")
    return not (run.errors or run.missed) and p99 <= GOAL_MS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50, help="7-player matches chatting")
    parser.add_argument(
        "--interval", type=float, default=3.0, help="mean seconds between a match's messages"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="how long they chat")
    parser.add_argument("--profile", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--servers", type=int, default=2, help="daphne processes (postgres)")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/7")
    parser.add_argument("--pg-database", default="hearts_chat")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 8 * args.matches * SEATS + 256
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, want)), hard))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; server and client share them")
    workdir = Path(tempfile.mkdtemp(prefix="hearts-chat-bench-"))
    servers: list[subprocess.Popen] = []
    try:
        env = site_env(args, workdir)
        if args.profile == "postgres":
            flush_redis(args.redis_url)  # groups, sessions and counts left by an earlier run
        began = time.perf_counter()
        site = prepare(env, args.matches)
        print(
            f"set up                {len(site['matches'])} matches in "
            f"{time.perf_counter() - began:.1f} s"
        )
        count = args.servers if args.profile == "postgres" else 1
        ports: list[int] = []
        while len(ports) < count:
            if (port := free_port()) not in ports:
                ports.append(port)
        logs = [workdir / f"server-{n}.log" for n in range(count)]
        try:
            servers = [serve(env, port, log) for port, log in zip(ports, logs, strict=True)]
            run, figures = asyncio.run(measure(args, ports, [s.pid for s in servers], site))
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(timeout=20)
        logged = "".join(log.read_text() for log in logs)
        if "Traceback" in logged or "ERROR" in logged:
            kept = workdir.parent / "hearts-chat-bench-server.log"
            kept.write_text(logged)
            run.errors.append(f"the servers logged errors ({logged.count('Traceback')}): {kept}")
        return 0 if report(args, run, figures, len(site["matches"])) else 1
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
