"""Ten seats of Cancellation Hearts fit the table on a desktop and on a phone (R5.2)."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import off_the_loop
from tests.browser.test_clock_in_browser import log_in
from tests.factories import make_match

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def overlaps(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.mark.parametrize("size", SIZES)
def test_R5_2_ten_seats_fit_the_table_apart(page: Page, live_server, screenshot, make_user, size):
    alice = make_user("alice", "Alice")
    match = off_the_loop(make_match, alice, players=10, bots=9, variant="cancellation", hands=1)
    page.set_viewport_size(SIZES[size])
    log_in(page, "alice")
    page.goto(match.get_absolute_url())
    seats = page.locator("#table .seat")
    expect(seats).to_have_count(10)
    expect(page.locator(".hand-facts")).to_contain_text("Cancellation Hearts (two decks)")
    felt = page.locator(".felt").bounding_box()
    assert felt
    boxes = [seats.nth(i).bounding_box() for i in range(10)]
    for box in boxes:
        assert box
        # Every seat within the table's width, none over another.
        assert (
            felt["x"] - 2 <= box["x"] and box["x"] + box["width"] <= felt["x"] + felt["width"] + 2
        )
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not overlaps(a, b), (a, b)
    screenshot(page, f"ten-seats-{size}")
