"""Running an async scenario from a synchronous test."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import async_to_sync


def run_async(scenario):
    """Run an async scenario to its end, on a thread of its own; return what it returns.

    The browser tests' Playwright keeps an event loop running in the main thread for the rest
    of the session, and async_to_sync refuses to start where a loop is running.
    """
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(async_to_sync(scenario)).result()
