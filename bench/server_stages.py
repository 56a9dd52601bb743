"""Where the server's time goes, request by request, while `http_bench.py --stages` plays.

Loaded inside daphne's process (through `stages_asgi.py` beside this file), `install()` wraps
the functions a request passes through with timers. Each request of a kind the benchmark
reports (a played card, the signed-in poll, `/healthz`) adds up, in its worker thread, the time
spent in each; when the server stops, it writes every request's stages to the JSON file named
by `HEARTS_BENCH_STAGES`, and `http_bench.py` prints their medians over all its servers.

The timers cost a few microseconds a request, so a run with `--stages` is not quite a run
without: compare figures of runs made the same way.
"""

from __future__ import annotations

import atexit
import collections
import functools
import json
import os
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

# What each stage times, in the order they are reported; the indentation shows nesting.
ARRIVAL = "from the ASGI call to the answer sent"
HOP = "  waiting for a worker thread"
THREAD = "  in the worker thread"
CPU = "    of which CPU time"
STAGES = [
    ARRIVAL,
    HOP,
    THREAD,
    CPU,
    "    resolving the URL",
    "    reading the session",
    "    taking a database connection and giving it back",
    "    the move (one transaction)",
    "      lock and read",
    "      the signed-in user, checked against the session",
    "      decisions through the engine (the bots' too)",
    "      bots and automatic plays",
    "      save (the statements)",
    "    what the page shows (presenters)",
    "    rendering the regions",
    "    waiting for the database's answers",
]
KINDS = ["play", "poll", "healthz"]

# The current request's stages in this worker thread; None outside a request that is timed.
_current = threading.local()
_samples: dict[str, dict[str, list[float]]] = collections.defaultdict(
    lambda: collections.defaultdict(list)
)
_lock = threading.Lock()


def kind_of(scope: dict) -> str | None:
    """Say which of the benchmark's kinds of request this is, if any."""
    path = scope.get("path", "")
    if scope.get("method") == "POST" and path.endswith("/play/"):
        return "play"
    if path == "/healthz":
        return "healthz"
    if b"since=" in scope.get("query_string", b""):
        return "poll"
    return None


def _timed(original: Callable, label: str) -> Callable:
    """Wrap `original` to add its time to the current request's `label`, outermost call only."""

    @functools.wraps(original)
    def timed(*args: Any, **kwargs: Any) -> Any:
        stages = getattr(_current, "stages", None)
        depth = getattr(_current, "depth", None)
        if stages is None or depth[label]:
            return original(*args, **kwargs)  # not timed, or a nested call already counted
        depth[label] += 1
        began = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            stages[label] += time.perf_counter() - began
            depth[label] -= 1

    return timed


def wrap(owner: Any, name: str, label: str) -> None:
    setattr(owner, name, _timed(getattr(owner, name), label))


def _keep(kind: str, stages: dict[str, float]) -> None:
    with _lock:
        for label, seconds in stages.items():
            _samples[kind][label].append(seconds * 1000)


def _wrap_handler() -> None:
    from hearts_site.http import HttpHandler

    respond = HttpHandler.respond
    call = HttpHandler.__call__

    def timed_respond(self, scope, body_file):
        kind = kind_of(scope)
        if kind is None:
            return respond(self, scope, body_file)
        _current.stages = stages = collections.defaultdict(float)
        _current.depth = collections.defaultdict(int)
        began, cpu = time.perf_counter(), time.thread_time()
        stages[HOP] = began - scope["bench_arrival"]
        try:
            return respond(self, scope, body_file)
        finally:
            stages[THREAD] = time.perf_counter() - began
            stages[CPU] = time.thread_time() - cpu
            _current.stages = _current.depth = None
            scope["bench_stages"] = stages

    async def timed_call(self, scope, receive, send):
        scope["bench_arrival"] = began = time.perf_counter()
        await call(self, scope, receive, send)
        stages = scope.get("bench_stages")
        if stages is not None:
            stages[ARRIVAL] = time.perf_counter() - began
            _keep(kind_of(scope), stages)

    HttpHandler.respond = timed_respond
    HttpHandler.__call__ = timed_call


def install() -> None:
    """Wrap the stages; write what they timed when the process exits."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib import auth
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.urls.resolvers import URLResolver

    from games.services import play, table
    from games.views import matches

    _wrap_handler()
    labels = iter(STAGES[4:])
    wrap(URLResolver, "resolve", next(labels))
    wrap(import_module(settings.SESSION_ENGINE).SessionStore, "load", next(labels))
    label = next(labels)
    wrap(BaseDatabaseWrapper, "connect", label)
    wrap(BaseDatabaseWrapper, "close", label)
    wrap(play, "_move", next(labels))
    wrap(table.LockedTable, "lock", next(labels))
    wrap(auth, "get_user", next(labels))
    wrap(table.LockedTable, "apply", next(labels))  # the bots' decisions are counted here too
    wrap(table.LockedTable, "advance", next(labels))
    wrap(table.LockedTable, "save", next(labels))
    wrap(matches, "_context", next(labels))
    wrap(matches, "_regions", next(labels))
    from django.db.backends.utils import CursorWrapper

    answers = next(labels)
    wrap(CursorWrapper, "execute", answers)
    wrap(CursorWrapper, "executemany", answers)
    atexit.register(write_samples)


def samples() -> dict[str, dict[str, list[float]]]:
    """Return, per kind of request, each stage's time in every request (0 for one without it)."""
    with _lock:
        result = {}
        for kind, stages in _samples.items():
            count = len(stages[ARRIVAL])
            result[kind] = {
                label: values + [0.0] * (count - len(values)) for label, values in stages.items()
            }
        return result


def write_samples() -> None:
    path = os.environ.get("HEARTS_BENCH_STAGES")
    if path:
        with open(path, "w") as file:
            json.dump(samples(), file)


def report(paths: list[str]) -> None:
    """Print the medians of what the servers wrote to `paths`, one column per kind of request."""
    found: dict[str, dict[str, list[float]]] = {}
    for path in paths:
        try:
            with open(path) as file:
                written = json.load(file)
        except (OSError, ValueError) as error:
            print(f"in-server stages: none written to {path} ({error})")
            return
        for kind, stages in written.items():
            for label, values in stages.items():
                found.setdefault(kind, {}).setdefault(label, []).extend(values)
    kinds = [kind for kind in KINDS if kind in found]
    print("\nin the server, median ms per request (--stages):")
    print(f"{'stage':52s}" + "".join(f"{kind:>10s}" for kind in kinds))
    for label in STAGES:
        cells = [statistics.median(found[kind].get(label) or [0.0]) for kind in kinds]
        if any(cells):
            print(f"{label:52s}" + "".join(f"{cell:10.3f}" for cell in cells))
    counts = "".join(f"{len(found[kind][ARRIVAL]):10d}" for kind in kinds)
    print(f"{'requests timed':52s}" + counts)
