"""Faults lose nothing and never show a server error page (the scaled-out profile).

Two real daphne processes serve this test's PostgreSQL database and a Redis server of the
test's own (`redis-server` on a free port, never the shared one), and four players play a match
over HTTP, each request going to either process, as behind a proxy that spreads them:

- Redis stops for a while as the moves go on: every answer is a page or a redirect (or a clear
  503 "try again"), never a server error; every move accepted is in the match's log, which
  replays; once Redis is back, nobody has been logged out and a live socket hears the next move.
- Every connection to the test database is cut (`pg_terminate_backend`, this database's only)
  between requests: the next requests through each process are answered, not 500.

Those two run only on PostgreSQL with Redis (`DATABASE_URL` and `REDIS_URL`, as CI's second
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

from games.lib.cache_counts import count_up
from games.lib.limits import within_limit
from hearts_site.settings import redis_cache
from tests.scaled_out import (
    PEOPLE,
    WAIT,
    Move,
    assert_answered,
    assert_logged,
    follow,
    hears_a_version_after,
    seat_everyone,
    this_database_url,
)
from tests.servers import Visitor, daphne, free_port, require_program, site_env

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
