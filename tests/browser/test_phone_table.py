"""On a phone (390×844) the trick, whose turn it is and the whole hand fit on one screen.

A player on a phone must never scroll between looking at the trick and choosing a card: at
every table size, with the page just loaded, each of them lies inside the viewport.
"""

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from games import engine
from tests.browser.helpers import off_the_loop
from tests.browser.test_clock_in_browser import log_in
from tests.factories import make_match, next_move, state_of

PHONE = {"width": 390, "height": 844}


def waiting_to_play(user, players: int, variant: str = "standard"):
    """Return a match against bots, past the pass, where the user is to play a card."""
    match = make_match(user, players=players, bots=players - 1, variant=variant, hands=1)
    client = Client()
    client.force_login(user)
    for _ in range(20):
        match.refresh_from_db()
        if state_of(match).phase == engine.PLAYING:
            return match
        move = next_move(match, 0)
        assert move is not None
        assert client.post(move.url, move.data).status_code == 302
    raise AssertionError("the pass never ended")


def inside(box: dict | None, viewport: dict) -> bool:
    assert box is not None
    return (
        box["y"] >= 0
        and box["y"] + box["height"] <= viewport["height"] + 0.5
        and box["x"] >= 0
        and box["x"] + box["width"] <= viewport["width"] + 0.5
    )


@pytest.mark.parametrize(
    "players,variant",
    [
        (3, "standard"),
        (4, "standard"),
        (5, "standard"),
        (6, "standard"),
        (7, "standard"),
        (10, "cancellation"),
    ],
)
def test_trick_turn_and_hand_fit_a_phone(
    page: Page, live_server, screenshot, make_user, players, variant
):
    alice = make_user("alice", "Alice")
    match = off_the_loop(waiting_to_play, alice, players, variant)
    page.set_viewport_size(PHONE)
    log_in(page, "alice")
    page.goto(match.get_absolute_url())
    cards = page.locator("#hand .hand .playing-card")
    expect(cards.first).to_be_visible()
    screenshot(page, f"phone-{players}")
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert inside(page.locator("#table .felt").bounding_box(), PHONE)
    assert inside(page.locator("#hand .hand-note").bounding_box(), PHONE)
    count = cards.count()
    assert count >= 5
    for i in range(count):
        assert inside(cards.nth(i).bounding_box(), PHONE), f"card {i + 1} of {count}"


@pytest.mark.parametrize("players", [3, 4, 7])
def test_the_pass_fits_a_phone(page: Page, live_server, screenshot, make_user, players):
    alice = make_user("alice", "Alice")
    match = off_the_loop(make_match, alice, players=players, bots=players - 1, hands=1)
    page.set_viewport_size(PHONE)
    log_in(page, "alice")
    page.goto(match.get_absolute_url())
    cards = page.locator("#hand .pass-choice label")
    expect(cards.first).to_be_visible()
    screenshot(page, f"phone-pass-{players}")
    assert inside(page.locator("#table .felt").bounding_box(), PHONE)
    assert inside(page.locator("#hand legend").bounding_box(), PHONE)
    for i in range(cards.count()):
        assert inside(cards.nth(i).bounding_box(), PHONE), f"card {i + 1}"
    assert inside(page.get_by_role("button", name="Pass these three cards").bounding_box(), PHONE)
