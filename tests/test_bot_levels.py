"""Bot levels, and bots that search playing in the background (services/bot_turns.py)."""

from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django_tasks_db.models import DBTaskResult

from games import engine, services
from games.background import bot_runner
from games.background.bot_runner import play_bot_turn, queue_stuck_bots
from games.lib import process_role
from games.models import Action, BotLevel, Match, Profile
from games.services import bot_turns
from games.services.events import match_changed
from tests.factories import HTMX, client_for, make_match, next_move, state_of
from tests.notify_helpers import queued

pytestmark = pytest.mark.django_db

NORMAL_BOTS = (BotLevel.NORMAL,) * 3


def lobby_form(**fields) -> dict:
    return {"players": 4, "target": 100, "moon": "ask", "bots": 3, **fields}


def levels_of(match: Match) -> list[str]:
    return [seat.bot_level for seat in match.seats.order_by("position") if seat.is_bot]


def play_until_a_bot_must_search(match: Match, client: Client, django_capture_on_commit_callbacks):
    """Make the person's moves (their commits' callbacks held back) until a searching bot is due.

    Return the last move's answer.
    """
    response = None
    for _ in range(60):
        match.refresh_from_db()
        if match.bots_due_since is not None and response is not None:
            return response
        move = next_move(match, 0)
        assert move is not None, "the person must be to act while no bot is due"
        with django_capture_on_commit_callbacks(execute=False):
            response = client.post(move.url, move.data, **HTMX)
        assert response.status_code == 200, response.content
    raise AssertionError("no searching bot became due")


# ----- choosing levels -----


def test_the_lobby_sets_the_level_of_each_bot_seat(alice):
    client = client_for(alice)
    form = lobby_form(bot_levels_0="easy", bot_levels_1="strong", bot_levels_2="normal")
    response = client.post("/matches/new/", form)
    assert response.status_code == 302
    match = Match.objects.get(created_by=alice)
    assert levels_of(match) == ["easy", "strong", "normal"]


def test_bots_are_normal_unless_the_lobby_says_otherwise(alice):
    response = client_for(alice).post("/matches/new/", lobby_form(bots=2))
    assert response.status_code == 302
    assert levels_of(Match.objects.get(created_by=alice)) == ["normal", "normal"]


def test_an_unknown_level_is_refused_and_nothing_is_created(alice):
    response = client_for(alice).post("/matches/new/", lobby_form(bot_levels_1="grandmaster"))
    assert response.status_code == 400
    assert "Choose easy, normal or strong for each bot." in response.content.decode()
    assert not Match.objects.exists()


def test_the_service_refuses_an_unknown_level(alice):
    options = services.MatchOptions(bots=3, bot_levels=("easy", "expert", "easy"))
    with pytest.raises(services.BadInput, match="no bot level 'expert'"):
        services.create_match(alice, options)
    assert not Match.objects.exists()


def test_a_bot_added_to_an_open_match_plays_at_the_level_chosen(alice):
    match = make_match(alice, start=False, bots=0)
    client = client_for(alice)
    response = client.post(f"/matches/{match.pk}/bots/add/", {"position": 2, "level": "strong"})
    assert response.status_code in (200, 302)
    assert match.seats.get(position=2).bot_level == "strong"
    refused = client.post(f"/matches/{match.pk}/bots/add/", {"position": 3, "level": "wild"})
    assert refused.status_code == 400
    assert match.seats.get(position=3).is_empty


def test_the_table_names_each_bots_level(alice):
    match = make_match(alice, bots=3, bot_levels=("easy", "normal", "strong"))
    page = client_for(alice).get(match.get_absolute_url()).content.decode()
    for level in ("easy", "normal", "strong"):
        assert f'<span class="seat-level">{level}</span>' in page


# ----- nobody waits on a search -----


def test_a_persons_card_is_answered_before_the_searching_bots_play(
    alice, django_capture_on_commit_callbacks
):
    # A forced card of hers would be played for her (actor "forced"): the deal is random.
    Profile.objects.filter(user=alice).update(auto_play_forced=False)
    match = make_match(alice, bots=3, bot_levels=NORMAL_BOTS)
    response = play_until_a_bot_must_search(
        match, client_for(alice), django_capture_on_commit_callbacks
    )
    match.refresh_from_db()
    state = state_of(match)
    assert state.phase == engine.PLAYING and state.turn != 0
    # The answer shows the bot to play as thinking; no bot card followed the person's.
    assert "thinking…" in response.content.decode()
    last = Action.objects.filter(match=match).order_by("-version", "-seq").first()
    assert last is not None and last.actor == Action.Actor.PERSON


def test_the_background_plays_the_bots_one_card_and_one_version_at_a_time(
    alice, django_capture_on_commit_callbacks
):
    # Her forced cards wait for her: played for her, they would let the bots go round again
    # (the deal against bots is drawn at random, so some deals force a card and some do not).
    Profile.objects.filter(user=alice).update(auto_play_forced=False)
    match = make_match(alice, bots=3, bot_levels=NORMAL_BOTS)
    play_until_a_bot_must_search(match, client_for(alice), django_capture_on_commit_callbacks)
    match.refresh_from_db()
    before = match.version
    announced = []

    def listen(sender, *, version, **kwargs):
        announced.append(version)

    match_changed.connect(listen)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            played = bot_turns.play_bots(match.pk)
    finally:
        match_changed.disconnect(listen)
    match.refresh_from_db()
    # The bots finish the trick (3 cards at most) and, when one of them takes it, lead the next
    # and follow up to her (3 more): the deal is drawn at random, so either can happen.
    assert 1 <= played <= 6
    assert match.bots_due_since is None
    assert 0 in state_of(match).to_act(), "the person is to act once the bots have played"
    searched = Action.objects.filter(match=match, version__gt=before, actor=Action.Actor.BOT)
    assert searched.count() >= played
    # Each searched card is a change of its own, announced to the pages following the match.
    assert match.version == before + played
    assert announced == list(range(before + 1, before + played + 1))


def test_with_no_time_to_go_on_each_bot_card_is_a_task_of_its_own_on_the_now_queue(
    alice, django_capture_on_commit_callbacks, monkeypatch, settings
):
    settings.BOT_TASK_SECONDS = 0
    Profile.objects.filter(user=alice).update(auto_play_forced=False)  # see the test above
    match = make_match(alice, bots=3, bot_levels=NORMAL_BOTS)
    play_until_a_bot_must_search(match, client_for(alice), django_capture_on_commit_callbacks)
    match.refresh_from_db()
    before = match.version
    monkeypatch.setattr(process_role, "_worker", True)
    assert bot_runner.bots_play_as_tasks()
    # The person's move left a bot to play: its commit queues the bot's card, nothing plays.
    with django_capture_on_commit_callbacks(execute=True):
        bot_runner.play_bots_soon(sender=None, match_id=match.pk)
    [task] = queued("play_bot_turn")
    assert task.queue_name == "now" and task.args_kwargs["args"] == [match.pk]
    match.refresh_from_db()
    assert match.version == before
    # A worker runs it: one card, whose own commit queues the next bot's card, and so on.
    played = 0
    while task := next(iter(queued("play_bot_turn")), None):
        with django_capture_on_commit_callbacks(execute=True):
            assert play_bot_turn.call(*task.args_kwargs["args"]) is True
        DBTaskResult.objects.filter(pk=task.pk).delete()
        played += 1
        match.refresh_from_db()
        assert match.version == before + played, "one card a task"
        assert played <= 6
    assert match.bots_due_since is None
    assert 0 in state_of(match).to_act()


@pytest.mark.django_db(transaction=True)  # as in a worker: each card's commit takes effect
def test_a_worker_s_task_plays_every_bot_card_owed_one_change_each_and_queues_nothing_more(
    alice, monkeypatch, settings
):
    settings.BOT_TASK_SECONDS = 60  # time enough for every card the bots owe
    Profile.objects.filter(user=alice).update(auto_play_forced=False)
    monkeypatch.setattr(process_role, "_worker", True)  # the bots' cards are queued, not played
    match = make_match(alice, bots=3, bot_levels=NORMAL_BOTS)
    client = client_for(alice)
    for _ in range(60):
        match.refresh_from_db()
        if match.bots_due_since is not None:
            break
        move = next_move(match, 0)
        assert move is not None, "the person must be to act while no bot is due"
        assert client.post(move.url, move.data, **HTMX).status_code == 200
    before = match.version
    [task] = queued("play_bot_turn")
    DBTaskResult.objects.filter(pk=task.pk).delete()
    announced = []

    def listen(sender, signal, **change):
        announced.append(change)

    match_changed.connect(listen)
    try:
        assert play_bot_turn.call(match.pk) is True
    finally:
        match_changed.disconnect(listen)
    match.refresh_from_db()
    played = match.version - before
    assert 1 <= played <= 6 and match.bots_due_since is None
    assert 0 in state_of(match).to_act()
    # Each card still its own change (its own version and log entry)...
    assert Action.objects.filter(match=match, version__gt=before).count() >= played
    # ... announced to the pages once, as the table stands after the last, telling her it is
    # her turn; no task left in the queue.
    assert announced == [
        {
            "match_id": match.pk,
            "version": match.version,
            "to_act_user_ids": [alice.pk],
            "status": "active",
            "became_to_act_user_ids": [alice.pk],
        }
    ]
    assert queued("play_bot_turn") == []
    # A task for a table that owes nothing plays nothing and queues nothing.
    assert play_bot_turn.call(match.pk) is False and queued("play_bot_turn") == []


def test_outside_a_server_the_bots_play_as_soon_as_the_move_commits(
    alice, django_capture_on_commit_callbacks
):
    match = make_match(alice, bots=3, bot_levels=NORMAL_BOTS)
    client = client_for(alice)
    for _ in range(40):
        move = next_move(match, 0)
        assert move is not None, "the bots must never leave the person waiting"
        with django_capture_on_commit_callbacks(execute=True):
            client.post(move.url, move.data, **HTMX)
        match.refresh_from_db()
        assert match.bots_due_since is None


def test_a_bot_never_plays_on_a_table_that_changed_while_it_searched(
    alice, django_capture_on_commit_callbacks, monkeypatch
):
    match = make_match(alice, bots=3, bot_levels=NORMAL_BOTS)
    play_until_a_bot_must_search(match, client_for(alice), django_capture_on_commit_callbacks)
    match.refresh_from_db()
    seen = match.version
    real = engine.bot_for_level

    class Interrupted:
        """A search during which the table changes (another runner moved it)."""

        def __init__(self, level, seed=0):
            self.bot = real(level, seed=seed)

        def choose(self, view):
            Match.objects.filter(pk=match.pk).update(version=seen + 1)
            return self.bot.choose(view)

    monkeypatch.setattr(engine, "bot_for_level", Interrupted)
    with django_capture_on_commit_callbacks(execute=False):
        assert bot_turns.play_bot_card(match.pk) is True  # ask again: the table changed
    assert not Action.objects.filter(match=match, version__gt=seen).exists()
    match.refresh_from_db()
    assert match.version == seen + 1


def test_the_sweep_moves_a_table_left_waiting_on_a_bot(
    alice, django_capture_on_commit_callbacks, monkeypatch
):
    match = make_match(alice, bots=3, bot_levels=NORMAL_BOTS)
    play_until_a_bot_must_search(match, client_for(alice), django_capture_on_commit_callbacks)
    match.refresh_from_db()
    due_since = match.bots_due_since
    assert due_since is not None
    with override_settings(BOT_STUCK_SECONDS=30), django_capture_on_commit_callbacks(execute=True):
        assert queue_stuck_bots(now=due_since + timedelta(seconds=10)) == 0
        assert not queued("play_bot_turn"), "a bot still searching is left alone"
        assert queue_stuck_bots(now=due_since + timedelta(seconds=31)) == 1
        match.refresh_from_db()
        assert match.bots_due_since == due_since, "the sweep only queues"
        [task] = queued("play_bot_turn")
        assert task.queue_name == "now" and task.args_kwargs["args"] == [match.pk]
        # The task plays one card; here, outside a worker, the bots after it play at once.
        assert play_bot_turn.call(match.pk) is True
    match.refresh_from_db()
    assert match.bots_due_since is None
    assert 0 in state_of(match).to_act()


def test_a_seat_its_player_left_is_played_by_the_strong_bot_in_the_background(
    alice, bob, django_capture_on_commit_callbacks
):
    match = make_match(alice, people=[bob], bots=2, bot_levels=(BotLevel.EASY,) * 2)
    with django_capture_on_commit_callbacks(execute=False):
        services.resign(bob, match.pk)
    table = services.table.LockedTable.lock(match.pk)
    assert table.bot_level(1) == BotLevel.STRONG
    # Whenever bob's seat is to play a card, the table waits for the background.
    for _ in range(80):
        match.refresh_from_db()
        state = state_of(match)
        if state.phase == engine.PLAYING and state.turn == 1:
            assert match.bots_due_since is not None
            break
        move = next_move(match, 0)
        assert move is not None
        with django_capture_on_commit_callbacks(execute=False):
            client_for(alice).post(move.url, move.data, **HTMX)
    else:
        raise AssertionError("bob's seat never had to play")


def test_easy_bots_still_answer_within_the_persons_request(alice):
    match = make_match(alice, bots=3, bot_levels=(BotLevel.EASY,) * 3)
    client = client_for(alice)
    for _ in range(10):
        move = next_move(match, 0)
        assert move is not None, "easy bots never leave the person waiting"
        client.post(move.url, move.data, **HTMX)
        match.refresh_from_db()
        assert match.bots_due_since is None


@pytest.mark.django_db(transaction=True)
def test_bots_playing_in_a_commits_callback_may_write_again(alice):
    """Outside a server the bots play in the move's commit callback, on the same thread, while
    SQLite's writers' turn is still held: taking that turn again must not wait on itself."""
    match = make_match(alice, bots=3, bot_levels=NORMAL_BOTS)
    client = client_for(alice)
    for _ in range(6):
        move = next_move(match, 0)
        assert move is not None, "the bots must have played up to the person's turn"
        response = client.post(move.url, move.data, **HTMX)
        assert response.status_code == 200
        match.refresh_from_db()
        assert match.bots_due_since is None
