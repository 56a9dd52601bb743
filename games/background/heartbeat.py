"""The workers' heartbeats: each worker says it is alive, the readiness check reads who is.

`manage.py worker` starts a `Heartbeat` beside django-tasks' `db_worker`: a daemon thread that
writes the process's `WorkerHeartbeat` row every `WORKER_HEARTBEAT_SECONDS` (one indexed
UPDATE), and removes it when the worker stops. A database that is away makes a beat fail: the
thread logs it and tries again at the next beat, and the worker goes on (its row goes stale,
which is the truth: a worker without its database runs nothing). Rows a day old (workers
killed without a chance to remove theirs) are pruned by the others' threads.

`live_kinds` is what `/readyz` asks: which kinds of queues have a worker heard of lately.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connections

from games.lib import clock
from games.lib.queues import WORKER_QUEUES
from games.models import WorkerHeartbeat

logger = logging.getLogger(__name__)

# The kinds of queues a site needs a worker for (those `manage.py worker --queues` takes);
# a worker of every queue counts for each.
KINDS = tuple(WORKER_QUEUES)
ALL = WorkerHeartbeat.Queues.ALL.value
# Rows older than this are of workers that died without removing them.
FORGET_AFTER = timedelta(days=1)
# How often a worker's thread prunes those (seconds).
PRUNE_EVERY = 3600.0


def worker_name() -> str:
    """Name this process among the workers: its host and its process id."""
    return f"{socket.gethostname()}:{os.getpid()}"[:200]


def live_since(now: datetime) -> datetime:
    """The oldest beat that still counts as a live worker."""
    beats = settings.WORKER_HEARTBEAT_SECONDS * settings.WORKER_HEARTBEAT_LIVE_BEATS
    return now - timedelta(seconds=beats)


def live_kinds(now: datetime | None = None) -> set[str]:
    """Return the kinds of queues (`now`, `long`) at least one live worker takes."""
    now = now or clock.now()
    rows = WorkerHeartbeat.objects.filter(last_beat__gte=live_since(now))
    kinds = set(rows.values_list("queues", flat=True).distinct())
    if ALL in kinds:
        kinds.update(KINDS)
    return kinds & set(KINDS)


class Heartbeat:
    """One worker's heartbeat thread: `start` it, `stop` it when the worker stops."""

    def __init__(self, queues: str | None, interval: float | None = None, name: str = "") -> None:
        self.name = name or worker_name()
        self.queues = queues or ALL
        self.interval = interval if interval is not None else settings.WORKER_HEARTBEAT_SECONDS
        self.started_at = clock.now()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._pruned_at: float | None = None

    def start(self) -> None:
        """Beat now and then every interval, in a daemon thread (it never holds up an exit)."""
        self._thread = threading.Thread(target=self._run, name="heartbeat", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop beating and remove this worker's row.

        The row goes first, at once: a worker being stopped may be sent a second signal soon
        after (Ctrl+C reaches `serve` and its workers, and `serve` then stops them too), which
        django-tasks' worker answers by exiting there and then. A beat under way when the row
        goes writes none again (`beat`).
        """
        self._stopping.set()
        try:
            WorkerHeartbeat.objects.filter(name=self.name).delete()
        except Exception:
            logger.exception("Could not remove the heartbeat of worker %s", self.name)
        if self._thread is not None:
            self._thread.join(timeout)

    def beat(self) -> None:
        """Write this worker's row (one UPDATE; an INSERT the first time); prune old rows now
        and then."""
        now = clock.now()
        rows = WorkerHeartbeat.objects.filter(name=self.name)
        # No row to update: the first beat, or one that `stop` removed while this one waited
        # on the database (then none is written again).
        if not rows.update(last_beat=now, queues=self.queues) and not self._stopping.is_set():
            WorkerHeartbeat.objects.create(
                name=self.name, queues=self.queues, started_at=self.started_at, last_beat=now
            )
        if self._pruned_at is None or time.monotonic() - self._pruned_at > PRUNE_EVERY:
            WorkerHeartbeat.objects.filter(last_beat__lt=now - FORGET_AFTER).delete()
            self._pruned_at = time.monotonic()

    def _run(self) -> None:
        try:
            while not self._stopping.is_set():
                try:
                    self.beat()
                except Exception:
                    # The database away (or anything else): the worker goes on, and so do we.
                    logger.exception("Worker %s could not write its heartbeat", self.name)
                    for connection in connections.all(initialized_only=True):
                        connection.close_if_unusable_or_obsolete()
                self._stopping.wait(self.interval)
        finally:
            # This thread's own connections, which nobody else would close.
            connections.close_all()
