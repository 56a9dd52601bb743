"""Vacation: days earned by the week, spent whole, clocks that stand still and start again."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from games import services
from games.models import Action, Match, Profile, Seat
from games.services import timeouts, vacations
from games.services.lobby import MatchOptions
from tests.factories import HTMX, client_for, next_move
from tests.notify_helpers import CARD, START

DAY = timedelta(days=1)


def timed_match(user, seconds=86400, **options) -> Match:
    return services.create_match(user, MatchOptions(bots=3, decision_seconds=seconds, **options))


def seat_of(match, position=0) -> Seat:
    return Seat.objects.get(match=match, position=position)


def joined(user, weeks_ago: float) -> None:
    user.date_joined = START - timedelta(weeks=weeks_ago)
    user.save(update_fields=["date_joined"])


def test_every_player_starts_with_seven_days(alice, clock):
    joined(alice, 0)
    assert vacations.state_of(alice).days == 7


def test_a_day_is_earned_for_each_full_week_up_to_thirty(alice, clock):
    joined(alice, 3.5)
    assert vacations.state_of(alice).days == 10
    joined(alice, 100)
    assert vacations.state_of(alice).days == 30


def test_weeks_are_counted_from_the_last_count(alice, clock):
    joined(alice, 0)
    vacations.take_vacation(alice, 2)  # counts now: 7 - 2 = 5 left
    vacations.end_vacation(alice, clock.advance(days=2))
    clock.advance(days=5)  # one full week since the count
    assert vacations.state_of(alice).days == 6


def test_a_vacation_stops_the_clock_and_the_end_starts_it_with_the_time_left(alice, clock):
    joined(alice, 0)
    match = timed_match(alice)
    deadline = seat_of(match).deadline
    assert deadline == START + DAY
    clock.advance(hours=6)
    vacations.take_vacation(alice, 3)
    seat = seat_of(match)
    assert seat.deadline is None and seat.paused_left == 18 * 3600
    # The sweep finds nothing to time out while the clock stands still.
    assert timeouts.due(clock.advance(days=2), 10) == []
    vacations.end_vacation(alice, clock.now())
    seat = seat_of(match)
    assert seat.paused_left is None and seat.deadline == clock.now() + timedelta(hours=18)


def test_the_sweep_ends_a_vacation_whose_days_are_over(alice, clock):
    joined(alice, 0)
    match = timed_match(alice)
    vacations.take_vacation(alice, 1)
    assert vacations.sweep(clock.advance(hours=23)) == 0
    assert vacations.sweep(clock.advance(hours=1)) == 1
    profile = Profile.objects.get(user=alice)
    assert profile.away_until is None and profile.vacation_days == 6
    assert seat_of(match).deadline == clock.now() + DAY


def test_ending_early_gives_back_the_whole_days_not_begun(alice, clock):
    joined(alice, 0)
    vacations.take_vacation(alice, 5)
    assert vacations.state_of(alice).days == 2
    ended = vacations.end_vacation(alice, clock.advance(days=1, hours=3))
    assert ended.days == 2 + 3


def test_a_match_that_does_not_allow_vacation_keeps_its_clock(alice, clock):
    joined(alice, 0)
    match = timed_match(alice, allow_vacation=False)
    deadline = seat_of(match).deadline
    vacations.take_vacation(alice, 2)
    assert seat_of(match).deadline == deadline and seat_of(match).paused_left is None


def test_a_decision_begun_during_a_vacation_waits_for_the_player(alice, make_user, clock):
    joined(alice, 0)
    bob = make_user("bob", "Bob")
    match = services.create_match(
        alice, MatchOptions(players=4, bots=2, decision_seconds=3600, bank_seconds=0)
    )
    services.join_match(bob, match.pk)  # the table is full: it starts
    vacations.take_vacation(bob, 2)
    seat = Seat.objects.get(match=match, user=bob)
    # Passing: both owe a decision; Bob's clock stands still with its whole hour.
    assert seat.to_act and seat.deadline is None and seat.paused_left == 3600


def test_a_decision_made_on_vacation_costs_no_bank(alice, clock):
    joined(alice, 0)
    match = timed_match(alice, seconds=3600, bank_seconds=3600)
    vacations.take_vacation(alice, 2)
    clock.advance(days=1)
    match.refresh_from_db()
    move = next_move(match, 0)
    client_for(alice).post(move.url, move.data, **HTMX)
    seat = seat_of(match)
    assert seat.bank_left == 3600  # the whole allowance was left unused: the bank stays full


def test_more_days_than_available_is_refused_and_changes_nothing(alice, clock):
    joined(alice, 0)
    match = timed_match(alice)
    version = Match.objects.get(pk=match.pk).version
    response = client_for(alice).post(reverse("take_vacation"), {"days": 8})
    assert response.status_code == 400
    assert "You have 7 days of vacation left: you cannot take 8." in response.text
    profile = Profile.objects.get(user=alice)
    assert profile.away_until is None and profile.vacation_days == 7
    assert Match.objects.get(pk=match.pk).version == version


@pytest.mark.parametrize("days", ["", "0", "-1", "abc", "31", "1.5", "9" * 30])
def test_bad_days_are_refused_with_a_reason(alice, clock, days):
    response = client_for(alice).post(reverse("take_vacation"), {"days": days})
    assert response.status_code == 400
    assert 'class="field-error"' in response.text
    assert Profile.objects.get(user=alice).away_until is None


def test_a_second_vacation_or_an_end_without_one_is_a_conflict(alice, clock):
    client = client_for(alice)
    assert client.post(reverse("end_vacation")).status_code == 409
    assert client.post(reverse("take_vacation"), {"days": 1}).status_code == 302
    response = client.post(reverse("take_vacation"), {"days": 1})
    assert response.status_code == 409 and "already on vacation" in response.text


def test_the_profile_page_tells_the_rule_and_the_days(alice, clock):
    joined(alice, 0)
    page = client_for(alice).get(reverse("profile")).text
    assert "Everyone starts with 7 days" in page and "up to 30" in page
    assert "7 days</strong> of vacation to take" in page


def test_the_lobby_tells_the_same_rule_as_the_profile(alice):
    page = client_for(alice).get(reverse("lobby")).text
    assert "earn vacation days by playing" not in page
    assert (
        f"Everyone starts with {vacations.STARTING_DAYS} days of vacation, and each full week "
        f"since joining adds one more, up to {vacations.MOST_DAYS}; see the profile page."
    ) in page


def test_the_others_see_the_seat_on_vacation_and_until_when(alice, make_user, clock):
    joined(alice, 0)
    bob = make_user("bob", "Bob")
    match = services.create_match(alice, MatchOptions(players=4, bots=2, decision_seconds=86400))
    services.join_match(bob, match.pk)
    vacations.take_vacation(alice, 2)
    page = client_for(bob).get(match.get_absolute_url()).text
    assert "on vacation" in page and "4 Mar, 09:00 UTC" in page
    own = client_for(alice).get(match.get_absolute_url()).text
    assert "You are on vacation until 4 March 2026, 09:00 UTC" in own
    marks = re.findall(r'<span class="seat-away">.*?</time>[^<]*</span>', page, re.S)
    assert len(marks) == 1 and not CARD.search(marks[0])


def test_the_lobby_offers_the_option_and_the_match_keeps_it(alice):
    client = client_for(alice)
    assert 'name="allow_vacation"' in client.get(reverse("lobby")).text
    form = {"players": 4, "target": 100, "moon": "ask", "bots": 3, "decision_seconds": 86400}
    client.post(reverse("create_match"), form)
    assert Match.objects.latest("pk").allow_vacation is False  # an unticked box
    client.post(reverse("create_match"), {**form, "allow_vacation": "on"})
    assert Match.objects.latest("pk").allow_vacation is True


def test_the_worker_s_sweep_ends_vacations_and_the_clock_then_runs_out(alice, clock):
    from games.background.deadlines import ensure_sweep_scheduled
    from tests.notify_helpers import run_due_tasks

    joined(alice, 0)
    match = timed_match(alice, seconds=3600)
    clock.advance(minutes=30)
    vacations.take_vacation(alice, 1)
    ensure_sweep_scheduled()
    run_due_tasks(clock.advance(days=1))
    assert Profile.objects.get(user=alice).away_until is None
    assert seat_of(match).deadline == clock.now() + timedelta(minutes=30)
    run_due_tasks(clock.advance(minutes=31))
    assert Action.objects.filter(match=match, seat=0, actor=Action.Actor.TIMEOUT).count() == 1


def test_a_deadline_already_past_is_not_saved_by_a_vacation(alice, clock):
    joined(alice, 0)
    match = timed_match(alice, seconds=3600)
    deadline = seat_of(match).deadline
    clock.advance(hours=2)  # the worker has not met it yet
    vacations.take_vacation(alice, 1)
    assert seat_of(match).deadline == deadline and seat_of(match).paused_left is None
    assert timeouts.due(clock.now(), 10) == [(match.pk, 0, deadline)]
