"""Running an async scenario from a synchronous test."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import async_to_sync

# A scenario still running after this long is stuck (a lock never released, say): the test
# fails with the stack instead of holding the whole run until CI's limit.
SCENARIO_SECONDS = 120


def run_async(scenario):
    """Run an async scenario to its end, on a thread of its own; return what it returns.

    The browser tests' Playwright keeps an event loop running in the main thread for the rest
    of the session, and async_to_sync refuses to start where a loop is running.
    """
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        return pool.submit(async_to_sync(scenario)).result(timeout=SCENARIO_SECONDS)
    finally:
        pool.shutdown(wait=False)  # a stuck scenario's thread is left behind, not waited on
