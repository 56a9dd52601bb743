"""Serve Django's HTTP requests under ASGI with one trip to a worker thread per request.

Django's own ASGI handler runs the middleware chain in async mode: every middleware that is
not natively async (most of Django's, and WhiteNoise) and the view itself each cross between
the event loop and a thread, a dozen crossings per request, in a thread created afresh for each
request. Every crossing waits for a thread to be scheduled, which on a busy machine costs far
more than the work in between. Here the whole chain runs synchronously, as under WSGI, in a
thread from a fixed pool: the event loop only reads the request, writes the response, and
then starts what the request deferred until its answer was sent (`after_response`).
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import threading
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar, TypeVarTuple

from asgiref.sync import sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import HttpResponseBase
from django.urls import set_script_prefix

# Two threads: one request can wait on the database (a row lock, the SQLite writers' turn)
# while the other computes. More made every request slower under load: only one thread runs
# Python at a time, and the threads queue on locks they all take over a hundred times a
# request, such as the one guarding Django's active language (an asgiref `Local`): a thread
# paused holding it stalls every other (measured in bench/README.md, "Worker threads").
WORKERS = int(os.environ.get("HTTP_WORKER_THREADS", "2"))

# Seconds between writing an answer and starting what its request deferred (live events).
# Whoever reads the answer on this machine (a proxy in front of the server; the benchmark's
# players) was just woken by the write, and Linux tends to queue it on the loop's own core
# (nearly always on a virtual machine whose cores share no cache it knows of, as here): had
# the loop gone on at once to the deferred work, with Redis several round trips, the answer
# would have waited for all of it. Idle meanwhile, the loop leaves the core to the reader.
# Side by side (bench/http_compare.py, PostgreSQL, six rounds), a played card's median
# answer came 0 to 0.6 ms sooner (0.25 the median), and 0.1-0.2 ms with a 1 ms delay. The
# live events go out 2 ms later, to pages that then fetch their regions over HTTP anyway.
DEFERRED_WORK_DELAY = 0.002

# The serving event loop, once a request has arrived: code in a worker thread may hand it work
# (a live event) without waiting for the result.
_loop: asyncio.AbstractEventLoop | None = None


# Each worker thread's own context, kept from one request to the next.
_threads = threading.local()

# Coroutines a request in this worker thread asked to run once its response is sent.
_after_response = threading.local()
# Tasks started that way, referenced until done (the loop keeps only weak references).
_background: set[asyncio.Task[Any]] = set()


def after_response(coroutine: Coroutine[Any, Any, Any]) -> bool:
    """Have the serving loop run `coroutine` once the current request's response is sent.

    For work the answer does not wait for (live events about a committed move): run while
    the request is still rendering, the loop's sends would compete with it for the
    interpreter, and the player who moved would wait for everyone else's news. Say False,
    leaving the coroutine to the caller, outside a request served here.
    """
    pending = getattr(_after_response, "pending", None)
    if pending is None:
        return False
    pending.append(coroutine)
    return True


def _start_in_background(coroutines: list[Coroutine[Any, Any, Any]]) -> None:
    """Start each coroutine as a task of the running loop, keeping it referenced until done."""
    for coroutine in coroutines:
        task = asyncio.ensure_future(coroutine)
        _background.add(task)
        task.add_done_callback(_background.discard)


R = TypeVar("R")
Ts = TypeVarTuple("Ts")

# What ASGI hands an application to read the client's messages and to send its own.
Receive = Callable[[], Awaitable[Mapping[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]


def in_thread_context(func: Callable[[*Ts], R], *args: *Ts) -> R:
    """Call func in this worker thread's lasting context, as a thread of a WSGI server would.

    Django keeps some per-connection objects in context-local storage: the caches above all.
    In a context copied afresh for each request, every request would build its cache client
    anew, and with Redis that means a new connection per request.
    """
    context = getattr(_threads, "context", None)
    if context is None:
        context = _threads.context = contextvars.Context()
    return context.run(func, *args)


def server_loop() -> asyncio.AbstractEventLoop | None:
    """Return the event loop serving HTTP in this process, if one is running."""
    return _loop if _loop is not None and _loop.is_running() else None


class HttpHandler(ASGIHandler):
    """Django's ASGI handler with the middleware chain and the view run in one worker thread."""

    def __init__(self) -> None:
        super().__init__()
        self.executor = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="http")

    def load_middleware(self, is_async: bool = False) -> None:
        """Build the chain in sync mode: no middleware crosses to a thread on its own."""
        super().load_middleware(is_async=False)

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        global _loop
        _loop = asyncio.get_running_loop()
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:  # the client went away while sending
            return
        try:
            respond = sync_to_async(
                in_thread_context, thread_sensitive=False, executor=self.executor
            )
            response, deferred = await respond(self.respond, scope, body_file)
            try:
                await self.send_response(response, send)
            finally:
                # Sent or not (the client may have gone), what the request deferred still runs,
                # on a timer: the server writes the response to its socket on the loop's next
                # pass, and a task started now would run first. A timer runs after the socket
                # callbacks of its pass, so the answer goes out before the deferred work, and
                # its delay gives the answer's reader its turn (`DEFERRED_WORK_DELAY`).
                if deferred:
                    _loop.call_later(DEFERRED_WORK_DELAY, _start_in_background, deferred)
            if response.streaming:
                # A streamed body (a static file) is closed once sent, as Django does.
                await respond(response.close)
        finally:
            body_file.close()

    def respond(
        self, scope: dict[str, Any], body_file: Any
    ) -> tuple[HttpResponseBase, list[Coroutine[Any, Any, Any]]]:
        """Run one request through the middleware and the view, in a worker thread.

        Return the response and what the request handed to `after_response` meanwhile.
        """
        deferred: list[Coroutine[Any, Any, Any]] = []
        _after_response.pending = deferred
        try:
            set_script_prefix(get_script_prefix(scope))
            signals.request_started.send(sender=self.__class__, scope=scope)
            request, refusal = self.create_request(scope, body_file)
            response: HttpResponseBase
            if request is None:
                assert refusal is not None  # Django answers a request it cannot build
                response = refusal
            else:
                # `close()` below sends request_finished (with no sender named: Django's own
                # receivers, which close the thread's connections and caches, take any).
                response = self.get_response(request)
            if not response.streaming:
                # The body is complete: close now, in the thread that used the database, so
                # that request_finished releases this thread's connections.
                response.close()
            return response, deferred
        finally:
            _after_response.pending = None
