"""What the benchmarks share: a free port, percentiles, a fresh PostgreSQL database.

The benchmarks stand alone (they import neither the tests nor each other); Python puts this
folder first on the path when a script in it runs, so `import benchlib` finds this module.
"""

from __future__ import annotations

import re
import socket

POSTGRES_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"


def free_port() -> int:
    """Return a TCP port on the loopback interface that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def percentile(values: list[float], fraction: float) -> float:
    """Return the value below which `fraction` of the values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def reset_postgres(name: str) -> str:
    """Drop and create the database `name`; return its URL."""
    import psycopg  # only the PostgreSQL profiles need it

    if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
        raise ValueError(f"not a plain database name: {name!r}")
    with psycopg.connect(POSTGRES_ADMIN, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {name}")
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def production_env(environ: dict[str, str]) -> dict[str, str]:
    """Return `environ` for a production-like site on plain HTTP at 127.0.0.1.

    DEBUG is off, as in production (cached templates); the security settings that need HTTPS
    are off, since the benchmark talks plain HTTP. The caller chooses the database.
    """
    drop = {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {k: v for k, v in environ.items() if k not in drop}
    env.update(
        DEBUG="0",
        SECRET_KEY="bench-" + "x7Qp!2Lz" * 8,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        SECURE_HSTS_SECONDS="0",
        LOG_LEVEL="WARNING",
    )
    return env
