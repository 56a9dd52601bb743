"""A finished hand replayed with the keyboard, card by card and trick by trick (R6.3)."""

import pytest
from playwright.sync_api import Page, expect

from games.models import Match
from tests.browser.helpers import off_the_loop
from tests.browser.test_clock_in_browser import log_in
from tests.factories import make_match
from tests.records_helpers import finished_match
from tests.service_helpers import act, state_of

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", SIZES)
def test_R6_3_a_replay_steps_forward_and_back_with_the_keyboard(
    page: Page, live_server, screenshot, make_user, size
):
    alice = make_user("alice", "Alice")
    match = off_the_loop(finished_match, alice, hands=1, seed=4)
    page.set_viewport_size(SIZES[size])
    log_in(page, "alice")
    # From the score sheet's row to the hand.
    page.goto(f"{live_server.url}/matches/{match.pk}/scores/")
    page.get_by_role("link", name="1", exact=True).click()
    expect(page.locator("h1")).to_have_text("Hand 1")
    said = page.locator("[data-replay-said]")
    heading = page.locator("#replay-heading")
    expect(said).to_contain_text("The deal")
    expect(heading).to_contain_text("step 1 of")
    screenshot(page, f"replay-deal-{size}")

    page.keyboard.press("ArrowRight")  # the passes
    expect(heading).to_contain_text("step 2 of")
    expect(said).to_contain_text("passes are exchanged")
    page.keyboard.press("ArrowRight")  # the first card
    expect(said).to_contain_text("Trick 1:")
    expect(page.locator(".replay-trick .playing-card")).to_have_count(1)
    page.keyboard.press("ArrowDown")  # to the end of trick 1
    expect(said).to_contain_text("wins the trick")
    expect(page.locator(".replay-trick .playing-card")).to_have_count(4)
    page.keyboard.press("ArrowDown")  # the end of trick 2
    expect(heading).to_contain_text("trick 2")
    screenshot(page, f"replay-trick-{size}")
    page.keyboard.press("ArrowUp")  # back to the end of trick 1
    expect(heading).to_contain_text("trick 1")
    expect(said).to_contain_text("wins the trick")
    page.keyboard.press("ArrowLeft")  # back a card: three on the table
    expect(page.locator(".replay-trick .playing-card")).to_have_count(3)
    page.keyboard.press("End")
    expect(page.locator("#replay")).to_contain_text("The hand's score")
    expect(page.locator(".replay-seat .replay-hand .playing-card")).to_have_count(0)
    screenshot(page, f"replay-end-{size}")
    page.keyboard.press("Home")
    expect(said).to_contain_text("The deal")
    # Every hand face up at the deal: all 52 cards, in the seats' hands.
    expect(page.locator(".replay-seat .playing-card")).to_have_count(52)
    # The address follows the steps, so the back button and a reload land where the reader was.
    page.keyboard.press("ArrowRight")
    expect(page).to_have_url(f"{live_server.url}/matches/{match.pk}/hands/1/?step=1")


def play_two_tricks(user):
    match = make_match(user, bots=3)
    while len(state_of(match).public_view().tricks) < 2:
        match = act(user, match, 0)
    return match


@pytest.mark.parametrize("size", SIZES)
def test_R6_3_t_opens_every_trick_of_the_hand_in_play(
    page: Page, live_server, screenshot, make_user, size
):
    alice = make_user("alice", "Alice")
    match = off_the_loop(play_two_tricks, alice)
    page.set_viewport_size(SIZES[size])
    log_in(page, "alice")
    page.goto(match.get_absolute_url())
    expect(page.locator("a[data-tricks-link]")).to_be_visible()
    page.locator("body").press("t")
    expect(page.locator("h1")).to_have_text("Hand 1 so far")
    # At least the two tricks played before; the bots may have finished more since.
    done = off_the_loop(lambda: len(state_of(Match.objects.get(pk=match.pk)).public_view().tricks))
    rows = page.locator(".trick-review-row")
    expect(rows.nth(1)).to_be_visible()
    assert 2 <= rows.count() <= done
    screenshot(page, f"tricks-so-far-{size}")
    page.get_by_role("link", name="Back to the table").click()
    expect(page.locator("#table")).to_be_visible()
