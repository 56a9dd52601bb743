"""The hand under the fingers: a pass of exactly three, the received cards marked, the skip
link to the hand, the keyboard focus kept in the hand after a card is played, and the next
match waiting once a decision is made."""

import re

from playwright.sync_api import Page, expect

from games.models import Profile
from tests.browser.helpers import card_codes, off_the_loop
from tests.browser.test_match_in_browser import (
    cards_named,
    log_in,
    past_the_pass_against_three_bots,
    three_easy_bots,
)
from tests.factories import make_match


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
    rosa = make_user("rosa", "Rosa")
    # Her only legal card played for her (the 2♣ she may have received) would leave two marked.
    off_the_loop(lambda: Profile.objects.filter(user=rosa).update(auto_play_forced=False))
    log_in(page, "rosa")
    hand = past_the_pass_against_three_bots(page)
    received = hand.locator("button.playing-card.is-received")
    expect(received).to_have_count(3)
    # The marked cards are the ones the pass record names as received (after the three passed).
    record = card_codes(hand.locator(".pass-record [data-card]"))
    assert sorted(card_codes(received)) == sorted(record[3:])
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
    expect(hand.locator("button.playing-card:focus")).to_have_count(1)


def test_after_a_decision_the_next_waiting_match_is_offered_and_can_be_gone_to(
    page: Page, make_user
):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    # Here alice passes and then waits for bob; there, three bots wait for her pass.
    here = off_the_loop(make_match, alice, people=[bob], bots=2, seed=3)
    there = off_the_loop(make_match, alice, bots=3, seed=4)
    log_in(page, "alice")
    page.goto(here.get_absolute_url())
    offer = page.locator("[data-next-match]")
    expect(offer).to_be_hidden()  # her own decision is due here first
    hand = page.locator("#hand")
    for box in hand.locator(".pass-choice input").all()[:3]:
        box.check()
    page.get_by_role("button", name="Pass these three cards").click()
    expect(hand).to_contain_text("Waiting for Bob to pass")
    link = offer.get_by_role("link", name=f"Next match waiting for you: match {there.pk}")
    expect(link).to_have_attribute("href", there.get_absolute_url())

    # Opted in, the page goes there by itself after a short countdown, which can be stopped.
    offer.get_by_label("Go there by itself").check()
    expect(offer.get_by_role("status")).to_contain_text("Going there in")
    offer.get_by_role("button", name="Stay here").click()
    expect(offer.get_by_role("status")).to_have_text("")
    page.reload()
    expect(page.get_by_label("Go there by itself")).to_be_checked()  # remembered
    page.wait_for_url(f"**{there.get_absolute_url()}", timeout=10_000)


def test_a_four_colour_deck_and_large_cards_from_the_profile(page: Page, make_user):
    rosa = make_user("rosa", "Rosa")
    log_in(page, "rosa")
    hand = past_the_pass_against_three_bots(page)
    card = hand.locator("button.playing-card").first
    before = card.bounding_box()
    colours = dict(
        hand.locator("button.playing-card").evaluate_all(
            "cards => cards.map(c => [c.dataset.card.slice(-1), getComputedStyle(c).color])"
        )
    )
    two_colours = {"C": "rgb(29, 35, 42)", "S": "rgb(29, 35, 42)", "D": "rgb(200, 16, 46)"}
    assert all(colours[suit] == two_colours[suit] for suit in colours if suit in two_colours)
    off_the_loop(
        lambda: Profile.objects.filter(user=rosa).update(four_colour_deck=True, large_cards=True)
    )
    page.reload()
    colours = dict(
        hand.locator("button.playing-card").evaluate_all(
            "cards => cards.map(c => [c.dataset.card.slice(-1), getComputedStyle(c).color])"
        )
    )
    assert colours.get("C", "rgb(23, 115, 58)") == "rgb(23, 115, 58)"
    assert colours.get("D", "rgb(26, 86, 180)") == "rgb(26, 86, 180)"
    assert colours.get("H", "rgb(200, 16, 46)") == "rgb(200, 16, 46)"
    assert len(set(colours.values())) == len(colours)  # no two suits share a colour
    assert len(colours) >= 2
    after = hand.locator("button.playing-card").first.bounding_box()
    assert before and after and after["width"] > before["width"] * 1.15
