"""Where a played card's time goes, in process: the request's stages, timed one by one.

Plays whole matches (one person against three bots) through Django's full handler with the
requests htmx sends, on a fresh database with production settings (DEBUG off), and reports
for the played cards the median time of each stage and of the queries, so that a change to
one stage can be measured without the noise of a server under load.

    python bench/play_breakdown.py                  # SQLite, 3 matches
    python bench/play_breakdown.py --matches 5 --database postgres://postgres@127.0.0.1:5432/x
    python bench/play_breakdown.py --redis-url redis://127.0.0.1:6379/2   # Redis cache, layer
    python bench/play_breakdown.py --pause 0.15     # each card 150 ms after the last request

The stages nest: the request holds the view, the view holds the move and the rendering, the
move holds the lock, the bots and the save. A PostgreSQL database given by URL is dropped and
created afresh.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import cProfile
import functools
import os
import pstats
import resource
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def configure(args: argparse.Namespace) -> None:
    """Point Django at a fresh database with production settings, before it is set up."""
    from benchlib import production_env, reset_postgres  # beside this script

    env = production_env(os.environ)
    env["ALLOWED_HOSTS"] = "testserver"
    if args.database.startswith("postgres"):
        env["DATABASE_URL"] = reset_postgres(args.database.rsplit("/", 1)[1])
    else:
        env["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp(prefix='hearts-breakdown-')}/db"
    if args.redis_url:
        env["REDIS_URL"] = args.redis_url
    os.environ.clear()
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "hearts_site.settings"
    sys.path.insert(0, str(ROOT))


class Stages:
    """Time named functions; keep, per played card, the total spent in each."""

    def __init__(self) -> None:
        self.labels: list[str] = []  # in the order they were wrapped: outer stages first
        self.current: dict[str, float] = collections.defaultdict(float)
        self.samples: dict[str, list[float]] = collections.defaultdict(list)
        self.counts: set[str] = set()  # labels that count events instead of timing them

    def track(self, label: str, *, count: bool = False) -> None:
        """Report `label` too: seconds added to `current` by the caller, or a count."""
        self.labels.append(label)
        if count:
            self.counts.add(label)

    def wrap(self, owner, name: str, label: str) -> None:
        original = getattr(owner, name)
        self.labels.append(label)

        @functools.wraps(original)
        def timed(*args, **kwargs):
            began = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.current[label] += time.perf_counter() - began

        setattr(owner, name, timed)

    def keep(self) -> None:
        for label, value in self.current.items():
            self.samples[label].append(value if label in self.counts else value * 1000)
        self.current.clear()


def instrument(stages: Stages) -> None:
    from django.contrib import auth
    from django.core.handlers.base import BaseHandler
    from django.db.backends.utils import CursorWrapper

    from games.services import play, table
    from games.views import matches

    stages.wrap(BaseHandler, "get_response", "request (all of it)")
    stages.wrap(play, "_move", "  the move (one transaction)")
    stages.wrap(table.LockedTable, "lock", "    lock and read")
    stages.wrap(auth, "get_user", "    the signed-in user")
    stages.wrap(table.LockedTable, "advance", "    bots and automatic plays")
    stages.wrap(table.LockedTable, "save", "    save")
    stages.wrap(matches, "_context", "  what the page shows (presenters)")
    stages.wrap(matches, "_regions", "  rendering the regions")
    stages.wrap(CursorWrapper, "execute", "every query through a cursor")


# Besides the stages: the request's own CPU time (what of its wall time the thread ran), and
# how often the kernel took the thread off its core meanwhile although it could run (a
# process it woke, such as the database's, placed on that core). Linux only.
CPU = "the request's CPU time (its thread)"
PREEMPTED = "times the thread was preempted (count)"


def _thread_clock() -> tuple[int, float]:
    """Return this thread's involuntary context switches so far, and its CPU seconds."""
    return resource.getrusage(resource.RUSAGE_THREAD).ru_nivcsw, time.thread_time()


def play_matches(
    count: int, stages: Stages, pause: float = 0.0, profiler: cProfile.Profile | None = None
) -> list[int]:
    """Play `count` matches; return the number of queries of each played card.

    With `pause`, wait that many seconds before each played card, as a server waits between a
    player's moves: a request that follows another at once finds the machine's caches warm.
    """
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games import engine, services
    from games.models import Match

    user, _ = get_user_model().objects.get_or_create(username="breakdown")
    client = Client()
    client.force_login(user)
    htmx = {"HTTP_HX_REQUEST": "true"}
    form = "application/x-www-form-urlencoded"
    queries = []
    for number in range(count + 1):  # the first match only warms up
        match = services.create_match(user, services.MatchOptions(players=4, bots=3))
        while True:
            match = Match.objects.get(pk=match.pk)
            if match.status != "active":
                break
            view = engine.Match.from_snapshot(match.snapshot).view(0)
            base = f"/matches/{match.pk}/"
            if view.phase == engine.PASSING:
                data = [("version", match.version), *(("cards", str(c)) for c in view.hand[:3])]
                response = client.post(f"{base}pass/", urllib.parse.urlencode(data), form, **htmx)
                stages.current.clear()
            elif view.phase == engine.MOON:
                body = urllib.parse.urlencode({"version": match.version, "option": "add"})
                response = client.post(f"{base}moon/", body, form, **htmx)
                stages.current.clear()
            else:
                body = urllib.parse.urlencode({"version": match.version, "card": view.legal[0]})
                time.sleep(pause)
                stages.current.clear()  # only the request: not this loop's own reads
                switched, cpu = _thread_clock()
                with CaptureQueriesContext(connection) as captured:
                    if profiler is not None and number:
                        profiler.enable()
                    response = client.post(f"{base}play/", body, form, **htmx)
                    if profiler is not None:
                        profiler.disable()
                switched_after, cpu_after = _thread_clock()
                stages.current[CPU] += cpu_after - cpu
                stages.current[PREEMPTED] += switched_after - switched
                if number and response.status_code == 200:
                    stages.keep()
                    queries.append(len(captured))
                stages.current.clear()
            if response.status_code != 200:
                path = response.request["PATH_INFO"]
                raise RuntimeError(f"{path} answered {response.status_code}")
    return queries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--database", default="sqlite", help="sqlite, or a PostgreSQL URL")
    parser.add_argument("--redis-url", default="", help="use Redis for the cache and layer")
    parser.add_argument(
        "--pause", type=float, default=0.0, help="seconds to wait before each played card"
    )
    parser.add_argument(
        "--cprofile",
        type=int,
        default=0,
        metavar="N",
        help="profile the played cards and print the N functions with most time of their own",
    )
    parser.add_argument(
        "--callees",
        default="",
        help="with --cprofile: whom these functions call, and their callers",
    )
    args = parser.parse_args()
    configure(args)

    import django

    django.setup()
    from django.core.management import call_command

    from hearts_site import http

    call_command("migrate", verbosity=0)
    # As in the server: live events are handed to a running event loop, not sent in the request.
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    http._loop = loop

    stages = Stages()
    instrument(stages)
    stages.track(CPU)
    stages.track(PREEMPTED, count=True)
    profiler = cProfile.Profile() if args.cprofile else None
    queries = play_matches(args.matches, stages, args.pause, profiler)
    cards = len(stages.samples["request (all of it)"])
    print(f"python {sys.version.split()[0]}, {os.environ['DATABASE_URL'].split(':')[0]}")
    print(f"{cards} played cards in {args.matches} matches; median ms per card")
    for label in stages.labels:
        values = stages.samples[label]
        values += [0.0] * (cards - len(values))  # a card that never reached the stage
        if label in stages.counts:  # a few events a card: their mean says more
            print(f"{label:40s} {statistics.mean(values):7.2f} (mean)")
            continue
        print(f"{label:40s} {statistics.median(values):7.3f}")
    print(f"{'queries per card':40s} {statistics.median(queries):7.0f}")
    if profiler is not None:
        stats = pstats.Stats(profiler).sort_stats("tottime")
        stats.print_stats(args.cprofile)
        stats.sort_stats("cumulative").print_stats(args.cprofile)
        if args.callees:
            stats.print_callees(args.callees)
            stats.print_callers(args.callees)
    return 0


if __name__ == "__main__":
    sys.exit(main())
