"""Turn e-mails: one when a player opted in has been away since their turn began, never more."""

import pytest
from django.urls import reverse

from games.notifications.tasks import send_turn_notice
from tests.factories import make_match, seat_of
from tests.notify_helpers import (
    CARD,
    all_text,
    hand_of,
    messages_to,
    opt_in,
    queued,
    run_due_tasks,
    settings_of,
)  # fmt: skip
from tests.service_helpers import act

AWAY = 600


@pytest.fixture(autouse=True)
def away_delay(settings):
    settings.NOTIFY_AWAY_SECONDS = AWAY
    settings.SITE_URL = "https://hearts.example.com"


@pytest.fixture
def bob(make_user):
    return make_user("bob", "Bob", email="bob@example.com")


@pytest.fixture
def start(alice, bob, django_capture_on_commit_callbacks):
    """Start a match of alice, bob and two bots, as the site commits it: both must pass."""

    def start_match(**options):
        with django_capture_on_commit_callbacks(execute=True):
            return make_match(alice, people=[bob], **options)

    return start_match


def test_a_player_away_since_their_turn_began_gets_one_email(clock, bob, start):
    opt_in(bob, turn_emails=True)
    match = start()
    assert run_due_tasks(clock.advance(seconds=AWAY - 1)) == []
    assert messages_to(bob) == []
    run_due_tasks(clock.advance(seconds=1))
    [message] = messages_to(bob)
    assert message.subject == f"Your turn in match {match.pk}"
    assert f"https://hearts.example.com/matches/{match.pk}/" in message.body
    assert f'href="https://hearts.example.com/matches/{match.pk}/"' in message.alternatives[0][0]
    assert settings_of(bob).last_turn_email_at == clock.now()


def test_nothing_is_queued_or_sent_to_a_player_who_did_not_opt_in(clock, alice, bob, start):
    opt_in(bob, turn_emails=True)
    match = start()
    assert [task.args_kwargs["kwargs"]["user_id"] for task in queued("send_turn_notice")] == [
        bob.pk
    ]
    since = clock.now().isoformat()
    clock.advance(hours=2)
    assert send_turn_notice.call(user_id=alice.pk, match_id=match.pk, since=since) is False
    run_due_tasks(clock.now())
    assert messages_to(alice) == []


def test_a_player_seen_since_their_turn_began_gets_no_email(client, clock, bob, start):
    opt_in(bob, turn_emails=True)
    start()
    clock.advance(minutes=3)
    client.force_login(bob)
    client.get(reverse("home"))
    run_due_tasks(clock.advance(minutes=10))
    assert messages_to(bob) == []


def test_a_second_turn_while_still_away_sends_nothing_more(client, clock, bob, start):
    opt_in(bob, turn_emails=True)
    start()
    run_due_tasks(clock.advance(seconds=AWAY))
    assert len(messages_to(bob)) == 1
    start()  # another match now waits for bob too, but he has not been back
    run_due_tasks(clock.advance(seconds=AWAY))
    assert len(messages_to(bob)) == 1
    # Once he has been back and gone again, the next turn may be told once more.
    client.force_login(bob)
    client.get(reverse("home"))
    clock.advance(minutes=5)
    start()
    run_due_tasks(clock.advance(seconds=AWAY))
    assert len(messages_to(bob)) == 2


def test_the_same_notice_run_twice_sends_once(clock, bob, start):
    opt_in(bob, turn_emails=True)
    match = start()
    since = clock.now().isoformat()
    clock.advance(seconds=AWAY)
    assert send_turn_notice.call(user_id=bob.pk, match_id=match.pk, since=since) is True
    assert send_turn_notice.call(user_id=bob.pk, match_id=match.pk, since=since) is False
    assert len(messages_to(bob)) == 1


def test_no_email_once_the_turn_has_passed(clock, bob, start, django_capture_on_commit_callbacks):
    opt_in(bob, turn_emails=True)
    match = start()
    clock.advance(minutes=2)
    with django_capture_on_commit_callbacks(execute=True):
        act(bob, match, seat_of(match, bob))  # bob passes (from his phone, say): not to act now
    run_due_tasks(clock.advance(seconds=AWAY))
    assert messages_to(bob) == []


def test_no_email_to_a_player_without_an_address(clock, bob, start):
    opt_in(bob, turn_emails=True)
    bob.email = ""
    bob.save()
    start()
    run_due_tasks(clock.advance(seconds=AWAY))
    assert settings_of(bob).last_turn_email_at is None


def test_the_email_shows_no_card(clock, bob, start):
    """R6.3: the server never puts a hand in any message, e-mail included."""
    opt_in(bob, turn_emails=True)
    match = start()
    run_due_tasks(clock.advance(seconds=AWAY))
    [message] = messages_to(bob)
    text = all_text(message)
    assert CARD.findall(text) == []
    assert hand_of(match, seat_of(match, bob))  # there was a hand to leak
    assert "Alice" in text  # the opponents are named, their cards are not


@pytest.mark.parametrize(
    ("options", "length"),
    [({"target": 75}, "ends at 75 points"), ({"hands": 2}, "ends after 2 hands")],
)
def test_the_email_says_how_the_match_ends(clock, bob, start, options, length):
    """A match of a fixed number of hands does not play to its target: the e-mail says so."""
    opt_in(bob, turn_emails=True)
    start(**options)
    run_due_tasks(clock.advance(seconds=AWAY))
    [message] = messages_to(bob)
    assert f"(4 players, {length}, hand 1)" in message.body
    assert f"4 players, {length}, hand 1" in message.alternatives[0][0]
    assert "to 100" not in all_text(message)
