"""Every page, scanned by axe-core at desktop and phone sizes: no serious or critical violation.

axe-core comes from the Python package axe-playwright-python (the `dev` extra), which ships
axe-core's `axe.min.js`: the README's test command installs it, so the scan runs wherever the
browser tests do (without Chromium they are skipped, as every browser test is). The scans run
in a context that lets the page take axe's script in spite of the site's
Content-Security-Policy, which allows no script but its own.
"""

from datetime import timedelta
from importlib.resources import files

import axe_playwright_python
import pytest
from django.test import Client
from playwright.sync_api import Page

from games import engine
from games.services import challenges, people
from games.services.match_options import MatchOptions
from tests.browser.helpers import off_the_loop
from tests.conftest import PASSWORD
from tests.factories import make_match, next_move, play_to_the_end, state_of
from tests.tournament_helpers import one_closed_round

# axe-core's script as the package ships it (axe-core 4.12.1 in axe-playwright-python 0.1.8).
AXE = files(axe_playwright_python).joinpath("axe.min.js").read_text(encoding="utf-8")
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
SERIOUS = {"serious", "critical"}

RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ")),
  }));
}"""


def build_site(alice, bob, staff) -> dict[str, str]:
    """Make a match in each state and a tournament; return the pages to scan by name."""
    client = Client()
    client.force_login(alice)
    open_match = make_match(alice, start=False, players=5)
    passing = make_match(alice, people=[bob], bots=2, seed=3)
    playing = make_match(alice, bots=3, seed=5)
    while state_of(playing).phase != engine.PLAYING:
        move = next_move(playing, 0)
        assert move is not None
        client.post(move.url, move.data)
    over = make_match(alice, bots=3, seed=6, hands=1)
    for _ in play_to_the_end({0: client}, over):
        pass
    tournament = one_closed_round(staff, alice)
    people.follow(alice, bob)
    people.block(alice, staff)
    # A challenge each way: Your turn and the Challenges page list one received and one sent.
    challenges.create_challenge(bob, MatchOptions(players=3), [alice], timedelta(days=3))
    challenges.create_challenge(alice, MatchOptions(players=4), [bob], timedelta(days=3))
    return {
        "your-turn": "/",
        "lobby": "/lobby/",
        "profile": "/accounts/profile/",
        "open-match": open_match.get_absolute_url(),
        "passing": passing.get_absolute_url(),
        "playing": playing.get_absolute_url(),
        "tricks": f"/matches/{playing.pk}/tricks/",
        "over": over.get_absolute_url(),
        "scores": f"/matches/{over.pk}/scores/",
        "hand-review": f"/matches/{over.pk}/hands/1/?step=20",
        "verify": f"/matches/{over.pk}/verify/",
        "player": "/players/Alice/",
        "other-player": "/players/Bob/",
        "friends": "/friends/",
        "challenges": "/challenges/",
        "bot": "/bots/easy/",
        "leaderboard": "/leaderboard/",
        "tournaments": "/tournaments/",
        "tournament": f"/tournaments/{tournament.slug}/",
        "rules": "/rules/",
        "not-found": "/matches/999999/",
    }


SIGNED_OUT = {
    "welcome": "/",
    "log-in": "/accounts/login/",
    "sign-up": "/accounts/signup/",
    "password-reset": "/accounts/password_reset/",
    "rules": "/rules/",
    "tournaments": "/tournaments/",
}


@pytest.fixture
def axe_page(browser, live_server):
    context = browser.new_context(base_url=live_server.url, bypass_csp=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield page
    context.close()


def test_axe_core_comes_with_the_dev_extra():
    """The scan never lacks axe-core: the package installed with the tests carries it."""
    assert AXE.startswith("/*! axe v4."), AXE[:40]


def violations(page: Page, path: str, size: dict) -> list[dict]:
    page.set_viewport_size(size)
    response = page.goto(path)
    assert response is not None and response.status in (200, 404), (path, response)
    page.add_script_tag(content=AXE)
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in SERIOUS]


def test_no_page_has_a_serious_accessibility_violation(axe_page: Page, make_user):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    staff = make_user("boss", "Boss", is_staff=True, is_superuser=True)
    pages = off_the_loop(build_site, alice, bob, staff)
    found = {}
    for name, path in SIGNED_OUT.items():
        for size_name, size in SIZES.items():
            if bad := violations(axe_page, path, size):
                found[f"{name} (signed out, {size_name})"] = bad
    axe_page.goto("/accounts/login/")
    axe_page.get_by_label("Username").fill("alice")
    axe_page.get_by_label("Password").fill(PASSWORD)
    axe_page.get_by_role("button", name="Log in").click()
    axe_page.wait_for_url("**/")
    for name, path in pages.items():
        for size_name, size in SIZES.items():
            if bad := violations(axe_page, path, size):
                found[f"{name} ({size_name})"] = bad
    scanned = (len(SIGNED_OUT) + len(pages)) * len(SIZES)
    assert not found, f"{len(found)} of {scanned} scans found violations: {found}"
