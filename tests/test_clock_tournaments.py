"""Clocks in tournaments: the time control of every table, a deadline per round, finishing by bots.

Time is moved by the `clock` fixture; the worker's tasks are run with `run_due_tasks`.
"""

from datetime import timedelta

import pytest

from games import engine, services
from games.models import (
    Action,
    Match,
    MatchStatus,
    Round,
    RoundStatus,
    Seat,
    TournamentStatus,
)
from games.round_deadline_tasks import finish_round_at_deadline
from games.services import timeouts
from games.services import tournaments as tours
from games.services.tournaments import round_deadlines
from games.services.tournaments.rounds import match_options
from tests.notify_helpers import run_due_tasks
from tests.tournament_helpers import enter, make_players, make_tournament

HOUR = timedelta(hours=1)


@pytest.fixture
def staff(make_user):
    return make_user("boss", "Boss", is_staff=True, is_superuser=True)


@pytest.fixture
def running(db, staff):
    """A timed two-round tournament of eight (two tables of four), its first round in play."""
    tournament = make_tournament(
        round_count=2, hands=1, decision_seconds=3600, bank_seconds=7200, timeouts_to_leave=3
    )
    enter(tournament, make_players(8))
    tours.seat_next_round(tournament.pk)
    tours.start_round(tournament.pk, staff)
    return tournament


def first_round(tournament) -> Round:
    return tournament.rounds.get(number=1)


def matches_of(round_: Round) -> list[Match]:
    return [table.match for table in round_.tables.select_related("match").order_by("number")]


def set_deadline(round_: Round, when, capture) -> None:
    """Set a round's deadline as the admin does, running what its commit sets off."""
    with capture(execute=True):
        tours.set_deadline(round_.pk, when)


# ----- the time control of every table -----


def test_every_table_of_a_round_gets_the_tournaments_time_control(running):
    for match in matches_of(first_round(running)):
        assert (match.decision_seconds, match.bank_seconds, match.timeouts_to_leave) == (
            3600,
            7200,
            3,
        )
        to_act = [s for s in match.seats.all() if s.to_act]
        assert to_act and all(s.deadline and s.bank_left == 7200 for s in to_act)


def test_an_untimed_tournament_has_untimed_tables(db, staff):
    tournament = make_tournament(hands=1)
    assert match_options(tournament).decision_seconds is None
    enter(tournament, make_players(4))
    tours.seat_next_round(tournament.pk)
    round_ = tours.start_round(tournament.pk, staff)
    (match,) = matches_of(round_)
    assert match.decision_seconds is None
    assert not Seat.objects.filter(match=match, deadline__isnull=False).exists()


def test_timeouts_at_a_tournament_table_follow_the_tournaments_count(running, clock):
    match = matches_of(first_round(running))[0]
    for count in range(1, 4):
        seat = Seat.objects.filter(match=match, to_act=True).order_by("position").first()
        clock.current = seat.deadline + timedelta(seconds=1)
        timeouts.time_out(match.pk, seat.position, seat.deadline)
        seat.refresh_from_db()
        assert seat.timeouts_in_a_row == count
        assert seat.left_on_time == (count == 3)
        if seat.left_on_time:
            break
        # Only this seat keeps timing out: the others decide themselves.
        play_others_until(match, seat.position)


def play_others_until(match: Match, position: int) -> None:
    """Let every other person decide, as themselves, until `position` must decide again."""
    bot = engine.BaselineBot()
    for _ in range(500):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            return
        seats = [s for s in match.seats.select_related("user") if s.to_act]
        if any(s.position == position for s in seats):
            return
        seat = seats[0]
        state = engine.Match.from_snapshot(match.snapshot)
        decision = bot.choose(state.view(seat.position))
        if decision["type"] == "pass":
            services.pass_cards(seat.user, match.pk, match.version, decision["cards"])
        elif decision["type"] == "play":
            services.play_card(seat.user, match.pk, match.version, decision["card"])
        else:
            services.choose_moon(seat.user, match.pk, match.version, decision["option"])


# ----- a round's deadline -----


def test_at_its_deadline_bots_finish_the_round_which_closes_and_the_next_starts(
    running, clock, django_capture_on_commit_callbacks
):
    round_ = first_round(running)
    set_deadline(round_, clock.now() + 24 * HOUR, django_capture_on_commit_callbacks)
    clock.advance(hours=23)
    run_due_tasks(clock.now())
    assert Round.objects.get(pk=round_.pk).status == RoundStatus.RUNNING  # not yet

    clock.advance(hours=1, seconds=1)
    run_due_tasks(clock.now())
    round_.refresh_from_db()
    assert round_.status == RoundStatus.CLOSED
    for match in matches_of(round_):
        assert match.status == MatchStatus.FINISHED
        assert Action.objects.filter(match=match, actor=Action.Actor.TIMEOUT).exists()
        assert Seat.objects.filter(match=match, finished_by_bot=True).exists()
    totals = [seat.total for table in round_.tables.all() for seat in table.seats.all()]
    assert None not in totals
    second = running.rounds.get(number=2)
    assert second.status == RoundStatus.RUNNING
    assert all(m.status == MatchStatus.ACTIVE for m in matches_of(second))


def test_the_last_rounds_deadline_finishes_the_tournament(running, clock):
    round_ = first_round(running)
    tours.finish_round_by_bots(round_.pk)
    second = running.rounds.get(number=2)
    done = tours.finish_round_by_bots(second.pk)
    assert done.closed and done.tournament_finished and done.matches_finished == 2
    running.refresh_from_db()
    assert running.status == TournamentStatus.FINISHED


def test_a_deadline_moved_later_is_not_met_at_the_old_time(
    running, clock, django_capture_on_commit_callbacks
):
    round_ = first_round(running)
    set_deadline(round_, clock.now() + HOUR, django_capture_on_commit_callbacks)
    set_deadline(round_, clock.now() + 5 * HOUR, django_capture_on_commit_callbacks)
    clock.advance(hours=2)
    ran = run_due_tasks(clock.now())
    assert any(r.task_path.endswith("finish_round_at_deadline") for r in ran)
    assert Round.objects.get(pk=round_.pk).status == RoundStatus.RUNNING
    clock.advance(hours=4)
    run_due_tasks(clock.now())
    assert Round.objects.get(pk=round_.pk).status == RoundStatus.CLOSED


def test_the_sweep_meets_a_deadline_whose_task_was_lost(running, clock):
    round_ = first_round(running)
    deadline = clock.now() + HOUR
    tours.set_deadline(round_.pk, deadline)  # its task never queued: nothing here commits
    assert round_deadlines.sweep_rounds(clock.now()) == 0
    clock.advance(hours=1, seconds=1)
    assert round_deadlines.due_rounds(clock.now(), 10) == [(round_.pk, deadline)]
    assert round_deadlines.sweep_rounds(clock.now()) == 1
    assert Round.objects.get(pk=round_.pk).status == RoundStatus.CLOSED


def test_sweeping_twice_or_after_the_task_finishes_each_match_once(
    running, clock, django_capture_on_commit_callbacks
):
    round_ = first_round(running)
    set_deadline(round_, clock.now() + HOUR, django_capture_on_commit_callbacks)
    clock.advance(hours=2)
    deadline = Round.objects.get(pk=round_.pk).deadline
    assert finish_round_at_deadline.call(round_.pk, deadline.isoformat()) == 2
    versions = [m.version for m in matches_of(round_)]
    rounds = Round.objects.count()
    assert round_deadlines.sweep_rounds(clock.now()) == 0
    assert round_deadlines.sweep_rounds(clock.now()) == 0
    run_due_tasks(clock.now())  # the round's own task, queued at the deadline: nothing left
    assert finish_round_at_deadline.call(round_.pk, deadline.isoformat()) is None
    assert [m.version for m in matches_of(round_)] == versions
    assert Round.objects.count() == rounds  # the next round was started once


def test_finishing_a_round_twice_finishes_nothing_more(running):
    round_ = first_round(running)
    first = tours.finish_round_by_bots(round_.pk)
    assert first.matches_finished == 2 and first.closed and first.next_round is not None
    with pytest.raises(services.Conflict, match="not being played"):
        tours.finish_round_by_bots(round_.pk)


def test_a_closed_rounds_deadline_cannot_change(running, clock):
    round_ = first_round(running)
    tours.finish_round_by_bots(round_.pk)
    with pytest.raises(services.Conflict, match="is closed"):
        tours.set_deadline(round_.pk, clock.now() + HOUR)


# ----- a person's move racing the bots -----


def owed(match: Match) -> tuple[Seat, dict]:
    """The first person to act at the match and the move the baseline bot would make for them."""
    match.refresh_from_db()
    seat = match.seats.select_related("user").filter(to_act=True).order_by("position").first()
    state = engine.Match.from_snapshot(match.snapshot)
    return seat, engine.BaselineBot().choose(state.view(seat.position))


def person_moves(seat: Seat, match: Match, version: int, decision: dict):
    if decision["type"] == "pass":
        return services.pass_cards(seat.user, match.pk, version, decision["cards"])
    return services.play_card(seat.user, match.pk, version, decision["card"])


def test_a_persons_move_after_the_bots_on_the_same_table_is_refused(running):
    match = matches_of(first_round(running))[0]
    seat, decision = owed(match)
    seen = match.version
    assert round_deadlines.finish_step(match.pk) is round_deadlines.Step.MOVED
    with pytest.raises(services.StaleVersion, match="The table has changed"):
        person_moves(seat, match, seen, decision)
    actions = Action.objects.filter(match=match, seat=seat.position)
    assert [a.actor for a in actions] == [Action.Actor.TIMEOUT]


def test_the_bots_decision_on_a_table_a_person_moved_on_is_not_applied(running, monkeypatch):
    match = matches_of(first_round(running))[0]
    seat, decision = owed(match)
    applied = []
    decide = round_deadlines._decide_for_person

    def person_first(match_id, version, position, bots_decision):
        # The person's move commits while the bot searches: the bot finds the table changed.
        applied.append(person_moves(seat, match, version, decision))
        decide(match_id, version, position, bots_decision)

    monkeypatch.setattr(round_deadlines, "_decide_for_person", person_first)
    assert round_deadlines.finish_step(match.pk) is round_deadlines.Step.MOVED
    actions = Action.objects.filter(match=match, seat=seat.position)
    assert [a.actor for a in actions] == [Action.Actor.PERSON]
    assert not Seat.objects.get(pk=seat.pk).finished_by_bot
