"""Clocks in tournaments: the time control of every table, a deadline per round, finishing by bots.

Time is moved by the `clock` fixture; the worker's tasks are run with `run_due_tasks`.
"""

from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games import engine, services
from games.background.deadlines import ensure_sweep_scheduled
from games.background.round_deadline_tasks import finish_round_at_deadline, queue_due_rounds
from games.models import (
    Action,
    Match,
    MatchStatus,
    Round,
    RoundStatus,
    Seat,
    Tournament,
    TournamentStatus,
)
from games.services import MatchOptions, timeouts
from games.services import tournaments as tours
from games.services.tournaments import round_deadlines
from tests.factories import client_for
from tests.notify_helpers import run_due_tasks
from tests.test_services_concurrency import race
from tests.tournament_helpers import enter, make_players, make_tournament
from tests.tournaments.test_tournament_admin import entries_form, rounds_form

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


@pytest.mark.parametrize("allowed", [False, True])
def test_every_table_follows_the_tournaments_vacation_rule(db, allowed):
    tournament = make_tournament(hands=1, decision_seconds=3600, allow_vacation=allowed)
    assert MatchOptions.of_tournament(tournament).allow_vacation is allowed


def test_an_untimed_tournament_has_untimed_tables(db, staff):
    tournament = make_tournament(hands=1)
    assert MatchOptions.of_tournament(tournament).decision_seconds is None
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
        if isinstance(decision, engine.Pass):
            cards = [str(card) for card in decision.cards]
            services.pass_cards(seat.user, match.pk, match.version, cards)
        elif isinstance(decision, engine.Play):
            services.play_card(seat.user, match.pk, match.version, str(decision.card))
        else:
            services.choose_moon(seat.user, match.pk, match.version, str(decision))


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
    assert queue_due_rounds(clock.now()) == 0
    clock.advance(hours=1, seconds=1)
    assert round_deadlines.due_rounds(clock.now(), 10) == [(round_.pk, deadline)]
    assert queue_due_rounds(clock.now()) == 1
    assert queue_due_rounds(clock.now()) == 0, "its task is waiting: not queued twice"
    assert Round.objects.get(pk=round_.pk).status == RoundStatus.RUNNING, "the sweep only queues"
    ran = run_due_tasks(clock.now())
    assert [r.queue_name for r in ran if r.task_path.endswith("finish_round_at_deadline")] == [
        "long"
    ]
    assert Round.objects.get(pk=round_.pk).status == RoundStatus.CLOSED


def test_the_workers_periodic_sweep_meets_round_deadlines(running, clock):
    round_ = first_round(running)
    tours.set_deadline(round_.pk, clock.now() + HOUR)  # its task never queued
    clock.advance(hours=1, seconds=1)
    assert ensure_sweep_scheduled()
    run_due_tasks(clock.now())
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
    assert queue_due_rounds(clock.now()) == 0  # closed: nothing to queue
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
    return seat, engine.BaselineBot().choose(state.view(seat.position)).to_dict()


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


# ----- the admin -----

ROUNDS = "admin:games_round_changelist"


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


def tournament_form(**changes) -> dict:
    """The admin's "add tournament" form, filled in, with `changes`."""
    data = {
        "name": "Slow Cup",
        "slug": "slow-cup",
        "description": "",
        "variant": "standard",
        "bonus_card": "JD",
        "table_size": 4,
        "round_count": 2,
        "target": 100,
        "hands": 0,
        "moon": "ask",
        "decision_seconds": 86400,
        "bank": 3,
        "timeouts_to_leave": 4,
        "allow_vacation": "on",
        "rounds-TOTAL_FORMS": 0,
        "rounds-INITIAL_FORMS": 0,
        "rounds-MIN_NUM_FORMS": 0,
        "rounds-MAX_NUM_FORMS": 1000,
        "entries-TOTAL_FORMS": 0,
        "entries-INITIAL_FORMS": 0,
        "entries-MIN_NUM_FORMS": 0,
        "entries-MAX_NUM_FORMS": 1000,
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def test_staff_give_a_tournament_a_time_control_among_the_lobbys_presets(staff_client):
    response = staff_client.post(reverse("admin:games_tournament_add"), tournament_form())
    assert response.status_code == 302, response.text[:3000]
    tournament = Tournament.objects.get(slug="slow-cup")
    assert (tournament.decision_seconds, tournament.bank_seconds) == (86400, 3 * 86400)
    assert tournament.timeouts_to_leave == 4 and tournament.allow_vacation
    page = staff_client.get(reverse("admin:games_tournament_change", args=[tournament.pk])).text
    assert '<option value="86400" selected>1 day</option>' in page
    assert '<option value="3" selected>Three more allowances</option>' in page


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"decision_seconds": 30}, "Choose one of the times offered, or untimed."),
        ({"decision_seconds": 1209601}, "Choose one of the times offered, or untimed."),
        ({"decision_seconds": 14 * 86400, "bank": 3}, "A bank of time holds at most 30 days."),
        ({"decision_seconds": "", "bank": 1}, "An untimed match has no bank of time"),
        ({"bank": 7}, "Choose one of the banks offered."),
        ({"timeouts_to_leave": 11}, "Ensure this value is less than or equal to 10."),
        ({"timeouts_to_leave": 0}, "Ensure this value is greater than or equal to 1."),
    ],
)
def test_the_admin_refuses_a_time_control_out_of_range_and_saves_nothing(
    staff_client, changes, error
):
    response = staff_client.post(reverse("admin:games_tournament_add"), tournament_form(**changes))
    assert response.status_code == 200
    assert error in response.text
    assert not Tournament.objects.exists()


def deadline_fields(when, prefix: str = "") -> dict:
    return {f"{prefix}deadline_0": f"{when:%Y-%m-%d}", f"{prefix}deadline_1": f"{when:%H:%M:%S}"}


def test_staff_set_a_rounds_deadline_which_queues_its_task(
    staff_client, running, clock, django_capture_on_commit_callbacks
):
    round_ = first_round(running)
    when = (clock.now() + 48 * HOUR).replace(microsecond=0)
    url = reverse("admin:games_round_change", args=[round_.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(url, deadline_fields(when))
    assert response.status_code == 302, response.text[:3000]
    assert Round.objects.get(pk=round_.pk).deadline == when
    queued = DBTaskResult.objects.filter(task_path__endswith="finish_round_at_deadline")
    assert [task.run_after for task in queued] == [when]
    page = staff_client.get(running.get_absolute_url()).text
    assert "Deadline" in page and "2 days left" in page


def test_a_rounds_deadline_in_the_past_is_refused(staff_client, running, clock):
    round_ = first_round(running)
    url = reverse("admin:games_round_change", args=[round_.pk])
    response = staff_client.post(url, deadline_fields(clock.now() - HOUR))
    assert response.status_code == 200
    assert "Choose a time still to come." in response.text
    assert Round.objects.get(pk=round_.pk).deadline is None


def test_staff_set_a_deadline_on_the_tournaments_own_page(staff_client, running, clock):
    round_ = first_round(running)
    when = (clock.now() + 5 * HOUR).replace(microsecond=0)
    data = {
        **entries_form(running, list(running.entries.order_by("joined_at", "pk"))),
        **rounds_form(running),
        **deadline_fields(when, prefix="rounds-0-"),
    }
    url = reverse("admin:games_tournament_change", args=[running.pk])
    response = staff_client.post(url, data)
    assert response.status_code == 302, response.text[:5000]
    assert Round.objects.get(pk=round_.pk).deadline == when


def test_finish_by_bots_now_asks_first_then_queues_the_finishing_for_the_worker(
    staff_client, running, django_capture_on_commit_callbacks
):
    round_ = first_round(running)
    ask = {"action": "finish_by_bots", "_selected_action": [round_.pk]}
    page = staff_client.post(reverse(ROUNDS), ask)
    assert page.status_code == 200
    assert "Finish these rounds by bots?" in page.text
    assert "2 matches still in play" in page.text
    assert all(m.status == MatchStatus.ACTIVE for m in matches_of(round_))  # nothing yet

    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(reverse(ROUNDS), {**ask, "post": "yes"}, follow=True)
    said = [(m.level_tag, m.message) for m in response.context["messages"]]
    assert said == [
        (
            "success",
            "Round 1 of Winter Cup: bots are finishing 2 matches still in play, in the "
            "background; the round closes and the next one starts once they are done.",
        )
    ]
    # The request made no decision: the worker does, in a task.
    assert all(m.status == MatchStatus.ACTIVE for m in matches_of(round_))
    (ran,) = [r for r in run_due_tasks(timezone.now()) if r.task_path.endswith("finish_round_now")]
    assert ran.return_value == 2
    assert all(m.status == MatchStatus.FINISHED for m in matches_of(round_))
    assert first_round(running).status == RoundStatus.CLOSED
    assert running.rounds.get(number=2).status == RoundStatus.RUNNING
    page = staff_client.get(running.get_absolute_url()).text
    assert "Finished by bots so that the round could close: " in page


def test_finishing_a_closed_round_is_refused_with_the_reason(staff_client, running):
    round_ = first_round(running)
    tours.finish_round_by_bots(round_.pk)
    ask = {"action": "finish_by_bots", "_selected_action": [round_.pk], "post": "yes"}
    response = staff_client.post(reverse(ROUNDS), ask, follow=True)
    said = [(m.level_tag, m.message) for m in response.context["messages"]]
    assert said == [("error", f"{round_}: {round_deadlines.ROUND_NOT_RUNNING}")]
    assert not DBTaskResult.objects.filter(task_path__endswith="finish_round_now").exists()


def test_players_cannot_finish_a_round(client, running):
    player = running.entries.first().user
    client.force_login(player)
    ask = {"action": "finish_by_bots", "_selected_action": [first_round(running).pk], "post": "yes"}
    response = client.post(reverse(ROUNDS), ask)
    assert response.status_code == 302 and "/admin/login/" in response.url
    assert all(m.status == MatchStatus.ACTIVE for m in matches_of(first_round(running)))


def test_a_round_past_its_deadline_cannot_start(db, staff, clock):
    tournament = make_tournament(hands=1)
    enter(tournament, make_players(4))
    round_ = tours.seat_next_round(tournament.pk).round
    tours.set_deadline(round_.pk, clock.now() + HOUR)
    clock.advance(hours=2)
    with pytest.raises(services.Conflict, match="deadline has passed"):
        tours.start_round(tournament.pk, staff)
    tours.set_deadline(round_.pk, None)
    assert tours.start_round(tournament.pk, staff).status == RoundStatus.RUNNING


def test_a_closed_rounds_deadline_is_shown_but_not_offered_for_change(staff_client, running):
    round_ = first_round(running)
    tours.finish_round_by_bots(round_.pk)
    page = staff_client.get(reverse("admin:games_round_change", args=[round_.pk])).text
    assert 'name="deadline_0"' not in page


def test_a_players_matches_say_when_the_round_ends(running, clock):
    deadline = clock.now() + 24 * HOUR
    tours.set_deadline(first_round(running).pk, deadline)
    player = running.entries.first().user
    page = client_for(player).get(reverse("home")).text
    assert f"the round ends {deadline:%a %-d %b, %H:%M} UTC" in page


# ----- real races, from separate connections -----


def concurrent_database() -> None:
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("in-memory SQLite cannot serve concurrent writers")


@pytest.mark.django_db(transaction=True)
def test_a_person_and_the_bots_deciding_at_once_are_applied_once(running):
    concurrent_database()
    match = matches_of(first_round(running))[0]
    seat, decision = owed(match)
    state = engine.Match.from_snapshot(match.snapshot)
    bots = round_deadlines.TIMEOUT_BOT.choose(state.view(seat.position))
    person, _ = race(
        lambda: person_moves(seat, match, match.version, decision),
        lambda: round_deadlines._decide_for_person(match.pk, match.version, seat.position, bots),
    )
    (action,) = Action.objects.filter(match=match, seat=seat.position)
    if action.actor == Action.Actor.PERSON:
        assert not Seat.objects.get(pk=seat.pk).finished_by_bot
    else:
        assert isinstance(person, services.StaleVersion)
        assert "The table has changed" in person.message


@pytest.mark.django_db(transaction=True)
def test_two_finishers_at_once_close_the_round_once(running):
    concurrent_database()
    round_ = first_round(running)
    first, second = race(
        lambda: tours.finish_round_by_bots(round_.pk), lambda: tours.finish_round_by_bots(round_.pk)
    )
    assert all(m.status == MatchStatus.FINISHED for m in matches_of(round_))
    assert Round.objects.get(pk=round_.pk).status == RoundStatus.CLOSED
    assert running.rounds.count() == 2  # the next round seated and started once
    started = [done.next_round for done in (first, second) if done.next_round is not None]
    assert len(started) == 1
