"""Four people at one table, each in a browser of their own: they chat, one mutes another,
they play the last trick, and all four play again, every page following live.

The site runs under daphne (the live server speaks no WebSocket), on a SQLite file of its own,
with alice, bob, carol and dave one card each from the end of a one-hand match.
"""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_live_in_browser import PLAYABLE, live
from tests.browser.test_narrow_screens import no_side_scroll
from tests.conftest import PASSWORD
from tests.servers import daphne, seated_match, site_env

NAMES = ("alice", "bob", "carol", "dave")  # by seat
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def table(browser, tmp_path) -> Iterator[tuple[int, int, dict[str, Page]]]:
    """The match, the seat leading its last trick, and each person's page, logged in."""
    env = site_env(tmp_path / "site.sqlite3")
    match = seated_match(env, "last-trick")
    with daphne(env) as base:
        pages: dict[str, Page] = {}
        try:
            for name in NAMES:
                pages[name] = log_in_meanwhile(browser, base, name)
            for page in pages.values():
                expect(page.get_by_role("heading", name="Your turn")).to_be_visible()
            yield match["match"], match["card"], pages
        finally:
            for page in pages.values():
                page.context.close()


def log_in_meanwhile(browser, base: str, username: str) -> Page:
    """Open a browser context of the person's own and send the login form, without waiting
    for its answer: the four logins (each a slow password hash) run side by side."""
    context = browser.new_context(base_url=base, viewport={"width": 1100, "height": 800})
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click(no_wait_after=True)
    return page


def messages(page: Page):
    return page.locator("#chat .chat-messages")


def say(page: Page, text: str) -> None:
    page.fill("#chat-text", text)
    page.locator(".chat-write button").click()
    # The answer is the chat with the words in it (what was typed was not swapped away).
    expect(messages(page)).to_contain_text(text)
    expect(page.locator("#chat-text")).to_have_value("")


def match_id(page: Page) -> int:
    return int(page.locator("main").get_attribute("data-match"))


def test_four_people_chat_mute_finish_and_play_again(table, screenshot):
    old, leader, pages = table
    alice, bob, carol, dave = (pages[name] for name in NAMES)
    for page in pages.values():
        page.goto(f"/matches/{old}/")
        live(page, "following")
        page.evaluate("window.__notReloaded = true")

    # A phrase, then words with markup: each arrives at the other three pages as text.
    alice.locator(".chat-phrases button", has_text="Good luck").click()
    expect(messages(alice)).to_contain_text("Good luck")
    markup = "<b>hi</b> & http://example.com"
    say(bob, markup)
    for page in (alice, carol, dave):
        expect(messages(page)).to_contain_text("Good luck", timeout=10_000)
        expect(messages(page)).to_contain_text(markup, timeout=10_000)
        expect(messages(page).locator("b")).to_have_count(0)
        expect(messages(page).locator("a[href*='example.com']")).to_have_count(0)
        assert page.evaluate("window.__notReloaded") is True

    # Alice mutes bob: his next words reach carol and dave, not her.
    alice.locator(".chat-message", has_text=markup).get_by_role("button", name="Mute").click()
    expect(alice.locator("#chat .chat-muted")).to_contain_text("Bob")
    expect(messages(alice)).not_to_contain_text(markup)
    say(bob, "can anyone hear me")
    alice.locator(".chat-phrases button", has_text="Well played!").click()
    for page in (carol, dave):
        expect(messages(page)).to_contain_text("can anyone hear me")
    say(carol, "loud and clear")
    expect(messages(alice)).to_contain_text("loud and clear")  # the chat after bob's words
    expect(messages(alice)).not_to_contain_text("can anyone hear me")
    screenshot(alice, "1-alice-muted-bob")
    dave.set_viewport_size(PHONE)
    no_side_scroll(dave)
    dave.locator("#chat").scroll_into_view_if_needed()
    screenshot(dave, "2-dave-chat-phone")

    # The last trick, each card clicked by its holder; every page turns to the finished match.
    for turn in range(4):
        page = pages[NAMES[(leader + turn) % 4]]
        expect(page.locator(PLAYABLE)).to_have_count(1)
        page.locator(PLAYABLE).click()
    for page in pages.values():
        expect(page.locator("main")).to_have_attribute("data-status", "finished")
        expect(page.locator(".rematch-panel")).to_contain_text("Dave: awaited")

    # Each says "Play again"; the others' panels follow; the fourth yes starts the rematch.
    for count, name in enumerate(NAMES[:3], start=1):
        pages[name].locator(".rematch-panel").get_by_role("button", name="Play again").click()
        for page in pages.values():
            expect(page.locator(".rematch-panel")).to_contain_text(f"{name.title()}: will play")
            expect(page.locator(".rematch-panel strong")).to_have_count(count)
    screenshot(dave, "3-dave-rematch-phone")
    no_side_scroll(dave)
    dave.locator(".rematch-panel").get_by_role("button", name="Play again").click()
    expect(dave.locator("main")).to_have_attribute("data-status", "active")
    new = match_id(dave)
    assert new != old
    for page in pages.values():
        expect(page.locator("main")).to_have_attribute("data-match", str(new))
        expect(page.locator("main")).to_have_attribute("data-status", "active")
        assert page.url.rstrip("/").endswith(f"/matches/{new}")
    screenshot(alice, "4-alice-in-the-rematch")
