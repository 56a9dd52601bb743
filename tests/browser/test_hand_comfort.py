"""The hand under the fingers: a pass of exactly three, the received cards marked, the skip
link to the hand, and the keyboard focus kept in the hand after a card is played."""

import re

from playwright.sync_api import Page, expect

from tests.browser.test_match_in_browser import (
    cards_named,
    log_in,
    past_the_pass_against_three_bots,
    three_easy_bots,
)


def test_the_pass_form_takes_exactly_three_cards(page: Page, make_user):
    make_user("rosa", "Rosa")
    log_in(page, "rosa")
    page.get_by_role("link", name="Lobby", exact=True).click()
    three_easy_bots(page)
    page.get_by_role("button", name="Create the match").click()
    hand = page.locator("#hand")
    words = cards_named(page, "#hand .pass-choice label")
    for name in words[:2]:
        hand.get_by_role("checkbox", name=name, exact=True).check()
    # Two chosen: the form is not sent, and says why.
    page.get_by_role("button", name="Pass these three cards").click()
    expect(hand.locator("[data-pass-count]")).to_contain_text("Choose 3 cards to pass: 2 chosen")
    expect(hand.get_by_role("checkbox", name=words[0], exact=True)).to_be_checked()
    hand.get_by_role("checkbox", name=words[2], exact=True).check()
    expect(hand.locator("[data-pass-count]")).to_have_text("3 of 3 chosen")
    # A fourth is undone at once.
    hand.get_by_role("checkbox", name=words[3], exact=True).click()
    expect(hand.get_by_role("checkbox", name=words[3], exact=True)).not_to_be_checked()
    expect(hand.locator("[data-pass-count]")).to_contain_text("take one back first")
    page.get_by_role("button", name="Pass these three cards").click()
    expect(hand.locator(".pass-record")).to_be_visible()


def test_received_cards_are_marked_and_described(page: Page, make_user):
    make_user("rosa", "Rosa")
    log_in(page, "rosa")
    hand = past_the_pass_against_three_bots(page)
    received = hand.locator("button.playing-card.is-received")
    expect(received).to_have_count(3)
    giver = hand.locator("#received-note").inner_text()
    assert giver.startswith("Received from ")
    for i in range(3):
        description = received.nth(i).get_attribute("aria-describedby") or ""
        assert "received-note" in description.split()
        expect(received.nth(i)).to_have_accessible_description(re.compile(giver))


def test_skip_link_and_focus_stay_in_the_hand(page: Page, make_user):
    make_user("rosa", "Rosa")
    log_in(page, "rosa")
    hand = past_the_pass_against_three_bots(page)
    page.reload()
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to your hand")
    expect(skip).to_be_focused()
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == "#hand"
    # Play the first card the keyboard reaches from the hand; the focus stays in the hand.
    playable = hand.locator('button.playing-card:not([aria-disabled="true"])')
    playable.first.focus()
    page.keyboard.press("Enter")
    expect(hand.locator("button.playing-card").first).to_be_attached()
    page.wait_for_function(
        "document.getElementById('hand').contains(document.activeElement)"
        " && document.activeElement.matches('button.playing-card')"
    )
