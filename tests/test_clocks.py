"""Clocks: deadlines, the bank, timeouts by a bot, leaving after timeouts, the sweep (R: #31)."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from games import services
from games.background.deadlines import queue_missed_timeouts, time_out_seat
from games.lib import clock
from games.models import Action, Seat
from games.services import timeouts
from games.services.lobby import MatchOptions
from tests.factories import HTMX, client_for, next_move
from tests.notify_helpers import queued, run_due_tasks


def timed_match(user, seconds=3600, bank=0):
    return services.create_match(
        user, MatchOptions(bots=3, target=100, decision_seconds=seconds, bank_seconds=bank)
    )


def travel(monkeypatch, to):
    monkeypatch.setattr(clock, "now", lambda: to)


def alices_seat(match) -> Seat:
    return Seat.objects.get(match=match, position=0)


def test_a_decision_owed_has_a_deadline_of_the_allowance_and_the_bank(alice):
    match = timed_match(alice, seconds=3600, bank=7200)
    seat = alices_seat(match)
    assert seat.to_act and seat.bank_left == 7200
    assert seat.deadline - seat.waiting_since == timedelta(seconds=3600 + 7200)


def test_an_untimed_match_has_no_deadline(alice):
    match = services.create_match(alice, MatchOptions(bots=3))
    assert alices_seat(match).deadline is None


def test_a_timeout_lets_a_bot_decide_logs_it_and_tells_the_player(alice, monkeypatch):
    match = timed_match(alice)
    seat = alices_seat(match)
    travel(monkeypatch, seat.deadline + timedelta(seconds=1))
    timeouts.time_out(match.pk, 0, seat.deadline)
    assert Action.objects.filter(match=match, seat=0, actor=Action.Actor.TIMEOUT).count() == 1
    seat.refresh_from_db()
    assert seat.timeouts_in_a_row == 1 and not seat.resigned
    page = client_for(alice).get(match.get_absolute_url()).text
    assert "Your time ran out: a bot decided for you." in page


def test_a_timeout_before_the_deadline_or_twice_changes_nothing(alice, monkeypatch):
    match = timed_match(alice)
    seat = alices_seat(match)
    with pytest.raises(services.Conflict):
        timeouts.time_out(match.pk, 0, seat.deadline)  # not due yet
    travel(monkeypatch, seat.deadline + timedelta(seconds=1))
    timeouts.time_out(match.pk, 0, seat.deadline)
    version = type(match).objects.get(pk=match.pk).version
    with pytest.raises(services.Conflict, match="already been made"):
        timeouts.time_out(match.pk, 0, seat.deadline)
    assert type(match).objects.get(pk=match.pk).version == version


def test_two_timeouts_in_a_row_hand_the_seat_to_a_bot(alice, monkeypatch):
    match = timed_match(alice)
    for _ in range(2):
        seat = alices_seat(match)
        assert seat.to_act and seat.deadline
        travel(monkeypatch, seat.deadline + timedelta(seconds=1))
        timeouts.time_out(match.pk, 0, seat.deadline)
    seat = alices_seat(match)
    assert seat.resigned and seat.left_on_time and seat.deadline is None
    assert "(out of time, a bot plays)" in seat.name
    page = client_for(alice).get(match.get_absolute_url()).text
    assert "You ran out of time 2 times in a row" in page


def test_a_move_in_time_resets_the_run_and_refunds_a_quarter_to_the_bank(alice, monkeypatch):
    match = timed_match(alice, seconds=3600, bank=3600)
    seat = alices_seat(match)
    travel(monkeypatch, seat.deadline + timedelta(seconds=1))
    timeouts.time_out(match.pk, 0, seat.deadline)  # spends the bank
    seat = alices_seat(match)
    assert seat.bank_left == 0
    move = next_move(match, 0)
    client_for(alice).post(move.url, move.data, **HTMX)
    seat = alices_seat(match)
    assert seat.timeouts_in_a_row == 0
    assert 0 < seat.bank_left <= 900  # a quarter of an hour left nearly unused


def test_the_sweep_queues_a_timeout_for_what_is_overdue_only_and_once(
    alice, make_user, monkeypatch
):
    bob = make_user("bob", "Bob")
    overdue, later = timed_match(alice, seconds=60), timed_match(bob, seconds=3600)
    deadline = alices_seat(overdue).deadline
    after = deadline + timedelta(seconds=1)
    assert timeouts.due(deadline, 10) == [(overdue.pk, 0, deadline)]
    # No task is on its way for it (this test's transaction never commits, so the match's own
    # were never queued): the sweep queues one, and a second sweep finds it waiting.
    assert queue_missed_timeouts(after) == 1
    assert queue_missed_timeouts(after) == 0
    (task,) = queued("time_out_seat")
    assert task.args_kwargs["kwargs"] == {
        "match_id": overdue.pk, "position": 0, "deadline": deadline.isoformat()
    }  # fmt: skip
    travel(monkeypatch, after)
    run_due_tasks(after)
    assert Action.objects.filter(match=overdue, actor=Action.Actor.TIMEOUT).count() == 1
    assert not Action.objects.filter(match=later, actor=Action.Actor.TIMEOUT).exists()
    assert queue_missed_timeouts(after) == 0


def test_the_sweep_leaves_a_deadline_to_its_own_ready_task(alice, monkeypatch):
    an_hour_ago = timezone.now() - timedelta(hours=1)
    travel(monkeypatch, an_hour_ago)
    match = timed_match(alice, seconds=60)
    deadline = alices_seat(match).deadline
    own = time_out_seat.using(run_after=deadline).enqueue(
        match_id=match.pk, position=0, deadline=deadline.isoformat()
    )
    monkeypatch.undo()
    assert queue_missed_timeouts() == 0
    # Taken by a worker that was then killed: the sweep queues the timeout again.
    DBTaskResult.objects.filter(pk=own.id).update(status=TaskResultStatus.RUNNING)
    assert queue_missed_timeouts() == 1


@pytest.mark.parametrize("value", ["59", "1209601", "abc"])
def test_a_time_control_out_of_range_is_refused(alice, value):
    response = client_for(alice).post(
        reverse("create_match"),
        {"players": 4, "target": 100, "moon": "ask", "bots": 0, "decision_seconds": value},
    )
    assert response.status_code == 400
    assert "Choose one of the times offered, or untimed." in response.text


def test_the_service_refuses_an_allowance_out_of_range(alice):
    with pytest.raises(services.BadInput, match="between 1 minute and 14 days"):
        services.create_match(alice, MatchOptions(decision_seconds=30))


def test_your_turn_shows_the_nearest_deadline_first(alice):
    slow, fast = timed_match(alice, seconds=86400), timed_match(alice, seconds=300)
    page = client_for(alice).get(reverse("home")).text
    assert page.index(f"Match {fast.pk}<") < page.index(f"Match {slow.pk}<")
    assert "A play is due" in page or "A pass is due" in page
