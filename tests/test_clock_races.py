"""A decision met at its deadline by two hands at once: exactly one of them makes it.

A person's move sent at the very moment their clock runs out, the deadline's own task, and a
second task for the same deadline (the sweep queues one again when it takes the first for lost)
all go through the match's lock; whichever comes second finds the decision made and is
refused: the person with 409 and the reason, a timeout with `Conflict`. Each pair is run in
both orders, the first holding the lock until the second is seen waiting for it, and then
started together from a barrier a number of times, in real threads with their own connections.

Runs on PostgreSQL and on the SQLite file the tests use by default.
"""

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.db import connection, connections
from django.http import HttpResponse

from games import services
from games.background.deadlines import time_out_seat
from games.models import Action, Match, Seat
from games.services import timeouts, writes
from games.services.lobby import MatchOptions
from games.services.table import LockedTable
from tests.factories import HTMX, client_for, next_move

pytestmark = pytest.mark.django_db(transaction=True)

# Barrier-started rounds: which side wins each is up to the scheduler (on PostgreSQL both do,
# on SQLite the timeout mostly); the ordered tests below cover each order for certain.
ROUNDS = 8
WAIT = 30  # seconds: a generous bound on any one wait, never a pause


@pytest.fixture(autouse=True)
def needs_concurrent_database():
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("in-memory SQLite cannot serve concurrent writers")


class WatchedLock:
    """The SQLite writers' lock (`services/writes.py`), counting the threads waiting for it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = threading.Lock()
        self.waiting = 0

    def __enter__(self) -> "WatchedLock":
        with self._count:
            self.waiting += 1
        self._lock.acquire()
        with self._count:
            self.waiting -= 1
        return self

    def __exit__(self, *exc) -> None:
        self._lock.release()

    def locked(self) -> bool:
        return self._lock.locked()


@pytest.fixture
def lock_watch(monkeypatch) -> Callable[[], int]:
    """Return a probe: how many writers are waiting for a lock another writer holds."""
    if connection.vendor == "postgresql":
        # A SELECT ... FOR UPDATE waiting on the match's row shows as waiting on a Lock.
        def waiting_on_postgresql() -> int:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND wait_event_type = 'Lock'"
                )
                return cursor.fetchone()[0]

        return waiting_on_postgresql
    # On SQLite a writer of this process waits for the others on the writers' lock.
    watched = WatchedLock()
    monkeypatch.setattr(writes, "_writers", watched)
    return lambda: watched.waiting


@pytest.fixture
def in_order(monkeypatch, lock_watch):
    """Run two calls so that the first takes the match's lock and the second waits for it.

    The first keeps the lock (inside its transaction, right after `LockedTable.lock`) until the
    second is seen waiting, so the second arrives while the first decides, as at a deadline.
    Returns both results, or the `ActionRefused` each raised.
    """
    original = LockedTable.lock.__func__  # type: ignore[attr-defined]
    first_locked, release = threading.Event(), threading.Event()

    def lock(cls, match_id):
        table = original(cls, match_id)
        if threading.current_thread().name == "first" and not first_locked.is_set():
            first_locked.set()
            assert release.wait(WAIT), "the test never let the first writer go"
        return table

    monkeypatch.setattr(LockedTable, "lock", classmethod(lock))

    def run(first: Callable, second: Callable) -> list:
        results: list = [None, None]
        threads = [
            threading.Thread(target=_call, args=(first, results, 0), name="first"),
            threading.Thread(target=_call, args=(second, results, 1), name="second"),
        ]
        threads[0].start()
        try:
            assert first_locked.wait(WAIT), "the first call never took the lock"
            threads[1].start()
            _wait_until(lambda: lock_watch() >= 1, "the second call never waited for the lock")
        finally:
            release.set()
            for thread in threads:
                thread.join(WAIT)
        return results

    return run


def _wait_until(condition: Callable[[], bool], message: str) -> None:
    limit = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < limit, message
        time.sleep(0.005)


def _call(call: Callable, results: list, index: int) -> None:
    try:
        results[index] = call()
    except services.ActionRefused as refused:
        results[index] = refused
    except BaseException as error:  # kept, so that the test reports it rather than hangs
        results[index] = error
    finally:
        connections.close_all()


def at_once(*calls: Callable) -> list:
    """Start the calls together from a barrier, each in its own thread and connection."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index: int, call: Callable) -> None:
        barrier.wait(WAIT)
        _call(call, results, index)

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    return results


@dataclass
class Owed:
    """A decision alice owes in a timed match against three bots, with the clock at its deadline."""

    match: Match
    deadline: object
    player: object
    client: object
    move: object

    def send_move(self) -> HttpResponse:
        """Alice's move, as her page sends it, arriving at the deadline."""
        return self.client.post(self.move.url, self.move.data, **HTMX)

    def pass_cards(self):
        """The same move, made through the service the view calls."""
        data = self.move.data
        return services.pass_cards(self.player, self.match.pk, data["version"], data["cards"])

    def time_out(self):
        return timeouts.time_out(self.match.pk, 0, self.deadline)

    def run_task(self) -> bool:
        """The deadline's own task, as the worker runs it."""
        return time_out_seat.call(
            match_id=self.match.pk, position=0, deadline=self.deadline.isoformat()
        )

    def decisions(self) -> list[str]:
        """Who made alice's pass, the decision owed: one entry per pass logged for her seat."""
        passes = Action.objects.filter(match=self.match, seat=0, kind=Action.Kind.PASS)
        return list(passes.values_list("actor", flat=True))


@pytest.fixture
def owed(alice, clock):
    """Make a fresh timed match for each call, and stop the clock at alice's deadline."""

    def make() -> Owed:
        options = MatchOptions(bots=3, target=100, decision_seconds=60)
        match = services.create_match(alice, options)
        seat = Seat.objects.get(match=match, position=0)
        assert seat.to_act and seat.deadline
        clock.current = seat.deadline  # exactly the deadline: both the move and a timeout stand
        client = client_for(alice)
        # Her page is open: the visit's own writes (last seen) are done before the race.
        assert client.get(match.get_absolute_url()).status_code == 200
        return Owed(match, seat.deadline, alice, client, next_move(match, 0))

    return make


def timed_out(kind: str, result) -> bool:
    """Say whether a timeout of this kind made the decision; check how a refused one says so.

    The service raises `Conflict`; the deadline's task swallows it and returns False.
    """
    assert not isinstance(result, BaseException) or isinstance(result, services.Conflict), result
    if kind == "time_out":
        if isinstance(result, services.Conflict):
            assert result.message == timeouts.ALREADY_DECIDED
            return False
        return True
    assert isinstance(result, bool), result
    return result


def assert_one_applied(owed: Owed, move: HttpResponse, timeout_kind: str, timeout) -> str:
    """Check that exactly one of a move and a timeout made the decision; say which did."""
    decisions = owed.decisions()
    assert len(decisions) == 1, decisions
    if move.status_code == 200:
        assert not timed_out(timeout_kind, timeout)
        assert decisions == [Action.Actor.PERSON]
        return "move"
    # The person is told, with the table as it now stands, that a bot decided for them.
    assert move.status_code == 409, move.status_code
    page = move.text
    assert "The table has changed since you last looked" in page
    assert "Your time ran out: a bot decided for you." in page
    assert timed_out(timeout_kind, timeout)
    assert decisions == [Action.Actor.TIMEOUT]
    return "timeout"


@pytest.mark.parametrize("timeout_kind", ["time_out", "task"])
@pytest.mark.parametrize("first", ["move", "timeout"])
def test_a_move_at_the_deadline_and_its_timeout_in_either_order_apply_one(
    owed, in_order, first, timeout_kind
):
    decision = owed()
    timeout = {"time_out": decision.time_out, "task": decision.run_task}
    calls = {"move": decision.send_move, "timeout": timeout[timeout_kind]}
    second = "timeout" if first == "move" else "move"
    results = dict(zip((first, second), in_order(calls[first], calls[second]), strict=True))
    winner = assert_one_applied(decision, results["move"], timeout_kind, results["timeout"])
    assert winner == first


def test_two_tasks_for_one_deadline_one_after_the_other_apply_one(owed, in_order):
    decision = owed()
    first, second = in_order(decision.run_task, decision.run_task)
    # The first one decides; the second finds the deadline no longer the seat's.
    assert (first, second) == (True, False)
    assert decision.decisions() == [Action.Actor.TIMEOUT]


def test_a_move_and_its_timeout_started_together_apply_one_each_time(owed):
    # The service the move view calls: a request's own work before the lock would let the
    # timeout win every round; the ordered tests above run the view itself in both orders.
    for _ in range(ROUNDS):
        decision = owed()
        move, timeout = at_once(decision.pass_cards, decision.time_out)
        assert not isinstance(move, BaseException) or isinstance(move, services.Conflict), move
        assert not isinstance(timeout, BaseException) or isinstance(timeout, services.Conflict)
        # Exactly one was refused, and the pass logged is the one that was not.
        assert isinstance(move, services.Conflict) != isinstance(timeout, services.Conflict)
        by_bot = isinstance(move, services.Conflict)
        assert decision.decisions() == [Action.Actor.TIMEOUT if by_bot else Action.Actor.PERSON]


def test_two_tasks_for_one_deadline_started_together_time_out_once_each_time(owed):
    for _ in range(ROUNDS):
        decision = owed()
        results = at_once(decision.run_task, decision.run_task)
        assert not any(isinstance(result, BaseException) for result in results), results
        assert sorted(results) == [False, True]
        assert decision.decisions() == [Action.Actor.TIMEOUT]


def test_the_timeout_bot_searches_outside_the_transaction_that_applies_its_decision(
    owed, monkeypatch
):
    # Its search takes tens of milliseconds: under the match's lock (on SQLite, the one
    # writers' lock) every other move of the site would wait for it.
    decision = owed()
    real = timeouts.TIMEOUT_BOT
    in_transaction = []

    class Watched:
        def choose(self, view):
            in_transaction.append(connection.in_atomic_block)
            return real.choose(view)

    monkeypatch.setattr(timeouts, "TIMEOUT_BOT", Watched())
    timeouts.time_out(decision.match.pk, 0, decision.deadline)
    assert in_transaction == [False]
    assert decision.decisions() == [Action.Actor.TIMEOUT]
