"""Reminders of near deadlines: opt-in, one per decision, one e-mail per gap, several in one."""

from datetime import timedelta

import pytest
from django.db import connection

from games import services
from games.background.deadlines import ensure_sweep_scheduled
from games.models import Match, Seat
from games.notifications.reminders import send_due_reminders
from games.services import clocks
from games.services.lobby import MatchOptions
from tests.factories import HTMX, client_for, next_move
from tests.notify_helpers import (
    CARD,
    START,
    all_text,
    messages_to,
    opt_in,
    run_due_tasks,
    settings_of,
)
from tests.query_plans import plan_of

# A day for each decision: the reminder goes 4.8 hours (a fifth) before the deadline.
LEAD = timedelta(hours=4.8)


@pytest.fixture(autouse=True)
def an_hour_between_reminders(settings):
    settings.REMINDER_GAP_SECONDS = 3600
    settings.SITE_URL = "https://hearts.example.com"


def timed_match(user, seconds=86400) -> Match:
    return services.create_match(user, MatchOptions(bots=3, decision_seconds=seconds))


def seat_of(match) -> Seat:
    return Seat.objects.get(match=match, position=0)


def test_a_decision_is_owed_a_reminder_a_fifth_of_its_time_before_its_deadline(alice, clock):
    seat = seat_of(timed_match(alice))
    assert seat.remind_at == START + timedelta(days=1) - LEAD and not seat.reminded


def test_an_e_mail_only_where_a_fifth_is_at_least_an_hour(alice, clock):
    five = seat_of(timed_match(alice, seconds=5 * 3600))
    assert five.remind_at == START + timedelta(hours=4)  # a fifth: exactly the hour
    # A fifth of 3 hours is 36 minutes: the table warns, no e-mail goes.
    assert seat_of(timed_match(alice, seconds=3 * 3600)).remind_at is None
    assert seat_of(timed_match(alice, seconds=3600)).remind_at is None
    assert seat_of(timed_match(alice, seconds=120)).remind_at is None


def test_the_e_mail_goes_when_the_table_starts_to_warn_never_at_the_start(alice, clock):
    for seconds, _label in clocks.DECISION_PRESETS:
        for bank in (0, seconds):
            match = services.create_match(
                alice, MatchOptions(bots=3, decision_seconds=seconds, bank_seconds=bank)
            )
            seat = seat_of(match)
            lead = clocks.reminder_lead(match)
            assert timedelta(0) < lead < clocks.allowance(match), seconds
            assert seat.deadline is not None
            assert not clocks.deadline_near(seat, match, START)
            assert clocks.deadline_near(seat, match, seat.deadline - lead)
            assert not clocks.deadline_near(
                seat, match, seat.deadline - lead - timedelta(seconds=1)
            )
            if lead >= timedelta(hours=1):
                assert seat.remind_at == seat.deadline - lead
                assert seat.remind_at > START
            else:
                assert seat.remind_at is None, seconds


def test_a_clock_restarting_with_no_more_than_its_lead_left_is_owed_no_e_mail(alice, clock):
    match = timed_match(alice)  # a day: the lead is 4.8 hours
    seat = seat_of(match)
    lead = clocks.reminder_lead(match)
    assert clocks.pause(seat, START + timedelta(days=1) - lead)
    assert clocks.resume(seat, match, clock.advance(days=3))
    assert seat.remind_at is None and clocks.deadline_near(seat, match, clock.now())
    seat.deadline = None
    seat.paused_left = int(lead.total_seconds()) + 1
    assert clocks.resume(seat, match, clock.now())
    assert seat.remind_at == clock.now() + timedelta(seconds=1)


def test_a_two_minute_clock_warns_only_near_its_end(alice, make_user, clock):
    bob = make_user("bob", "Bob")
    match = services.create_match(alice, MatchOptions(players=4, bots=2, decision_seconds=120))
    services.join_match(bob, match.pk)
    warning = "Your time for this decision is nearly up"
    assert warning not in client_for(alice).get(match.get_absolute_url()).text
    clock.advance(seconds=1)  # 1 minute 59 seconds left
    assert warning not in client_for(alice).get(match.get_absolute_url()).text
    clock.advance(seconds=95)  # 24 seconds left: a fifth of the two minutes
    assert warning in client_for(alice).get(match.get_absolute_url()).text


def test_an_opted_in_player_gets_one_reminder_for_the_decision(alice, clock):
    opt_in(alice, deadline_reminders=True)
    match = timed_match(alice)
    clock.advance(hours=19)
    assert send_due_reminders() == 0
    clock.advance(hours=1)
    assert send_due_reminders() == 1
    (message,) = messages_to(alice)
    assert message.subject == f"Your time in match {match.pk} is running out"
    assert "is due by Tue 3 Mar, 09:00 UTC" in message.body
    assert not CARD.search(all_text(message))
    seat = seat_of(match)
    assert seat.reminded and seat.remind_at is None
    clock.advance(hours=2)
    assert send_due_reminders() == 0 and len(messages_to(alice)) == 1


def test_a_player_who_did_not_ask_gets_none_and_the_sweep_forgets_it(alice, clock):
    match = timed_match(alice)
    clock.advance(hours=20)
    assert send_due_reminders() == 0
    assert messages_to(alice) == []
    assert seat_of(match).remind_at is None  # not read again by the next sweep


def test_reminders_due_together_come_in_one_e_mail_and_the_next_waits_for_the_gap(alice, clock):
    opt_in(alice, deadline_reminders=True)
    first, second = timed_match(alice), timed_match(alice)
    clock.advance(minutes=30)
    later = timed_match(alice)
    clock.advance(hours=19)  # 19.5 hours in: the first two are due, the third at 19.7
    assert send_due_reminders() == 1
    (message,) = messages_to(alice)
    assert message.subject == "Your time is running out in 2 matches"
    assert f"Match {first.pk} " in message.body and f"Match {second.pk} " in message.body
    clock.advance(minutes=18)
    assert send_due_reminders() == 0  # due, but within the gap: it waits
    assert seat_of(later).remind_at is not None
    clock.advance(minutes=42)
    assert send_due_reminders() == 1
    assert f"Match {later.pk} " in messages_to(alice)[-1].body
    assert settings_of(alice).last_reminder_at == clock.now()


def test_a_new_decision_is_owed_a_new_reminder(alice, clock):
    opt_in(alice, deadline_reminders=True)
    match = timed_match(alice)
    clock.advance(hours=20)
    send_due_reminders()
    match.refresh_from_db()
    move = next_move(match, 0)
    client_for(alice).post(move.url, move.data, **HTMX)
    seat = seat_of(match)
    assert seat.to_act and not seat.reminded
    assert seat.remind_at == clock.now() + timedelta(days=1) - LEAD


def test_the_worker_s_sweep_sends_them(alice, clock):
    opt_in(alice, deadline_reminders=True)
    timed_match(alice)
    ensure_sweep_scheduled()
    run_due_tasks(clock.advance(hours=20))
    assert len(messages_to(alice)) == 1


def test_the_sweep_finds_them_through_an_index(alice, clock):
    query = Seat.objects.filter(remind_at__lte=START).order_by("remind_at")
    plan = plan_of(query)
    assert "seat_remind_at" in plan, plan
    assert connection.vendor in ("sqlite", "postgresql")


def test_the_table_warns_the_player_whose_deadline_is_near(alice, make_user, clock):
    bob = make_user("bob", "Bob")
    match = services.create_match(alice, MatchOptions(players=4, bots=2, decision_seconds=86400))
    services.join_match(bob, match.pk)
    warning = "Your time for this decision is nearly up"
    assert warning not in client_for(alice).get(match.get_absolute_url()).text
    clock.advance(hours=20)
    assert warning in client_for(alice).get(match.get_absolute_url()).text
    # Bob must pass too; once he has, he waits and sees no warning of Alice's.
    match.refresh_from_db()
    move = next_move(match, 1)
    client_for(bob).post(move.url, move.data)
    assert warning not in client_for(bob).get(match.get_absolute_url()).text


def test_the_profile_offers_the_choice(alice):
    page = client_for(alice).get("/accounts/profile/").text
    assert 'name="deadline_reminders"' in page
