"""The main pages work in Chromium under the site's Content-Security-Policy, breaking none of it.

The site runs under daphne, so the live socket is part of it, on a SQLite file of its own with
the demo accounts. Chromium reports each violation as a `securitypolicyviolation` event and a
console message; either one fails the test, as does a Permissions-Policy it does not know.
"""

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from games.management.commands.setup_demo import DEMO_PASSWORD
from tests.browser.test_match_in_browser import PHONE, past_the_pass_against_three_bots
from tests.servers import daphne, manage, migrate, site_env

# Every violation a document sees is handed to the test through an exposed function.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportViolation(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
});
"""
COMPLAINTS = ("Content Security Policy", "Content-Security-Policy", "Permissions-Policy")


@pytest.fixture
def site(tmp_path):
    env = site_env(tmp_path / "site.sqlite3")
    migrate(env)
    manage(env, "setup_demo")
    with daphne(env) as base:
        yield base


class Watched:
    """A browser context whose pages report every policy violation and complaint."""

    def __init__(self, browser, base: str) -> None:
        self.problems: list[str] = []
        self.context: BrowserContext = browser.new_context(
            base_url=base, viewport={"width": 1100, "height": 800}
        )
        self.context.set_default_timeout(15_000)
        self.context.expose_function("reportViolation", lambda text: self.problems.append(text))
        self.context.add_init_script(REPORT_VIOLATIONS)
        self.page: Page = self.context.new_page()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"error: {error}"))

    def _console(self, message) -> None:
        if any(words in message.text for words in COMPLAINTS):
            self.problems.append(f"console: {message.text}")

    def log_in(self, username: str, path: str = "/accounts/login/") -> None:
        self.page.goto(path)
        self.page.get_by_label("Username").fill(username)
        self.page.get_by_label("Password").fill(DEMO_PASSWORD)
        self.page.get_by_role("button", name="Log in").click()


def test_the_main_pages_work_under_the_policy_without_a_violation(browser, screenshot, site):
    player = Watched(browser, site)
    page = player.page
    response = page.goto("/")
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert "camera=()" in response.headers["permissions-policy"]
    expect(page.get_by_role("link", name="Sign up").first).to_be_visible()
    screenshot(page, "1-welcome")

    player.log_in("alice")
    expect(page.get_by_role("heading", name="Your turn")).to_be_visible()
    expect(page.locator("[data-live]")).to_have_attribute("data-state", "open")  # the socket

    # The lobby, a match against bots: the pass and a card are htmx swaps.
    hand = past_the_pass_against_three_bots(page)
    match_path = re.search(r"/matches/\d+/", page.url)[0]
    expect(page.locator("[data-live]")).to_have_attribute("data-state", "following")
    playable = hand.locator("button.playing-card:not([aria-disabled])")
    if playable.count():  # not if 2C went to another seat and it is not yet this seat's turn
        with page.expect_response(lambda r: "/play/" in r.url) as answer:
            playable.first.click()
        assert answer.value.status == 200
        assert "no-store" in answer.value.headers["cache-control"]
    seats = page.locator("#table .seat")
    expect(seats).to_have_count(4)
    # Placed by the stylesheet's data-spot rules: the viewer at the bottom, the others around.
    boxes = [seats.nth(i).bounding_box() for i in range(4)]
    assert boxes[0]["y"] > max(box["y"] for box in boxes[1:])
    screenshot(page, "2-match")

    page.goto(f"{match_path}scores/")
    expect(page.locator("#scores")).to_be_visible()
    screenshot(page, "3-score-sheet")
    page.goto("/accounts/profile/")
    expect(page.get_by_role("heading", name="Profile").first).to_be_visible()
    screenshot(page, "4-profile")
    page.set_viewport_size(PHONE)
    page.goto(match_path)
    expect(page.locator("[data-live]")).to_have_attribute("data-state", "following")
    screenshot(page, "5-match-phone")

    staff = Watched(browser, site)
    staff.log_in("admin", "/admin/login/")
    admin = staff.page
    expect(admin.get_by_role("heading", name="Site administration")).to_be_visible()
    screenshot(admin, "6-admin")
    admin.goto("/admin/games/match/")
    admin.get_by_role("link", name=re.compile(r"\d+")).first.click()
    expect(admin.locator("#content h1")).to_be_visible()
    admin.goto("/admin/games/tournament/add/")
    expect(admin.get_by_label("Name:")).to_be_visible()
    screenshot(admin, "7-admin-tournament")

    problems = player.problems + staff.problems
    assert problems == [], "\n".join(problems)
    player.context.close()
    staff.context.close()
