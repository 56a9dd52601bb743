"""Following from a player's page in a real browser (htmx swaps the buttons), and the Friends
page at desktop and phone widths: no side scroll, nothing overlapping."""

import pytest
from playwright.sync_api import Page, expect

from games.services import people
from tests.browser.helpers import off_the_loop
from tests.browser.test_clock_in_browser import log_in
from tests.browser.test_narrow_screens import no_side_scroll
from tests.factories import make_match
from tests.records_helpers import finished_match

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def _friends(make_user):
    alice = make_user("alice", "Alice")
    bob = make_user("bob", "Bob")
    carol = make_user("carol", "Wilhelmina Montgomery")
    people.follow(alice, carol)
    make_match(bob, people=[carol])
    make_match(carol, people=[alice], seed=9)
    finished_match(carol, hands=1)
    people.block(alice, make_user("dave", "Dave"))
    return alice


@pytest.mark.parametrize("size", SIZES)
def test_following_swaps_the_buttons_and_the_pages_fit(page: Page, screenshot, make_user, size):
    off_the_loop(_friends, make_user)
    page.set_viewport_size(SIZES[size])
    log_in(page, "alice")
    page.goto("/players/Bob/")
    page.get_by_role("button", name="Follow", exact=True).click()
    expect(page.locator("#relation")).to_contain_text("You follow Bob now.")
    expect(page.get_by_role("button", name="Unfollow")).to_be_visible()
    no_side_scroll(page)
    screenshot(page, f"player-{size}")
    page.get_by_role("link", name="Friends", exact=True).first.click()
    expect(page.get_by_role("heading", name="Waiting on you")).to_be_visible()
    expect(page.locator("#following")).to_contain_text("Wilhelmina Montgomery")
    expect(page.locator("#following")).to_contain_text("Bob")
    no_side_scroll(page)
    screenshot(page, f"friends-{size}")
