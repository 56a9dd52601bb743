"""Keep parallel test workers apart where they would share a service (loaded with `-p`).

With pytest-xdist (`pytest -n auto`) each worker has its own test database, and with it the
same match ids as every other worker. The Redis cache and channel groups are keyed by those
ids, and tests clear the cache, so two workers on one Redis database would read, clear and
receive each other's entries. Each worker therefore takes its own Redis database: the one
`REDIS_URL` names, plus the worker's number (pyproject.toml caps a run at 8 workers). This
runs on import, before pytest-django reads the settings.
"""

import os
from urllib.parse import urlsplit, urlunsplit

# Redis's default configuration has 16 databases (0 to 15): the daphne tests take the last,
# the tests of the worker processes' events the one before (each file's sites number their
# matches from 1, so two files running at once on one database would hear each other's
# events), and the workers stay below both.
DAPHNE_REDIS_DATABASE = 15
WORKER_EVENTS_REDIS_DATABASE = 14
# This process's worker name (gw0, gw1, ...) in a parallel run; None in a run of one process
# and in the main process that starts the workers.
WORKER = os.environ.get("PYTEST_XDIST_WORKER")


def worker_redis_url(url: str, worker: str) -> str:
    """Return `url` moved to database (its own + the worker's number), e.g. gw1 from /1 to /2."""
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    database = base + int(worker.removeprefix("gw"))
    if database >= min(DAPHNE_REDIS_DATABASE, WORKER_EVENTS_REDIS_DATABASE):
        raise RuntimeError(
            f"Worker {worker} would need Redis database {database}: "
            f"run fewer workers (-n) or start from a lower database in REDIS_URL"
        )
    return urlunsplit(parts._replace(path=f"/{database}"))


if WORKER and os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = worker_redis_url(os.environ["REDIS_URL"], WORKER)
