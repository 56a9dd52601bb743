"""Nothing scrolls sideways on a phone: a seven-player score sheet and a tournament's standings
are read at 390 and 320 px without a hidden side scroll."""

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from tests.browser.helpers import off_the_loop
from tests.browser.test_clock_in_browser import log_in
from tests.factories import make_match, play_to_the_end
from tests.tournament_helpers import one_closed_round

WIDTHS = {"390": {"width": 390, "height": 844}, "320": {"width": 320, "height": 640}}
LONG_NAME = "Wilhelmina Montgomery"


def no_side_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    hidden = page.evaluate(
        """Array.from(document.querySelectorAll('.sheet-scroll, table'))
             .filter(e => e.scrollWidth > e.clientWidth + 1)
             .map(e => e.className || e.tagName)"""
    )
    assert hidden == [], f"scrolls sideways inside: {hidden}"


def seven_players_two_hands(user):
    match = make_match(user, players=7, bots=6)
    client = Client()
    client.force_login(user)
    for _ in play_to_the_end({0: client}, match):
        match.refresh_from_db()
        if match.hand_no > 2:
            return match
    return match


@pytest.mark.parametrize("width", WIDTHS)
def test_a_seven_player_score_sheet_fits(page: Page, screenshot, make_user, width):
    alice = make_user("alice", LONG_NAME)
    match = off_the_loop(seven_players_two_hands, alice)
    page.set_viewport_size(WIDTHS[width])
    log_in(page, "alice")
    page.goto(match.get_absolute_url())
    expect(page.locator("#scores .sheet tbody tr")).not_to_have_count(0)
    page.locator("#scores").scroll_into_view_if_needed()
    screenshot(page, f"score-sheet-{width}")
    no_side_scroll(page)


@pytest.mark.parametrize("width", WIDTHS)
def test_tournament_standings_fit(page: Page, screenshot, make_user, width):
    staff = make_user("boss", "Boss", is_staff=True, is_superuser=True)
    player = make_user("pat", LONG_NAME)
    tournament = off_the_loop(one_closed_round, staff, player)
    page.set_viewport_size(WIDTHS[width])
    log_in(page, "pat")
    page.goto(f"/tournaments/{tournament.slug}/")
    expect(page.locator("#standings-table")).to_contain_text(LONG_NAME)
    screenshot(page, f"standings-{width}")
    no_side_scroll(page)
