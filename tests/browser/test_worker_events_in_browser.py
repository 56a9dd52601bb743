"""An open match page shows what the workers did, without a click: a timeout, the bots' cards.

The site runs as `manage.py serve` runs it, on the default profile (the in-memory channel
layer): daphne, and beside it a worker of the `now` queue, its own process, whose events reach
daphne's sockets through the database (the relay, `games/live.py`). The pages are in Chromium.
"""

import json
import shutil
import sqlite3
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_live_in_browser import PLAYABLE, live, player_page
from tests.conftest import PASSWORD
from tests.servers import Visitor, daphne, manage, migrate, site_env, worker

# The worker's clock, moved past any deadline set while the match was prepared (a minute).
PAST_THE_DEADLINE = 150
HAND = "#hand button.playing-card"
WAIT = 60  # seconds: a generous bound on the worker starting up and doing its work


@pytest.fixture(scope="module")
def migrated(tmp_path_factory) -> Path:
    database = tmp_path_factory.mktemp("workers") / "migrated.sqlite3"
    migrate(site_env(database))
    return database


def prepared(migrated: Path, tmp_path: Path, script: str) -> tuple[dict[str, str], dict]:
    """Return the environment of a site of its own on which tests/worker_setup.py's script ran,
    and what it made."""
    database = tmp_path / "site.sqlite3"
    shutil.copy(migrated, database)
    env = site_env(database)
    printed = manage(env, "shell", "-c", f"from tests import worker_setup; worker_setup.{script}")
    return env, json.loads(printed.strip().splitlines()[-1])


def actions(env: dict[str, str], match: int, after: int, actor: str) -> list[str]:
    """The cards played in the match after a version, by whom (`actor`), as committed."""
    database = env["DATABASE_URL"].removeprefix("sqlite:///")
    query = (
        "SELECT value FROM games_action WHERE match_id = ? AND version > ? AND actor = ?"
        " ORDER BY version"
    )
    with sqlite3.connect(database) as db:
        return [value for (value,) in db.execute(query, (match, after, actor))]


def wait_for_actions(env, match: int, after: int, actor: str, log: Path) -> list[str]:
    limit = time.monotonic() + WAIT
    while not (done := actions(env, match, after, actor)):
        assert time.monotonic() < limit, f"the worker did not do it in time:\n{log.read_text()}"
        time.sleep(0.2)
    return done


def in_hand(page: Page, card: str):
    """The card in the player's hand (not in the record of what was passed)."""
    return page.locator(f'{HAND}[data-card="{card}"]')


def on_the_table(page: Page, card: str):
    """The card on the table: in the trick being played, or in the last trick."""
    return page.locator(f'#table [data-card="{card}"]')


def test_a_players_page_shows_the_worker_timing_them_out_without_a_click(
    browser, screenshot, migrated, tmp_path
):
    env, made = prepared(migrated, tmp_path, "timed_bob_owes_a_card()")
    match, version = made["match"], made["version"]
    log = tmp_path / "now.log"
    with daphne(env) as base:
        bob = player_page(browser, base, "bob")
        bob.goto(f"/matches/{match}/")
        live(bob, "following")
        # Bob's page offers him his cards to play, a minute to choose; he lets it run out.
        expect(bob.locator(PLAYABLE).first).to_be_visible()
        cards = bob.locator(HAND).count()
        bob.evaluate("window.__notReloaded = true")
        screenshot(bob, "1-bob-to-play")

        with worker(env, "now", log, clock_offset=PAST_THE_DEADLINE):
            (card, *_) = wait_for_actions(env, match, version, "timeout", log)
            # His page says so; the card the timeout played leaves his hand for the table.
            expect(bob.locator("#hand")).to_contain_text("Your time ran out", timeout=WAIT * 1000)
            expect(in_hand(bob, card)).to_have_count(0)
            expect(on_the_table(bob, card).first).to_be_visible()
            expect(bob.locator(HAND)).to_have_count(cards - 1)
        assert bob.evaluate("window.__notReloaded") is True
        screenshot(bob, "2-bob-timed-out")
        bob.context.close()


def test_a_page_open_while_the_worker_plays_the_bots_cards_shows_them_arrive(
    browser, screenshot, migrated, tmp_path
):
    env, made = prepared(migrated, tmp_path, "alice_against_searching_bots()")
    match, version, card = made["match"], made["version"], made["card"]
    log = tmp_path / "now.log"
    with daphne(env) as base:
        alice = player_page(browser, base, "alice")
        alice.goto(f"/matches/{match}/")
        live(alice, "following")
        expect(alice.locator(PLAYABLE).first).to_be_visible()
        alice.evaluate("window.__notReloaded = true")

        with worker(env, "now", log):
            # Her card goes in from elsewhere (another tab, say): nothing is clicked on this page.
            elsewhere = Visitor(base).log_in("alice", PASSWORD)
            played = {"version": version, "card": card}
            assert elsewhere.post(f"/matches/{match}/play/", played) == 200
            # Her card, then the bots' (each searched and played by the worker), arrive; the page
            # offers her cards again once it is her turn.
            expect(in_hand(alice, card)).to_have_count(0, timeout=WAIT * 1000)
            expect(alice.locator(PLAYABLE).first).to_be_visible(timeout=WAIT * 1000)
            bot_cards = actions(env, match, version + 1, "bot")
            assert bot_cards, "no bot played"
            for bot_card in bot_cards:
                expect(on_the_table(alice, bot_card).first).to_be_visible()
            expect(alice.locator("#table")).not_to_contain_text("thinking…")
        assert alice.evaluate("window.__notReloaded") is True
        screenshot(alice, "alice-to-play-again")
        alice.context.close()
