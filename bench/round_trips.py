"""What one round trip to PostgreSQL or Redis costs on this machine, by how idle it was before.

A played card talks to the database twice (the locked read, then the writes with the COMMIT)
with about a millisecond of Python in between, seconds after the player's last request; the
trivial view talks to nobody. This measures the round trips alone, outside Django, in the
patterns a card makes them, so that a change to the number of round trips can be judged
against what one costs here:

- back to back, as in a loop;
- after a pause (the machine idle, as between a player's requests);
- a second one after some computing (as the COMMIT after the move's Python).

    python bench/round_trips.py
    python bench/round_trips.py --samples 400 --database postgres://postgres@127.0.0.1:5432/x

Prints the median and p90 of each pattern, in ms. Needs PostgreSQL at the URL given and Redis
at 127.0.0.1:6379 (either is left out if it cannot be reached).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial

from benchlib import percentile  # beside this script


def spin(seconds: float) -> None:
    """Compute (stay on the CPU) for `seconds`, as a request's Python does between queries."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def timed(call: Callable[[], object]) -> float:
    began = time.perf_counter()
    call()
    return (time.perf_counter() - began) * 1000


def after_idle(call: Callable[[], object], seconds: float) -> float:
    """Time one round trip made after the machine sat idle for `seconds`."""
    time.sleep(seconds)
    return timed(call)


def second_after_computing(call: Callable[[], object], milliseconds: float) -> float:
    """Time the second of two round trips, with some computing between them."""
    time.sleep(0.01)
    call()
    spin(milliseconds / 1000)
    return timed(call)


def measure(name: str, call: Callable[[], object], samples: int) -> None:
    """Print the round trip's cost in each pattern."""
    patterns: list[tuple[str, Callable[[], float]]] = [
        ("back to back", partial(timed, call)),
        ("after 10 ms idle", partial(after_idle, call, 0.01)),
        ("after 100 ms idle", partial(after_idle, call, 0.1)),
        *(
            (
                f"second, {ms:g} ms of computing after the first",
                partial(second_after_computing, call, ms),
            )
            for ms in (0.0, 0.5, 2.0)
        ),
    ]
    print(f"\n{name}: one round trip, median / p90 ms over {samples}")
    for label, pattern in patterns:
        values = [pattern() for _ in range(samples)]
        print(f"  {label:<44} {statistics.median(values):6.3f} / {percentile(values, 0.9):6.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    try:
        import psycopg

        connection = psycopg.connect(args.database, autocommit=True)
    except Exception as error:  # noqa: BLE001 (any reason to skip it is printed)
        print(f"PostgreSQL left out: {error}")
    else:
        with connection:
            measure("PostgreSQL SELECT 1", lambda: connection.execute("SELECT 1"), args.samples)
    try:
        import redis

        client = redis.Redis.from_url(args.redis_url)
        client.ping()
    except Exception as error:  # noqa: BLE001
        print(f"Redis left out: {error}")
    else:
        measure("Redis PING", client.ping, args.samples)


if __name__ == "__main__":
    main()
