"""The daily digest: the matches waiting for a player, at most once a day, only when any wait."""

from datetime import timedelta

import pytest

from games.models import Match
from games.notifications.tasks import (
    ensure_digest_scheduled,
    pending_digest_runs,
    send_daily_digests,
)
from tests.factories import make_match, seat_of
from tests.notify_helpers import (
    CARD,
    all_text,
    hand_of,
    messages_to,
    opt_in,
    run_due_tasks,
    settings_of,
)
from tests.service_helpers import act

DAY = 24 * 3600


@pytest.fixture(autouse=True)
def daily(settings):
    settings.DIGEST_INTERVAL_SECONDS = DAY
    settings.SITE_URL = "https://hearts.example.com"


@pytest.fixture
def bob(make_user):
    bob = make_user("bob", "Bob", email="bob@example.com")
    opt_in(bob, daily_digest=True)
    return bob


def waiting_for(bob, alice) -> Match:
    """Start a match in which bob must pass (and alice too)."""
    return make_match(alice, people=[bob])


def not_waiting_for(bob, alice) -> Match:
    """Start a match in which bob has passed and waits for alice."""
    match = make_match(alice, people=[bob])
    act(bob, match, seat_of(match, bob))
    return match


def run_digest(clock) -> None:
    ensure_digest_scheduled()
    run_due_tasks(clock.now())


def test_the_digest_lists_every_match_waiting_for_the_player(clock, alice, bob):
    first, second = waiting_for(bob, alice), waiting_for(bob, alice)
    elsewhere = not_waiting_for(bob, alice)
    run_digest(clock)
    [message] = messages_to(bob)
    assert message.subject == "2 matches are waiting for you"
    for match in (first, second):
        assert f"https://hearts.example.com/matches/{match.pk}/" in message.body
        html = message.alternatives[0][0]
        assert f'href="https://hearts.example.com/matches/{match.pk}/"' in html
    assert f"/matches/{elsewhere.pk}/" not in all_text(message)
    assert settings_of(bob).last_digest_at == clock.now()


def test_the_digest_shows_no_card(clock, alice, bob):
    """R6.3: the server never puts a hand in any message, e-mail included."""
    match = waiting_for(bob, alice)
    run_digest(clock)
    [message] = messages_to(bob)
    assert hand_of(match, seat_of(match, bob))
    assert CARD.findall(all_text(message)) == []


def test_no_digest_when_nothing_waits(clock, alice, bob):
    not_waiting_for(bob, alice)
    run_digest(clock)
    assert messages_to(bob) == []
    assert settings_of(bob).last_digest_at is None


def test_no_digest_for_a_player_who_did_not_opt_in(clock, alice, bob):
    opt_in(bob, daily_digest=False)
    waiting_for(bob, alice)
    run_digest(clock)
    assert messages_to(bob) == []


def test_at_most_one_digest_a_day(clock, alice, bob):
    waiting_for(bob, alice)
    run_digest(clock)
    clock.advance(hours=23, minutes=59)
    send_daily_digests.enqueue()  # an extra run, as after a race: still one digest that day
    run_due_tasks(clock.now())
    assert len(messages_to(bob)) == 1
    clock.advance(minutes=1)
    run_due_tasks(clock.now())  # the run the first one scheduled, a day after it
    assert len(messages_to(bob)) == 2


def test_each_run_schedules_the_next_a_day_later(clock, alice, bob):
    assert ensure_digest_scheduled() is True
    assert ensure_digest_scheduled() is False  # one is waiting already
    run_due_tasks(clock.now())
    [next_run] = pending_digest_runs()
    assert next_run.run_after == clock.now() + timedelta(seconds=DAY)
    assert run_due_tasks(clock.advance(hours=23)) == []
    run_due_tasks(clock.advance(hours=1))
    [after] = pending_digest_runs()
    assert after.run_after == clock.now() + timedelta(seconds=DAY)


def test_two_waiting_runs_fold_into_one(db, clock):
    send_daily_digests.enqueue()
    send_daily_digests.enqueue()  # as if two workers had started at the same moment
    run_due_tasks(clock.now())
    assert pending_digest_runs().count() == 1


def test_the_digest_says_how_each_match_ends(clock, alice, bob):
    to_points = make_match(alice, people=[bob], target=75)
    two_hands = make_match(alice, people=[bob], hands=2)
    run_digest(clock)
    [message] = messages_to(bob)
    for text in (message.body, message.alternatives[0][0]):
        assert f"Match {to_points.pk}" in text and "(4 players, ends at 75 points, hand 1)" in text
        assert f"Match {two_hands.pk}" in text and "(4 players, ends after 2 hands, hand 1)" in text
