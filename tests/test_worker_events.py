"""What the worker processes do reaches the sockets daphne serves, live.

The site runs as `manage.py serve` runs it: daphne, and beside it `manage.py worker --queues now`
(timeouts, searching bots' cards, the sweep) and `--queues long` (rounds finished by bots), each
its own process on the site's SQLite file. Each test follows a match over a real WebSocket and
waits for what a worker did: a timeout, the bots' cards, a round finished by bots and the next
one seated.

Once on the default profile, where the channel layer lives in daphne's memory and a worker's
events reach it through the database (`RelayedEvent`, read by daphne's relay), and once with
Redis, which every process shares (its own Redis database: see tests/parallel.py).
"""

import json
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from websockets.sync.client import ClientConnection, connect

from tests.conftest import PASSWORD
from tests.parallel import WORKER_EVENTS_REDIS_DATABASE
from tests.servers import (
    Visitor,
    daphne,
    free_port,
    manage,
    migrate,
    require_redis,
    site_env,
    worker,
)

REDIS_URL = f"redis://127.0.0.1:6379/{WORKER_EVENTS_REDIS_DATABASE}"
# Seconds: a generous bound on workers starting up and doing what the test waits for.
WAIT = 60
# The worker's clock, moved past any deadline set while the match was prepared (a minute).
PAST_THE_DEADLINE = 150

Frame = dict


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> Callable[[str], tuple[Path, dict]]:
    """Return a maker of prepared sites: a migrated SQLite file on which a setup script of
    tests/worker_setup.py ran, once a script for the module; each test copies it."""
    folder = tmp_path_factory.mktemp("workers")
    migrated = folder / "migrated.sqlite3"
    made: dict[str, tuple[Path, dict]] = {}

    def make(script: str) -> tuple[Path, dict]:
        if script not in made:
            if not migrated.exists():
                migrate(site_env(migrated))
            database = folder / f"{len(made)}.sqlite3"
            shutil.copy(migrated, database)
            code = f"from tests import worker_setup; worker_setup.{script}"
            printed = manage(site_env(database), "shell", "-c", code)
            made[script] = database, json.loads(printed.strip().splitlines()[-1])
        return made[script]

    return make


@pytest.fixture(params=["in-memory", "redis"])
def redis_url(request) -> str:
    """The Redis the site's processes share, or none (the default profile)."""
    if request.param == "redis":
        require_redis()
        return REDIS_URL
    return ""


@pytest.fixture
def site(prepared, redis_url, tmp_path) -> Callable[[str], tuple[dict[str, str], dict]]:
    """Return a maker of this test's own site: its environment and what the script made."""

    def make(script: str) -> tuple[dict[str, str], dict]:
        template, made = prepared(script)
        database = tmp_path / "site.sqlite3"
        shutil.copy(template, database)
        return site_env(database, redis_url), made

    return make


def database_of(env: dict[str, str]) -> Path:
    return Path(env["DATABASE_URL"].removeprefix("sqlite:///"))


def rows(env: dict[str, str], query: str, *params: object) -> list[tuple]:
    """Read the site's database as it stands (what the workers committed)."""
    with sqlite3.connect(database_of(env)) as db:
        return db.execute(query, params).fetchall()


@contextmanager
def live_socket(visitor: Visitor, follow: int | None = None) -> Iterator[ClientConnection]:
    """Open the visitor's live socket, as any page does, following the match if given."""
    headers = visitor.socket_headers()
    with connect(visitor.socket_url, origin=visitor.base, additional_headers=headers) as socket:
        if follow is not None:
            socket.send(json.dumps({"follow": follow}))
            (answer,) = frames_until(socket, lambda frame: True, "the answer to following")
            assert answer["type"] == "following" and answer["match"] == follow
        yield socket


def frames_until(
    socket: ClientConnection,
    done: Callable[[Frame], bool],
    what: str,
    logs: tuple[Path, ...] = (),
) -> list[Frame]:
    """Read the socket's frames until one is `done`; return them all. Fail after WAIT s."""
    frames: list[Frame] = []
    limit = time.monotonic() + WAIT
    while True:
        try:
            frame = json.loads(socket.recv(timeout=max(0.0, limit - time.monotonic())))
        except TimeoutError:
            said = "\n".join(f"--- {log.name}:\n{log.read_text()}" for log in logs if log.exists())
            raise AssertionError(f"no {what} within {WAIT} s; came: {frames}\n{said}") from None
        frames.append(frame)
        if done(frame):
            return frames


def updates_of(frames: list[Frame], match: int) -> list[Frame]:
    return [f for f in frames if f["type"] == "match.updated" and f["match"] == match]


def check_the_path(env: dict[str, str], redis_url: str) -> None:
    """The events went through the database on the default profile, and only there."""
    relayed = rows(env, "SELECT count(*) FROM games_relayedevent")[0][0]
    if redis_url:
        assert relayed == 0
    else:
        assert relayed > 0


def no_tracebacks(*logs: Path) -> None:
    for log in logs:
        assert "Traceback" not in log.read_text(), log.read_text()


def test_a_timeout_made_by_the_worker_reaches_the_match_s_followers(site, redis_url, tmp_path):
    env, made = site("timed_bob_owes_a_card()")
    match, version, users = made["match"], made["version"], made["users"]
    log = tmp_path / "now.log"
    with daphne(env) as base:
        alice = Visitor(base).log_in("alice", PASSWORD)
        bob = Visitor(base).log_in("bob", PASSWORD)
        # Bob owes a card, a minute to play it; the worker's clock is past that minute.
        with (
            live_socket(alice, follow=match) as alices,
            live_socket(bob) as bobs,
            worker(env, "now", log, clock_offset=PAST_THE_DEADLINE),
        ):
            people = set(users.values())
            frames = frames_until(
                alices,
                lambda f: f["type"] == "match.updated" and bool(set(f["to_act"]) & people),
                "update in which a person is to act again",
                (log,),
            )
            last = updates_of(frames, match)[-1]
            (person,) = last["to_act"]
            notices = frames_until(
                alices if person == users["alice"] else bobs,
                lambda f: f["type"] == "turn.notify" and f["version"] == last["version"],
                "turn notice",
                (log,),
            )
    assert notices[-1]["match"] == match
    updates = updates_of(frames, match)
    # Every version after bob's timeout came, in order, up to a person's turn.
    assert [u["version"] for u in updates] == list(range(version + 1, last["version"] + 1))
    assert all(u["status"] == "active" for u in updates)
    # The first of them was the worker's timeout of bob's card.
    timed_out = rows(
        env,
        "SELECT seat, version FROM games_action WHERE match_id = ? AND actor = 'timeout'",
        match,
    )
    assert timed_out == [(1, version + 1)]
    check_the_path(env, redis_url)
    no_tracebacks(log)


def test_the_searching_bots_cards_played_by_the_worker_reach_the_player(site, redis_url, tmp_path):
    env, made = site("alice_against_searching_bots()")
    match, version, alice_id = made["match"], made["version"], made["users"]["alice"]
    log = tmp_path / "now.log"
    with daphne(env) as base:
        alice = Visitor(base).log_in("alice", PASSWORD)
        with live_socket(alice, follow=match) as socket, worker(env, "now", log):
            card = {"version": version, "card": made["card"]}
            assert alice.post(f"/matches/{match}/play/", card) == 200  # back to the match page
            frames = frames_until(
                socket,
                lambda f: f["type"] == "turn.notify" and f["match"] == match,
                "turn notice once the bots have played",
                (log,),
            )
    notice = frames[-1]
    updates = updates_of(frames, match)
    versions = [u["version"] for u in updates]
    # Her own card, then the bots' cards until it is her turn again: each card a version of its
    # own, each task's cards announced once, as the table stands after its last.
    assert versions[0] == version + 1 and versions[-1] == notice["version"]
    assert versions == sorted(set(versions)) and len(versions) >= 2
    assert updates[0]["to_act"] == [] and updates[-1]["to_act"] == [alice_id]
    assert all(u["to_act"] == [] for u in updates[:-1])
    # The worker played them: a task goes on with the next bot's card while it has time
    # (BOT_TASK_SECONDS), so one task at least, and never more tasks than cards.
    bot_cards = rows(
        env,
        "SELECT count(*) FROM games_action WHERE match_id = ? AND version > ? AND actor = 'bot'",
        match,
        version + 1,
    )[0][0]
    assert bot_cards == notice["version"] - version - 1
    played = rows(
        env,
        "SELECT count(*) FROM django_tasks_database_dbtaskresult"
        " WHERE task_path LIKE '%play_bot_turn' AND status = 'SUCCESSFUL'",
    )[0][0]
    assert 1 <= played <= bot_cards
    assert len(versions) - 1 <= played, "one update a task at most"
    check_the_path(env, redis_url)
    no_tracebacks(log)


def test_a_round_finished_by_bots_and_the_next_one_seated_reach_the_players(
    site, redis_url, tmp_path
):
    # "Finish by bots now" is queued for the first round, its task waiting for a worker.
    env, made = site("tournament_round_to_finish()")
    (table,) = made["tables"]
    match, player = table["match"], table["users"][0]
    username = next(name for name, pk in made["users"].items() if pk == player)
    log = tmp_path / "long.log"
    with daphne(env) as base:
        visitor = Visitor(base).log_in(username, PASSWORD)
        # The long worker takes the task: the table has no searching bot, so no card of the
        # round is left to the now worker.
        with live_socket(visitor, follow=match) as socket, worker(env, "long", log):
            frames = frames_until(
                socket,
                lambda f: f["type"] == "tournament.seated" and "/matches/" in f["url"],
                "seat at a started match of the next round",
                (log,),
            )
    updates = updates_of(frames, match)
    versions = [u["version"] for u in updates]
    assert versions == sorted(set(versions)) and len(versions) > 13  # every card of a hand
    assert updates[-1]["status"] == "finished"
    seated = [f for f in frames if f["type"] == "tournament.seated"]
    # Seated in round 2 (told once seated, again once its match started), at a new match.
    assert {f["round"] for f in seated} == {2}
    assert seated[-1]["tournament"] == "Worker Cup" and seated[-1]["table"] == 1
    assert seated[-1]["url"] != f"/matches/{match}/"
    # All of it by the long worker: the round's task, then the next round, started.
    tasks = "SELECT task_path, status FROM django_tasks_database_dbtaskresult"
    assert [s for path, s in rows(env, tasks) if path.endswith("finish_round_now")] == [
        "SUCCESSFUL"
    ]
    assert rows(env, "SELECT number, status FROM games_round ORDER BY number") == [
        (1, "closed"),
        (2, "running"),
    ]
    check_the_path(env, redis_url)
    no_tracebacks(log)


def test_a_socket_reconnecting_to_a_restarted_server_hears_the_workers(prepared, tmp_path):
    # A page whose server restarted reconnects its socket at once, with no HTTP request: the
    # restarted server must relay the workers' events to it all the same (the default profile).
    template, made = prepared("timed_bob_owes_a_card()")
    database = tmp_path / "site.sqlite3"
    shutil.copy(template, database)
    env = site_env(database)
    log = tmp_path / "now.log"
    port = free_port()
    with daphne(env, port) as base:
        alice = Visitor(base).log_in("alice", PASSWORD)
    with (
        daphne(env, port, probe=False),
        live_socket(alice, follow=made["match"]) as socket,
        worker(env, "now", log, clock_offset=PAST_THE_DEADLINE),
    ):
        frames = frames_until(socket, lambda f: f["type"] == "match.updated", "update", (log,))
    assert frames[-1]["version"] == made["version"] + 1
    check_the_path(env, "")
