"""Faults lose nothing and never show a server error page (the scaled-out profile).

Two real daphne processes serve this test's PostgreSQL database and a Redis server of the
test's own (`redis-server` on a free port, never the shared one), and four players play a match
over HTTP, each request going to either process, as behind a proxy that spreads them:

- Redis stops for a while as the moves go on: every answer is a page or a redirect (or a clear
  503 "try again"), never a server error; every move accepted is in the match's log, which
  replays; once Redis is back, nobody has been logged out and a live socket hears the next move.
- Every connection to the test database is cut (`pg_terminate_backend`, this database's only)
  between requests: the next requests through each process are answered, not 500.
- The worker (`manage.py worker --queues now`) is killed outright, once with a bot's card taken
  and never finished, and restarted: the bots play on and a page hears them; a deadline that
  passed while it was down is timed out once. Its connections are cut again and again while it
  polls: it connects again and goes on. Every match's log replays.

These run only on PostgreSQL with Redis (`DATABASE_URL` and `REDIS_URL`, as CI's second
run); with CI set, a missing `redis-server` is a failure rather than a skip. The first tests,
on every profile, point the site's Redis cache at a port where nothing answers: counts and
sessions work without it.
"""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.error
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from importlib import import_module
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from games import services
from games.background.bot_runner import play_bot_turn
from games.lib.cache_counts import count_up
from games.lib.limits import within_limit
from games.models import Action, Match, Profile, Seat
from hearts_site.settings import redis_cache
from tests.conftest import PASSWORD
from tests.scaled_out import (
    PEOPLE,
    WAIT,
    Move,
    Table,
    assert_answered,
    assert_logged,
    follow,
    hears_a_version_after,
    seat_everyone,
    this_database_url,
)
from tests.servers import Visitor, daphne, free_port, require_program, site_env, worker

OUTAGE_SECONDS = 10


@pytest.fixture
def redis_unreachable(settings) -> None:
    """The site's Redis cache (as REDIS_URL sets it up), on a port where nothing answers."""
    settings.CACHES = {"default": redis_cache(f"redis://127.0.0.1:{free_port()}/0")}


@pytest.mark.usefixtures("redis_unreachable")
def test_counts_in_an_unreachable_cache_count_nothing_and_refuse_nothing():
    assert count_up("faults:count", 60) == 0
    assert all(within_limit("faults", "someone@example.com", 1, 60) for _ in range(3))


@pytest.mark.usefixtures("redis_unreachable")
def test_sessions_are_written_and_read_without_the_cache(db):
    store = import_module(django_settings.SESSION_ENGINE).SessionStore
    session = store()
    session["_auth_user_id"] = "7"
    session.save()
    assert store(session.session_key).load()["_auth_user_id"] == "7"


@pytest.fixture
def redis_server_installed(scaled_out_profile) -> None:
    require_program("redis-server", "the test stops and starts a Redis of its own")


def drop_database_connections() -> int:
    """Terminate every other session of this test's database; return how many there were."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return int(cursor.fetchone()[0])


class PrivateRedis:
    """A redis-server of this test's own, on a free port, to stop and start again."""

    def __init__(self, log: Path) -> None:
        self.port = free_port()
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no"]
        with self.log.open("a") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + WAIT
        while not self.answers():
            assert self.process.poll() is None, self.log.read_text()
            assert time.monotonic() < deadline, "the private Redis did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=WAIT)
            self.process = None


@contextmanager
def private_redis(log: Path) -> Iterator[PrivateRedis]:
    redis = PrivateRedis(log)
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


@contextmanager
def two_servers(env: dict[str, str], logs: Path) -> Iterator[list[str]]:
    """Two daphne processes on the same database and Redis; their logs go to files."""
    with ExitStack() as stack:
        yield [stack.enter_context(daphne(env, log=logs / f"daphne-{n}.log")) for n in (1, 2)]


def site(redis_url: str) -> dict[str, str]:
    env = site_env(Path("unused"), redis_url)
    env["DATABASE_URL"] = this_database_url()
    return env


@pytest.mark.usefixtures("redis_server_installed", "real_password_hashing")
def test_moves_while_redis_is_down_are_stored_or_refused_and_nobody_is_logged_out(tmp_path):
    with (
        private_redis(tmp_path / "redis.log") as redis,
        two_servers(site(redis.url), tmp_path) as bases,
        ExitStack() as sockets,
    ):
        table = seat_everyone(bases)
        for _ in range(6):  # the passes and a first card, with Redis up
            table.move()
        assert_answered(table.moves)
        early, early_version = sockets.enter_context(
            follow(table.players[0], bases[1], table.match.pk)
        )

        redis.stop()
        during: list[Move] = []
        ends = time.monotonic() + OUTAGE_SECONDS
        while time.monotonic() < ends:
            move = table.move()
            assert move is not None, "the match ended during the outage"
            during.append(move)
            time.sleep(0.05)
        redis.start()

        assert during, "no move was sent while Redis was down"
        assert_answered(during)
        stored = [m for m in during if 200 <= m.status < 300]
        assert stored, "every move was refused while Redis was down"
        assert_answered(table.moves)
        assert_logged(table)

        # Nobody was logged out: each player's session still opens their pages, on both servers.
        for n, player in enumerate(table.players):
            for base in bases:
                player.base = base
                assert "Log out" in player.get("/"), f"{PEOPLE[n]} was logged out"

        # Live updates resume by themselves: a socket following the match hears the next move.
        # The page opened before the outage has been told to reconnect (its socket closed), or
        # its socket hears the move too: it is never left open and deaf.
        follower = table.players[(table.state().to_act()[0] + 1) % len(PEOPLE)]
        with follow(follower, bases[1], table.match.pk) as (live, version):
            table.sent = 0  # through the first server: the event crosses Redis
            move = table.move()
            assert move is not None and 200 <= move.status < 300, move
            assert hears_a_version_after(live, version)
            assert hears_a_version_after(early, early_version) in {True, "closed"}
        assert_logged(table)


def pages_at_once(players: list[Visitor], base: str) -> list[int]:
    """Each player opens the home page through `base` at the same time; return the statuses.

    Four requests at once keep every thread of the server busy, so each serves one.
    """

    def open_home(player: Visitor) -> int:
        try:
            with player.opener.open(base + "/", timeout=WAIT) as response:
                response.read()
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    with ThreadPoolExecutor(max_workers=len(players)) as pool:
        return list(pool.map(open_home, players))


@pytest.mark.usefixtures("redis_server_installed", "real_password_hashing")
def test_requests_after_the_database_dropped_every_connection_are_answered(tmp_path):
    with (
        private_redis(tmp_path / "redis.log") as redis,
        two_servers(site(redis.url), tmp_path) as bases,
    ):
        table = seat_everyone(bases)
        for _ in range(4):
            table.move()
        assert_answered(table.moves)
        # Every thread of each server now holds its database connection.
        for base in bases:
            for _ in range(3):
                assert pages_at_once(table.players, base) == [200] * len(PEOPLE)

        assert drop_database_connections() > 0
        statuses = [status for base in bases for status in pages_at_once(table.players, base)]
        assert statuses == [200] * len(statuses), statuses
        after = [table.move() for _ in range(4)]
        assert all(m is not None and 200 <= m.status < 300 for m in after), after
        assert_logged(table)


# The worker: killed outright and restarted, and cut off from the database.

BOT_LEVELS = ("normal",) * 3


def worker_site(redis_url: str) -> dict[str, str]:
    """The site's environment for a worker: a sweep every second, and a table whose bot's card
    was lost with a killed worker counted as stuck after two seconds, not thirty."""
    return {**site(redis_url), "SWEEP_INTERVAL_SECONDS": "1", "BOT_STUCK_SECONDS": "2"}


def alice_against_three_bots() -> Match:
    """Alice and three searching bots, a minute a decision; the bots have passed."""
    from django.contrib.auth import get_user_model

    alice = get_user_model().objects.create_user(username="alice", password=PASSWORD)
    Profile.objects.filter(user=alice).update(display_name="Alice", auto_play_forced=False)
    options = services.MatchOptions(
        bots=3, bot_levels=BOT_LEVELS, auto_finish=False, decision_seconds=60
    )
    match = services.create_match(alice, options)
    assert match.snapshot is not None, "the match did not start"
    return match


def alice_to_act(table: Table) -> bool:
    return table.state().to_act() == (0,)


def wait_for(condition, what: str, worker: subprocess.Popen | None, log: Path) -> None:
    """Poll until the condition holds; fail if the worker died or it took longer than WAIT."""
    deadline = time.monotonic() + WAIT
    while not condition():
        if worker is not None:
            assert worker.poll() is None, f"the worker stopped:\n{log.read_text()}"
        assert time.monotonic() < deadline, f"{what}, not within {WAIT} s:\n{log.read_text()}"
        time.sleep(0.05)


def alice_moves(table: Table, worker: subprocess.Popen | None, log: Path) -> Move:
    """Alice makes her move (through the next server); the match is not over."""
    wait_for(lambda: alice_to_act(table), "the bots did not play up to alice", worker, log)
    move = table.move()
    assert move is not None and move.seat == 0 and 200 <= move.status < 300, move
    return move


def timeouts_of(match: Match) -> int:
    return Action.objects.filter(match=match, actor=Action.Actor.TIMEOUT).count()


def assert_replays(match: Match) -> None:
    """The stored log replays to the stored table: no decision was applied twice or lost
    (a card played twice would not replay: the second is no longer in the hand)."""
    match.refresh_from_db()
    assert services.replay_match(match).snapshot() == match.snapshot


@pytest.mark.usefixtures("redis_server_installed", "real_password_hashing")
def test_a_worker_killed_and_restarted_resumes_the_bots_and_the_clocks_once(tmp_path):
    log = tmp_path / "worker.log"
    with (
        private_redis(tmp_path / "redis.log") as redis,
        two_servers(worker_site(redis.url), tmp_path) as bases,
    ):
        env = worker_site(redis.url)
        match = alice_against_three_bots()
        table = Table(match, [Visitor(bases[0]).log_in("alice", PASSWORD)], bases)
        alice_moves(table, None, log)  # her pass: the bots lead and play as the worker comes

        with worker(env, "now", log) as running:
            for _ in range(3):
                alice_moves(table, running, log)
            wait_for(lambda: alice_to_act(table), "the bots did not play", running, log)
            running.kill()
            running.wait()

        # A worker killed in the middle of the bots' search leaves their card's task taken and
        # never finished. Alice's next card is answered by such a task, made certain here by
        # claiming it as a worker does before it runs a task.
        alice_moves(table, None, log)
        (lost,) = DBTaskResult.objects.filter(
            task_path=play_bot_turn.module_path, status=TaskResultStatus.READY
        )
        lost.claim("a-worker-killed-mid-search")
        waiting_at = table.state().snapshot()
        time.sleep(1)  # with no worker, nothing moves the table on
        assert table.state().snapshot() == waiting_at

        with (
            worker(env, "now", log) as running,
            follow(table.players[0], bases[1], match.pk) as (live, version),
        ):
            # The sweep finds the table waiting on a bot for longer than BOT_STUCK_SECONDS and
            # queues its card again: the bots play on, and the page hears them.
            wait_for(lambda: alice_to_act(table), "the lost card was not played", running, log)
            assert hears_a_version_after(live, version) is True
            # Killed outright as it takes the bots' cards after her next one, whatever it holds.
            alice_moves(table, running, log)
            running.kill()
            running.wait()
        with worker(env, "now", log) as running:
            wait_for(lambda: alice_to_act(table), "the bots did not play again", running, log)
        assert timeouts_of(match) == 0
        waiting = Seat.objects.get(match=match, position=0)
        assert waiting.to_act and waiting.deadline

        # Alice's minute runs out while no worker runs; the worker that comes back (its clock a
        # minute past her deadline) times her decision out once, and the bots go on from it.
        past = (waiting.deadline - timezone.now()).total_seconds() + 60
        with worker(env, "now", log, clock_offset=past) as running:
            wait_for(lambda: timeouts_of(match) == 1, "no timeout applied", running, log)
            wait_for(lambda: alice_to_act(table), "the bots did not play on", running, log)
            time.sleep(2)  # two more sweeps: none times the same decision out again
        assert timeouts_of(match) == 1
        assert_replays(match)
    assert "Traceback" not in (tmp_path / "daphne-1.log").read_text()


@pytest.mark.usefixtures("redis_server_installed", "real_password_hashing")
def test_a_worker_cut_off_from_the_database_connects_again_and_goes_on(tmp_path):
    log = tmp_path / "worker.log"
    with (
        private_redis(tmp_path / "redis.log") as redis,
        two_servers(site(redis.url), tmp_path) as bases,
    ):
        match = alice_against_three_bots()
        table = Table(match, [Visitor(bases[0]).log_in("alice", PASSWORD)], bases)
        with worker(worker_site(redis.url), "now", log) as running:
            for _ in range(3):
                alice_moves(table, running, log)
            wait_for(lambda: alice_to_act(table), "the bots did not play", running, log)

            # Cut again and again for two seconds: the worker, which looks for due tasks
            # every 20 ms, loses its connection between queries and in the middle of one.
            dropped = 0
            ends = time.monotonic() + 2
            while time.monotonic() < ends:
                dropped += drop_database_connections()
                time.sleep(0.01)
            assert dropped > 0
            for _ in range(3):  # the bots answer each of her cards: the worker is back
                alice_moves(table, running, log)
            wait_for(lambda: alice_to_act(table), "the bots did not play again", running, log)
            assert running.poll() is None, log.read_text()
        assert_replays(match)
