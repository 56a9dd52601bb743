"""Play again and Play now in a real browser, at desktop and phone widths: no side scroll."""

import pytest
from playwright.sync_api import Page, expect

from games.models import Match
from games.services import rematches
from tests.browser.helpers import off_the_loop
from tests.browser.test_clock_in_browser import log_in
from tests.browser.test_narrow_screens import no_side_scroll
from tests.records_helpers import constructed_match

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
HANDS = [[(10, False, False), (6, False, False), (5, False, False), (5, False, True)]]


def _finished(make_user) -> Match:
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    carol = make_user("carol", "Wilhelmina Montgomery")
    match = constructed_match([alice, bob, "strong", carol], HANDS)
    rematches.accept(carol, match.pk)
    return match


@pytest.mark.parametrize("size", SIZES)
def test_play_again_then_start_with_bots(page: Page, screenshot, make_user, size):
    match = off_the_loop(_finished, make_user)
    page.set_viewport_size(SIZES[size])
    log_in(page, "alice")
    page.goto(f"/matches/{match.pk}/")
    panel = page.locator(".rematch-panel")
    expect(panel).to_contain_text("Wilhelmina Montgomery: will play")
    expect(panel).to_contain_text("Bob: awaited")
    no_side_scroll(page)
    screenshot(page, f"offer-{size}")
    panel.get_by_role("button", name="Play again").click()
    expect(page.locator(".rematch-panel")).to_contain_text("Alice: will play")
    screenshot(page, f"accepted-{size}")
    page.get_by_role("button", name="Start with bots in the missing seats").click()
    expect(page.locator("main")).to_have_attribute("data-status", "active")
    assert page.url.rstrip("/").split("/")[-1] != str(match.pk)


@pytest.mark.parametrize("size", SIZES)
def test_play_now_from_your_turn(page: Page, screenshot, make_user, size):
    off_the_loop(make_user, "alice", "Alice")
    page.set_viewport_size(SIZES[size])
    log_in(page, "alice")
    page.goto("/")
    no_side_scroll(page)
    screenshot(page, f"your-turn-{size}")
    page.get_by_role("button", name="Play now").click()
    expect(page.locator("main")).to_have_attribute("data-status", "active")
