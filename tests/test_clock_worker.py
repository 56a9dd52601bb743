"""A deadline passing while the worker is stopped is met once the worker is back.

The worker runs for real (`manage.py worker`, its own process) on this test's database, the
SQLite file or PostgreSQL as DATABASE_URL says. Its clock is moved through the environment
(`games/lib/clock.py`): the test stops the worker, restarts it with its clock past the deadline,
and its sweep times the decision out, once.
"""

import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from games import services
from games.background.deadlines import sweep_deadlines, time_out_seat
from games.lib import clock
from games.models import Action, Seat
from games.services import timeouts
from games.services.lobby import MatchOptions
from tests.servers import ROOT, site_env

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 60  # seconds: a generous bound on the worker starting up and doing its work


@pytest.fixture(autouse=True)
def needs_a_database_another_process_can_open():
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("another process cannot open an in-memory SQLite database")


def this_database_url() -> str:
    """The URL of the database this test runs on, for a process of the site to open."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    credentials = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{credentials}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def worker_env(clock_offset: float = 0) -> dict[str, str]:
    # site_env keeps the process's Redis out; the worker's live updates need none to do its work.
    env = site_env(Path("unused"))
    env.update(
        DATABASE_URL=this_database_url(),
        # A short chain between sweeps, so that a restarted worker sweeps at once.
        SWEEP_INTERVAL_SECONDS="1",
        HEARTS_CLOCK_OFFSET_SECONDS=str(clock_offset),
    )
    return env


@contextmanager
def worker(env: dict[str, str], log: Path) -> Iterator[subprocess.Popen]:
    """Run `manage.py worker` until the block ends, then stop it as a signal would."""
    command = [sys.executable, "manage.py", "worker", "--interval", "0.2"]
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            yield process
        finally:
            process.terminate()
            process.wait(timeout=WAIT)


def wait_for(condition: Callable[[], object], process: subprocess.Popen, log: Path) -> None:
    """Poll until the condition holds; fail if the worker dies or takes too long."""
    limit = time.monotonic() + WAIT
    while not condition():
        assert process.poll() is None, f"the worker stopped:\n{log.read_text()}"
        assert time.monotonic() < limit, f"the worker did not do it in time:\n{log.read_text()}"
        time.sleep(0.1)


def tasks(task, status: str) -> list[DBTaskResult]:
    return list(DBTaskResult.objects.filter(task_path=task.module_path, status=status))


def timeouts_logged(match, position: int) -> int:
    return Action.objects.filter(match=match, seat=position, actor=Action.Actor.TIMEOUT).count()


def test_a_deadline_passed_while_the_worker_was_stopped_is_met_once_on_restart(
    alice, tmp_path, monkeypatch
):
    # An hour a decision: the real time never reaches the deadline while the test runs, so
    # only the worker's moved clock can meet it.
    match = services.create_match(
        alice, MatchOptions(bots=3, target=100, decision_seconds=3600, bank_seconds=0)
    )
    seat = Seat.objects.get(match=match, position=0)
    deadline = seat.deadline
    assert seat.to_act and deadline
    # Committing the match queued the deadline's own task, due at the deadline.
    (own_task,) = tasks(time_out_seat, TaskResultStatus.READY)
    assert own_task.run_after == deadline

    first_log = tmp_path / "before.log"
    with worker(worker_env(), first_log) as running:
        # It swept once on starting, before the deadline: nothing was due.
        wait_for(lambda: tasks(sweep_deadlines, TaskResultStatus.SUCCESSFUL), running, first_log)
    assert timeouts_logged(match, 0) == 0
    assert tasks(time_out_seat, TaskResultStatus.READY) == [own_task]

    # Back a minute after the deadline, by the worker's clock.
    past_the_deadline = (deadline - timezone.now()).total_seconds() + 60
    second_log = tmp_path / "after.log"
    with worker(worker_env(clock_offset=past_the_deadline), second_log) as running:
        wait_for(lambda: timeouts_logged(match, 0), running, second_log)
        # Its sweep has finished (and committed) the timeout, whoever applied it.
        wait_for(
            lambda: len(tasks(sweep_deadlines, TaskResultStatus.SUCCESSFUL)) >= 2,
            running,
            second_log,
        )
    assert timeouts_logged(match, 0) == 1
    assert not tasks(sweep_deadlines, TaskResultStatus.FAILED)
    seat.refresh_from_db()
    assert seat.timeouts_in_a_row == 1 and not seat.left_on_time
    # Whatever the seat owes next has a later deadline of its own.
    assert seat.deadline is None or seat.deadline > deadline

    # The deadline's own task is still queued: the worker picks tasks by the real time, which
    # has not reached it. Run on the worker's clock, it finds the decision made, as does a
    # second timeout of that deadline (a sweep that had read it before the first committed).
    worker_now = timezone.now() + timedelta(seconds=past_the_deadline)
    monkeypatch.setattr(clock, "now", lambda: worker_now)
    own_task.refresh_from_db()
    assert own_task.status == TaskResultStatus.READY
    assert time_out_seat.call(**own_task.args_kwargs["kwargs"]) is False
    with pytest.raises(services.Conflict):
        timeouts.time_out(match.pk, 0, deadline)
    assert timeouts_logged(match, 0) == 1
    assert "Traceback" not in first_log.read_text() + second_log.read_text()


@pytest.fixture
def fresh_offset():
    """Read the clock's offset afresh in the test, and again for whatever runs after it."""
    clock._offset.cache_clear()
    yield
    clock._offset.cache_clear()


@pytest.mark.parametrize(("debug", "moved"), [(True, timedelta(hours=1)), (False, timedelta(0))])
def test_the_environment_moves_the_clock_only_with_debug_on(
    settings, monkeypatch, fresh_offset, debug, moved
):
    settings.DEBUG = debug
    monkeypatch.setenv(clock.OFFSET_VARIABLE, "3600")
    before = timezone.now()
    ahead = clock.now() - before
    assert moved <= ahead < moved + timedelta(seconds=5)
