"""A timed match with a player who never comes back, seen by the one who stays.

Bob and alice play a one-minute-a-decision match with two bots; alice is away. Bob's page shows
her countdown, then that her time is up; the deadline is met by its own task (run here as the
worker runs it, on the moved clock, against the live server's database), and once she has let
it run out twice in a row bob's page shows a bot playing her seat.
"""

import re
from datetime import timedelta

from playwright.sync_api import Page, expect

from games import services
from games.background.deadlines import time_out_seat
from games.models import Action, Match, Seat
from tests.browser.helpers import card_codes, off_the_loop
from tests.conftest import PASSWORD
from tests.factories import make_match, next_move, seat_of

PHONE = {"width": 390, "height": 844}
ONE_MINUTE = 60


def log_in(page: Page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your turn")).to_be_visible()


def seat_named(page: Page, name: str):
    return page.locator("#table .seat").filter(has_text=name)


def alices_seat(match: Match) -> Seat:
    return Seat.objects.get(match=match, position=0)  # the creator's


def play_until_alice_owes_a_decision(match: Match, bob) -> Seat:
    """Let bob make the decisions he owes (as his page would) until alice owes one."""
    for _ in range(60):
        alice = alices_seat(match)
        if alice.to_act:
            return alice
        match.refresh_from_db()
        move = next_move(match, seat_of(match, bob))
        assert move is not None, "nobody a test can move owes a decision"
        if "card" in move.data:
            services.play_card(bob, match.pk, match.version, move.data["card"])
        else:
            services.pass_cards(bob, match.pk, match.version, move.data["cards"])
    raise AssertionError("alice never owed a decision")


def meet_deadline(seat: Seat) -> bool:
    """Run the deadline's own task as the worker would; say whether it timed the seat out."""
    assert seat.deadline
    return time_out_seat.call(
        match_id=seat.match_id, position=seat.position, deadline=seat.deadline.isoformat()
    )


def test_an_absent_players_clock_runs_out_and_a_bot_plays_her_seat(
    page, browser, live_server, screenshot, make_user, clock
):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    match = off_the_loop(
        make_match, alice, people=[bob], bots=2, decision_seconds=ONE_MINUTE, target=100
    )
    assert match.timeouts_to_leave == 2
    seat = alices_seat(match)
    assert seat.to_act and seat.deadline
    clock.current = seat.waiting_since  # the moment her decision began

    log_in(page, "bob")
    page.goto(match.get_absolute_url())
    # Bob passes at once; alice, away, is left to decide.
    hand = page.locator("#hand")
    for checkbox in hand.locator(".pass-choice input[type=checkbox]").all()[:3]:
        checkbox.check()
    page.get_by_role("button", name="Pass these three cards").click()
    expect(hand).to_contain_text("Waiting for Alice to pass")
    hers = seat_named(page, "Alice")
    expect(hers).to_contain_text("choosing")
    # The server wrote a minute; the page counts it down by the browser's own clock.
    expect(hers.locator("time.deadline")).to_have_attribute("data-seconds-left", "60")
    expect(hers.locator("time.deadline")).to_have_text(re.compile(r"^(1 min|[1-5]?\d s) left$"))
    expect(hers.locator("time.deadline")).to_have_attribute("datetime", seat.deadline.isoformat())
    screenshot(page, "1-desktop-alice-has-a-minute")

    # A minute and a second later, by the site's clock: her time is up, nothing decided yet.
    clock.current = seat.deadline + timedelta(seconds=1)
    page.reload()
    expect(hers.locator("time.deadline")).to_have_text("time is up")
    expect(hers.locator("time.deadline.is-up")).to_be_visible()
    screenshot(page, "2-desktop-alices-time-is-up")

    assert off_the_loop(meet_deadline, seat) is True
    page.reload()
    # A bot passed for her: the three cards it chose reached bob, and the hand went on.
    (timed_out,) = Action.objects.filter(match=match, seat=0, actor=Action.Actor.TIMEOUT)
    assert timed_out.kind == Action.Kind.PASS
    record = hand.locator(".pass-record")
    expect(record).to_contain_text("from Alice")
    received = card_codes(record.locator("[data-card]"))
    assert sorted(received[3:]) == sorted(timed_out.value.split())
    # Her next decision, a card, has a minute of its own.
    expect(hers.locator("time.deadline")).to_have_attribute(
        "data-seconds-left", re.compile(r"^(5\d|60)$")
    )
    screenshot(page, "3-desktop-a-bot-passed-for-alice")

    # Her next decision runs out too: the second in a row hands her seat to a bot.
    seat = off_the_loop(play_until_alice_owes_a_decision, match, bob)
    clock.current = seat.deadline + timedelta(seconds=1)
    assert off_the_loop(meet_deadline, seat) is True
    seat.refresh_from_db()
    assert seat.left_on_time and seat.deadline is None
    assert Action.objects.filter(match=match, seat=0, actor=Action.Actor.TIMEOUT).count() == 2

    page.reload()
    expect(page.locator("#table")).to_contain_text("Alice (out of time, a bot plays)")
    expect(seat_named(page, "Alice").locator("time.deadline")).to_have_count(0)
    screenshot(page, "4-desktop-a-bot-plays-for-alice")

    phone = browser.new_context(base_url=live_server.url, viewport=PHONE)
    try:
        small = phone.new_page()
        small.set_default_timeout(15_000)
        log_in(small, "bob")
        small.goto(match.get_absolute_url())
        expect(small.locator("#table")).to_contain_text("Alice (out of time, a bot plays)")
        screenshot(small, "5-phone-a-bot-plays-for-alice")
    finally:
        phone.close()
