"""Helpers of the browser tests."""

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from django.db import connections
from playwright.sync_api import Locator


def off_the_loop(call: Callable, *args, **kwargs):
    """Run a change in a thread of its own: this one runs Playwright's event loop, from which
    the services could not relay their live events."""

    def run():
        try:
            return call(*args, **kwargs)
        finally:
            connections.close_all()  # that thread's own

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def card_codes(cards: Locator) -> list[str]:
    """Return the cards drawn by the elements a locator matches, as codes ("QS"), in order."""
    return cards.evaluate_all("els => els.map(e => e.dataset.card)")
