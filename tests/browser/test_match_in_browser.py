"""A player creates a match against three bots, passes and plays a whole hand by clicking."""

import re
from concurrent.futures import ThreadPoolExecutor

from django.contrib.auth import get_user_model
from django.db import connections
from playwright.sync_api import Locator, Page, expect

from games import engine, services
from games.models import Match
from tests.browser.helpers import card_codes
from tests.conftest import PASSWORD
from tests.factories import make_match, state_of

PHONE = {"width": 390, "height": 844}


def log_in(page: Page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your turn")).to_be_visible()


def cards_named(page: Page, selector: str) -> list[str]:
    """Return the cards a selector matches, in words (their accessible names)."""
    return [engine.Card.parse(text).words for text in card_codes(page.locator(selector))]


def row_for_hand_one(page: Page):
    return page.locator("#scores").get_by_role("rowheader", name="1", exact=True)


def three_easy_bots(page: Page) -> None:
    """Ask the lobby for three easy bots: they answer within the person's request, and the
    live server of these tests speaks no WebSocket to bring the searching bots' cards later
    (`test_live_in_browser.py` follows those)."""
    page.get_by_label("Seats filled by bots").fill("3")
    for bot in (1, 2, 3):
        page.get_by_label(f"Level of bot {bot}").select_option("easy")


def past_the_pass_against_three_bots(page: Page, hands: int = 0) -> Locator:
    """Create a match against three bots from the lobby, pass its first three cards, and
    return the hand. `hands`: a fixed number of hands, or 0 to play to the target score."""
    page.get_by_role("link", name="Lobby", exact=True).click()
    page.get_by_label("Fixed number of hands").fill(str(hands))
    three_easy_bots(page)
    page.get_by_role("button", name="Create the match").click()
    hand = page.locator("#hand")
    for words in cards_named(page, "#hand .pass-choice label")[:3]:
        hand.get_by_role("checkbox", name=words, exact=True).check()
    page.get_by_role("button", name="Pass these three cards").click()
    expect(hand.locator(".pass-record")).to_be_visible()
    return hand


def test_a_player_passes_and_plays_a_hand_against_three_bots(page, screenshot, make_user):
    make_user("rosa", "Rosa")
    log_in(page, "rosa")

    page.get_by_role("link", name="Lobby", exact=True).click()
    page.get_by_label("Players").select_option("4")
    three_easy_bots(page)
    screenshot(page, "1-lobby")
    page.get_by_role("button", name="Create the match").click()

    expect(page.get_by_role("button", name="Pass these three cards")).to_be_visible()
    # The id depends on how many matches the database has seen (PostgreSQL never reuses one).
    match_id = re.search(r"/matches/(\d+)/", page.url).group(1)
    hand = page.locator("#hand")
    chosen = cards_named(page, "#hand .pass-choice label")[-3:]
    for words in chosen:
        hand.get_by_role("checkbox", name=words, exact=True).check()
    expect(page.get_by_text("3 of 3 chosen")).to_be_visible()
    screenshot(page, "2-three-cards-chosen")
    page.get_by_role("button", name="Pass these three cards").click()

    expect(page.locator("#hand .pass-record")).to_contain_text("received")
    screenshot(page, "3-first-trick")

    version = hand.locator('input[name="version"]')
    for turn in range(20):
        if hand.locator(".pass-form").count():
            break  # the next hand's pass picker: hand 1 is over
        if hand.locator(".moon-form").count():  # lowest cards first can take every point
            screenshot(page, "moon-choice")
            hand.get_by_role("button", name="Subtract 26 from my score").click()
            expect(hand.locator(".pass-form")).to_be_visible()
            break
        legal = cards_named(page, "#hand button.playing-card:not([aria-disabled])")
        assert legal, "it is always the player's turn when the page answers"
        seen = version.input_value()
        with page.expect_response(lambda r: "/play/" in r.url) as answer:
            hand.get_by_role("button", name=legal[0], exact=True).click()
        assert answer.value.status == 200
        expect(version).not_to_have_value(seen)  # htmx has swapped the new hand in
        if turn == 4:
            screenshot(page, "4-mid-hand")

    expect(row_for_hand_one(page)).to_be_visible()
    expect(page.get_by_text("Hand 1 summary")).to_be_visible()
    expect(page.locator("#status")).to_contain_text("Hand 1 is over")
    screenshot(page, "5-after-hand-one")

    page.set_viewport_size(PHONE)
    page.reload()
    expect(page.get_by_role("button", name="Pass these three cards")).to_be_visible()
    screenshot(page, "6-phone")
    page.goto(page.url + "scores/")
    expect(page.get_by_role("img", name="Running totals after each hand")).to_be_visible()
    screenshot(page, "7-phone-scores")
    page.get_by_role("link", name="Your turn").click()
    expect(page.get_by_role("link", name=f"Match {match_id}", exact=True)).to_be_visible()
    screenshot(page, "8-phone-your-turn")


def test_the_last_card_of_a_match_shows_it_finished_without_reloading(page, screenshot, make_user):
    make_user("ugo", "Ugo")
    log_in(page, "ugo")
    hand = past_the_pass_against_three_bots(page, hands=1)
    status = page.locator("#match-head .match-status")
    expect(status).to_have_text("In play")
    expect(page.get_by_text("Leave this match")).to_be_visible()
    # Marks this document: a reload would make a new one, without it.
    page.evaluate("window.sameDocument = true")
    for _ in range(14):
        if hand.locator(".moon-form").count():
            hand.get_by_role("button", name="Subtract 26 from my score").click()
        legal = cards_named(page, "#hand button.playing-card:not([aria-disabled])")
        if not legal:
            break
        card = hand.get_by_role("button", name=legal[0], exact=True)
        with page.expect_response(lambda r: "/play/" in r.url):
            card.click()
        expect(card).to_have_count(0)  # htmx has swapped the new hand in
    expect(status).to_have_text("Finished")
    expect(page.get_by_text("Leave this match")).to_have_count(0)
    assert page.evaluate("window.sameDocument === true"), "the page was swapped, not reloaded"
    screenshot(page, "match-over")


def test_an_illegal_card_cannot_be_clicked_and_says_why(page, screenshot, make_user):
    make_user("sam", "Sam")
    log_in(page, "sam")
    past_the_pass_against_three_bots(page)
    cards = page.locator("#hand button.playing-card")
    disabled = page.locator('#hand button.playing-card[aria-disabled="true"]')
    if disabled.count():
        # The reason first; a card received in the pass also names who passed it.
        describedby = (disabled.first.get_attribute("aria-describedby") or "").split()[0]
        reason = page.locator(f"#{describedby}")
        expect(reason).not_to_be_empty()
        # Focusable, so that its reason is heard; a press sends nothing and flags the reason.
        disabled.first.focus()
        expect(disabled.first).to_be_focused()
        expect(disabled.first).to_have_accessible_description(
            re.compile(re.escape(reason.inner_text()))
        )
        version = page.locator("main").get_attribute("data-version")
        count = cards.count()
        disabled.first.click(force=True)
        expect(reason).to_have_class("is-flagged")
        expect(cards).to_have_count(count)
        assert page.locator("main").get_attribute("data-version") == version
    # Arrow keys move through every card of the hand, in order.
    cards.first.focus()
    page.keyboard.press("ArrowRight")
    expect(cards.nth(1)).to_be_focused()
    screenshot(page, "first-trick")


def test_a_seven_seat_table_fits_a_desktop_and_a_phone(page, screenshot, make_user):
    rosa = make_user("rosa", "Rosa Luxemburg-Longname")
    match = make_match(rosa, players=7, seed=4)
    log_in(page, "rosa")
    page.goto(match.get_absolute_url())
    hand = page.locator("#hand")
    for words in cards_named(page, "#hand .pass-choice label")[:3]:
        hand.get_by_role("checkbox", name=words, exact=True).check()
    page.get_by_role("button", name="Pass these three cards").click()
    expect(hand.locator(".pass-record")).to_be_visible()
    legal = cards_named(page, "#hand button.playing-card:not([aria-disabled])")
    hand.get_by_role("button", name=legal[0], exact=True).click()
    expect(page.locator("#status")).to_contain_text("played")
    screenshot(page, "1-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, "2-phone")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, "nothing sticks out sideways on a phone"


def test_the_creator_sets_up_an_open_match_and_starts_it(page, screenshot, make_user):
    make_user("tess", "Tess")
    log_in(page, "tess")
    page.get_by_role("link", name="Lobby", exact=True).click()
    page.get_by_label("Players").select_option("5")
    page.get_by_label(re.compile(r"^Private: hidden from all but those seated")).check()
    page.get_by_role("button", name="Create the match").click()
    expect(page.get_by_label("Invite link (only people with this link can join)")).to_have_value(
        re.compile(r"/invite/[\w-]+/$")
    )
    page.get_by_role("button", name="Add a bot to seat 3").click()
    expect(page.get_by_role("button", name="Remove Cleo")).to_be_visible()
    screenshot(page, "1-open-match")
    page.get_by_role("button", name="Start the match").click()
    expect(page.get_by_role("button", name="Pass these three cards")).to_be_visible()


def waiting_for_the_last_card_of_a_trick(user, players: int) -> Match:
    """Return a match where every other seat has played to the trick and the user plays last.

    The moves run in a thread of their own: this one runs Playwright's event loop, from which
    the services could not relay their live events.
    """
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(_play_until_the_user_plays_last, user, players).result()


def _play_until_the_user_plays_last(user, players: int) -> Match:
    try:
        match = make_match(user, players=players, seed=players)
        for _ in range(200):
            view = state_of(match).view(0)
            if view.phase == engine.PLAYING and view.my_turn and len(view.trick) == players - 1:
                return match
            if view.phase == engine.PASSING:
                cards = [str(card) for card in view.hand[:3]]
                services.pass_cards(user, match.pk, match.version, cards)
            elif view.phase == engine.MOON:
                services.choose_moon(user, match.pk, match.version, "add")
            else:
                services.play_card(user, match.pk, match.version, str(view.legal[0]))
        raise AssertionError(f"no trick ended with seat 0 at {players} players")
    finally:
        connections.close_all()  # this thread's own


def overlaps(page: Page) -> list[str]:
    """Return each trick card that a seat covers, or that sticks out of the felt."""
    return page.evaluate(
        """() => {
          const box = (e) => e.getBoundingClientRect();
          const name = (e) => e.textContent.trim().replace(/\\s+/g, " ");
          const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
                               && a.top < b.bottom - 1 && b.top < a.bottom - 1;
          const inside = (a, b) => a.left >= b.left && a.right <= b.right
                                 && a.top >= b.top && a.bottom <= b.bottom;
          const felt = box(document.querySelector(".felt"));
          const seats = [...document.querySelectorAll(".felt .seat")];
          const found = [];
          for (const card of document.querySelectorAll(".felt .trick-card")) {
            const c = box(card);
            for (const seat of seats) {
              if (meet(c, box(seat))) found.push(`${name(card)} under ${name(seat)}`);
            }
            if (!inside(c, felt)) found.push(`${name(card)} outside the felt`);
          }
          return found;
        }"""
    )


def test_no_seat_covers_a_card_of_a_full_trick(page, screenshot, make_user):
    make_user("rosa", "Rosa Luxemburg-Longname")
    rosa = get_user_model().objects.get(username="rosa")  # with its profile, as a request has
    log_in(page, "rosa")
    for players in range(3, 8):
        match = waiting_for_the_last_card_of_a_trick(rosa, players)
        for size, viewport in (("desktop", {"width": 1100, "height": 800}), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            page.goto(match.get_absolute_url())
            expect(page.locator(".felt .trick-card")).to_have_count(players - 1)
            screenshot(page, f"{players}-seats-{size}")
            assert overlaps(page) == [], f"{players} seats, {size}"


def test_on_a_narrow_phone_each_fact_of_the_hand_keeps_its_value_beside_it(
    page, screenshot, make_user
):
    """The facts wrap onto several lines on a phone, but never between a name and its value."""
    nadia = make_user("nadia", "Nadia")
    match = make_match(nadia, players=5, seed=3, hands=2)
    log_in(page, "nadia")
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(match.get_absolute_url())
    screenshot(page, "1-phone")
    facts = page.locator(".hand-facts dt").evaluate_all(
        """names => names.map(name => [
            name.textContent,
            name.getBoundingClientRect().top,
            name.nextElementSibling.getBoundingClientRect().top,
        ])"""
    )
    assert [name for name, _, _ in facts] == ["Hand", "Passing", "Length"]
    for name, name_top, value_top in facts:
        assert abs(name_top - value_top) < 4, f"{name} and its value are on different lines"
    page.set_viewport_size({"width": 1280, "height": 900})
    lefts = page.locator(".hand-facts dd").evaluate_all(
        "values => values.map(value => value.getBoundingClientRect().left)"
    )
    assert max(lefts) - min(lefts) < 1, "on a wide screen the values line up in a column"
