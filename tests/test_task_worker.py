"""The background worker as it runs for real: a process reading tasks from the database.

Tasks are rows, so one queued while no worker runs is done once a worker starts again; the
serve command starts the worker beside daphne and stops both together.
"""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from games.management.commands.serve import run_together, worker_command, worker_commands
from tests.servers import ROOT, free_port, manage, migrate, site_env, wait_until_up

SETUP = "from tests.notify_setup import main; main()"
SCHEDULE = (
    "from games.notifications.tasks import ensure_digest_scheduled; ensure_digest_scheduled()"
)


@pytest.fixture
def site(tmp_path) -> tuple[Path, dict, dict]:
    """Migrate a SQLite file and start a match that waits for bob (opted in, away)."""
    database = tmp_path / "site.sqlite3"
    # DIGEST_HOUR 0: bob's morning (UTC) has come whatever the hour the test runs at.
    env = {**site_env(database), "NOTIFY_AWAY_SECONDS": "0", "DIGEST_HOUR": "0"}
    migrate(env)
    ids = json.loads(manage(env, "shell", "-c", SETUP).strip().splitlines()[-1])
    return database, env, ids


def read(database: Path, sql: str, *params) -> list[tuple]:
    with sqlite3.connect(database, timeout=20) as db:
        return db.execute(sql, params).fetchall()


def stamp(database: Path, column: str, user_id: int):
    sql = f"SELECT {column} FROM games_notificationsettings WHERE user_id = ?"
    return read(database, sql, user_id)[0][0]


def task_statuses(database: Path, name: str) -> list[str]:
    sql = "SELECT status FROM django_tasks_database_dbtaskresult WHERE task_path LIKE ? ORDER BY 1"
    return [status for (status,) in read(database, sql, f"%.{name}")]


def wait_for(condition: Callable[[], object], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the worker did not do it in time"
        time.sleep(0.2)


@contextmanager
def db_worker(env: dict, log: Path) -> Iterator[subprocess.Popen]:
    """Run the database backend's worker on the site until the block ends."""
    command = [sys.executable, "manage.py", "db_worker", "--no-reload", "--interval", "0.2",
               "--no-startup-delay", "--queue-name", "*"]  # fmt: skip
    with log.open("w") as out:
        worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            yield worker
        finally:
            worker.terminate()
            worker.wait(timeout=20)


def test_the_worker_runs_a_queued_task_and_one_queued_while_it_was_stopped(site, tmp_path):
    database, env, ids = site
    with db_worker(env, tmp_path / "first.log"):
        wait_for(lambda: stamp(database, "last_turn_email_at", ids["bob"]))
    # The console backend printed the e-mail the worker sent.
    assert f"Subject: Your turn in match {ids['match']}" in (tmp_path / "first.log").read_text()
    assert task_statuses(database, "send_turn_notice") == ["SUCCESSFUL"]

    manage(env, "shell", "-c", SCHEDULE)  # queued while no worker runs: it waits as a row
    time.sleep(1)
    assert task_statuses(database, "send_daily_digests") == ["READY"]
    assert stamp(database, "last_digest_at", ids["bob"]) is None

    with db_worker(env, tmp_path / "second.log"):
        wait_for(lambda: stamp(database, "last_digest_at", ids["bob"]))
    # It ran, and queued the next day's run before it stopped.
    assert task_statuses(database, "send_daily_digests") == ["READY", "SUCCESSFUL"]
    assert "Subject: A match is waiting for you" in (tmp_path / "second.log").read_text()


def test_the_worker_command_runs_the_worker_on_the_same_settings(monkeypatch):
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
    assert worker_command() == [
        sys.executable, "-m", "django", "worker", "--settings", "hearts_site.settings",
    ]  # fmt: skip


def test_running_together_stops_the_others_when_one_ends():
    sleeper = [sys.executable, "-c", "import time; time.sleep(120)"]
    failing = [sys.executable, "-c", "import time, sys; time.sleep(0.5); sys.exit(3)"]
    started = time.monotonic()
    assert run_together([sleeper, failing]) == 3
    assert time.monotonic() - started < 30


def test_a_process_that_ends_cleanly_on_its_own_is_still_a_failure_of_the_whole():
    # daphne or a worker ending with status 0 leaves the site half up: whoever supervises
    # `serve` must see it fail and start it again.
    sleeper = [sys.executable, "-c", "import time; time.sleep(120)"]
    quitting = [sys.executable, "-c", "import time; time.sleep(0.5)"]
    assert run_together([sleeper, quitting]) == 1


def test_serve_runs_workers_for_clocks_and_bots_and_one_for_long_work(monkeypatch):
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
    commands = worker_commands(2)
    assert [command[command.index("worker") + 1 :] for command in commands] == [
        ["--queues", "now", "--settings", "hearts_site.settings"],
        ["--queues", "now", "--settings", "hearts_site.settings"],
        ["--queues", "long", "--settings", "hearts_site.settings"],
    ]


def children_of(pid: int) -> list[int]:
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return [int(child) for child in text.split()]


def alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return status != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads children from /proc")
def test_serve_starts_the_worker_beside_daphne_and_stops_both(site, tmp_path):
    database, env, ids = site
    port = free_port()
    with (tmp_path / "serve.log").open("w") as out:
        serve = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--no-demo", "--port", str(port),
             "--workers", "1"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            wait_until_up(f"http://127.0.0.1:{port}", serve, seconds=60)
            wait_for(lambda: stamp(database, "last_turn_email_at", ids["bob"]))
            children = children_of(serve.pid)
            assert len(children) == 3  # daphne, a worker for clocks and bots, one for long work
            # The worker command also put the first digest run in the queue.
            assert task_statuses(database, "send_daily_digests")
        finally:
            serve.send_signal(signal.SIGTERM)
            serve.wait(timeout=30)
    assert not [pid for pid in children if alive(pid)]


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="reads a process's priority")
def test_a_worker_of_long_work_yields_the_processor_to_the_clocks(site, tmp_path):
    database, env, ids = site
    command = [sys.executable, "manage.py", "worker", "--queues", "long"]
    with (tmp_path / "long.log").open("w") as out:
        worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            own = os.getpriority(os.PRIO_PROCESS, 0)
            # It lowers its priority once it has started: wait for its first task to run.
            wait_for(lambda: stamp(database, "last_turn_email_at", ids["bob"]))
            assert os.getpriority(os.PRIO_PROCESS, worker.pid) == min(19, own + 10)
        finally:
            worker.terminate()
            worker.wait(timeout=20)
