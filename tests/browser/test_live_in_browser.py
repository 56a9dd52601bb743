"""Two players at one table in two browsers: a card played by one shows up for the other live.

The site runs under daphne (the live server of the other browser tests speaks no WebSocket),
on a SQLite file of its own with alice and bob seated and alice about to play before bob.
"""

import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import PASSWORD
from tests.servers import Visitor, daphne, free_port, manage, seated_match, site_env, worker

# Stands in for the browser's Notification API, recording what would have been shown.
FAKE_NOTIFICATIONS = """
window.__notifications = [];
window.Notification = class {
  constructor(title, options) { window.__notifications.push(options.body); }
  static permission = localStorage.getItem("fake-permission") || "default";
  static requestPermission() {
    localStorage.setItem("fake-permission", "granted");
    window.Notification.permission = "granted";
    return Promise.resolve("granted");
  }
};
"""
PLAYABLE = "#hand button.playing-card:not([aria-disabled])"


@pytest.fixture
def site(tmp_path):
    env = site_env(tmp_path / "site.sqlite3")
    match = seated_match(env)
    with daphne(env) as base:
        yield base, match


def player_page(browser, base: str, username: str, *, init_script: str = "") -> Page:
    context = browser.new_context(base_url=base, viewport={"width": 1100, "height": 800})
    context.set_default_timeout(15_000)
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your turn")).to_be_visible()
    return page


def live(page: Page, state: str) -> None:
    """Wait until the page's socket is open (or following its match)."""
    expect(page.locator("[data-live]")).to_have_attribute("data-state", state)


def play_first_card(page: Page) -> None:
    with page.expect_response(lambda r: "/play/" in r.url) as answer:
        page.locator(PLAYABLE).first.click()
    assert answer.value.status == 200


def next_to_play(pages: list[Page], seconds: float = 15) -> Page:
    """Return the first page on which a card may be played, once one is."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for page in pages:
            if page.locator(PLAYABLE).count():
                return page
        time.sleep(0.1)
    raise AssertionError("no page ever offered a card to play")


def test_a_card_played_by_one_player_appears_live_at_the_other_s_table(browser, screenshot, site):
    base, match = site
    table = f"/matches/{match['match']}/"
    notice = f"Your turn in match {match['match']}"
    alice = player_page(browser, base, "alice")
    bob = player_page(browser, base, "bob", init_script=FAKE_NOTIFICATIONS)
    alice.goto(table)
    bob.goto(table)
    elsewhere = bob.context.new_page()  # bob's second tab, on another page
    elsewhere.goto("/lobby/")
    for page, state in ((alice, "following"), (bob, "following"), (elsewhere, "open")):
        live(page, state)
    bob.evaluate("window.__notReloaded = true")
    expect(bob.locator(PLAYABLE)).to_have_count(0)
    expect(bob.locator("[data-turn-count]")).to_be_hidden()
    screenshot(bob, "1-bob-waits")

    alice.locator(f'#hand button[data-card="{match["card"]}"]').click()

    # Bob's table shows alice's card and his own playable hand, without a reload.
    expect(bob.locator(f'#table .trick [data-card="{match["card"]}"]')).to_be_visible()
    expect(bob.locator(PLAYABLE).first).to_be_visible()
    assert bob.evaluate("window.__notReloaded") is True
    # No toast on the page of the match itself: the table says it is his turn.
    expect(bob.locator("[data-turn-number]")).to_have_text("1")
    expect(bob).to_have_title(re.compile(r"^\(1\) Match \d+ · Hearts$"))
    expect(bob.locator(".toast")).to_have_count(0)
    screenshot(alice, "2-alice-played")
    screenshot(bob, "3-bob-to-play")

    # The other tab, on the lobby, hears it: one toast, read out, with the offer to notify.
    toast = elsewhere.locator(".toast")
    expect(toast).to_have_count(1)
    expect(toast.get_by_role("link", name=notice)).to_have_attribute("href", table)
    expect(elsewhere.locator("[data-announcer]")).to_have_text(notice)
    expect(elsewhere).to_have_title("(1) Lobby · Hearts")
    screenshot(elsewhere, "4-bob-in-the-lobby")

    # Bob asks for browser notifications; the offer is made once, in no later toast.
    toast.get_by_role("button", name="Notify me in this browser").click()
    expect(toast.get_by_role("button", name="Notify me in this browser")).to_have_count(0)
    toast.get_by_role("button", name="Dismiss").click()
    expect(toast).to_have_count(0)
    play_first_card(bob)
    expect(bob.locator("[data-turn-count]")).to_be_hidden()
    expect(bob).to_have_title(re.compile(r"^Match \d+ · Hearts$"))

    # Whoever is next plays, each seeing the table move live, until alice hands bob the turn
    # (a trick bob wins and leads again is his own doing: no notice for that).
    # The tab that asked for notifications shows one; the table's own tab shows no toast.
    for _ in range(12):
        player = next_to_play([alice, bob])
        if elsewhere.evaluate("window.__notifications.length"):
            break
        play_first_card(player)
    assert set(elsewhere.evaluate("window.__notifications")) == {notice}
    expect(bob.locator(".toast")).to_have_count(0)
    screenshot(bob, "5-bob-to-play-again")
    alice.context.close()
    bob.context.close()


def test_a_pass_by_one_player_keeps_the_cards_the_other_is_still_choosing(
    browser, screenshot, tmp_path
):
    env = site_env(tmp_path / "site.sqlite3")
    match = seated_match(env, "passing")
    table = f"/matches/{match['match']}/"
    with daphne(env) as base:
        alice = player_page(browser, base, "alice")
        bob = player_page(browser, base, "bob")
        for page in (alice, bob):
            page.goto(table)
            live(page, "following")
        ticks = alice.locator("#hand .pass-choice input")
        ticks.nth(0).check()
        ticks.nth(1).check()
        expect(alice.get_by_text("2 of 3 chosen")).to_be_visible()
        alice.evaluate("window.__notReloaded = true")

        for index in range(3):
            bob.locator("#hand .pass-choice input").nth(index).check()
        bob.get_by_role("button", name="Pass these three cards").click()
        expect(bob.locator("#hand")).to_contain_text("Waiting for Alice to pass")

        # Alice's table shows bob has passed; her two ticks and their count are still there.
        # She was choosing all along, so no notice tells her it is her turn.
        expect(alice.locator("#table .seat", has_text="Bob")).to_contain_text("passed")
        expect(alice.locator(".toast")).to_have_count(0)
        assert alice.evaluate("window.__notReloaded") is True
        expect(ticks.nth(0)).to_be_checked()
        expect(ticks.nth(1)).to_be_checked()
        expect(alice.get_by_text("2 of 3 chosen")).to_be_visible()
        screenshot(alice, "1-alice-still-choosing")

        # Her pass goes through on the refreshed table, not refused as made on an old one.
        ticks.nth(2).check()
        alice.get_by_role("button", name="Pass these three cards").click()
        expect(alice.locator("#hand .pass-record")).to_contain_text("received")
        expect(alice.locator("#hand .action-error")).to_have_count(0)
        screenshot(alice, "2-alice-passed")
        alice.context.close()
        bob.context.close()


def test_a_page_whose_server_restarts_reconnects_and_catches_up_on_what_it_missed(
    browser, screenshot, tmp_path
):
    env = site_env(tmp_path / "site.sqlite3")
    match = seated_match(env)
    port = free_port()
    with daphne(env, port) as base:
        bob = player_page(browser, base, "bob")
        bob.goto(f"/matches/{match['match']}/")
        live(bob, "following")
        bob.evaluate("window.__notReloaded = true")
    live(bob, "closed")

    # Alice plays while no server runs, so no event can reach bob's page.
    play = (
        "from django.contrib.auth.models import User; from games import services; "
        f"services.play_card(User.objects.get(username='alice'), {match['match']}, "
        f"{match['version']}, {match['card']!r})"
    )
    manage(env, "shell", "-c", play)

    with daphne(env, port):
        # Reconnected, bob's page asks again, sees a newer version and fetches the table once.
        trick_card = bob.locator(f'#table .trick [data-card="{match["card"]}"]')
        expect(trick_card).to_be_visible(timeout=30_000)
        expect(bob.locator(PLAYABLE).first).to_be_visible()
        expect(bob.locator("[data-turn-number]")).to_have_text("1")
        assert bob.evaluate("window.__notReloaded") is True
        screenshot(bob, "bob-caught-up")
        bob.context.close()


def test_a_player_joining_an_open_match_appears_at_the_creator_s_table(
    browser, screenshot, tmp_path
):
    env = site_env(tmp_path / "site.sqlite3")
    match = seated_match(env, "open")
    with daphne(env) as base:
        alice = player_page(browser, base, "alice")
        alice.goto(f"/matches/{match['match']}/")
        live(alice, "following")
        alice.evaluate("window.__notReloaded = true")
        seats = alice.locator("#table .setup-seat")
        expect(seats.filter(has_text="Bob")).to_have_count(0)

        bob = Visitor(base).log_in("bob", PASSWORD)
        assert bob.post(f"/matches/{match['match']}/join/", {}) == 200

        # The seats region is swapped in place: the page itself stays as it was.
        expect(seats.filter(has_text="Bob")).to_have_count(1)
        expect(alice.locator("#table")).to_have_count(1)
        assert alice.evaluate("window.__notReloaded") is True
        screenshot(alice, "bob-joined")
        alice.context.close()


@pytest.fixture
def site_with_a_worker(tmp_path):
    """The site as `manage.py serve` runs it for bots: daphne, and a worker that plays their
    cards (the `now` queue)."""
    env = site_env(tmp_path / "site.sqlite3")
    seated_match(env)
    with daphne(env) as base, worker(env, "now", tmp_path / "now.log"):
        yield base


def test_bots_that_search_think_in_the_background_and_their_cards_arrive_live(
    browser, screenshot, site_with_a_worker
):
    base = site_with_a_worker
    alice = player_page(browser, base, "alice")
    alice.get_by_role("link", name="Lobby", exact=True).click()
    alice.get_by_label("Players").select_option("4")
    alice.get_by_label("Seats filled by bots").fill("3")
    for bot in (1, 2, 3):  # normal is the lobby's default; say so, as a player would see it
        expect(alice.get_by_label(f"Level of bot {bot}")).to_have_value("normal")
    alice.get_by_role("button", name="Create the match").click()
    live(alice, "following")
    alice.evaluate("window.__notReloaded = true")
    hand = alice.locator("#hand")
    for checkbox in hand.locator(".pass-choice input[type=checkbox]").all()[:3]:
        checkbox.check()
    alice.get_by_role("button", name="Pass these three cards").click()
    expect(hand.locator(".pass-record")).to_be_visible()

    answers_with_a_thinking_bot = 0
    for card in range(6):
        # The bots' cards come over the socket: the page offers alice a card once they have.
        expect(alice.locator(PLAYABLE).first).to_be_visible()
        with alice.expect_response(lambda r: "/play/" in r.url) as answer:
            alice.locator(PLAYABLE).first.click()
        assert answer.value.status == 200
        # The answer is the table as alice's card left it: a bot to play is shown thinking,
        # and no bot's card was searched for within her request.
        if "thinking…" in answer.value.text():
            answers_with_a_thinking_bot += 1
        if card == 1:
            screenshot(alice, "alice-after-a-card")
    assert answers_with_a_thinking_bot >= 1
    expect(alice.locator(PLAYABLE).first).to_be_visible()
    expect(alice.locator("#table")).not_to_contain_text("thinking…")
    assert alice.evaluate("window.__notReloaded") is True
    screenshot(alice, "alice-to-play-again")


def test_the_lobby_shows_a_new_open_match_without_a_reload(browser, screenshot, site):
    base, _ = site
    alice = player_page(browser, base, "alice")
    bob = player_page(browser, base, "bob")
    bob.goto("/lobby/")
    live(bob, "open")
    bob.evaluate("window.__notReloaded = true")
    expect(bob.locator("#in-play")).to_contain_text("Watch match")  # the seated match
    alice.goto("/lobby/")
    alice.get_by_label("Players").select_option("5")
    alice.get_by_role("button", name="Create the match").click()
    expect(alice.get_by_role("heading", name=re.compile(r"^Match \d+$"))).to_be_visible()
    created = alice.url.rstrip("/").rsplit("/", 1)[-1]
    expect(bob.get_by_role("button", name=f"Join match {created}")).to_be_visible()
    assert bob.evaluate("window.__notReloaded") is True
    screenshot(bob, "lobby-live")
    alice.context.close()
    bob.context.close()


def test_a_chat_message_appears_live_at_the_other_players_page(browser, site):
    base, match = site
    table = f"/matches/{match['match']}/"
    alice = player_page(browser, base, "alice")
    bob = player_page(browser, base, "bob")
    for page in (alice, bob):
        page.goto(table)
        live(page, "following")
    alice.fill("#chat-text", "see you <b>soon</b>")
    alice.locator(".chat-write button").click()
    expect(bob.locator("#chat .chat-messages")).to_contain_text("see you <b>soon</b>")
    bob.locator(".chat-phrases button[value='well_played']").click()
    expect(alice.locator("#chat .chat-messages")).to_contain_text("Well played!")


def test_a_page_asks_only_for_the_chat_messages_it_lacks(browser, site):
    """The sender's page shows its message from its own answer and asks nothing; the other
    page asks for what came after the newest message it shows, once it shows one."""
    base, match = site
    table = f"/matches/{match['match']}/"
    pages = {name: player_page(browser, base, name) for name in ("alice", "bob")}
    asked: dict[str, list[str]] = {name: [] for name in pages}
    for name, page in pages.items():
        page.goto(table)
        live(page, "following")
        page.on(
            "request",
            lambda request, name=name: (
                asked[name].append(request.url)
                if request.method == "GET" and "/chat/" in request.url
                else None
            ),
        )
    alice, bob = pages["alice"], pages["bob"]
    alice.fill("#chat-text", "first words")
    alice.locator(".chat-write button").click()
    expect(bob.locator("#chat .chat-messages")).to_contain_text("first words")
    bob.locator(".chat-phrases button[value='well_played']").click()
    expect(alice.locator("#chat .chat-messages")).to_contain_text("Well played!")
    alice.fill("#chat-text", "second words")
    alice.locator(".chat-write button").click()
    expect(bob.locator("#chat .chat-messages")).to_contain_text("second words")
    for page in (alice, bob):
        expect(page.locator("#chat .chat-message")).to_have_count(3)  # each once
    alice.wait_for_timeout(500)  # her own news has had time to arrive: she asks nothing
    assert len(asked["alice"]) == 1 and "?after=" in asked["alice"][0], asked
    # Bob showed no message at first: the whole region; then what came after the newest.
    assert len(asked["bob"]) == 2 and "?after=" not in asked["bob"][0], asked
    assert "?after=" in asked["bob"][1], asked
    for page in pages.values():
        page.context.close()


def test_a_message_out_of_sight_is_told_and_what_one_was_typing_stays(browser, site):
    base, match = site
    table = f"/matches/{match['match']}/"
    alice = player_page(browser, base, "alice")
    bob = player_page(browser, base, "bob")
    bob.set_viewport_size({"width": 390, "height": 844})  # a phone: the table fills the screen
    for page in (alice, bob):
        page.goto(table)
        live(page, "following")
    told = bob.locator('[data-toast-match="chat"]')
    alice.fill("#chat-text", "are you there?")
    alice.locator(".chat-write button").click()
    expect(told).to_contain_text("New message in the chat")
    told.get_by_role("link").click()  # to the chat; the toast has said what it had to
    expect(told).to_have_count(0)
    expect(bob.locator("#chat .chat-messages")).to_contain_text("are you there?")
    # Bob is halfway through a sentence when Alice's next words arrive: both stay.
    bob.locator("#chat-text").fill("yes, just think")
    alice.locator(".chat-phrases button[value='well_played']").click()
    expect(bob.locator("#chat .chat-messages")).to_contain_text("Well played!")
    expect(bob.locator("#chat-text")).to_have_value("yes, just think")
    expect(bob.locator("#chat-text")).to_be_focused()
    bob.locator("#chat-text").press("End")
    bob.keyboard.type("ing")
    bob.locator(".chat-write button").click()
    expect(alice.locator("#chat .chat-messages")).to_contain_text("yes, just thinking")
    expect(bob.locator("#chat-text")).to_have_value("")  # what was sent is not put back
    # Words that arrive while the chat is in sight need no toast.
    alice.locator(".chat-phrases button[value='thanks']").click()
    expect(bob.locator("#chat .chat-messages")).to_contain_text("Thanks")
    expect(told).to_have_count(0)
    alice.context.close()
    bob.context.close()
