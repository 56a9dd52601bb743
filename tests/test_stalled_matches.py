"""Stalled matches: open matches that never fill are given up; silent seats go to a bot."""

import pytest
from django.urls import reverse

from games.background.deadlines import ensure_sweep_scheduled
from games.models import Action, Match, MatchStatus, Seat
from games.services import stalled
from tests.factories import HTMX, client_for, make_match, seat_of
from tests.notify_helpers import CARD, START, all_text, messages_to, opt_in, run_due_tasks
from tests.query_plans import plan_of
from tests.service_helpers import act


@pytest.fixture
def sent(monkeypatch):
    events: list[tuple[str, dict]] = []
    monkeypatch.setattr("games.live._send", lambda messages, about: events.extend(messages))
    return events


def open_match(alice, bob) -> Match:
    match = make_match(alice, people=[bob], start=False, players=4)
    Match.objects.filter(pk=match.pk).update(created_at=START)
    return match


# ----- open matches that never fill -----


def test_an_open_match_is_given_up_after_a_week_and_its_players_told(
    alice, bob, clock, sent, django_capture_on_commit_callbacks
):
    opt_in(bob, turn_emails=True)
    match = open_match(alice, bob)
    assert stalled.expire_open_matches(clock.advance(days=6, hours=23)) == 0
    with django_capture_on_commit_callbacks(execute=True):
        assert stalled.expire_open_matches(clock.advance(hours=1)) == 1
    match.refresh_from_db()
    assert match.status == MatchStatus.ABANDONED and match.expired_at == clock.now()
    text = f"Match {match.pk} did not fill within 7 days and has been closed."
    told = {group for group, event in sent if event.get("text") == text}
    assert told == {f"user-{alice.pk}", f"user-{bob.pk}"}
    run_due_tasks(clock.now())
    (message,) = messages_to(bob)
    assert message.subject == f"Match {match.pk} did not fill and has been closed"
    assert not CARD.search(all_text(message))
    assert messages_to(alice) == []  # she did not ask for e-mails about her matches
    page = client_for(alice).get(match.get_absolute_url())
    assert page.status_code == 200 and "This match was abandoned." in page.text


def test_the_expiry_follows_the_setting(alice, bob, clock, settings):
    settings.OPEN_MATCH_EXPIRY_DAYS = 2
    open_match(alice, bob)
    assert stalled.expire_open_matches(clock.advance(days=2)) == 1


def test_a_started_match_is_never_given_up_as_open(alice, clock):
    match = make_match(alice)
    Match.objects.filter(pk=match.pk).update(created_at=START)
    assert stalled.expire_open_matches(clock.advance(days=30)) == 0
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ACTIVE


def test_the_worker_s_sweep_gives_them_up(alice, bob, clock):
    match = open_match(alice, bob)
    ensure_sweep_scheduled()
    run_due_tasks(clock.advance(days=8))
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ABANDONED


@pytest.mark.django_db
def test_the_sweep_reads_open_matches_through_an_index():
    plan = plan_of(Match.objects.filter(status=MatchStatus.OPEN, created_at__lte=START))
    assert "match_status_created" in plan, plan


# ----- silent seats in untimed matches -----


@pytest.fixture
def silent_alice(alice, bob, clock) -> Match:
    """An untimed match where Bob has passed and the match waits for Alice since START."""
    match = make_match(alice, people=[bob])
    act(bob, match, seat_of(match, bob))
    return match


def hand_over(user, match, position, htmx=False):
    extra = HTMX if htmx else {}
    url = reverse("hand_over", args=[match.pk])
    return client_for(user).post(url, {"position": position}, **extra)


def test_before_thirty_days_the_silent_seat_cannot_be_handed_over(bob, silent_alice, clock):
    clock.advance(days=29, hours=23)
    version = Match.objects.get(pk=silent_alice.pk).version
    response = hand_over(bob, silent_alice, 0, htmx=True)
    assert response.status_code == 409
    assert "Alice has been silent for 29 days" in response.text
    assert "from 1 April 2026, 09:00 UTC" in response.text
    assert Match.objects.get(pk=silent_alice.pk).version == version
    assert "Hand Alice" not in client_for(bob).get(silent_alice.get_absolute_url()).text


def test_after_thirty_days_another_player_hands_it_to_a_bot(alice, bob, silent_alice, clock):
    clock.advance(days=30)
    table = client_for(bob).get(silent_alice.get_absolute_url()).text
    assert "Hand Alice's seat to a bot" in table
    response = hand_over(bob, silent_alice, 0)
    assert response.status_code == 302
    seat = Seat.objects.get(match=silent_alice, position=0)
    assert seat.resigned and seat.left_on_time and not seat.to_act
    # A bot made the pass she owed.
    assert Action.objects.filter(match=silent_alice, seat=0, actor=Action.Actor.BOT).exists()
    page = client_for(alice).get(silent_alice.get_absolute_url()).text
    assert "another player handed your seat to a bot" in page
    assert "(out of time, a bot plays)" in client_for(bob).get(silent_alice.get_absolute_url()).text


def test_a_timed_match_hands_nothing_over(alice, bob, clock):
    match = make_match(alice, people=[bob], decision_seconds=86400)
    act(bob, match, seat_of(match, bob))
    clock.advance(days=31)
    response = hand_over(bob, match, 0)
    assert response.status_code == 409 and "This match is timed" in response.text


@pytest.mark.parametrize(
    ("position", "status", "words"),
    [
        ("", 400, "Choose the seat to hand to a bot."),
        ("x", 400, "There is no such seat at this table."),
        ("9", 400, "There is no such seat at this table."),
        ("1", 400, "That is your own seat"),
        ("2", 409, "A bot already plays that seat."),
    ],
)
def test_bad_seats_are_refused(bob, silent_alice, clock, position, status, words):
    clock.advance(days=31)
    version = Match.objects.get(pk=silent_alice.pk).version
    response = hand_over(bob, silent_alice, position, htmx=True)
    assert response.status_code == status and words in response.text
    assert Match.objects.get(pk=silent_alice.pk).version == version


def test_a_seat_the_match_does_not_wait_on_is_not_silent(alice, bob, silent_alice, clock):
    clock.advance(days=31)
    response = hand_over(alice, silent_alice, 1)  # Bob has passed: nobody waits on him
    assert response.status_code == 409 and "The match is not waiting for Bob" in response.text


def test_only_players_may_hand_a_seat_over(alice, bob, make_user, silent_alice, clock):
    carol = make_user("carol", "Carol")
    clock.advance(days=31)
    assert hand_over(carol, silent_alice, 0).status_code == 403
    private = make_match(alice, people=[bob], private=True)
    assert hand_over(carol, private, 0).status_code == 404
    assert not Seat.objects.get(match=silent_alice, position=0).resigned


def test_no_card_leaks_in_the_refusals(bob, silent_alice, clock):
    response = hand_over(bob, silent_alice, 0, htmx=True)
    refusal = response.text.split('class="action-error"')[1].split("</p>")[0]
    assert not CARD.search(refusal)
