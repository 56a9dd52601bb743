"""Endpoints for load balancers and operators.

`/healthz` is liveness: the process answers (and the HTTP benchmark's baseline). It touches
nothing else.

`/readyz` is readiness: whether this server can do its work now. It checks the database (one
trivial query), Redis when `REDIS_URL` is set (a PING), and the background workers (one
indexed read of their heartbeats: at least one live worker for each kind of queue, `now` and
`long`). It answers 200 with `{"status": "ready", "checks": {...}}`, or 503 with
`"status": "unready"` and each failed part marked `"fail"`. It names no host, address or error:
the reasons go to the log.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.background.heartbeat import KINDS, live_kinds

logger = logging.getLogger(__name__)

OK = "ok"
FAIL = "fail"
SKIPPED = "skipped"

# Seconds a PING to Redis may take before Redis counts as unready.
REDIS_TIMEOUT = 1.0
_redis_client: redis.Redis | None = None
T = TypeVar("T")


@never_cache
@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """Answer "ok" without touching the database."""
    return HttpResponse("ok", content_type="text/plain")


def check_database() -> bool:
    """Run a trivial query on the default database."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return bool(cursor.fetchone() == (1,))


def _redis() -> redis.Redis:
    """The client for readiness PINGs: one per process, with short timeouts, on the Redis the
    cache and the channel layer use (`REDIS_URL`)."""
    global _redis_client
    if _redis_client is None:
        _redis_client = redis.Redis.from_url(
            settings.REDIS_URL,
            socket_timeout=REDIS_TIMEOUT,
            socket_connect_timeout=REDIS_TIMEOUT,
        )
    return _redis_client


def check_redis() -> bool:
    """PING Redis (the site uses it: `REDIS_URL` is set)."""
    return bool(_redis().ping())


def check_workers() -> dict[str, bool]:
    """Say, for each kind of queue, whether a live worker takes it."""
    live = live_kinds()
    return {kind: kind in live for kind in KINDS}


def _run(name: str, check: Callable[[], T]) -> T | None:
    """Run a check; None if it raised (logged: the answer names no error)."""
    try:
        return check()
    except Exception:
        logger.exception("Readiness: the %s check failed", name)
        return None


@never_cache
@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    """Answer 200 if the database, Redis (if used) and a worker of each kind are there, else 503."""
    database = bool(_run("database", check_database))
    redis_used = bool(settings.REDIS_URL)
    redis_up = bool(_run("redis", check_redis)) if redis_used else True
    # Without the database the heartbeats cannot be read: every kind counts as missing.
    workers = (_run("workers", check_workers) if database else None) or {}
    checks: dict[str, object] = {
        "database": OK if database else FAIL,
        "redis": (OK if redis_up else FAIL) if redis_used else SKIPPED,
        "workers": {kind: OK if workers.get(kind) else FAIL for kind in KINDS},
    }
    ready = database and redis_up and all(workers.get(kind) for kind in KINDS)
    return JsonResponse(
        {"status": "ready" if ready else "unready", "checks": checks},
        status=200 if ready else 503,
    )
