"""The daily digest: the matches waiting for a player, once a day in their own morning, only when
any wait."""

from datetime import UTC, datetime, timedelta

import pytest

from games.models import Match, Profile
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

RUN = 15 * 60  # seconds between two digest runs


@pytest.fixture(autouse=True)
def daily(settings):
    settings.DIGEST_HOUR = 8
    settings.DIGEST_RUN_SECONDS = RUN
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
    # The clock starts at 09:00 UTC, bob's zone: his morning has come.
    waiting_for(bob, alice)
    run_digest(clock)
    assert len(messages_to(bob)) == 1
    clock.advance(hours=14, minutes=59)  # 23:59 the same day
    send_daily_digests.enqueue()  # an extra run, as after a race: still one digest that day
    run_due_tasks(clock.now())
    assert len(messages_to(bob)) == 1
    clock.advance(hours=8)  # 07:59 the next day: not yet his morning
    send_daily_digests.enqueue()
    run_due_tasks(clock.now())
    assert len(messages_to(bob)) == 1
    clock.advance(minutes=1)  # 08:00
    send_daily_digests.enqueue()
    run_due_tasks(clock.now())
    assert len(messages_to(bob)) == 2


def in_zone(user, zone: str) -> None:
    Profile.objects.filter(user=user).update(time_zone=zone)


@pytest.mark.parametrize(
    ("zone", "start", "morning"),
    [
        # 08:00 WIB is 01:00 UTC, all year.
        ("Asia/Jakarta", datetime(2027, 1, 13, 18, 0, tzinfo=UTC), datetime(2027, 1, 14, 1, 0)),
        # 08:00 PST is 16:00 UTC in winter; 08:00 PDT is 15:00 UTC in summer.
        (
            "America/Los_Angeles",
            datetime(2027, 1, 14, 10, 0, tzinfo=UTC),
            datetime(2027, 1, 14, 16),
        ),
        (
            "America/Los_Angeles",
            datetime(2027, 7, 15, 10, 0, tzinfo=UTC),
            datetime(2027, 7, 15, 15),
        ),
        # The night the clocks go forward (14 March 2027, 02:00 PST becomes 03:00 PDT).
        ("America/Los_Angeles", datetime(2027, 3, 14, 9, 0, tzinfo=UTC), datetime(2027, 3, 14, 15)),
    ],
    ids=["Jakarta", "Los Angeles, winter", "Los Angeles, summer", "Los Angeles, clocks forward"],
)  # each starting in the small hours of the recipient's night
def test_the_digest_goes_out_in_the_recipients_own_morning(clock, alice, bob, zone, start, morning):
    in_zone(bob, zone)
    clock.current = start
    waiting_for(bob, alice)
    ensure_digest_scheduled()
    morning = morning.replace(tzinfo=UTC)
    sent_at = None
    while clock.now() < start + timedelta(days=2):
        run_due_tasks(clock.now())
        if sent_at is None and messages_to(bob):
            sent_at = clock.now()
        clock.advance(seconds=RUN)
    # The first run from 08:00 of their day sends it, and one a day after.
    assert sent_at == morning
    assert len(messages_to(bob)) == 2
    assert settings_of(bob).last_digest_at == morning + timedelta(days=1)


def test_each_run_schedules_the_next(clock, alice, bob):
    assert ensure_digest_scheduled() is True
    assert ensure_digest_scheduled() is False  # one is waiting already
    run_due_tasks(clock.now())
    [next_run] = pending_digest_runs()
    assert next_run.run_after == clock.now() + timedelta(seconds=RUN)
    assert run_due_tasks(clock.advance(seconds=RUN - 1)) == []
    run_due_tasks(clock.advance(seconds=1))
    [after] = pending_digest_runs()
    assert after.run_after == clock.now() + timedelta(seconds=RUN)


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
