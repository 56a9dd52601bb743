"""Real Chromium through Playwright, against Django's live test server.

Where Chromium is missing, browser tests are skipped on a developer's machine but fail in CI
(`CI` set) or when `HEARTS_REQUIRE_BROWSER=1`: a missing browser must never pass silently there.
"""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.helpers import page_in

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def browser_required() -> bool:
    """Say whether a missing browser is a failure here rather than a skip."""
    flags = (os.environ.get("CI", ""), os.environ.get("HEARTS_REQUIRE_BROWSER", ""))
    return any(flag.lower() in {"1", "true", "yes"} for flag in flags)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in item.nodeid.replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator:
    """Launch one headless Chromium for the whole session."""
    message = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - playwright is a dev dependency
        sync_playwright = None
        message = "The playwright package is not installed"
    if sync_playwright is None or not Path(CHROMIUM).exists():
        if browser_required():
            pytest.fail(message)
        pytest.skip(message)
    # Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
    # themselves are still synchronous, so Django's guard against async misuse does not apply.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, live_server) -> Iterator:
    """Open a fresh browser context on the live server, closed after the test."""
    with page_in(browser, live_server.url, 1100, 800) as tab:
        yield tab


@pytest.fixture
def screenshot(request):
    """Save a full-page screenshot under test-artifacts/<test name>/<label>.png."""
    folder = ARTIFACTS / request.node.name.replace("[", "-").replace("]", "")
    folder.mkdir(parents=True, exist_ok=True)

    def take(page, label: str) -> Path:
        path = folder / f"{label}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
