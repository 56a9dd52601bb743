"""Helpers of the browser tests."""

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

from django.db import connections
from playwright.sync_api import Locator, Page

from tests.conftest import PASSWORD


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


@contextmanager
def page_in(browser, base_url: str, width: int, height: int, **options) -> Iterator[Page]:
    """A page in a fresh browser context of its own (a size, a time zone...), closed after."""
    context = browser.new_context(
        base_url=base_url, viewport={"width": width, "height": height}, **options
    )
    context.set_default_timeout(15_000)
    try:
        yield context.new_page()
    finally:
        context.close()


def log_in(page: Page, username: str) -> None:
    """Sign in through the login form, with the tests' password."""
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
